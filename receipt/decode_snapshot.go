package receipt

import (
	"encoding/json"
)

func (d *decoder) snapshot(top *object) *Snapshot {
	s := &Snapshot{}
	if raw, path, ok := top.need("protocol"); ok {
		s.Protocol, _ = d.protocol(path, raw)
	}
	if raw, path, ok := top.take("runtime"); ok {
		s.Runtime, _ = d.str(path, raw, anyText)
	}
	if raw, path, ok := top.need("revision"); ok {
		s.Revision, _ = d.count(path, raw)
	}
	if raw, path, ok := top.need("page"); ok {
		s.Page = d.pageIdentity(path, raw)
	}
	if raw, path, ok := top.need("records"); ok {
		s.Records = d.snapshotRecords(path, raw)
	}
	if raw, path, ok := top.need("actions"); ok {
		s.Actions = d.snapshotActions(path, raw)
	}
	if raw, path, ok := top.need("state"); ok {
		s.State, _ = d.anyObject(path, raw)
	}
	if raw, path, ok := top.need("feedback"); ok {
		s.Feedback = d.feedbackList(path, raw, 0)
	}
	s.Extra = top.rest()
	return s
}

func (d *decoder) pageIdentity(path string, raw json.RawMessage) PageIdentity {
	var p PageIdentity
	o := d.object(path, raw)
	if o == nil {
		return p
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"id", &p.ID}, {"url", &p.URL}, {"title", &p.Title}} {
		if raw, fp, ok := o.need(f.key); ok {
			*f.dst, _ = d.str(fp, raw, anyText)
		}
	}
	o.closed()
	return p
}

func (d *decoder) snapshotRecords(path string, raw json.RawMessage) SnapshotRecords {
	var sr SnapshotRecords
	o := d.object(path, raw)
	if o == nil {
		return sr
	}
	if raw, p, ok := o.need("total"); ok {
		sr.Total, _ = d.integer(p, raw)
	}
	if raw, p, ok := o.need("items"); ok {
		if items, ok := d.array(p, raw, MaxSnapshotItems); ok {
			sr.Items = make([]Record, 0, len(items))
			for i, it := range items {
				if r, ok := d.record(index(p, i), it); ok {
					sr.Items = append(sr.Items, r)
				}
			}
		}
	}
	if raw, p, ok := o.need("omitted"); ok {
		sr.Omitted, _ = d.integer(p, raw)
	}
	o.closed()
	return sr
}

func (d *decoder) record(path string, raw json.RawMessage) (Record, bool) {
	var r Record
	o := d.object(path, raw)
	if o == nil {
		return r, false
	}
	if raw, p, ok := o.need("id"); ok {
		r.ID, _ = d.str(p, raw, anyText)
	}
	if raw, p, ok := o.need("fields"); ok {
		r.Fields, _ = d.anyObject(p, raw)
	}
	o.closed()
	return r, true
}

func (d *decoder) snapshotActions(path string, raw json.RawMessage) SnapshotActions {
	var sa SnapshotActions
	o := d.object(path, raw)
	if o == nil {
		return sa
	}
	if raw, p, ok := o.need("items"); ok {
		if items, ok := d.array(p, raw, MaxSnapshotItems); ok {
			sa.Items = make([]ActionInfo, 0, len(items))
			for i, it := range items {
				if a, ok := d.actionInfo(index(p, i), it); ok {
					sa.Items = append(sa.Items, a)
				}
			}
		}
	}
	if raw, p, ok := o.need("omitted"); ok {
		sa.Omitted, _ = d.integer(p, raw)
	}
	o.closed()
	return sa
}

func (d *decoder) actionInfo(path string, raw json.RawMessage) (ActionInfo, bool) {
	var a ActionInfo
	o := d.object(path, raw)
	if o == nil {
		return a, false
	}
	if raw, p, ok := o.need("id"); ok {
		a.ID, _ = d.str(p, raw, idText)
	}
	if raw, p, ok := o.need("description"); ok {
		a.Description, _ = d.str(p, raw, anyText)
	}
	if raw, p, ok := o.need("kind"); ok {
		a.Kind, _ = enumOf(d, p, raw, Kinds)
	}
	if raw, p, ok := o.need("risk"); ok {
		a.Risk, _ = enumOf(d, p, raw, Risks)
	}
	if raw, p, ok := o.need("confirm"); ok {
		a.Confirm, _ = d.boolean(p, raw)
	}
	if raw, p, ok := o.take("params"); ok {
		if d.typeIs(p, raw, "object") {
			a.Params = compact(raw)
		}
	}
	if raw, p, ok := o.need("available"); ok {
		a.Available, _ = d.boolean(p, raw)
	}
	if raw, p, ok := o.take("reason"); ok {
		a.Reason, _ = d.str(p, raw, anyText)
	}
	if raw, p, ok := o.take("fidelity"); ok {
		a.Fidelity, _ = enumOf(d, p, raw, Fidelities)
	}
	if raw, p, ok := o.take("expect"); ok {
		a.Expect, _ = d.str(p, raw, anyText)
	}
	if raw, p, ok := o.take("tool"); ok {
		a.Tool, _ = d.str(p, raw, idText)
	}
	if raw, p, ok := o.take("record"); ok {
		a.Record, _ = d.str(p, raw, anyText)
	}
	if raw, p, ok := o.take("steps"); ok {
		a.Steps, _ = d.strList(p, raw, 0, idText)
	}
	if raw, p, ok := o.take("stepOnly"); ok {
		a.StepOnly, _ = d.boolean(p, raw)
	}
	a.Extra = o.rest()
	return a, true
}
