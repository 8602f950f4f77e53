package surface

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/glassworks/glass/receipt"
)

// Class says what a difference means for the agents and users of a page.
type Class string

// The classes, most severe first.
const (
	// Breaking: an agent or a user relying on the baseline is let down —
	// a call that worked fails, or a call that asked the user no longer
	// does.
	Breaking Class = "breaking"
	// NeedsReview: the page may behave differently for an agent; a person
	// should look, but no call that worked fails because of it.
	NeedsReview Class = "needs-review"
	// Additive: something new an agent may use; nothing it used changed.
	Additive Class = "additive"
)

// Classes lists the classes, most severe first.
var Classes = []Class{Breaking, NeedsReview, Additive}

func (c Class) String() string { return string(c) }

// Label is the class as the text report shows it: BREAKING, NEEDS REVIEW,
// ADDITIVE.
func (c Class) Label() string { return strings.ToUpper(strings.ReplaceAll(string(c), "-", " ")) }

// Valid reports whether c is one of Classes.
func (c Class) Valid() bool { return slices.Contains(Classes, c) }

// MarshalText writes the class's name, and refuses a class that is not
// one of Classes.
func (c Class) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("surface: unknown class %q", string(c))
	}
	return []byte(c), nil
}

// UnmarshalText accepts only the names of Classes.
func (c *Class) UnmarshalText(b []byte) error {
	if !Class(b).Valid() {
		return fmt.Errorf("surface: unknown class %q", string(b))
	}
	*c = Class(b)
	return nil
}

// Difference is one change between a baseline and a live surface.
type Difference struct {
	Class Class `json:"class"`
	// Action is the entry the difference is about (an action id or a
	// folded tool), empty for the page itself.
	Action string `json:"action,omitempty"`
	// Field is what changed: "action" (the entry came or went), "risk",
	// "params.title", "page.title", …
	Field string `json:"field"`
	// Change says what changed and what it means, in one sentence
	// without the subject: "risk lowered from dangerous to write: a call
	// no longer asks the user".
	Change string `json:"change"`
}

// Subject is what the difference is about: the action's name, or "page".
func (d Difference) Subject() string {
	if d.Action == "" {
		return "page"
	}
	return d.Action
}

// String is the difference in one sentence: "remove: risk lowered from
// dangerous to write: a call no longer asks the user". Page-provided text
// in it is shown as receipt.PrintableText shows it, with a newline
// written \n, so the sentence is one line.
func (d Difference) String() string {
	return receipt.PrintableID(d.Subject()) + ": " + printable(d.Change)
}

// Report is the classified comparison of a baseline with a live surface.
type Report struct {
	// Baseline and Live are the pages compared.
	Baseline Page `json:"baseline"`
	Live     Page `json:"live"`
	// Differences are sorted by class (breaking first), then by action.
	Differences []Difference `json:"differences"`
}

// Count is the number of differences of class c.
func (r *Report) Count(c Class) int {
	n := 0
	for _, d := range r.Differences {
		if d.Class == c {
			n++
		}
	}
	return n
}

// Of lists the differences of class c.
func (r *Report) Of(c Class) []Difference {
	var out []Difference
	for _, d := range r.Differences {
		if d.Class == c {
			out = append(out, d)
		}
	}
	return out
}

// Breaking reports whether a difference is breaking: the CI gate fails.
func (r *Report) Breaking() bool { return r.Count(Breaking) > 0 }

// Matches reports whether the live surface may stand for the baseline as
// it is: no difference is breaking or needs review (additive ones may
// remain). MatchSurface succeeds exactly then.
func (r *Report) Matches() bool { return r.Count(Breaking) == 0 && r.Count(NeedsReview) == 0 }

// Summary is "1 breaking, 2 need review, 1 additive", or "no differences".
func (r *Report) Summary() string {
	if len(r.Differences) == 0 {
		return "no differences"
	}
	review := "need review"
	if r.Count(NeedsReview) == 1 {
		review = "needs review"
	}
	return fmt.Sprintf("%d breaking, %d %s, %d additive", r.Count(Breaking), r.Count(NeedsReview), review, r.Count(Additive))
}

