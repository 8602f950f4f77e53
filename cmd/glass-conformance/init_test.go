package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/glassworks/glass/internal/initgen"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/sdk"
	"github.com/glassworks/glass/surface"
)

// repoRoot is the root of this module (the test runs in
// cmd/glass-conformance).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the module root %s: %v", root, err)
	}
	return root
}

func TestInitBadInputIsOneLineAndExitTwo(t *testing.T) {
	noRuntime := serve(t, htmlPage(`<!doctype html><title>Plain</title><p>No runtime here.</p>`))
	existing := t.TempDir()
	if err := os.WriteFile(filepath.Join(existing, initgen.SuiteFile), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A module of someone else's: init does not overwrite its go.mod.
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "go.mod"), []byte("module example.com/app\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aFile := write(t, "plain-file", "x")
	fresh := filepath.Join(t.TempDir(), "suite")
	// --force replaces files, never what a link names under /proc.
	linked := t.TempDir()
	if err := os.Symlink("/proc/self/comm", filepath.Join(linked, initgen.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no URL", []string{"init"}, "--url is required"},
		{"URL without scheme", []string{"init", "--url", "example.test/page"}, "want an http or https URL"},
		{"unreachable host", []string{"init", "--url", closedPort(t), "--dir", fresh}, "cannot reach http://127.0.0.1:"},
		{"bad package", []string{"init", "--url", "http://127.0.0.1:1/", "--package", "9lives"}, `--package "9lives": want a Go identifier`},
		{"keyword package", []string{"init", "--url", "http://127.0.0.1:1/", "--package", "func"}, `--package "func"`},
		{"existing file", []string{"init", "--url", "http://127.0.0.1:1/", "--dir", existing}, initgen.SuiteFile + " exists; pass --force to overwrite it"},
		{"foreign go.mod", []string{"init", "--url", "http://127.0.0.1:1/", "--dir", foreign, "--force"}, "holds a go.mod that does not require Glass: run go get github.com/glassworks/glass there first, or choose another --dir"},
		{"unwritable dir", []string{"init", "--url", "http://127.0.0.1:1/", "--dir", filepath.Join(aFile, "suite")}, "cannot write there: not a directory"},
		{"extra argument", []string{"init", "--url", "http://127.0.0.1:1/", "more"}, `unexpected argument "more"`},
		{"forced over a file the kernel makes up", []string{"init", "--url", "http://127.0.0.1:1/", "--dir", linked, "--force"}, initgen.ManifestFile + ": not a regular file (a file the kernel makes up)"},
		{"page without runtime", []string{"init", "--url", noRuntime, "--dir", t.TempDir()}, "no Glass runtime"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, tc.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr = %q, want it to contain %q", r.stderr, tc.want)
			}
			if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
				t.Errorf("want one line on stderr, got %d:\n%s", lines, r.stderr)
			}
		})
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("a failed init left the directory %s it created", fresh)
	}
}

