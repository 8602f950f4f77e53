package surface

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for a terminal or a CI log: one line per
// difference, breaking first, each starting with its class —
//
//	BREAKING      remove: risk lowered from dangerous to write: a call no longer asks the user
//	ADDITIVE      archive: new action (element, write)
//
// then the summary. Page text is shown as receipt.PrintableText shows it,
// with newlines written \n, so it never starts a line.
func (r *Report) WriteText(w io.Writer) error {
	_, err := io.WriteString(w, r.Text())
	return err
}

// Text is what WriteText writes.
func (r *Report) Text() string {
	var b strings.Builder
	for _, d := range r.Differences {
		fmt.Fprintf(&b, "  %-12s  %s\n", d.Class.Label(), d)
	}
	if len(r.Differences) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s\n", r.Summary())
	return b.String()
}
