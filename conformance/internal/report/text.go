package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// evidenceIndent starts every line of a piece of evidence: deeper than any
// line of Glass's own, so that evidence cannot pass for one.
const evidenceIndent = "                "

// WriteText writes the report for a terminal or a CI log: the page and its
// runtime, the run's notes and the runtime's warnings (what may explain a
// verdict, before the verdicts), one line per rule grouped by phase, each
// violation followed by its MUST sentence and evidence, then a summary
// (with a line pointing back at the notes when there are any), then the
// findings: the calls that should have worked and did not, and the rules
// not probed grouped by what would probe them.
//
// Page-provided text never starts a line: in a line of Glass's own it is
// one line (Line), and evidence is indented under its rule, every line of
// it. So nothing a page says — a thrown message, a note — can print a
// verdict or a summary that looks like Glass's.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	if r.URL != "" {
		head := "Glass conformance of " + Line(r.URL)
		if r.Runtime != "" {
			head += " (runtime " + Line(r.Runtime) + ")"
		}
		ew.printf("%s\n", head)
	}
	if len(r.Notes) > 0 {
		ew.printf("\nnotes:\n")
		for _, n := range r.Notes {
			ew.printf("  - %s\n", Line(n))
		}
	}
	if len(r.Warnings) > 0 {
		ew.printf("\nthe page's runtime warns about %d of its declarations (docs/runtime.md, \"Mistakes the runtime reports\"):\n", len(r.Warnings))
		for _, w := range r.Warnings {
			ew.printf("  - %s\n", Line(w))
		}
	}
	for _, g := range r.byPhase() {
		ew.printf("\n%s\n", g.Title)
		for _, f := range g.Findings {
			line := fmt.Sprintf("  %-11s %s", f.Label(), r.Name(f))
			if f.Message != "" {
				line += " — " + Line(f.Message)
			}
			ew.printf("%s\n", line)
			if f.Verdict == Fail || f.Baseline == BaselineStale {
				ew.printf("%s\n", Indent("MUST: "+f.Rule.Must, "              "))
				for _, ev := range f.Evidence {
					ew.printf("              %s:\n%s\n", Line(ev.Label), Indent(receipt.PrintableText(ev.Text), evidenceIndent))
				}
			}
		}
	}
	ew.printf("\n%s in %.1fs\n", r.Summary(), r.Seconds)
	if n := len(r.Notes); n > 0 && r.Count(Fail) > 0 {
		ew.printf("notes: %d before the results above; read them first, they may explain a FAIL\n", n)
	}
	r.writeFindings(ew)
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
	fmt.Fprintf(&b, "%s: %s\nMUST: %s", f.Rule.ID, Line(f.Message), f.Rule.Must)
	for _, ev := range f.Evidence {
		fmt.Fprintf(&b, "\n%s:\n%s", Line(ev.Label), Indent(receipt.PrintableText(ev.Text), "  "))
	}
	return b.String()
}

// Line is page-provided text for a line of a text report: what a terminal
// would act on shown as escapes (receipt.PrintableText), and a line break
// shown as \n, so the text stays on the line it was given.
func Line(s string) string {
	return receipt.PrintableLine(s)
}

// Indent starts every line of s with prefix.
func Indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
