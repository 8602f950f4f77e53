package receipt

import (
	"encoding/json"
	"slices"
)

// canonical decodes the nested form: the lifecycle receipt under result,
// the Glass envelope beside it.
func (d *decoder) canonical(top *object) *Receipt {
	r := &Receipt{}
	if raw, path, ok := top.take("protocol"); ok {
		r.Protocol, _ = d.protocol(path, raw)
	}
	if raw, path, ok := top.take("executionId"); ok {
		r.ExecutionID, _ = d.executionID(path, raw)
	}
	if raw, path, ok := top.need("result"); ok {
		if res := d.result(path, raw); res != nil {
			r.Result = *res
		}
	}
	if raw, path, ok := top.take("revision"); ok {
		r.Revision = d.revision(path, raw)
	}
	d.envelope(top, r)
	if raw, path, ok := top.take("confirmations"); ok {
		r.Confirmations = d.confirmations(path, raw)
	}
	r.Extra = top.rest()
	return r
}

// envelope decodes the failure fields both wire forms share, and refuses
// them on a success: a call that did not fail has no failure phase.
func (d *decoder) envelope(top *object, r *Receipt) {
	if raw, path, ok := top.take("phase"); ok {
		r.Phase, _ = enumOf(d, path, raw, Phases)
	}
	if raw, path, ok := top.take("recoveryStrategy"); ok {
		r.RecoveryStrategy, _ = enumOf(d, path, raw, RecoveryStrategies)
	}
	if raw, path, ok := top.take("recovery"); ok {
		r.Recovery, _ = d.str(path, raw, textRule{min: 1, max: MaxTextChars})
	}
	if !r.Result.OK {
		return
	}
	for _, k := range []string{"phase", "recoveryStrategy", "recovery"} {
		if top.has(k) && !d.failedAt(child(top.path, k)) {
			d.fail(child(top.path, k), "present on a receipt that succeeded")
		}
	}
}

// failedAt reports whether a problem was already recorded at path, so one
// mistake is not reported twice.
func (d *decoder) failedAt(path string) bool {
	return slices.ContainsFunc(d.problems, func(p Problem) bool { return p.Path == path })
}

func (d *decoder) revision(path string, raw json.RawMessage) *Revision {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	var rev Revision
	if raw, p, ok := o.need("before"); ok {
		rev.Before, _ = d.count(p, raw)
	}
	if raw, p, ok := o.need("after"); ok {
		rev.After, _ = d.count(p, raw)
	}
	o.closed()
	return &rev
}

func (d *decoder) confirmations(path string, raw json.RawMessage) []Confirmation {
	items, ok := d.array(path, raw, 0)
	if !ok {
		return nil
	}
	out := make([]Confirmation, 0, len(items))
	for i, it := range items {
		o := d.object(index(path, i), it)
		if o == nil {
			continue
		}
		var c Confirmation
		if raw, p, ok := o.need("action"); ok {
			c.Action, _ = d.str(p, raw, idText)
		}
		if raw, p, ok := o.need("risk"); ok {
			c.Risk, _ = enumOf(d, p, raw, Risks)
		}
		if raw, p, ok := o.need("approved"); ok {
			c.Approved, _ = d.boolean(p, raw)
		}
		if raw, p, ok := o.take("ticket"); ok {
			c.Ticket, _ = d.str(p, raw, idText)
		}
		o.closed()
		out = append(out, c)
	}
	return out
}

// result decodes the lifecycle receipt.
func (d *decoder) result(path string, raw json.RawMessage) *Result {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	res := &Result{}
	okKnown := false
	if raw, p, ok := o.need("ok"); ok {
		res.OK, okKnown = d.boolean(p, raw)
	}
	if raw, p, ok := o.take("action"); ok {
		res.Action = d.action(p, raw)
	} else if okKnown && res.OK {
		d.fail(p, "missing")
	}
	if raw, p, ok := o.take("expect"); ok {
		res.Expect, _ = d.str(p, raw, bounded)
	}
	if raw, p, ok := o.take("changed"); ok {
		res.Changed = d.changed(p, raw)
	}
	if raw, p, ok := o.take("fidelity"); ok {
		res.Fidelity, _ = enumOf(d, p, raw, Fidelities)
	}
	if raw, p, ok := o.take("warning"); ok {
		res.Warning, _ = d.str(p, raw, bounded)
	}
	if raw, _, ok := o.take("data"); ok {
		// data is the function's own value, bounded by the runtime; its
		// shape is the page's business (CONTRACT.md §2.6, "Bounded data").
		res.Data = compact(raw)
	}
	if raw, p, ok := o.take("steps"); ok {
		res.Steps = d.steps(p, raw)
	}
	if raw, p, ok := o.take("resume"); ok {
		res.Resume, _ = d.str(p, raw, idText)
	}
	raw, p, hasError := o.take("error")
	if hasError {
		res.Error = d.errorValue(p, raw)
	}
	if okKnown {
		switch {
		case res.OK && hasError:
			d.fail(p, "present on a receipt with ok true")
		case !res.OK && !hasError:
			d.fail(p, "missing on a receipt with ok false")
		}
	}
	res.Extra = o.rest()
	return res
}

