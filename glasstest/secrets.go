package glasstest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The evidence of a page must not carry the sensitive values its calls
// used (Sensitive): the runtime keeps them out of receipts and the host out
// of confirmation records, but a Playwright trace records what a hand-off
// handler typed (Fill's value, the input's value in DOM snapshots, request
// bodies) and a screenshot shows what is on screen. SaveArtifacts therefore
// rewrites every file it keeps with each value, in its plain, JSON-escaped
// and URL-encoded forms, replaced by "[sensitive]", and masks on the
// screenshot every element whose value or text holds one. What it cannot
// see — a value transformed by the page (hashed, split, base64-encoded) —
// it cannot remove. The output of a dev server attached to a failing spec's
// report is scrubbed the same way, of every value any call of the process
// used.

// processSecrets holds every sensitive value a call of this process used,
// for the evidence no single page owns: a dev server's output, which may
// log what a page posted to it.
var processSecrets struct {
	mu  sync.Mutex
	set map[string]bool
}

// allSecrets lists processSecrets, longest first.
func allSecrets() []string {
	processSecrets.mu.Lock()
	defer processSecrets.mu.Unlock()
	out := make([]string, 0, len(processSecrets.set))
	for v := range processSecrets.set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	return out
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

// secrets lists every sensitive value the page's calls used, longest
// first, so that a value containing another is replaced whole.
func (p *Page) secrets() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	seen := map[string]bool{}
	for _, v := range p.settings.secrets {
		if v != "" {
			seen[v] = true
		}
	}
	for v := range p.secretValues {
		seen[v] = true
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	return out
}

// scrub replaces each secret in b, in the forms it takes in JSON (as
// JavaScript writes it, as Go writes it, with non-ASCII escaped), in HTML,
// in URLs and in form bodies.
func scrub(b []byte, secrets []string) []byte {
	for _, s := range secrets {
		for _, f := range secretForms(s) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(masked))
		}
	}
	return b
}

func secretForms(s string) []string {
	forms := map[string]bool{s: true, url.QueryEscape(s): true, url.PathEscape(s): true, html.EscapeString(s): true}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) == nil {
		j := strings.TrimSuffix(js.String(), "\n")
		forms[j[1:len(j)-1]] = true
	}
	if j, err := json.Marshal(s); err == nil {
		forms[string(j[1:len(j)-1])] = true
	}
	var ascii strings.Builder
	for _, r := range strconv.QuoteToASCII(s) {
		ascii.WriteRune(r)
	}
	if q := ascii.String(); len(q) >= 2 {
		forms[q[1:len(q)-1]] = true
	}
	out := make([]string, 0, len(forms))
	for f := range forms {
		if f != "" {
			out = append(out, f)
		}
	}
	// Longest first: a form that contains another is replaced whole.
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	return out
}

// scrubZip rewrites the zip archive at path with every entry scrubbed.
func scrubZip(path string, secrets []string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".scrub-*.zip")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	zw := zip.NewWriter(tmp)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		h := f.FileHeader
		w, err := zw.CreateHeader(&zip.FileHeader{Name: h.Name, Method: h.Method, Modified: h.Modified})
		if err != nil {
			return err
		}
		if _, err := w.Write(scrub(b, secrets)); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace the trace: %w", err)
	}
	return nil
}

// markSecretsScript marks, with a data attribute, every element whose value
// or own text holds one of the secrets, so that the screenshot masks it.
const markSecretsScript = `(secrets) => {
  const has = (s) => typeof s === "string" && secrets.some((x) => s.includes(x));
  let n = 0;
  for (const el of document.querySelectorAll("*")) {
    const own = Array.from(el.childNodes).filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.data).join("");
    if (has(el.value) || has(own)) {
      el.setAttribute("data-glass-sensitive", "");
      n++;
    }
  }
  return n;
}`