// todosApp serves the third-party-style todo app of the e2e test, with
// the reference runtime, on a loopback port.
func todosApp(t *testing.T) string {
	t.Helper()
	files := http.FileServer(http.Dir(filepath.Join("e2e", "testdata", "todos")))
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == sdk.Path {
			sdk.Handler().ServeHTTP(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
}

// examplePort is the address the docs show; the tests put it in place of
// the test server's before they compare what init printed.
const examplePort = "http://127.0.0.1:8471/"

// TestInitOnAnEmptyPageSaysHowToSeedIt: the todo app starts with no
// records, so it declares no row action; init says so, and how to give it
// records (docs/tutorial.md shows these lines). With ?demo it has records,
// and init quotes the URL for a shell and names the delete button shown
// only on hover as a finding, its spec pending.
func TestInitOnAnEmptyPageSaysHowToSeedIt(t *testing.T) {
	url := todosApp(t)
	dir := filepath.Join(t.TempDir(), "glass-acceptance")
	r := runBinary(t, "init", "--url", url, "--dir", dir)
	if r.code != 0 {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	out := strings.ReplaceAll(strings.ReplaceAll(r.stdout, url, examplePort), dir, "glass-acceptance")
	for _, want := range []string{
		"note: the page showed no records, so init called no row action (actions declared per record, such as remove@<record>, exist only with records). If the page lists records, start it with some and run init again with --force: pass a URL that seeds them (your app's own switch, for example --url 'http://127.0.0.1:8471/?demo'), or have the specs create one first with the action that adds it",
		"findings: none: every call of an available action succeeded",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("init did not print\n%s\n\n%s", want, out)
		}
	}

	r = runBinary(t, "init", "--url", url+"?demo", "--dir", dir, "--force")
	if r.code != 0 {
		t.Fatalf("init ?demo: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	out = strings.ReplaceAll(strings.ReplaceAll(r.stdout, url, examplePort), dir, "glass-acceptance")
	for _, want := range []string{
		"reading 'http://127.0.0.1:8471/?demo'",
		"  cd glass-acceptance && GLASS_URL='http://127.0.0.1:8471/?demo' go tool ginkgo",
		"  glass-conformance run --strict --url 'http://127.0.0.1:8471/?demo' --manifest glass-acceptance/glass-manifest.yaml --surface glass-acceptance/glass-surface.json",
		"findings: 1; their specs expect success and are pending (PIt) until you decide:",
		"  delete@1: available, but the approved call could not make it usable: ACTION_UNAVAILABLE at target_resolution: the target is hidden (display: none on itself; a control shown only on :hover or focus needs a reveal that shows it)",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("init ?demo did not print\n%s\n\n%s", want, out)
		}
	}
	if strings.Contains(out, "note: the page showed no records") {
		t.Errorf("a note about an empty page on a page with records:\n%s", out)
	}
	// --force loses nothing: the actions file it replaced with other
	// specs is kept beside the new one, and init says so.
	if want := "wrote glass-acceptance/" + initgen.ActionsFile + " (the previous one, which differed, is kept as " + initgen.ActionsFile + ".orig)\n"; !strings.Contains(out, want) {
		t.Errorf("init --force did not print\n%s\n%s", want, out)
	}
	if kept, err := os.ReadFile(filepath.Join(dir, initgen.ActionsFile+".orig")); err != nil || strings.Contains(string(kept), "delete@1") {
		t.Errorf("the previous actions file is not kept as it was (%v):\n%s", err, kept)
	}
	actions, err := os.ReadFile(filepath.Join(dir, initgen.ActionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(actions), `PIt("delete@1: Delete the todo (pending: `) {
		t.Errorf("the hover-only delete has no pending spec:\n%s", actions)
	}
	// The first baseline of the capability surface: the page as it
	// declared itself, row actions folded, delete dangerous.
	surf, err := surface.Load(filepath.Join(dir, initgen.SurfaceFile))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range surf.Actions {
		names = append(names, a.Name)
		if a.Name == "delete" && (a.Rows != "delete@<record>" || a.Risk != receipt.RiskDangerous) {
			t.Errorf("the baseline's delete: %+v", a)
		}
	}
	if surf.Page.ID != "todos" || strings.Join(names, " ") != "add clear-completed delete edit filter toggle" {
		t.Errorf("the baseline init wrote: page %q, actions %q", surf.Page.ID, names)
	}
}

// TestInitOnAPageThatDefinesItselfEarlySaysSo: with ?demo&late the todo
// app shows its records 1.4 s after its script ran (a page that calls
// define before its request for the data answers): a timer of the page set
// before init's quiet wait began, so the records come within it. init
// says so, not that the page has no records, and plans from the later
// model: a record's delete is called (found or not, on a page just
// opened).
func TestInitOnAPageThatDefinesItselfEarlySaysSo(t *testing.T) {
	url := todosApp(t) + "?demo&late"
	dir := filepath.Join(t.TempDir(), "glass-acceptance")
	r := runBinary(t, "init", "--url", url, "--dir", dir)
	if r.code != 0 {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"note: the page model changed after the page was ready, with no call in flight (records 0 → 2, actions ",
		"): the page probably defines its model before its data is shown, so a call made as the page opens (an agent's, a spec's, init's own) finds another model; call define once the data is shown (docs/runtime.md, define). init planned from the later model\n",
		"  delete@1: ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init did not print\n%s\n\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "note: the page showed no records") {
		t.Errorf("a note about an empty page on a page whose records came late:\n%s", r.stdout)
	}
}

// TestInitSaysWhenTheModuleCannotBeCompleted: a go mod tidy that fails is
// one line and exit 2, with the files written and what to do next. (A
// binary that cannot name its checkout is e2e's TestTrimpathBinary: it
// rebuilds everything.)
func TestInitSaysWhenTheModuleCannotBeCompleted(t *testing.T) {
	url := todosApp(t)

	dir := filepath.Join(t.TempDir(), "suite")
	r := runBinaryEnv(t, []string{"GOFLAGS=-no-such-flag"}, "init", "--url", url, "--dir", dir)
	want := "glass-conformance: init: the suite is written, but go mod tidy: go: parsing $GOFLAGS: unknown flag -no-such-flag; run go mod tidy in " + dir + " once that is fixed\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("a failing go mod tidy: exit %d, stderr %q\nwant 2 and %q", r.code, r.stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, initgen.ActionsFile)); err != nil {
		t.Errorf("the specs are not left in place: %v", err)
	}

}

// misdeclaredPage declares, with the reference runtime, an action with a
// risk the contract does not have, one with an expect that is a string
// (the receipt's expect is one; a declaration's is not), one with an
// unknown kind and one id twice: each is a declaration that does not do
// what its author meant, and none may pass unsaid. A kind that throws when
// it is shown breaks nothing.
const misdeclaredPage = `<!doctype html><title>Recipes</title>
<ul><li>Soup <button id="del-r1">Delete</button></li></ul>
<script src="/glass-runtime.js"></script>
<script>
let soup = true;
document.getElementById("del-r1").onclick = () => { soup = false; document.querySelector("li").remove(); };
glassRuntime.define({
  page: () => ({ id: "recipes", title: "Recipes" }),
  records: () => soup ? [{ id: "r1", fields: { name: "Soup" } }] : [],
  actions: () => [
    { id: "count", kind: "function", run: () => 1, expect: "It counts" },
    { id: "count", kind: "function", run: () => 2 },
    { id: "share", kind: "link", run: () => 3 },
    { id: "odd", kind: { toString() { throw new Error("no kind to show"); } }, run: () => 6 },
    { id: "rename", kind: "function", params: { name: "string" }, run: () => 4 },
    { id: "tag", kind: "function", params: { type: "object", properties: { tag: { anyOf: [{ const: "a" }, { const: "b" }] } } }, run: () => 5 },
    ...(soup ? [{ id: "delete@r1", description: "Delete Soup", risk: "destructive", target: "#del-r1" }] : []),
  ],
});
</script>`

// TestInitSaysWhatTheRuntimeWarnsAbout: init ends with the reference
// runtime's warnings about the page's declarations, and the runtime takes
// a risk it does not know as dangerous: the delete asks first, so init
// writes its denial spec. A runtime whose warnings are many, long and full
// of escape sequences gets at most 50 lines, each printable.
func TestInitSaysWhatTheRuntimeWarnsAbout(t *testing.T) {
	page := func(html string) string {
		return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == sdk.Path {
				sdk.Handler().ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(html))
		}))
	}
	dir := filepath.Join(t.TempDir(), "glass-acceptance")
	r := runBinary(t, "init", "--url", page(misdeclaredPage), "--dir", dir)
	if r.code != 0 {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`the page's runtime warns about 6 of its declarations (docs/runtime.md, "Mistakes the runtime reports"):`,
		`  rename: params is not the JSON Schema of an object (it has neither type "object" nor properties; a shorthand such as {name: "string"} is not one); no argument is checked`,
		`  tag: params.properties.tag uses anyOf, which this runtime does not check`,
		`  count: expect is neither {description, until, timeoutMs} with until a function nor a function that returns one; no expectation is checked`,
		`  count: declared twice; the first declaration counts`,
		`  share: kind "link" is not element, function, flow or handoff; the action is not declared`,
		`  delete@r1 (and every delete@ row): risk "destructive" is not read, write or dangerous; it is taken as dangerous, and the call asks for confirmation`,
	} {
		if !strings.Contains(r.stdout, want+"\n") {
			t.Errorf("init did not print\n%s\n\n%s", want, r.stdout)
		}
	}
	actions, err := os.ReadFile(filepath.Join(dir, initgen.ActionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(actions), `It("delete@r1 changes nothing when the user says no"`) {
		t.Errorf("no denial spec for the delete whose risk the runtime took as dangerous:\n%s", actions)
	}

	// run says the same, in its text report and its JSON.
	url := page(misdeclaredPage)
	jsonFile := filepath.Join(t.TempDir(), "report.json")
	r = runBinary(t, "run", "--url", url, "--rules", "protocol.snapshot", "--json", jsonFile)
	if r.code != 0 || !strings.Contains(r.stdout, "\nthe page's runtime warns about 6 of its declarations (docs/runtime.md, \"Mistakes the runtime reports\"):\n  - count: expect is neither") {
		t.Errorf("run: exit %d, want 0 and the runtime's warnings\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(jsonFile); err != nil || !regexp.MustCompile(`"warnings": \[\s*"count: expect is neither`).Match(b) {
		t.Errorf("the JSON report has no warnings (%v):\n%s", err, b)
	}

	hostile := `<!doctype html><title>Loud</title><script src="/glass-runtime.js"></script><script>
glassRuntime.define({ page: () => ({ id: "loud" }), actions: () => [{ id: "read\nFAKE LINE: init wrote 0 files", kind: "function", run: () => 1 }] });
const real = globalThis.glassRuntime;
Object.defineProperty(globalThis, "glassRuntime", { value: Object.freeze(Object.assign({}, real, {
  warnings: () => Array.from({ length: 5000 }, (_, i) => "\u001b[31mred\u001b[0m\nFAIL fake " + i + " " + "x".repeat(i % 3 ? 10 : 900)),
})) });
</script>`
	r = runBinary(t, "init", "--url", page(hostile), "--dir", filepath.Join(t.TempDir(), "glass-acceptance"))
	if r.code != 0 {
		t.Fatalf("init of a page whose runtime warns loudly: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "\n  calling read\\nFAKE LINE: init wrote 0 files\n") {
		t.Errorf("init did not show the id with a line break on its calling line:\n%s", r.stdout)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "FAKE LINE") || strings.HasPrefix(l, "FAIL fake") {
			t.Errorf("page text starts a line of init's output: %q", l)
		}
	}
	_, tail, found := strings.Cut(r.stdout, `the page's runtime warns about 50 of its declarations`)
	if !found {
		t.Fatalf("init did not cut the warnings at 50:\n%s", r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(tail, "\n"), "\n")[1:]
	if len(lines) != 50 {
		t.Errorf("%d lines of warnings, want 50:\n%s", len(lines), tail)
	}
	for _, l := range lines {
		if strings.ContainsRune(l, '\x1b') || len([]rune(l)) > 2+300*4 || !strings.HasPrefix(l, "  ") {
			t.Errorf("a warning line that is not one printable, bounded line: %q", l)
		}
	}
}

// stallingPage declares eight read actions; the odd ones' calls never
// answer, the even ones' do.
const stallingPage = `<!doctype html><meta charset="utf-8"><title>Stalling</title>
<script>
const P = "glass.page/v1";
const acts = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({ id: (i % 2 ? "stall" : "answer") + i, description: "Action " + i, kind: "function", risk: "read", confirm: false, available: true }));
Object.defineProperty(globalThis, "glassRuntime", { value: Object.freeze({
  protocol: P, runtime: "stalling/0", ready: () => Promise.resolve(true),
  snapshot: () => ({ protocol: P, runtime: "stalling/0", revision: 0, page: { id: "stalling", url: location.href, title: document.title },
    records: { total: 0, items: [], omitted: 0 }, actions: { items: acts, omitted: 0 }, state: {}, feedback: [] }),
  execute: (id, args, opts) => id.startsWith("stall") ? new Promise(() => {}) : Promise.resolve({ protocol: P, executionId: opts.executionId,
    result: { ok: true, action: { id: id, description: "Action" }, changed: { observed: false } }, revision: { before: 0, after: 0 } }),
  resume: () => new Promise(() => {}),
}), writable: false, configurable: true });
</script>`

// A page that answers some calls and stalls on others, every other one,
// never stalls three in a row: once three calls in all ended at the
// bound, each call left gets a short one, and init says so (an outside
// attack's page of 62 such actions kept init busy past five minutes).
func TestInitOnAPageThatStallsOnHalfItsActionsShortensTheCallsLeft(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "glass-acceptance")
	r := runBinary(t, "init", "--url", serve(t, htmlPage(stallingPage)), "--dir", dir)
	if r.code != 0 {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	want := fmt.Sprintf("  %d calls ended CALL_TIMEOUT with no answer: each call left gets %v\n", initgen.StalledCalls, initgen.StalledTimeout)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("init did not say it shortened the calls left (%q):\n%s", want, r.stdout)
	}
	actions, err := os.ReadFile(filepath.Join(dir, initgen.ActionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(actions), fmt.Sprintf("no answer from the page after %v", initgen.StalledTimeout)); n != 1 {
		t.Errorf("%d calls had the short bound, want 1 (stall7):\n%s", n, actions)
	}
	if n := strings.Count(string(actions), "CALL_TIMEOUT at transport"); n != 4 {
		t.Errorf("%d specs say their call ended CALL_TIMEOUT, want 4:\n%s", n, actions)
	}
}

// silentPage declares five read actions whose calls never answer.
const silentPage = `<!doctype html><meta charset="utf-8"><title>Silent</title>
<script>
const P = "glass.page/v1";
const acts = [1, 2, 3, 4, 5].map((i) => ({ id: "never" + i, description: "Never answers " + i, kind: "function", risk: "read", confirm: false, available: true }));
Object.defineProperty(globalThis, "glassRuntime", { value: Object.freeze({
  protocol: P, runtime: "silent/0", ready: () => Promise.resolve(true),
  snapshot: () => ({ protocol: P, runtime: "silent/0", revision: 0, page: { id: "silent", url: location.href, title: document.title },
    records: { total: 0, items: [], omitted: 0 }, actions: { items: acts, omitted: 0 }, state: {}, feedback: [] }),
  execute: () => new Promise(() => {}),
  resume: () => new Promise(() => {}),
}), writable: false, configurable: true });
</script>`

// A page whose every call waits out the call bound would make init take
// the bound once per action (hours on a page of hundreds): once the first
// calls all end CALL_TIMEOUT, the rest get a short bound, and init says so.
func TestInitOnAPageThatNeverAnswersShortensTheCallsLeft(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "glass-acceptance")
	r := runBinary(t, "init", "--url", serve(t, htmlPage(silentPage)), "--dir", dir)
	if r.code != 0 {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	want := fmt.Sprintf("  the runtime answered none of %d calls within the call bound: each call left gets %v\n", initgen.SilentCalls, initgen.SilentTimeout)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("init did not say it shortened the calls left (%q):\n%s", want, r.stdout)
	}
	actions, err := os.ReadFile(filepath.Join(dir, initgen.ActionsFile))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if !strings.Contains(string(actions), fmt.Sprintf("never%d", i)) {
			t.Errorf("no spec for never%d:\n%s", i, actions)
		}
	}
	if n := strings.Count(string(actions), "CALL_TIMEOUT at transport"); n != 5 {
		t.Errorf("%d specs say their call ended CALL_TIMEOUT, want 5:\n%s", n, actions)
	}
	if n := strings.Count(string(actions), fmt.Sprintf("no answer from the page after %v", initgen.SilentTimeout)); n != 5-initgen.SilentCalls {
		t.Errorf("%d calls had the short bound, want %d:\n%s", n, 5-initgen.SilentCalls, actions)
	}
}
