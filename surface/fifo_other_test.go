//go:build !unix

package surface_test

import "errors"

// mkfifo: this system has no named pipes to make.
func mkfifo(string) error { return errors.ErrUnsupported }
