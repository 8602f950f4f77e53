package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// CallKind is what went wrong with a call of the run's exercise.
type CallKind string

// The call kinds (the same three init's findings name).
const (
	// CallUnusable: the snapshot lists the action as available, but the
	// call (approved, where it asks) could not make its target usable:
	// ACTION_UNAVAILABLE at target_resolution — a control shown only on
	// :hover, covered, or disabled, with no reveal that fixes it.
	CallUnusable CallKind = "unusable"
	// CallFailed: the snapshot lists the action as available, and the call
	// failed after its target was resolved.
	CallFailed CallKind = "failed"
	// CallCancelled: the call succeeded, but the page's own confirm()
	// dialog was cancelled during it, as no call in flight had its
	// confirmation approved by the host: what the dialog guards did not
	// run (an action whose button asks the user declared write or read).
	CallCancelled CallKind = "cancelled"
)

// CallFinding is a call that should have worked and did not (or did, but
// not what the page's own dialog guards: CallCancelled): the run's
// exercise calls every available action once (a tool's row actions once),
// with valid arguments and the confirmation approved. No rule of the
// contract is broken by it — a page may declare an action it cannot run —
// so it fails no rule; it is what the page's users would meet, and
// glass-conformance run --strict fails on it.
type CallFinding struct {
	Action    string              `json:"action"`
	Transport glasstest.Transport `json:"transport"`
	Kind      CallKind            `json:"kind"`
	// Approved says the call asked for the user's confirmation, and the
	// run approved it.
	Approved bool   `json:"approved"`
	Code     string `json:"code"`
	Phase    string `json:"phase,omitempty"`
	// Message is the page's message of the failure (page-provided text).
	Message string `json:"message,omitempty"`
	// Cancelled is the message of the first confirm() dialog of the
	// page's own that was cancelled during the call (page-provided text).
	Cancelled string `json:"cancelled,omitempty"`
}

// String is the finding's line in a summary: the words of init's.
func (c CallFinding) String() string {
	call := "the call"
	if c.Approved {
		call = "the approved call"
	}
	detail := c.Code
	if c.Phase != "" {
		detail += " at " + c.Phase
	}
	if c.Message != "" {
		detail += ": " + c.Message
	}
	id := receipt.PrintableID(c.Action)
	cancelled := fmt.Sprintf("the page's own confirm(%s) was cancelled during it: no call in flight had its confirmation approved by the host. "+
		"An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)", strconv.Quote(c.Cancelled))
	switch {
	case c.Kind == CallCancelled:
		return fmt.Sprintf("%s: available, and %s succeeded, but %s", id, call, cancelled)
	case c.Kind == CallUnusable:
		detail = fmt.Sprintf("%s could not make it usable: %s", call, detail)
	default:
		detail = fmt.Sprintf("%s failed: %s", call, detail)
	}
	if c.Cancelled != "" {
		detail += "; " + cancelled
	}
	return fmt.Sprintf("%s: available, but %s", id, detail)
}

// StrictFindings are what glass-conformance run --strict fails on besides
// the violations: every call finding, and a run that probed no rule at all
// (it proves nothing about the page). Each is one line.
func (r *Report) StrictFindings() []string {
	var out []string
	for _, c := range r.CallFindings {
		line := c.String()
		if len(r.Transports) > 1 {
			line += " [" + string(c.Transport) + "]"
		}
		out = append(out, line)
	}
	if len(r.Findings) > 0 && r.Count(NotProbed) == len(r.Findings) {
		out = append(out, "no rule was probed: the run proves nothing about the page")
	}
	return out
}

// ConformsStrictly reports whether the run passes glass-conformance run
// --strict: it conforms, every available action was called
// (CallsChecked), and it has no strict finding. A run that did not call
// them cannot tell, and says false.
func (r *Report) ConformsStrictly() bool {
	return r.Conforms() && r.CallsChecked && len(r.StrictFindings()) == 0
}

// NotProbedGroup is the rules not probed for one reason: the reason says
// what the page (or the manifest) would need to declare for them to be.
type NotProbedGroup struct {
	Reason string   `json:"reason"`
	Rules  []string `json:"rules"`
}

// NotProbedByReason groups the rules not probed by their reason, the
// reasons in the order of their first rule.
func (r *Report) NotProbedByReason() []NotProbedGroup {
	var out []NotProbedGroup
	at := map[string]int{}
	for _, f := range r.Findings {
		if f.Verdict != NotProbed {
			continue
		}
		i, ok := at[f.Message]
		if !ok {
			i = len(out)
			at[f.Message] = i
			out = append(out, NotProbedGroup{Reason: f.Message})
		}
		name := r.Name(f)
		if !slices.Contains(out[i].Rules, name) {
			out[i].Rules = append(out[i].Rules, name)
		}
	}
	return out
}

// writeFindings ends the text report: the strict findings, and the rules
// not probed grouped by what would probe them. Each is an item ("  - "),
// as notes are, so that page text (an action id, a message) never starts
// a line.
func (r *Report) writeFindings(ew *errWriter) {
	strict := r.StrictFindings()
	switch {
	case len(strict) == 0 && r.CallsUncheckable != "":
		ew.printf("\nfindings: not looked for: %s\n", Line(r.CallsUncheckable))
	case len(strict) == 0 && !r.CallsChecked:
		ew.printf("\nfindings: not looked for: the run made only the calls its rules need (a run of every rule, or with --strict, calls every available action)\n")
	case len(strict) == 0:
		ew.printf("\nfindings: none: every call of an available action succeeded\n")
	default:
		ew.printf("\nfindings: %d; glass-conformance run --strict fails on them:\n", len(strict))
		for _, s := range strict {
			ew.printf("  - %s\n", Line(s))
		}
	}
	groups := r.NotProbedByReason()
	if len(groups) == 0 {
		return
	}
	n := r.Count(NotProbed)
	what := "rules"
	if n == 1 {
		what = "rule"
	}
	ew.printf("not probed: %d %s; what would probe them:\n", n, what)
	for _, g := range groups {
		ew.printf("  - %s: %s\n", strings.Join(g.Rules, ", "), Line(g.Reason))
	}
}
