package conformance

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// maxExercised bounds how many actions the exercise may call.
const maxExercised = 16

// exercised is one call the exercise made to succeed: an available action
// with valid arguments, the confirmation approved, on a fresh page between
// two witnesses.
type exercised struct {
	action        receipt.ActionInfo
	args          any
	secret        string
	r             *receipt.Receipt
	before, after *witness
	domWitness    bool
	confirmations []glasstest.ConfirmationRecord
}

// planned is one call the exercise may make.
type planned struct {
	action receipt.ActionInfo
	args   map[string]any
	secret string
}

// exercisePlan lists the calls the exercise may make, in declaration
// order: one action of every tool the page declares (row actions count
// once), available, with valid arguments (the manifest's or built from the
// declared params; sensitive parameters get a secret the probes then look
// for). Actions the manifest skips, hand-offs, and actions the probe cannot
// build arguments for are left out, with a note.
func (p *probe) exercisePlan() ([]planned, []string) {
	type plan struct {
		calls []planned
		notes []string
	}
	v, _ := p.s.memo("plan", func() (any, error) {
		var out plan
		tools := map[string]bool{}
		for _, a := range p.base().Actions.Items {
			tool := a.ID
			if a.Tool != "" {
				tool = "tool:" + a.Tool
			}
			switch {
			case tools[tool] || !a.Available:
				continue
			case a.Kind == receipt.KindHandoff:
				out.notes = append(out.notes, a.ID+": a hand-off needs a user (name it in the manifest's handoffs)")
				continue
			case p.manifest().skips(a.ID):
				out.notes = append(out.notes, a.ID+": skipped by the manifest")
				continue
			case len(out.calls) == maxExercised:
				out.notes = append(out.notes, fmt.Sprintf("%s: the exercise stops after %d actions", a.ID, maxExercised))
				continue
			}
			tools[tool] = true
			secret := p.s.secrets.fresh()
			args, err := p.validArgs(a, secret)
			if err != nil {
				out.notes = append(out.notes, fmt.Sprintf("%s: %v", a.ID, err))
				continue
			}
			if !usesSecret(args) {
				secret = ""
			}
			out.calls = append(out.calls, planned{action: a, args: args, secret: secret})
		}
		return out, nil
	})
	pl := v.(plan)
	return pl.calls, pl.notes
}

// call makes one planned call, once per run and transport: every check
// that needs it shares the result.
func (p *probe) call(pl planned) (*exercised, error) {
	v, err := p.s.memo(string(p.transport)+"|exercise|"+pl.action.ID, func() (any, error) {
		// The call's page belongs to no single check: it is closed at once.
		q := &probe{s: p.s, transport: p.transport}
		defer q.close()
		return q.exerciseOne(pl)
	})
	if err != nil {
		return nil, err
	}
	return v.(*exercised), nil
}

// each walks the planned calls whose action keep accepts, making each call
// on first use, and stops when fn returns false.
func (p *probe) each(keep func(receipt.ActionInfo) bool, fn func(*exercised) bool) error {
	calls, _ := p.exercisePlan()
	var mine []planned
	for _, pl := range calls {
		if keep(pl.action) {
			mine = append(mine, pl)
		}
	}
	ahead := make([]func(), len(mine))
	for i, pl := range mine {
		ahead[i] = func() { _, _ = p.call(pl) }
	}
	p.s.prefetch(ahead...)
	for _, pl := range mine {
		e, err := p.call(pl)
		if err != nil {
			return err
		}
		if !fn(e) {
			return nil
		}
	}
	return nil
}

func anyAction(receipt.ActionInfo) bool { return true }

func isRead(a receipt.ActionInfo) bool { return a.Risk == receipt.RiskRead }

func isWrite(a receipt.ActionInfo) bool { return a.Risk != receipt.RiskRead }

func (p *probe) exerciseOne(pl planned) (*exercised, error) {
	opts := []glasstest.Option{glasstest.Approve()}
	if pl.secret != "" {
		opts = append(opts, glasstest.Sensitive(sensitiveRef, pl.secret))
	}
	pg, err := p.open("", opts...)
	if err != nil {
		return nil, err
	}
	// Only a write can remove a record the accessibility tree must witness.
	aria := isWrite(pl.action)
	before, domWitness, err := pg.stableWitness(aria)
	if err != nil {
		return nil, err
	}
	r := pg.do(pl.action.ID, pl.args)
	after, err := pg.witness(aria)
	if err != nil {
		return nil, err
	}
	return &exercised{action: pl.action, args: pl.args, secret: pl.secret, r: r, before: before, after: after,
		domWitness: domWitness, confirmations: pg.g.Confirmations()}, nil
}

func usesSecret(args map[string]any) bool {
	for _, v := range args {
		if m, ok := v.(map[string]string); ok && m["$sensitive"] == sensitiveRef {
			return true
		}
	}
	return false
}

// newSecret returns a value no page contains by chance, long enough for
// any minLength a password field declares and short enough for most
// maxLengths.
func newSecret() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "GlassSecret-" + hex.EncodeToString(b[:])
}
