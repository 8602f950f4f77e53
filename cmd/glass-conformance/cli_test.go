package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/internal/hostile"
	"github.com/glassworks/glass/sdk"
)

var bin string

// TestMain builds the CLI once; the tests run the real binary, as a CI
// gate would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "glass-conformance-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "glass-conformance")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

func runBinary(t *testing.T, args ...string) result {
	t.Helper()
	return runBinaryEnv(t, nil, args...)
}

// runBinaryEnv runs the CLI with env added to the test's environment.
func runBinaryEnv(t *testing.T, env []string, args ...string) result {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	r := result{stdout: o.String(), stderr: e.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("run %v: %v", args, err)
	}
	for _, trace := range []string{"goroutine ", "panic:", ".go:"} {
		if strings.Contains(r.stderr, trace) {
			t.Errorf("stderr shows a stack trace (%q):\n%s", trace, r.stderr)
		}
	}
	return r
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// mutant serves the proving page with the named mutant runtime.
func mutant(t *testing.T, name string) string {
	t.Helper()
	m, ok := mutants.ByName(name)
	if !ok {
		t.Fatalf("no mutant %q", name)
	}
	src, err := m.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, mutants.WithRuntime(src, mutants.ProvingPage()))
}

// closedPort returns a loopback URL nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/"
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func htmlPage(body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == sdk.Path {
			sdk.Handler().ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	})
}

// TestRunServesTheEmbeddedTodoExample: with no --url, run serves the Todo
// example and checks it with its manifest. The rules are two of the
// catalog's: that every rule passes on the Todo example, over both
// transports, is conformance's TestTodoExampleConforms, from the same
// handler and manifest; this test is about the command around it.
func TestRunServesTheEmbeddedTodoExample(t *testing.T) {
	r := runBinary(t, "run", "--rules", "policy.denied,flow.resume")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// flow.resume is probed only through the manifest's flowFailures: its
	// pass shows the embedded manifest was read.
	for _, want := range []string{"serving the embedded Todo example", "PASS        policy.denied", "PASS        flow.resume", "0 failed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// Not a terminal: progress is plain lines, no carriage returns, and
	// none for a rule that passed (the results list it).
	if !strings.Contains(r.stdout, "[2/2] checked\n") || strings.Contains(r.stdout, "] PASS") || strings.Contains(r.stdout, "\r") {
		t.Errorf("want plain progress lines without \\r:\n%q", r.stdout)
	}
}

func TestRunAViolationExitsOneWithEvidence(t *testing.T) {
	dir := t.TempDir()
	junit, js, page := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json"), filepath.Join(dir, "out.html")
	arts := filepath.Join(dir, "artifacts")
	r := runBinary(t, "run", "--url", mutant(t, "denial-ignored"), "--rules", "policy.d*,policy.no-channel,resolve.unknown-id",
		"--junit", junit, "--json", js, "--html", page, "--artifacts", arts)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"FAIL        policy.denied — call of remove@n01 with the confirmation denied: want PERMISSION_DENIED at phase policy, it succeeded",
		"MUST: A call whose confirmation is denied",
		"receipt:",
		`"ok": true`,
		"PASS        resolve.unknown-id",
		"3 rules: 2 passed, 1 failed, 0 not probed",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// Grouped by phase: the policy group comes before target_resolution.
	if p, tr := strings.Index(r.stdout, "\npolicy\n"), strings.Index(r.stdout, "\ntarget_resolution\n"); p < 0 || tr < p {
		t.Errorf("want results grouped by phase, policy first:\n%s", r.stdout)
	}

	suites := parseJUnit(t, junit)
	if suites.Tests != 3 || suites.Failures != 1 || suites.Skipped != 0 {
		t.Errorf("junit: tests=%d failures=%d skipped=%d, want 3 1 0", suites.Tests, suites.Failures, suites.Skipped)
	}
	rep := parseJSON(t, js)
	if rep.Conforms || rep.Summary.Failed != 1 {
		t.Errorf("json: conforms=%t failed=%d, want false 1", rep.Conforms, rep.Summary.Failed)
	}
	h, err := os.ReadFile(page)
	if err != nil || !bytes.Contains(h, []byte("policy.denied")) || !bytes.Contains(h, []byte("<style>")) {
		t.Errorf("html report: err=%v, want a self-contained page naming policy.denied", err)
	}
	if bytes.Contains(h, []byte("<script")) || bytes.Contains(h, []byte(`src="http`)) || bytes.Contains(h, []byte(`href="http`)) {
		t.Error("html report is not self-contained: it loads scripts or external assets")
	}
	if _, err := os.Stat(filepath.Join(arts, "report.json")); err != nil {
		t.Errorf("artifacts: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(arts, "policy.denied--bridge", "*receipt*"))
	if len(files) == 0 {
		t.Errorf("artifacts: no receipt evidence kept for policy.denied")
	}
}

type junitSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, path string) junitSuites {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s junitSuites
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("junit report is not valid XML: %v\n%s", err, b)
	}
	return s
}

type jsonReport struct {
	URL          string `json:"url"`
	Conforms     bool   `json:"conforms"`
	CallsChecked bool   `json:"callsChecked"`
	Summary      struct {
		Failed    int `json:"failed"`
		NotProbed int `json:"notProbed"`
		Stale     int `json:"staleBaselineEntries"`
		Expected  int `json:"expectedFailures"`
	} `json:"summary"`
	Notes    []string `json:"notes"`
	Findings []struct {
		Rule struct {
			ID string `json:"id"`
		} `json:"rule"`
		Verdict   string `json:"verdict"`
		Transport string `json:"transport"`
		Message   string `json:"message"`
		Baseline  string `json:"baseline"`
		Evidence  []struct {
			Label string `json:"label"`
			Text  string `json:"text"`
		} `json:"evidence"`
	} `json:"findings"`
}

func parseJSON(t *testing.T, path string) jsonReport {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r jsonReport
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("json report is not valid JSON: %v\n%s", err, b)
	}
	return r
}

