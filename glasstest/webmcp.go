package glasstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// GlassInputMember is the reserved member of a WebMCP tool input that
// carries the call options (executionId, expectedRevision, secrets,
// expectTimeoutMs, handoffTimeoutMs, retry; CONTRACT.md §6.4). The runtime
// removes it before it parses the arguments; tool input schemas do not
// list it.
const GlassInputMember = "$glass"

// doWebMCP calls the action as a WebMCP tool through Playwright's
// WebMCP().CallTool, the way a browser agent would: a row action
// "remove@t9" is the folded tool "remove" with {"record": "t9"}, any other
// action the tool its snapshot names. The receipt comes back in the tool
// result, as structuredContent and as JSON text in content[0].text; the
// two must agree.
func (p *Page) doWebMCP(id, argsJSON, execID string, options map[string]any, s settings, navBefore int) (*receipt.Receipt, bool) {
	snap, err := p.trySnapshot(s.timeout)
	if err != nil {
		return harnessReceipt(id, execID, receipt.CodeTransportFailed, "map the action to a WebMCP tool: "+firstLine(err.Error())), false
	}
	// The harness answers for the page only where a WebMCP client would
	// stop before calling a tool; it then reports the revision it saw.
	before := func(code receipt.Code, msg string) *receipt.Receipt {
		r := harnessReceipt(id, execID, code, msg)
		r.Revision = &receipt.Revision{Before: snap.Revision, After: snap.Revision}
		return r
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil || args == nil {
		// An MCP client parses the model's arguments before calling a
		// tool, and a tool input is always an object.
		msg := "a WebMCP tool input must be a JSON object"
		if err != nil {
			msg = "arguments are not valid JSON: " + firstLine(err.Error())
		}
		return before(receipt.CodeInvalidArgs, msg), false
	}
	name, ok := toolFor(snap, id, args)
	if !ok {
		r := before(receipt.CodeActionNotFound, fmt.Sprintf("no declared action %q", id))
		r.Result.Error.Available = availableIDs(snap)
		return r, false
	}
	args[GlassInputMember] = options
	v, err := p.callTool(s.timeout, name, args)
	if err != nil {
		if isToolMissing(err) {
			return harnessReceipt(id, execID, receipt.CodeTransportFailed, fmt.Sprintf("the page declares %q but registered no WebMCP tool %q", id, name)), false
		}
		r, _ := p.toReceipt(id, execID, nil, err, navBefore)
		if r.Code() == receipt.CodeTransportFailed {
			r.Result.Error.Message = clip(firstLine(err.Error()), maxPageText)
		}
		return r, false
	}
	text, err := receiptText(v)
	if err != nil {
		return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, "the WebMCP tool result: "+clip(err.Error(), maxPageText)), false
	}
	return p.toReceipt(id, execID, text, nil, navBefore)
}

// toolFor names the tool for action id, adding the record argument of a
// folded row action to args. An id that is no declared action but is a
// tool name (a folded call made by the caller) is called as it is.
func toolFor(snap *receipt.Snapshot, id string, args map[string]any) (string, bool) {
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

// receiptText takes the receipt out of a tool result: structuredContent
// and the JSON text of content[0] must both be there and say the same.
func receiptText(v any) (string, error) {
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
		return "", fmt.Errorf("content[0].text is not JSON: %s", firstLine(err.Error()))
	}
	if !reflect.DeepEqual(normalizeJSON(structured), fromText) {
		return "", errors.New("structuredContent and content[0].text carry different receipts")
	}
	b, err := json.Marshal(structured)
	if err != nil {
		return "", fmt.Errorf("structuredContent: %w", err)
	}
	return string(b), nil
}

// normalizeJSON gives a value decoded by playwright-go the types
// encoding/json would give it (integers arrive as int), so the two forms
// of the receipt compare equal.
func normalizeJSON(v any) any {
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

// isToolMissing reports whether err says the tool is not registered.
func isToolMissing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "No WebMCP tool named")
}
