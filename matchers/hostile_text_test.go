package matchers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/internal/hostile"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// evil is page-provided text as a hostile page writes it.
const evil = hostile.Text

// rawControl reports the first character of s that a terminal would act on
// instead of showing.
func rawControl(s string) (rune, bool) {
	if c := hostile.Controls(s); len(c) > 0 {
		return c[0], true
	}
	return 0, false
}

// hostileReceipt carries evil in every string a page provides: the action,
// the expectation, the warning, every list of changed, the data, the
// steps, the resume handle and the error.
func hostileReceipt(ok bool) *receipt.Receipt {
	r := &receipt.Receipt{
		Protocol:    receipt.Protocol,
		ExecutionID: "act_0123456789ab",
		Result: receipt.Result{
			OK:       ok,
			Action:   receipt.Action{ID: "id" + evil, Description: "description" + evil},
			Expect:   "expect" + evil,
			Warning:  "warning" + evil,
			Fidelity: receipt.FidelityLow,
			Data:     hostileData(),
			Resume:   "rs" + evil,
			Changed: &receipt.Changed{
				Observed: true,
				Page:     &receipt.PageChange{Title: &receipt.Transition{From: "title" + evil, To: "new" + evil}},
				Records: &receipt.RecordChanges{
					Added:   []string{"added" + evil},
					Removed: []string{"removed" + evil},
					Updated: []receipt.UpdatedRecord{{ID: "updated" + evil, Fields: []string{"field" + evil}}},
				},
				Actions: &receipt.ActionChanges{Added: []string{"action" + evil}, Removed: []string{"gone" + evil}},
				State:   &receipt.StateChanges{Changed: []string{"state" + evil}},
				Feedback: &receipt.FeedbackChange{
					Added:   []receipt.Feedback{{Kind: "error", Text: "feedback" + evil}},
					Removed: []receipt.Feedback{{Kind: "info", Text: "old" + evil}},
				},
			},
			Steps: []receipt.Step{
				{Index: 0, ID: "step" + evil, Outcome: receipt.StepOK},
				{Index: 1, ID: "failed" + evil, Outcome: receipt.StepFailed, Error: &receipt.Error{Code: receipt.CodeInvalidParams, Message: "step message" + evil, Started: receipt.StartedNo}},
			},
		},
		Revision: &receipt.Revision{Before: 1, After: 2},
	}
	if !ok {
		r.Result.Error = &receipt.Error{
			Code:      receipt.CodeActionNotFound,
			Message:   "message" + evil,
			Reason:    "reason" + evil,
			Path:      "/path" + evil,
			Available: []string{"available" + evil},
			Started:   receipt.StartedNo,
		}
		r.Phase = receipt.PhaseTargetResolution
		r.RecoveryStrategy = receipt.RecoveryNone
	}
	return r
}

// hostileData is a JSON object with evil as a value, once as Go writes
// it and once as a page could (C1 and bidi escaped in the JSON text).
func hostileData() json.RawMessage {
	b, err := json.Marshal(map[string]string{"text": "data" + evil})
	if err != nil {
		panic(err)
	}
	return append(b[:len(b)-1], `, "raw": "\u009b31m \u202e"}`...)
}

// hostileMatchers are every matcher of the package, with arguments that
// make them fail and arguments that name the hostile text, so both their
// failure and their negated messages quote it.
func hostileMatchers() map[string]types.GomegaMatcher {
	return map[string]types.GomegaMatcher{
		"BeOK":                         BeOK(),
		"SatisfyExpectation":           SatisfyExpectation(),
		"SatisfyExpectation(text)":     SatisfyExpectation("other" + evil),
		"HaveChanged(records)":         HaveChanged(Records(Added("x"+evil), Removed("removed"+evil), Updated("updated"+evil, "other"+evil), Reordered(), Total(1, 2))),
		"HaveChanged(actions)":         HaveChanged(Actions(Added("x"+evil), Removed("gone"+evil))),
		"HaveChanged(state, feedback)": HaveChanged(State("x"+evil), Feedback(Added(receipt.Feedback{Kind: "error", Text: "x" + evil}), Removed("old"+evil))),
		"HaveChanged(nothing)":         HaveChanged(NothingChanged()),
		"FailAtPhase":                  FailAtPhase(receipt.PhasePolicy),
		"FailWith":                     FailWith(receipt.CodePermissionDenied),
		"HaveNotStarted":               HaveNotStarted(),
		"HaveStarted":                  HaveStarted(),
		"HaveUnknownStart":             HaveUnknownStart(),
		"HaveRecoveryStrategy":         HaveRecoveryStrategy(receipt.RecoveryRetrySafe),
		"OfferActions":                 OfferActions("x"+evil, "available"+evil),
		"HaveFidelity":                 HaveFidelity(receipt.FidelityHigh),
		"HaveWarning":                  HaveWarning(),
		"HaveWarning(text)":            HaveWarning("other" + evil),
		"HaveData":                     HaveData(map[string]any{"text": "other" + evil}),
		"HaveSteps":                    HaveSteps(StepOK("x"+evil), StepFailed("failed"+evil, receipt.CodeStepFailed)),
		"BeResumable":                  BeResumable(),
		"BeBounded":                    BeBounded(),
		"NeverContain":                 NeverContain(evil),
	}
}

// TestFailureMessagesNeverCarryRawControlCharacters: a page's text reaches
// the terminal of whoever runs the suite through the matchers' failure
// messages (and through Gomega's rendering of the receipt, GomegaString).
// Whatever the page wrote, the message shows it escaped — a page cannot
// recolour, clear or rewrite the test log, nor hide a line of it.
func TestFailureMessagesNeverCarryRawControlCharacters(t *testing.T) {
	for _, ok := range []bool{true, false} {
		r := hostileReceipt(ok)
		if s := r.GomegaString(); strings.ContainsRune(s, '\n') {
			t.Errorf("GomegaString spans lines: %q", s)
		} else if c, bad := rawControl(s); bad {
			t.Errorf("GomegaString of a receipt (ok=%v) carries a raw %U: %q", ok, c, s)
		}
		if c, bad := rawControl(format.Object(r, 1)); bad {
			t.Errorf("Gomega's rendering of the receipt carries a raw %U", c)
		}
		for name, m := range hostileMatchers() {
			if _, err := m.Match(r); err != nil {
				t.Errorf("%s (ok=%v): %v", name, ok, err)
				continue
			}
			for kind, msg := range map[string]string{"failure": m.FailureMessage(r), "negated": m.NegatedFailureMessage(r)} {
				if c, bad := rawControl(msg); bad {
					t.Errorf("%s (ok=%v): the %s message carries a raw %U:\n%q", name, ok, kind, c, msg)
				}
			}
		}
	}
}

// TestFailureMessagesShowTheHostileTextEscaped: neutralised is not hidden —
// the reader still sees what the page wrote, with its escapes visible.
func TestFailureMessagesShowTheHostileTextEscaped(t *testing.T) {
	r := hostileReceipt(false)
	s := r.GomegaString()
	for _, want := range []string{`<script>alert(1)</script>`, `\x1b[31mRED`, `\u009b31m`, `\rOVER`, `\u202eRTL`} {
		if !strings.Contains(s, want) {
			t.Errorf("GomegaString lacks %q: %s", want, s)
		}
	}
	m := OfferActions("x")
	if _, err := m.Match(r); err != nil {
		t.Fatal(err)
	}
	if msg := m.FailureMessage(r); !strings.Contains(msg, `available<script>alert(1)</script> ]]> \x1b[31mRED`) {
		t.Errorf("OfferActions's message should show the available action, escaped:\n%s", msg)
	}
}
