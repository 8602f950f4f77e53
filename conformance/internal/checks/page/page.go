package page

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of what the page declares: its snapshot and its runtime's global.

// SnapshotValid: the run's first snapshot decoded strictly (a run
// whose snapshot does not decode fails this rule before any check runs),
// and so does one of a fresh page. And a snapshot describes the page as
// it is now: taken right after a call whose receipt says the page moved
// to a later revision, it gives at least that revision (a snapshot
// remembered from before the call does not).
func SnapshotValid(p *probe.Probe) probe.Outcome {
	pg, err := p.Open("")
	if err != nil {
		return probe.Broken(err)
	}
	if _, err := pg.Snapshot(); err != nil {
		return probe.Failf("snapshot() of a fresh page: %s", probe.FirstLine(err.Error()))
	}
	o, n := p.JudgeEach(probe.AnyAction, func(e *probe.Exercised) (bool, string) {
		rv := e.Receipt.Revision
		if rv == nil || rv.After <= rv.Before || e.After == nil || e.After.Snap == nil {
			return false, ""
		}
		snap := e.After.Snap
		if got := snap.Revision; got < rv.After {
			return true, fmt.Sprintf("the receipt says the page moved to revision %d, but snapshot() right after the call gives revision %d: it does not describe the page as it is now", rv.After, got)
		}
		// A snapshot that still lists exactly the records the page listed
		// before the call, though the receipt says the call added or
		// removed one, was remembered from before the call (a page that
		// undid its own change within the same moment is not a page a
		// conformance run meets).
		c := e.Receipt.Result.Changed
		if c == nil || c.Records == nil || e.Before == nil || e.Before.Snap == nil {
			return true, ""
		}
		if sameIDs(e.Before.Snap.Records, snap.Records) {
			listed := map[string]bool{}
			for _, r := range snap.Records.Items {
				listed[r.ID] = true
			}
			for _, id := range c.Records.Removed {
				if listed[id] {
					return true, fmt.Sprintf("the receipt says record %s was removed, but snapshot() right after the call lists exactly the records of before the call, %s among them: it does not describe the page as it is now", id, id)
				}
			}
			if snap.Records.Omitted == 0 {
				for _, id := range c.Records.Added {
					if !listed[id] {
						return true, fmt.Sprintf("the receipt says record %s was added, but snapshot() right after the call lists exactly the records of before the call, without it: it does not describe the page as it is now", id)
					}
				}
			}
		}
		return true, ""
	})
	if o != nil {
		return *o
	}
	if n == 0 {
		return probe.Pass().With(report.TextEvidence("not judged", "no call of the exercise moved the page to a later revision, so no snapshot was compared with a receipt"))
	}
	return probe.Pass()
}

// Kinds: every action has one of the four kinds, and a call of every
// kind the page declares passes the gates of stages 1 to 5: malformed
// arguments fail INVALID_ARGS, arguments that break the params fail
// INVALID_PARAMS at phase preflight, and a denied confirmation fails
// PERMISSION_DENIED, whatever the kind (a hand-off asks no confirmation,
// so it has no denied gate). For each kind, an action that asks for
// confirmation is preferred, so that a kind whose validation is skipped
// reaches the confirmation and is denied.
func Kinds(p *probe.Probe) probe.Outcome {
	for _, a := range p.Base().Actions.Items {
		switch a.Kind {
		case receipt.KindElement, receipt.KindFunction, receipt.KindFlow, receipt.KindHandoff:
		default:
			return probe.Failf("the snapshot gives %s the kind %q, want element, function, flow or handoff", a.ID, a.Kind).
				With(report.SnapshotEvidence("snapshot", p.Base()))
		}
	}
	type gate struct {
		what string
		id   string
		args any
		want receipt.Code
	}
	var gates []gate
	malformed, broken, denied := map[receipt.Kind]bool{}, map[receipt.Kind]bool{}, map[receipt.Kind]bool{}
	for _, a := range kindCandidates(p) {
		if !malformed[a.Kind] {
			malformed[a.Kind] = true
			gates = append(gates, gate{fmt.Sprintf("malformed arguments to %s (kind %s)", a.ID, a.Kind), a.ID, `{"unterminated`, receipt.CodeInvalidArgs})
		}
		if !broken[a.Kind] {
			if args, desc, ok := p.BrokenArgs(a); ok {
				broken[a.Kind] = true
				gates = append(gates, gate{fmt.Sprintf("a call of %s (kind %s) with %s", a.ID, a.Kind, desc), a.ID, args, receipt.CodeInvalidParams})
			}
		}
		if a.Kind != receipt.KindHandoff && probe.NeedsConfirmation(a) && !denied[a.Kind] {
			if args, err := p.ValidArgs(a, ""); err == nil {
				denied[a.Kind] = true
				gates = append(gates, gate{fmt.Sprintf("a denied call of %s (kind %s)", a.ID, a.Kind), a.ID, args, receipt.CodePermissionDenied})
			}
		}
	}
	if len(gates) == 0 {
		return probe.NotProbed("the page declares no available action")
	}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err)
	}
	var judged []string
	for _, g := range gates {
		if _, raw := g.args.(string); raw && p.Transport == glasstest.TransportWebMCP {
			continue
		}
		r := pg.Do(g.id, g.args)
		if r.Code() != g.want || g.want == receipt.CodeInvalidParams && r.FailurePhase() != receipt.PhasePreflight {
			return probe.Failf("%s: want %s, %s", g.what, g.want, report.Got(r)).With(report.ReceiptEvidence("receipt", r))
		}
		judged = append(judged, g.what)
	}
	return probe.Pass().With(report.TextEvidence("gates judged", judged...))
}

