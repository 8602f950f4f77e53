package browser

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// progressHandler turns playwright-go's set-up log records ("Downloading
// driver", path=…) into plain lines a person reads on a first run:
//
//	playwright: Downloading driver (path=/home/me/.cache/ms-playwright-go/1.64.1)
type progressHandler struct {
	mu *sync.Mutex
	w  io.Writer
}

func newProgressLogger(w io.Writer) *slog.Logger {
	return slog.New(progressHandler{mu: &sync.Mutex{}, w: w})
}

func (progressHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h progressHandler) Handle(_ context.Context, r slog.Record) error {
	var attrs []string
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, a.Key+"="+a.Value.String())
		return true
	})
	line := "playwright: " + r.Message
	if len(attrs) > 0 {
		line += " (" + strings.Join(attrs, ", ") + ")"
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := fmt.Fprintln(h.w, line)
	return err
}

func (h progressHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h progressHandler) WithGroup(string) slog.Handler      { return h }
