package coverage_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// A Todo-like page: rows remove@t1…, an element action, a flow with a
// step-only step, a function and a hand-off.
func todoSnapshot(id string, rows ...string) *receipt.Snapshot {
	s := &receipt.Snapshot{Protocol: receipt.Protocol, Page: receipt.PageIdentity{ID: id, URL: "http://127.0.0.1:4242/?fault=x", Title: "Todo"}}
	for _, r := range rows {
		s.Actions.Items = append(s.Actions.Items, receipt.ActionInfo{ID: "remove@" + r, Kind: receipt.KindElement, Risk: receipt.RiskDangerous, Confirm: true, Tool: "remove", Record: r})
	}
	s.Actions.Items = append(s.Actions.Items,
		receipt.ActionInfo{ID: "add", Kind: receipt.KindElement, Risk: receipt.RiskWrite},
		receipt.ActionInfo{ID: "edit", Kind: receipt.KindFlow, Risk: receipt.RiskWrite, Steps: []string{"edit.open", "edit.save"}},
		receipt.ActionInfo{ID: "edit.open", Kind: receipt.KindElement, Risk: receipt.RiskRead, StepOnly: true},
		receipt.ActionInfo{ID: "edit.save", Kind: receipt.KindElement, Risk: receipt.RiskWrite},
		receipt.ActionInfo{ID: "export", Kind: receipt.KindFunction, Risk: receipt.RiskRead},
		receipt.ActionInfo{ID: "verify", Kind: receipt.KindHandoff, Risk: receipt.RiskWrite},
	)
	return s
}

func ok(id string) *receipt.Receipt {
	return &receipt.Receipt{Result: receipt.Result{OK: true, Action: receipt.Action{ID: id}}}
}

func failed(id string, code receipt.Code) *receipt.Receipt {
	return &receipt.Receipt{Phase: code.Phase(), Result: receipt.Result{Action: receipt.Action{ID: id}, Error: &receipt.Error{Code: code}}}
}

func withSteps(r *receipt.Receipt, steps ...receipt.Step) *receipt.Receipt {
	r.Result.Steps = steps
	return r
}

// knownLog is one page of one spec with a call of every kind.
func knownLog() coverage.PageLog {
	return coverage.PageLog{
		URL:       "http://127.0.0.1:4242/",
		Snapshots: []*receipt.Snapshot{todoSnapshot("todo", "t1", "t2", "t9"), todoSnapshot("todo", "t1", "t2")},
		Calls: []coverage.CallLog{
			{Receipt: ok("remove@t9"), Spec: "approves", Transport: coverage.TransportBridge, Snapshots: 1, HostAnswers: []bool{true}},
			{Receipt: failed("remove@t1", receipt.CodePermissionDenied), Spec: "denies", Transport: coverage.TransportWebMCP, Snapshots: 2, HostAnswers: []bool{false}},
			{Receipt: &receipt.Receipt{Phase: receipt.PhasePolicy, Result: receipt.Result{Action: receipt.Action{ID: "remove@t2"}, Error: &receipt.Error{Code: receipt.CodePermissionDenied}},
				Confirmations: []receipt.Confirmation{{Action: "remove@t2", Risk: receipt.RiskDangerous}}}, Spec: "no channel", Transport: coverage.TransportBridge, Snapshots: 2, NoChannel: true},
			{Receipt: withSteps(failed("edit", receipt.CodeStepFailed),
				receipt.Step{Index: 0, ID: "edit.open", Outcome: receipt.StepOK},
				receipt.Step{Index: 1, ID: "edit.save", Outcome: receipt.StepFailed},
			), Spec: "edit fails", Transport: coverage.TransportBridge, Snapshots: 2},
			{Receipt: ok("edit"), Spec: "edit fails", Resume: true, Flow: "edit", Snapshots: 2},
			{Receipt: failed("flh_0123", receipt.CodeActionNotFound), Spec: "bad handle", Resume: true, Snapshots: 2},
			{Receipt: failed("verify", receipt.CodeHandoffCancelled), Spec: "cancels", Transport: coverage.TransportBridge, Snapshots: 2,
				Handoffs: []coverage.HandoffLog{{Action: "verify", Outcome: coverage.HandoffCancelled}}},
			{Receipt: failed("verify", receipt.CodeHandoffTimeout), Spec: "times out", Transport: coverage.TransportBridge, Snapshots: 2},
			{Receipt: failed("archive@t9", receipt.CodeActionNotFound), Spec: "unknown", Transport: coverage.TransportBridge, Snapshots: 2},
			{Receipt: ok("add"), Spec: "adds", Transport: coverage.TransportWebMCP, Snapshots: 0},
			{Receipt: ok("add"), Spec: "adds", Transport: coverage.TransportBridge, Snapshots: 2},
		},
	}
}

