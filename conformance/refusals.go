package conformance

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A refusal is a call, derived from the page's own snapshot, that a
// conforming runtime must refuse before stage 6: before any business side
// effect. Each one is made on a fresh page between two witnesses of the
// page (snapshot, DOM, accessibility tree), so a refusal that changed
// anything is caught.
type refusal struct {
	kind string
	code receipt.Code
	plan func(p *probe) (*plannedCall, string)
}

// plannedCall is one call a refusal makes.
type plannedCall struct {
	id       string
	args     any
	describe string
	// field is the argument made invalid, for INVALID_PARAMS probes.
	field    string
	pageOpts []glasstest.Option
	// callOpts derives options from the page as it is just before the call
	// (the stale-revision probe needs the current revision).
	callOpts func(before *witness) []glasstest.Option
	// idFrom, when set, derives the id to call from the page as it is just
	// before the call; ok false means the page offers none.
	idFrom func(before *witness) (id string, ok bool)
}

// The refusal kinds, by name.
const (
	refUnknownID   = "unknown id"
	refMalformed   = "malformed JSON"
	refMissing     = "missing required field"
	refWrongType   = "wrong type"
	refOutsideEnum = "value outside the enum"
	refDenied      = "denied confirmation"
	refNoChannel   = "no confirmation channel"
	refStale       = "stale expected revision"
	refUnavailable = "unavailable action"
	refControlName = "undeclared id named like a control"
	refSecretName  = "unknown sensitive value"
)

// refusals lists every refusal probe, in lifecycle order.
var refusals = []refusal{
	{refStale, receipt.CodeStaleRevision, planStale},
	{refUnknownID, receipt.CodeActionNotFound, planUnknown},
	{refControlName, receipt.CodeActionNotFound, planControlName},
	{refMalformed, receipt.CodeInvalidArgs, planMalformed},
	{refSecretName, receipt.CodeInvalidArgs, planSecretName},
	{refMissing, receipt.CodeInvalidParams, planMissing},
	{refWrongType, receipt.CodeInvalidParams, planWrongType},
	{refOutsideEnum, receipt.CodeInvalidParams, planOutsideEnum},
	{refDenied, receipt.CodePermissionDenied, planDenied},
	{refNoChannel, receipt.CodePermissionDenied, planNoChannel},
	{refUnavailable, receipt.CodeActionUnavailable, planUnavailable},
}

func refusalByKind(kind string) refusal {
	for _, r := range refusals {
		if r.kind == kind {
			return r
		}
	}
	panic("conformance: no refusal " + kind)
}

// needsConfirmation reports whether the runtime must ask before running a.
func needsConfirmation(a receipt.ActionInfo) bool {
	return a.Confirm || a.Risk == receipt.RiskDangerous
}

// candidates returns the declared actions in the order the probes prefer
// them: available ones that need confirmation first (so that a runtime
// that asks before validating is caught), then other available ones.
func (p *probe) candidates() []receipt.ActionInfo {
	var first, rest []receipt.ActionInfo
	for _, a := range p.base().Actions.Items {
		if !a.Available || a.Kind == receipt.KindHandoff {
			continue
		}
		if needsConfirmation(a) {
			first = append(first, a)
		} else {
			rest = append(rest, a)
		}
	}
	return append(first, rest...)
}

// validArgs returns arguments a's schema accepts: the manifest's, or ones
// built from the declared params. With a non-empty secret, sensitive
// parameters get a placeholder for it.
func (p *probe) validArgs(a receipt.ActionInfo, secret string) (map[string]any, error) {
	if v, ok := p.manifest().argsFor(a); ok {
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = x
		}
		return out, nil
	}
	s, err := parseSchema(a.Params)
	if err != nil {
		return nil, err
	}
	if len(s.types()) > 0 && !s.hasType("object") {
		return nil, fmt.Errorf("params of %s is not an object schema", a.ID)
	}
	v, err := s.synthesize("", secret)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

func planUnknown(p *probe) (*plannedCall, string) {
	id := "glass-probe.no-such-action"
	for n := 2; ; n++ {
		if _, declared := p.base().Action(id); !declared {
			break
		}
		id = fmt.Sprintf("glass-probe.no-such-action-%d", n)
	}
	return &plannedCall{id: id, describe: fmt.Sprintf("call of the undeclared id %q", id)}, ""
}