func TestExpectedFailuresAndStaleBaselineEntries(t *testing.T) {
	baseline := write(t, "expected.txt", "# known: the SDK ignores denials\npolicy.denied  # JIRA-1\n")
	t.Run("a listed rule that fails is reported but does not fail the run", func(t *testing.T) {
		js := filepath.Join(t.TempDir(), "out.json")
		r := runBinary(t, "run", "--url", mutant(t, "denial-ignored"), "--rules", "policy.denied", "--expected-failures", baseline, "--json", js)
		if r.code != 0 {
			t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "XFAIL       policy.denied") || !strings.Contains(r.stdout, "(1 expected by the baseline)") {
			t.Errorf("want policy.denied reported as an expected failure:\n%s", r.stdout)
		}
		if rep := parseJSON(t, js); !rep.Conforms || rep.Summary.Expected != 1 || rep.Findings[0].Baseline != "expected-failure" {
			t.Errorf("json: conforms=%t expected=%d, want true 1", rep.Conforms, rep.Summary.Expected)
		}
	})
	t.Run("a listed rule that now passes is a stale entry and fails the run", func(t *testing.T) {
		junit := filepath.Join(t.TempDir(), "out.xml")
		r := runBinary(t, "run", "--url", serve(t, mutants.ProvingPage()), "--rules", "policy.denied", "--expected-failures", baseline, "--junit", junit)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "STALE       policy.denied — stale baseline entry: the rule passes now; remove it from "+baseline) {
			t.Errorf("want a stale baseline entry reported:\n%s", r.stdout)
		}
		s := parseJUnit(t, junit)
		if s.Failures != 1 || s.Suites[0].Cases[0].Failure == nil || !strings.Contains(s.Suites[0].Cases[0].Failure.Message, "stale baseline entry") {
			t.Errorf("junit: want the stale entry as a failure, got %+v", s)
		}
	})
}

// readsOnly serves a page that declares one read action (nothing needs
// confirmation) on a runtime that registers no WebMCP tools.
func readsOnly(t *testing.T) string {
	t.Helper()
	noTools := mutants.Mutant{Name: "no-webmcp-tools", Find: "function refreshTools(actions) {", Replace: "function refreshTools(actions) { return;"}
	src, err := noTools.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, mutants.WithRuntime(src, htmlPage(`<!doctype html><title>Reads</title><script src="/glass-runtime.js"></script>
<p>Count</p><script>glassRuntime.define({ actions: () => [{ id: "count", kind: "function", risk: "read", run: () => 1 }] });</script>`)))
}

