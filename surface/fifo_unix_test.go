//go:build unix

package surface_test

import "syscall"

// mkfifo makes a named pipe at path: a file that blocks whoever opens it
// for reading until a writer comes.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
