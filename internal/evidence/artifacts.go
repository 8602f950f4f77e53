package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// The names of the files of one page's evidence.
const (
	ScreenshotFile    = "screenshot.png"
	ReceiptsFile      = "receipts.json"
	SnapshotsFile     = "snapshots.json"
	ConfirmationsFile = "confirmations.json"
)

// ErrScreenshotWithheld is why a page whose calls used a sensitive value
// has no screenshot. Masking the elements that show a value cannot be made
// to hold against the page: it can draw the value on a canvas, in an
// image, in CSS generated content or in a closed shadow root, split it
// across elements, or show it in a frame of another origin.
var ErrScreenshotWithheld = errors.New("not taken: a call of the page used a sensitive value, and a screenshot cannot be scrubbed of it")

// ErrScreenshotShowsSecret is why a page that shows a sensitive value
// another page's call used (or whose text could not be read to tell) has
// no screenshot.
var ErrScreenshotShowsSecret = errors.New("not taken: the page shows a sensitive value a call of this process used, and a screenshot cannot be scrubbed of it")

// Artifacts lists the evidence of one page kept on disk: absolute paths of
// the files written (empty when a piece could not be taken) and, for each
// piece that failed, why. It is the value of the "glass artifacts" report
// entry, so it appears in Ginkgo's JSON report and as a JUnit property.
type Artifacts struct {
	URL           string   `json:"url"`
	Dir           string   `json:"dir"`
	Trace         string   `json:"trace,omitempty"`
	Screenshot    string   `json:"screenshot,omitempty"`
	Receipts      string   `json:"receipts,omitempty"`
	Snapshots     string   `json:"snapshots,omitempty"`
	Confirmations string   `json:"confirmations,omitempty"`
	Errors        []string `json:"errors,omitempty"`
}

// String renders the entry for Ginkgo's console report: one path a line.
func (a Artifacts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "evidence of %s in %s", a.URL, a.Dir)
	for _, f := range a.Files() {
		fmt.Fprintf(&b, "\n  %s", f)
	}
	for _, e := range a.Errors {
		fmt.Fprintf(&b, "\n  not kept: %s", e)
	}
	if a.Trace != "" {
		fmt.Fprintf(&b, "\n  view the trace: npx playwright show-trace %s", a.Trace)
	}
	return b.String()
}

