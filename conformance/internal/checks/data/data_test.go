package data

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

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
	var four, five any
	_ = json.Unmarshal([]byte(`{"a":{"b":{"c":{"d":"[object of 1 keys omitted]"}}}}`), &four)
	if pr := dataProblem(four, 0, ""); pr != "" {
		t.Errorf("four levels of containers judged too deep: %s", pr)
	}
	_ = json.Unmarshal([]byte(`{"a":{"b":{"c":{"d":{"e":"[object of 1 keys omitted]"}}}}}`), &five)
	if pr := dataProblem(five, 0, ""); !strings.Contains(pr, "/a/b/c/d is an object at depth 4") {
		t.Errorf("five levels of containers: got %q", pr)
	}
	if pr := dataProblem(strings.Repeat("y", 2000), 0, ""); !strings.Contains(pr, "string of 2000 characters") {
		t.Errorf("got %q", pr)
	}
}

func TestEchoMarkers(t *testing.T) {
	good := map[string]any{}
	_ = json.Unmarshal([]byte(`{
  "glassProbeText": "`+strings.Repeat("g", 500)+`…[100 more characters]",
  "glassProbeItems": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"[10 more items]"],
  "glassProbeKeys": {"k01":1,"k02":2,"k03":3,"k04":4,"k05":5,"k06":6,"k07":7,"k08":8,"k09":9,"k10":10,
    "k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18,"k19":19,"k20":20,"…":"[25 more keys]"}}`), &good)
	if pr := echoMarkersProblem(good); pr != "" {
		t.Errorf("markers that count what was left out judged wrong: %s", pr)
	}
	bad := map[string]any{}
	for k, v := range good {
		bad[k] = v
	}
	keys := map[string]any{}
	for k, v := range good["glassProbeKeys"].(map[string]any) {
		keys[k] = v
	}
	keys["…"] = "[45 more keys]"
	bad["glassProbeKeys"] = keys
	if pr := echoMarkersProblem(bad); !strings.Contains(pr, "does not say the 25 keys left out") {
		t.Errorf("a marker that counts every key: got %q", pr)
	}
}

// TestDeepMarkersStandAtDepthFour: an object or array nested past the
// bound becomes a marker at depth 4, not sooner (depth counts from data
// itself, at 0).
func TestDeepMarkersStandAtDepthFour(t *testing.T) {
	for _, c := range []struct {
		name, doc, want string
	}{
		{"at depth 4", `{"glassProbeDeep":{"a":{"b":{"c":"[object of 1 key omitted]"}}},"glassProbeDeepList":[[["[array of 3 items omitted]"]]]}`, ""},
		{"an object cut at depth 3", `{"glassProbeDeep":{"a":{"b":"[object of 1 key omitted]"}}}`, "/glassProbeDeep/a/b, an object at depth 3, became"},
		{"an array cut at depth 2", `{"glassProbeDeepList":["[array of 1 item omitted]"]}`, "/glassProbeDeepList/0, an array at depth 2"},
		{"at depth 1", `{"glassProbeDeep":"[object of 1 key omitted]"}`, "/glassProbeDeep, an object at depth 1"},
	} {
		var data map[string]any
		if err := json.Unmarshal([]byte(c.doc), &data); err != nil {
			t.Fatal(err)
		}
		got := deepMarkersProblem(data)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFailureAuditJudgesEachFailureOnceAsItComes: the audit of failed
// receipts judges the failures the run saw since it last looked, each
// once, skips successes and the harness's own receipts, and stops at the
// first failure its judge refuses.

// TestCutsAreCountedInCharacters judges cuts as runtimes write them, in
// JSON: a string of emoji cut by UTF-16 code units keeps half the
// characters it should and says so wrongly, or splits one.
func TestCutsAreCountedInCharacters(t *testing.T) {
	emoji := `\ud83d\ude00`
	cases := []struct {
		name, json, want string
	}{
		{"whole characters, counted", `"g` + strings.Repeat(emoji, 499) + `…[100 more characters]"`, ""},
		{"cut by code units", `"g` + strings.Repeat(emoji, 249) + `\ud83d…[700 more characters]"`, "is cut inside its character 251"},
		{"counted in code units", `"` + strings.Repeat(emoji, 250) + `…[699 more characters]"`, "keeps its first 0"},
		{"not cut", `"g` + strings.Repeat(emoji, echoChars-1) + `"`, "keeps all of them"},
		{"no marker", `"g` + strings.Repeat(emoji, 10) + `"`, "was cut to 11 with nothing saying so"},
	}
	for _, c := range cases {
		var got string
		if err := json.Unmarshal([]byte(c.json), &got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pr := cutProblem(echoWide, wideText(), got)
		if c.want == "" && pr != "" || c.want != "" && !strings.Contains(pr, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, pr, c.want)
		}
	}
}

func TestTheGrowProbeReadsWidestArgumentsAndSeesTheBound(t *testing.T) {
	a := receipt.ActionInfo{ID: "search", Params: json.RawMessage(`{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","maxLength":200},
		"code":{"type":"string","minLength":3},
		"kind":{"type":"string","enum":["a","b"]},
		"limit":{"type":"integer","minimum":1,"maximum":50.5},
		"page":{"type":"integer"}}}`)}
	got := widest(a, map[string]any{"query": "glass probe", "code": "abc", "kind": "a", "limit": 10, "page": 2})
	want := map[string]any{"query": "", "code": "abc", "kind": "a", "limit": 50.0, "page": 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("widest: got %v, want %v", got, want)
	}
	var list, cut, nested any
	_ = json.Unmarshal([]byte(`{"tasks":[{"id":"t1"}]}`), &list)
	_ = json.Unmarshal([]byte(`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"[2 more items]"]`), &cut)
	_ = json.Unmarshal([]byte(`{"a":{"b":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21]}}`), &nested)
	if !holdsList(list) || holdsList(map[string]any{"n": 1.0}) {
		t.Error("holdsList")
	}
	if reachedBound(list) || !reachedBound(cut) || !reachedBound(nested) {
		t.Error("reachedBound")
	}
}