func TestNotProbedRulesAreSkippedNeverPassed(t *testing.T) {
	dir := t.TempDir()
	junit, js := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json")
	page := readsOnly(t)
	r := runBinary(t, "run", "--url", page, "--rules", "policy.denied,resolve.unknown-id", "--transport", "both", "--junit", junit, "--json", js)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"NOT PROBED  policy.denied [bridge] — the page declares no available action that needs confirmation",
		"NOT PROBED  resolve.unknown-id [webmcp] — the page registers no WebMCP tools",
		"- webmcp: the page registers no WebMCP tools",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	s := parseJUnit(t, junit)
	if s.Tests != 4 || s.Skipped != 3 || s.Failures != 0 {
		t.Errorf("junit: tests=%d skipped=%d failures=%d, want 4 3 0", s.Tests, s.Skipped, s.Failures)
	}
	for _, suite := range s.Suites {
		for _, c := range suite.Cases {
			if c.Name != "resolve.unknown-id [bridge]" && (c.Skipped == nil || !strings.HasPrefix(c.Skipped.Message, "not probed: ")) {
				t.Errorf("junit: %s is not skipped with its reason", c.Name)
			}
		}
	}
	if rep := parseJSON(t, js); rep.Summary.NotProbed != 3 || len(rep.Notes) != 1 {
		t.Errorf("json: notProbed=%d notes=%v, want 3 and one note", rep.Summary.NotProbed, rep.Notes)
	}
}

// navigatedLine is how run reports a call that loaded a new document, as
// docs/troubleshooting.md quotes it.
const navigatedLine = "borrow: available, but the call failed: PAGE_NAVIGATED at browser_effect: the call loaded a new document (a form submitted or a link followed), so the runtime could write no receipt: an action must end on the page it was called on (docs/troubleshooting.md)"

// TestACallThatLoadsANewDocumentIsAFindingNotAFailedProbe: an element
// action that submits a form (a server-rendered app's) loads a new
// document. Run reports the call as a finding, PAGE_NAVIGATED, and the
// rules whose probes needed it as not probed, saying which call it was,
// never as probes that could not run (an adoption trial saw FAILs on
// unrelated rules, "the page has no Glass runtime", and "every call of an
// available action succeeded").
func TestACallThatLoadsANewDocumentIsAFindingNotAFailedProbe(t *testing.T) {
	page := serve(t, htmlPage(`<!doctype html><title>Loans</title><script src="/glass-runtime.js"></script>
<form method="post" action="/borrow"><button id="borrow">Borrow</button></form><p>Dune</p>
<script>glassRuntime.define({ actions: () => [{ id: "borrow", risk: "write", description: "Borrow the book", target: "#borrow" }] });</script>`))
	r := runBinary(t, "run", "--strict", "--url", page, "--rules", "resolve.unknown-id,envelope.revision,changed.window,envelope.no-auto-retry")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (--strict fails on the finding)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"findings: 1; glass-conformance run --strict fails on them:\n  - " + navigatedLine,
		"a call of borrow loaded a new document (PAGE_NAVIGATED"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, bad := range []string{"the probe could not run", "every call of an available action succeeded", "no Glass runtime", "FAIL "} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("stdout says %q:\n%s", bad, r.stdout)
		}
	}
}