// kindCandidates are the available actions an agent may call, hand-offs
// included, those that ask for confirmation first.
func kindCandidates(p *probe.Probe) []receipt.ActionInfo {
	var first, rest []receipt.ActionInfo
	for _, a := range p.Base().Actions.Items {
		if !a.Available || a.StepOnly {
			continue
		}
		if probe.NeedsConfirmation(a) {
			first = append(first, a)
		} else {
			rest = append(rest, a)
		}
	}
	return append(first, rest...)
}

func Global(p *probe.Probe) probe.Outcome {
	g := p.Global()
	switch {
	case !g.Frozen:
		return probe.Failf("globalThis.glassRuntime is not frozen: a page script could replace its methods")
	case g.Writable:
		return probe.Failf("globalThis.glassRuntime is writable: a page script could replace the runtime")
	}
	for _, m := range []string{"ready", "snapshot", "execute", "resume"} {
		if g.Functions[m] != "function" {
			return probe.Failf("glassRuntime.%s is a %s, want a function", m, g.Functions[m])
		}
	}
	names, src, why, err := secondGlobals(p)
	if err != nil {
		return probe.Broken(err)
	}
	if pr := globalsProblem(names, src); pr != "" {
		return probe.Failf("%s", pr)
	}
	if why != "" {
		return probe.Pass().With(report.TextEvidence("globals not judged", why))
	}
	return probe.Pass().With(report.TextEvidence("globals the runtime's script installs after glassRuntime", "none ("+src+")"))
}

const limitedSnapshotScript = `async (limit) => {
  const v = await globalThis.glassRuntime.snapshot({ limit: limit });
  return typeof v === "string" ? v : JSON.stringify(v);
}`

// SnapshotBounded asks for a snapshot limited to two records and two
// actions, and checks the bounded lists and their counts.
func SnapshotBounded(p *probe.Probe) probe.Outcome {
	base := p.Base()
	if base.Records.Total < 3 && len(base.Actions.Items) < 3 {
		return probe.NotProbed("the page has fewer than three records and three actions, too few to see a limit of two")
	}
	for _, s := range []*receipt.Snapshot{base} {
		if len(s.Records.Items) > receipt.MaxSnapshotItems || len(s.Actions.Items) > receipt.MaxSnapshotItems {
			return probe.Failf("the snapshot lists %d records and %d actions, over the bound of %d", len(s.Records.Items), len(s.Actions.Items), receipt.MaxSnapshotItems)
		}
	}
	pg, err := p.Open("")
	if err != nil {
		return probe.Broken(err)
	}
	// The counts to expect come from the same page: an app may seed each
	// page load differently.
	full, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err)
	}
	v, err := pg.Evaluate(limitedSnapshotScript, 2)
	if err != nil {
		return probe.Failf("snapshot({limit: 2}) failed: %s", probe.FirstLine(err.Error()))
	}
	text, _ := v.(string)
	s, err := receipt.DecodeSnapshot([]byte(text))
	if err != nil {
		return probe.Failf("snapshot({limit: 2}) is not a snapshot: %v", err)
	}
	ev := report.SnapshotEvidence("snapshot({limit: 2})", s)
	total, actions := full.Records.Total, len(full.Actions.Items)+full.Actions.Omitted
	switch {
	case len(s.Records.Items) > 2:
		return probe.Failf("snapshot({limit: 2}) lists %d records", len(s.Records.Items)).With(ev)
	case s.Records.Total != total:
		return probe.Failf("snapshot({limit: 2}) gives records.total %d, want the full count %d", s.Records.Total, total).With(ev)
	case len(s.Records.Items)+s.Records.Omitted != total:
		return probe.Failf("snapshot({limit: 2}) lists %d records and counts %d omitted, want %d in all", len(s.Records.Items), s.Records.Omitted, total).With(ev)
	case len(s.Actions.Items) > 2:
		return probe.Failf("snapshot({limit: 2}) lists %d actions", len(s.Actions.Items)).With(ev)
	case len(s.Actions.Items)+s.Actions.Omitted != actions:
		return probe.Failf("snapshot({limit: 2}) lists %d actions and counts %d omitted, want %d in all", len(s.Actions.Items), s.Actions.Omitted, actions).With(ev)
	}
	return probe.Pass()
}

// sameIDs: the two record lists name the same records in the same order
// and omit the same number.
func sameIDs(a, b receipt.SnapshotRecords) bool {
	if a.Omitted != b.Omitted || a.Total != b.Total || len(a.Items) != len(b.Items) {
		return false
	}
	for i := range a.Items {
		if a.Items[i].ID != b.Items[i].ID {
			return false
		}
	}
	return true
}
