package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/glassworks/glass/internal/readlimit"
)

// reportFiles are the report files of a command (--json, --junit,
// --html), opened before the work that fills them so that an unwritable
// path is a usage error, not a report lost after a long run. Only a
// regular file is written: a device, a FIFO, a directory or a file the
// kernel makes up (under /proc or /sys) is refused, as
// writing one could block or clobber what is no report. A file that did
// not exist is created, and removed again when the command ends before
// writing it; one that existed is emptied only when its report is
// written, and never removed.
type reportFiles struct {
	files   []reportFile
	written bool
}

// unwritten are the report files opened and not yet written or
// abandoned: a signal that ends the command (interrupted) abandons them,
// so that an interrupted run leaves no empty report a CI job could read
// as one with no failures.
var unwritten = struct {
	sync.Mutex
	sets map[*reportFiles]bool
}{sets: map[*reportFiles]bool{}}

// abandonUnwritten abandons every report file not yet written.
func abandonUnwritten() {
	unwritten.Lock()
	defer unwritten.Unlock()
	for r := range unwritten.sets {
		r.abandonLocked()
	}
}

type reportFile struct {
	flag    string
	f       *os.File
	created bool
}

// openReports opens the files of paths, pairs of a flag and its path (an
// empty path is no report), in order.
func openReports(paths ...[2]string) (*reportFiles, error) {
	r := &reportFiles{}
	for _, fp := range paths {
		flag, p := fp[0], fp[1]
		if p == "" {
			continue
		}
		rf := reportFile{flag: flag}
		st, err := os.Stat(p)
		var not string
		if err == nil {
			not = readlimit.NotPlain(p, st)
		}
		switch {
		case not != "":
			r.abandon()
			return nil, fmt.Errorf("%s %q: not a regular file (%s)", flag, p, not)
		case err == nil:
			rf.f, err = os.OpenFile(p, os.O_WRONLY, 0)
		case errors.Is(err, fs.ErrNotExist):
			rf.f, err = os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			rf.created = true
		}
		if err != nil {
			r.abandon()
			return nil, fmt.Errorf("%s %q: cannot write the report: %v", flag, p, pathErr(err))
		}
		r.files = append(r.files, rf)
	}
	unwritten.Lock()
	unwritten.sets[r] = true
	unwritten.Unlock()
	return r, nil
}

// write renders each report into its file, from its start.
func (r *reportFiles) write(render func(flag string, w io.Writer) error) error {
	unwritten.Lock()
	r.written = true
	delete(unwritten.sets, r)
	unwritten.Unlock()
	var errs []error
	for _, rf := range r.files {
		err := rf.f.Truncate(0)
		if err == nil {
			err = render(rf.flag, rf.f)
		}
		if cerr := rf.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", filepath.Base(rf.f.Name()), err))
		}
	}
	return errors.Join(errs...)
}

// abandon closes the files of a command that ended before writing them
// and removes those it created, so that no empty report is mistaken for a
// result.
func (r *reportFiles) abandon() {
	if r == nil {
		return
	}
	unwritten.Lock()
	defer unwritten.Unlock()
	r.abandonLocked()
}

func (r *reportFiles) abandonLocked() {
	delete(unwritten.sets, r)
	if r.written {
		return
	}
	r.written = true // once
	for _, rf := range r.files {
		rf.f.Close()
		if rf.created {
			os.Remove(rf.f.Name())
		}
	}
}