func action(t *testing.T, p coverage.Page, name string) coverage.Action {
	t.Helper()
	for _, a := range p.Actions {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("page %s has no action %q: %v", p.Page, name, names(p))
	return coverage.Action{}
}

func names(p coverage.Page) []string {
	var out []string
	for _, a := range p.Actions {
		out = append(out, a.Name)
	}
	return out
}

type cells = map[coverage.Cell][]string

func TestObserveFoldsRowsAndGivesEveryCallItsCells(t *testing.T) {
	obs := coverage.Observe(knownLog())
	if len(obs.Pages) != 1 || obs.Pages[0].Page != "todo" || obs.Pages[0].Title != "Todo" {
		t.Fatalf("pages = %+v, want the one page todo", obs.Pages)
	}
	p := obs.Pages[0]
	wantNames := []string{coverage.UnknownHandle, "add", "archive", "edit", "edit.open", "edit.save", "export", "remove", "verify"}
	if got := names(p); !slices.Equal(got, wantNames) {
		t.Errorf("actions = %q, want %q (rows folded into remove, t9 too after it was removed)", got, wantNames)
	}
	for _, tc := range []struct {
		name     string
		declared bool
		calls    int
		cells    cells
		codes    []coverage.CodeSeen
	}{
		{"remove", true, 3, cells{
			coverage.CellCalled:    {"approves", "denies", "no channel"},
			coverage.CellOK:        {"approves"},
			coverage.CellBridge:    {"approves", "no channel"},
			coverage.CellWebMCP:    {"denies"},
			coverage.CellApproved:  {"approves"},
			coverage.CellDenied:    {"denies"},
			coverage.CellNoChannel: {"no channel"},
		}, []coverage.CodeSeen{{Code: receipt.CodePermissionDenied, Phase: receipt.PhasePolicy, Specs: []string{"denies", "no channel"}}}},
		{"edit", true, 2, cells{
			coverage.CellCalled:     {"edit fails"},
			coverage.CellOK:         {"edit fails"},
			coverage.CellBridge:     {"edit fails"},
			coverage.CellStepFailed: {"edit fails"},
			coverage.CellResumed:    {"edit fails"},
		}, []coverage.CodeSeen{{Code: receipt.CodeStepFailed, Phase: receipt.PhaseDispatch, Specs: []string{"edit fails"}}}},
		{"edit.open", true, 0, cells{coverage.CellAsStep: {"edit fails"}}, nil},
		{"edit.save", true, 0, cells{coverage.CellAsStep: {"edit fails"}}, nil},
		{"verify", true, 2, cells{
			coverage.CellCalled:           {"cancels", "times out"},
			coverage.CellBridge:           {"cancels", "times out"},
			coverage.CellHandoffCancelled: {"cancels"},
			coverage.CellHandoffTimeout:   {"times out"},
		}, []coverage.CodeSeen{
			{Code: receipt.CodeHandoffCancelled, Phase: receipt.PhaseDispatch, Specs: []string{"cancels"}},
			{Code: receipt.CodeHandoffTimeout, Phase: receipt.PhaseDispatch, Specs: []string{"times out"}},
		}},
		{"add", true, 2, cells{
			coverage.CellCalled: {"adds"}, coverage.CellOK: {"adds"},
			coverage.CellBridge: {"adds"}, coverage.CellWebMCP: {"adds"},
		}, nil},
		{"archive", false, 1, cells{coverage.CellCalled: {"unknown"}, coverage.CellBridge: {"unknown"}},
			[]coverage.CodeSeen{{Code: receipt.CodeActionNotFound, Phase: receipt.PhaseTargetResolution, Specs: []string{"unknown"}}}},
		{coverage.UnknownHandle, false, 1, cells{coverage.CellCalled: {"bad handle"}, coverage.CellBridge: {"bad handle"}, coverage.CellResumed: {"bad handle"}},
			[]coverage.CodeSeen{{Code: receipt.CodeActionNotFound, Phase: receipt.PhaseTargetResolution, Specs: []string{"bad handle"}}}},
		{"export", true, 0, nil, nil},
	} {
		a := action(t, p, tc.name)
		if a.Declared != tc.declared || a.Calls != tc.calls {
			t.Errorf("%s: declared %v, calls %d; want %v, %d", tc.name, a.Declared, a.Calls, tc.declared, tc.calls)
		}
		if !reflect.DeepEqual(a.Cells, tc.cells) {
			t.Errorf("%s: cells = %v\nwant %v", tc.name, a.Cells, tc.cells)
		}
		if !reflect.DeepEqual(a.Codes, tc.codes) {
			t.Errorf("%s: codes = %+v\nwant %+v", tc.name, a.Codes, tc.codes)
		}
	}
	remove := action(t, p, "remove")
	if remove.Kind != receipt.KindElement || remove.Risk != receipt.RiskDangerous || !remove.Confirm || !remove.Rows || remove.StepOnly {
		t.Errorf("remove's declaration = %+v", remove)
	}
	if open := action(t, p, "edit.open"); !open.StepOnly {
		t.Error("edit.open is step-only")
	}
}

func TestAPageIsKnownByItsIDElseByThePathOfItsAddress(t *testing.T) {
	anon := func(url string) *receipt.Snapshot {
		s := todoSnapshot("", "t1")
		s.Page.URL = url
		return s
	}
	for _, tc := range []struct {
		snap   *receipt.Snapshot
		opened string
		want   string
	}{
		{todoSnapshot("todo"), "http://127.0.0.1:1/x?y", "todo"},
		{anon("http://127.0.0.1:38211/orders/list?fault=notify#top"), "", "/orders/list"},
		{anon("http://localhost:9/"), "", "/"},
		{anon(""), "http://127.0.0.1:5/page.html?x=1", "/page.html"},
		{nil, "http://127.0.0.1:5", "/"},
		{nil, "about:blank", "about:blank"},
		{nil, "http://[::1/x?y", "http://[::1/x"},
	} {
		if got := coverage.PageKey(tc.snap, tc.opened); got != tc.want {
			t.Errorf("PageKey(%v, %q) = %q, want %q", tc.snap != nil, tc.opened, got, tc.want)
		}
	}
}

func TestACallCountsOnThePageItRanOn(t *testing.T) {
	list := todoSnapshot("list", "t1")
	detail := todoSnapshot("detail")
	log := coverage.PageLog{
		URL:       "http://127.0.0.1:1/",
		Snapshots: []*receipt.Snapshot{list, detail},
		Calls: []coverage.CallLog{
			// Before any snapshot: the first one read after it.
			{Receipt: ok("add"), Spec: "first", Snapshots: 0},
			{Receipt: ok("add"), Spec: "on list", Snapshots: 1},
			{Receipt: ok("add"), Spec: "on detail", Snapshots: 2},
		},
	}
	obs := coverage.Observe(log)
	if len(obs.Pages) != 2 {
		t.Fatalf("pages = %+v", obs.Pages)
	}
	got := map[string][]string{}
	for _, p := range obs.Pages {
		got[p.Page] = action(t, p, "add").Cells[coverage.CellCalled]
	}
	want := map[string][]string{"list": {"first", "on list"}, "detail": {"on detail"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("called = %v, want %v", got, want)
	}
}

func TestAHostilePageCannotGrowTheCoverage(t *testing.T) {
	var snaps []*receipt.Snapshot
	for i := range coverage.MaxPages + 5 {
		snaps = append(snaps, todoSnapshot(fmt.Sprintf("page-%02d", i)))
	}
	big := todoSnapshot(strings.Repeat("é", 400))
	for i := range coverage.MaxDeclared + 7 {
		big.Actions.Items = append(big.Actions.Items, receipt.ActionInfo{ID: fmt.Sprintf("a%04d", i), Kind: receipt.KindElement, Risk: receipt.RiskRead})
	}
	obs := coverage.Observe(coverage.PageLog{URL: "http://127.0.0.1:1/here", Snapshots: append(snaps, big)})
	if len(obs.Pages) != coverage.MaxPages+1 {
		t.Errorf("%d pages, want %d and the address for the rest", len(obs.Pages), coverage.MaxPages+1)
	}
	var here *coverage.Page
	for i, p := range obs.Pages {
		if len(p.Page) > coverage.MaxText+len("…") {
			t.Errorf("page key of %d bytes", len(p.Page))
		}
		if p.Page == "/here" {
			here = &obs.Pages[i]
		}
	}
	if here == nil {
		t.Fatal("no page /here")
	}
	declared := 0
	for _, a := range here.Actions {
		if a.Declared {
			declared++
		}
	}
	// todoSnapshot's 6 actions without rows are declared first, then the
	// a… ones.
	if declared != coverage.MaxDeclared || here.Omitted != 6+7 {
		t.Errorf("declared %d, omitted %d; want %d and 13", declared, here.Omitted, coverage.MaxDeclared)
	}
}

// twoSpecs are the observations of two specs, as two processes report
// them.
func twoSpecs() []coverage.Observation {
	second := coverage.PageLog{
		URL:       "http://127.0.0.1:4343/",
		Snapshots: []*receipt.Snapshot{todoSnapshot("todo", "t3")},
		Calls: []coverage.CallLog{
			{Receipt: ok("remove@t3"), Spec: "other process", Transport: coverage.TransportWebMCP, Snapshots: 1, HostAnswers: []bool{true}},
			{Receipt: ok("export"), Spec: "other process", Transport: coverage.TransportBridge, Snapshots: 1},
		},
	}
	return []coverage.Observation{coverage.Observe(knownLog()), coverage.Observe(second)}
}

func TestNewMergesObservationsInAnyOrder(t *testing.T) {
	obs := twoSpecs()
	a, err := coverage.New("Todo", false, obs[0], obs[1]).JSON()
	if err != nil {
		t.Fatal(err)
	}
	b, err := coverage.New("Todo", false, obs[1], obs[0]).JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("the order of the observations changed the report:\n%s\n---\n%s", a, b)
	}
	rep := coverage.New("Todo", false, obs...)
	remove := action(t, rep.Pages[0], "remove")
	if remove.Calls != 4 || !slices.Equal(remove.Cells[coverage.CellApproved], []string{"approves", "other process"}) {
		t.Errorf("remove merged = %+v", remove)
	}
	if !slices.Equal(remove.Cells[coverage.CellWebMCP], []string{"denies", "other process"}) {
		t.Errorf("remove over webmcp = %v", remove.Cells[coverage.CellWebMCP])
	}
}

func TestTheSummaryCountsDeclaredActionsOnly(t *testing.T) {
	rep := coverage.New("Todo", false, twoSpecs()...)
	ref := func(names ...string) []coverage.Ref {
		var out []coverage.Ref
		for _, n := range names {
			out = append(out, coverage.Ref{Page: "todo", Action: n})
		}
		return out
	}
	want := coverage.Summary{
		// export called by the other process; edit.open is step-only and
		// ran as a step; edit.save is no step-only action: running as a
		// step is not being called.
		Actions:          coverage.Figure{Covered: 6, Of: 7, Missing: ref("edit.save")},
		Confirm:          coverage.Figure{Covered: 1, Of: 1},
		StepFailed:       coverage.Figure{Covered: 1, Of: 1},
		Resumed:          coverage.Figure{Covered: 1, Of: 1},
		HandoffCompleted: coverage.Figure{Covered: 0, Of: 1, Missing: ref("verify")},
		HandoffCancelled: coverage.Figure{Covered: 1, Of: 1},
		BothTransports:   coverage.Figure{Covered: 2, Of: 6, Missing: ref("edit", "edit.save", "export", "verify")},
		Codes: coverage.Codes{Seen: 6, Actions: 5, Codes: []receipt.Code{
			receipt.CodeActionNotFound, receipt.CodeHandoffCancelled, receipt.CodeHandoffTimeout, receipt.CodePermissionDenied, receipt.CodeStepFailed,
		}},
	}
	if !reflect.DeepEqual(rep.Summary, want) {
		t.Errorf("summary =\n%+v\nwant\n%+v", rep.Summary, want)
	}
	// Undeclared actions count in no figure, but their codes are seen.
	if got, wantLine := rep.Line("out/glass-coverage.html"),
		"glass coverage: 6/7 actions called · 1/1 asking confirmation approved and denied · flows 1/1 failed a step, 1/1 resumed · hand-offs 0/1 completed, 1/1 cancelled · 6 failure codes over 5 actions · 2/6 over both transports — out/glass-coverage.html"; got != wantLine {
		t.Errorf("line =\n%s\nwant\n%s", got, wantLine)
	}
}

func TestTheSummaryLineShowsPageTextEscaped(t *testing.T) {
	rep := coverage.New("x", true)
	line := rep.Line("out/evil\x1b[31m/glass-coverage.html")
	if strings.ContainsRune(line, 0x1b) || !strings.Contains(line, `\x1b[31m`) || !strings.Contains(line, "(a filtered run)") {
		t.Errorf("line = %q", line)
	}
}

func TestParseFloors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []coverage.Floor
		err  string
	}{
		{"", nil, ""},
		{"80", []coverage.Floor{{Measure: coverage.MeasureActions, Min: 80}}, ""},
		{" 62.5% ", []coverage.Floor{{Measure: coverage.MeasureActions, Min: 62.5}}, ""},
		{"actions=100, confirm=50%,both_transports=0", []coverage.Floor{
			{Measure: coverage.MeasureActions, Min: 100}, {Measure: coverage.MeasureConfirm, Min: 50}, {Measure: coverage.MeasureBothTransports, Min: 0},
		}, ""},
		{"lots", nil, `coverage: floor "lots": "lots" is not a percentage from 0 to 100`},
		{"101", nil, `coverage: floor "101": "101" is not a percentage from 0 to 100`},
		{"-1", nil, `coverage: floor "-1": "-1" is not a percentage from 0 to 100`},
		{"NaN", nil, `coverage: floor "NaN": "NaN" is not a percentage from 0 to 100`},
		{"actoins=80", nil, `coverage: floor "actoins=80": unknown measure "actoins" (want actions, confirm, step_failed, resumed, handoff_completed, handoff_cancelled, both_transports)`},
		{"actions=80,actions=90", nil, `coverage: floor "actions=90": measure "actions" is given twice`},
		{"actions=80,,confirm=1", nil, `coverage: floor "": want measure=percentage`},
		{"actions=", nil, `coverage: floor "actions=": "" is not a percentage from 0 to 100`},
	} {
		got, err := coverage.ParseFloors(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseFloors(%q) error = %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseFloors(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestCheckNamesWhatIsMissing(t *testing.T) {
	rep := coverage.New("Todo", false, twoSpecs()...)
	err := rep.Check([]coverage.Floor{
		{Measure: coverage.MeasureActions, Min: 90},
		{Measure: coverage.MeasureConfirm, Min: 100},
		{Measure: coverage.MeasureBothTransports, Min: 50},
	})
	if !errors.Is(err, coverage.ErrBelowFloor) {
		t.Fatalf("err = %v, want ErrBelowFloor", err)
	}
	want := "coverage below the floor:\n" +
		"  actions 6/7 = 85.7%, want at least 90%: not called: todo: edit.save\n" +
		"  both_transports 2/6 = 33.3%, want at least 50%: not called over both transports: todo: edit, todo: edit.save, todo: export, todo: verify"
	if err.Error() != want {
		t.Errorf("err =\n%s\nwant\n%s", err, want)
	}
	if len(rep.Floors) != 3 || !rep.Floors[1].Met || rep.Floors[0].Met {
		t.Errorf("floors = %+v", rep.Floors)
	}
	if err := rep.Check([]coverage.Floor{{Measure: coverage.MeasureActions, Min: 85.7}}); err != nil {
		t.Errorf("6/7 meets 85.7%%: %v", err)
	}
	if err := rep.Check([]coverage.Floor{{Measure: "lines", Min: 1}}); err == nil || err.Error() != `coverage: unknown measure "lines" (want actions, confirm, step_failed, resumed, handoff_completed, handoff_cancelled, both_transports)` {
		t.Errorf("an unknown measure: %v", err)
	}
	empty := coverage.New("none", false)
	if err := empty.Check([]coverage.Floor{{Measure: coverage.MeasureActions, Min: 100}}); err != nil {
		t.Errorf("nothing declared, nothing missing: %v", err)
	}
}

func TestTheJSONValidatesAgainstTheSchemaAndReadsBack(t *testing.T) {
	rep := coverage.New("Todo", false, twoSpecs()...)
	if err := rep.Check([]coverage.Floor{{Measure: coverage.MeasureActions, Min: 50}}); err != nil {
		t.Fatal(err)
	}
	b, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.ValidateCoverage(b); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !bytes.HasSuffix(b, []byte("}\n")) || !bytes.Contains(b, []byte("\n  \"summary\": {")) {
		t.Errorf("not indented by two spaces with a final newline:\n%s", b)
	}
	back, err := coverage.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rep) {
		t.Errorf("read back:\n%+v\nwant\n%+v", back, rep)
	}
	bad := bytes.Replace(b, []byte(`"no_channel"`), []byte(`"no_chanel"`), 1)
	if err := schema.ValidateCoverage(bad); err == nil {
		t.Error("the schema accepts an unknown cell")
	}
	if _, err := coverage.Decode(bad); err == nil || !strings.Contains(err.Error(), `unknown cell "no_chanel"`) {
		t.Errorf("Decode of an unknown cell: %v", err)
	}
	if _, err := coverage.Decode([]byte(`{"format": "glass-coverage/v9", "summary": {}, "pages": []}`)); err == nil || err.Error() != `coverage: decode the report: format "glass-coverage/v9", want "glass-coverage/v1"` {
		t.Errorf("Decode of another format: %v", err)
	}
}

func TestTheSchemaListsTheCellsAndMeasuresOfTheModel(t *testing.T) {
	var doc struct {
		Defs struct {
			Measure struct {
				Enum []coverage.Measure `json:"enum"`
			} `json:"measure"`
			Action struct {
				Properties struct {
					Cells struct {
						PropertyNames struct {
							Enum []coverage.Cell `json:"enum"`
						} `json:"propertyNames"`
					} `json:"cells"`
				} `json:"properties"`
			} `json:"action"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schema.CoverageJSON, &doc); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(doc.Defs.Measure.Enum, coverage.Measures) {
		t.Errorf("schema measures %v, model %v", doc.Defs.Measure.Enum, coverage.Measures)
	}
	if !slices.Equal(doc.Defs.Action.Properties.Cells.PropertyNames.Enum, coverage.Cells) {
		t.Errorf("schema cells %v, model %v", doc.Defs.Action.Properties.Cells.PropertyNames.Enum, coverage.Cells)
	}
}

func TestMapTextReachesEveryText(t *testing.T) {
	obs := coverage.Observe(knownLog())
	masked := obs.MapText(func(s string) string { return strings.ReplaceAll(s, "e", "#") })
	b, err := json.Marshal(masked)
	if err != nil {
		t.Fatal(err)
	}
	// Only the keys and enums of the JSON keep an "e".
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, "e") && !slices.Contains([]string{"element", "write", "dangerous", "read", "flow", "handoff", "function", "PERMISSION_DENIED"}, x) && !strings.Contains(x, "_") {
				t.Errorf("text %q was not mapped", x)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	if obs.Pages[0].Page != "todo" {
		t.Error("MapText changed its receiver")
	}
}

func TestRowsFoldIntoTheToolTheirDescriptorsName(t *testing.T) {
	// The page declares an action called remove and rows of remove too:
	// the rows' tool is remove.rows (CONTRACT.md §6.4).
	s := &receipt.Snapshot{Page: receipt.PageIdentity{ID: "p"}}
	s.Actions.Items = []receipt.ActionInfo{
		{ID: "remove", Kind: receipt.KindElement, Risk: receipt.RiskDangerous, Confirm: true},
		{ID: "remove@t1", Kind: receipt.KindElement, Risk: receipt.RiskDangerous, Confirm: true, Tool: "remove.rows", Record: "t1"},
	}
	obs := coverage.Observe(coverage.PageLog{Snapshots: []*receipt.Snapshot{s}, Calls: []coverage.CallLog{
		{Receipt: ok("remove@t9"), Spec: "a row gone since", Snapshots: 1},
		{Receipt: ok("remove"), Spec: "the action itself", Snapshots: 1},
	}})
	p := obs.Pages[0]
	if got := names(p); !slices.Equal(got, []string{"remove", "remove.rows"}) {
		t.Fatalf("actions = %q", got)
	}
	if got := action(t, p, "remove.rows").Cells[coverage.CellCalled]; !slices.Equal(got, []string{"a row gone since"}) {
		t.Errorf("remove.rows called by %q", got)
	}
	if got := action(t, p, "remove").Cells[coverage.CellCalled]; !slices.Equal(got, []string{"the action itself"}) {
		t.Errorf("remove called by %q", got)
	}
	if !action(t, p, "remove.rows").Rows || action(t, p, "remove").Rows {
		t.Error("only remove.rows is per row")
	}
}

func TestWhatCoversEachMeasure(t *testing.T) {
	with := func(a coverage.Action, cs ...coverage.Cell) coverage.Action {
		a.Cells = map[coverage.Cell][]string{}
		for _, c := range cs {
			a.Cells[c] = []string{"s"}
		}
		return a
	}
	confirm := coverage.Action{Declared: true, Kind: receipt.KindElement, Risk: receipt.RiskDangerous, Confirm: true}
	step := coverage.Action{Declared: true, Kind: receipt.KindElement, StepOnly: true}
	for _, tc := range []struct {
		m    coverage.Measure
		a    coverage.Action
		want bool
	}{
		{coverage.MeasureConfirm, with(confirm, coverage.CellApproved), false},
		{coverage.MeasureConfirm, with(confirm, coverage.CellDenied), false},
		{coverage.MeasureConfirm, with(confirm, coverage.CellApproved, coverage.CellDenied), true},
		{coverage.MeasureConfirm, with(confirm, coverage.CellApproved, coverage.CellNoChannel), true},
		{coverage.MeasureActions, with(step, coverage.CellAsStep), true},
		{coverage.MeasureActions, with(confirm, coverage.CellAsStep), false},
		{coverage.MeasureBothTransports, with(confirm, coverage.CellBridge), false},
		{coverage.MeasureBothTransports, with(confirm, coverage.CellBridge, coverage.CellWebMCP), true},
	} {
		if got := coverage.Covered(tc.m, tc.a); got != tc.want {
			t.Errorf("Covered(%s, %v) = %v, want %v", tc.m, tc.a.Cells, got, tc.want)
		}
	}
	if coverage.Applies(coverage.MeasureBothTransports, step) || !coverage.Applies(coverage.MeasureActions, step) {
		t.Error("a step-only action counts in actions, not in both_transports")
	}
	if coverage.Applies(coverage.MeasureActions, coverage.Action{Name: "archive"}) {
		t.Error("an undeclared action counts in no measure")
	}
	dangerousStep := step
	dangerousStep.Confirm = true
	if coverage.Applies(coverage.MeasureConfirm, dangerousStep) || !coverage.Applies(coverage.MeasureConfirm, confirm) {
		t.Error("a step-only action that asks counts in confirm: no spec can call it alone")
	}
}
