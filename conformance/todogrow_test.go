package conformance

import (
	"bytes"
	"testing"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/sdk"
)

// TestTodoExampleCatchesDataPastTheBound: the Todo example holds fewer
// tasks than a receipt's data may list, so its search reaches the bound
// of result.data only once the grow probe of data.bounded has added
// tasks. The reference runtime with its bound moved by one, or ignored,
// fails data.bounded there (an outside audit's variant of an independent
// runtime cut lists after 21 entries and passed every rule before).
func TestTodoExampleCatchesDataPastTheBound(t *testing.T) {
	t.Parallel()
	for _, m := range []struct{ name, find, replace string }{
		{"a list cut after 21 entries", `const out = v.slice(0, DATA_BOUNDS.items).map(`, `const out = v.slice(0, DATA_BOUNDS.items + 1).map(`},
		{"a list never cut", `const out = v.slice(0, DATA_BOUNDS.items).map(`, `const out = v.slice().map(`},
	} {
		t.Run(m.name, func(t *testing.T) {
			src := sdk.Runtime()
			if n := bytes.Count(src, []byte(m.find)); n != 1 {
				t.Fatalf("%q occurs %d times in the reference runtime, want once", m.find, n)
			}
			runtime := bytes.Replace(src, []byte(m.find), []byte(m.replace), 1)
			rep, err := Run(Target{URL: serve(t, mutants.WithRuntime(runtime, app.Handler())), Browser: browser(t)},
				WithManifest(todoManifest(t)), WithRules("data.bounded"))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) != 1 || rep.Findings[0].Verdict != Fail {
				t.Errorf("want data.bounded to fail, got %+v", rep.Findings)
			}
			logReport(t, rep)
		})
	}
}
