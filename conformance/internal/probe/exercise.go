package probe

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// MaxExercised bounds how many actions the exercise may call.
const MaxExercised = 20 // not a contract bound

// Exercised is one call the exercise made to succeed: an available action
// with valid arguments, the confirmation approved, on a fresh page between
// two witnesses.
type Exercised struct {
	Action  receipt.ActionInfo
	Args    any
	Secret  string
	Receipt *receipt.Receipt
	// ByRuntime is false when the harness wrote the receipt (no receipt of
	// the runtime's came back); the walks over the exercise leave such
	// calls out (Each).
	ByRuntime     bool
	Before, After *Witness
	// Settled is the page model once the page went quiet after the call
	// (the harness's own settle wait), for a call that succeeded, or nil.
	Settled       *Witness
	DOMWitness    bool
	Confirmations []glasstest.ConfirmationRecord
	// Stage6 is the runtime's snapshot when the first input event of an
	// element action's call fired: the moment its execution started.
	Stage6 Stage6
	// Timeline is the states the page model went through during the call,
	// kept only by the calls that look for the runtime's before window
	// (Window).
	Timeline *Timeline
	// Runs is the page's count of its handlers' runs around the call.
	Runs RunsAround
	// Cancelled is the messages of the page's own confirm() dialogs the
	// host cancelled during the call, up to its receipt.
	Cancelled []string
}

// Planned is one call the exercise may make.
type Planned struct {
	Action receipt.ActionInfo
	Args   map[string]any
	Secret string
}

// ExercisePlan lists the calls the exercise may make, in declaration
// order: one action of every tool the page declares (row actions count
// once), available, with valid arguments (the manifest's or built from the
// declared params; sensitive parameters get a secret the probes then look
// for). Actions the manifest skips, hand-offs, and actions the probe cannot
// build arguments for are left out, with a note.
func (p *Probe) ExercisePlan() ([]Planned, []string) {
	pl := p.plan()
	return pl.calls, pl.notes
}

// Unbuilt lists the available actions the exercise leaves out because it
// could not build valid arguments for them, each with why: calls no walk
// makes.
func (p *Probe) Unbuilt() []string { return p.plan().unbuilt }

// exercisePlan is the memoized plan of ExercisePlan.
type exercisePlan struct {
	calls   []Planned
	notes   []string
	unbuilt []string
}

func (p *Probe) plan() exercisePlan {
	v, _ := p.s.memo("plan", func() (any, error) {
		var out exercisePlan
		tools := map[string]bool{}
		for _, a := range p.Base().Actions.Items {
			tool := a.ID
			if a.Tool != "" {
				tool = "tool:" + a.Tool
			}
			switch {
			case tools[tool] || !a.Available:
				continue
			case a.StepOnly:
				out.notes = append(out.notes, a.ID+": step-only, run by its flow")
				continue
			case a.Kind == receipt.KindHandoff:
				out.notes = append(out.notes, a.ID+": a hand-off needs a user (name it in the manifest's handoffs)")
				continue
			case p.Manifest().Skips(a.ID):
				out.notes = append(out.notes, a.ID+": skipped by the manifest")
				continue
			case len(out.calls) == MaxExercised:
				out.notes = append(out.notes, fmt.Sprintf("%s: the exercise stops after %d actions", a.ID, MaxExercised))
				continue
			}
			tools[tool] = true
			secret := p.s.secrets.Fresh()
			args, err := p.ValidArgs(a, secret)
			if err != nil {
				out.notes = append(out.notes, fmt.Sprintf("%s: %v", a.ID, err))
				out.unbuilt = append(out.unbuilt, fmt.Sprintf("%s: %v", a.ID, err))
				continue
			}
			if !UsesSecret(args) {
				secret = ""
			}
			out.calls = append(out.calls, Planned{Action: a, Args: args, Secret: secret})
		}
		return out, nil
	})
	return v.(exercisePlan)
}

// Call makes one planned call, once per run and transport: every check
// that needs it shares the result.
func (p *Probe) Call(pl Planned) (*Exercised, error) {
	v, err := p.memoOwn(string(p.Transport)+"|exercise|"+pl.Action.ID, func(q *Probe) (any, error) { return q.exerciseOne(pl, false) })
	if err != nil {
		return nil, err
	}
	return v.(*Exercised), nil
}

// CallAgain makes pl's call anew, once per run and transport, on pages of
// its own: a check that found two calls of it end differently asks
// whether the difference repeats (a page's own timing, a save through a
// loaded server, can end one call differently once).
func (p *Probe) CallAgain(pl Planned) (*Exercised, error) {
	v, err := p.memoOwn(string(p.Transport)+"|exercise-again|"+pl.Action.ID, func(q *Probe) (any, error) { return q.exerciseOne(pl, false) })
	if err != nil {
		return nil, err
	}
	return v.(*Exercised), nil
}

