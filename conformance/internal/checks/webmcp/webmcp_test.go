package webmcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/receipt"
)

func runtimeReceipt(t *testing.T, name string) (*receipt.Receipt, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "receipt", "testdata", "runtime", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := receipt.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return r, b
}

func TestResultProblemWantsTheReceiptTwice(t *testing.T) {
	_, b := runtimeReceipt(t, "remove-t9-approved.receipt.json")
	var structured any
	if err := json.Unmarshal(b, &structured); err != nil {
		t.Fatal(err)
	}
	result := func(text string, withStructured bool) any {
		m := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
		if withStructured {
			m["structuredContent"] = structured
		}
		return m
	}
	if r, pr := resultProblem(result(string(b), true)); pr != "" || r == nil || r.Result.Action.ID != "remove@t9" {
		t.Errorf("a result with the receipt twice: problem %q", pr)
	}
	for name, c := range map[string]struct {
		v    any
		want string
	}{
		"no structuredContent":    {result(string(b), false), "no structuredContent"},
		"text that is no receipt": {result("done", true), "no content item of type text carries the receipt"},
		"another receipt as text": {result(strings.Replace(string(b), "remove@t9", "remove@t8", 1), true), "no content item of type text carries the receipt"},
		"no text item":            {map[string]any{"structuredContent": structured, "content": []any{}}, "no content item of type text"},
		"not an object":           {"a string", "want an object"},
	} {
		if _, pr := resultProblem(c.v); !strings.Contains(pr, c.want) {
			t.Errorf("%s: problem %q, want it to say %q", name, pr, c.want)
		}
	}
}

func TestReceiptDifferenceIgnoresWhatTransportsMayDiffer(t *testing.T) {
	a, _ := runtimeReceipt(t, "remove-t9-approved.receipt.json")
	b, _ := runtimeReceipt(t, "remove-t9-approved.receipt.json")
	b.ExecutionID = "act_other"
	b.Revision = &receipt.Revision{Before: a.Revision.Before + 7, After: a.Revision.After + 7}
	for i := range b.Confirmations {
		b.Confirmations[i].Ticket = "tk_other"
	}
	if d := receiptDifference(a, b, nil); d != "" {
		t.Errorf("receipts that differ only in executionId, tickets and absolute revisions: %s", d)
	}
	b.Revision.After++
	if d := receiptDifference(a, b, nil); !strings.Contains(d, "/revision/step") {
		t.Errorf("a different revision step: %q", d)
	}
	c, _ := runtimeReceipt(t, "remove-t9-denied.receipt.json")
	if d := receiptDifference(a, c, nil); d == "" {
		t.Error("an approved and a denied receipt compare equal")
	}

	// The same failed flow over each transport: each call issues its own
	// resume handle.
	bridge, _ := runtimeReceipt(t, "rename-step-failed-bridge.receipt.json")
	webmcp, _ := runtimeReceipt(t, "rename-step-failed-webmcp.receipt.json")
	if bridge.Result.Resume == webmcp.Result.Resume || bridge.Result.Resume == "" {
		t.Fatalf("want two different resume handles, got %q and %q", bridge.Result.Resume, webmcp.Result.Resume)
	}
	if d := receiptDifference(bridge, webmcp, nil); d != "" {
		t.Errorf("one failed flow over both transports: %s", d)
	}
	webmcp.Result.Resume = ""
	if d := receiptDifference(bridge, webmcp, nil); !strings.Contains(d, "/result/resume") {
		t.Errorf("a failed flow that offers no resume handle over WebMCP: %q", d)
	}
}

func TestToolsProblemComparesToolsWithTheSnapshot(t *testing.T) {
	snap := &receipt.Snapshot{}
	snap.Actions.Items = []receipt.ActionInfo{
		{ID: "add", Description: "Add a task", Params: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
		{ID: "remove@t1", Description: "Delete", Tool: "remove", Record: "t1"},
		{ID: "remove@t2", Description: "Delete", Tool: "remove", Record: "t2"},
		{ID: "sign in", Description: "Sign in", Tool: "sign_in"},
	}
	tools := func(addSchema any, enum ...any) map[string]playwright.WebMCPTool {
		return map[string]playwright.WebMCPTool{
			"add":     {Name: "add", Description: "Add a task", InputSchema: addSchema},
			"remove":  {Name: "remove", Description: "Delete", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"record": map[string]any{"type": "string", "enum": enum}}, "required": []any{"record"}}},
			"sign_in": {Name: "sign_in", Description: "Sign in", InputSchema: map[string]any{"type": "object"}},
		}
	}
	good := map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}}, "required": []any{"title"}}
	if pr := toolsProblem(snap, tools(good, "t1", "t2")); pr != "" {
		t.Errorf("tools in step: %s", pr)
	}
	if pr := toolsProblem(snap, tools(good, "t1", "t2", "t3")); !strings.Contains(pr, "enum") {
		t.Errorf("a stale record enum: %q", pr)
	}
	if pr := toolsProblem(snap, tools(map[string]any{"type": "object"}, "t1", "t2")); !strings.Contains(pr, `no property "title"`) {
		t.Errorf("params left out of the input schema: %q", pr)
	}
	extra := tools(good, "t1", "t2")
	extra["gone"] = playwright.WebMCPTool{Name: "gone"}
	if pr := toolsProblem(snap, extra); !strings.Contains(pr, "registered but not declared gone") {
		t.Errorf("a tool of no declared action: %q", pr)
	}
	missing := tools(good, "t1", "t2")
	delete(missing, "sign_in")
	if pr := toolsProblem(snap, missing); !strings.Contains(pr, "declared but not registered sign_in") {
		t.Errorf("a declared action with no tool: %q", pr)
	}
}

// TestWhatDiffersBetweenTwoCallsOverOneTransportIsThePagesOwn: a value
// that differs between two calls over the same transport (an order
// number the page's server draws for each call, an outside adopter's
// false FAIL) is left out of the comparison of the transports; any
// other difference still counts.
func TestWhatDiffersBetweenTwoCallsOverOneTransportIsThePagesOwn(t *testing.T) {
	a, _ := runtimeReceipt(t, "remove-t9-approved.receipt.json")
	again, _ := runtimeReceipt(t, "remove-t9-approved.receipt.json")
	again.Result.Action.Description = "Placed order o-828dc8"
	own := map[string]bool{}
	receiptDifferences(a, again, own)
	if !own["/result/action/description"] || len(own) != 1 {
		t.Fatalf("the paths that differ between two calls: %v, want /result/action/description", own)
	}
	b, _ := runtimeReceipt(t, "remove-t9-approved.receipt.json")
	b.Result.Action.Description = "Placed order o-76586d"
	if d := receiptDifference(a, b, own); d != "" {
		t.Errorf("a difference at a path of the page's own counted: %s", d)
	}
	b.Revision = &receipt.Revision{Before: a.Revision.Before, After: a.Revision.After + 1}
	if d := receiptDifference(a, b, own); !strings.Contains(d, "/revision/step") {
		t.Errorf("a difference elsewhere did not count: %q", d)
	}
}
