package glasstest

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
	"sync"

	"github.com/glassworks/glass/internal/scrub"
)

// The evidence of a page must not carry the sensitive values its calls
// used (Sensitive): the runtime keeps them out of receipts and the host out
// of confirmation records, but a page may echo a value in any spelling, and
// a Playwright trace records what a hand-off handler typed (Fill's value,
// the input's value in DOM snapshots, request bodies). SaveArtifacts
// therefore writes every file it keeps through package internal/scrub,
// which finds a value in every spelling a page can give it — JSON,
// JavaScript and CSS escapes, percent-encoding, HTML references, nested,
// in any Unicode normalisation form — and replaces it with "[sensitive]".
// A screenshot is pixels, which no scrubbing reaches: SaveArtifacts takes
// none of a page whose calls used a sensitive value (errScreenshotWithheld).
// What the package cannot see — a value the page hashed, split,
// base64-encoded or drew — it cannot remove. The output of a dev server
// attached to a failing spec's report is scrubbed the same way, of every
// value any call of the process used.

// errScreenshotWithheld is why a page whose calls used a sensitive value
// has no screenshot. Masking the elements that show a value cannot be made
// to hold against the page: it can draw the value on a canvas, in an
// image, in CSS generated content or in a closed shadow root, split it
// across elements, or show it in a frame of another origin.
var errScreenshotWithheld = errors.New("not taken: a call of the page used a sensitive value, and a screenshot cannot be scrubbed of it")

// processSecrets holds every sensitive value a call of this process used,
// for the evidence no single page owns: a dev server's output, which may
// log what a page posted to it.
var processSecrets struct {
	mu  sync.Mutex
	set map[string]bool
}

// processSecretSet is the set of every sensitive value a call of this
// process used.
func processSecretSet() *scrub.Set {
	processSecrets.mu.Lock()
	defer processSecrets.mu.Unlock()
	values := make([]string, 0, len(processSecrets.set))
	for v := range processSecrets.set {
		values = append(values, v)
	}
	return scrub.New(values...)
}

// noteSecrets remembers the sensitive values of a call for the evidence.
func (p *Page) noteSecrets(secrets map[string]string) {
	if len(secrets) == 0 {
		return
	}
	processSecrets.mu.Lock()
	if processSecrets.set == nil {
		processSecrets.set = map[string]bool{}
	}
	for _, v := range secrets {
		if v != "" {
			processSecrets.set[v] = true
		}
	}
	processSecrets.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.secretValues == nil {
		p.secretValues = map[string]bool{}
	}
	for _, v := range secrets {
		if v != "" {
			p.secretValues[v] = true
		}
	}
}

// secretSet is the set of the sensitive values of the page: those its
// calls used and those given to it as page options.
func (p *Page) secretSet() *scrub.Set {
	p.mu.Lock()
	defer p.mu.Unlock()
	values := make([]string, 0, len(p.settings.secrets)+len(p.secretValues))
	for _, v := range p.settings.secrets {
		values = append(values, v)
	}
	for v := range p.secretValues {
		values = append(values, v)
	}
	return scrub.New(values...)
}

// errTraceEntryName is why a trace is not kept whose entry is named with
// a sensitive value: a name cannot be masked without breaking the
// references to it. Playwright names entries for their content's hash,
// so it does not happen unless the page found a way to choose a name.
var errTraceEntryName = errors.New("the name of an entry holds a sensitive value")

// scrubTrace writes the Playwright trace at src to dst with every sensitive
// value of set replaced in every entry, text or not. A resource of a trace
// is named for the SHA-1 of its content, which for a content that held a
// value would let whoever guesses the rest of it test guesses of the value
// (a PIN in a request body, say): a resource the scrubbing changed is
// renamed for the SHA-1 of what is kept, and every reference to it in the
// other entries follows. dst is written whole or not at all.
func scrubTrace(src, dst string, set *scrub.Set) error {
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
			return errTraceEntryName
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
		e := entry{header: zip.FileHeader{Name: f.Name, Method: f.Method, Modified: f.Modified}, body: set.Replace(b, masked)}
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
