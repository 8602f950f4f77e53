package receipt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// Marshalling writes the canonical form (CONTRACT.md, "Two wire forms"):
// the known fields in model order, then the extension fields of Extra in
// key order. HTML characters are left as they are, as CanonicalJSON does,
// so that a feedback text like "Deleted “<b>”" reads the same in a golden
// file as on the page.

var (
	receiptFields  = []string{"protocol", "executionId", "result", "revision", "phase", "recoveryStrategy", "recovery", "confirmations"}
	resultFields   = []string{"ok", "action", "expect", "changed", "fidelity", "warning", "data", "steps", "resume", "error"}
	snapshotFields = []string{"protocol", "runtime", "revision", "page", "records", "actions", "state", "feedback"}
	actionFields   = []string{"id", "description", "kind", "risk", "confirm", "params", "available", "reason", "fidelity", "expect", "tool", "record", "steps"}
)

// MarshalJSON writes r in the canonical form with its extension fields.
func (r Receipt) MarshalJSON() ([]byte, error) {
	type plain Receipt // the same fields without this method
	return marshalWithExtra("receipt", plain(r), r.Extra, receiptFields)
}

// MarshalJSON writes the result with its extension fields.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	return marshalWithExtra("result", plain(r), r.Extra, resultFields)
}

// MarshalJSON writes s with its extension fields.
func (s Snapshot) MarshalJSON() ([]byte, error) {
	type plain Snapshot
	return marshalWithExtra("snapshot", plain(s), s.Extra, snapshotFields)
}

// MarshalJSON writes the action descriptor with its extension fields.
func (a ActionInfo) MarshalJSON() ([]byte, error) {
	type plain ActionInfo
	return marshalWithExtra("action", plain(a), a.Extra, actionFields)
}

func marshalWithExtra(what string, v any, extra map[string]json.RawMessage, known []string) ([]byte, error) {
	b, err := marshalPlain(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if slices.Contains(known, k) {
			return nil, fmt.Errorf("receipt: %s extension field %q shadows a field of the contract", what, k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := bytes.NewBuffer(b[:len(b)-1]) // drop the closing brace
	for _, k := range keys {
		raw := bytes.TrimSpace(extra[k])
		if !json.Valid(raw) {
			return nil, fmt.Errorf("receipt: %s extension field %q is not valid JSON", what, k)
		}
		name, err := marshalPlain(k)
		if err != nil {
			return nil, err
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(name)
		out.WriteByte(':')
		out.Write(raw)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
