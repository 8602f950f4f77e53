package receipt

import (
	"bytes"
	"encoding/json"
)

// Volatile placeholders that Normalize writes in place of values that
// differ from run to run.
const (
	VolatileExecutionID = "<execution-id>"
	VolatileTicket      = "<ticket>"
)

// Normalize returns a copy of r with its volatile fields made stable, for
// golden files: the execution id and confirmation tickets become
// placeholders, and the revision becomes relative (before 0, after the
// delta).
func Normalize(r *Receipt) *Receipt {
	if r == nil {
		return nil
	}
	c := *r
	if c.ExecutionID != "" {
		c.ExecutionID = VolatileExecutionID
	}
	if r.Revision != nil {
		c.Revision = &Revision{Before: 0, After: r.Revision.After - r.Revision.Before}
	}
	if len(r.Confirmations) > 0 {
		c.Confirmations = make([]Confirmation, len(r.Confirmations))
		for i, cf := range r.Confirmations {
			if cf.Ticket != "" {
				cf.Ticket = VolatileTicket
			}
			c.Confirmations[i] = cf
		}
	}
	if r.Result.Error != nil && (r.Result.Error.ExpectedRevision != nil || r.Result.Error.CurrentRevision != nil) {
		e := *r.Result.Error
		c.Result.Error = &e
		if e.ExpectedRevision != nil && e.CurrentRevision != nil {
			zero, delta := int64(0), *e.CurrentRevision-*e.ExpectedRevision
			e.ExpectedRevision, e.CurrentRevision = &zero, &delta
		}
	}
	return &c
}

// CanonicalJSON renders v the way Glass writes JSON files: indented by two
// spaces, HTML characters left as they are, one final newline. It keeps
// the bytes of raw JSON (data, extension fields) as the page sent them, so
// that decoding it gives back the same receipt; files meant to be read
// pass it through PrintableJSON.
func CanonicalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
