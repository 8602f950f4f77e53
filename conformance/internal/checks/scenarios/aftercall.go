package scenarios

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// maxEnumTries bounds the calls madeUnavailable makes with other enum
// members, looking for one that makes an action unavailable.
const maxEnumTries = 6

// unavailableAfter is an action a call made unavailable, and what the
// runtime answered when it was called then, on the page that call left.
type unavailableAfter struct {
	// By says which calls made it unavailable ("filter {"value":"done"}").
	By string
	// Action is the action as the snapshot after those calls declares it:
	// available false, with a reason.
	Action receipt.ActionInfo
	// Denied is the answer to a call of Action the host denied, when it
	// needs confirmation; Approved to one the host approved.
	Denied, Approved *receipt.Receipt
}

// madeUnavailable finds an action that a call makes unavailable — an
// action available before a call of the exercise and unavailable after
// it, else after a call that sets an enum parameter of an available read
// or write to another member (a filter, a tab) — and calls it on the page
// the call left: denied first when it needs confirmation, then approved.
// The unavailable actions of a fresh page are the refusals' (refusal
// package); these are the ones only a page's own state makes unavailable,
// which a runtime that reads availability once, or before it asks for
// confirmation, gets wrong. Nil with why when no call makes one
// unavailable. Memoised: pipeline.stage-order and unavailable.reason
// judge the same calls.
func madeUnavailable(p *probe.Probe) (*unavailableAfter, string, error) {
	type found struct {
		u   *unavailableAfter
		why string
	}
	v, err := p.Memo(fmt.Sprintf("%s|made-unavailable", p.Transport), func() (any, error) {
		u, why, err := findMadeUnavailable(p)
		return found{u, why}, err
	})
	if err != nil {
		return nil, "", err
	}
	f, ok := v.(found)
	if !ok {
		return nil, "the search for an action a call made unavailable did not finish", nil
	}
	return f.u, f.why, nil
}

func findMadeUnavailable(p *probe.Probe) (*unavailableAfter, string, error) {
	// A call the host would deny until told otherwise: the target's; the
	// calls that set the page up are approved.
	var target atomic.Value
	target.Store("")
	var approveTarget atomic.Bool
	policy := glasstest.ConfirmWith(func(r glasstest.ConfirmRequest) bool {
		return approveTarget.Load() || r.Action != target.Load().(string)
	})
	// The exercise's calls first: one that made another action (or itself)
	// unavailable is made again on a fresh page.
	var by *probe.Exercised
	err := p.Each(probe.AnyAction, func(e *probe.Exercised) bool {
		if e.Receipt.Result.OK && e.Before != nil && e.After != nil && newlyUnavailable(p, e.Before.Snap, e.After.Snap) != nil {
			by = e
			return false
		}
		return true
	})
	if err != nil {
		return nil, "", err
	}
	opts := []glasstest.PageOption{policy}
	if by != nil && by.Secret != "" {
		opts = append(opts, glasstest.Sensitive(params.SensitiveRef, by.Secret))
	}
	pg, err := p.Open("", opts...)
	if err != nil {
		return nil, "", err
	}
	defer pg.Close()
	before, err := pg.Snapshot()
	if err != nil {
		return nil, "", err
	}
	var made []string
	var b *receipt.ActionInfo
	call := func(id string, args any) (*receipt.Snapshot, bool, error) {
		r := pg.Do(id, args)
		made = append(made, id+" "+judge.JSONText(args))
		if !r.Result.OK {
			return nil, false, nil
		}
		after, err := pg.Snapshot()
		return after, err == nil, err
	}
	if by != nil {
		after, ok, err := call(by.Action.ID, by.Args)
		if err != nil {
			return nil, "the page could not be read after " + by.Action.ID + " was made again: " + probe.FirstLine(err.Error()), nil
		}
		if ok {
			b = newlyUnavailable(p, before, after)
		}
		if b == nil {
			return nil, fmt.Sprintf("%s made an action unavailable in the exercise, but not when it was made again on a fresh page", by.Action.ID), nil
		}
	} else {
		tries := 0
		for _, a := range before.Actions.Items {
			if !a.Available || a.StepOnly || a.Kind == receipt.KindHandoff || probe.NeedsConfirmation(a) || p.Manifest().Skips(a.ID) || tries >= maxEnumTries {
				continue
			}
			s, err := params.ParseSchema(a.Params)
			if err != nil {
				continue
			}
			base, err := p.ValidArgs(a, "")
			if err != nil || probe.UsesSecret(base) {
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
				prop := s.Properties[k]
				if prop == nil || len(prop.Enum) < 2 {
					continue
				}
				for _, m := range prop.Enum {
					if params.SameJSON(m, base[k]) || tries >= maxEnumTries || b != nil {
						continue
					}
					args := maps.Clone(base)
					args[k] = m
					tries++
					// A call may navigate (a read may): a page that cannot
					// be read then ends the search, it breaks nothing.
					now, err := pg.Snapshot()
					if err != nil {
						return nil, "the page could not be read during the search for an action a call made unavailable: " + probe.FirstLine(err.Error()), nil
					}
					after, ok, err := call(a.ID, args)
					if err != nil {
						return nil, "the page could not be read after " + a.ID + " " + judge.JSONText(args) + ": " + probe.FirstLine(err.Error()), nil
					}
					if ok {
						b = newlyUnavailable(p, now, after)
					}
				}
			}
			if b != nil {
				break
			}
		}
		if b == nil {
			return nil, "no call of the exercise made an action unavailable, nor did setting an enum parameter of an available action to another member", nil
		}
	}
	u := &unavailableAfter{By: strings.Join(made, ", then "), Action: *b}
	args, err := p.ValidArgs(*b, "")
	if err != nil {
		return nil, fmt.Sprintf("%s made %s unavailable, but the probe cannot build its arguments: %v", u.By, b.ID, err), nil
	}
	target.Store(b.ID)
	answered := func(r *receipt.Receipt, byRuntime bool) (*receipt.Receipt, string) {
		if !byRuntime && r.Code() == receipt.CodeTransportFailed {
			// The harness could not reach the runtime (over WebMCP: no
			// tool); webmcp.tool-names judges that.
			return nil, fmt.Sprintf("%s made %s unavailable, but the harness could not reach the runtime to call it (%s)", u.By, b.ID, probe.FirstLine(r.Result.Error.Message))
		}
		return r, ""
	}
	var why string
	if probe.NeedsConfirmation(*b) {
		if u.Denied, why = answered(pg.DoAnswered(b.ID, args)); why != "" {
			return nil, why, nil
		}
	}
	approveTarget.Store(true)
	if u.Approved, why = answered(pg.DoAnswered(b.ID, args)); why != "" {
		return nil, why, nil
	}
	return u, "", nil
}

