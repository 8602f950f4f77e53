package surface_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass/surface"
)

// caseSurface is one side ("baseline" or "live") of a case file of
// testdata/diff: two surfaces, decoded strictly as surface files are.
func caseSurface(t *testing.T, file, side string) *surface.Surface {
	t.Helper()
	var pair map[string]json.RawMessage
	if err := json.Unmarshal(read(t, file), &pair); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	s, err := surface.Decode(pair[side])
	if err != nil {
		t.Fatalf("%s %s: %v", file, side, err)
	}
	return s
}

// The classification, case by case: testdata/diff/<name>.json holds a
// baseline and a live surface that differ in one thing, and want is the
// report's lines (docs/surface.md quotes them). Every line names the
// action and what changed.
var diffCases = []struct {
	name string
	want []string
}{
	// Breaking: a call that worked fails, or a call that asked no longer asks.
	{"action-removed", []string{"BREAKING      export: action removed: an agent that calls it fails"}},
	{"tool-removed", []string{"BREAKING      remove: tool of the rows remove@<record> removed: an agent that calls it fails"}},
	{"risk-lowered", []string{"BREAKING      remove: risk lowered from dangerous to write: a call no longer asks the user"}},
	{"risk-lowered-still-asks", []string{"BREAKING      remove: risk lowered from dangerous to write: a call still asks the user, but agents and the user are told it is a write"}},
	{"risk-lowered-to-read", []string{"BREAKING      add: risk lowered from write to read: agents may call it as a read, without asking"}},
	{"confirm-dropped", []string{"BREAKING      login: confirm changed from true to false: a call no longer asks the user"}},
	{"handoff-automated", []string{"BREAKING      verify-identity: kind changed from handoff to function: the user no longer performs it, the page runs it for the agent"}},
	{"now-a-handoff", []string{"BREAKING      add: kind changed from element to handoff: a call now waits for the user to perform it"}},
	{"param-now-required", []string{"BREAKING      add: parameter priority is now required: a call without it is refused"}},
	{"param-new-required", []string{"BREAKING      add: new required parameter due: a call without it is refused"}},
	{"param-removed", []string{"BREAKING      add: parameter priority removed: a call that passes it is refused"}},
	{"param-type-changed", []string{"BREAKING      add: parameter title: type changed from string to integer: a value of type string is refused"}},
	{"enum-lost-value", []string{`BREAKING      add: parameter priority: lost the enum value "high": a call with it is refused`}},
	{"pattern-added", []string{`BREAKING      add: parameter title: now has the pattern "^[A-Z]": values it does not allow are refused`}},
	{"max-lowered", []string{"BREAKING      add: parameter title: maxLength lowered from 200 to 100: longer values are refused"}},
	{"min-raised", []string{"BREAKING      login: parameter password: minLength raised from 8 to 12: shorter values are refused"}},
	{"undeclared-refused", []string{"BREAKING      login: the arguments: undeclared members are now refused"}},
	{"no-longer-sensitive", []string{"BREAKING      login: parameter password is no longer sensitive: its value is shown in confirmation and hand-off requests"}},
	{"steps-reordered", []string{"BREAKING      edit: the flow's steps changed order from [edit.open, edit.title, edit.save] to [edit.open, edit.save, edit.title]"}},
	{"step-lost", []string{`BREAKING      edit: the flow lost the step "edit.title": steps [edit.open, edit.title, edit.save] are now [edit.open, edit.save]`}},
	{"now-step-only", []string{"BREAKING      edit.save: now step-only: an agent can no longer call it, only a flow can"}},
	{"expectation-removed", []string{`BREAKING      remove: expectation "The task is no longer in the list" removed: a successful receipt no longer says the effect was seen`}},
	{"opaque-keyword", []string{`BREAKING      add: parameter title: its oneOf changed from none to [{"maxLength":20},{"pattern":"^T"}]: Glass cannot tell whether it still accepts what it accepted`}},
	{"protocol-changed", []string{`BREAKING      page: protocol changed from "glass.page/v1" to "glass.page/v2": hosts of "glass.page/v1" cannot call the page`}},

	// Needs review: the page may behave differently, nothing that worked fails.
	{"risk-raised", []string{"NEEDS REVIEW  add: risk raised from write to dangerous: a call now asks the user"}},
	{"now-asks", []string{"NEEDS REVIEW  add: confirm changed from false to true: a call now asks the user"}},
	{"description-changed", []string{`NEEDS REVIEW  add: description changed from "Add a task" to "Add a task to the list"`}},
	{"param-new-optional", []string{"NEEDS REVIEW  add: new optional parameter notes"}},
	{"param-widened", []string{"NEEDS REVIEW  add: parameter title: maxLength raised from 200 to 500"}},
	{"enum-gained-value", []string{`NEEDS REVIEW  add: parameter priority: gained the enum value "urgent"`}},
	{"param-no-longer-required", []string{"NEEDS REVIEW  edit: parameter title is no longer required"}},
	{"type-widened", []string{"NEEDS REVIEW  add: parameter title: type widened from string to null or string"}},
	{"default-changed", []string{`NEEDS REVIEW  add: parameter priority: default changed from "normal" to "low": a call that leaves it out behaves differently`}},
	{"fidelity-lowered", []string{"NEEDS REVIEW  remove: fidelity lowered from high to low: the runtime now drives the control with less certainty that the app saw it"}},
	{"now-sensitive", []string{"NEEDS REVIEW  login: parameter user is now sensitive: its value is masked in confirmation and hand-off requests"}},
	{"steps-gained", []string{"NEEDS REVIEW  edit: the flow gained steps: [edit.open, edit.title, edit.save] are now [edit.open, edit.title, edit.priority, edit.save]"}},
	{"no-longer-step-only", []string{"NEEDS REVIEW  edit.save: no longer step-only: an agent can now call it directly, outside its flow"}},
	{"idempotent-dropped", []string{"NEEDS REVIEW  export: no longer idempotent: a failure is never retry_safe"}},
	{"expectation-changed", []string{`NEEDS REVIEW  remove: expectation changed from "The task is no longer in the list" to "The task is gone"`}},
	{"kind-changed", []string{
		"NEEDS REVIEW  export: kind changed from function to element",
		"NEEDS REVIEW  export: fidelity is now high (none was assigned)",
	}},
	{"now-a-flow", []string{
		"NEEDS REVIEW  export: kind changed from element to flow",
		"NEEDS REVIEW  export: fidelity high is no longer assigned: a flow has no target of its own, so no fidelity",
	}},
	{"record-ids-fixed", []string{"NEEDS REVIEW  edit: parameter task: now an enum of 3 fixed values, no longer the page's record ids"}},
	{"page-title-changed", []string{`NEEDS REVIEW  page: title changed from "Todo" to "Todos"`}},

	// Additive: something new; nothing an agent used changed.
	{"action-added", []string{"ADDITIVE      archive: new action (function, write)"}},
	{"tool-added", []string{"ADDITIVE      star: new tool of the rows star@<record> (element, write)"}},
	{"step-only-rows-added", []string{"ADDITIVE      star: new step-only rows star@<record> (element, write)"}},

	// No difference: a reordered enum is the same set of values.
	{"identical", nil},
	{"enum-reordered", nil},
}

