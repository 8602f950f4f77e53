package glasstest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/glassworks/glass/internal/pagejs"
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
		return harnessReceipt(id, execID, receipt.CodeTransportFailed, "map the action to a WebMCP tool: "+pagejs.FirstLine(err.Error())), false
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
			msg = "arguments are not valid JSON: " + pagejs.FirstLine(err.Error())
		}
		return before(receipt.CodeInvalidArgs, msg), false
	}
	name, ok := receipt.ToolFor(snap, id, args)
	if !ok {
		r := before(receipt.CodeActionNotFound, fmt.Sprintf("no declared action %q", id))
		r.Result.Error.Available = snap.AvailableIDs()
		return r, false
	}
	args[GlassInputMember] = options
	v, err := p.callTool(s.callBound(), name, args)
	if err != nil {
		if isToolMissing(err) {
			return harnessReceipt(id, execID, receipt.CodeTransportFailed, fmt.Sprintf("the page declares %q but registered no WebMCP tool %q", id, name)), false
		}
		r, _ := p.toReceipt(id, execID, nil, err, navBefore)
		if r.Code() == receipt.CodeTransportFailed {
			r.Result.Error.Message = receipt.Clip(pagejs.FirstLine(err.Error()), maxPageText)
		}
		return r, false
	}
	text, err := receipt.ToolResultText(v)
	if err != nil {
		return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, "the WebMCP tool result: "+receipt.Clip(err.Error(), maxPageText)), false
	}
	return p.toReceipt(id, execID, text, nil, navBefore)
}

// isToolMissing reports whether err says the tool is not registered.
func isToolMissing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "No WebMCP tool named")
}