func TestARunThatProbedNothingSaysSo(t *testing.T) {
	r := runBinary(t, "run", "--url", readsOnly(t), "--transport", "webmcp", "--rules", "policy.denied,policy.no-channel")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (no violation)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"no rule was probed: this run shows no violation, and proves nothing about the page either", "2 rules: 0 passed, 0 failed, 2 not probed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}

// hostilePage declares an action whose description carries markup and
// terminal escape sequences; with the denial-ignored mutant its receipt is
// evidence of a violation, so the text reaches every output.
const hostilePage = "<!doctype html><title>Hostile</title><script src=\"/glass-runtime.js\"></script><p>x</p><script>" +
	`glassRuntime.define({ actions: () => [{ id: "wipe<b>\u001b[31m", kind: "function", risk: "dangerous", ` +
	`description: "<script>alert(1)<\/script><img src=x onerror=alert(2)>\u001b[2J\u001b[31mRED\u001b]0;title\u0007 \u009b31m ]]> &amp; \u202eRTL\u2066 \rOVER \u0000NUL zw\u200bsp\ufeff\u00ad\u{E0041}", run: () => {} }] });` +
	"</script>"

func TestPageTextIsNeutralisedInEveryOutput(t *testing.T) {
	m, _ := mutants.ByName("denial-ignored")
	src, err := m.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	page := serve(t, mutants.WithRuntime(src, htmlPage(hostilePage)))
	dir := t.TempDir()
	junit, js, h, arts := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json"), filepath.Join(dir, "out.html"), filepath.Join(dir, "artifacts")
	r := runBinary(t, "run", "--url", page, "--rules", "policy.denied", "--junit", junit, "--json", js, "--html", h, "--artifacts", arts)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if c, bad := rawControl(r.stdout + r.stderr); bad {
		t.Errorf("terminal output carries a raw %U:\n%q", c, r.stdout+r.stderr)
	}
	// Every file the run wrote is read on a terminal too (cat, less, an
	// editor): none carries a character that a terminal acts on.
	files := eachFile(t, dir, func(name string, b []byte) {
		if c, bad := rawControl(string(b)); bad {
			t.Errorf("%s carries a raw %U", name, c)
		}
	})
	if files < 5 {
		t.Errorf("%d files written; want the three reports, report.json and the evidence", files)
	}
	if !strings.Contains(r.stdout, `\u202eRTL`) {
		t.Errorf("terminal output should show the bidi override escaped:\n%s", r.stdout)
	}
	// The receipt's JSON escapes ESC itself; the message names the id raw,
	// so receipt.PrintableText makes its escape visible.
	if !strings.Contains(r.stdout, `<script>alert(1)</script>`) || !strings.Contains(r.stdout, `\u001b[31mRED`) ||
		!strings.Contains(r.stdout, `call of wipe<b>\x1b[31m with`) || !strings.Contains(r.stdout, `\x9b31m`) {
		t.Errorf("terminal output should show the page's text, escapes made visible:\n%s", r.stdout)
	}
	parseJUnit(t, junit)
	rep := parseJSON(t, js)
	found := false
	for _, ev := range rep.Findings[0].Evidence {
		found = found || strings.Contains(ev.Text, "<script>alert(1)</script>")
	}
	if !found {
		t.Errorf("json: the evidence should keep the page's text as data: %+v", rep.Findings[0].Evidence)
	}
	raw, _ := os.ReadFile(js)
	if bytes.Contains(raw, []byte("<script>")) || bytes.ContainsAny(raw, "\x1b\x07") {
		t.Error("json report carries raw markup or control characters")
	}
	page2, _ := os.ReadFile(h)
	for _, bad := range []string{"<script>alert(1)", "<img src=x", "<b>", "\x1b", "\x07", "\u009b"} {
		if bytes.Contains(page2, []byte(bad)) {
			t.Errorf("html report carries the page's %q unescaped", bad)
		}
	}
	if !bytes.Contains(page2, []byte("&lt;script&gt;alert(1)&lt;/script&gt;")) {
		t.Error("html report should show the page's markup escaped")
	}
}

// rawControl reports the first character of s that a terminal would act on
// instead of showing.
// snapshotThrowsPage has a runtime whose snapshot throws page text with
// terminal escapes: run and init stop at set-up with an error that quotes
// it.
const snapshotThrowsPage = "<!doctype html><title>x</title><script>" +
	`globalThis.glassRuntime = { protocol: "glass.page/v1", ready: async () => true, ` +
	`snapshot: () => { throw new Error("boom \u001b[2J\u001b[31mRED\u001b]0;title\u0007 \u009b31m \rOVER \u202eRTL\nsecond line"); }, ` +
	`execute: async () => "{}", resume: async () => "{}" };</script><p>x</p>`

func TestSetUpErrorsShowThePagesTextEscapedOnOneLine(t *testing.T) {
	page := serve(t, htmlPage(snapshotThrowsPage))
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--url", page},
		{"init", "--url", page, "--dir", filepath.Join(dir, "suite")},
	} {
		r := runBinary(t, args...)
		if r.code != 2 {
			t.Fatalf("%s: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", args[0], r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, `the runtime's snapshot failed: boom \x1b[2J\x1b[31mRED`) {
			t.Errorf("%s: stderr = %q, want the cause with its escapes shown", args[0], r.stderr)
		}
		if c, bad := rawControl(r.stdout + r.stderr); bad {
			t.Errorf("%s: output carries a raw %U:\n%q", args[0], c, r.stdout+r.stderr)
		}
		if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
			t.Errorf("%s: want one line on stderr, got %d:\n%s", args[0], lines, r.stderr)
		}
	}
}

