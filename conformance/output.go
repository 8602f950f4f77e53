package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// Sanitize makes page-provided text safe to print on a terminal: control
// characters (ESC and the rest of C0 and C1, except newline and tab),
// bidirectional overrides and invalid UTF-8 become visible escapes such as
// \x1b, so a page cannot recolour, rewrite or hide lines of a report. It is
// receipt.PrintableText, which the harness uses for its own errors.
func Sanitize(s string) string { return receipt.PrintableText(s) }

// phaseOrder is the order reports group rules in: the phases of the
// contract in lifecycle order, then rules that belong to no phase.
func phaseOrder() []receipt.Phase {
	return append(append([]receipt.Phase{}, receipt.Phases...), receipt.PhaseNone)
}

func phaseTitle(p receipt.Phase) string {
	if p == receipt.PhaseNone {
		return "general"
	}
	return string(p)
}

// byPhase groups findings by their rule's phase, in phaseOrder.
func (r *Report) byPhase() []phaseGroup {
	var out []phaseGroup
	for _, ph := range phaseOrder() {
		g := phaseGroup{Phase: ph, Title: phaseTitle(ph)}
		for _, f := range r.Findings {
			if f.Rule.Phase == ph || ph == receipt.PhaseNone && !f.Rule.Phase.Valid() {
				g.Findings = append(g.Findings, f)
			}
		}
		if len(g.Findings) > 0 {
			out = append(out, g)
		}
	}
	return out
}

type phaseGroup struct {
	Phase    receipt.Phase
	Title    string
	Findings []Finding
}

// Label is how reports show f's verdict.
func (f Finding) Label() string {
	switch {
	case f.Baseline == BaselineExpected:
		return "XFAIL"
	case f.Baseline == BaselineStale:
		return "STALE"
	case f.Verdict == Pass:
		return "PASS"
	case f.Verdict == Fail:
		return "FAIL"
	}
	return "NOT PROBED"
}

// Summary is the one-line count of a report.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d rules: %d passed, %d failed, %d not probed",
		len(r.Findings), r.Count(Pass), r.Count(Fail), r.Count(NotProbed))
	if n := r.CountBaseline(BaselineExpected); n > 0 {
		s += fmt.Sprintf(" (%d expected by the baseline)", n)
	}
	if n := r.CountBaseline(BaselineStale); n > 0 {
		s += fmt.Sprintf("; %d stale baseline entries", n)
	}
	if len(r.Transports) > 1 {
		s = strings.Replace(s, "rules:", "rule checks:", 1)
	}
	return s
}

// WriteText writes the report for a terminal or a CI log: one line per
// rule grouped by phase, each violation followed by its MUST sentence and
// evidence, then notes and a summary. Page-provided text is sanitised.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, g := range r.byPhase() {
		ew.printf("\n%s\n", g.Title)
		for _, f := range g.Findings {
			line := fmt.Sprintf("  %-11s %s", f.Label(), r.Name(f))
			if f.Message != "" {
				line += " — " + Sanitize(f.Message)
			}
			ew.printf("%s\n", line)
			if f.Verdict == Fail || f.Baseline == BaselineStale {
				ew.printf("%s\n", indent("MUST: "+f.Rule.Must, "              "))
				for _, ev := range f.Evidence {
					ew.printf("              %s:\n%s\n", Sanitize(ev.Label), indent(Sanitize(ev.Text), "                "))
				}
			}
		}
	}
	if len(r.Notes) > 0 {
		ew.printf("\nnotes:\n")
		for _, n := range r.Notes {
			ew.printf("  - %s\n", Sanitize(n))
		}
	}
	ew.printf("\n%s in %.1fs\n", r.Summary(), r.Seconds)
	return ew.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// jsonReport is the JSON form of a report: the report plus its verdict.
type jsonReport struct {
	*Report
	Conforms bool        `json:"conforms"`
	Summary  jsonSummary `json:"summary"`
}

type jsonSummary struct {
	Rules     int `json:"rules"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	NotProbed int `json:"notProbed"`
	Expected  int `json:"expectedFailures"`
	Stale     int `json:"staleBaselineEntries"`
}

// WriteJSON writes the report as JSON. encoding/json escapes ASCII control
// characters and <, > and &, and PrintableJSON the C1 controls and
// bidirectional overrides, so page-provided text cannot break a reader nor
// rewrite what a terminal shows of the file.
func (r *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	err := enc.Encode(jsonReport{Report: r, Conforms: r.Conforms(), Summary: jsonSummary{
		Rules: len(r.Findings), Passed: r.Count(Pass), Failed: r.Count(Fail), NotProbed: r.Count(NotProbed),
		Expected: r.CountBaseline(BaselineExpected), Stale: r.CountBaseline(BaselineStale),
	}})
	if err != nil {
		return err
	}
	_, err = w.Write(receipt.PrintableJSON(b.Bytes()))
	return err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// WriteArtifacts keeps the run's evidence on disk under dir: report.json,
// and for every failed rule a directory named after it with one file per
// piece of evidence.
func (r *Report) WriteArtifacts(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("conformance: artifacts: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "report.json"))
	if err != nil {
		return fmt.Errorf("conformance: artifacts: %w", err)
	}
	if err := r.WriteJSON(f); err != nil {
		f.Close()
		return fmt.Errorf("conformance: artifacts: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("conformance: artifacts: %w", err)
	}
	for _, fd := range r.Findings {
		// Every failure (one the baseline expects too) and every violation
		// (a stale baseline entry) gets its directory, with its verdict
		// even when the check attached no evidence.
		if fd.Verdict != Fail && !fd.Violation() {
			continue
		}
		sub := filepath.Join(dir, unsafeName.ReplaceAllString(fd.Rule.ID+"--"+string(fd.Transport), "_"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return fmt.Errorf("conformance: artifacts: %w", err)
		}
		for i, ev := range fd.Evidence {
			name := fmt.Sprintf("%02d-%s.txt", i+1, strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(ev.Label), "-"), "-"))
			if err := os.WriteFile(filepath.Join(sub, name), []byte(Sanitize(ev.Text)+"\n"), 0o644); err != nil {
				return fmt.Errorf("conformance: artifacts: %w", err)
			}
		}
		// The files are read with cat and less: page text in them is
		// sanitized as on the terminal.
		msg := fmt.Sprintf("%s\n\nMUST: %s\n", Sanitize(fd.Message), fd.Rule.Must)
		if err := os.WriteFile(filepath.Join(sub, "00-verdict.txt"), []byte(msg), 0o644); err != nil {
			return fmt.Errorf("conformance: artifacts: %w", err)
		}
	}
	return nil
}
