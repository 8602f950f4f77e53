package conformance

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/glassworks/glass/fixtures"
	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/sdk"
)

// TestARuntimeThatNeverAnswersCostsAFewBoundedWaits runs every rule
// against a runtime whose execute never settles: the run ends, every rule
// FAIL or NOT PROBED with a reason, within a few call bounds for the
// whole run, not one per rule (SECURITY.md: a page cannot hang the suite).
func TestARuntimeThatNeverAnswersCostsAFewBoundedWaits(t *testing.T) {
	const bound = time.Second
	url := serve(t, faults.Handler()) + "never-answers.html"
	// What opening one page costs on this machine now: a loaded machine
	// (CI runs the mutation matrix beside this test) makes every probe's
	// page slower, which no call bound explains.
	b := browser(t)
	var perPage time.Duration
	for range 2 { // the second open, in a browser that has started
		open := time.Now()
		pg, err := glasstest.OpenPage(b, url)
		if err != nil {
			t.Fatal(err)
		}
		pg.Close()
		perPage = time.Since(open)
	}
	start := time.Now()
	rep, err := Run(Target{URL: url, Browser: b}, WithCallTimeout(bound))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, f := range rep.Findings {
		if f.Verdict == Fail {
			failed = append(failed, f.Rule.ID)
		}
		if f.Verdict == Pass {
			continue
		}
		if f.Message == "" {
			t.Errorf("%s is %s without a reason", f.Rule.ID, f.Verdict)
		}
	}
	if rep.Count(Fail) == 0 {
		t.Errorf("no rule fails against a runtime that never answers")
	}
	// Once six calls have ended at the bound with no answer, the rules not
	// yet checked are not probed, and protocol.receipt fails: execute
	// never resolves.
	if !slices.Contains(failed, "protocol.receipt") {
		t.Errorf("protocol.receipt does not fail against a runtime whose execute never resolves")
	}
	// The probes running when the runtime is taken as silent finish
	// (their later calls wait a quarter of a second each); the probes run
	// DefaultParallel at a time. Twenty bounds, and the pages of the probes at this
	// machine's speed: far from one bound per rule (73 rules).
	if limit := 20*bound + 30*perPage; took > limit {
		t.Errorf("the run took %s, over %s (20 call bounds and 30 page opens of %s)", took, limit, perPage.Round(time.Millisecond))
	}
	t.Logf("%d rules in %s (a page opened in %s): %d failed (%s), %d not probed", len(rep.Findings), took.Round(time.Second), perPage.Round(time.Millisecond), rep.Count(Fail), strings.Join(failed, ", "), rep.Count(NotProbed))
}

// TestARuntimeWhoseMembersSpinEndsTheRunInItsSetUp: a runtime whose
// members spin (a getter that never returns, holding the page's one
// thread) cannot hang the set-up, which reads them: the run ends with a
// set-up error that says so, and closing the spinning page does not hang.
func TestARuntimeWhoseMembersSpinEndsTheRunInItsSetUp(t *testing.T) {
	url := serve(t, faults.Handler()) + "spinning-member.html"
	done := make(chan error, 1)
	go func() {
		_, err := Run(Target{URL: url, Browser: browser(t)}, WithCallTimeout(time.Second), WithRules("protocol.no-throw"))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrSetup) {
			t.Fatalf("Run = %v, want a set-up error", err)
		}
		t.Log(err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end")
	}
}

// TestAPageThatSpinsWhenItIsLeftCostsTheCallBound: the probes of
// protocol.global and protocol.ready load the page again, and a page whose
// pagehide handler never returns holds that load; it is bounded by the
// run's call timeout, not by Playwright's own default of 30 seconds
// (SECURITY.md: every call into the page is bounded).
func TestAPageThatSpinsWhenItIsLeftCostsTheCallBound(t *testing.T) {
	const page = `<!doctype html><title>spins when left</title>
<script>addEventListener("pagehide", () => { for (;;) {} });</script>
<script src="/glass-runtime.js"></script>
<script>glassRuntime.define({ page: () => ({ id: "p", title: "P" }), actions: () => [{ id: "count", description: "Count", kind: "function", run: () => 1 }] });</script>`
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/glass-runtime.js" {
			w.Header().Set("Content-Type", "text/javascript")
			_, _ = w.Write(sdk.Runtime())
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	}))
	rep, err := Run(Target{URL: url, Browser: browser(t)}, WithCallTimeout(time.Second), WithRules("protocol.global", "protocol.ready"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.Message, "30000ms") {
			t.Errorf("%s waited out Playwright's default: %s", f.Rule.ID, f.Message)
		}
		t.Logf("%s: %s %s", f.Rule.ID, f.Verdict, f.Message)
	}
}