// Each walks the planned calls whose action keep accepts, making each call
// on first use, and stops when fn returns false. A call whose receipt the
// harness wrote (the runtime's did not decode, or never came) is not given
// to fn.
func (p *Probe) Each(keep func(receipt.ActionInfo) bool, fn func(*Exercised) bool) error {
	return p.walk(keep, false, fn)
}

// EachCall is Each for an audit of the receipts the run saw: fn runs after
// every call of the plan, one whose receipt the harness wrote too, so that
// a receipt the decoder refused is judged before the next call is made.
func (p *Probe) EachCall(fn func(*Exercised) bool) error {
	return p.walk(AnyAction, true, fn)
}

func (p *Probe) walk(keep func(receipt.ActionInfo) bool, harnessToo bool, fn func(*Exercised) bool) error {
	calls, _ := p.ExercisePlan()
	var mine []Planned
	for _, pl := range calls {
		if keep(pl.Action) {
			mine = append(mine, pl)
		}
	}
	ahead := make([]func(), len(mine))
	for i, pl := range mine {
		ahead[i] = func() { _, _ = p.Call(pl) }
	}
	p.s.prefetch(ahead...)
	for _, pl := range mine {
		e, err := p.Call(pl)
		var nav *NavigatedError
		if errors.As(err, &nav) {
			// The call loaded a new document: no receipt of the runtime's
			// to judge; the run's findings report the call.
			continue
		}
		if err != nil {
			return err
		}
		if !e.ByRuntime && !harnessToo {
			// The harness wrote the receipt: there is no runtime receipt
			// to judge (the transport's own rules say why).
			continue
		}
		if !fn(e) {
			return nil
		}
	}
	return nil
}

// AnyAction keeps every action; IsRead and IsWrite keep reads and the
// rest (write, dangerous).
func AnyAction(receipt.ActionInfo) bool { return true }

func IsRead(a receipt.ActionInfo) bool { return a.Risk == receipt.RiskRead }

func IsWrite(a receipt.ActionInfo) bool { return a.Risk != receipt.RiskRead }

func (p *Probe) exerciseOne(pl Planned, timeline bool) (*Exercised, error) {
	pg, err := p.OpenApproved(pl.Secret)
	if err != nil {
		return nil, err
	}
	// Only a write can remove a record the rendered page must witness.
	rendered := IsWrite(pl.Action)
	before, domWitness, err := pg.StableWitness(rendered)
	if err != nil {
		return nil, err
	}
	element := pl.Action.Kind == receipt.KindElement
	if element {
		if err := pg.WatchStage6(); err != nil {
			return nil, err
		}
	}
	if timeline {
		if err := pg.WatchTimeline(); err != nil {
			return nil, err
		}
	}
	var r *receipt.Receipt
	var byRuntime bool
	loaded := len(pg.Harness.CancelledConfirms())
	runs := pg.Around(func() { r, byRuntime = pg.DoAnswered(pl.Action.ID, pl.Args) })
	cancelled := pg.Harness.CancelledConfirms()[loaded:] // up to the receipt: a later dialog is no call's
	if err := pg.Navigated(); err != nil {
		return nil, err
	}
	e := &Exercised{Action: pl.Action, Args: pl.Args, Secret: pl.Secret, Receipt: r, ByRuntime: byRuntime, Before: before,
		DOMWitness: domWitness, Confirmations: pg.Harness.Confirmations(), Runs: runs}
	if timeline {
		t, err := pg.ReadTimeline()
		if err != nil {
			return nil, err
		}
		e.Timeline = &t
	}
	if e.After, err = pg.Witness(rendered); err != nil {
		return nil, err
	}
	if element {
		if e.Stage6, err = pg.ReadStage6(); err != nil {
			return nil, err
		}
	}
	if r.Result.OK && IsWrite(pl.Action) {
		// verify.settle: what the page settles on once it goes quiet must
		// already be in a write's receipt.
		if err := pg.WaitQuiet(); err != nil {
			return nil, err
		}
		if e.Settled, err = pg.Witness(false); err != nil {
			return nil, err
		}
	} else if r.Result.OK && domWitness && pg.WaitQuiet() == nil {
		e.Settled, _ = pg.Witness(false) // a read's note; nil where its page navigated
	}
	e.Confirmations, e.Cancelled = pg.Harness.Confirmations(), cancelled
	return e, nil
}

// OpenApproved opens a page of the probe whose confirmations are
// approved, with secret (when not empty) given for the probe's sensitive
// placeholder: the page an exercised call is made on.
func (p *Probe) OpenApproved(secret string) (*Page, error) {
	opts := []glasstest.PageOption{glasstest.Approve()}
	if secret != "" {
		opts = append(opts, glasstest.Sensitive(params.SensitiveRef, secret))
	}
	return p.Open("", opts...)
}