func TestCompareClassifiesEveryKindOfChange(t *testing.T) {
	files, _ := filepath.Glob("testdata/diff/*.json")
	covered := map[string]bool{}
	for _, c := range diffCases {
		covered[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join("testdata", "diff", c.name+".json")
			rep := surface.Compare(caseSurface(t, file, "baseline"), caseSurface(t, file, "live"))
			var got []string
			for _, l := range strings.Split(strings.TrimRight(rep.Text(), "\n"), "\n") {
				if strings.HasPrefix(l, "  ") {
					got = append(got, strings.TrimPrefix(l, "  "))
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("%s:\ngot\n%s\nwant\n%s", file, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			breaking := len(c.want) > 0 && strings.HasPrefix(c.want[0], "BREAKING")
			if rep.Breaking() != breaking {
				t.Errorf("Breaking() = %v, want %v", rep.Breaking(), breaking)
			}
		})
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !covered[name] {
			t.Errorf("%s is a case no row of diffCases checks", f)
		}
	}
}

// TestCompareSortsBySeverityAndSummarises: several changes at once come
// out breaking first, then needs review, then additive, and the summary
// counts them.
func TestCompareSortsBySeverityAndSummarises(t *testing.T) {
	old := caseSurface(t, "testdata/diff/identical.json", "baseline")
	cur := caseSurface(t, "testdata/diff/identical.json", "live")
	for i := range cur.Actions {
		switch cur.Actions[i].Name {
		case "add":
			cur.Actions[i].Description = "Add a task to the list"
		case "remove":
			cur.Actions[i].Confirm = false
		}
	}
	cur.Actions = append(cur.Actions, surface.Action{Name: "zzz", Description: "new", Kind: "function", Risk: "read"})
	rep := surface.Compare(old, cur)
	want := `  BREAKING      remove: confirm changed from true to false: a call no longer asks the user
  NEEDS REVIEW  add: description changed from "Add a task" to "Add a task to the list"
  ADDITIVE      zzz: new action (function, read)

1 breaking, 1 needs review, 1 additive
`
	if rep.Text() != want {
		t.Errorf("report:\n%s\nwant:\n%s", rep.Text(), want)
	}
	if rep.Matches() {
		t.Error("Matches() holds with a breaking difference")
	}
	if got := surface.Compare(old, old).Text(); got != "no differences\n" {
		t.Errorf("a surface against itself: %q", got)
	}
}

// TestAdditiveAloneMatches: a new action leaves the baseline standing
// (Matches), and is still reported.
func TestAdditiveAloneMatches(t *testing.T) {
	rep := surface.Compare(caseSurface(t, "testdata/diff/action-added.json", "baseline"), caseSurface(t, "testdata/diff/action-added.json", "live"))
	if !rep.Matches() || rep.Breaking() || rep.Count(surface.Additive) != 1 {
		t.Errorf("Matches %v, Breaking %v, additive %d; want true, false, 1", rep.Matches(), rep.Breaking(), rep.Count(surface.Additive))
	}
}

// TestPageTextNeverStartsALine: a description with a newline and terminal
// escapes is shown escaped, on the line of its difference.
func TestPageTextNeverStartsALine(t *testing.T) {
	old := caseSurface(t, "testdata/diff/description-changed.json", "baseline")
	cur := caseSurface(t, "testdata/diff/description-changed.json", "live")
	cur.Actions[0].Description = "Add\n  BREAKING      fake: \x1b[31mred\u202e"
	cur.Actions[0].Name = "add"
	text := surface.Compare(old, cur).Text()
	want := `  NEEDS REVIEW  add: description changed from "Add a task" to "Add\n  BREAKING      fake: \x1b[31mred\u202e"` + "\n"
	if !strings.HasPrefix(text, want) {
		t.Errorf("report:\n%q\nwant it to start with\n%q", text, want)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "fake") && !strings.HasPrefix(l, "  NEEDS REVIEW") {
			t.Errorf("page text starts a line: %q", l)
		}
	}
}

func TestClassRoundTripsAsJSON(t *testing.T) {
	for _, c := range surface.Classes {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back surface.Class
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("%s: round trip gave %q, %v", c, back, err)
		}
	}
	var c surface.Class
	if err := json.Unmarshal([]byte(`"minor"`), &c); err == nil || err.Error() != `surface: unknown class "minor"` {
		t.Errorf("unmarshal of an unknown class: %v", err)
	}
	if _, err := json.Marshal(surface.Class("minor")); err == nil {
		t.Error("an unknown class marshals")
	}
}

