package matchers_test

import (
	"strings"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

func TestHaveChanged(t *testing.T) {
	twenty := `["t13" "t14" "t15" "t16" "t17" "t18" "t19" "t20" "t21" "t22" "t23" "t24" "t25" "t26" "t27" "t28" "t29" "t30" "t31" "t32"]`
	runCases(t, []matcherCase{
		{
			name:    "the seed's walkthrough holds",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(Records(Removed("t9"), Total(12, 11)), Actions(Removed("remove@t9"))),
			match:   true,
			message: `not to have changed records(removed ["t9"], total 12→11), actions(removed ["remove@t9"]), but it did`,
		},
		{
			name:    "a record that was not removed",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(Records(Removed("t8"))),
			message: `to have changed records(removed ["t8"]), but:
    - changed.records.removed: "t8" is not listed in ["t9"]`,
		},
		{
			name:    "every failing part is reported, not just the first",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(Records(Removed("t8"), Total(12, 10)), Actions(Added("remove@t13"))),
			message: `to have changed records(removed ["t8"], total 12→10), actions(added ["remove@t13"]), but:
    - changed.records.removed: "t8" is not listed in ["t9"]
    - changed.records.total is 12→11, want 12→10
    - changed.actions.added: "remove@t13" is not listed in []`,
		},
		{
			name:    "an id that may be hidden by the omission count says so",
			fixture: "bounded-full",
			matcher: HaveChanged(Records(Added("t37"))),
			message: `to have changed records(added ["t37"]), but:
    - changed.records.added: "t37" is not listed in ` + twenty + `, but 5 more entries were omitted: it may be among them`,
		},
		{
			name:    "a matcher that may match an omitted entry says so",
			fixture: "bounded-full",
			matcher: HaveChanged(Actions(Added(HaveSuffix("@t99")))),
			message: `to have changed actions(added [HaveSuffix(…)]), but:
    - changed.actions.added: no entry matches HaveSuffix(…) in ` + strings.ReplaceAll(twenty, `"t`, `"remove@t`) + `, but 5 more entries were omitted: it may be among them`,
		},
		{
			name:    "ids as matchers",
			fixture: "bounded-full",
			matcher: HaveChanged(Records(Added(HavePrefix("t1"), "t32"), Total(12, 37))),
			match:   true,
			message: `not to have changed records(added [HavePrefix(…) "t32"], total 12→37), but it did`,
		},
		{
			name:    "an updated record with a field",
			fixture: "flow-ok",
			matcher: HaveChanged(Records(Updated("t3", "done"), Updated("t5", ContainElement("title")))),
			match:   true,
			message: `not to have changed records(updated "t3" with fields ["done"], updated "t5" with fields [ContainElement(…)]), but it did`,
		},
		{
			name:    "an updated record without the field",
			fixture: "flow-ok",
			matcher: HaveChanged(Records(Updated("t5", "done"))),
			message: `to have changed records(updated "t5" with fields ["done"]), but:
    - changed.records.updated["t5"].fields: "done" is not among ["priority" "title"]`,
		},
		{
			name:    "a record that was not updated",
			fixture: "flow-ok",
			matcher: HaveChanged(Records(Updated("t4"))),
			message: `to have changed records(updated "t4"), but:
    - changed.records.updated: "t4" is not listed in ["t3"["done"] "t5"["priority" "title"]]`,
		},
		{
			name:    "reordered, state keys and feedback both ways",
			fixture: "flow-ok",
			matcher: HaveChanged(Records(Reordered()), State("filter", "selection"), Feedback(Added(ContainSubstring("done")), Removed("3 tasks match “dentist”"))),
			match:   true,
			message: `not to have changed records(reordered), state ["filter" "selection"], feedback(added [ContainSubstring(…)], removed ["3 tasks match “dentist”"]), but it did`,
		},
		{
			name:    "not reordered",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(Records(Reordered())),
			message: `to have changed records(reordered), but:
    - changed.records.reordered is false`,
		},
		{
			name:    "a state key that did not change",
			fixture: "flow-ok",
			matcher: HaveChanged(State("sort")),
			message: `to have changed state ["sort"], but:
    - changed.state.changed: "sort" is not listed in ["filter" "selection"]`,
		},
		{
			name:    "no state changed",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(State()),
			message: `to have changed state, but:
    - changed.state is absent: no state key changed`,
		},
		{
			name:    "feedback by kind and text",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(Feedback(Added(receipt.Feedback{Kind: "error", Text: "Deleted “Weekly report”"}))),
			message: `to have changed feedback(added [error "Deleted “Weekly report”"]), but:
    - changed.feedback.added: error "Deleted “Weekly report”" is not listed in [success "Deleted “Weekly report”"]`,
		},
		{
			name:    "no feedback changed",
			fixture: "element-low-fidelity",
			matcher: HaveChanged(Feedback(), Actions(Removed("remove@t3"))),
			message: `to have changed feedback, actions(removed ["remove@t3"]), but:
    - changed.feedback is absent: no feedback appeared or went away
    - changed.actions is absent: no action appeared or disappeared`,
		},
		{
			name:    "something was added, with no ids",
			fixture: "flow-ok",
			matcher: HaveChanged(Actions(Added())),
			match:   true,
			message: `not to have changed actions(added), but it did`,
		},
		{
			name:    "nothing was added",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(Records(Added())),
			message: `to have changed records(added), but:
    - changed.records.added is empty`,
		},
		{
			name:    "no records changed",
			fixture: "flow-step-failed",
			matcher: HaveChanged(Records()),
			message: `to have changed records, but:
    - changed.records is absent: no record changed`,
		},
		{
			name:    "nothing changed, as expected",
			fixture: "write-no-change",
			matcher: HaveChanged(NothingChanged()),
			match:   true,
			message: `to have changed something, but changed.observed is false: the page model did not change`,
		},
		{
			name:    "nothing changed, but something did",
			fixture: "remove-t9-approved",
			matcher: HaveChanged(NothingChanged()),
			message: `to have changed nothing, but:
    - changed.observed is true: records, actions and feedback changed`,
		},
		{
			name:    "something changed, with no parts",
			fixture: "flow-step-failed",
			matcher: HaveChanged(),
			match:   true,
			message: `not to have changed something, but it did`,
		},
		{
			name:    "nothing changed, with no parts",
			fixture: "write-no-change",
			matcher: HaveChanged(),
			message: `to have changed something, but:
    - changed.observed is false: the page model did not change`,
		},
		{
			name:    "no changed object at all",
			fixture: "denied",
			matcher: HaveChanged(Records(Removed("t9"))),
			message: `to have changed records(removed ["t9"]), but:
    - changed is absent: the runtime compared no snapshots for this call`,
		},
	})
}

func TestHaveChangedFieldMatcherMessage(t *testing.T) {
	fields := ConsistOf("done", "title")
	m := HaveChanged(Records(Updated("t3", fields)))
	ok, err := m.Match(fixture(t, "flow-ok"))
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	// The nested matcher's own message, indented under its path.
	nested := strings.ReplaceAll(fields.FailureMessage([]string{"done"}), "\n", "\n      ")
	want := header(decoded(t, "flow-ok")) + `
to have changed records(updated "t3" with fields [ConsistOf(…)]), but:
    - changed.records.updated["t3"].fields:
      ` + nested
	if got := stable(m.FailureMessage(nil)); got != want {
		t.Errorf("message:\n%s\nwant:\n%s", got, want)
	}
}

func TestHaveChangedErrors(t *testing.T) {
	r := fixture(t, "flow-ok")
	runErrors(t, []errorCase{
		{"an id of the wrong type", HaveChanged(Records(Added(9))), r, `HaveChanged matcher: records(added [9]): 9: want a string or a Gomega matcher, got int`},
		{"a field of the wrong type", HaveChanged(Records(Updated("t3", 1))), r, `HaveChanged matcher: records(updated "t3" with fields [1]): field 1: want a string or a Gomega matcher, got int`},
		{"feedback of the wrong type", HaveChanged(Feedback(Added(true))), r, `HaveChanged matcher: feedback(added [true]): true: want a string or a Gomega matcher, got bool`},
		{"a matcher that cannot take a string", HaveChanged(State(BeNumerically(">", 1))), r, `HaveChanged matcher: state [BeNumerically(…)]: BeNumerically(…): Expected a number.  Got:
    <string>: filter`},
	})
}