// UsesSecret reports whether args pass the probe's sensitive value.
func UsesSecret(args map[string]any) bool {
	for _, v := range args {
		if m, ok := v.(map[string]string); ok && m["$sensitive"] == params.SensitiveRef {
			return true
		}
	}
	return false
}

// VerdictOf turns what a walk over the exercise ended with into an outcome: a
// probe that could not run, or the violation found; nil to go on.
func VerdictOf(err error, o *Outcome) *Outcome {
	if err != nil {
		b := Broken(err)
		return &b
	}
	return o
}

// JudgeEach walks the exercise's calls whose action keep accepts, judging
// each: judge returns whether the call was judged, and a sentence when it
// breaks the rule. It returns the first failure (with the receipt as
// evidence), or nil and how many calls were judged.
func (p *Probe) JudgeEach(keep func(receipt.ActionInfo) bool, judge func(e *Exercised) (judged bool, problem string)) (*Outcome, int) {
	var o *Outcome
	n := 0
	err := p.Each(keep, func(e *Exercised) bool {
		judged, problem := judge(e)
		if judged {
			n++
		}
		if problem != "" {
			res := Failf("%s: %s", e.Action.ID, problem).With(report.ReceiptEvidence("receipt", e.Receipt))
			o = &res
			return false
		}
		return true
	})
	return VerdictOf(err, o), n
}

// Judged turns a walk's end into an outcome: the failure, not probed with
// why when nothing was judged, else a pass.
func (p *Probe) Judged(o *Outcome, n int, why string) Outcome {
	switch {
	case o != nil:
		return *o
	case n == 0:
		return NotProbed(why).With(p.PlanNotes()...)
	}
	return Pass()
}

// PlanNotes says, as evidence, which actions the exercise left out and
// why.
func (p *Probe) PlanNotes() []report.Evidence {
	_, notes := p.ExercisePlan()
	if len(notes) == 0 {
		return nil
	}
	return []report.Evidence{report.TextEvidence("not exercised", notes...)}
}

// Watched is one call made on a fresh page between two witnesses of the
// page model and the DOM.
type Watched struct {
	Page          *Page
	Receipt       *receipt.Receipt
	Before, After *Witness
	DOMWitness    bool
}

// WatchedCall opens ref on a fresh page with opts and calls id there.
func (p *Probe) WatchedCall(ref, id string, args any, opts ...glasstest.PageOption) (*Watched, error) {
	pg, err := p.Open(ref, opts...)
	if err != nil {
		return nil, err
	}
	before, domWitness, err := pg.StableWitness(false)
	if err != nil {
		return nil, err
	}
	r := pg.Do(id, args)
	after, err := pg.Witness(false)
	if err != nil {
		return nil, err
	}
	return &Watched{Page: pg, Receipt: r, Before: before, After: after, DOMWitness: domWitness}, nil
}

// ArgsEcho is a function action whose exercise call returned its
// arguments as data and whose params take members they do not declare:
// what the runtime makes of a member it is given shows in the data.
type ArgsEcho struct {
	Action receipt.ActionInfo
	Args   map[string]any
}

// ArgsEchoes lists the exercise's argument-echoing function actions, in
// the exercise's order.
func (p *Probe) ArgsEchoes() ([]ArgsEcho, error) {
	var out []ArgsEcho
	err := p.Each(func(a receipt.ActionInfo) bool { return a.Kind == receipt.KindFunction && allowsExtra(a) }, func(e *Exercised) bool {
		if !e.Receipt.Result.OK || e.Secret != "" || !echoesArgs(e.Receipt.Result.Data, e.Args) {
			return true
		}
		args, _ := judge.Plain(e.Args).(map[string]any)
		if args == nil {
			args = map[string]any{}
		}
		out = append(out, ArgsEcho{e.Action, args})
		return true
	})
	return out, err
}

// allowsExtra reports whether the action's params accept members they do
// not declare (JSON Schema's default).
func allowsExtra(a receipt.ActionInfo) bool {
	s, err := params.ParseSchema(a.Params)
	if err != nil || len(s.Types()) > 0 && !s.HasType("object") {
		return false
	}
	ap := strings.TrimSpace(string(s.AdditionalProperties))
	return ap == "" || ap == "true" || ap == "{}"
}

// echoesArgs reports whether data holds every member of args, unchanged,
// and args has some (data cannot be seen to echo no arguments).
func echoesArgs(data json.RawMessage, args any) bool {
	var got map[string]any
	m, ok := judge.Plain(args).(map[string]any)
	if !ok || len(m) == 0 || json.Unmarshal(data, &got) != nil || got == nil {
		return false
	}
	for k, v := range m {
		if !reflect.DeepEqual(got[k], v) {
			return false
		}
	}
	return true
}
