package conformance

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/sdk"
)

// TestAPageWithAClockConforms: the Todo example with a clock in its header
// that ticks four times a second, outside the page model (?fault=clock),
// still passes the rules whose probes compare the page before and after a
// call that must change nothing, and verify.settle, whose wait for the
// page to go quiet a clock never ends; the report names the clock. Before
// the run watched what an idle page changes by itself, an outside
// adopter's page with a one-second clock failed three to six of these
// rules at random.
func TestAPageWithAClockConforms(t *testing.T) {
	t.Parallel()
	rules := []string{"policy.denied", "args.malformed-json", "args.invalid-params", "resolve.no-dom-fallback", "pipeline.no-effect-before-dispatch", "verify.settle"}
	rep, err := Run(Target{URL: serve(t, app.Handler()) + "/?fault=clock", Browser: browser(t)},
		WithManifest(todoManifest(t)), WithRules(rules...))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Verdict != Pass {
			t.Errorf("%s is %s on the page with a clock: %s", f.Rule.ID, f.Verdict, f.Message)
		}
	}
	if strings.Contains(strings.Join(rep.Notes, "\n"), "page model changed with no call in flight") {
		t.Errorf("a note says the Todo page's model changed by itself: %q", rep.Notes)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "(#clock)") {
		t.Errorf("no note names the clock the page changes by itself: %q", rep.Notes)
	}
	logReport(t, rep)
}

// lateDataPage defines its model at once and shows its three rows a
// second after its model is first read, as a page that calls define
// before its fetch has answered (timed from the first read, not from the
// load, so that a slow open on a loaded machine cannot miss it).
const lateDataPage = `<!doctype html><meta charset="utf-8"><title>Loans</title>
<ul id="list"></ul>
<script src="/glass-runtime.js"></script>
<script>
let loading = false;
const load = () => {
  if (loading) return;
  loading = true;
  setTimeout(() => {
    for (const id of ["l1", "l2", "l3"]) {
      const li = document.createElement("li");
      li.id = id;
      li.textContent = "Loan " + id;
      document.getElementById("list").append(li);
    }
  }, 1000);
};
glassRuntime.define({
  page: () => ({ id: "loans", title: document.title }),
  records: () => { load(); return [...document.querySelectorAll("#list li")].map((li) => ({ id: li.id, title: li.textContent })); },
  actions: () => [],
});
</script>`

// TestAPageWhoseDataArrivesAfterItsModelGetsANote: a page that defines
// its model before its data has loaded changes its model with no call in
// flight; the report's notes say so and point to docs/runtime.md (an
// outside adopter's page failed rules at random, and one of them blamed
// the host).
func TestAPageWhoseDataArrivesAfterItsModelGetsANote(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, lateDataPage)
	})
	rep, err := Run(Target{URL: serve(t, mux), Browser: browser(t)}, WithRules("protocol.global"))
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "the page model changed with no call in flight after the page was ready (records total 0 → 3") || !strings.Contains(notes, "docs/runtime.md") {
		t.Errorf("no note says the page model changed by itself: %q", rep.Notes)
	}
}