// Compare classifies every difference between the baseline surface and
// the live one. It is what a CI gate calls: the gate fails when
// Breaking() holds. docs/surface.md has the classification of every
// field, with an example.
func Compare(baseline, live *Surface) *Report {
	if baseline == nil {
		baseline = &Surface{}
	}
	if live == nil {
		live = &Surface{}
	}
	c := &comparison{}
	c.page(baseline, live)
	c.actions(baseline, live)
	rank := func(cl Class) int { return slices.Index(Classes, cl) }
	slices.SortStableFunc(c.diffs, func(a, b Difference) int {
		if d := rank(a.Class) - rank(b.Class); d != 0 {
			return d
		}
		return strings.Compare(a.Action, b.Action)
	})
	if c.diffs == nil {
		c.diffs = []Difference{}
	}
	return &Report{Baseline: baseline.Page, Live: live.Page, Differences: c.diffs}
}

type comparison struct {
	diffs []Difference
}

func (c *comparison) add(class Class, action, field, format string, args ...any) {
	c.diffs = append(c.diffs, Difference{Class: class, Action: action, Field: field, Change: fmt.Sprintf(format, args...)})
}

func (c *comparison) page(old, cur *Surface) {
	if old.Protocol != cur.Protocol {
		c.add(Breaking, "", "protocol", "protocol changed from %s to %s: hosts of %s cannot call the page", quote(old.Protocol), quote(cur.Protocol), quote(old.Protocol))
	}
	o, n := old.Page, cur.Page
	if o.ID != n.ID {
		c.add(NeedsReview, "", "page.id", "id changed from %s to %s: is this the page of the baseline?", quote(o.ID), quote(n.ID))
	}
	if o.Title != n.Title {
		c.add(NeedsReview, "", "page.title", "title changed from %s to %s", quote(o.Title), quote(n.Title))
	}
	// A host is compared only when both name one: a baseline recorded on
	// a test server (loopback, no host) holds for the deployed page.
	if o.Host != "" && n.Host != "" && o.Host != n.Host {
		c.add(NeedsReview, "", "page.host", "host changed from %s to %s", quote(o.Host), quote(n.Host))
	}
	if o.Path != n.Path {
		c.add(NeedsReview, "", "page.path", "path changed from %s to %s", quote(o.Path), quote(n.Path))
	}
	if old.Omitted != cur.Omitted {
		c.add(NeedsReview, "", "omitted", "the snapshot leaves out %d actions, the baseline's left out %d: the surface is incomplete", cur.Omitted, old.Omitted)
	}
}

func (c *comparison) actions(old, cur *Surface) {
	news := map[string]Action{}
	for _, a := range cur.Actions {
		news[a.Name] = a
	}
	olds := map[string]bool{}
	for _, o := range old.Actions {
		olds[o.Name] = true
		n, ok := news[o.Name]
		if !ok {
			c.add(Breaking, o.Name, "action", "%s removed: an agent that calls it fails", what(o))
			continue
		}
		c.action(o, n)
	}
	for _, n := range cur.Actions {
		if !olds[n.Name] {
			c.add(Additive, n.Name, "action", "new %s (%s, %s%s)", what(n), n.Kind, n.Risk, asks(n))
		}
	}
}

// what names an entry's sort: "tool of the rows remove@<record>",
// "step-only rows open@<record>" (a step registers no tool),
// "step-only action" or "action".
func what(a Action) string {
	switch {
	case a.Rows != "" && a.StepOnly:
		return "step-only rows " + receipt.PrintableID(a.Rows)
	case a.Rows != "":
		return "tool of the rows " + receipt.PrintableID(a.Rows)
	case a.StepOnly:
		return "step-only action"
	}
	return "action"
}

func asks(a Action) string {
	if a.Confirm {
		return ", asks the user"
	}
	return ""
}

