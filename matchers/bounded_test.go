package matchers_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

func TestBeBounded(t *testing.T) {
	runCases(t, []matcherCase{
		{"full lists with omission counts", "bounded-full", BeBounded(), true,
			`not to be bounded, but every list of changed holds at most 20 entries and every omission count is consistent`},
		{"the seed's receipt", "remove-t9-approved", BeBounded(), true,
			`not to be bounded, but every list of changed holds at most 20 entries and every omission count is consistent`},
		{"no changed object", "denied", BeBounded(), true,
			`not to be bounded, but every list of changed holds at most 20 entries and every omission count is consistent`},
		{"every way to break a bound", "unbounded", BeBounded(), false,
			`to be bounded (at most 20 entries per list of changed, omission counts only on full lists), but:
    - changed.records.added: 21 entries, over the bound of 20
    - changed.actions.omitted.added is 22, but changed.actions.added lists only 3 of 20 entries: entries may be omitted only from a full list
    - changed.state.omitted is -1: an omission count cannot be negative`},
	})
}

// TestBeBoundedJudgesAgainstItsBound: the messages and the fullness of a
// list follow the bound the matcher holds, not a constant of its own.
func TestBeBoundedJudgesAgainstItsBound(t *testing.T) {
	wider := BeBoundedAt(25)

	ok, err := wider.Match(fixture(t, "unbounded"))
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Fatal("Match = true, want false: the omission counts are still inconsistent")
	}
	if msg := wider.FailureMessage(nil); strings.Contains(msg, "over the bound") || !strings.Contains(msg, "at most 25 entries") {
		t.Errorf("with a bound of 25, 21 entries fit; message:\n%s", msg)
	}
	// With a bound of 25 a list of 20 is not full, so its omission count
	// no longer fits.
	ok, err = wider.Match(fixture(t, "bounded-full"))
	if err != nil {
		t.Fatal(err)
	}
	want := header(decoded(t, "bounded-full")) + `
to be bounded (at most 25 entries per list of changed, omission counts only on full lists), but:
    - changed.records.omitted.added is 5, but changed.records.added lists only 20 of 25 entries: entries may be omitted only from a full list
    - changed.actions.omitted.added is 5, but changed.actions.added lists only 20 of 25 entries: entries may be omitted only from a full list`
	if ok || stable(wider.FailureMessage(nil)) != want {
		t.Errorf("Match = %v, message:\n%s\nwant false and:\n%s", ok, stable(wider.FailureMessage(nil)), want)
	}
}

func TestBeBoundedEveryList(t *testing.T) {
	// One list at a time over the bound, so that no list is forgotten.
	long := make([]string, 21)
	for i := range long {
		long[i] = "x"
	}
	longUpdated := make([]receipt.UpdatedRecord, 21)
	longFeedback := make([]receipt.Feedback, 21)
	lists := map[string]func(c *receipt.Changed){
		"changed.records.added":    func(c *receipt.Changed) { c.Records = &receipt.RecordChanges{Added: long} },
		"changed.records.removed":  func(c *receipt.Changed) { c.Records = &receipt.RecordChanges{Removed: long} },
		"changed.records.updated":  func(c *receipt.Changed) { c.Records = &receipt.RecordChanges{Updated: longUpdated} },
		"changed.actions.added":    func(c *receipt.Changed) { c.Actions = &receipt.ActionChanges{Added: long} },
		"changed.actions.removed":  func(c *receipt.Changed) { c.Actions = &receipt.ActionChanges{Removed: long} },
		"changed.state.changed":    func(c *receipt.Changed) { c.State = &receipt.StateChanges{Changed: long} },
		"changed.feedback.added":   func(c *receipt.Changed) { c.Feedback = &receipt.FeedbackChange{Added: longFeedback} },
		"changed.feedback.removed": func(c *receipt.Changed) { c.Feedback = &receipt.FeedbackChange{Removed: longFeedback} },
	}
	for path, set := range lists {
		r := &receipt.Receipt{Result: receipt.Result{OK: true, Changed: &receipt.Changed{Observed: true}}}
		set(r.Result.Changed)
		m := BeBounded()
		ok, err := m.Match(r)
		if err != nil || ok {
			t.Errorf("%s over the bound: Match = %v, %v; want false, nil", path, ok, err)
			continue
		}
		if want := path + ": 21 entries, over the bound of 20"; !strings.Contains(m.FailureMessage(nil), want) {
			t.Errorf("%s over the bound: message lacks %q:\n%s", path, want, m.FailureMessage(nil))
		}
	}
}

func TestBeBoundedReadsJSONTheDecoderRefuses(t *testing.T) {
	// ok false without an error: receipt.Decode refuses it, yet its lists
	// can still be judged, and that is BeBounded's question.
	raw := strings.Replace(string(fixture(t, "unbounded")), `"ok": true`, `"ok": false`, 1)
	if _, err := receipt.Decode([]byte(raw)); err == nil {
		t.Fatal("receipt.Decode accepts the broken receipt; this test needs one it refuses")
	}
	m := BeBounded()
	ok, err := m.Match(raw)
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	if msg := m.FailureMessage(nil); !strings.Contains(msg, "\n    - changed.records.added: 21 entries, over the bound of 20\n") {
		t.Errorf("message:\n%s", msg)
	}
	// JSON that is no receipt at all is still an error.
	if ok, err := BeBounded().Match(`[1, 2]`); err == nil || ok || !errors.Is(err, receipt.ErrInvalid) {
		t.Errorf("Match([1, 2]) = %v, %v; want false and receipt.ErrInvalid", ok, err)
	}
}