// TestTwoIdsThatShowAlikeElsewhereShowApart: an action whose id holds the
// text of an escape and one whose id holds the real character are told
// apart in a difference's line (SECURITY.md: an id cannot pass for
// another), and so are two such descriptions.
func TestTwoIdsThatShowAlikeElsewhereShowApart(t *testing.T) {
	real := surface.Difference{Class: surface.Additive, Action: "pay\u202eyap", Field: "action", Change: "new action"}
	typed := surface.Difference{Class: surface.Additive, Action: `pay\u202eyap`, Field: "action", Change: "new action"}
	if a, b := real.String(), typed.String(); a == b || a != `pay\u202eyap: new action` || b != `pay\\u202eyap: new action` {
		t.Errorf("the two differences show as %q and %q", a, b)
	}
	old := caseSurface(t, "testdata/diff/description-changed.json", "baseline")
	cur := caseSurface(t, "testdata/diff/description-changed.json", "live")
	cur.Actions[0].Name = "add"
	cur.Actions[0].Description = "x\u202ey"
	a := surface.Compare(old, cur).Text()
	cur.Actions[0].Description = `x\u202ey`
	if b := surface.Compare(old, cur).Text(); a == b || !strings.Contains(b, `"x\\u202ey"`) {
		t.Errorf("two descriptions show as\n%s\nand\n%s", a, b)
	}
}