// planControlName calls, as an action id, the accessible name of a control
// the page shows: a runtime that falls back to searching the DOM for a
// similar control would press it.
func planControlName(p *probe) (*plannedCall, string) {
	c := &plannedCall{describe: "call of an undeclared id that names a control on the page"}
	c.idFrom = func(before *witness) (string, bool) {
		for _, name := range controlNames(before.aria) {
			if _, declared := before.snap.Action(name); !declared {
				c.describe = fmt.Sprintf("call of the undeclared id %q, the name of a control on the page", name)
				return name, true
			}
		}
		return "", false
	}
	return c, ""
}

// controlNames returns the accessible names of the buttons and links of an
// aria snapshot, in page order.
func controlNames(aria string) []string {
	var out []string
	for _, line := range strings.Split(aria, "\n") {
		t := strings.TrimPrefix(strings.TrimSpace(line), "- ")
		for _, role := range []string{"button ", "link "} {
			// - button "Delete Note 01": Delete
			if rest, ok := strings.CutPrefix(t, role); ok {
				if q, err := strconv.QuotedPrefix(rest); err == nil {
					if name, err := strconv.Unquote(q); err == nil && name != "" {
						out = append(out, name)
					}
				}
			}
		}
	}
	return out
}

// planSecretName passes a placeholder for a sensitive value the host never
// gave, in a string parameter of an action.
func planSecretName(p *probe) (*plannedCall, string) {
	return planParam(p, "a string type", func(_ *schema, name string, prop *schema) (any, string, bool) {
		if !prop.hasType("string") || len(prop.Enum) > 0 {
			return nil, "", false
		}
		return map[string]string{"$sensitive": "glass-probe-never-given"}, fmt.Sprintf("a placeholder for a sensitive value the host never gave in %q", name), true
	})
}

func planMalformed(p *probe) (*plannedCall, string) {
	c := p.candidates()
	if len(c) == 0 {
		return nil, "the page declares no available action"
	}
	return &plannedCall{id: c[0].ID, args: `{"unterminated`, describe: fmt.Sprintf("call of %s with arguments that are not JSON", c[0].ID)}, ""
}

// planParam finds an action with a parameter that pick can make invalid.
func planParam(p *probe, kind string, pick func(s *schema, name string, prop *schema) (any, string, bool)) (*plannedCall, string) {
	var why []string
	for _, a := range p.candidates() {
		s, err := parseSchema(a.Params)
		if err != nil || len(s.Properties) == 0 && len(s.Required) == 0 {
			continue
		}
		base, err := p.validArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		names := append([]string{}, s.Required...)
		for _, k := range sortedKeys(s.Properties) {
			if !contains(names, k) {
				names = append(names, k)
			}
		}
		for _, name := range names {
			prop := s.Properties[name]
			if prop == nil {
				prop = &schema{}
			}
			v, desc, ok := pick(s, name, prop)
			if !ok {
				continue
			}
			args := map[string]any{}
			for k, x := range base {
				args[k] = x
			}
			if v == leaveOut {
				delete(args, name)
			} else {
				args[name] = v
			}
			return &plannedCall{id: a.ID, args: args, field: name, describe: fmt.Sprintf("call of %s with %s", a.ID, desc)}, ""
		}
	}
	reason := "no available action declares a parameter with " + kind
	if len(why) > 0 {
		reason += " that the probe can build valid arguments for (" + strings.Join(why, "; ") + ")"
	}
	return nil, reason
}

// leaveOut is what a planParam picker returns to leave a field out.
var leaveOut = &struct{ name string }{"leave out"}

func planMissing(p *probe) (*plannedCall, string) {
	return planParam(p, "a required field", func(s *schema, name string, _ *schema) (any, string, bool) {
		if !contains(s.Required, name) {
			return nil, "", false
		}
		return leaveOut, fmt.Sprintf("the required field %q left out", name), true
	})
}

