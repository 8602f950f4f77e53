package hostlog

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/glassworks/glass/receipt"
)

func TestConfirmRequestsAreMaskedEverywhereTheValueAppears(t *testing.T) {
	req := receipt.ConfirmRequest{
		ExecutionID: "act_1", Action: "pay", Step: "pay-with-s3cret",
		Description: "Pay with card s3cret now",
		Args: map[string]any{
			"user": "ada", "pw": "s3cret", "note": "my pin is s3cret!",
			"s3cret-key": "value",
			"nested":     map[string]any{"again": "s3cret", "list": []any{"xs3cretx", "public", 3.0}},
		},
	}
	got, hid := MaskConfirmRequest(req, map[string]string{"pw": "s3cret", "empty": ""})
	if !hid {
		t.Error("hid = false, want true")
	}
	want := `map[[sensitive]-key:value nested:map[again:[sensitive] list:[x[sensitive]x public 3]] note:my pin is [sensitive]! pw:[sensitive] user:ada]`
	if s := fmt.Sprint(got.Args); s != want {
		t.Errorf("args = %s, want %s", s, want)
	}
	if got.Description != "Pay with card [sensitive] now" || got.Step != "pay-with-[sensitive]" {
		t.Errorf("description %q, step %q: the value is not masked", got.Description, got.Step)
	}
	// In another spelling: percent-encoded, as HTML references, as a number.
	spelt, hid := MaskConfirmRequest(receipt.ConfirmRequest{
		Description: "pay with s%33cret or &#115;3cret",
		Args:        map[string]any{"url": "https://x.test/?p=s3cr%65t", "pin": 4711.0},
	}, map[string]string{"pw": "s3cret", "pin": "4711"})
	if !hid || spelt.Description != "pay with [sensitive] or [sensitive]" || fmt.Sprint(spelt.Args) != "map[pin:[sensitive] url:https://x.test/?p=[sensitive]]" {
		t.Errorf("spellings: hid %v, %q, %s", hid, spelt.Description, fmt.Sprint(spelt.Args))
	}
	if _, hid := MaskConfirmRequest(receipt.ConfirmRequest{Action: "a"}, map[string]string{"pw": "x"}); hid {
		t.Error("a request without the value: hid = true")
	}
}

func TestTheLogIsBounded(t *testing.T) {
	var l Log
	big := strings.Repeat("x", 40<<10)
	for i := range MaxRecords + 3 {
		l.AddConfirmation(receipt.ConfirmationRecord{Request: receipt.ConfirmRequest{
			ExecutionID: strings.Repeat("e", 200), Description: big, Args: map[string]any{"a": big},
		}, Approved: true, Ticket: fmt.Sprint("tk_", i)})
		l.AddHandoff(receipt.HandoffRecord{Request: receipt.HandoffRequest{Instructions: big}})
	}
	if l.AddConfirmation(receipt.ConfirmationRecord{Approved: true, Ticket: "tk_late"}) {
		t.Error("a full log recorded one more confirmation")
	}
	if err := l.Verify("act_9", &receipt.Receipt{Confirmations: []receipt.Confirmation{{Action: "a", Approved: true, Ticket: "tk_late"}}}); err == nil {
		t.Error("a ticket the full log did not record verified")
	}
	if !l.ConfirmationsFull() || !l.HandoffsFull() {
		t.Error("a log of MaxRecords requests is not full")
	}
	recs := l.Confirmations()
	if len(recs) != MaxRecords || len(l.Handoffs()) != MaxRecords {
		t.Fatalf("kept %d confirmations and %d hand-offs, want %d of each", len(recs), len(l.Handoffs()), MaxRecords)
	}
	r := recs[0].Request
	if len(r.ExecutionID) > maxIDChars+len("…") || len(r.Description) > receipt.MaxTextChars+len("…") || r.Args["a"] != nil {
		t.Errorf("a record keeps the page's texts unbounded: id %d bytes, description %d, args %v", len(r.ExecutionID), len(r.Description), len(fmt.Sprint(r.Args)))
	}
}

func TestVerifyJudgesTicketsAgainstTheRecord(t *testing.T) {
	var l Log
	l.AddConfirmation(receipt.ConfirmationRecord{Request: receipt.ConfirmRequest{ExecutionID: "act_1", Action: "remove"}, Solicited: true, Approved: true, Ticket: "tk_1"})
	l.AddConfirmation(receipt.ConfirmationRecord{Request: receipt.ConfirmRequest{ExecutionID: "act_2", Action: "remove"}, Solicited: true, Approved: true, Ticket: "tk_2"})
	l.AddConfirmation(receipt.ConfirmationRecord{Request: receipt.ConfirmRequest{ExecutionID: "act_3", Action: "remove"}, Solicited: true})
	ok := &receipt.Receipt{Confirmations: []receipt.Confirmation{{Action: "remove", Approved: true, Ticket: "tk_1"}}}
	if err := l.Verify("act_1", ok); err != nil {
		t.Errorf("the receipt the host approved: %v", err)
	}
	for name, tc := range map[string]struct {
		exec string
		c    []receipt.Confirmation
		want string
	}{
		"no ticket":         {"act_1", []receipt.Confirmation{{Action: "remove", Approved: true}}, "approved without a host ticket"},
		"forged ticket":     {"act_1", []receipt.Confirmation{{Action: "remove", Approved: true, Ticket: "tk_x"}}, "was not issued by the host"},
		"another execution": {"act_1", []receipt.Confirmation{{Action: "remove", Approved: true, Ticket: "tk_2"}}, "was issued for remove of execution act_2"},
		"claimed twice":     {"act_1", []receipt.Confirmation{{Action: "remove", Approved: true, Ticket: "tk_1"}, {Action: "remove", Approved: true, Ticket: "tk_1"}}, "claimed twice"},
		"approval left out": {"act_1", nil, "the receipt does not report it"},
		"denial left out":   {"act_3", nil, "denied 1 confirmation(s) but the receipt reports 0"},
	} {
		err := l.Verify(tc.exec, &receipt.Receipt{Confirmations: tc.c})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
}

// TestCancelledDialogsAreBounded: each message is cut, and a page that
// opens dialog after dialog fills the record only up to MaxRecords.
func TestCancelledDialogsAreBounded(t *testing.T) {
	var l Log
	l.AddCancelled(strings.Repeat("é", MaxCancelledBytes))
	for range MaxRecords + 5 {
		l.AddCancelled("again?")
	}
	got := l.Cancelled()
	if len(got) != MaxRecords {
		t.Errorf("%d records, want %d", len(got), MaxRecords)
	}
	if len(got[0]) > MaxCancelledBytes+len("…") || !strings.HasSuffix(got[0], "…") || !utf8.ValidString(got[0]) {
		t.Errorf("first message (%d bytes) not cut to %d at a character boundary: %q", len(got[0]), MaxCancelledBytes, got[0])
	}
}