// newlyUnavailable is the first action after declares unavailable, with
// a reason, that before declared available or did not declare — one the
// probe can call (not a hand-off or a step, not skipped by the manifest)
// and whose params declare no members, so that its availability cannot
// depend on arguments — preferring one that needs confirmation; nil when
// there is none.
func newlyUnavailable(p *probe.Probe, before, after *receipt.Snapshot) *receipt.ActionInfo {
	var first *receipt.ActionInfo
	for _, a := range after.Actions.Items {
		if a.Available || a.StepOnly || a.Kind == receipt.KindHandoff || strings.TrimSpace(a.Reason) == "" || p.Manifest().Skips(a.ID) {
			continue
		}
		if was, ok := before.Action(a.ID); ok && !was.Available {
			continue
		}
		if s, err := params.ParseSchema(a.Params); err != nil || len(s.Properties) > 0 || len(s.Required) > 0 {
			// The snapshot judges availability without arguments; one
			// that depends on them may judge a call otherwise.
			continue
		}
		if args, err := p.ValidArgs(a, ""); err != nil || probe.UsesSecret(args) {
			continue
		}
		if probe.NeedsConfirmation(a) {
			return &a
		}
		if first == nil {
			first = &a
		}
	}
	return first
}

// DeniedWhereMadeUnavailable (pipeline.stage-order): after calls that
// made an action that needs confirmation unavailable, a call of it the
// host denies is a denial — stage 4's confirmation comes before stage 5
// judges availability — not ACTION_UNAVAILABLE (an outside audit's
// runtime checked the page's availability first). Nil and "" when no call
// makes such an action unavailable.
func DeniedWhereMadeUnavailable(p *probe.Probe) (*probe.Outcome, string) {
	u, _, err := madeUnavailable(p)
	if err != nil {
		b := probe.Broken(err)
		return &b, ""
	}
	if u == nil || u.Denied == nil {
		return nil, ""
	}
	what := fmt.Sprintf("a denied call of %s after %s made it unavailable (%q)", u.Action.ID, u.By, u.Action.Reason)
	if u.Denied.Code() != receipt.CodePermissionDenied {
		f := probe.Failf("%s: want PERMISSION_DENIED (stage 4's confirmation comes before stage 5 judges availability), %s", what, report.Got(u.Denied)).
			With(report.ReceiptEvidence("receipt", u.Denied))
		return &f, ""
	}
	return nil, what + " → PERMISSION_DENIED"
}

// UnavailableAfterCall (unavailable.reason): after calls that made an
// action unavailable, an approved call of it fails ACTION_UNAVAILABLE at
// target_resolution with the reason the snapshot gives — the page's
// availability as it is now, not as it was when the runtime first read
// it.
func UnavailableAfterCall(p *probe.Probe) probe.Outcome {
	u, why, err := madeUnavailable(p)
	if err != nil {
		return probe.Broken(err)
	}
	if u == nil {
		return probe.NotProbed(why)
	}
	what := fmt.Sprintf("an approved call of %s after %s made it unavailable (%q)", u.Action.ID, u.By, u.Action.Reason)
	r := u.Approved
	if r.Code() != receipt.CodeActionUnavailable || r.FailurePhase() != receipt.PhaseTargetResolution {
		return probe.Failf("%s: want ACTION_UNAVAILABLE at phase %s, %s", what, receipt.PhaseTargetResolution, report.Got(r)).
			With(report.ReceiptEvidence("receipt", r))
	}
	if got := strings.TrimSpace(r.Result.Error.Reason); got != strings.TrimSpace(u.Action.Reason) {
		return probe.Failf("%s: error.reason is %q, but the snapshot gives the reason %q", what, got, u.Action.Reason).
			With(report.ReceiptEvidence("receipt", r))
	}
	return probe.Pass().With(report.TextEvidence("made unavailable", what+" → ACTION_UNAVAILABLE"))
}
