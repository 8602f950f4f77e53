package surface_test

import (
	"errors"
	"testing"
)

// haveFIFO makes a named pipe at path and reports whether the system has
// them; where it has, failing to make one fails the test.
func haveFIFO(t *testing.T, path string) bool {
	t.Helper()
	err := mkfifo(path)
	if errors.Is(err, errors.ErrUnsupported) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}
