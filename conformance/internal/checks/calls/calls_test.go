package calls

import (
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

func TestBoundProblems(t *testing.T) {
	ids := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "r"
		}
		return out
	}
	ok := func(c *receipt.Changed) *receipt.Receipt {
		return &receipt.Receipt{Result: receipt.Result{OK: true, Changed: c}}
	}
	cases := []struct {
		name string
		r    *receipt.Receipt
		want string
	}{
		{"within bounds", ok(&receipt.Changed{Records: &receipt.RecordChanges{Removed: ids(20), Omitted: receipt.RecordOmitted{Removed: 10}, Total: &receipt.Total{From: 30, To: 0}}}), ""},
		{"over the bound", ok(&receipt.Changed{Actions: &receipt.ActionChanges{Added: ids(21)}}), "changed.actions.added lists 21 entries, over the bound of 20"},
		{"omitted not counted", ok(&receipt.Changed{Records: &receipt.RecordChanges{Removed: ids(20), Total: &receipt.Total{From: 30, To: 0}}}), "make -20"},
		{"omitting with room", ok(&receipt.Changed{State: &receipt.StateChanges{Changed: ids(2), Omitted: 1}}), "changed.state.changed omits 1 entries while listing only 2"},
		{"negative", ok(&receipt.Changed{Feedback: &receipt.FeedbackChange{Omitted: receipt.FeedbackOmitted{Added: -1}}}), "negative omission count"},
		{"changed the decoder refuses", &receipt.Receipt{Result: receipt.Result{Error: &receipt.Error{Code: receipt.CodeReceiptInvalid,
			Message: "invalid receipt: $.result.changed.records.removed: want at most 20 entries"}}}, "whose changed the decoder refuses"},
		{"invalid elsewhere", &receipt.Receipt{Result: receipt.Result{Error: &receipt.Error{Code: receipt.CodeReceiptInvalid, Message: "invalid receipt: $.phase: present on a receipt that succeeded"}}}, ""},
	}
	for _, tc := range cases {
		got := boundProblem(tc.r)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRenderedContentDropsLiveRegions(t *testing.T) {
	// A reading of pagewatch.Rendered.
	shown := `- body
  - h1
    - text: Todo
  - ul [aria-label="Tasks"]
    - li
      - text: Buy groceries
      - button [aria-label="Delete Buy groceries"]
  - status
    - text: Deleted “Weekly report”
  - div [aria-live="polite"]
    - text: Deleted “Monthly report”
  - div [aria-live="off"]
    - text: quiet
  - p
    - text: after`
	got := renderedContent(shown)
	if strings.Contains(got, "Weekly report") || strings.Contains(got, "Monthly report") || !strings.Contains(got, "Buy groceries") ||
		!strings.Contains(got, "text: quiet") || !strings.Contains(got, "text: after") {
		t.Errorf("renderedContent = %q", got)
	}
	rec := receipt.Record{ID: "t1", Fields: map[string]any{"title": "Buy groceries", "tag": "home", "done": false}}
	if v, n := telltale(rec, "Buy groceries home home"); v != "Buy groceries" || n != 1 {
		t.Errorf("telltale = %q %d", v, n)
	}
	if v, _ := telltale(rec, "nothing here"); v != "" {
		t.Errorf("telltale found %q in a page without the record", v)
	}
}

func TestFailureAuditJudgesEachFailureOnceAsItComes(t *testing.T) {
	p := probe.Detached(nil, probe.Config{}).Probe(glasstest.TransportBridge)
	failed := func(code receipt.Code, msg string) probe.Seen {
		return probe.Seen{Receipt: &receipt.Receipt{Result: receipt.Result{Error: &receipt.Error{Code: code, Message: msg}}},
			Transport: glasstest.TransportBridge, ByRuntime: true, What: msg}
	}
	var judged []string
	n := 0
	a := &receiptScan{p: p, judge: failuresOnly(func(r *receipt.Receipt) string {
		judged = append(judged, r.Result.Error.Message)
		if strings.HasPrefix(r.Result.Error.Message, "bad") {
			return "refused"
		}
		return ""
	}, &n)}
	p.Record(failed(receipt.CodeInvalidParams, "one"))
	p.Record(probe.Seen{Receipt: &receipt.Receipt{Result: receipt.Result{OK: true}}, Transport: glasstest.TransportBridge, ByRuntime: true})
	harness := failed(receipt.CodeExecutionFailed, "the harness's own")
	harness.ByRuntime = false
	p.Record(harness)
	if a.next() {
		t.Fatal("refused a run whose failures are all fine")
	}
	p.Record(failed(receipt.CodeInvalidParams, "two"))
	p.Record(failed(receipt.CodeInvalidParams, "bad three"))
	p.Record(failed(receipt.CodeInvalidParams, "four"))
	if !a.next() || a.bad == nil || !strings.Contains(a.bad.Message, "bad three: refused") {
		t.Fatalf("want the audit stopped at the third failure, got %+v", a.bad)
	}
	if !a.next() {
		t.Error("an audit that refused a failure judged again")
	}
	if want := []string{"one", "two", "bad three"}; !slices.Equal(judged, want) || n != 3 {
		t.Errorf("judged %q (%d), want %q", judged, n, want)
	}
}

func TestRepeatedAndDroppedCountCopies(t *testing.T) {
	saved, gone := receipt.Feedback{Kind: "info", Text: "Saved"}, receipt.Feedback{Kind: "info", Text: "Gone"}
	for _, c := range []struct {
		before, after     []receipt.Feedback
		repeated, dropped bool
	}{
		{nil, []receipt.Feedback{saved}, false, false},
		{[]receipt.Feedback{saved}, []receipt.Feedback{saved}, false, false},
		{[]receipt.Feedback{saved}, []receipt.Feedback{saved, saved}, true, false},
		{[]receipt.Feedback{saved}, []receipt.Feedback{gone, saved}, false, false},
		{[]receipt.Feedback{gone, saved}, []receipt.Feedback{saved, saved}, true, true},
		{[]receipt.Feedback{saved, saved}, []receipt.Feedback{saved, gone}, false, true},
		{[]receipt.Feedback{gone}, []receipt.Feedback{saved, saved}, false, true},
	} {
		if got := repeated(c.before, c.after); got != c.repeated {
			t.Errorf("repeated(%v, %v) = %t, want %t", c.before, c.after, got, c.repeated)
		}
		if got := dropped(c.before, c.after); got != c.dropped {
			t.Errorf("dropped(%v, %v) = %t, want %t", c.before, c.after, got, c.dropped)
		}
	}
}

// TestStackFrameFindsAFrameOfEveryBrowsersTrace: failure.bounded refuses
// a failure text that carries a frame of a JavaScript stack trace, in
// V8's, Firefox's and an anonymous script's spelling, and lets ordinary
// failure texts that name an address or a number pass.
func TestStackFrameFindsAFrameOfEveryBrowsersTrace(t *testing.T) {
	for _, text := range []string{
		"the handler threw: Error: lost the connection\n    at HTMLButtonElement.remove (http://127.0.0.1:43117/app.js:148:11)",
		"the handler threw: remove@https://shop.example/static/app.js:12:7",
		"the handler threw: TypeError: x is null\n    at eval (<anonymous>:3:9)",
		"the handler threw: at Object.run (webpack:///src/todo.ts:40:3)",
		"the handler threw: Error: boom\n    at HTMLButtonElement.<anonymous> (http://127.0.0.1:43117/:104:24)",
	} {
		if stackFrame.FindString(text) == "" {
			t.Errorf("no stack frame found in %q", text)
		}
	}
	for _, text := range []string{
		"the handler threw: could not reach http://127.0.0.1:8080/api",
		"the handler threw: lost the connection after sending the delete",
		"want one of [\"low\",\"normal\",\"high\"]",
		"the target is hidden: 3 of 12 rows shown at 10:30:15",
		"could not load https://api.example/slots?start=2026-12-07T10:30:00Z",
		"the slot is taken at 2026-12-07 (10:30:00)",
		"no stock at Lisbon (since 09:15:00)",
		"the server at http://127.0.0.1:8080 answered 503 at 10:30:00",
	} {
		if f := stackFrame.FindString(text); f != "" {
			t.Errorf("%q taken as a stack frame (%q)", text, f)
		}
	}
}