// TestRunAndInitUseTheBrowserTheEnvironmentNames: GLASS_BROWSER_WS and
// GLASS_CDP_URL are read by the CLI as by the test suites. Pointed at a
// port nothing listens on, run and init fail in one line naming the
// endpoint, instead of launching a browser of their own.
func TestRunAndInitUseTheBrowserTheEnvironmentNames(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	page := serve(t, app.Handler())
	for _, c := range []struct{ env, want string }{
		{"GLASS_BROWSER_WS=ws://" + closed + "/", `glasstest: connect to the Playwright server "ws://` + closed + `/"`},
		{"GLASS_CDP_URL=http://" + closed, `glasstest: connect over CDP to "http://` + closed + `"`},
	} {
		for _, args := range [][]string{
			{"run", "--url", page, "--rules", "resolve.unknown-id"},
			{"init", "--url", page, "--dir", filepath.Join(t.TempDir(), "suite")},
		} {
			r := runBinaryEnv(t, []string{c.env}, args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want 2 and %q", c.env, args[0], r.code, r.stderr, c.want)
			}
			if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
				t.Errorf("%s %s: want one line on stderr, got %d:\n%s", c.env, args[0], lines, r.stderr)
			}
		}
	}
}

func rawControl(s string) (rune, bool) {
	if c := hostile.Controls(s); len(c) > 0 {
		return c[0], true
	}
	return 0, false
}

// eachFile calls fn with the name (under dir) and content of every file
// under dir, and returns how many there were.
func eachFile(t *testing.T, dir string, fn func(name string, b []byte)) int {
	t.Helper()
	files := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(strings.TrimPrefix(path, dir), b)
		return nil
	})
	if err != nil {
		t.Fatalf("read the outputs: %v", err)
	}
	return files
}

func TestBadInputIsOneClearLineAndExitTwo(t *testing.T) {
	noRuntime := serve(t, htmlPage(`<!doctype html><title>Plain</title><p>No runtime here.</p>`))
	otherProtocol := serve(t, htmlPage(`<!doctype html><title>v2</title><script>
globalThis.glassRuntime = { protocol: "glass.page/v2", ready: () => Promise.resolve(true), snapshot: () => ({}), execute: () => ({}) };
</script><p>v2</p>`))
	jsonAPI := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"hello":"world"}`)
	}))
	notFound := serve(t, http.NotFoundHandler())
	hugeReject := serve(t, htmlPage(`<!doctype html><title>huge</title><script>