// Files lists the paths written, in a fixed order.
func (a Artifacts) Files() []string {
	var out []string
	for _, f := range []string{a.Trace, a.Screenshot, a.Receipts, a.Snapshots, a.Confirmations} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Page is what Save keeps of one page: its records, the sensitive values
// of its calls, and how to take the pieces that wait on the browser.
type Page struct {
	URL                                string
	Receipts, Snapshots, Confirmations any
	// Secrets are replaced by receipt.Masked in every file: the page's
	// own and every other one of the process (a page may show what
	// another page posted). Own says a call of the page used one: the
	// page gets no screenshot. Otherwise Text reads what the page shows
	// as text, bounded: a page that shows one of Secrets, or whose text
	// cannot be read, gets no screenshot either.
	Secrets *scrub.Set
	Own     bool
	Text    func() (string, error)
	// Screenshot writes a screenshot to path, bounded in time.
	Screenshot func(path string) error
	// StopTrace, when the page is traced, stops the trace into path,
	// scrubbed of Secrets, bounded in time.
	StopTrace func(path string) error
}

// showsSecret says whether the page's text holds one of p.Secrets, or
// cannot be read.
func (p Page) showsSecret() bool {
	if p.Text == nil {
		return true
	}
	t, err := p.Text()
	return err != nil || p.Secrets.ContainsString(t)
}

// TextScript answers what a page shows as text: its title, its body's
// rendered text, the text of its open shadow roots, and the values and
// placeholders of its form controls (which innerText leaves out, and a
// screenshot shows).
const TextScript = `() => {
  const out = [String(document.title), document.body ? document.body.innerText : ""];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) { out.push(el.shadowRoot.textContent || ""); walk(el.shadowRoot); }
      if (typeof el.value === "string") out.push(el.value);
      if (typeof el.placeholder === "string") out.push(el.placeholder);
    }
  };
  walk(document);
  return out.join("\n");
}`

// SnapshotText is every string of the page's DOM snapshot (the DevTools
// protocol's DOMSnapshot.captureSnapshot): text and attribute values and
// the current values of inputs, in closed shadow roots and frames too,
// which the page's own scripts cannot read. Bounded; empty with the
// error when the browser offers no such snapshot.
func SnapshotText(page playwright.Page) (string, error) {
	var b strings.Builder
	err := Bounded(func() error {
		s, err := page.Context().NewCDPSession(page)
		if err != nil {
			return err
		}
		defer func() { _ = s.Detach() }()
		v, err := s.Send("DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}})
		if err != nil {
			return err
		}
		m, _ := v.(map[string]any)
		strs, _ := m["strings"].([]any)
		for _, x := range strs {
			if t, ok := x.(string); ok {
				b.WriteString(t)
				b.WriteByte('\n')
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return b.String(), nil
}

// Save writes p's evidence into dir (created if needed): every record as
// printable JSON scrubbed of p.Secrets, a screenshot unless a secret was
// used, the trace. A piece that cannot be taken, or is withheld, is listed
// in Artifacts.Errors with its first line; the error is non-nil only when
// nothing could be written at all.
func Save(dir string, p Page, firstLine func(string) string) (Artifacts, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Artifacts{}, err
	}
	a := Artifacts{URL: p.URL, Dir: abs}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return a, err
	}
	note := func(what string, err error) {
		a.Errors = append(a.Errors, fmt.Sprintf("%s: %s", what, firstLine(err.Error())))
	}
	for _, f := range []struct {
		name string
		v    any
		dst  *string
	}{
		{ReceiptsFile, p.Receipts, &a.Receipts},
		{SnapshotsFile, p.Snapshots, &a.Snapshots},
		{ConfirmationsFile, p.Confirmations, &a.Confirmations},
	} {
		b, err := receipt.CanonicalJSON(f.v)
		if err == nil {
			// Printable: the files are read on terminals, and page text
			// must not act on them (receipt.PrintableJSON).
			err = os.WriteFile(filepath.Join(abs, f.name), p.Secrets.Replace(receipt.PrintableJSON(b), receipt.Masked), 0o644)
		}
		if err != nil {
			note(f.name, err)
			continue
		}
		*f.dst = filepath.Join(abs, f.name)
	}
	shot := filepath.Join(abs, ScreenshotFile)
	if p.Own {
		note(ScreenshotFile, ErrScreenshotWithheld)
	} else if p.Secrets.Len() > 0 && p.showsSecret() {
		note(ScreenshotFile, ErrScreenshotShowsSecret)
	} else if err := p.Screenshot(shot); err != nil {
		note(ScreenshotFile, err)
	} else {
		a.Screenshot = shot
	}
	if p.StopTrace != nil {
		trace := filepath.Join(abs, TraceFile)
		if err := p.StopTrace(trace); err != nil {
			note(TraceFile, err)
		} else {
			a.Trace = trace
		}
	}
	if len(a.Files()) == 0 {
		return a, fmt.Errorf("in %q: nothing could be written: %s", abs, strings.Join(a.Errors, "; "))
	}
	return a, nil
}

// SpecDirName is a file-safe, readable and unique directory name for one
// attempt of one spec in one (Ginkgo parallel) process.
func SpecDirName(text, location string, attempt, process int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d\x00%d", text, location, attempt, process)))
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		if b.Len() >= 60 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "-") {
				b.WriteByte('-')
			}
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug == "" {
		slug = "spec"
	}
	return slug + "-" + hex.EncodeToString(h[:4])
}