func (c *comparison) action(o, n Action) {
	name := o.Name
	if o.Rows != n.Rows {
		switch {
		case o.Rows == "":
			c.add(Breaking, name, "rows", "now the tool of the rows %s, no longer an action of its own: a call without a record fails", quote(n.Rows))
		case n.Rows == "":
			c.add(Breaking, name, "rows", "now an action of its own, no longer the tool of the rows %s: a call with a record fails", quote(o.Rows))
		default:
			c.add(Breaking, name, "rows", "the rows changed from %s to %s", quote(o.Rows), quote(n.Rows))
		}
	}
	if tool(o) != tool(n) {
		c.add(Breaking, name, "tool", "WebMCP tool name changed from %s to %s: an agent calling %s finds no tool", quote(tool(o)), quote(tool(n)), quote(tool(o)))
	}
	c.kind(name, o, n)
	c.policy(name, o, n)
	if o.StepOnly != n.StepOnly {
		if n.StepOnly {
			c.add(Breaking, name, "stepOnly", "now step-only: an agent can no longer call it, only a flow can")
		} else {
			c.add(NeedsReview, name, "stepOnly", "no longer step-only: an agent can now call it directly, outside its flow")
		}
	}
	if o.Kind == receipt.KindFlow && n.Kind == receipt.KindFlow {
		c.steps(name, o.Steps, n.Steps)
	}
	if o.Description != n.Description {
		c.add(NeedsReview, name, "description", "description changed from %s to %s", quote(o.Description), quote(n.Description))
	}
	c.params(name, o, n)
	c.sensitive(name, o, n)
	if o.Fidelity != n.Fidelity {
		switch {
		case o.Fidelity == "":
			c.add(NeedsReview, name, "fidelity", "fidelity is now %s (none was assigned)", n.Fidelity)
		case n.Fidelity == "" && (n.Kind == receipt.KindFlow || n.Kind == receipt.KindFunction):
			c.add(NeedsReview, name, "fidelity", "fidelity %s is no longer assigned: a %s has no target of its own, so no fidelity", o.Fidelity, n.Kind)
		case n.Fidelity == "":
			c.add(NeedsReview, name, "fidelity", "fidelity %s is no longer assigned: its target is not in the page when it loads", o.Fidelity)
		case fidelityRank(n.Fidelity) < fidelityRank(o.Fidelity):
			c.add(NeedsReview, name, "fidelity", "fidelity lowered from %s to %s: the runtime now drives the control with less certainty that the app saw it", o.Fidelity, n.Fidelity)
		default:
			c.add(NeedsReview, name, "fidelity", "fidelity raised from %s to %s", o.Fidelity, n.Fidelity)
		}
	}
	switch {
	case o.Expect == n.Expect:
	case n.Expect == "":
		c.add(Breaking, name, "expect", "expectation %s removed: a successful receipt no longer says the effect was seen", quote(o.Expect))
	case o.Expect == "":
		c.add(NeedsReview, name, "expect", "now declares the expectation %s: a call whose effect is not seen fails EXPECTATION_FAILED", quote(n.Expect))
	default:
		c.add(NeedsReview, name, "expect", "expectation changed from %s to %s", quote(o.Expect), quote(n.Expect))
	}
	if o.Idempotent != n.Idempotent {
		if n.Idempotent {
			c.add(NeedsReview, name, "idempotent", "now idempotent: a failure that did not start may report retry_safe")
		} else {
			c.add(NeedsReview, name, "idempotent", "no longer idempotent: a failure is never retry_safe")
		}
	}
}

func tool(a Action) string {
	if a.Tool != "" {
		return a.Tool
	}
	return a.Name
}

func (c *comparison) kind(name string, o, n Action) {
	switch {
	case o.Kind == n.Kind:
	case o.Kind == receipt.KindHandoff:
		c.add(Breaking, name, "kind", "kind changed from handoff to %s: the user no longer performs it, the page runs it for the agent", n.Kind)
	case n.Kind == receipt.KindHandoff:
		c.add(Breaking, name, "kind", "kind changed from %s to handoff: a call now waits for the user to perform it", o.Kind)
	default:
		c.add(NeedsReview, name, "kind", "kind changed from %s to %s", o.Kind, n.Kind)
	}
}