func (d *decoder) action(path string, raw json.RawMessage) Action {
	var a Action
	o := d.object(path, raw)
	if o == nil {
		return a
	}
	if raw, p, ok := o.need("id"); ok {
		a.ID, _ = d.str(p, raw, idText)
	}
	if raw, p, ok := o.take("description"); ok {
		a.Description, _ = d.str(p, raw, anyText)
	}
	o.closed()
	return a
}

func (d *decoder) errorValue(path string, raw json.RawMessage) *Error {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	e := &Error{}
	if raw, p, ok := o.need("code"); ok {
		e.Code, _ = d.code(p, raw)
	}
	if raw, p, ok := o.take("message"); ok {
		e.Message, _ = d.str(p, raw, bounded)
	}
	if raw, p, ok := o.take("reason"); ok {
		e.Reason, _ = d.str(p, raw, bounded)
	}
	if raw, p, ok := o.take("path"); ok {
		e.Path, _ = d.str(p, raw, bounded)
	}
	if raw, p, ok := o.take("available"); ok {
		e.Available, _ = d.strList(p, raw, MaxAvailable, idText)
	}
	if raw, p, ok := o.take("started"); ok {
		e.Started, _ = enumOf(d, p, raw, StartedValues)
	}
	if raw, p, ok := o.take("step"); ok {
		if n, ok := d.integer(p, raw); ok {
			e.Step = &n
		}
	}
	if raw, p, ok := o.take("expectedRevision"); ok {
		if n, ok := d.count(p, raw); ok {
			e.ExpectedRevision = &n
		}
	}
	if raw, p, ok := o.take("currentRevision"); ok {
		if n, ok := d.count(p, raw); ok {
			e.CurrentRevision = &n
		}
	}
	o.closed()
	return e
}

// code is enumOf for codes, whose list is too long to print in a message.
func (d *decoder) code(path string, raw json.RawMessage) (Code, bool) {
	s, ok := d.str(path, raw, anyText)
	if !ok {
		return CodeNone, false
	}
	if !Code(s).Known() {
		d.fail(path, "want a code of the contract (CONTRACT.md, \"Error codes\"), got %q", excerpt(s))
		return CodeNone, false
	}
	return Code(s), true
}

func (d *decoder) steps(path string, raw json.RawMessage) []Step {
	items, ok := d.array(path, raw, 0)
	if !ok {
		return nil
	}
	out := make([]Step, 0, len(items))
	for i, it := range items {
		o := d.object(index(path, i), it)
		if o == nil {
			continue
		}
		var s Step
		if raw, p, ok := o.need("index"); ok {
			s.Index, _ = d.integer(p, raw)
		}
		if raw, p, ok := o.need("id"); ok {
			s.ID, _ = d.str(p, raw, idText)
		}
		outcomeKnown := false
		if raw, p, ok := o.need("outcome"); ok {
			s.Outcome, outcomeKnown = enumOf(d, p, raw, StepOutcomes)
		}
		raw, p, hasError := o.take("error")
		if hasError {
			s.Error = d.errorValue(p, raw)
		}
		if outcomeKnown {
			switch {
			case s.Outcome == StepFailed && !hasError:
				d.fail(p, "missing on a step that failed")
			case s.Outcome != StepFailed && hasError:
				d.fail(p, "present on a step that did not fail")
			}
		}
		o.closed()
		out = append(out, s)
	}
	return out
}

// ---- changed

func (d *decoder) changed(path string, raw json.RawMessage) *Changed {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	c := &Changed{}
	observedKnown := false
	if raw, p, ok := o.need("observed"); ok {
		c.Observed, observedKnown = d.boolean(p, raw)
	}
	if raw, p, ok := o.take("page"); ok {
		c.Page = d.pageChange(p, raw)
	}
	if raw, p, ok := o.take("records"); ok {
		c.Records = d.recordChanges(p, raw)
	}
	if raw, p, ok := o.take("actions"); ok {
		c.Actions = d.actionChanges(p, raw)
	}
	if raw, p, ok := o.take("state"); ok {
		c.State = d.stateChanges(p, raw)
	}
	if raw, p, ok := o.take("feedback"); ok {
		c.Feedback = d.feedbackChange(p, raw)
	}
	o.closed()
	if observedKnown && !c.Observed {
		// A part is present only when something in it changed.
		for _, k := range []string{"page", "records", "actions", "state", "feedback"} {
			if o.has(k) {
				d.fail(child(path, k), "present on a changed object with observed false")
			}
		}
	}
	return c
}

func (d *decoder) pageChange(path string, raw json.RawMessage) *PageChange {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	pc := &PageChange{}
	for _, f := range []struct {
		key string
		dst **Transition
	}{{"url", &pc.URL}, {"title", &pc.Title}, {"id", &pc.ID}} {
		if raw, p, ok := o.take(f.key); ok {
			*f.dst = d.transition(p, raw)
		}
	}
	o.closed()
	return pc
}

