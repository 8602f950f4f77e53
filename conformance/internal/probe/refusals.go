package probe

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A refusal is a call, derived from the page's own snapshot, that a
// conforming runtime must refuse before stage 6: before any business side
// effect. Each one is made between two witnesses of the page (snapshot,
// DOM, rendered page), so a refusal that changed anything is caught:
// on a fresh page, or on the page of an earlier refusal that left it as it
// was (Session.giveSpare).
type Refusal struct {
	Kind string
	Code receipt.Code
	Plan func(p *Probe) (*PlannedCall, string)
}

// PlannedCall is one call a refusal makes.
type PlannedCall struct {
	ID       string
	Args     any
	Describe string
	// Field is the argument made invalid, for INVALID_PARAMS probes.
	Field    string
	PageOpts []glasstest.PageOption
	// CallOpts derives options from the page as it is just before the call
	// (the stale-revision probe needs the current revision).
	CallOpts func(before *Witness) []glasstest.CallOption
	// IDsFrom, when set, derives the ids to call from the page as it is
	// just before the calls, one call each; none means the page offers
	// none, and why says so.
	IDsFrom func(pg *Page, before *Witness) (ids []string, why string, err error)
	// Undeclared is the undeclared action id the call names, when it
	// names one through a folded tool (a record that names no row).
	Undeclared string
	// MoreArgs are more arguments to call each id with on the same page.
	MoreArgs []any
}

// NeedsConfirmation reports whether the runtime must ask before running a.
func NeedsConfirmation(a receipt.ActionInfo) bool {
	return a.Confirm || a.Risk == receipt.RiskDangerous
}

// Candidates returns the declared actions in the order the probes prefer
// them: available ones that need confirmation first (so that a runtime
// that asks before validating is caught), then other available ones.
// Hand-offs and step-only actions (which no agent calls directly) are
// left out.
func (p *Probe) Candidates() []receipt.ActionInfo {
	var first, rest []receipt.ActionInfo
	for _, a := range p.Base().Actions.Items {
		if !a.Available || a.Kind == receipt.KindHandoff || a.StepOnly {
			continue
		}
		if NeedsConfirmation(a) {
			first = append(first, a)
		} else {
			rest = append(rest, a)
		}
	}
	return append(first, rest...)
}

