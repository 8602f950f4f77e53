package readlimit

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestAReadThatNeverEndsIsGivenUp(t *testing.T) {
	r, w := io.Pipe() // nothing is ever written: the read blocks, as /proc/kmsg's does
	defer w.Close()
	start := time.Now()
	_, err := ReadAll(r, 10, 50*time.Millisecond)
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("got %v, want ErrStalled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %v", d)
	}
}

func TestAReadReturnsOneByteOverItsLimit(t *testing.T) {
	b, err := ReadAll(strings.NewReader("abcdef"), 3, time.Second)
	if err != nil || string(b) != "abcd" {
		t.Fatalf("got %q, %v; want the limit and one byte more", b, err)
	}
}

func TestNotPlainRefusesWhatIsNoFileOfOurs(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(plain, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		plain:             "",
		"/proc/self/comm": "a file the kernel makes up",
		"/dev/null":       "a device",
		t.TempDir():       "a directory",
	} {
		if runtime.GOOS != "linux" && strings.HasPrefix(path, "/proc") {
			continue
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := NotPlain(path, st); got != want {
			t.Errorf("NotPlain(%q) = %q, want %q", path, got, want)
		}
	}
}
