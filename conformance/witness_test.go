package conformance

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/sdk"
)

// renderedPage shows text in every way the rendered-page witness must
// tell apart, and replaces the built-ins a reading in the page's own world
// would call.
const renderedPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Rendered</title>
<script src="/glass-runtime.js"></script>
<style>.gone { display: none } .ghost { visibility: hidden } .ghost b { visibility: visible }</style>
</head><body>
<h1>Shown heading</h1>
<div class="gone">gone-by-display</div>
<p class="ghost">ghost-text <b>visible-child</b></p>
<div aria-hidden="true">hidden-from-aria</div>
<button aria-label="Delete Shown row">x</button>
<div id="host"><span slot="s">slotted-text</span></div>
<div role="status">status-text</div>
<input id="field"><input type="checkbox" id="box">
<template>template-text</template>
<script>
  document.getElementById("field").value = "typed";
  document.getElementById("box").checked = true;
  const root = document.getElementById("host").attachShadow({ mode: "open" });
  root.innerHTML = '<p>in-shadow</p><slot name="s"></slot>';
  glassRuntime.define({ page: () => ({ id: "rendered", title: "Rendered" }), actions: () => [] });
  window.getComputedStyle = () => ({ display: "none", visibility: "hidden" });
  Element.prototype.checkVisibility = () => false;
  JSON.stringify = () => "forged";
  Array.prototype.join = function () { return "forged"; };
</script>
</body></html>`

// openSDKPage serves html, with the SDK's runtime beside it, and opens it
// in a fresh page closed when the test ends.
func openSDKPage(t *testing.T, html string) *glasstest.Page {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(html))
	})
	pg, err := glasstest.OpenPage(browser(t), serve(t, mux))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Close() })
	return pg
}

// TestTheRenderedPageWitnessReadsWhatThePageShows: the second witness of
// refusals and removals (pagewatch.Rendered) lists the text a user sees —
// in open shadow roots and slots too — and leaves out what is not
// rendered, invisible or hidden from assistive technology, whatever the
// page did to the built-ins of its own world.
func TestTheRenderedPageWitnessReadsWhatThePageShows(t *testing.T) {
	pg := openSDKPage(t, renderedPage)
	v, err := pg.EvaluateIsolated(10*time.Second, pagewatch.Rendered)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := v.(string)
	if !strings.HasPrefix(got, "- body\n") {
		t.Errorf("the reading does not begin with the body:\n%s", got)
	}
	for _, want := range []string{`- h1`, `- text: Shown heading`, `- text: visible-child`, `button [aria-label="Delete Shown row"]`,
		`- text: in-shadow`, `- text: slotted-text`, "- status\n", `- text: status-text`, `input [value="typed"]`, `input [value="on" checked]`} {
		if !strings.Contains(got, want) {
			t.Errorf("the reading lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"gone-by-display", "ghost-text", "hidden-from-aria", "template-text", "forged"} {
		if strings.Contains(got, not) {
			t.Errorf("the reading shows %q:\n%s", not, got)
		}
	}
	// A page that hides its body shows nothing, and says so: a reading
	// that differs from the one before (probe.Unchanged).
	if _, err := pg.Evaluate(`() => { document.body.hidden = true; return 1 }`, nil); err != nil {
		t.Fatal(err)
	}
	if v, err = pg.EvaluateIsolated(10*time.Second, pagewatch.Rendered); err != nil || v != "- body [not shown]" {
		t.Errorf("the reading of a hidden body is %q (%v), want %q", v, err, "- body [not shown]")
	}
}

// quietPage changes its DOM on request, every 100 ms for a while.
const quietPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Quiet</title>
<script src="/glass-runtime.js"></script></head><body>
<p id="out">0</p>
<script>
  glassRuntime.define({ page: () => ({ id: "quiet", title: "Quiet" }), actions: () => [] });
  window.byTimers = (n) => { let i = 0; const id = setInterval(() => { out.textContent = String(++i); if (i >= n) clearInterval(id); }, 100); };
</script>
</body></html>`

// TestTheQuietWaitOutlastsTheLastChange: the harness's settle wait
// (pagewatch.Quiet, what verify.settle judges against) ends no sooner than
// its quiet window after the page's last change, and not before the page
// has drawn its frames since that change: the frames it requests stop once
// counted, and start again at the next change.
func TestTheQuietWaitOutlastsTheLastChange(t *testing.T) {
	pg := openSDKPage(t, quietPage)
	wait := func(start string, quietMs, frames int) time.Duration {
		t.Helper()
		t0 := time.Now() // before the page's timers start: d only grows with a slow round trip
		if start != "" {
			if _, err := pg.Evaluate(start, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := pg.EvaluateWithin(20*time.Second, pagewatch.Quiet, []any{quietMs, frames, 15000, nil}); err != nil {
			t.Fatal(err)
		}
		return time.Since(t0)
	}
	// Eight changes 100 ms apart: the window starts again at each.
	if d := wait("() => byTimers(8)", 300, 2); d < 1100*time.Millisecond {
		t.Errorf("the quiet wait ended %v after a page that changes for 800 ms started, want at least 800 ms + the 300 ms window", d)
	}
	out, err := pg.Evaluate("() => out.textContent", nil)
	if err != nil || out != "8" {
		t.Errorf("the page's last change had not happened when the wait ended: %v (%v)", out, err)
	}
	// A change 400 ms in, inside a window of 1 s, after the wait counted
	// its 3 frames and stopped asking for more: the change starts the
	// count again, and the wait ends a window after it, well within its
	// bound.
	if d := wait("() => setTimeout(() => { out.textContent = 'late'; }, 400)", 1000, 3); d < 1400*time.Millisecond || d > 10*time.Second {
		t.Errorf("the quiet wait took %v after a change 400 ms in, want at least 400 ms + the 1 s window and far less than its 15 s bound (the change after its frames were counted must start the count again)", d)
	}
	out, err = pg.Evaluate("() => out.textContent", nil)
	if err != nil || out != "late" {
		t.Errorf("the wait ended before the page's change 400 ms in: %v (%v)", out, err)
	}
	// A change 200 ms in, inside a window of 10 ms: the 30 frames decide,
	// counted from the change, not from the start. The page counts its
	// own frames from the change; the wait's are the same frames.
	if d := wait("() => setTimeout(() => { out.textContent = 'framed'; window.drawn = 0; const f = () => { if (++window.drawn < 200) requestAnimationFrame(f); }; requestAnimationFrame(f); }, 200)", 10, 30); d > 10*time.Second {
		t.Errorf("the quiet wait took %v after a change 200 ms in, want far less than its 15 s bound", d)
	}
	drawn, err := pg.Evaluate("() => String(window.drawn)", nil)
	if n, convErr := strconv.Atoi(fmt.Sprint(drawn)); err != nil || convErr != nil || n < 30 {
		t.Errorf("the wait ended when the page had drawn %v frames since its change, want 30 (%v)", drawn, err)
	}
}