func planWrongType(p *probe) (*plannedCall, string) {
	return planParam(p, "a declared type", func(_ *schema, name string, prop *schema) (any, string, bool) {
		v, what, ok := prop.wrongValue()
		if !ok {
			return nil, "", false
		}
		return v, fmt.Sprintf("%s for %q, declared %s", what, name, strings.Join(prop.types(), " or ")), true
	})
}

func planOutsideEnum(p *probe) (*plannedCall, string) {
	return planParam(p, "an enum", func(_ *schema, name string, prop *schema) (any, string, bool) {
		v, ok := prop.outsideEnum()
		if !ok {
			return nil, "", false
		}
		return v, fmt.Sprintf("%v for %q, outside its enum", v, name), true
	})
}

// planConfirmable finds an available action that needs confirmation, with
// arguments its schema accepts.
func planConfirmable(p *probe, opt glasstest.Option, what string) (*plannedCall, string) {
	found := false
	var why []string
	for _, a := range p.candidates() {
		if !needsConfirmation(a) {
			continue
		}
		found = true
		args, err := p.validArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		return &plannedCall{id: a.ID, args: args, pageOpts: []glasstest.Option{opt}, describe: fmt.Sprintf("call of %s with %s", a.ID, what)}, ""
	}
	if !found {
		return nil, "the page declares no available action that needs confirmation"
	}
	return nil, "the probe cannot build valid arguments for any action that needs confirmation (" + strings.Join(why, "; ") + ")"
}

func planDenied(p *probe) (*plannedCall, string) {
	return planConfirmable(p, glasstest.Deny(), "the confirmation denied")
}

func planNoChannel(p *probe) (*plannedCall, string) {
	return planConfirmable(p, glasstest.NoConfirmationChannel(), "no confirmation channel installed")
}

func planStale(p *probe) (*plannedCall, string) {
	var why []string
	for _, a := range p.candidates() {
		args, err := p.validArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		return &plannedCall{
			id: a.ID, args: args, pageOpts: []glasstest.Option{glasstest.Approve()},
			describe: fmt.Sprintf("approved call of %s with an expected revision the page is not at", a.ID),
			callOpts: func(before *witness) []glasstest.Option {
				return []glasstest.Option{glasstest.ExpectedRevision(before.snap.Revision + 1)}
			},
		}, ""
	}
	if len(why) == 0 {
		return nil, "the page declares no available action"
	}
	return nil, "the probe cannot build valid arguments for any available action (" + strings.Join(why, "; ") + ")"
}

func planUnavailable(p *probe) (*plannedCall, string) {
	for _, a := range p.base().Actions.Items {
		if a.Available || a.Kind == receipt.KindHandoff {
			continue
		}
		args, err := p.validArgs(a, "")
		if err != nil {
			continue
		}
		return &plannedCall{id: a.ID, args: args, pageOpts: []glasstest.Option{glasstest.Approve()},
			describe: fmt.Sprintf("approved call of %s, which the snapshot declares unavailable", a.ID)}, ""
	}
	return nil, "the page declares no unavailable action (with arguments the probe can build)"
}

// refused is the record of one refusal probe.
type refused struct {
	call          *plannedCall
	r             *receipt.Receipt
	before, after *witness
	// domWitness is false when the page changed by itself between two
	// witnesses taken back to back; only the page model is compared then.
	domWitness    bool
	changes       []string
	confirmations []glasstest.ConfirmationRecord
}

// refuse makes the refusal's call on a fresh page, once per run and
// transport. ok is false when the probe could not run; o then says why
// (not probed, or broken).
func (p *probe) refuse(rf refusal) (*refused, outcome, bool) {
	type result struct {
		res *refused
		o   outcome
		ok  bool
	}
	v, _ := p.s.memo(string(p.transport)+"|refuse|"+rf.kind, func() (any, error) {
		res, o, ok := p.refuseNow(rf)
		return result{res, o, ok}, nil
	})
	r := v.(result)
	return r.res, r.o, r.ok
}

// refuseAhead starts the refusals' probes in the background (see
// session.prefetch), for a check that will walk them one by one.
func (p *probe) refuseAhead(rfs ...refusal) {
	ahead := make([]func(), len(rfs))
	for i, rf := range rfs {
		ahead[i] = func() { p.refuse(rf) }
	}
	p.s.prefetch(ahead...)
}

