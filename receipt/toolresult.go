package receipt

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ToolFor names the WebMCP tool that runs action id on a page whose
// snapshot is snap, adding the record argument of a folded row action to
// args. An id that is no declared action but is a tool name (a folded call
// made by the caller) is called as it is.
func ToolFor(snap *Snapshot, id string, args map[string]any) (string, bool) {
	if a, ok := snap.Action(id); ok {
		name := a.ID
		if a.Tool != "" {
			name = a.Tool
		}
		if a.Record != "" {
			args["record"] = a.Record
		}
		return name, true
	}
	for _, a := range snap.Actions.Items {
		if a.Tool == id {
			return id, true
		}
	}
	return "", false
}

// ToolResultText takes the receipt out of a WebMCP tool result, as
// playwright-go decoded it, as JSON text for DecodeAnswer:
// structuredContent and the JSON text of content[0] must both be there and
// say the same, and the text is at most MaxReceiptBytes.
func ToolResultText(v any) (string, error) {
	res, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Errorf("want an object, got %T", v)
	}
	structured, hasStructured := res["structuredContent"]
	var text string
	if content, ok := res["content"].([]any); ok && len(content) > 0 {
		if first, ok := content[0].(map[string]any); ok && first["type"] == "text" {
			text, _ = first["text"].(string)
		}
	}
	if !hasStructured || structured == nil {
		return "", errors.New("no structuredContent")
	}
	if text == "" {
		return "", errors.New("no JSON text in content[0]")
	}
	if len(text) > MaxReceiptBytes {
		return "", fmt.Errorf("the receipt text is %d bytes, over the %d-byte bound", len(text), MaxReceiptBytes)
	}
	var fromText any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		return "", fmt.Errorf("content[0].text is not JSON: %s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
	if !reflect.DeepEqual(PlainJSON(structured), fromText) {
		return "", errors.New("structuredContent and content[0].text carry different receipts")
	}
	b, err := json.Marshal(structured)
	if err != nil {
		return "", fmt.Errorf("structuredContent: %w", err)
	}
	return string(b), nil
}

// PlainJSON is v after a JSON round trip: the types encoding/json decodes
// to (map[string]any, []any, float64), or v itself when it is not JSON
// data. The harness gives Playwright its arguments this way (it cannot
// serialise a map[string]string), and compares a tool result decoded by
// playwright-go (integers arrive as int) with its JSON text.
func PlainJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}
