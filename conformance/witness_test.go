package conformance

import (
	"net/http"
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

// TestTheRenderedPageWitnessReadsWhatThePageShows: the second witness of
// refusals and removals (pagewatch.Rendered) lists the text a user sees —
// in open shadow roots and slots too — and leaves out what is not
// rendered, invisible or hidden from assistive technology, whatever the
// page did to the built-ins of its own world.
func TestTheRenderedPageWitnessReadsWhatThePageShows(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(renderedPage))
	})
	pg, err := glasstest.OpenPage(browser(t), serve(t, mux))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
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