globalThis.glassRuntime = { protocol: "glass.page/v1", ready: () => Promise.reject(new Error("boom " + "x".repeat(1 << 20))), snapshot: () => ({}), execute: () => ({}) };
</script><p>huge</p>`))
	todo := serve(t, mutants.ProvingPage())
	// A path below a regular file cannot be created, even by root.
	aFile := write(t, "plain-file", "x")
	unwritable := filepath.Join(t.TempDir(), "no-such-dir", "out.xml")
	badManifest := write(t, "bad.yaml", "version: 1\nexpectationFailures:\n  - url: /?fault=x\n")
	unknownField := write(t, "typo.yaml", "version: 1\nexpectationFailure:\n  - action: x\n")
	notYAML := write(t, "broken.yaml", "args: [unclosed\n")
	unknownBaseline := write(t, "baseline.txt", "policy.denied\nno.such-rule\n")
	fifo := filepath.Join(t.TempDir(), "manifest.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	oversized := write(t, "big.yaml", "# "+strings.Repeat("x", conformance.MaxFileSize)+"\n")

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "usage: glass-conformance"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown flag", []string{"run", "--frob"}, "glass-conformance run: flag provided but not defined: -frob (glass-conformance run -h lists the flags)"},
		{"flag without its value", []string{"run", "--url"}, "glass-conformance run: flag needs an argument: -url"},
		{"unknown flag of init", []string{"init", "--frob"}, "glass-conformance init: flag provided but not defined: -frob"},
		{"extra argument", []string{"run", "http://example.test"}, `unexpected argument "http://example.test"`},
		{"malformed URL", []string{"run", "--url", "::not a url"}, `--url "::not a url"`},
		{"URL without scheme", []string{"run", "--url", "example.test/page"}, "want an http or https URL"},
		{"unreachable host", []string{"run", "--url", closedPort(t)}, "cannot reach http://127.0.0.1:"},
		{"not found", []string{"run", "--url", notFound}, "answered 404 Not Found, want a page (2xx)"},
		{"non-HTML response", []string{"run", "--url", jsonAPI}, `is not an HTML page (Content-Type "application/json")`},
		{"page without runtime", []string{"run", "--url", noRuntime}, "the page has no Glass runtime (globalThis.glassRuntime is not defined)"},
		{"runtime of another protocol", []string{"run", "--url", otherProtocol}, `the page runtime speaks protocol "glass.page/v2"; this build checks "glass.page/v1"`},
		{"missing manifest", []string{"run", "--url", todo, "--manifest", "/no/such/manifest.yaml"}, `manifest "/no/such/manifest.yaml": cannot read it: no such file or directory`},
		{"manifest missing a field", []string{"run", "--manifest", badManifest}, "line 3: expectationFailures[0].action: required"},
		{"manifest with an unknown field", []string{"run", "--manifest", unknownField}, `line 2: unknown field "expectationFailure"`},
		{"manifest that is not YAML", []string{"run", "--manifest", notYAML}, "invalid manifest: "},
		{"unknown rule id", []string{"run", "--rules", "policy.denied,no.such-rule"}, `unknown rule id "no.such-rule"`},
		{"glob that matches nothing", []string{"run", "--rules", "nothing.*"}, `rule pattern "nothing.*" matches no rule`},
		{"shard 0/2", []string{"run", "--shard", "0/2"}, `--shard "0/2": want i/n with 1 ≤ i ≤ n`},
		{"shard 3/2", []string{"run", "--shard", "3/2"}, `--shard "3/2"`},
		{"shard a/b", []string{"run", "--shard", "a/b"}, `--shard "a/b"`},
		{"unknown transport", []string{"run", "--transport", "carrier-pigeon"}, `--transport "carrier-pigeon": want bridge, webmcp or both`},
		{"baseline with an unknown rule", []string{"run", "--expected-failures", unknownBaseline}, `line 2: unknown rule id "no.such-rule"`},
		{"manifest that is a device", []string{"run", "--manifest", "/dev/zero"}, `manifest "/dev/zero": cannot read it: not a regular file (a device)`},
		{"manifest that is a named pipe", []string{"run", "--manifest", fifo}, `manifest "` + fifo + `": cannot read it: not a regular file (a named pipe)`},
		{"manifest that is a directory", []string{"run", "--manifest", t.TempDir()}, `cannot read it: not a regular file (a directory)`},
		{"manifest over the size bound", []string{"run", "--manifest", oversized}, `manifest "` + oversized + `": cannot read it: larger than 1048576 bytes`},
		{"baseline that is a device", []string{"run", "--expected-failures", "/dev/zero"}, `expected failures "/dev/zero": cannot read it: not a regular file (a device)`},
		{"baseline that is a named pipe", []string{"run", "--expected-failures", fifo}, `expected failures "` + fifo + `": cannot read it: not a regular file (a named pipe)`},
		{"unwritable report path", []string{"run", "--junit", unwritable}, `--junit "` + unwritable + `": cannot write the report`},
		{"unwritable artifacts directory", []string{"run", "--artifacts", filepath.Join(aFile, "arts")}, `--artifacts "` + filepath.Join(aFile, "arts") + `": cannot write there: not a directory`},
		{"unwritable HTML report", []string{"run", "--html", filepath.Join(aFile, "out.html")}, `--html "` + filepath.Join(aFile, "out.html") + `": cannot write the report: not a directory`},
		{"rules with an argument", []string{"rules", "extra"}, `unexpected argument "extra"`},
		{"flag whose name holds escapes and a line break", []string{"run", "--x\x1b[31m\nPASS y"}, `glass-conformance run: flag provided but not defined: -x\x1b[31m\nPASS y`},
		{"flag name of 100,000 bytes", []string{"init", "--" + strings.Repeat("y", 100000)}, "glass-conformance init: flag provided but not defined: -yyy"},
		{"URL with a character that does not print", []string{"init", "--url", "http://127.0.0.1:1/?q=\u202e\ufeff"}, `holds U+202E, which does not print as itself: percent-encode it`},
		{"report path that is a device", []string{"run", "--url", closedPort(t), "--json", "/dev/null"}, `--json "/dev/null": not a regular file (a device)`},
		{"report path that is a named pipe", []string{"run", "--url", closedPort(t), "--html", fifo}, `--html "` + fifo + `": not a regular file (a named pipe)`},
		{"report path the kernel makes up", []string{"run", "--url", closedPort(t), "--junit", "/proc/self/comm"}, `--junit "/proc/self/comm": not a regular file (a file the kernel makes up)`},
		{"runtime written to a file the kernel makes up", []string{"runtime", "-o", "/proc/self/comm"}, `-o "/proc/self/comm": not a regular file (a file the kernel makes up)`},
		{"runtime written to a named pipe", []string{"runtime", "-o", fifo}, `-o "` + fifo + `": not a regular file (a named pipe)`},
		{"ready() rejecting with a megabyte", []string{"surface", "--url", hugeReject, "-o", filepath.Join(t.TempDir(), "s.json")}, "boom xxx"},
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
			if tc.args != nil {
				if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
					t.Errorf("want one line on stderr, got %d:\n%s", lines, r.stderr)
				}
				if len(r.stderr) > 2000 { // SECURITY.md: at most 2000 bytes, the newline included
					t.Errorf("want a short line on stderr, got %d bytes", len(r.stderr))
				}
			}
		})
	}
	if _, err := os.Stat(unwritable); err == nil {
		t.Error("a report file was left behind by a run that did not start")
	}
}

func TestNoReportIsLeftByARunThatCouldNotStart(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.xml")
	r := runBinary(t, "run", "--url", closedPort(t), "--junit", out)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an empty JUnit report was left behind")
	}
}

// TestARunThatCouldNotStartRemovesNothingItDidNotCreate: a report path
// that already holds a file (or a link to one) keeps it, as it was, when
// the run ends before writing its report; a device is refused, not
// opened, so nothing of the system is touched.
func TestARunThatCouldNotStartRemovesNothingItDidNotCreate(t *testing.T) {
	dir := t.TempDir()
	kept := write(t, "kept.json", "an earlier report")
	target := write(t, "target.html", "what the link points at")
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, "run", "--url", closedPort(t), "--json", kept, "--html", link)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.code, r.stderr)
	}
	for path, want := range map[string]string{kept: "an earlier report", link: "what the link points at", target: "what the link points at"} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v after the run; want it kept as %q", path, b, err, want)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was removed or replaced: %v", err)
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&os.ModeDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v", err)
	}
}

func TestRulesCommand(t *testing.T) {
	r := runBinary(t, "rules")
	if r.code != 0 || !strings.Contains(r.stdout, "policy.denied") || !strings.Contains(r.stdout, "MUST") {
		t.Fatalf("rules: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, "rules", "--json")
	var rules []struct {
		ID      string `json:"id"`
		Phase   string `json:"phase"`
		Must    string `json:"must"`
		Seed    string `json:"seed"`
		Checked bool   `json:"checked"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rules); err != nil || len(rules) == 0 {
		t.Fatalf("rules --json: %v\n%s", err, r.stdout)
	}
	for _, rule := range rules {
		if rule.ID == "" || rule.Must == "" {
			t.Errorf("rule without id or MUST: %+v", rule)
		}
	}
}