func (p *probe) refuseNow(rf refusal) (res *refused, o outcome, ok bool) {
	call, why := rf.plan(p)
	if call == nil {
		return nil, notProbed(why), false
	}
	if _, raw := call.args.(string); raw && p.transport == glasstest.TransportWebMCP {
		return nil, notProbed("a WebMCP tool's input is always a JSON object, so arguments that are not JSON cannot be sent over webmcp"), false
	}
	pg, err := p.open("", call.pageOpts...)
	if err != nil {
		return nil, broken(err), false
	}
	b2, domWitness, err := pg.stableWitness(true)
	if err != nil {
		return nil, broken(err), false
	}
	var opts []glasstest.Option
	if call.callOpts != nil {
		opts = call.callOpts(b2)
	}
	if call.idFrom != nil {
		id, ok := call.idFrom(b2)
		if !ok {
			return nil, notProbed("the page shows no button or link whose name is not a declared action id"), false
		}
		call.id = id
	}
	r := pg.do(call.id, call.args, opts...)
	after, err := pg.witness(true)
	if err != nil {
		return nil, broken(err), false
	}
	res = &refused{call: call, r: r, before: b2, after: after, domWitness: domWitness, confirmations: pg.g.Confirmations()}
	if r.Code() == receipt.CodeActionUnavailable {
		// Stage 5 may reveal the target, and revealing may render records
		// and move the DOM (CONTRACT.md, pipeline.no-effect-before-dispatch):
		// only what was there before is compared.
		res.changes = unchanged(b2, revealTolerant(b2, after), false)
	} else {
		res.changes = unchanged(b2, after, res.domWitness)
	}
	return res, outcome{}, true
}

// revealTolerant returns after without the records that were not there
// before, and with the record total those leave.
func revealTolerant(before, after *witness) *witness {
	w := *after
	snap := *after.snap
	known := recordMap(before.snap)
	snap.Records.Items = nil
	for _, r := range after.snap.Records.Items {
		if _, ok := known[r.ID]; ok {
			snap.Records.Items = append(snap.Records.Items, r)
		}
	}
	if added := len(after.snap.Records.Items) - len(snap.Records.Items); added > 0 {
		snap.Records.Total -= added
		snap.Revision = before.snap.Revision
	}
	w.snap = &snap
	return &w
}

// expectRefused checks that res failed with code at its phase and left the
// page as it was.
func expectRefused(res *refused, code receipt.Code) outcome {
	r := res.r
	if r.Code() != code || r.FailurePhase() != code.Phase() {
		return failf("%s: want %s at phase %s, %s", res.call.describe, code, code.Phase(), got(r)).
			with(receiptEvidence("receipt", r))
	}
	if len(res.changes) > 0 {
		return failf("%s was refused with %s, but the page changed: %s", res.call.describe, code, res.changes[0]).
			with(receiptEvidence("receipt", r), textEvidence("what changed", res.changes...), witnessNote(res.domWitness),
				snapshotEvidence("snapshot before the call", res.before.snap), snapshotEvidence("snapshot after the call", res.after.snap))
	}
	return pass()
}

func witnessNote(dom bool) Evidence {
	if dom {
		return Evidence{Label: "witnesses", Text: "the runtime's snapshots, the DOM (body.innerHTML) and the accessibility tree (Playwright aria snapshot)"}
	}
	return Evidence{Label: "witnesses", Text: "the runtime's snapshots only: the DOM changed by itself between two readings, so it cannot witness"}
}

// refusalCheck is the check of a rule that one refusal must hold: the
// right code at the right phase and nothing changed, plus extra.
func refusalCheck(kind string, extra func(res *refused) outcome) func(*probe) outcome {
	return func(p *probe) outcome {
		rf := refusalByKind(kind)
		res, o, ok := p.refuse(rf)
		if !ok {
			return o
		}
		if o := expectRefused(res, rf.code); o.verdict != Pass {
			return o
		}
		if extra != nil {
			return extra(res)
		}
		return pass()
	}
}
