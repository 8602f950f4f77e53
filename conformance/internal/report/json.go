package report

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

// jsonReport is the JSON form of a report: the report plus its verdict.
type jsonReport struct {
	*Report
	Conforms bool `json:"conforms"`
	// ConformsStrictly is the verdict of run --strict: it conforms, every
	// available action was called (CallsChecked) and none is a finding
	// (CallFindings).
	ConformsStrictly bool        `json:"conformsStrictly"`
	Summary          jsonSummary `json:"summary"`
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
	err := enc.Encode(jsonReport{Report: r, Conforms: r.Conforms(), ConformsStrictly: r.ConformsStrictly(), Summary: jsonSummary{
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
			if err := os.WriteFile(filepath.Join(sub, name), []byte(receipt.PrintableText(ev.Text)+"\n"), 0o644); err != nil {
				return fmt.Errorf("conformance: artifacts: %w", err)
			}
		}
		// The files are read with cat and less: page text in them is
		// sanitized as on the terminal.
		msg := fmt.Sprintf("%s\n\nMUST: %s\n", Line(fd.Message), fd.Rule.Must)
		if err := os.WriteFile(filepath.Join(sub, "00-verdict.txt"), []byte(msg), 0o644); err != nil {
			return fmt.Errorf("conformance: artifacts: %w", err)
		}
	}
	return nil
}