func TestHelpListsEachFlagOnceOnStdout(t *testing.T) {
	for _, cmd := range []string{"run", "rules", "init", "setup"} {
		r := runBinary(t, cmd, "-h")
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s -h: exit %d, stderr %q; want 0 and nothing", cmd, r.code, r.stderr)
		}
		if want := "usage: glass-conformance " + cmd + " [flags]\n"; !strings.HasPrefix(r.stdout, want) {
			t.Errorf("%s -h: stdout starts %q, want %q", cmd, clipText(r.stdout, 60), want)
		}
	}
	r := runBinary(t, "run", "-h")
	for _, flag := range []string{"-url", "-junit", "-manifest"} {
		if n := strings.Count(r.stdout, "\n  "+flag+" "); n != 1 {
			t.Errorf("run -h lists %s %d times, want once:\n%s", flag, n, r.stdout)
		}
	}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func TestVersionCommand(t *testing.T) {
	r := runBinary(t, "version")
	if r.code != 0 || !strings.Contains(r.stdout, "glass-conformance ") || !strings.Contains(r.stdout, "glass.page/v1") {
		t.Errorf("version: exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestShardSelectsItsPartOfTheRules(t *testing.T) {
	// Shards partition the selection in catalog order (the conformance
	// package tests the partition); here: the flag reaches the engine.
	js := filepath.Join(t.TempDir(), "out.json")
	r := runBinary(t, "run", "--url", serve(t, mutants.ProvingPage()), "--rules", "policy.denied,policy.no-channel", "--shard", "2/2", "--json", js)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var ids []string
	for _, f := range parseJSON(t, js).Findings {
		ids = append(ids, f.Rule.ID)
	}
	if len(ids) != 1 || ids[0] != "policy.no-channel" {
		t.Errorf("shard 2/2 of [policy.denied policy.no-channel] checked %v, want [policy.no-channel]", ids)
	}
	// A run of a few rules makes only their calls: it does not call every
	// available action for findings, and says so instead of "none".
	if rep := parseJSON(t, js); rep.CallsChecked || !strings.Contains(r.stdout, "\nfindings: not looked for: ") {
		t.Errorf("a narrow run without --strict: callsChecked %v, want false, and the findings line says they were not looked for:\n%s", rep.CallsChecked, r.stdout)
	}
}

// TestPageTextNeverForgesALineOfTheReport runs a rule against a runtime
// whose thrown message carries line breaks and what looks like the
// report's own lines (fixtures/faults/forges-report.html): a passing rule
// at column 0 and a summary. Neither reaches a line of its own: the one
// summary and the one verdict are Glass's, and the page's text is shown
// with its line breaks escaped.
func TestPageTextNeverForgesALineOfTheReport(t *testing.T) {
	page := serve(t, faults.Handler()) + "/forges-report.html"
	r := runBinary(t, "run", "--url", page, "--rules", "protocol.no-throw")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the runtime throws)\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	summaries, verdicts := 0, 0
	for _, line := range strings.Split(r.stdout, "\n") {
		if regexp.MustCompile(`^\d+ rules?: `).MatchString(line) {
			summaries++
		}
		if regexp.MustCompile(`^\s*PASS\s+(policy\.denied|envelope\.revision)`).MatchString(line) {
			t.Errorf("the page's text starts a line of the report: %q", line)
		}
		if regexp.MustCompile(`^\s*(PASS|FAIL|NOT PROBED)\s`).MatchString(line) {
			verdicts++
		}
	}
	if summaries != 1 || verdicts != 1 {
		t.Errorf("the report has %d summary lines and %d verdict lines, want 1 and 1 (protocol.no-throw):\n%s", summaries, verdicts, r.stdout)
	}
	if !strings.Contains(r.stdout, `boom\n  PASS        policy.denied\n73 rules: 73 passed`) {
		t.Errorf("the page's text should be shown with its line breaks escaped:\n%s", r.stdout)
	}
}

// A run that looks for findings (--strict, or a run of every rule) on a
// page whose runtime never becomes ready, or whose snapshot is not one,
// has no declared actions to call: it says so and exits 1 on the rule
// that fails, with its reports written, never an internal error (an
// outside audit's attack: a nil page model dereferenced).
func TestARunWithNoPageModelLooksForNoFindings(t *testing.T) {
	const global = `Object.defineProperty(globalThis, "glassRuntime", { value: Object.freeze({ protocol: "glass.page/v1", runtime: "hostile/1", ` +
		`ready: READY, snapshot: SNAPSHOT, execute: async () => ({}), resume: async () => ({}) }) });`
	for _, c := range []struct{ name, ready, snapshot, rule string }{
		{"ready() rejects", `() => Promise.reject(new Error("no"))`, `() => ({})`, "protocol.ready"},
		{"snapshot() returns null", `() => Promise.resolve()`, `() => null`, "protocol.snapshot"},
		{"snapshot() returns text that is not JSON", `() => Promise.resolve()`, `() => "{not json"`, "protocol.snapshot"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.NewReplacer("READY", c.ready, "SNAPSHOT", c.snapshot).Replace(global)
			page := serve(t, htmlPage("<!doctype html><title>No model</title><script>"+src+"</script><p>x</p>"))
			js := filepath.Join(t.TempDir(), "report.json")
			r := runBinary(t, "run", "--url", page, "--rules", "protocol.ready,protocol.snapshot", "--strict", "--json", js)
			if r.code != 1 || strings.Contains(r.stderr, "internal error") {
				t.Fatalf("exit %d, want 1 (%s fails)\nstdout:\n%s\nstderr:\n%s", r.code, c.rule, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "FAIL") || !strings.Contains(r.stdout, c.rule) || !strings.Contains(r.stdout, "findings: not looked for: no action was called: ") {
				t.Errorf("stdout does not fail %s and say no action was called:\n%s", c.rule, r.stdout)
			}
			b, err := os.ReadFile(js)
			if err != nil || !strings.Contains(string(b), `"callsChecked": false`) {
				t.Errorf("the JSON report (%v) does not say the calls were not checked:\n%s", err, b)
			}
		})
	}
}