// stallsPage's runtime answers each page's first call and never settles a
// later one (an outside attack on SECURITY.md's "a page cannot hang the
// suite": it answers, so it is never taken as silent).
const stallsPage = `<!doctype html><meta charset="utf-8"><title>Stalls</title>
<script src="/fault-runtime.js"></script>
<script>
let answered = false;
glassFault.install({
  execute: (id, argsJSON, options) => {
    if (answered) return new Promise(() => {});
    answered = true;
    return { protocol: "glass.page/v1", executionId: options && options.executionId,
      result: { ok: true, action: { id: String(id) }, changed: { observed: false } }, revision: { before: 0, after: 0 } };
  },
});
</script>`

// TestARuntimeThatStallsAfterItsFirstCallCostsABoundedRun: once a call of
// an action ended at the call bound, each later call of it is bounded at
// a second, so a runtime that answers each page's first call and stalls
// on the rest costs a run a bound per action, not one per call; the
// report's notes say so.
func TestARuntimeThatStallsAfterItsFirstCallCostsABoundedRun(t *testing.T) {
	const bound = 2 * time.Second
	mux := http.NewServeMux()
	mux.Handle("/", faults.Handler())
	mux.HandleFunc("/stalls.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, stallsPage)
	})
	url := serve(t, mux) + "stalls.html"
	start := time.Now()
	rep, err := Run(Target{URL: url, Browser: browser(t)}, WithCallTimeout(bound),
		WithRules("protocol.receipt", "envelope.execution-id", "resolve.unknown-id", "policy.denied", "envelope.no-auto-retry", "args.malformed-json", "args.invalid-params"))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "ended CALL_TIMEOUT at the call bound of 2s: each later call of those actions that set no bound of its own was bounded at 1s") {
		t.Errorf("no note says the run bounded the stalled calls shorter: %q", rep.Notes)
	}
	if rep.Count(Fail) == 0 {
		t.Errorf("no rule fails against a runtime that stalls")
	}
	t.Logf("%d rules in %s: %d failed, %d not probed; notes: %s", len(rep.Findings), took.Round(time.Second), rep.Count(Fail), rep.Count(NotProbed), notes)
}

// TestAPageWhoseLoadsStopFinishingCostsTwoOpenBounds: a page that loads
// once (the run's set-up) and then never finishes a load again costs a run
// the open bound (15 s) twice; each later open is bounded at a few
// seconds, and the report says so (SECURITY.md: a page cannot hang the
// suite, nor make every probe wait out the bound).
func TestAPageWhoseLoadsStopFinishingCostsTwoOpenBounds(t *testing.T) {
	t.Parallel() // it mostly waits
	page, err := fixtures.Pages().Open("details.html")
	if err != nil {
		t.Fatal(err)
	}
	html, err := io.ReadAll(page)
	if err != nil {
		t.Fatal(err)
	}
	var loads atomic.Int32
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if loads.Add(1) == 1 {
			_, _ = w.Write(html)
			return
		}
		// The document starts, and never ends.
		_, _ = w.Write([]byte("<!doctype html><title>slow</title><p>loading"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	start := time.Now()
	rep, err := Run(Target{URL: serve(t, mux), Browser: browser(t)}, WithParallel(1),
		WithRules("policy.denied", "policy.no-channel", "resolve.unknown-id", "args.invalid-params", "unavailable.reason",
			"envelope.stale-revision", "args.malformed-json", "policy.after-validation"))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	var note string
	for _, n := range rep.Notes {
		if strings.Contains(n, "page loads of the run did not finish") {
			note = n
		}
	}
	var stalled int
	if _, err := fmt.Sscanf(note, "%d page loads", &stalled); err != nil || stalled < 5 {
		t.Fatalf("want a note of at least 5 loads that did not finish, got %q (notes %q)", note, rep.Notes)
	}
	// Two open bounds, 3 s for each later load, and the set-up's load and
	// the checks around them.
	if limit := 2*glasstest.DefaultOpenTimeout + time.Duration(stalled-2)*3*time.Second + 20*time.Second; took > limit {
		t.Errorf("the run took %s, over %s (%d loads that did not finish)", took.Round(time.Second), limit, stalled)
	}
	t.Logf("%d rules in %s, %d loads that did not finish", len(rep.Findings), took.Round(time.Second), stalled)
}
