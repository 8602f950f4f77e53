package sdk_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/sdk"
)

// declare is the same page declaration for both forms: a counter with an
// element action and a function action, enough to run a call of each
// through the lifecycle.
const declare = `
  let count = 0;
  const button = document.getElementById("inc");
  button.onclick = () => { count++; };
  glassRuntime.define({
    page: () => ({ id: "counter", title: "Counter" }),
    records: () => [{ id: "c", fields: { count: count } }],
    actions: () => [
      { id: "inc", description: "Add one", target: "#inc",
        expect: () => { const was = count; return { description: "One more", until: () => count === was + 1 }; } },
      { id: "read", description: "Read the count", kind: "function", risk: "read", run: () => ({ count: count }) },
    ],
  });`

// pages serves the runtime with sdk.Handler and one page per form.
func pages(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.Handle(sdk.ESMPath, sdk.Handler())
	html := func(head, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!doctype html><title>Counter</title>" + head + "<button id=inc>+1</button>" + body))
		}
	}
	mux.Handle("GET /classic.html", html(`<script src="/glass-runtime.js"></script>`, "<script>"+declare+"</script>"))
	// The module page uses the exported binding (a shadowing const) and
	// records whether it is the global and the default export.
	module := func(from string) http.HandlerFunc {
		return html("", `<script type="module">
  import rt, { glassRuntime } from "`+from+`";
  window.sameObject = rt === glassRuntime && glassRuntime === globalThis.glassRuntime;
  {`+declare+`
  }
</script>`)
	}
	mux.Handle("GET /module.html", module(sdk.ESMPath))
	// The one-file module glass-conformance runtime --esm writes.
	mux.Handle("GET /bundled.html", module("/bundled/glass-runtime.mjs"))
	mux.HandleFunc("GET /bundled/glass-runtime.mjs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write(sdk.BundledESM())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestEveryFormRunsTheLifecycleInChromium(t *testing.T) {
	base := pages(t)
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	for _, form := range []string{"classic", "module", "bundled"} {
		t.Run(form, func(t *testing.T) {
			page, err := glasstest.OpenPage(b, base+"/"+form+".html")
			if err != nil {
				t.Fatal(err)
			}
			defer page.Close()
			snap, err := page.TrySnapshot()
			if err != nil {
				t.Fatal(err)
			}
			if snap.Runtime != sdk.RuntimeName() || len(snap.Actions.Items) != 2 {
				t.Errorf("snapshot: runtime %q with %d actions, want %q with 2", snap.Runtime, len(snap.Actions.Items), sdk.RuntimeName())
			}
			r := page.Do("inc", nil)
			if !r.Result.OK || r.Result.Expect != "One more" || r.Result.Changed.Records == nil {
				t.Errorf("inc: ok=%t expect=%q changed=%+v, want a verified change", r.Result.OK, r.Result.Expect, r.Result.Changed)
			}
			r = page.Do("read", nil)
			if !r.Result.OK || string(r.Result.Data) != `{"count":1}` {
				t.Errorf("read: ok=%t data=%s, want {\"count\":1}", r.Result.OK, r.Result.Data)
			}
			if form != "classic" {
				same, err := page.Evaluate("window.sameObject", nil)
				if err != nil || same != true {
					t.Errorf("the module's named and default exports are the global: %v (%v)", same, err)
				}
			}
		})
	}
}

func TestHandlerServesBothFormsAndNothingElse(t *testing.T) {
	srv := httptest.NewServer(sdk.Handler())
	defer srv.Close()
	for path, want := range map[string][]byte{sdk.Path: sdk.Runtime(), sdk.ESMPath: sdk.ESM(), "/glass-runtime.ts": nil} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, _ = body.ReadFrom(res.Body)
		res.Body.Close()
		if want == nil {
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", path, res.StatusCode)
			}
			continue
		}
		if res.StatusCode != http.StatusOK || !bytes.Equal(body.Bytes(), want) || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") {
			t.Errorf("GET %s: %d %q, %d bytes; want 200 text/javascript with the embedded file", path, res.StatusCode, res.Header.Get("Content-Type"), body.Len())
		}
	}
}

func TestTheModuleLoadsTheClassicScriptItServesBeside(t *testing.T) {
	// The two forms are one source only if the module adds nothing but the
	// export: it imports the classic script by the name Handler serves it
	// under, and holds no runtime code of its own.
	esm := string(sdk.ESM())
	if !strings.Contains(esm, "import \"."+sdk.Path+"\";") {
		t.Errorf("the module does not import %q", "."+sdk.Path)
	}
	code := 0
	for _, l := range strings.Split(esm, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			code++
		}
	}
	if code != 3 {
		t.Errorf("the module has %d lines of code, want 3 (the import and two exports)", code)
	}
}
