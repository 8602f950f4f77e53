// Package proc holds what Glass's subprocesses share — the dev servers of
// internal/devserver and the Playwright server of internal/browser: a
// process group to stop as one, and a bounded buffer for their output.
package proc

import "sync"

// Buffer collects a subprocess's output from several goroutines, keeping
// at most Max bytes (its tail) when Max > 0.
type Buffer struct {
	Max int

	mu sync.Mutex
	b  []byte
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if l.Max > 0 && len(l.b) > l.Max {
		l.b = append([]byte(nil), l.b[len(l.b)-l.Max:]...)
	}
	return len(p), nil
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

// Tail is the last n bytes of s, after "…" when it cut.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
