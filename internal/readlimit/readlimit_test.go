package readlimit

import (
	"errors"
	"io"
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
