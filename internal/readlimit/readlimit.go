// Package readlimit reads what a user names as a file — a manifest, a
// baseline, a surface — within a size and a time: a path can name a file
// the kernel makes up as it is read (/proc/kmsg reads as a regular file of
// size 0 and blocks until the kernel logs), and a command that reads its
// input must end.
package readlimit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
)

// Within bounds the read of one input file: a file on disk reads in
// microseconds; one that has said nothing for this long never will.
const Within = 10 * time.Second

// ErrStalled is returned when the read did not end within its bound.
var ErrStalled = errors.New("the read did not end")

// ReadAll reads r to its end, at most limit+1 bytes (so that a caller can
// tell a file over its limit), within d. When the read stalls, the
// goroutine reading it is left blocked and the caller gets ErrStalled.
func ReadAll(r io.Reader, limit int64, d time.Duration) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		done <- result{b, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.b, res.err
	case <-timer.C:
		return nil, fmt.Errorf("%w within %v: it is not a file on disk (a device or a file the kernel makes up as it is read?)", ErrStalled, d)
	}
}

// NotPlain says why path, whose information is st, is no file a command
// may write ("" when it may): what Kind says of anything but a regular
// file, and of a regular file the kernel makes up (under /proc, /sys and
// their like, where writing one changes the process or the machine, not
// a file) that it is one.
func NotPlain(path string, st fs.FileInfo) string {
	if !st.Mode().IsRegular() {
		return Kind(st.Mode())
	}
	if kernelMade(path) {
		return "a file the kernel makes up"
	}
	return ""
}

// Kind names what a file mode that is no regular file is, for a message
// that refuses it ("not a regular file (a named pipe)"): only a regular
// file is read or written, as a pipe, a device or a socket can block or
// stream for ever, and writing one can clobber what is no file of ours.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}
