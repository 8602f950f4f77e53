package conformance

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/fixtures"
	"github.com/glassworks/glass/fixtures/stockroom"
	"github.com/glassworks/glass/sdk"
)

// TestActionsWhoseTargetsAreNotRenderedYetConform runs the fidelity rules
// against the reference runtime on pages whose element actions have
// targets that are not in the page at load (rows a virtual list or a lazy
// list has not rendered): the runtime gives them no fidelity until a call
// resolves the target, which the contract allows, and no rule may fail.
func TestActionsWhoseTargetsAreNotRenderedYetConform(t *testing.T) {
	url := serve(t, fixtures.Handler())
	for _, page := range []struct{ path, pending string }{
		{"availability.html", "like@r150"},
		{"lazy.html", "star@l11"},
	} {
		rep, err := Run(Target{URL: url + page.path, Browser: browser(t)}, WithRules("fidelity.*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings {
			if f.Verdict == Fail {
				t.Errorf("%s: %s fails on the reference runtime: %s", page.path, f.Rule.ID, f.Message)
			}
			if f.Rule.ID != "fidelity.assigned" {
				continue
			}
			if f.Verdict != Pass {
				t.Errorf("%s: fidelity.assigned is %s (%s), want pass", page.path, f.Verdict, f.Message)
			}
			if text := report.FailureText(f); !strings.Contains(text, page.pending) {
				t.Errorf("%s: fidelity.assigned does not list %s among the actions without a fidelity yet:\n%s", page.path, page.pending, text)
			}
		}
	}
}

// TestALargeReceiptUnderTheBoundIsReadWhole: a runtime whose receipts
// carry 300 KB of an unknown member, well under the 4 MiB receipt bound,
// conforms to protocol.no-throw and protocol.receipt; the first once cut
// each answer at 200,000 characters and failed it for invalid JSON.
func TestALargeReceiptUnderTheBoundIsReadWhole(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, largeReceiptPage)
	})
	rep, err := Run(Target{URL: serve(t, mux), Browser: browser(t)}, WithRules("protocol.no-throw", "protocol.receipt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Verdict != Pass {
			t.Errorf("%s is %s: %s", f.Rule.ID, f.Verdict, f.Message)
		}
	}
}

const largeReceiptPage = `<!doctype html><meta charset="utf-8"><title>large receipts</title>
<script src="` + sdk.Path + `"></script>
<button id="b" type="button">Go</button>
<script>
glassRuntime.define({
  page: () => ({ id: "large", title: "Large" }),
  state: () => ({}), records: () => [], feedback: () => [],
  actions: () => [{ id: "go", description: "Go", kind: "element", risk: "read", target: "#b" }],
});
const R = glassRuntime, ex = R.execute.bind(R), re = R.resume.bind(R);
const pad = (r) => { const o = typeof r === "string" ? JSON.parse(r) : r; o.result.glassPad = "A".repeat(300000); return o; };
Object.defineProperty(globalThis, "glassRuntime", { configurable: false, writable: false, value: Object.freeze({
  protocol: R.protocol, ready: R.ready.bind(R), snapshot: R.snapshot.bind(R), define: R.define.bind(R),
  execute: async (...a) => pad(await ex(...a)), resume: async (...a) => pad(await re(...a)),
}) });
</script>`

// TestAManifestsArgumentsLeaveASensitiveParameterToTheProbe: a manifest
// that names plain arguments for an action with a sensitive parameter (as
// init writes them) still has the probe pass its secret there, so the
// exercise's sensitive checks judge that action.
func TestAManifestsArgumentsLeaveASensitiveParameterToTheProbe(t *testing.T) {
	m, err := ParseManifest("glass-manifest.yaml", []byte("version: 1\nargs:\n  supplier-unlock:\n    pin: glass probe\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(Target{URL: serve(t, stockroom.Handler()), Browser: browser(t)}, WithRules("sensitive.never-echoed"), WithManifest(m))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		var judged string
		for _, ev := range f.Evidence {
			judged += ev.Text
		}
		if f.Verdict != Pass || !strings.Contains(judged, "supplier-unlock (a sensitive parameter)") {
			t.Errorf("%s is %s (%s); want pass, with supplier-unlock judged with the probe's secret:\n%s", f.Rule.ID, f.Verdict, f.Message, judged)
		}
	}
}
