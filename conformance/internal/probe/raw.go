package probe

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Raw calls are calls the harness's Do cannot make: options it never
// passes (an executionId of the probe's choosing, an expectedRevision that
// is null or not an integer), or a call with no snapshot taken before it
// (Do over WebMCP reads one to find the tool). A raw call reaches the
// runtime the way the page's transport does — execute in the page over
// the bridge, the action's tool with the options in $glass over WebMCP —
// and its receipt, decoded strictly, is recorded in the run as the
// runtime's.

// ErrNoTool is returned by Raw over WebMCP for an action that has no
// tool the probe can call.
var ErrNoTool = errors.New("no WebMCP tool to call")

// Raw calls id with args (a JSON value, sent as its text over the bridge;
// or text, sent as it is, over the bridge only) and the options object as
// it is. tools maps the action to its
// WebMCP tool: a snapshot's descriptors, or nil for the run's first
// snapshot.
func (pg *Page) Raw(id string, args any, options map[string]any, tools *receipt.Snapshot) (*receipt.Receipt, error) {
	if args == nil {
		args = map[string]any{}
	}
	var text string
	switch pg.p.Transport {
	case glasstest.TransportWebMCP:
		if tools == nil {
			tools = pg.p.Base()
		}
		obj, isObject := judge.Plain(args).(map[string]any)
		if !isObject {
			return nil, fmt.Errorf("%w: a tool input is a JSON object, not %s", ErrNoTool, judge.JSONText(args))
		}
		name, input, ok := toolInput(tools, id, obj)
		if !ok {
			return nil, fmt.Errorf("%w for %s", ErrNoTool, id)
		}
		input[glasstest.GlassInputMember] = options
		v, err := pg.Harness.CallToolWithin(pg.p.callBound(id), name, judge.Plain(input).(map[string]any))
		if err != nil {
			return nil, fmt.Errorf("call the tool %s: %w", name, pg.CallErr(id, err))
		}
		res, _ := judge.Plain(v).(map[string]any)
		b, err := json.Marshal(res["structuredContent"])
		if err != nil {
			return nil, err
		}
		text = string(b)
	default:
		argsText, isText := args.(string)
		if !isText {
			b, _ := json.Marshal(args)
			argsText = string(b)
		}
		v, err := pg.Harness.EvaluateWithin(pg.p.callBound(id), pagewatch.RawExecute, []any{id, argsText, judge.Plain(options)})
		if err != nil {
			return nil, fmt.Errorf("execute %s: %w", id, pg.CallErr(id, err))
		}
		text, _ = v.(string)
	}
	return pg.recordAnswer(id, id+" (raw)", text)
}

// recordAnswer decodes text, the runtime's answer to a raw call of id,
// strictly and records the receipt in the run as what.
func (pg *Page) recordAnswer(id, what, text string) (*receipt.Receipt, error) {
	r, err := receipt.Decode([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("the answer to %s is not a receipt: %w", id, err)
	}
	a, declared := pg.p.Base().Action(id)
	pg.p.s.record(Seen{Receipt: r, Action: a, Declared: declared, Transport: pg.p.Transport, What: what, ByRuntime: true, Page: pg.n, Tickets: pg.tickets()})
	return r, nil
}

// EmptyArgsForms are the argsJSON values that mean {} (CONTRACT.md §6.1),
// as RawEmpty names them: the empty string, null and undefined.
var EmptyArgsForms = []string{"", "null", "undefined"}

// RawEmpty calls id through the runtime's global over the bridge with
// argsJSON the JavaScript value form names (one of EmptyArgsForms: "" the
// empty string, "null" null, "undefined" undefined), with no options, and
// records the receipt in the run.
func (pg *Page) RawEmpty(id, form string) (*receipt.Receipt, error) {
	v, err := pg.Harness.EvaluateWithin(pg.p.callBound(id), pagewatch.EmptyExecute, []any{id, form})
	if err != nil {
		return nil, fmt.Errorf("execute %s: %w", id, pg.CallErr(id, err))
	}
	text, _ := v.(string)
	return pg.recordAnswer(id, id+" (raw, no arguments)", text)
}

// AtOnce is how many calls RawAtOnce starts together.
const AtOnce = 16

// RawAtOnce calls id AtOnce times at once through the runtime's global
// (every call starts before any answers), with args as JSON text and the
// options object as it is, and records the receipts in the run: calls a
// few of which start in the same millisecond, as an agent that runs
// tools in parallel makes them.
func (pg *Page) RawAtOnce(id string, args any, options map[string]any) ([]*receipt.Receipt, error) {
	b, _ := json.Marshal(args)
	v, err := pg.Harness.EvaluateWithin(pg.p.callBound(id), pagewatch.ConcurrentExecute, []any{id, string(b), judge.Plain(options), AtOnce})
	if err != nil {
		return nil, fmt.Errorf("execute %s %d times at once: %w", id, AtOnce, pg.CallErr(id, err))
	}
	texts, _ := v.([]any)
	if len(texts) != AtOnce {
		return nil, fmt.Errorf("execute %s %d times at once: the page answered %d receipts", id, AtOnce, len(texts))
	}
	var out []*receipt.Receipt
	for i, t := range texts {
		text, _ := t.(string)
		r, err := pg.recordAnswer(id, fmt.Sprintf("%s (call %d of %d at once, raw)", id, i+1, AtOnce), text)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// toolInput names the WebMCP tool that runs id, with the input that makes
// it run id: a row action's folded tool with its record.
func toolInput(s *receipt.Snapshot, id string, args map[string]any) (string, map[string]any, bool) {
	in := make(map[string]any, len(args)+1)
	for k, v := range args {
		in[k] = v
	}
	if a, ok := s.Action(id); ok {
		if a.Record != "" && a.Tool != "" {
			in["record"] = a.Record
			return a.Tool, in, true
		}
		if a.Tool != "" {
			return a.Tool, in, true
		}
		return a.ID, in, true
	}
	// An id no longer declared: the folded tool of its rows, with the
	// record after "@", when the snapshot knows the tool.
	name, record, ok := strings.Cut(id, "@")
	if !ok || name == "" || record == "" {
		return "", nil, false
	}
	for _, a := range s.Actions.Items {
		if a.Tool != "" && a.Record != "" && strings.HasPrefix(a.ID, name+"@") {
			in["record"] = record
			return a.Tool, in, true
		}
	}
	return "", nil, false
}