// ValidArgs returns arguments a's schema accepts: the manifest's, or ones
// built from the declared params. With a non-empty secret, sensitive
// parameters get a placeholder for it.
func (p *Probe) ValidArgs(a receipt.ActionInfo, secret string) (map[string]any, error) {
	s, err := params.ParseSchema(a.Params)
	if v, ok := p.Manifest().ArgsFor(a); ok {
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = x
		}
		// The manifest's value of a sensitive parameter is plain text: the
		// probe passes its secret there instead, as a placeholder, so that
		// the sensitive checks see it restored and hidden.
		if err == nil && secret != "" {
			for name, ps := range s.Properties {
				if _, given := out[name]; given && ps.IsSensitive() && ps.HasType("string") && ps.Pattern == "" && ps.Format == "" && ps.Fits(secret) {
					out[name] = map[string]string{"$sensitive": params.SensitiveRef}
				}
			}
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if len(s.Types()) > 0 && !s.HasType("object") {
		return nil, fmt.Errorf("params of %s is not an object schema", a.ID)
	}
	v, err := s.Synthesize("", secret)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// BrokenArgs returns arguments that parse but break a's params: valid
// arguments with one declared parameter given a value of a type it does
// not allow, or, failing that, one required parameter left out. It is
// false when a declares nothing to break or the probe cannot build valid
// arguments for it.
func (p *Probe) BrokenArgs(a receipt.ActionInfo) (map[string]any, string, bool) {
	s, err := params.ParseSchema(a.Params)
	if err != nil || len(s.Properties) == 0 && len(s.Required) == 0 {
		return nil, "", false
	}
	args, err := p.ValidArgs(a, "")
	if err != nil {
		return nil, "", false
	}
	names := slices.Sorted(maps.Keys(s.Properties))
	for _, name := range names {
		if v, what, ok := s.Properties[name].WrongValue(); ok {
			args[name] = v
			return args, fmt.Sprintf("%s for %q", what, name), true
		}
	}
	if len(s.Required) > 0 {
		delete(args, s.Required[0])
		return args, fmt.Sprintf("the required field %q left out", s.Required[0]), true
	}
	return nil, "", false
}

// PlanUnknown calls an id the page does not declare. Over WebMCP, where
// only registered tools can be called, it is a folded tool called with a
// record that names no row (CONTRACT.md §6.4: that runs name@record,
// which fails ACTION_NOT_FOUND).
func PlanUnknown(p *Probe) (*PlannedCall, string) {
	if p.Transport == glasstest.TransportWebMCP {
		tool, id, ok := judge.FoldedTool(p.Base())
		if !ok {
			return nil, "over WebMCP only a registered tool can be called: an undeclared id is reached through a folded tool's record, and the page declares no per-row actions (name@record)"
		}
		return &PlannedCall{ID: tool, Args: map[string]any{"record": judge.UnknownRecord}, Undeclared: id,
			Describe: fmt.Sprintf("call of the folded tool %s with the record %q, which names no row (%s)", tool, judge.UnknownRecord, id)}, ""
	}
	id := judge.UndeclaredID(p.Base())
	// The empty id is undeclared too (its receipt leaves result.action
	// out, CONTRACT.md §2.2: an action id is never empty), and so is a
	// declared id in another letter case: a runtime that resolves ids as
	// a model might spell them runs what it names.
	ids := []string{id, ""}
	pc := &PlannedCall{ID: id, Undeclared: id, Describe: fmt.Sprintf("calls of the undeclared id %q and of the empty id", id)}
	if v := judge.CaseVariant(p.Base()); v != "" {
		ids = []string{id, v, ""}
		pc.Describe = fmt.Sprintf("calls of the undeclared ids %q and %q (a declared id in another letter case) and of the empty id", id, v)
	}
	pc.IDsFrom = func(*Page, *Witness) ([]string, string, error) { return ids, "", nil }
	return pc, ""
}

// Refused is the record of one refusal probe.
type Refused struct {
	Call *PlannedCall
	// Receipt is the call's receipt; of several calls, the first that did
	// not end with the refusal's code, else the last.
	Receipt *receipt.Receipt
	// Calls lists the calls made, each with how it ended.
	Calls         []string
	Before, After *Witness
	// DOMWitness is false when the page changed by itself between two
	// witnesses taken back to back; only the page model is compared then.
	DOMWitness    bool
	Changes       []string
	Confirmations []glasstest.ConfirmationRecord
}

// Refuse makes the refusal's call on a fresh page, once per run and
// transport. ok is false when the probe could not run; o then says why
// (not probed, or broken).
func (p *Probe) Refuse(rf Refusal) (*Refused, Outcome, bool) {
	type result struct {
		res *Refused
		o   Outcome
		ok  bool
	}
	v, _ := p.memoOwn(string(p.Transport)+"|refuse|"+rf.Kind, func(q *Probe) (any, error) {
		res, o, ok := q.refuseNow(rf)
		if ok && domOnly(res.Changes) {
			// The page model did not change, the DOM did: a page's own slow
			// ticker ("a minute ago") may have landed in the call's window.
			// The refusal is made again on another page; a change counts
			// unless that page, its DOM witnessing, shows none.
			if again, o2, ok2 := q.refuseNow(rf); ok2 && again.DOMWitness && len(again.Changes) == 0 {
				res, o = again, o2
			}
		}
		return result{res, o, ok}, nil
	})
	r := v.(result)
	return r.res, r.o, r.ok
}

// domOnly reports whether changes (Unchanged's) are all in the DOM or the
// rendered page, none in the page model.
func domOnly(changes []string) bool {
	for _, c := range changes {
		if !strings.HasPrefix(c, "DOM: ") && !strings.HasPrefix(c, "rendered page: ") {
			return false
		}
	}
	return len(changes) > 0
}

// RefuseAhead starts the refusals' probes in the background (see
// session.prefetch), for a check that will walk them one by one.
func (p *Probe) RefuseAhead(rfs ...Refusal) {
	ahead := make([]func(), len(rfs))
	for i, rf := range rfs {
		ahead[i] = func() { p.Refuse(rf) }
	}
	p.s.prefetch(ahead...)
}

func (p *Probe) refuseNow(rf Refusal) (res *Refused, o Outcome, ok bool) {
	call, why := rf.Plan(p)
	if call == nil {
		return nil, NotProbed(why), false
	}
	if _, raw := call.Args.(string); raw && p.Transport == glasstest.TransportWebMCP {
		return nil, NotProbed("a WebMCP tool's input is always a JSON object, so arguments that are not JSON cannot be sent over webmcp"), false
	}
	pg, err := p.openRead(call.PageOpts...)
	if err != nil {
		return nil, Broken(err), false
	}
	spared := false
	defer func() {
		if !spared {
			pg.Close() // done with it: its browser page serves the next open
		}
	}()
	b2, domWitness, err := pg.StableWitness(true)
	if err != nil {
		return nil, Broken(err), false
	}
	var opts []glasstest.CallOption
	if call.CallOpts != nil {
		opts = call.CallOpts(b2)
	}
	ids := []string{call.ID}
	if call.IDsFrom != nil {
		var why string
		ids, why, err = call.IDsFrom(pg, b2)
		if err != nil {
			return nil, Broken(err), false
		}
		if len(ids) == 0 {
			return nil, NotProbed(why), false
		}
	}
	var r *receipt.Receipt
	var calls []string
	answered := true
	for _, id := range ids {
		for _, args := range append([]any{call.Args}, call.MoreArgs...) {
			got, byRuntime := pg.DoAnswered(id, args, opts...)
			if what := fmt.Sprintf("%q", id); len(call.MoreArgs) == 0 {
				calls = append(calls, what+" → "+report.OutcomeCode(got))
			} else {
				text, raw := args.(json.RawMessage)
				if !raw {
					text, _ = json.Marshal(args)
				}
				shown := string(text)
				if strings.TrimSpace(shown) == "" {
					shown = strconv.Quote(shown) // white space alone
				}
				calls = append(calls, fmt.Sprintf("%s with %s → %s", what, shown, report.OutcomeCode(got)))
			}
			if r == nil || r.Code() == rf.Code {
				r = got
			}
			answered = answered && byRuntime
			if !byRuntime && got.Code() == receipt.CodeTransportFailed {
				// The harness could not reach the runtime (over WebMCP: the
				// action has no tool); webmcp.tool-names judges that.
				return nil, NotProbed(fmt.Sprintf("%s: the harness could not reach the runtime (%s)", call.Describe, FirstLine(got.Result.Error.Message))), false
			}
		}
	}
	call.ID = ids[0]
	after, err := pg.Witness(true)
	if err != nil {
		return nil, Broken(err), false
	}
	res = &Refused{Call: call, Receipt: r, Calls: calls, Before: b2, After: after, DOMWitness: domWitness, Confirmations: pg.Harness.Confirmations()}
	if r.Code() == receipt.CodeActionUnavailable {
		// Stage 5 may reveal the target, and revealing may render records
		// and move the DOM (CONTRACT.md, pipeline.no-effect-before-dispatch):
		// only what was there before is compared.
		res.Changes = Unchanged(b2, revealTolerant(b2, after), false)
	} else {
		res.Changes = Unchanged(b2, after, res.DOMWitness)
	}
	if len(call.PageOpts) == 0 && answered && domWitness && len(res.Confirmations) == 0 && len(pg.Harness.Handoffs()) == 0 &&
		len(Unchanged(b2, after, true)) == 0 {
		// Refused and left as it was (its model, DOM and accessibility
		// tree): the next refusal with no options of its own takes the
		// page, as a fresh one would be but for the refused calls.
		p.release(pg)
		p.s.giveSpare(p.Transport, pg.Harness)
		spared = true
	}
	return res, Outcome{}, true
}

// revealTolerant returns after without the records that were not there
// before, and with the record total those leave.
func revealTolerant(before, after *Witness) *Witness {
	w := *after
	snap := *after.Snap
	known := judge.RecordMap(before.Snap)
	snap.Records.Items = nil
	for _, r := range after.Snap.Records.Items {
		if _, ok := known[r.ID]; ok {
			snap.Records.Items = append(snap.Records.Items, r)
		}
	}
	if added := len(after.Snap.Records.Items) - len(snap.Records.Items); added > 0 {
		snap.Records.Total -= added
		snap.Revision = before.Snap.Revision
	}
	w.Snap = &snap
	return &w
}

// ExpectRefused checks that res failed with code at its phase and left the
// page as it was.
func ExpectRefused(res *Refused, code receipt.Code) Outcome {
	r := res.Receipt
	if r.Code() != code || r.FailurePhase() != code.Phase() {
		return Failf("%s: want %s at phase %s, %s", res.Call.Describe, code, code.Phase(), report.Got(r)).
			With(report.ReceiptEvidence("receipt", r), report.TextEvidence("calls", res.Calls...))
	}
	if len(res.Changes) > 0 {
		return Failf("%s was refused with %s, but the page changed: %s", res.Call.Describe, code, res.Changes[0]).
			With(report.ReceiptEvidence("receipt", r), report.TextEvidence("calls", res.Calls...), report.TextEvidence("what changed", res.Changes...), WitnessNote(res.DOMWitness),
				report.SnapshotEvidence("snapshot before the call", res.Before.Snap), report.SnapshotEvidence("snapshot after the call", res.After.Snap))
	}
	return Pass().With(report.TextEvidence("calls", res.Calls...))
}

// WitnessNote says which witnesses judged a refusal.
func WitnessNote(dom bool) report.Evidence {
	if dom {
		return report.Evidence{Label: "witnesses", Text: "the runtime's snapshots, the DOM (body.innerHTML) and the rendered page (each element and text shown, with roles and announced attributes)"}
	}
	return report.Evidence{Label: "witnesses", Text: "the runtime's snapshots only: the DOM changed by itself between two readings, so it cannot witness"}
}
