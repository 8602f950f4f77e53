package receipt

import (
	"encoding/json"
	"slices"
	"strings"
)

// Seed 004's flat form, accepted on input (CONTRACT.md, "Two wire forms").
// Its fields map onto the canonical model as follows:
//
//	status "succeeded" | "failed"      result.ok
//	action "click"                     result.action.id
//	kind "stale_revision"              result.error.code STALE_REVISION
//	previousRevision, currentRevision  revision.before, revision.after
//	revision (a number)                the same as currentRevision
//	expectedRevision, currentRevision  result.error.expectedRevision, currentRevision (on a failure)
//	executionId, phase, recoveryStrategy, recovery  the same envelope fields
//
// target, target_id, frame_id and verification describe the browser tab
// and frame a Glass CLI action ran in; a page runtime has no such thing, so
// they have no canonical field and are kept in Extra, type-checked.

// Flat-form status values.
const (
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
)

func (d *decoder) flat(top *object) *Receipt {
	r := &Receipt{}
	if raw, path, ok := top.take("protocol"); ok {
		r.Protocol, _ = d.protocol(path, raw)
	}
	if raw, path, ok := top.take("executionId"); ok {
		r.ExecutionID, _ = d.executionID(path, raw)
	}

	status := ""
	if raw, path, ok := top.take("status"); ok {
		status, _ = enumOf(d, path, raw, []string{StatusSucceeded, StatusFailed})
	}
	var code Code
	kindRaw, kindPath, hasKind := top.take("kind")
	if hasKind {
		code, _ = d.flatKind(kindPath, kindRaw)
	}
	switch {
	case status == StatusSucceeded && hasKind:
		d.fail(kindPath, "present on a result with status %q", StatusSucceeded)
	case status == StatusFailed && !hasKind:
		d.fail(kindPath, "missing on a result with status %q", StatusFailed)
	}
	// An unreadable status (already reported) decides nothing.
	okKnown := status != "" || hasKind
	r.Result.OK = status == StatusSucceeded
	if hasKind || status == StatusFailed {
		r.Result.Error = &Error{Code: code}
	}

	if raw, path, ok := top.take("action"); ok {
		r.Result.Action.ID, _ = d.str(path, raw, idText)
	} else if okKnown && r.Result.OK {
		// A success names what ran, in either form.
		d.fail(path, "missing")
	}

	revs := map[string]int64{}
	for _, k := range []string{"revision", "previousRevision", "currentRevision", "expectedRevision"} {
		if raw, path, ok := top.take(k); ok {
			if n, ok := d.count(path, raw); ok {
				revs[k] = n
			}
		}
	}
	d.flatRevisions(top, r, revs)
	d.envelope(top, r)

	if raw, path, ok := top.take("target"); ok {
		d.typeIs(path, raw, "object")
	}
	for _, k := range []string{"target_id", "frame_id"} {
		if raw, path, ok := top.take(k); ok {
			d.str(path, raw, anyText)
		}
	}
	if raw, path, ok := top.take("verification"); ok {
		d.verification(path, raw)
	}
	// Everything not mapped onto a canonical field is kept, the flat
	// form's own fields included.
	for k := range top.used {
		if slices.Contains([]string{"target", "target_id", "frame_id", "verification"}, k) {
			delete(top.used, k)
		}
	}
	r.Extra = top.rest()
	return r
}

// flatKind maps a flat kind ("stale_revision") to its code.
func (d *decoder) flatKind(path string, raw json.RawMessage) (Code, bool) {
	s, ok := d.str(path, raw, anyText)
	if !ok {
		return CodeNone, false
	}
	c := Code(strings.ToUpper(s))
	if s != strings.ToLower(s) || !c.Known() {
		d.fail(path, "want a code of the contract in lower case (\"stale_revision\"), got %q", excerpt(s))
		return CodeNone, false
	}
	return c, true
}

func (d *decoder) flatRevisions(top *object, r *Receipt, revs map[string]int64) {
	path := func(k string) string { return child(top.path, k) }
	has := func(k string) bool { return top.has(k) }
	// revision is currentRevision's other name; it adds nothing of its own.
	if has("revision") {
		if !has("currentRevision") {
			d.fail(path("currentRevision"), "missing beside revision")
		} else if a, ok := revs["revision"]; ok {
			if b, ok := revs["currentRevision"]; ok && a != b {
				d.fail(path("revision"), "%d disagrees with currentRevision %d", a, b)
			}
		}
	}
	if r.Result.OK {
		if has("expectedRevision") {
			d.fail(path("expectedRevision"), "present on a result with status %q", StatusSucceeded)
		}
		switch {
		case has("previousRevision") && !has("currentRevision"):
			d.fail(path("currentRevision"), "missing beside previousRevision")
		case has("currentRevision") && !has("previousRevision"):
			d.fail(path("previousRevision"), "missing beside currentRevision")
		}
		before, okB := revs["previousRevision"]
		after, okA := revs["currentRevision"]
		if okB && okA {
			r.Revision = &Revision{Before: before, After: after}
		}
		return
	}
	if has("previousRevision") && !has("currentRevision") {
		d.fail(path("currentRevision"), "missing beside previousRevision")
	}
	e := r.Result.Error
	if e == nil {
		return // an unreadable status, already reported
	}
	if n, ok := revs["expectedRevision"]; ok {
		e.ExpectedRevision = &n
	}
	if n, ok := revs["currentRevision"]; ok {
		e.CurrentRevision = &n
		if before, ok := revs["previousRevision"]; ok {
			r.Revision = &Revision{Before: before, After: n}
		}
	}
}

func (d *decoder) verification(path string, raw json.RawMessage) {
	o := d.object(path, raw)
	if o == nil {
		return
	}
	if raw, p, ok := o.take("revisionDelta"); ok {
		d.signedInteger(p, raw)
	}
	for _, k := range []string{"urlChanged", "titleChanged", "targetChanged", "frameChanged"} {
		if raw, p, ok := o.take(k); ok {
			d.boolean(p, raw)
		}
	}
}
