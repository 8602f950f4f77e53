package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of the WebMCP rules (CONTRACT.md §6.4). They look at the page's
// WebMCP tools directly — the registered list, raw tool calls and their
// results — rather than through the harness's webmcp transport, which
// already folds, maps and unwraps. They are probed in every pass of a run
// (the bridge pass too, so a default run checks them) and made once per
// run: a run over both transports reports the same verdict twice.
func init() {
	checks["webmcp.tool-names"] = check{run: onceForWebMCP("webmcp.tool-names", checkToolNames)}
	checks["webmcp.folded-rows"] = check{run: onceForWebMCP("webmcp.folded-rows", checkWebMCPFoldedRows)}
	checks["webmcp.result"] = check{run: onceForWebMCP("webmcp.result", checkWebMCPResult)}
	checks["webmcp.agrees"] = check{run: onceForWebMCP("webmcp.agrees", checkWebMCPAgrees)}
}

// toolName is what WebMCP accepts as a tool name (CONTRACT.md §6.4).
var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// onceForWebMCP makes a WebMCP check once per run, whichever pass asks
// first.
func onceForWebMCP(rule string, run func(*probe) outcome) func(*probe) outcome {
	return func(p *probe) outcome {
		v, _ := p.s.memo("webmcp-rule|"+rule, func() (any, error) {
			// The probe's pages close with the probe that made them; this
			// one is the check's own.
			q := &probe{s: p.s, transport: glasstest.TransportWebMCP}
			defer q.close()
			return q.safely(run), nil
		})
		return v.(outcome)
	}
}

// toolsPage opens the page under test and lists its WebMCP tools; no tool
// at all makes the rule not probed.
func (p *probe) toolsPage(opts ...glasstest.Option) (*page, map[string]playwright.WebMCPTool, *outcome) {
	pg, err := p.open("", opts...)
	if err != nil {
		o := broken(err)
		return nil, nil, &o
	}
	list, err := pg.g.Tools()
	if err != nil {
		o := notProbed(fmt.Sprintf("the browser cannot list WebMCP tools (%s)", firstLine(err.Error())))
		return nil, nil, &o
	}
	if len(list) == 0 {
		o := notProbed(NoWebMCPTools)
		return nil, nil, &o
	}
	tools := make(map[string]playwright.WebMCPTool, len(list))
	for _, t := range list {
		tools[t.Name] = t
	}
	return pg, tools, nil
}

