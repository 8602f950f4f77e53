package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/glassworks/glass/receipt"
)

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
				line += " — " + receipt.PrintableText(f.Message)
			}
			ew.printf("%s\n", line)
			if f.Verdict == Fail || f.Baseline == BaselineStale {
				ew.printf("%s\n", Indent("MUST: "+f.Rule.Must, "              "))
				for _, ev := range f.Evidence {
					ew.printf("              %s:\n%s\n", receipt.PrintableText(ev.Label), Indent(receipt.PrintableText(ev.Text), "                "))
				}
			}
		}
	}
	if len(r.Notes) > 0 {
		ew.printf("\nnotes:\n")
		for _, n := range r.Notes {
			ew.printf("  - %s\n", receipt.PrintableText(n))
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

// FailureText is a failed finding as one Ginkgo failure message: the rule,
// the sentence, and the evidence.
func FailureText(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\nMUST: %s", f.Rule.ID, receipt.PrintableText(f.Message), f.Rule.Must)
	for _, ev := range f.Evidence {
		fmt.Fprintf(&b, "\n%s:\n%s", ev.Label, Indent(receipt.PrintableText(ev.Text), "  "))
	}
	return b.String()
}

func Indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