func (d *decoder) transition(path string, raw json.RawMessage) *Transition {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	t := &Transition{}
	if raw, p, ok := o.need("from"); ok {
		t.From, _ = d.str(p, raw, bounded)
	}
	if raw, p, ok := o.need("to"); ok {
		t.To, _ = d.str(p, raw, bounded)
	}
	o.closed()
	return t
}

func (d *decoder) recordChanges(path string, raw json.RawMessage) *RecordChanges {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	rc := &RecordChanges{}
	if raw, p, ok := o.need("added"); ok {
		rc.Added, _ = d.strList(p, raw, MaxChangedEntries, anyText)
	}
	if raw, p, ok := o.need("removed"); ok {
		rc.Removed, _ = d.strList(p, raw, MaxChangedEntries, anyText)
	}
	if raw, p, ok := o.need("updated"); ok {
		if items, ok := d.array(p, raw, MaxChangedEntries); ok {
			rc.Updated = make([]UpdatedRecord, 0, len(items))
			for i, it := range items {
				if u, ok := d.updatedRecord(index(p, i), it); ok {
					rc.Updated = append(rc.Updated, u)
				}
			}
		}
	}
	if raw, p, ok := o.need("reordered"); ok {
		rc.Reordered, _ = d.boolean(p, raw)
	}
	if raw, p, ok := o.need("omitted"); ok {
		if om := d.counts(p, raw, "added", "removed", "updated"); om != nil {
			rc.Omitted = RecordOmitted{Added: om[0], Removed: om[1], Updated: om[2]}
		}
	}
	if raw, p, ok := o.take("total"); ok {
		if t := d.counts(p, raw, "from", "to"); t != nil {
			rc.Total = &Total{From: t[0], To: t[1]}
		}
	}
	o.closed()
	return rc
}

func (d *decoder) updatedRecord(path string, raw json.RawMessage) (UpdatedRecord, bool) {
	var u UpdatedRecord
	o := d.object(path, raw)
	if o == nil {
		return u, false
	}
	if raw, p, ok := o.need("id"); ok {
		u.ID, _ = d.str(p, raw, anyText)
	}
	if raw, p, ok := o.need("fields"); ok {
		u.Fields, _ = d.strList(p, raw, 0, anyText)
	}
	o.closed()
	return u, true
}

// counts decodes a closed object of required non-negative integers, in the
// order of keys.
func (d *decoder) counts(path string, raw json.RawMessage, keys ...string) []int {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	out := make([]int, len(keys))
	for i, k := range keys {
		if raw, p, ok := o.need(k); ok {
			out[i], _ = d.integer(p, raw)
		}
	}
	o.closed()
	return out
}

func (d *decoder) actionChanges(path string, raw json.RawMessage) *ActionChanges {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	ac := &ActionChanges{}
	if raw, p, ok := o.need("added"); ok {
		ac.Added, _ = d.strList(p, raw, MaxChangedEntries, anyText)
	}
	if raw, p, ok := o.need("removed"); ok {
		ac.Removed, _ = d.strList(p, raw, MaxChangedEntries, anyText)
	}
	if raw, p, ok := o.need("omitted"); ok {
		if om := d.counts(p, raw, "added", "removed"); om != nil {
			ac.Omitted = ActionOmitted{Added: om[0], Removed: om[1]}
		}
	}
	o.closed()
	return ac
}

func (d *decoder) stateChanges(path string, raw json.RawMessage) *StateChanges {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	sc := &StateChanges{}
	if raw, p, ok := o.need("changed"); ok {
		sc.Changed, _ = d.strList(p, raw, MaxChangedEntries, anyText)
	}
	if raw, p, ok := o.need("omitted"); ok {
		sc.Omitted, _ = d.integer(p, raw)
	}
	o.closed()
	return sc
}

func (d *decoder) feedbackChange(path string, raw json.RawMessage) *FeedbackChange {
	o := d.object(path, raw)
	if o == nil {
		return nil
	}
	fc := &FeedbackChange{}
	if raw, p, ok := o.need("added"); ok {
		fc.Added = d.feedbackList(p, raw, MaxChangedEntries)
	}
	if raw, p, ok := o.need("removed"); ok {
		fc.Removed = d.feedbackList(p, raw, MaxChangedEntries)
	}
	if raw, p, ok := o.need("omitted"); ok {
		if om := d.counts(p, raw, "added", "removed"); om != nil {
			fc.Omitted = FeedbackOmitted{Added: om[0], Removed: om[1]}
		}
	}
	o.closed()
	return fc
}

func (d *decoder) feedbackList(path string, raw json.RawMessage, max int) []Feedback {
	items, ok := d.array(path, raw, max)
	if !ok {
		return nil
	}
	out := make([]Feedback, 0, len(items))
	for i, it := range items {
		o := d.object(index(path, i), it)
		if o == nil {
			continue
		}
		var f Feedback
		if raw, p, ok := o.need("kind"); ok {
			f.Kind, _ = d.str(p, raw, anyText)
		}
		if raw, p, ok := o.need("text"); ok {
			f.Text, _ = d.str(p, raw, bounded)
		}
		o.closed()
		out = append(out, f)
	}
	return out
}
