package conformance

import (
	"net/http"
	"strings"
	"testing"

	"github.com/glassworks/glass/sdk"
)

// dialogPage asks the user with the browser's own dialogs: each row's
// delete (declared dangerous) and clear (declared write, on n2's button)
// ask confirm(), note opens an alert.
const dialogPage = `<!doctype html><title>list</title>
<ul id="list"><li id="n1">Ann <button id="del-n1">Delete</button></li><li id="n2">Bob <button id="del-n2">Delete</button></li></ul>
<button id="note">Note</button>
<script src="/glass-runtime.js"></script>
<script>
for (const id of ["n1", "n2"]) {
  document.getElementById("del-" + id).addEventListener("click", () => {
    if (confirm("Delete " + id + "?\n\u001b[2J")) document.getElementById(id).remove();
  });
}
document.getElementById("note").addEventListener("click", () => { alert("noted"); document.title = "noted"; });
glassRuntime.define({
  page: () => ({ id: "dialogs", title: document.title }),
  records: () => [...document.querySelectorAll("#list li")].map((li) => ({ id: li.id })),
  actions: () => [
    ...[...document.querySelectorAll("#list li")].map((li) => ({
      id: "delete@" + li.id, kind: "element", risk: "dangerous", target: "#del-" + li.id,
    })),
    { id: "clear", kind: "element", risk: "write", target: "#del-n2" },
    { id: "note", kind: "element", risk: "write", target: "#note" },
  ],
});
</script>`

// TestAPageWhoseOwnConfirmIsCancelledIsAFinding: an action declared write
// whose button asks confirm() succeeds, but its dialog is cancelled (no
// call in flight had its confirmation approved), so its delete never runs:
// a finding that names the dialog and what to declare, its page text
// escaped. The dangerous delete, approved, and the alert are none.
func TestAPageWhoseOwnConfirmIsCancelledIsAFinding(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(dialogPage))
	})
	rep, err := Run(Target{URL: serve(t, mux), Browser: browser(t)}, WithRules("protocol.global"), WithCallFindings())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.CallFindings) != 1 {
		t.Fatalf("want one finding (clear), got %d: %q", len(rep.CallFindings), rep.StrictFindings())
	}
	c := rep.CallFindings[0]
	if c.Action != "clear" || c.Kind != CallCancelled || c.Cancelled != "Delete n2?\n\x1b[2J" || c.Code != "" {
		t.Errorf("finding %+v: want clear, cancelled, the dialog's message, no code", c)
	}
	want := `clear: available, and the call succeeded, but the page's own confirm("Delete n2?\n\x1b[2J") was cancelled during it: ` +
		"no call in flight had its confirmation approved by the host. An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)"
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\n  - "+want+"\n") {
		t.Errorf("the text report lacks the line\n%s\n%s", want, text.String())
	}
	if rep.ConformsStrictly() {
		t.Error("ConformsStrictly: want false, the finding fails --strict")
	}
}
