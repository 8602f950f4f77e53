package receipt

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestToolResultTextWantsBothFormsAgreeing(t *testing.T) {
	const r = `{"protocol":"glass.page/v1","executionId":"act_1","result":{"ok":true,"count":2}}`
	var structured any
	if err := json.Unmarshal([]byte(r), &structured); err != nil {
		t.Fatal(err)
	}
	// playwright-go gives integers as int; the text decodes them as float64.
	structured.(map[string]any)["result"].(map[string]any)["count"] = 2
	text := func(s string) []any { return []any{map[string]any{"type": "text", "text": s}} }
	got, err := ToolResultText(map[string]any{"structuredContent": structured, "content": text(r)})
	if err != nil {
		t.Fatalf("a well-formed tool result: %v", err)
	}
	if _, err := DecodeAnswer([]byte(got)); err != nil && !strings.Contains(err.Error(), "invalid receipt") {
		t.Errorf("the text is no answer DecodeAnswer reads: %v", err)
	}
	for name, tc := range map[string]struct {
		v    any
		want string
	}{
		"not an object":          {"text", "want an object, got string"},
		"no structuredContent":   {map[string]any{"content": text(r)}, "no structuredContent"},
		"null structuredContent": {map[string]any{"structuredContent": nil, "content": text(r)}, "no structuredContent"},
		"no text":                {map[string]any{"structuredContent": structured}, "no JSON text in content[0]"},
		"text not JSON":          {map[string]any{"structuredContent": structured, "content": text("{oops")}, "content[0].text is not JSON"},
		"forms disagree":         {map[string]any{"structuredContent": map[string]any{"result": map[string]any{"ok": false}}, "content": text(r)}, "carry different receipts"},
		"text over the bound":    {map[string]any{"structuredContent": structured, "content": text(strings.Repeat(" ", MaxReceiptBytes+1))}, "over the 4194304-byte bound"},
	} {
		if _, err := ToolResultText(tc.v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
}

func TestToolForFoldsARowAction(t *testing.T) {
	snap := &Snapshot{}
	snap.Actions.Items = []ActionInfo{{ID: "add"}, {ID: "remove@t1", Tool: "remove", Record: "t1"}}
	args := map[string]any{}
	if name, ok := ToolFor(snap, "remove@t1", args); !ok || name != "remove" || args["record"] != "t1" {
		t.Errorf("remove@t1: %q %v %v", name, ok, args)
	}
	if name, ok := ToolFor(snap, "remove", map[string]any{}); !ok || name != "remove" {
		t.Errorf("the folded tool by name: %q %v", name, ok)
	}
	if _, ok := ToolFor(snap, "nope", map[string]any{}); ok {
		t.Error("an undeclared id names a tool")
	}
}
