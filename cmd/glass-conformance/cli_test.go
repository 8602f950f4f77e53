package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build compiles the CLI once per test binary; the tests run the real
// binary, as a CI gate would.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "glass-conformance")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runBinary(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Env = os.Environ()
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %v: %v", args, err)
	}
	return o.String(), e.String(), code
}

func TestCLI(t *testing.T) {
	bin := build(t)

	t.Run("run with no URL checks the embedded Todo example and exits 0", func(t *testing.T) {
		out, errOut, code := runBinary(t, bin, "run")
		if code != 0 {
			t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		for _, want := range []string{"PASS       policy.denied", "0 failed"} {
			if !strings.Contains(out, want) {
				t.Errorf("stdout lacks %q:\n%s", want, out)
			}
		}
	})

	usage := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "usage: glass-conformance"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown flag", []string{"run", "--frob"}, "flag provided but not defined: -frob"},
		{"malformed URL", []string{"run", "--url", "::not a url"}, `--url "::not a url"`},
		{"URL without scheme", []string{"run", "--url", "example.test/page"}, "want an http or https URL"},
	}
	for _, tc := range usage {
		t.Run(tc.name+" exits 2 with one clear line", func(t *testing.T) {
			_, errOut, code := runBinary(t, bin, tc.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr = %q, want it to contain %q", errOut, tc.want)
			}
			if strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "panic") {
				t.Errorf("stderr shows a stack trace:\n%s", errOut)
			}
		})
	}
}
