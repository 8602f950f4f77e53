package hostlog

import (
	"reflect"

	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// MaskConfirmRequest writes receipt.Masked wherever one of secrets
// appears in the request, in any spelling (internal/scrub) — its
// description, step, action and every key and string of its arguments,
// inside longer strings too — so that a runtime that forgets to mask
// cannot leak a secret into a spec's function, the record or the
// evidence. hid reports whether it had to.
func MaskConfirmRequest(req receipt.ConfirmRequest, secrets map[string]string) (_ receipt.ConfirmRequest, hid bool) {
	m := newMasker(secrets)
	if m == nil {
		return req, false
	}
	req.ExecutionID = m.text(req.ExecutionID)
	req.Action = m.text(req.Action)
	req.Description = m.text(req.Description)
	req.Step = m.text(req.Step)
	req.Args = m.args(req.Args)
	return req, m.hid
}

// MaskHandoffRequest is MaskConfirmRequest for a hand-off request.
func MaskHandoffRequest(req receipt.HandoffRequest, secrets map[string]string) (_ receipt.HandoffRequest, hid bool) {
	m := newMasker(secrets)
	if m == nil {
		return req, false
	}
	req.ExecutionID = m.text(req.ExecutionID)
	req.Action = m.text(req.Action)
	req.Description = m.text(req.Description)
	req.Instructions = m.text(req.Instructions)
	req.Args = m.args(req.Args)
	return req, m.hid
}

// masker replaces sensitive values in the texts of one request.
type masker struct {
	set *scrub.Set
	hid bool
}

func newMasker(secrets map[string]string) *masker {
	values := make([]string, 0, len(secrets))
	for _, v := range secrets {
		values = append(values, v)
	}
	set := scrub.New(values...)
	if set.Len() == 0 {
		return nil
	}
	return &masker{set: set}
}

func (m *masker) text(s string) string {
	out := m.set.ReplaceString(s, receipt.Masked)
	if out != s {
		m.hid = true
	}
	return out
}

func (m *masker) args(args map[string]any) map[string]any {
	if args == nil {
		return nil
	}
	// Numbers are json.Number-free float64 here; ReplaceIn masks one whose
	// digits spell a value (a PIN sent as a number).
	out, _ := m.set.ReplaceIn(args, receipt.Masked).(map[string]any)
	if !reflect.DeepEqual(out, args) {
		m.hid = true
	}
	return out
}