// schemaOf reads a tool's input schema as JSON.
func schemaOf(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// expectedTools names the tools a snapshot's actions call for: each id
// that is a tool name, and the tool each descriptor names.
func expectedTools(s *receipt.Snapshot) map[string]bool {
	want := map[string]bool{}
	for _, a := range s.Actions.Items {
		switch {
		case a.Tool != "":
			want[a.Tool] = true
		case toolName.MatchString(a.ID):
			want[a.ID] = true
		}
	}
	return want
}

// toolsProblem compares the registered tools with a snapshot: the same
// names, each declared action's description and params in its tool, and a
// folded tool's record enum (when it lists one) the records that have the
// action.
func toolsProblem(s *receipt.Snapshot, tools map[string]playwright.WebMCPTool) string {
	if s.Actions.Omitted > 0 {
		return "" // a bounded snapshot cannot say which tools are due
	}
	want := expectedTools(s)
	var names []string
	for n := range tools {
		names = append(names, n)
	}
	sort.Strings(names)
	if d := setDiff(sortedKeys(want), names); d != "" {
		return "the registered tools are not the declared actions': " + strings.Replace(strings.Replace(d, "added", "registered but not declared", 1), "removed", "declared but not registered", 1)
	}
	rows := map[string][]string{}
	for _, a := range s.Actions.Items {
		if a.Tool != "" && a.Record != "" {
			rows[a.Tool] = append(rows[a.Tool], a.Record)
			continue
		}
		if a.Tool != "" || !toolName.MatchString(a.ID) {
			continue
		}
		t := tools[a.ID]
		if desc := a.Description; t.Description != desc && !(len(desc) > 500 && strings.HasPrefix(desc, strings.TrimRight(t.Description, "…"))) {
			return fmt.Sprintf("the tool %s has the description %q, the action declares %q", a.ID, clip(t.Description, 80), clip(desc, 80))
		}
		if pr := paramsProblem(a, schemaOf(t.InputSchema)); pr != "" {
			return fmt.Sprintf("the tool %s: %s", a.ID, pr)
		}
	}
	for tool, records := range rows {
		props, _ := schemaOf(tools[tool].InputSchema)["properties"].(map[string]any)
		record, _ := props["record"].(map[string]any)
		enum, ok := record["enum"].([]any)
		if !ok {
			continue
		}
		var listed []string
		for _, e := range enum {
			listed = append(listed, fmt.Sprint(e))
		}
		sort.Strings(listed)
		sort.Strings(records)
		if d := setDiff(records, listed); d != "" {
			return fmt.Sprintf("the folded tool %s lists records in its enum that are not the rows declared now: %s", tool, d)
		}
	}
	return ""
}

// paramsProblem checks that a tool's input schema carries the action's
// params: every declared property and every required one.
func paramsProblem(a receipt.ActionInfo, in map[string]any) string {
	if in == nil {
		return "it has no input schema"
	}
	var params map[string]any
	if len(a.Params) > 0 {
		if err := json.Unmarshal(a.Params, &params); err != nil {
			return ""
		}
	}
	declared, _ := params["properties"].(map[string]any)
	got, _ := in["properties"].(map[string]any)
	for _, k := range sortedKeys(declared) {
		if _, ok := got[k]; !ok {
			return fmt.Sprintf("its input schema has no property %q, which the action's params declare", k)
		}
		if !reflect.DeepEqual(declared[k], got[k]) {
			return fmt.Sprintf("its input schema describes the property %q differently from the action's params", k)
		}
	}
	req, _ := params["required"].([]any)
	gotReq, _ := in["required"].([]any)
	for _, r := range req {
		if !slices.Contains(gotReq, r) {
			return fmt.Sprintf("its input schema does not require %v, which the action's params require", r)
		}
	}
	return ""
}

// toolsInStep waits (within the call bound) for the registered tools to
// match the page's snapshot, and returns the last disagreement.
func (pg *page) toolsInStep() (string, error) {
	deadline := time.Now().Add(pg.p.s.cfg.callTimeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		snap, err := pg.g.TrySnapshot()
		if err != nil {
			return "", err
		}
		list, err := pg.g.Tools()
		if err != nil {
			return "", err
		}
		tools := map[string]playwright.WebMCPTool{}
		for _, t := range list {
			tools[t.Name] = t
		}
		pr := toolsProblem(snap, tools)
		if pr == "" || time.Now().After(deadline) {
			return pr, nil
		}
		<-tick.C
	}
}

// checkToolNames: the registered tools are the declared actions' (names,
// descriptions, params) on a fresh page, and again after a call that
// changed which actions are declared.
func checkToolNames(p *probe) outcome {
	pg, _, o := p.toolsPage()
	if o != nil {
		return *o
	}
	pr, err := pg.toolsInStep()
	if err != nil {
		return broken(err)
	}
	if pr != "" {
		return failf("on a fresh page, %s", pr)
	}
	judged := []string{"a fresh page"}
	// A call that adds or removes declared actions: the tools must follow.
	var mover *exercised
	err = p.each(isWrite, func(e *exercised) bool {
		c := e.r.Result.Changed
		if e.r.Result.OK && c != nil && c.Actions != nil && len(c.Actions.Added)+len(c.Actions.Removed) > 0 {
			mover = e
		}
		return mover == nil
	})
	if err != nil {
		return broken(err)
	}
	if mover == nil {
		return pass().with(textEvidence("judged", judged...), textEvidence("not judged", "no call of the run changed which actions are declared, so keeping the tools in step was not probed"))
	}
	opts := []glasstest.Option{glasstest.Approve()}
	if mover.secret != "" {
		opts = append(opts, glasstest.Sensitive(sensitiveRef, mover.secret))
	}
	pg2, err := p.open("", opts...)
	if err != nil {
		return broken(err)
	}
	if r := pg2.g.Do(mover.action.ID, mover.args); !r.Result.OK {
		return notProbed(fmt.Sprintf("%s did not succeed again on a fresh page (%s)", mover.action.ID, got(r)))
	}
	pr, err = pg2.toolsInStep()
	if err != nil {
		return broken(err)
	}
	if pr != "" {
		return failf("after %s changed the declared actions, %s", mover.action.ID, pr)
	}
	judged = append(judged, "after "+mover.action.ID+" changed the declared actions")
	return pass().with(textEvidence("judged", judged...))
}

// rawTool is one tool call made the way a browser agent makes it, and
// what came back.
type rawTool struct {
	name   string
	input  map[string]any
	result any
	err    error
}

// callRaw calls a tool with input, unmodified, on pg; options, when
// given, travel in the reserved $glass member.
func (pg *page) callRaw(name string, input map[string]any) rawTool {
	v, err := pg.g.CallTool(name, input)
	return rawTool{name: name, input: input, result: v, err: err}
}

// resultProblem checks a raw tool result: the receipt as structuredContent
// and as the JSON text of a content item of type text, the two the same,
// and a receipt.
func resultProblem(v any) (*receipt.Receipt, string) {
	res, ok := plain(v).(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("the tool result is %T, want an object", v)
	}
	structured, ok := res["structuredContent"].(map[string]any)
	if !ok {
		return nil, "the tool result has no structuredContent object"
	}
	content, _ := res["content"].([]any)
	var texts []string
	for _, c := range content {
		if item, ok := c.(map[string]any); ok && item["type"] == "text" {
			if t, ok := item["text"].(string); ok {
				texts = append(texts, t)
			}
		}
	}
	if len(texts) == 0 {
		return nil, "the tool result has no content item of type text"
	}
	match := false
	for _, t := range texts {
		var fromText any
		if json.Unmarshal([]byte(t), &fromText) == nil && reflect.DeepEqual(fromText, any(structured)) {
			match = true
		}
	}
	if !match {
		return nil, fmt.Sprintf("no content item of type text carries the receipt of structuredContent as JSON text (text: %q)", clip(texts[0], 120))
	}
	b, _ := json.Marshal(structured)
	r, err := receipt.Decode(b)
	if err != nil {
		return nil, "structuredContent is not a receipt: " + firstLine(err.Error())
	}
	return r, ""
}

// checkWebMCPResult calls tools raw: a read with valid arguments (when the
// page has one) and a call every runtime refuses, and judges each result.
func checkWebMCPResult(p *probe) outcome {
	pg, tools, o := p.toolsPage(glasstest.Deny())
	if o != nil {
		return *o
	}
	var calls []rawTool
	plan, _ := p.exercisePlan()
	for _, pl := range plan {
		if isRead(pl.action) && pl.action.Tool == "" && pl.secret == "" {
			if _, ok := tools[pl.action.ID]; ok {
				calls = append(calls, pg.callRaw(pl.action.ID, pl.args))
				break
			}
		}
	}
	// A folded tool without its record, or a tool given a member its
	// params do not declare as the wrong type: refused either way.
	for _, a := range p.base().Actions.Items {
		if a.Tool != "" && a.Record != "" {
			calls = append(calls, pg.callRaw(a.Tool, map[string]any{}))
			break
		}
	}
	if len(calls) == 0 {
		names := sortedKeys(tools)
		calls = append(calls, pg.callRaw(names[0], map[string]any{}))
	}
	var judged []string
	for _, c := range calls {
		if c.err != nil {
			return failf("the tool call %s failed instead of returning a receipt: %s", c.name, firstLine(c.err.Error()))
		}
		r, pr := resultProblem(c.result)
		if pr != "" {
			b, _ := json.Marshal(c.result)
			return failf("the tool call %s: %s", c.name, pr).with(textEvidence("tool result", clip(string(b), maxEvidence)))
		}
		judged = append(judged, fmt.Sprintf("%s → %s", c.name, outcomeCode(r)))
	}
	return pass().with(textEvidence("tool calls judged", judged...))
}

// checkWebMCPFoldedRows: a folded tool requires a string record, and a raw
// call of it with the last row's record runs that row's action.
func checkWebMCPFoldedRows(p *probe) outcome {
	var row receipt.ActionInfo
	rows := 0
	for _, a := range p.base().Actions.Items {
		if a.Record == "" || a.Tool == "" {
			continue
		}
		if row.ID == "" || a.Tool == row.Tool {
			row = a
			rows++
		}
	}
	if rows == 0 {
		return notProbed("the page declares no per-row actions (ids of the form name@record)")
	}
	pg, tools, o := p.toolsPage(glasstest.Deny())
	if o != nil {
		return *o
	}
	t, ok := tools[row.Tool]
	if !ok {
		return failf("the snapshot names the folded tool %s for %s, but no such tool is registered", row.Tool, row.ID)
	}
	in := schemaOf(t.InputSchema)
	props, _ := in["properties"].(map[string]any)
	record, _ := props["record"].(map[string]any)
	req, _ := in["required"].([]any)
	if record == nil || record["type"] != "string" || !slices.Contains(req, any("record")) {
		b, _ := json.Marshal(t.InputSchema)
		return failf("the folded tool %s does not require a string record in its input schema", row.Tool).with(textEvidence("input schema", string(b)))
	}
	c := pg.callRaw(row.Tool, map[string]any{"record": row.Record})
	if c.err != nil {
		return failf("the tool call %s failed: %s", row.Tool, firstLine(c.err.Error()))
	}
	r, pr := resultProblem(c.result)
	if pr != "" {
		return failf("the tool call %s: %s (see webmcp.result)", row.Tool, pr)
	}
	if r.Result.Action.ID != row.ID {
		return failf("the tool call %s with record %q ran %q, want the declared action %s", row.Tool, row.Record, r.Result.Action.ID, row.ID).
			with(receiptEvidence("receipt", r))
	}
	return pass().with(textEvidence("folded call", fmt.Sprintf("%s {record: %q} → %s (%d rows)", row.Tool, row.Record, row.ID, rows)))
}

// agreementKinds are the refusals that both transports can express, each
// made over both.
var agreementKinds = []string{refMissing, refWrongType, refOutsideEnum, refDenied, refNoChannel, refStale, refUnavailable}

// checkWebMCPAgrees makes the same calls over the bridge and over WebMCP
// (the exercise's successful calls and the refusals both can express) and
// compares the receipts, apart from executionId, tickets and absolute
// revisions.
func checkWebMCPAgrees(p *probe) outcome {
	if _, _, o := p.toolsPage(); o != nil {
		return *o
	}
	bridge := &probe{s: p.s, transport: glasstest.TransportBridge}
	webmcp := &probe{s: p.s, transport: glasstest.TransportWebMCP}
	defer bridge.close()
	defer webmcp.close()
	var judged []string
	compare := func(what string, a, b *receipt.Receipt) *outcome {
		if d := receiptDifference(a, b); d != "" {
			o := failf("%s: the receipts over the bridge and over WebMCP differ: %s", what, d).
				with(receiptEvidence("over the bridge", a), receiptEvidence("over WebMCP", b))
			return &o
		}
		judged = append(judged, what+" → "+outcomeCode(a))
		return nil
	}
	plan, _ := p.exercisePlan()
	for _, pl := range plan {
		a, err := bridge.call(pl)
		if err != nil {
			return broken(err)
		}
		b, err := webmcp.call(pl)
		if err != nil {
			return broken(err)
		}
		if o := compare(pl.action.ID, a.r, b.r); o != nil {
			return *o
		}
	}
	for _, kind := range agreementKinds {
		rf := refusalByKind(kind)
		a, o, ok := bridge.refuse(rf)
		if !ok {
			if o.verdict == Fail {
				return o
			}
			continue
		}
		b, o, ok := webmcp.refuse(rf)
		if !ok {
			if o.verdict == Fail {
				return o
			}
			continue
		}
		if o := compare(a.call.describe, a.r, b.r); o != nil {
			return *o
		}
	}
	if len(judged) == 0 {
		return notProbed("no call could be made over both transports").with(p.planNotes()...)
	}
	return pass().with(textEvidence("calls compared", judged...))
}

// receiptDifference describes the first difference between two receipts,
// apart from executionId, tickets, resume handles and absolute revisions
// (the revision's step is compared): each call gets fresh ones.
func receiptDifference(a, b *receipt.Receipt) string {
	x, err1 := comparable(a)
	y, err2 := comparable(b)
	if err := errors.Join(err1, err2); err != nil {
		return err.Error()
	}
	return jsonDifference("", x, y)
}

func comparable(r *receipt.Receipt) (map[string]any, error) {
	b, err := receipt.CanonicalJSON(r)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "executionId")
	if rv, ok := m["revision"].(map[string]any); ok {
		before, _ := rv["before"].(float64)
		after, _ := rv["after"].(float64)
		m["revision"] = map[string]any{"step": after - before}
	}
	if cs, ok := m["confirmations"].([]any); ok {
		for _, c := range cs {
			if c, ok := c.(map[string]any); ok {
				if _, has := c["ticket"]; has {
					c["ticket"] = "(a ticket)"
				}
			}
		}
	}
	if res, ok := m["result"].(map[string]any); ok {
		if _, has := res["resume"]; has {
			res["resume"] = "(a resume handle)"
		}
		if e, ok := res["error"].(map[string]any); ok {
			// Absolute revisions of a stale-revision failure.
			for _, k := range []string{"expectedRevision", "currentRevision"} {
				if _, has := e[k]; has {
					e[k] = "(a revision)"
				}
			}
		}
	}
	return m, nil
}

// jsonDifference names the first path where two JSON values differ.
func jsonDifference(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is %s over the bridge, %s over WebMCP", pathOr(path), clip(jsonText(a), 80), clip(jsonText(b), 80))
		}
		for _, k := range sortedKeys(mergeKeys(x, y)) {
			if d := jsonDifference(path+"/"+k, x[k], y[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s is %s over the bridge, %s over WebMCP", pathOr(path), clip(jsonText(a), 80), clip(jsonText(b), 80))
		}
		for i := range x {
			if d := jsonDifference(fmt.Sprintf("%s/%d", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s is %s over the bridge, %s over WebMCP", pathOr(path), clip(jsonText(a), 80), clip(jsonText(b), 80))
	}
	return ""
}

func jsonText(v any) string {
	if v == nil {
		return "absent"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
