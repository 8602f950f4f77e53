package webmcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// toolName is what WebMCP accepts as a tool name (CONTRACT.md §6.4).
var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Once makes a WebMCP check once per run, whichever pass asks
// first.
func Once(rule string, run func(*probe.Probe) probe.Outcome) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		v, _ := p.Memo("webmcp-rule|"+rule, func() (any, error) {
			// The probe's pages close with the probe that made them; this
			// one is the check's own.
			q := p.Sibling(glasstest.TransportWebMCP)
			defer q.Close()
			return q.Safely(run), nil
		})
		return v.(probe.Outcome)
	}
}

// toolsPage opens the page under test and lists its WebMCP tools; no tool
// at all makes the rule not probed.
func toolsPage(p *probe.Probe, opts ...glasstest.PageOption) (*probe.Page, map[string]playwright.WebMCPTool, *probe.Outcome) {
	pg, err := p.Open("", opts...)
	if err != nil {
		o := probe.Broken(err)
		return nil, nil, &o
	}
	list, err := pg.Harness.Tools()
	if err != nil {
		o := probe.NotProbed(fmt.Sprintf("the browser cannot list WebMCP tools (%s)", probe.FirstLine(err.Error())))
		return nil, nil, &o
	}
	if len(list) == 0 {
		o := probe.NotProbed(probe.NoWebMCPTools)
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
// that is a tool name, and the tool each descriptor names; a step-only
// action is no tool (CONTRACT.md §6.4).
func expectedTools(s *receipt.Snapshot) map[string]bool {
	want := map[string]bool{}
	for _, a := range s.Actions.Items {
		switch {
		case a.StepOnly:
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
	slices.Sort(names)
	if d := judge.SetDiff(slices.Sorted(maps.Keys(want)), names); d != "" {
		return "the registered tools are not the declared actions': " + strings.Replace(strings.Replace(d, "added", "registered but not declared", 1), "removed", "declared but not registered", 1)
	}
	rows := map[string][]string{}
	for _, a := range s.Actions.Items {
		if a.StepOnly {
			continue
		}
		if a.Tool != "" && a.Record != "" {
			rows[a.Tool] = append(rows[a.Tool], a.Record)
			continue
		}
		if a.Tool != "" || !toolName.MatchString(a.ID) {
			continue
		}
		t := tools[a.ID]
		if desc := a.Description; t.Description != desc && !(len(desc) > receipt.MaxToolDescriptionChars && strings.HasPrefix(desc, strings.TrimRight(t.Description, "…"))) {
			return fmt.Sprintf("the tool %s has the description %q, the action declares %q", a.ID, report.Clip(t.Description, 80), report.Clip(desc, 80))
		}
		if pr := paramsProblem(a, schemaOf(t.InputSchema)); pr != "" {
			return fmt.Sprintf("the tool %s: %s", a.ID, pr)
		}
		if ro := readOnly(t); ro != (a.Risk == receipt.RiskRead) {
			return fmt.Sprintf("the tool %s carries readOnlyHint %t, but the action's risk is %s: a read's tool carries readOnlyHint true, no other's does", a.ID, ro, a.Risk)
		}
	}
	for _, a := range s.Actions.Items {
		if a.Tool != "" && a.Record != "" && !a.StepOnly && a.Risk != receipt.RiskRead && readOnly(tools[a.Tool]) {
			return fmt.Sprintf("the folded tool %s carries readOnlyHint true, but its row action %s has the risk %s", a.Tool, a.ID, a.Risk)
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
		slices.Sort(listed)
		slices.Sort(records)
		if d := judge.SetDiff(records, listed); d != "" {
			return fmt.Sprintf("the folded tool %s lists records in its enum that are not the rows declared now: %s", tool, d)
		}
	}
	return ""
}

// readOnly reports whether t's annotations carry readOnlyHint true (which
// Playwright lists as readOnly).
func readOnly(t playwright.WebMCPTool) bool {
	return t.Annotations != nil && t.Annotations.ReadOnly != nil && *t.Annotations.ReadOnly
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
	for _, k := range slices.Sorted(maps.Keys(declared)) {
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
func toolsInStep(pg *probe.Page) (string, error) {
	deadline := time.Now().Add(pg.Probe().CallTimeout())
	// The tools usually follow within a frame or two; a runtime whose
	// tools never do is read less and less often until the deadline (each
	// read is a snapshot and the tool list: page work, not free).
	wait := 50 * time.Millisecond
	for {
		snap, err := pg.Snapshot()
		if err != nil {
			return "", err
		}
		list, err := pg.Harness.Tools()
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
		<-time.After(min(wait, time.Until(deadline)+time.Millisecond))
		wait = min(wait*3/2, 500*time.Millisecond)
	}
}

// ToolNames: the registered tools are the declared actions' (names,
// descriptions, params) on a fresh page, and again after a call that
// changed which actions are declared.
func ToolNames(p *probe.Probe) probe.Outcome {
	pg, _, o := toolsPage(p)
	if o != nil {
		return *o
	}
	pr, err := toolsInStep(pg)
	if err != nil {
		return probe.Broken(err)
	}
	if pr != "" {
		return probe.Failf("on a fresh page, %s", pr)
	}
	judged := []string{"a fresh page"}
	// A call that takes a tool away (every action it stood for is gone),
	// a call that otherwise changes which actions are declared, and a flow
	// whose steps ran an action the page did not declare before the call
	// (declared while the call ran, maybe withdrawn before it ended): the
	// tools must follow each.
	var remover, mover, transient *probe.Exercised
	var gone, during string
	err = p.Each(probe.AnyAction, func(e *probe.Exercised) bool {
		if !e.Receipt.Result.OK {
			return true
		}
		if transient == nil && e.Before != nil && e.Before.Snap != nil {
			for _, st := range e.Receipt.Result.Steps {
				if _, declared := e.Before.Snap.Action(st.ID); st.Outcome == receipt.StepOK && !declared {
					transient, during = e, st.ID
					break
				}
			}
		}
		c := e.Receipt.Result.Changed
		if !probe.IsWrite(e.Action) || c == nil || c.Actions == nil || len(c.Actions.Added)+len(c.Actions.Removed) == 0 {
			return remover == nil || mover == nil || transient == nil
		}
		if remover == nil {
			if g := removedTool(e); g != "" {
				remover, gone = e, g
			}
		}
		if mover == nil && removedTool(e) == "" {
			mover = e
		}
		return remover == nil || mover == nil || transient == nil
	})
	if err != nil {
		return probe.Broken(err)
	}
	var notJudged []string
	if remover == nil {
		notJudged = append(notJudged, "no call of the run took away every action of a tool, so unregistering a tool was not probed")
	} else {
		if o := toolsAfter(p, remover, " (the tool "+gone+" must go)"); o != nil {
			return *o
		}
		judged = append(judged, "after "+remover.Action.ID+" took away the tool "+gone)
	}
	if mover == nil {
		notJudged = append(notJudged, "no other call of the run changed which actions are declared")
	} else {
		if o := toolsAfter(p, mover, ""); o != nil {
			return *o
		}
		judged = append(judged, "after "+mover.Action.ID+" changed the declared actions")
	}
	if transient == nil {
		notJudged = append(notJudged, "no flow of the run ran a step the page declared only while the call ran")
	} else if transient != mover && transient != remover {
		if o := toolsAfter(p, transient, " (its step "+during+" was declared only once the call ran)"); o != nil {
			return *o
		}
		judged = append(judged, "after "+transient.Action.ID+", whose step "+during+" was declared only once the call ran")
	}
	ev := []report.Evidence{report.TextEvidence("judged", judged...)}
	if len(notJudged) > 0 {
		ev = append(ev, report.TextEvidence("not judged", notJudged...))
	}
	return probe.Pass().With(ev...)
}

// removedTool names a tool the snapshot before e's call calls for and the
// snapshot after it does not: every action it stood for is gone.
func removedTool(e *probe.Exercised) string {
	if e.Before == nil || e.After == nil || e.Before.Snap == nil || e.After.Snap == nil ||
		e.Before.Snap.Actions.Omitted > 0 || e.After.Snap.Actions.Omitted > 0 {
		return ""
	}
	after := expectedTools(e.After.Snap)
	for _, name := range slices.Sorted(maps.Keys(expectedTools(e.Before.Snap))) {
		if !after[name] {
			return name
		}
	}
	return ""
}

// toolsAfter makes e's call again on a fresh page, approved, and fails
// when the registered tools do not come back in step with the declared
// actions (why says what the call did to them).
func toolsAfter(p *probe.Probe, e *probe.Exercised, why string) *probe.Outcome {
	pg, err := p.OpenApproved(e.Secret)
	if err != nil {
		o := probe.Broken(err)
		return &o
	}
	if r := pg.Harness.Do(e.Action.ID, e.Args); !r.Result.OK {
		o := probe.NotProbed(fmt.Sprintf("%s did not succeed again on a fresh page (%s)", e.Action.ID, report.Got(r)))
		return &o
	}
	pr, err := toolsInStep(pg)
	if err != nil {
		o := probe.Broken(err)
		return &o
	}
	if pr != "" {
		o := probe.Failf("after %s changed the declared actions%s, %s", e.Action.ID, why, pr)
		return &o
	}
	return nil
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
func callRaw(pg *probe.Page, name string, input map[string]any) rawTool {
	v, err := pg.Harness.CallTool(name, input)
	return rawTool{name: name, input: input, result: v, err: pg.CallErr(name, err)}
}

// resultProblem checks a raw tool result: the receipt as structuredContent
// and as the JSON text of a content item of type text, the two the same,
// and a receipt.
func resultProblem(v any) (*receipt.Receipt, string) {
	res, ok := judge.Plain(v).(map[string]any)
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
		return nil, fmt.Sprintf("no content item of type text carries the receipt of structuredContent as JSON text (text: %q)", report.Clip(texts[0], 120))
	}
	b, _ := json.Marshal(structured)
	r, err := receipt.Decode(b)
	if err != nil {
		return nil, "structuredContent is not a receipt: " + probe.FirstLine(err.Error())
	}
	return r, ""
}

// Result calls tools raw: a call every runtime refuses and a read with
// valid arguments (when the page has them), and judges each result.
func Result(p *probe.Probe) probe.Outcome {
	pg, tools, o := toolsPage(p, glasstest.Deny())
	if o != nil {
		return *o
	}
	var calls []rawTool
	// A folded tool without its record: refused, so it goes first. A read
	// may change which tools there are (a filter that hides every row
	// unregisters the rows' folded tool), so it goes last.
	for _, a := range p.Base().Actions.Items {
		if a.Tool != "" && a.Record != "" {
			calls = append(calls, callRaw(pg, a.Tool, map[string]any{}))
			break
		}
	}
	plan, _ := p.ExercisePlan()
	for _, pl := range plan {
		if probe.IsRead(pl.Action) && pl.Action.Tool == "" && pl.Secret == "" {
			if _, ok := tools[pl.Action.ID]; ok {
				calls = append(calls, callRaw(pg, pl.Action.ID, pl.Args))
				break
			}
		}
	}
	if len(calls) == 0 {
		names := slices.Sorted(maps.Keys(tools))
		calls = append(calls, callRaw(pg, names[0], map[string]any{}))
	}
	var judged []string
	for _, c := range calls {
		var nav *probe.NavigatedError
		if errors.As(c.err, &nav) {
			return probe.NotProbed(nav.Error())
		}
		if c.err != nil {
			return probe.Failf("the tool call %s failed instead of returning a receipt: %s", c.name, probe.FirstLine(c.err.Error()))
		}
		r, pr := resultProblem(c.result)
		if pr != "" {
			b, _ := json.Marshal(c.result)
			return probe.Failf("the tool call %s: %s", c.name, pr).With(report.TextEvidence("tool result", report.Clip(string(b), report.MaxEvidenceBytes)))
		}
		judged = append(judged, fmt.Sprintf("%s → %s", c.name, report.OutcomeCode(r)))
	}
	return probe.Pass().With(report.TextEvidence("tool calls judged", judged...))
}

// FoldedTools: a folded tool requires a string record, and a raw
// call of it with the last row's record runs that row's action.
func FoldedTools(p *probe.Probe) probe.Outcome {
	var row receipt.ActionInfo
	rows := 0
	for _, a := range p.Base().Actions.Items {
		if a.Record == "" || a.Tool == "" {
			continue
		}
		if row.ID == "" || a.Tool == row.Tool {
			row = a
			rows++
		}
	}
	if rows == 0 {
		return probe.NotProbed("the page declares no per-row actions (ids of the form name@record)")
	}
	pg, tools, o := toolsPage(p, glasstest.Deny())
	if o != nil {
		return *o
	}
	if o := foldedNames(p.Base(), tools); o != nil {
		return *o
	}
	t, ok := tools[row.Tool]
	if !ok {
		return probe.Failf("the snapshot names the folded tool %s for %s, but no such tool is registered", row.Tool, row.ID)
	}
	in := schemaOf(t.InputSchema)
	props, _ := in["properties"].(map[string]any)
	record, _ := props["record"].(map[string]any)
	req, _ := in["required"].([]any)
	if record == nil || record["type"] != "string" || !slices.Contains(req, any("record")) {
		b, _ := json.Marshal(t.InputSchema)
		return probe.Failf("the folded tool %s does not require a string record in its input schema", row.Tool).With(report.TextEvidence("input schema", string(b)))
	}
	c := callRaw(pg, row.Tool, map[string]any{"record": row.Record})
	if c.err != nil {
		return probe.Failf("the tool call %s failed: %s", row.Tool, probe.FirstLine(c.err.Error()))
	}
	r, pr := resultProblem(c.result)
	if pr != "" {
		return probe.Failf("the tool call %s: %s (see webmcp.result)", row.Tool, pr)
	}
	if r.Result.Action.ID != row.ID {
		return probe.Failf("the tool call %s with record %q ran %q, want the declared action %s", row.Tool, row.Record, r.Result.Action.ID, row.ID).
			With(report.ReceiptEvidence("receipt", r))
	}
	// The row action runs with the call's other members, record not
	// among them (§6.4): where it asks for confirmation, the request
	// shows the arguments it runs with. So a row action that asks is
	// called folded too (denied), when the one above does not ask.
	if o := recordNotPassed(pg, row); o != nil {
		return *o
	}
	if !probe.NeedsConfirmation(row) {
		for _, a := range p.Base().Actions.Items {
			if a.Record == "" || a.Tool == "" || !a.Available || !probe.NeedsConfirmation(a) {
				continue
			}
			if _, ok := tools[a.Tool]; ok {
				callRaw(pg, a.Tool, map[string]any{"record": a.Record})
				if o := recordNotPassed(pg, a); o != nil {
					return *o
				}
			}
			break
		}
	}
	judged := []string{fmt.Sprintf("%s {record: %q} → %s (%d rows)", row.Tool, row.Record, row.ID, rows)}
	// The call's other members are the row action's arguments, record
	// not among them (§6.4): a row action whose params require a member
	// or forbid undeclared ones is called with arguments they accept.
	if withArgs, ok := params.RowTakingArgs(p.Base()); ok {
		if args, err := p.ValidArgs(withArgs, ""); err == nil && len(args) > 0 {
			input := map[string]any{"record": withArgs.Record}
			for k, v := range args {
				input[k] = v
			}
			b, _ := json.Marshal(input)
			if c := callRaw(pg, withArgs.Tool, input); c.err == nil {
				r, pr := resultProblem(c.result)
				switch {
				case pr != "":
					return probe.Failf("the tool call %s %s: %s (see webmcp.result)", withArgs.Tool, b, pr)
				case r.Result.Action.ID != withArgs.ID:
					return probe.Failf("the tool call %s %s ran %q, want the declared action %s", withArgs.Tool, b, r.Result.Action.ID, withArgs.ID).
						With(report.ReceiptEvidence("receipt", r))
				case r.Code() == receipt.CodeInvalidParams:
					return probe.Failf("the tool call %s %s failed INVALID_PARAMS: %s must get the call's other members as its arguments, without record, %s", withArgs.Tool, b, withArgs.ID, report.Got(r)).
						With(report.ReceiptEvidence("receipt", r))
				}
				judged = append(judged, fmt.Sprintf("%s %s → %s, its arguments accepted", withArgs.Tool, b, withArgs.ID))
			}
		}
	}
	// A call without a string record runs nothing: INVALID_PARAMS at
	// preflight with path /record (§6.4), not a row named by whatever
	// record holds. A browser that refuses the input itself is not judged.
	for _, input := range []map[string]any{{}, {"record": 5}} {
		c := callRaw(pg, row.Tool, input)
		if c.err != nil {
			continue
		}
		b, _ := json.Marshal(input)
		r, pr := resultProblem(c.result)
		switch {
		case pr != "":
			return probe.Failf("the tool call %s %s: %s (see webmcp.result)", row.Tool, b, pr)
		case r.Code() != receipt.CodeInvalidParams || r.FailurePhase() != receipt.PhasePreflight || r.Result.Error.Path != "/record":
			return probe.Failf("the tool call %s %s: a call without a string record must fail INVALID_PARAMS at phase preflight with path /record, %s", row.Tool, b, report.Got(r)).
				With(report.ReceiptEvidence("receipt", r))
		}
		judged = append(judged, fmt.Sprintf("%s %s → INVALID_PARAMS /record", row.Tool, b))
	}
	return probe.Pass().With(report.TextEvidence("folded calls", judged...))
}

// recordNotPassed judges the confirmation requests of row's action the
// page's host saw: a row action whose params declare no record must not
// see one among its arguments.
func recordNotPassed(pg *probe.Page, row receipt.ActionInfo) *probe.Outcome {
	if s, err := params.ParseSchema(row.Params); err != nil || s.Properties["record"] != nil {
		return nil
	}
	for _, c := range pg.Harness.Confirmations() {
		if c.Request.Action != row.ID {
			continue
		}
		if _, ok := c.Request.Args["record"]; ok {
			b, _ := json.Marshal(c.Request.Args)
			o := probe.Failf("the tool call %s {record: %q} ran %s with record among its arguments (its confirmation request shows %s): a folded call runs the row action with the call's other members, record not among them", row.Tool, row.Record, row.ID, b).
				With(report.ConfirmationEvidence([]glasstest.ConfirmationRecord{c}))
			return &o
		}
	}
	return nil
}

// foldedNames: the per-row actions name@record of the snapshot are folded
// into a registered tool called name — or name.rows when an action whose
// id is exactly name is declared — whatever tool their descriptors name.
// A name that is not a valid tool name is not judged.
func foldedNames(s *receipt.Snapshot, tools map[string]playwright.WebMCPTool) *probe.Outcome {
	if s.Actions.Omitted > 0 {
		return nil // a bounded snapshot cannot say which names are taken
	}
	for _, a := range s.Actions.Items {
		if a.Record == "" || a.StepOnly || !strings.HasSuffix(a.ID, "@"+a.Record) {
			continue
		}
		name := strings.TrimSuffix(a.ID, "@"+a.Record)
		if !toolName.MatchString(name) {
			continue
		}
		want := name
		if _, taken := s.Action(name); taken {
			want = name + ".rows"
		}
		if _, ok := tools[want]; !ok || a.Tool != want {
			names := slices.Sorted(maps.Keys(tools))
			o := probe.Failf("the per-row action %s must be folded into the tool %s, but its descriptor names the tool %q and %s registered",
				a.ID, want, a.Tool, map[bool]string{true: want + " is", false: "no tool " + want + " is"}[ok]).
				With(report.TextEvidence("registered tools", names...))
			return &o
		}
	}
	return nil
}

// agreementKinds are the refusals that both transports can express, each
// made over both.
var agreementKinds = []string{refusal.RefMissing, refusal.RefWrongType, refusal.RefOutsideEnum, refusal.RefDenied, refusal.RefNoChannel, refusal.RefStale, refusal.RefUnavailable}

// Agrees makes the same calls over the bridge and over WebMCP
// (the exercise's successful calls and the refusals both can express) and
// compares the receipts, apart from executionId, tickets and absolute
// revisions.
func Agrees(p *probe.Probe) probe.Outcome {
	if _, _, o := toolsPage(p); o != nil {
		return *o
	}
	bridge := p.Sibling(glasstest.TransportBridge)
	webmcp := p.Sibling(glasstest.TransportWebMCP)
	defer bridge.Close()
	defer webmcp.Close()
	var judged, notCompared []string
	compare := func(what string, a, b *receipt.Receipt, own map[string]bool) *probe.Outcome {
		if d := receiptDifference(a, b, own); d != "" {
			o := probe.Failf("%s: the receipts over the bridge and over WebMCP differ: %s (the same call on two fresh pages; if the page's loads share one store, other pages' calls make them differ too: docs/runtime.md, \"Seeding data for tests\")", what, d).
				With(report.ReceiptEvidence("over the bridge", a), report.ReceiptEvidence("over WebMCP", b))
			return &o
		}
		judged = append(judged, what+" → "+report.OutcomeCode(a))
		return nil
	}
	plan, _ := p.ExercisePlan()
	for _, pl := range plan {
		a, err := bridge.Call(pl)
		if err != nil {
			return probe.Broken(err)
		}
		b, err := webmcp.Call(pl)
		if err != nil {
			return probe.Broken(err)
		}
		if !a.ByRuntime || !b.ByRuntime {
			// A harness receipt is no runtime's answer to compare.
			notCompared = append(notCompared, fmt.Sprintf("%s: the harness wrote the receipt (bridge: %s; webmcp: %s)", pl.Action.ID, report.Got(a.Receipt), report.Got(b.Receipt)))
			continue
		}
		var own map[string]bool
		if receiptDifference(a.Receipt, b.Receipt, nil) != "" {
			// A difference counts when a second pair of calls repeats it:
			// the page's own timing can end one call differently once.
			a2, err := bridge.CallAgain(pl)
			if err != nil {
				return probe.Broken(err)
			}
			b2, err := webmcp.CallAgain(pl)
			if err != nil {
				return probe.Broken(err)
			}
			// What differs between two calls over one transport is the
			// page's own (an order number its server draws for each
			// call), not the transport's.
			own = map[string]bool{}
			if endedAlike(a.Receipt, a2.Receipt) && endedAlike(b.Receipt, b2.Receipt) {
				receiptDifferences(a.Receipt, a2.Receipt, own)
				receiptDifferences(b.Receipt, b2.Receipt, own)
			}
			a, b = a2, b2
		}
		if o := compare(pl.Action.ID, a.Receipt, b.Receipt, own); o != nil {
			return *o
		}
		if len(own) > 0 {
			notCompared = append(notCompared, fmt.Sprintf("%s: %s, which differ between two calls over one transport (the page's own)", pl.Action.ID, strings.Join(slices.Sorted(maps.Keys(own)), ", ")))
		}
	}
	if id, args, options, ok := placeholderCall(plan); ok {
		what := fmt.Sprintf("%s with an argument given as a placeholder, restored from options.secrets ($glass.secrets over WebMCP)", id)
		a, errA := rawOnFresh(bridge, id, args, options)
		b, errB := rawOnFresh(webmcp, id, args, options)
		if err := errors.Join(errA, errB); err != nil {
			notCompared = append(notCompared, what+": "+probe.FirstLine(err.Error()))
		} else if o := compare(what, a, b, nil); o != nil {
			return *o
		}
	}
	for _, kind := range agreementKinds {
		rf := refusal.RefusalByKind(kind)
		a, o, ok := bridge.Refuse(rf)
		if !ok {
			if o.Verdict == report.Fail {
				return o
			}
			continue
		}
		b, o, ok := webmcp.Refuse(rf)
		if !ok {
			if o.Verdict == report.Fail {
				return o
			}
			continue
		}
		if o := compare(a.Call.Describe, a.Receipt, b.Receipt, nil); o != nil {
			return *o
		}
	}
	if len(judged) == 0 {
		return probe.NotProbed("no call could be made over both transports").With(p.PlanNotes()...).With(report.TextEvidence("not compared", notCompared...))
	}
	res := probe.Pass().With(report.TextEvidence("calls compared", judged...))
	if len(notCompared) > 0 {
		res = res.With(report.TextEvidence("not compared", notCompared...))
	}
	return res
}

// receiptDifference describes the first difference between two receipts,
// apart from executionId, tickets, resume handles and absolute revisions
// (the revision's step is compared): each call gets fresh ones; and apart
// from the paths of skip.
func receiptDifference(a, b *receipt.Receipt, skip map[string]bool) string {
	x, err1 := comparable(a)
	y, err2 := comparable(b)
	if err := errors.Join(err1, err2); err != nil {
		return err.Error()
	}
	return jsonDifference("", x, y, skip)
}

// maxOwnPaths bounds the paths receiptDifferences collects.
const maxOwnPaths = 64 // not a contract bound

// receiptDifferences adds to paths every path where two receipts differ
// (receiptDifference, one difference after another).
func receiptDifferences(a, b *receipt.Receipt, paths map[string]bool) {
	x, err1 := comparable(a)
	y, err2 := comparable(b)
	if err1 != nil || err2 != nil {
		return
	}
	for len(paths) < maxOwnPaths {
		path := ""
		if jsonDifferenceAt(&path, "", x, y, paths) == "" || envelopePaths[path] {
			return
		}
		paths[path] = true
	}
}

// envelopePaths are how a call ended: never a value of the page's own.
var envelopePaths = map[string]bool{"": true, "/phase": true, "/recoveryStrategy": true, "/result": true, "/result/ok": true, "/result/error": true, "/result/error/code": true, "/result/error/started": true}

// endedAlike reports whether two receipts of one call ended the same
// way (both succeeded, or both failed with one code): only then is what
// differs between them the page's own, not the call's outcome.
func endedAlike(a, b *receipt.Receipt) bool {
	return a.Result.OK == b.Result.OK && a.Code() == b.Code()
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

// jsonDifference names the first path where two JSON values differ,
// leaving out the paths of skip.
func jsonDifference(path string, a, b any, skip map[string]bool) string {
	var at string
	return jsonDifferenceAt(&at, path, a, b, skip)
}

// jsonDifferenceAt is jsonDifference, and sets *at to the difference's
// path.
func jsonDifferenceAt(at *string, path string, a, b any, skip map[string]bool) string {
	if skip[path] {
		return ""
	}
	*at = path
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is %s over the bridge, %s over WebMCP", params.PathOr(path), report.Clip(judge.JSONText(a), 80), report.Clip(judge.JSONText(b), 80))
		}
		for _, k := range slices.Sorted(maps.Keys(judge.MergeKeys(x, y))) {
			if d := jsonDifferenceAt(at, path+"/"+k, x[k], y[k], skip); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s is %s over the bridge, %s over WebMCP", params.PathOr(path), report.Clip(judge.JSONText(a), 80), report.Clip(judge.JSONText(b), 80))
		}
		for i := range x {
			if d := jsonDifferenceAt(at, fmt.Sprintf("%s/%d", path, i), x[i], y[i], skip); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s is %s over the bridge, %s over WebMCP", params.PathOr(path), report.Clip(judge.JSONText(a), 80), report.Clip(judge.JSONText(b), 80))
	}
	return ""
}
