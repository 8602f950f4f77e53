package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Verdict is the outcome of one rule.
type Verdict string

// The verdicts. A rule that could not be probed is never reported as
// passed: it is NotProbed, with the reason.
const (
	Pass      Verdict = "pass"
	Fail      Verdict = "fail"
	NotProbed Verdict = "not-probed"
)

// Evidence is one thing a check saw: a receipt excerpt, a snapshot, a
// witness of the DOM or the rendered page. Text is page-provided and
// must be escaped by whatever renders it.
type Evidence struct {
	Label string `json:"label"`
	Text  string `json:"text"`
}

// Finding is the verdict on one rule over one transport, with its evidence.
type Finding struct {
	Rule      catalog.Rule        `json:"rule"`
	Transport glasstest.Transport `json:"transport"`
	Verdict   Verdict             `json:"verdict"`
	// Message is one sentence: why the rule failed, or why it was not
	// probed. Empty for a pass.
	Message  string     `json:"message,omitempty"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Baseline says how an --expected-failures baseline judged the finding.
	Baseline BaselineStatus `json:"baseline,omitempty"`
	Seconds  float64        `json:"seconds"`
}

// Violation reports whether f makes the run fail: a failure the baseline
// does not expect, or a baseline entry that has gone stale.
func (f Finding) Violation() bool {
	switch f.Baseline {
	case BaselineExpected:
		return false
	case BaselineStale:
		return true
	}
	return f.Verdict == Fail
}

// Report is the outcome of a conformance run.
type Report struct {
	URL string `json:"url"`
	// Runtime and Protocol are what the page's runtime says it is.
	Runtime    string                `json:"runtime,omitempty"`
	Protocol   string                `json:"protocol,omitempty"`
	Transports []glasstest.Transport `json:"transports"`
	// Notes say what limited the run as a whole (a transport this build
	// cannot use, a baseline entry for a rule that was not run).
	Notes []string `json:"notes,omitempty"`
	// Warnings are the runtime's warnings about the page's declarations
	// (glassRuntime.warnings(): an unknown risk, an expect that is not
	// one; docs/runtime.md), as the page's text.
	Warnings []string  `json:"warnings,omitempty"`
	Findings []Finding `json:"findings"`
	// CallFindings are the calls of the run's exercise that should have
	// worked and did not (callfindings.go).
	CallFindings []CallFinding `json:"callFindings,omitempty"`
	// CallsChecked is true when the run called every available action to
	// look for call findings (conformance.WithCallFindings); false, an
	// empty CallFindings says nothing: the run made only the calls its
	// rules need.
	CallsChecked bool `json:"callsChecked"`
	// CallsUncheckable says why a run that was to look for call findings
	// could not (the runtime never became ready, its snapshot did not
	// decode: there are no declared actions to call); CallsChecked is then
	// false.
	CallsUncheckable string  `json:"-"`
	Seconds          float64 `json:"seconds"`
	// Hide replaces, in a text, every secret the run's probes passed, in
	// every spelling, as the report's own texts show them: for what the
	// caller writes about the page after the run (nil: nothing to hide).
	Hide func(string) string `json:"-"`
}

// Count returns how many findings have verdict v.
func (r *Report) Count(v Verdict) int {
	n := 0
	for _, f := range r.Findings {
		if f.Verdict == v {
			n++
		}
	}
	return n
}

// Violations returns the findings that make the run fail.
func (r *Report) Violations() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Violation() {
			out = append(out, f)
		}
	}
	return out
}

// Conforms reports whether no finding makes the run fail.
func (r *Report) Conforms() bool { return len(r.Violations()) == 0 }

// Name is how reports name f: the rule id, with the transport when the run
// used more than one.
func (r *Report) Name(f Finding) string {
	if len(r.Transports) > 1 {
		return f.Rule.ID + " [" + string(f.Transport) + "]"
	}
	return f.Rule.ID
}

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
	what := "rules"
	if len(r.Transports) > 1 {
		what = "rule checks"
	}
	if len(r.Findings) == 1 {
		what = strings.TrimSuffix(what, "s")
	}
	s := fmt.Sprintf("%d %s: %d passed, %d failed, %d not probed",
		len(r.Findings), what, r.Count(Pass), r.Count(Fail), r.Count(NotProbed))
	if n := r.CountBaseline(BaselineExpected); n > 0 {
		s += fmt.Sprintf(" (%d expected by the baseline)", n)
	}
	if n := r.CountBaseline(BaselineStale); n > 0 {
		s += fmt.Sprintf("; %d stale baseline entries", n)
	}
	return s
}

// BaselineStatus is how a baseline of known violations judged a finding.
type BaselineStatus string

// The baseline statuses. A finding of a rule the baseline does not list has
// none.
const (
	// BaselineExpected: the rule fails and the baseline says it does; the
	// failure is reported but does not fail the run.
	BaselineExpected BaselineStatus = "expected-failure"
	// BaselineStale: the baseline says the rule fails, but it passes now;
	// the entry must go, and until it does the run fails.
	BaselineStale BaselineStatus = "stale"
)

// ApplyBaseline marks the findings of the rules b lists: a failure becomes
// expected, a pass becomes a stale entry that fails the run. A listed rule
// that was not probed is noted.
func (r *Report) ApplyBaseline(b *manifest.Baseline) {
	if b == nil {
		return
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if _, listed := b.Reasons[f.Rule.ID]; !listed {
			continue
		}
		switch f.Verdict {
		case Fail:
			f.Baseline = BaselineExpected
		case Pass:
			f.Baseline = BaselineStale
			f.Message = fmt.Sprintf("stale baseline entry: the rule passes now; remove it from %s", b.Name)
		case NotProbed:
			r.Notes = append(r.Notes, fmt.Sprintf("%s lists %s, which was not probed (%s)", b.Name, f.Rule.ID, f.Message))
		}
	}
}

// CountBaseline returns how many findings have baseline status s.
func (r *Report) CountBaseline(s BaselineStatus) int {
	n := 0
	for _, f := range r.Findings {
		if f.Baseline == s {
			n++
		}
	}
	return n
}

// The most bytes of a finding's message and of one piece of its evidence.
// Both may quote the page, whose runtime bounds its own texts in the page
// — where a page can defeat the bounding, by replacing the built-ins it
// uses — so Glass bounds them again, in Go: no page can make a report, a
// line of the terminal or stderr huge.
const (
	MaxMessageBytes  = 2 << 10
	MaxEvidenceBytes = 8 << 10
)

// Clip keeps at most n bytes of s, cut at a character, and marks the cut.
func Clip(s string, n int) string { return receipt.Clip(s, n) }

// Bounded is f with its message and every piece of its evidence within
// their bounds.
func (f Finding) Bounded() Finding {
	f.Message = Clip(f.Message, MaxMessageBytes)
	if f.Evidence != nil {
		ev := make([]Evidence, len(f.Evidence))
		for i, e := range f.Evidence {
			ev[i] = Evidence{Label: Clip(e.Label, MaxMessageBytes), Text: Clip(e.Text, MaxEvidenceBytes)}
		}
		f.Evidence = ev
	}
	return f
}

// NotProbedRule is one rule a run did not probe: why, and what the page would
// have to declare (or the manifest name) for the rule to be probed.
type NotProbedRule struct {
	// Name is the rule id, with the transport when the run used more than
	// one (Report.Name).
	Name string `json:"name"`
	// Reason is the check's own message: what the page lacked.
	Reason string `json:"reason"`
	// Needs is what the rule's checks need (catalog.Rule.Needs), or "".
	Needs string `json:"needs,omitempty"`
}

// NotProbedRules lists the findings that were not probed, in the report's
// order, each with the check's reason and what the rule needs: what a page
// would have to declare for a run to probe it.
func (r *Report) NotProbedRules() []NotProbedRule {
	var out []NotProbedRule
	for _, g := range r.byPhase() {
		for _, f := range g.Findings {
			if f.Verdict == NotProbed {
				out = append(out, NotProbedRule{Name: r.Name(f), Reason: f.Message, Needs: f.Rule.Needs})
			}
		}
	}
	return out
}

// WriteNotProbed writes the rules a run did not probe, one line each with
// its reason and what the page would need, under a heading; nothing when
// every rule was probed. Page text never starts a line (Line).
func (r *Report) WriteNotProbed(w io.Writer) error {
	list := r.NotProbedRules()
	if len(list) == 0 {
		return nil
	}
	ew := &errWriter{w: w}
	ew.printf("\nnot probed (%d): what the page would have to declare\n", len(list))
	for _, n := range list {
		line := "  - " + n.Name + ": " + Line(n.Reason)
		if n.Needs != "" {
			line += " — needs " + Line(n.Needs)
		}
		ew.printf("%s\n", line)
	}
	return ew.err
}
