package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// These tests need no browser: they run the pure parts of the suite on
// real JSON and text.

func TestManifestParsesYAMLAndJSON(t *testing.T) {
	yaml := `
version: 1
args:
  add: {title: Buy milk, priority: high}
  remove: {}
skip: ["pay@*"]
expectationFailures:
  - action: remove@t9
    url: /?fault=delete-stale
executionFailures:
  - action: remove@t9
    url: "?fault=delete-throws"
    args: null
flowFailures:
  - action: edit@t3
    step: 2
    args: {title: New}
handoffs:
  - action: verify
    outcome: cancelled
    url: http://127.0.0.1:8080/verify
`
	m, err := ParseManifest("m.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{
		Version:             1,
		Args:                map[string]map[string]any{"add": {"title": "Buy milk", "priority": "high"}, "remove": {}},
		Skip:                []string{"pay@*"},
		ExpectationFailures: []Scenario{{Action: "remove@t9", URL: "/?fault=delete-stale"}},
		ExecutionFailures:   []Scenario{{Action: "remove@t9", URL: "?fault=delete-throws", Args: map[string]any{}}},
		FlowFailures:        []Scenario{{Action: "edit@t3", Step: 2, Args: map[string]any{"title": "New"}}},
		Handoffs:            []Scenario{{Action: "verify", Outcome: "cancelled", URL: "http://127.0.0.1:8080/verify"}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
	js := `{"version": 1, "args": {"add": {"title": "x", "n": 2}}, "expectationFailures": [{"action": "add"}]}`
	m, err = ParseManifest("m.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if m.Args["add"]["n"] != 2 || m.ExpectationFailures[0].Action != "add" {
		t.Errorf("json manifest: %+v", m)
	}
	if a, ok := m.argsFor(receipt.ActionInfo{ID: "add@t1", Tool: "add"}); !ok || a["title"] != "x" {
		t.Errorf("argsFor a row action by its tool: %v %v", a, ok)
	}
	if m, err := ParseManifest("empty.yaml", []byte("  \n")); err != nil || !reflect.DeepEqual(m, &Manifest{}) {
		t.Errorf("empty manifest: %+v, %v", m, err)
	}
	if !(&Manifest{Skip: []string{"pay@*"}}).skips("pay@t1") || (&Manifest{Skip: []string{"pay@*"}}).skips("remove@t1") {
		t.Error("skip globs")
	}
}

func TestManifestErrorsNameTheFieldAndLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"not a mapping", "- a\n- b\n", `manifest "m": invalid manifest: line 1: want a mapping of version, args`},
		{"unknown top field", "version: 1\nexpectation: []\n", `line 2: unknown field "expectation" (want one of version, args, skip`},
		{"bad version", "version: 2\n", `line 1: version: want 1, got "2"`},
		{"args not a mapping", "args: [1]\n", `line 1: args: want a mapping from action id to arguments, got a list`},
		{"args of an action not an object", "args:\n  add: 3\n", `line 2: args.add: want an object of arguments, got "3"`},
		{"skip not a list", "skip: pay\n", `line 1: skip: want a list of action ids or globs, got "pay"`},
		{"bad glob", "skip: [\"pay[\"]\n", `skip[0]: bad glob "pay["`},
		{"scenario without action", "expectationFailures:\n  - url: /x\n", `line 2: expectationFailures[0].action: required`},
		{"scenario with unknown field", "executionFailures:\n  - action: a\n    step: 2\n", `line 3: executionFailures[0]: unknown field "step" (want action, url, args)`},
		{"bad url", "expectationFailures:\n  - action: a\n    url: ftp://x/y\n", `line 3: expectationFailures[0].url: want a relative URL`},
		{"flow without step", "flowFailures:\n  - action: a\n", `flowFailures[0].step: required`},
		{"flow with step 0", "flowFailures:\n  - action: a\n    step: 0\n", `flowFailures[0].step: want a step number ≥ 1, got "0"`},
		{"handoff with bad outcome", "handoffs:\n  - action: a\n    outcome: maybe\n", `handoffs[0].outcome: want one of completed, cancelled, timeout, failed, got "maybe"`},
		{"field given twice", "skip: []\nskip: []\n", `skip: given twice`},
		{"not YAML", "args: [unclosed\n", `manifest "m": invalid manifest: `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest("m", []byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrManifest) {
				t.Errorf("error does not wrap ErrManifest: %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := LoadManifest(filepath.Join(t.TempDir(), "absent.yaml")); err == nil || !strings.Contains(err.Error(), "cannot read it") {
		t.Errorf("missing file: %v", err)
	}
}

func TestSchemaBuildsValidAndInvalidArguments(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{
		"title":{"type":"string","minLength":15,"maxLength":20},
		"priority":{"type":"string","enum":["low","high"]},
		"count":{"type":"integer","minimum":3,"maximum":9},
		"done":{"type":"boolean"},
		"password":{"type":"string","sensitive":true},
		"note":{"type":"string"}},
		"required":["title","priority","count","done"]}`)
	s, err := parseSchema(params)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.synthesize("", "s3cret-value")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"title": "glass probexxxx", "priority": "low", "count": 3.0, "done": true,
		"password": map[string]string{"$sensitive": sensitiveRef}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("synthesize = %#v\nwant %#v", v, want)
	}
	if w, what, ok := s.Properties["title"].wrongValue(); !ok || w != 12345 || what != "a number" {
		t.Errorf("wrongValue(string) = %v %q %v", w, what, ok)
	}
	if w, _, ok := s.Properties["count"].wrongValue(); !ok || w != "glass probe" {
		t.Errorf("wrongValue(integer) = %v %v", w, ok)
	}
	if w, ok := s.Properties["priority"].outsideEnum(); !ok || w != "glass-probe-not-in-enum" {
		t.Errorf("outsideEnum = %v %v", w, ok)
	}
	if _, ok := s.Properties["note"].outsideEnum(); ok {
		t.Error("outsideEnum without an enum")
	}
	for _, bad := range []string{`{"type":"string","pattern":"^a+$"}`, `{"oneOf":[{"type":"string"}]}`, `{"type":"object","required":["x"],"properties":{"x":{"$ref":"#/defs/x"}}}`} {
		s, _ := parseSchema(json.RawMessage(bad))
		if _, err := s.synthesize("", ""); err == nil {
			t.Errorf("synthesize(%s) built a value it cannot know is valid", bad)
		}
	}
}

func TestSanitizeNeutralisesTerminalControls(t *testing.T) {
	cases := map[string]string{
		"plain text, ünïcode ✓\nsecond line\ttab": "plain text, ünïcode ✓\nsecond line\ttab",
		"\x1b[31mred\x1b[0m":                      `\x1b[31mred\x1b[0m`,
		"bell\a and \r return":                    `bell\x07 and \x0d return`,
		"c1 \u009b31m csi":                        `c1 \x9b31m csi`,
		"bidi \u202eevil\u202c":                   `bidi \u202eevil\u202c`,
		"bad utf8 \xff":                           `bad utf8 \xff`,
	}
	for in, want := range cases {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSelectAndShard(t *testing.T) {
	all, err := Select()
	if err != nil || len(all) != len(Catalog) {
		t.Fatalf("Select() = %d rules, %v", len(all), err)
	}
	got, err := Select(WithRules("policy.*", "args.malformed-json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if !strings.HasPrefix(r.ID, "policy.") && r.ID != "args.malformed-json" {
			t.Errorf("selected %s", r.ID)
		}
	}
	if _, err := Select(WithRules("no.such-rule")); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `unknown rule id "no.such-rule"`) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := Select(WithRules("nothing.*")); err == nil || !strings.Contains(err.Error(), "matches no rule") {
		t.Errorf("empty glob: %v", err)
	}
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		part, err := Select(WithShard(i, 3))
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Select(WithShard(i, 3))
		if !reflect.DeepEqual(part, again) {
			t.Errorf("shard %d/3 is not deterministic", i)
		}
		for _, r := range part {
			seen[r.ID]++
		}
	}
	for _, r := range Catalog {
		if seen[r.ID] != 1 {
			t.Errorf("%s is in %d of 3 shards, want 1", r.ID, seen[r.ID])
		}
	}
	for _, spec := range []string{"0/2", "3/2", "a/b", "1/0", "1", "", "-1/2", "1/2/3"} {
		if _, _, err := ParseShard(spec); err == nil {
			t.Errorf("ParseShard(%q) accepted an impossible shard", spec)
		}
	}
	if i, n, err := ParseShard("2/5"); err != nil || i != 2 || n != 5 {
		t.Errorf("ParseShard(2/5) = %d %d %v", i, n, err)
	}
	for _, s := range []string{"", "smoke", "BRIDGE"} {
		if _, err := ParseTransports(s); err == nil {
			t.Errorf("ParseTransports(%q) accepted", s)
		}
	}
	if ts, _ := ParseTransports("both"); !reflect.DeepEqual(ts, []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP}) {
		t.Errorf("both = %v", ts)
	}
}

func TestARuleWithoutACheckIsNotProbedNeverPassed(t *testing.T) {
	s := &session{cfg: &config{}, memos: map[string]*memoEntry{},
		unavailable: map[glasstest.Transport]string{glasstest.TransportWebMCP: NoWebMCPTools}}
	f := s.check(Rule{ID: "future.rule"}, glasstest.TransportBridge)
	if f.Verdict != NotProbed || f.Message != NoCheckYet {
		t.Errorf("got %s %q, want not probed %q", f.Verdict, f.Message, NoCheckYet)
	}
	f = s.check(Catalog[0], glasstest.TransportWebMCP)
	if f.Verdict != NotProbed || f.Message != NoWebMCPTools {
		t.Errorf("webmcp: got %s %q", f.Verdict, f.Message)
	}
}

func TestAPanickingCheckFailsItsRule(t *testing.T) {
	p := &probe{}
	o := p.safely(func(*probe) outcome { panic("boom") })
	if o.verdict != Fail || !strings.Contains(o.message, "boom") {
		t.Errorf("got %+v", o)
	}
}

func TestBaseline(t *testing.T) {
	b, err := ParseBaseline("known.txt", []byte("# known\npolicy.denied   # JIRA-1\n\nverify.expectation\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.IDs(), []string{"policy.denied", "verify.expectation"}) || b.Reasons["policy.denied"] != "JIRA-1" {
		t.Errorf("baseline = %+v", b)
	}
	for in, want := range map[string]string{
		"no.such-rule\n":                  `line 1: unknown rule id "no.such-rule"`,
		"policy.denied\npolicy.denied\n":  `line 2: "policy.denied" listed twice`,
		"policy.denied policy.no-channel": `want one rule id per line`,
	} {
		if _, err := ParseBaseline("b", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseBaseline(%q) = %v, want %q", in, err, want)
		}
	}
	rep := &Report{Transports: []glasstest.Transport{glasstest.TransportBridge}, Findings: []Finding{
		{Rule: Rule{ID: "policy.denied"}, Verdict: Fail, Message: "it succeeded"},
		{Rule: Rule{ID: "verify.expectation"}, Verdict: Pass},
		{Rule: Rule{ID: "policy.no-channel"}, Verdict: Fail},
	}}
	rep.ApplyBaseline(b)
	if f := rep.Findings[0]; f.Baseline != BaselineExpected || f.Violation() {
		t.Errorf("expected failure: %+v", f)
	}
	if f := rep.Findings[1]; f.Baseline != BaselineStale || !f.Violation() || !strings.Contains(f.Message, "stale baseline entry") {
		t.Errorf("stale entry: %+v", f)
	}
	if f := rep.Findings[2]; f.Baseline != "" || !f.Violation() {
		t.Errorf("unlisted failure: %+v", f)
	}
	if rep.Conforms() || len(rep.Violations()) != 2 {
		t.Errorf("violations = %d", len(rep.Violations()))
	}
}

// hostileReport is a report whose page-provided text carries markup,
// terminal escapes and characters XML 1.0 cannot hold.
func hostileReport() *Report {
	text := "<script>alert(1)</script>\x1b[31mred\x00\x07 ]]> & \"q\" \u202e"
	return &Report{
		URL: "http://127.0.0.1/<b>", Runtime: "evil\x1b[2J", Protocol: receipt.Protocol,
		Transports: []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP},
		Notes:      []string{"note " + text},
		Findings: []Finding{
			{Rule: Rule{ID: "policy.denied", Phase: receipt.PhasePolicy, Must: "MUST deny."}, Transport: glasstest.TransportBridge,
				Verdict: Fail, Message: "failed: " + text, Evidence: []Evidence{{Label: "receipt " + text, Text: `{"description": "` + text + `"}`}}},
			{Rule: Rule{ID: "policy.denied", Phase: receipt.PhasePolicy, Must: "MUST deny."}, Transport: glasstest.TransportWebMCP,
				Verdict: NotProbed, Message: NoWebMCPTools},
			{Rule: Rule{ID: "changed.bounded", Must: "MUST bound."}, Transport: glasstest.TransportBridge, Verdict: Pass},
		},
	}
}

func TestOutputsNeutralisePageText(t *testing.T) {
	rep := hostileReport()

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(text.String(), "\x1b\x00\x07\u202e") {
		t.Errorf("text output carries raw control characters: %q", text.String())
	}
	for _, want := range []string{"\npolicy\n  FAIL        policy.denied [bridge] — failed: <script>", `\x1b[31mred`, "NOT PROBED  policy.denied [webmcp]", "\ngeneral\n  PASS        changed.bounded [bridge]", "MUST: MUST deny."} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, text.String())
		}
	}

	var junit bytes.Buffer
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(&junit)
	dec.Strict = true
	if err := dec.Decode(&suites); err != nil {
		t.Fatalf("junit is not valid XML: %v", err)
	}
	if suites.Tests != 3 || suites.Failures != 1 || suites.Skipped != 1 || len(suites.Suites) != 2 {
		t.Errorf("junit counts: %+v", suites)
	}
	if f := suites.Suites[0].Cases[0].Failure; f == nil || !strings.Contains(f.Message, "<script>alert(1)</script>") || !strings.Contains(f.Text, `\x1b[31mred`) {
		t.Errorf("junit failure should carry the text as data, escapes visible: %+v", f)
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(js.Bytes(), "\x1b\x00\x07") || bytes.Contains(js.Bytes(), []byte("<script>")) {
		t.Error("json output carries raw control characters or markup")
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("json output is not JSON: %v", err)
	}
	if back["conforms"] != false {
		t.Errorf("json conforms = %v", back["conforms"])
	}

	var h bytes.Buffer
	if err := rep.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>alert", "<b>", "\x1b", "\x00", "\x07", "<link", "src=", "href="} {
		if strings.Contains(h.String(), bad) {
			t.Errorf("html report contains %q", bad)
		}
	}
	if !strings.Contains(h.String(), "&lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(h.String(), "<style>") {
		t.Error("html report should show the page's markup escaped, with inline CSS")
	}
}

func TestArtifactsKeepEachViolationsEvidence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "arts")
	if err := hostileReport().WriteArtifacts(dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "policy.denied--bridge", "*"))
	if len(files) != 2 {
		t.Fatalf("want the verdict and one evidence file, got %v", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "changed.bounded--bridge")); err == nil {
		t.Error("a passing rule left artifacts")
	}

	// A failure without evidence and a stale baseline entry still get
	// their verdict.
	dir = filepath.Join(t.TempDir(), "arts")
	rep := &Report{Transports: []glasstest.Transport{glasstest.TransportBridge}, Findings: []Finding{
		{Rule: Rule{ID: "policy.denied", Must: "MUST deny."}, Transport: glasstest.TransportBridge, Verdict: Fail, Message: "it ran"},
		{Rule: Rule{ID: "changed.bounded", Must: "MUST bound."}, Transport: glasstest.TransportBridge, Verdict: Pass,
			Baseline: BaselineStale, Message: "stale baseline entry: the rule passes now; remove it from baseline.txt"},
		{Rule: Rule{ID: "verify.settle", Must: "MUST settle."}, Transport: glasstest.TransportBridge, Verdict: Pass},
	}}
	if err := rep.WriteArtifacts(dir); err != nil {
		t.Fatal(err)
	}
	for sub, want := range map[string]string{
		"policy.denied--bridge":   "it ran\n\nMUST: MUST deny.\n",
		"changed.bounded--bridge": "stale baseline entry: the rule passes now; remove it from baseline.txt\n\nMUST: MUST bound.\n",
	} {
		b, err := os.ReadFile(filepath.Join(dir, sub, "00-verdict.txt"))
		if err != nil || string(b) != want {
			t.Errorf("%s/00-verdict.txt = %q, %v; want %q", sub, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "verify.settle--bridge")); err == nil {
		t.Error("a passing rule left artifacts")
	}
}

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

func TestDataProblems(t *testing.T) {
	var v any
	_ = json.Unmarshal([]byte(`{"items":[1,2,3],"name":"`+strings.Repeat("x", 500)+`…[10 more characters]"}`), &v)
	if pr := dataProblem(v, 0, ""); pr != "" {
		t.Errorf("bounded data judged unbounded: %s", pr)
	}
	long := make([]any, 60)
	if pr := dataProblem(long, 0, ""); !strings.Contains(pr, "/ is an array of 60 entries") {
		t.Errorf("got %q", pr)
	}
	deep := any("x")
	for i := 0; i < 8; i++ {
		deep = []any{deep}
	}
	if pr := dataProblem(deep, 0, ""); !strings.Contains(pr, "nested deeper than 4 levels") {
		t.Errorf("got %q", pr)
	}
	if pr := dataProblem(strings.Repeat("y", 2000), 0, ""); !strings.Contains(pr, "string of 2000 characters") {
		t.Errorf("got %q", pr)
	}
}

func TestClaimsAgainstSnapshots(t *testing.T) {
	if pr := claims("removed", []string{"t9"}, 0, []string{"t9"}); pr != "" {
		t.Error(pr)
	}
	if pr := claims("removed", []string{"t12"}, 0, []string{"t9"}); !strings.Contains(pr, `lists "t12", but the snapshots do not show that change`) {
		t.Errorf("got %q", pr)
	}
	if pr := claims("removed", nil, 0, []string{"t9"}); !strings.Contains(pr, `leaves out "t9" with no omission count`) {
		t.Errorf("got %q", pr)
	}
	if pr := claims("removed", []string{"a"}, 5, []string{"a", "b"}); !strings.Contains(pr, "reports 6 (1 listed + 5 omitted), the snapshots show 2") {
		t.Errorf("got %q", pr)
	}
}

func TestAriaContentDropsLiveRegions(t *testing.T) {
	aria := `- heading "Todo" [level=1]
- list "Tasks":
  - listitem:
    - text: Buy groceries
    - button "Delete Buy groceries"
- status:
  - text: Deleted “Weekly report”
- paragraph: after`
	got := ariaContent(aria)
	if strings.Contains(got, "Weekly report") || !strings.Contains(got, "Buy groceries") || !strings.Contains(got, "paragraph: after") {
		t.Errorf("ariaContent = %q", got)
	}
	rec := receipt.Record{ID: "t1", Fields: map[string]any{"title": "Buy groceries", "tag": "home", "done": false}}
	if v, n := telltale(rec, "Buy groceries home home"); v != "Buy groceries" || n != 1 {
		t.Errorf("telltale = %q %d", v, n)
	}
	if v, _ := telltale(rec, "nothing here"); v != "" {
		t.Errorf("telltale found %q in a page without the record", v)
	}
}

func TestModelDiffNamesWhatChanged(t *testing.T) {
	a := &receipt.Snapshot{Revision: 1, Records: receipt.SnapshotRecords{Total: 2, Items: []receipt.Record{{ID: "t1"}, {ID: "t2"}}},
		Actions: receipt.SnapshotActions{Items: []receipt.ActionInfo{{ID: "remove@t1", Available: true}, {ID: "remove@t2", Available: true}}},
		State:   map[string]any{"filter": "all"}}
	b := &receipt.Snapshot{Revision: 2, Records: receipt.SnapshotRecords{Total: 1, Items: []receipt.Record{{ID: "t2"}}},
		Actions: receipt.SnapshotActions{Items: []receipt.ActionInfo{{ID: "remove@t2", Available: false}}},
		State:   map[string]any{"filter": "done"}}
	got := strings.Join(modelDiff(a, b), "; ")
	for _, want := range []string{"records total 2 → 1", "records removed t1", "actions removed remove@t1", "action remove@t2 available true → false", "state keys changed: filter"} {
		if !strings.Contains(got, want) {
			t.Errorf("modelDiff lacks %q: %s", want, got)
		}
	}
	if d := modelDiff(a, a); len(d) != 0 {
		t.Errorf("a snapshot differs from itself: %v", d)
	}
}

func TestControlNamesFromAnAriaSnapshot(t *testing.T) {
	aria := "- heading \"Notes\" [level=1]\n- list \"Notes\":\n  - listitem:\n    - text: Note 01 home\n    - button \"Delete Note 01\": Delete\n  - link \"Help \\\"me\\\"\" [cursor=pointer]:\n    - /url: /help\n- button \"OK\""
	got := controlNames(aria)
	want := []string{"Delete Note 01", `Help "me"`, "OK"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("controlNames = %q, want %q", got, want)
	}
}

// FuzzParseManifest: any input gives a manifest or one-line error wrapping
// ErrManifest, never a panic.
func FuzzParseManifest(f *testing.F) {
	for _, seed := range []string{
		"version: 1\nargs:\n  add: {title: x}\nskip: [\"pay@*\"]\n",
		"expectationFailures:\n  - action: a\n    url: /?fault=x\n",
		`{"flowFailures": [{"action": "edit", "step": 2}], "handoffs": [{"action": "v", "outcome": "failed"}]}`,
		"args: [unclosed", "- 1\n- 2", "", "version: 2", "args:\n  a: !!binary aGk=\n", "? [a]\n: b\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest("fuzz", data)
		if err != nil {
			if !errors.Is(err, ErrManifest) {
				t.Errorf("error does not wrap ErrManifest: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			return
		}
		if m == nil {
			t.Fatal("nil manifest without an error")
		}
		if _, err := json.Marshal(m); err != nil {
			t.Errorf("a valid manifest does not marshal: %v", err)
		}
	})
}

func TestHandoffTargetsLeaveOutSkippedHandoffsUnlessTheManifestNamesThem(t *testing.T) {
	snap, err := receipt.DecodeSnapshot([]byte(`{"protocol":"glass.page/v1","revision":0,
		"page":{"id":"p","url":"http://127.0.0.1/","title":"p"},
		"records":{"total":0,"items":[],"omitted":0},
		"actions":{"items":[
			{"id":"sign","description":"Sign","kind":"handoff","risk":"dangerous","confirm":false,"params":{"type":"object","properties":{}},"available":true},
			{"id":"verify","description":"Verify","kind":"handoff","risk":"write","confirm":false,"params":{"type":"object","properties":{}},"available":true}],
			"omitted":0},
		"state":{},"feedback":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	targets := func(m *Manifest) (ids, why []string) {
		p := &probe{s: &session{base: snap, cfg: &config{manifest: m}, memos: map[string]*memoEntry{}}}
		ts, why := p.handoffTargets()
		for _, h := range ts {
			ids = append(ids, h.action.ID)
		}
		return ids, why
	}
	if ids, _ := targets(&Manifest{}); !slices.Equal(ids, []string{"sign", "verify"}) {
		t.Errorf("without a manifest: %q, want both hand-offs", ids)
	}
	m, err := ParseManifest("m.yaml", []byte("version: 1\nskip: [sign, verify]\nhandoffs:\n  - action: verify\n    outcome: completed\n"))
	if err != nil {
		t.Fatal(err)
	}
	ids, why := targets(m)
	if !slices.Equal(ids, []string{"verify"}) {
		t.Errorf("sign and verify skipped, verify named under handoffs: %q, want only the named verify", ids)
	}
	if !slices.Contains(why, "sign: skipped by the manifest") {
		t.Errorf("why = %q, want it to say sign was skipped", why)
	}
}
