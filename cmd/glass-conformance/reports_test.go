package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAnInterruptedRunLeavesNoEmptyReport: a run ended by SIGTERM, SIGINT
// or SIGHUP before it wrote its reports removes the files it created for
// them (an empty JUnit file reads as a run with no failures), and exits
// as the signal would, 128 plus its number. An outside audit found them
// left behind.
func TestAnInterruptedRunLeavesNoEmptyReport(t *testing.T) {
	// ready() never resolves: the run waits its open bound, long enough to
	// be interrupted while its report files are open.
	page := serve(t, htmlPage(`<!doctype html><title>Slow</title><script src="/glass-runtime.js"></script><p>never defined</p>`))
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			js, junit := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.xml")
			cmd := exec.Command(bin, "run", "--url", page, "--json", js, "--junit", junit)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for {
				_, e1 := os.Stat(js)
				_, e2 := os.Stat(junit)
				if e1 == nil && e2 == nil {
					break
				}
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatalf("the run created no report files within 30s:\n%s", out.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
				t.Errorf("the run ended with %v, want exit %d\n%s", err, 128+int(sig), out.String())
			}
			for _, f := range []string{js, junit} {
				if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s is left after %s (stat: %v)", filepath.Base(f), sig, err)
				}
			}
		})
	}
}
