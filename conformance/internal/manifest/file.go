package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/glassworks/glass/internal/readlimit"
)

// MaxFileSize is the most bytes a manifest or a baseline may hold: far
// more than a hand-written one needs, and a bound on what a path given by
// mistake (/dev/zero, a log file) can cost.
const MaxFileSize = 1 << 20

// ErrNotRegular and ErrTooLarge say why a manifest or baseline file was
// not read.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = fmt.Errorf("larger than %d bytes", MaxFileSize)
)

// readFile reads file when it is a regular file of at most MaxFileSize
// bytes. Anything else — a device, a named pipe, a directory, a socket —
// is refused before it is opened, so that reading it cannot block or
// stream for ever; the open file is checked again, and read through a
// limit, in case it changed in between.
func readFile(file string) ([]byte, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, pathErr(err)
	}
	if err := regular(st); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, pathErr(err)
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, pathErr(err)
	}
	if err := regular(st); err != nil {
		return nil, err
	}
	b, err := readlimit.ReadAll(f, MaxFileSize, readlimit.Within)
	if err != nil {
		return nil, pathErr(err)
	}
	if len(b) > MaxFileSize {
		return nil, ErrTooLarge
	}
	return b, nil
}

// regular refuses what is not a regular file of at most MaxFileSize bytes,
// naming what it is.
func regular(st fs.FileInfo) error {
	m := st.Mode()
	switch {
	case !m.IsRegular():
		return fmt.Errorf("%w (%s)", ErrNotRegular, readlimit.Kind(m))
	case st.Size() > MaxFileSize:
		return ErrTooLarge
	}
	return nil
}

// pathErr is the cause of a file error without the path, which the
// caller's message names already.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
