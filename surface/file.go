package surface

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/glassworks/glass/internal/readlimit"
	"github.com/glassworks/glass/receipt"
)

// MaxFileBytes bounds a surface file: a snapshot lists at most 500
// actions, and their surface fits in far less.
const MaxFileBytes = 8 << 20

// Marshal renders s as Glass writes JSON files: canonical JSON, indented
// by two spaces, one final newline, with characters that would not print
// as themselves escaped (receipt.PrintableJSON), so that what a reviewer
// sees in a pull request is what the file says. Entries are written
// sorted by name.
func Marshal(s *Surface) ([]byte, error) {
	if s == nil {
		return nil, errors.New("surface: marshal: no surface")
	}
	c := *s
	if c.Format == "" {
		c.Format = Format
	}
	c.Actions = slices.Clone(s.Actions)
	if c.Actions == nil {
		c.Actions = []Action{}
	}
	slices.SortFunc(c.Actions, func(a, b Action) int { return strings.Compare(a.Name, b.Name) })
	b, err := receipt.CanonicalJSON(c)
	if err != nil {
		return nil, fmt.Errorf("surface: marshal: %w", err)
	}
	return receipt.PrintableJSON(b), nil
}

// WriteFile writes s to path with Marshal. It replaces the file in one
// step (a temporary file in the same directory, renamed), so that a
// baseline is never left half written, and refuses to write over anything
// but a regular file.
func WriteFile(path string, s *Surface) error {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("surface: write %q: not a regular file (%s)", path, readlimit.Kind(st.Mode()))
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".glass-surface-*.json")
	if err != nil {
		return fmt.Errorf("surface: write %q: %w", path, pathErr(err))
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("surface: write %q: %w", path, pathErr(werr))
	}
	return nil
}

// Load reads and decodes the surface file at path (see ReadFile and
// Decode). Errors name the file.
func Load(path string) (*Surface, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("surface: %q: %w", path, err)
	}
	return s, nil
}

// ErrNotRegular is wrapped by ReadFile's error for a path that is not a
// regular file (a directory, a FIFO, a device such as /dev/zero).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by ReadFile's error for a file over MaxFileBytes.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads a file only when it is a regular file of at most
// MaxFileBytes, so that a FIFO, a device or a directory given by mistake
// is one clear error and never a hang or an endless read. A missing file
// is an error that wraps fs.ErrNotExist.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("surface: read %q: %w", path, pathErr(err))
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("surface: read %q: %w (%s)", path, ErrNotRegular, readlimit.Kind(st.Mode()))
	}
	// O_NONBLOCK: if the path was swapped for a FIFO since the Stat, the
	// open must not wait for a writer; the Stat of the open file below
	// then refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("surface: read %q: %w", path, pathErr(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("surface: read %q: %w", path, ErrNotRegular)
	}
	b, err := readlimit.ReadAll(f, MaxFileBytes, readlimit.Within)
	if err != nil {
		return nil, fmt.Errorf("surface: read %q: %w", path, pathErr(err))
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("surface: read %q: %w (over %d bytes)", path, ErrTooLarge, MaxFileBytes)
	}
	return b, nil
}

// pathErr drops the path an *fs.PathError repeats, since the message
// names the file already; the cause stays wrapped.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
