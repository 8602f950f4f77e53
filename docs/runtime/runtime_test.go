// Package runtimedoc runs the declarations docs/runtime.md quotes: every
// block of the reference is a part of library.html, and this test calls
// each action and checks what the reference says it does.
package runtimedoc

import (
	_ "embed"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/sdk"
)

//go:embed library.html
var library []byte

func serve(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET "+sdk.Path, sdk.Handler())
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(library)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// open opens the library with a user who approves every confirmation and
// signs when asked, as the librarian would.
func open(t *testing.T, b *glasstest.Browser, url string) *glasstest.Page {
	t.Helper()
	page, err := glasstest.OpenPage(b, url, glasstest.Approve(), glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {
		if err := h.Page().Locator("#signed").Click(); err != nil {
			return glasstest.HandoffFailed
		}
		return glasstest.HandoffCompleted
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = page.Close() })
	return page
}

func action(t *testing.T, s *receipt.Snapshot, id string) receipt.ActionInfo {
	t.Helper()
	a, ok := s.Action(id)
	if !ok {
		t.Fatalf("the snapshot has no action %q", id)
	}
	return a
}

func TestTheReferencesDeclarationsDoWhatItSays(t *testing.T) {
	url := serve(t)
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page := open(t, b, url)

	// The model and the defaults the snapshot shows.
	snap, err := page.TrySnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Page.ID != "library" || snap.Records.Total != 3 || snap.State["card"] != "closed" {
		t.Errorf("page %q with %d records and state %v, want library, 3, card closed", snap.Page.ID, snap.Records.Total, snap.State)
	}
	for id, want := range map[string]struct {
		kind    receipt.Kind
		risk    receipt.Risk
		confirm bool
	}{
		"add":          {receipt.KindElement, receipt.RiskWrite, false},
		"count":        {receipt.KindFunction, receipt.RiskRead, false},
		"archive":      {receipt.KindFunction, receipt.RiskWrite, true},
		"remove@b1":    {receipt.KindElement, receipt.RiskDangerous, true},
		"lend":         {receipt.KindFlow, receipt.RiskWrite, false},
		"sign":         {receipt.KindHandoff, receipt.RiskWrite, false},
		"loan.save":    {receipt.KindElement, receipt.RiskWrite, false},
		"loan.open@b1": {receipt.KindElement, receipt.RiskRead, false},
	} {
		a := action(t, snap, id)
		if a.Kind != want.kind || a.Risk != want.risk || a.Confirm != want.confirm {
			t.Errorf("%s: kind %s, risk %s, confirm %t; want %s, %s, %t", id, a.Kind, a.Risk, a.Confirm, want.kind, want.risk, want.confirm)
		}
	}
	if a := action(t, snap, "archive"); a.Available || a.Reason != "no book is lent" {
		t.Errorf("archive: available %t, reason %q; want false, no book is lent", a.Available, a.Reason)
	}
	if a := action(t, snap, "loan.borrower"); !a.StepOnly {
		t.Error("loan.borrower is not listed stepOnly")
	}
	if a := action(t, snap, "star"); a.Fidelity != receipt.FidelityLow {
		t.Errorf("star: fidelity %q, want low (a div with a click listener)", a.Fidelity)
	}
	if a := action(t, snap, "card"); a.Fidelity != receipt.FidelityAuto {
		t.Errorf("card: fidelity %q, want auto (one button inside the target)", a.Fidelity)
	}

	// params: defaults are filled in; a bad argument never reaches run.
	r := page.Do("add", map[string]string{"title": "Middlemarch"})
	if !r.Result.OK || r.Result.Expect != "The book is on the shelf" {
		t.Errorf("add: ok %t, expect %q", r.Result.OK, r.Result.Expect)
	}
	if snap, _ := page.TrySnapshot(); snap == nil || snap.Records.Items[3].Fields["priority"] != "normal" {
		t.Error("add: the default priority was not filled in")
	}
	if r := page.Do("add", map[string]string{"title": "X", "priority": "urgent"}); r.Code() != receipt.CodeInvalidParams || r.Result.Error.Path != "/priority" {
		t.Errorf("add with priority urgent: %s at %q, want INVALID_PARAMS at /priority", r.Code(), r.Result.Error.Path)
	}

	// An element action without run: the value goes into the input.
	if r := page.Do("search", map[string]string{"value": "dune"}); !r.Result.OK || r.Result.Changed.State == nil {
		t.Errorf("search: ok %t, changed %+v; want the query state changed", r.Result.OK, r.Result.Changed)
	}
	page.Do("search", map[string]string{"value": ""})
	// Low fidelity: simulated events, reported with a warning.
	if r := page.Do("star", nil); !r.Result.OK || r.Result.Fidelity != receipt.FidelityLow || r.Result.Warning == "" {
		t.Errorf("star: ok %t, fidelity %q, warning %q; want low with a warning", r.Result.OK, r.Result.Fidelity, r.Result.Warning)
	}
	if r := page.Do("card", nil); !r.Result.OK || r.Result.Fidelity != receipt.FidelityAuto {
		t.Errorf("card: ok %t, fidelity %q; want auto", r.Result.OK, r.Result.Fidelity)
	}

	// A function's result is the receipt's data.
	if r := page.Do("count", nil); string(r.Result.Data) != `{"books":4,"lent":0}` {
		t.Errorf("count: data %s", r.Result.Data)
	}
	// idempotent: a call that did not start may be retried under the safe-retry policy.
	if r := page.Do("refresh", `{"x": 1}`, glasstest.SafeRetry()); r.RecoveryStrategy != receipt.RecoveryRetrySafe {
		t.Errorf("refresh with a bad argument: recoveryStrategy %q, want retry_safe", r.RecoveryStrategy)
	}

	// A flow of step-only steps; each step alone is no tool.
	r = page.Do("lend", map[string]string{"book": "b2", "name": "Ada"})
	if !r.Result.OK || r.Result.Expect != "The book is lent" || len(r.Result.Steps) != 3 {
		t.Errorf("lend: ok %t, expect %q, %d steps; error %+v", r.Result.OK, r.Result.Expect, len(r.Result.Steps), r.Result.Error)
	}
	if r := page.Do("loan.save", nil); r.Code() != receipt.CodeActionUnavailable || r.Result.Error.Reason != "the action is a step of a flow; call the flow" {
		t.Errorf("loan.save called directly: %s %q", r.Code(), r.Result.Error.Reason)
	}
	// available, confirm: archive is available now that a book is lent, and asks.
	if r := page.Do("archive", nil); !r.Result.OK || len(r.Confirmations) != 1 {
		t.Errorf("archive: ok %t with %d confirmations, want ok after one", r.Result.OK, len(r.Confirmations))
	}

	// A hover-only control: reachable because remove declares a reveal.
	if r := page.Do("remove@b1", nil); !r.Result.OK || r.Result.Expect != "The book is gone" {
		t.Errorf("remove@b1: ok %t, expect %q; error %+v", r.Result.OK, r.Result.Expect, r.Result.Error)
	}
	// A hand-off: the user acts; the check verifies.
	if r := page.Do("sign", nil); !r.Result.OK || r.Result.Expect != "The loans are signed" {
		t.Errorf("sign: ok %t, expect %q; error %+v", r.Result.OK, r.Result.Expect, r.Result.Error)
	}
	// Declared as this page says: the runtime warns about nothing.
	if v, err := page.Evaluate("() => JSON.stringify(glassRuntime.warnings())", nil); err != nil || v != "[]" {
		t.Errorf("the runtime's warnings about the library's declarations: %v, %v; want []", v, err)
	}
	ids := []string{}
	for _, a := range snap.Actions.Items {
		ids = append(ids, a.ID)
	}
	if !slices.Contains(ids, "remove@b3") {
		t.Errorf("the actions list %v has no row action remove@b3", ids)
	}
}

// TestTheDemoSwitchSeedsTheLibrary: ?demo is the page's own seed switch,
// the way docs/runtime.md suggests a page give its tests known data.
func TestTheDemoSwitchSeedsTheLibrary(t *testing.T) {
	url := serve(t)
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	snap, err := open(t, b, url+"?demo").TrySnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Records.Total != 40 {
		t.Errorf("?demo: %d records, want 40", snap.Records.Total)
	}
}
