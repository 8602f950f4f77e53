// Package evidence is what glasstest keeps of a failing spec that has no
// page in it: a Playwright trace started, stopped and rewritten without
// the sensitive values of the page's calls, each wait on the browser
// bounded. glasstest's SaveArtifacts decides what is kept and writes the
// receipts, snapshots and confirmations; the trace is this package's.
package evidence

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// Timeout bounds each piece of evidence that waits on the browser (a
// screenshot, stopping the trace): evidence must never hang a suite that
// is already failing.
const Timeout = 10 * time.Second

// TraceFile is the name of a trace in the evidence.
const TraceFile = "trace.zip"

// StartTrace starts tracing ctx: DOM snapshots, no screenshots, no
// sources.
func StartTrace(ctx playwright.BrowserContext) error {
	err := ctx.Tracing().Start(playwright.TracingStartOptions{
		Snapshots:   playwright.Bool(true),
		Screenshots: playwright.Bool(false),
		Sources:     playwright.Bool(false),
	})
	if err != nil {
		return fmt.Errorf("start tracing: %w", err)
	}
	return nil
}

// StopTrace stops ctx's trace into path, scrubbed of secrets when there
// are any (see StopTraceScrubbed), bounded.
func StopTrace(ctx playwright.BrowserContext, path string, secrets *scrub.Set) error {
	if secrets.Len() == 0 {
		return Bounded(func() error { return ctx.Tracing().Stop(path) })
	}
	return StopTraceScrubbed(ctx, path, secrets)
}

// Screenshot takes page's screenshot into path, bounded.
func Screenshot(page playwright.Page, path string) error {
	return Bounded(func() error {
		_, err := page.Screenshot(playwright.PageScreenshotOptions{
			Path:    playwright.String(path),
			Timeout: playwright.Float(float64(Timeout.Milliseconds())),
		})
		return err
	})
}

// DiscardTrace stops ctx's trace and keeps nothing of it, bounded: a
// context closed while it records leaves Playwright's directory for the
// trace's call stacks behind in the temporary directory, one per page.
func DiscardTrace(ctx playwright.BrowserContext) error {
	return Bounded(func() error { return ctx.Tracing().Stop() })
}

// StopTraceScrubbed stops ctx's trace into a directory of its own,
// readable by this user only, and writes it scrubbed of secrets to dst: the
// trace as recorded never lies where the evidence is kept. A trace that
// cannot be rewritten is not kept at all.
func StopTraceScrubbed(ctx playwright.BrowserContext, dst string, secrets *scrub.Set) error {
	tmp, err := os.MkdirTemp("", "glass-trace-")
	if err != nil {
		return fmt.Errorf("stop the trace: %w", err)
	}
	raw := filepath.Join(tmp, TraceFile)
	stopped := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		stopped <- ctx.Tracing().Stop(raw)
		// The trace as recorded goes once it is scrubbed, or, when the
		// stop outlived its bound, as soon as the stop has written it.
		<-done
		_ = os.RemoveAll(tmp)
	}()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	select {
	case err := <-stopped:
		if err != nil {
			return err
		}
	case <-timer.C:
		return fmt.Errorf("gave up after %s", Timeout)
	}
	if err := ScrubTrace(raw, dst, secrets); err != nil {
		_ = os.Remove(dst)
		return fmt.Errorf("not kept: remove sensitive values: %w", err)
	}
	return nil
}

// Bounded runs fn, giving up after Timeout: evidence must never
// hang a suite that is already failing.
func Bounded(fn func() error) error {
	ch := make(chan error, 1)
	go func() { ch <- fn() }()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	select {
	case err := <-ch:
		return err
	case <-timer.C:
		return fmt.Errorf("gave up after %s", Timeout)
	}
}

// ErrTraceEntryName is why a trace is not kept whose entry is named with
// a sensitive value: a name cannot be masked without breaking the
// references to it. Playwright names entries for their content's hash,
// so it does not happen unless the page found a way to choose a name.
var ErrTraceEntryName = errors.New("the name of an entry holds a sensitive value")

// ScrubTrace writes the Playwright trace at src to dst with every sensitive
// value of set replaced in every entry, text or not. A resource of a trace
// is named for the SHA-1 of its content, which for a content that held a
// value would let whoever guesses the rest of it test guesses of the value
// (a PIN in a request body, say): a resource the scrubbing changed is
// renamed for the SHA-1 of what is kept, and every reference to it in the
// other entries follows. dst is written whole or not at all.
func ScrubTrace(src, dst string, set *scrub.Set) error {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return err
	}
	defer zr.Close()
	type entry struct {
		header zip.FileHeader
		body   []byte
	}
	entries := make([]entry, 0, len(zr.File))
	renames := map[string]string{}
	for _, f := range zr.File {
		if set.ContainsString(f.Name) {
			return ErrTraceEntryName
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("read entry %q: %w", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("read entry %q: %w", f.Name, err)
		}
		e := entry{header: zip.FileHeader{Name: f.Name, Method: f.Method, Modified: f.Modified}, body: set.Replace(b, receipt.Masked)}
		if old, ok := resourceHash(f.Name); ok && !bytes.Equal(e.body, b) {
			// SHA-1 because Playwright names resources so; the trace viewer
			// finds them by these names.
			sum := sha1.Sum(e.body)
			renames[old] = hex.EncodeToString(sum[:])
			e.header.Name = strings.Replace(f.Name, old, renames[old], 1)
		}
		entries = append(entries, e)
	}

	tmp, err := os.CreateTemp(filepath.Dir(dst), ".scrub-*.zip")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	zw := zip.NewWriter(tmp)
	written := map[string]bool{}
	for _, e := range entries {
		// Two resources the scrubbing made equal have one name now, and
		// one content.
		if written[e.header.Name] {
			continue
		}
		written[e.header.Name] = true
		body := e.body
		for old, renamed := range renames {
			body = bytes.ReplaceAll(body, []byte(old), []byte(renamed))
		}
		// The new hashes are hex digits in the place of others: should
		// they spell a value after all, the trace is not kept.
		if !bytes.Equal(body, e.body) && set.Contains(body) {
			return fmt.Errorf("entry %q: a renamed resource's hash spells a sensitive value", e.header.Name)
		}
		e.body = body
		w, err := zw.CreateHeader(&e.header)
		if err != nil {
			return err
		}
		if _, err := w.Write(e.body); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("replace the trace: %w", err)
	}
	return nil
}

// resourceHash returns the SHA-1 a trace resource is named for
// ("resources/<40 hex digits>[.ext]").
func resourceHash(name string) (string, bool) {
	const prefix = "resources/"
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || len(rest) < 40 {
		return "", false
	}
	h := rest[:40]
	if _, err := hex.DecodeString(h); err != nil || len(rest) > 40 && rest[40] != '.' {
		return "", false
	}
	return h, true
}