// policy classifies risk and confirm together: one sentence says what a
// caller sees of both.
func (c *comparison) policy(name string, o, n Action) {
	lowered, raised := n.Risk.Rank() < o.Risk.Rank(), n.Risk.Rank() > o.Risk.Rank()
	stopped, started := o.Confirm && !n.Confirm, !o.Confirm && n.Confirm
	risk := fmt.Sprintf("risk lowered from %s to %s", o.Risk, n.Risk)
	if raised {
		risk = fmt.Sprintf("risk raised from %s to %s", o.Risk, n.Risk)
	}
	switch {
	case lowered && stopped:
		c.add(Breaking, name, "risk", "%s: a call no longer asks the user", risk)
	case lowered && started:
		c.add(Breaking, name, "risk", "%s, and a call now asks the user", risk)
	case lowered && n.Confirm:
		c.add(Breaking, name, "risk", "%s: a call still asks the user, but agents and the user are told it is a %s", risk, n.Risk)
	case lowered:
		c.add(Breaking, name, "risk", "%s: agents may call it as a %s, without asking", risk, n.Risk)
	case stopped && raised:
		c.add(Breaking, name, "confirm", "%s, but a call no longer asks the user", risk)
	case stopped:
		c.add(Breaking, name, "confirm", "confirm changed from true to false: a call no longer asks the user")
	case raised && started:
		c.add(NeedsReview, name, "risk", "%s: a call now asks the user", risk)
	case raised:
		c.add(NeedsReview, name, "risk", "%s", risk)
	case started:
		c.add(NeedsReview, name, "confirm", "confirm changed from false to true: a call now asks the user")
	}
}

// steps classifies a flow's steps: a lost step or a new order breaks the
// flow's meaning; steps added around the old ones, in order, need review.
func (c *comparison) steps(name string, o, n []string) {
	if slices.Equal(o, n) {
		return
	}
	var lost []string
	for _, s := range o {
		if !slices.Contains(n, s) {
			lost = append(lost, s)
		}
	}
	switch {
	case len(lost) > 0:
		c.add(Breaking, name, "steps", "the flow lost the step %s: steps %s are now %s", quoteList(lost), stepList(o), stepList(n))
	case !subsequence(o, n):
		c.add(Breaking, name, "steps", "the flow's steps changed order from %s to %s", stepList(o), stepList(n))
	default:
		c.add(NeedsReview, name, "steps", "the flow gained steps: %s are now %s", stepList(o), stepList(n))
	}
}

// subsequence reports whether every element of a appears in b in a's order.
func subsequence(a, b []string) bool {
	i := 0
	for _, s := range b {
		if i < len(a) && a[i] == s {
			i++
		}
	}
	return i == len(a)
}

func stepList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = receipt.PrintableID(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func (c *comparison) sensitive(name string, o, n Action) {
	for _, p := range o.Sensitive {
		if !slices.Contains(n.Sensitive, p) {
			if hasParam(n, p) {
				c.add(Breaking, name, "sensitive", "parameter %s is no longer sensitive: its value is shown in confirmation and hand-off requests", receipt.PrintableID(p))
			}
		}
	}
	for _, p := range n.Sensitive {
		if !slices.Contains(o.Sensitive, p) && hasParam(o, p) {
			c.add(NeedsReview, name, "sensitive", "parameter %s is now sensitive: its value is masked in confirmation and hand-off requests", receipt.PrintableID(p))
		}
	}
}

func hasParam(a Action, p string) bool {
	props, _ := a.Params["properties"].(map[string]any)
	_, ok := props[p]
	return ok
}

// maxQuoted bounds page text quoted in a sentence; the full text is in
// the surface files.
const maxQuoted = 120

// quote renders page text for a sentence: double-quoted, bounded, with
// characters that would act on a terminal shown as escapes.
func quote(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		s = string([]rune(s)[:maxQuoted]) + "…"
	}
	return `"` + receipt.PrintableID(strings.ReplaceAll(s, `"`, `\"`)) + `"`
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = quote(v)
	}
	return strings.Join(q, ", ")
}

// printable is receipt.PrintableText with a newline shown as \n: page
// text never starts a line of a report.
func printable(s string) string {
	return receipt.PrintableLine(s)
}

// jsonText renders a schema value for a sentence: compact JSON, bounded.
func jsonText(v any) string {
	s := compactJSON(v)
	if utf8.RuneCountInString(s) > maxQuoted {
		s = string([]rune(s)[:maxQuoted]) + "…"
	}
	return printable(s)
}
