package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/surface"
)

// cliDeadline bounds every run of the binary: a command that records a
// page starts Chromium, which is slow on a busy machine, and must still
// never hang a test.
const cliDeadline = 3 * time.Minute

// runCLI runs the binary built by TestMain with a deadline.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliDeadline)
	defer cancel()
	var o, e bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("glass-conformance %s: still running after %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), cliDeadline, o.String(), e.String())
	}
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

// surfaceCase writes one side of a case of package surface's testdata as
// a surface file of its own, and returns its path.
func surfaceCase(t *testing.T, dir, name, side string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "surface", "testdata", "diff", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var pair map[string]json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil {
		t.Fatal(err)
	}
	s, err := surface.Decode(pair[side])
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+"."+side+".json")
	if err := surface.WriteFile(p, s); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSurfaceBadInputIsOneLineAndExit2: every mistake is one line on
// stderr and exit 2, found before any browser starts; a FIFO or a device
// given as a surface file is refused at once.
func TestSurfaceBadInputIsOneLineAndExit2(t *testing.T) {
	dir := t.TempDir()
	old := surfaceCase(t, dir, "risk-lowered", "baseline")
	invalid := write(t, "invalid.json", `{"format": "glass.surface/v1", "protocol": "glass.page/v1", "page": {"id": "x", "title": "x"}, "actions": [], "extra": 1}`)
	existing := write(t, "glass-surface.json", "{}")
	cases := []struct {
		name string
		args []string
		err  string
	}{
		{"no files", []string{"surface", "diff"}, "glass-conformance surface diff: want two surface files, OLD (the baseline) and NEW, got 0 argument(s)"},
		{"three files", []string{"surface", "diff", old, old, old}, "glass-conformance surface diff: want two surface files, OLD (the baseline) and NEW, got 3 argument(s)"},
		{"unknown flag", []string{"surface", "diff", "--bogus", old, old}, "glass-conformance surface diff: flag provided but not defined: -bogus (glass-conformance surface -h lists the flags)"},
		{"missing baseline", []string{"surface", "diff", filepath.Join(dir, "none.json"), old},
			`glass-conformance surface diff: baseline "` + filepath.Join(dir, "none.json") + `" does not exist: record it with glass-conformance surface --url URL -o ` + filepath.Join(dir, "none.json") + `, review it and commit it`},
		{"a directory", []string{"surface", "diff", old, dir}, `glass-conformance surface diff: read "` + dir + `": not a regular file (a directory)`},
		{"an invalid surface", []string{"surface", "diff", old, invalid}, `glass-conformance surface diff: "` + invalid + `": invalid surface: $.extra: unknown field (want one of format, protocol, page, actions, omitted)`},
		{"an unwritable report", []string{"surface", "diff", "--junit", filepath.Join(dir, "no", "such", "junit.xml"), old, old},
			`glass-conformance surface diff: --junit "` + filepath.Join(dir, "no", "such", "junit.xml") + `": cannot write the report: no such file or directory`},
		{"a report over a directory", []string{"surface", "diff", "--html", dir, old, old}, `glass-conformance surface diff: --html "` + dir + `": not a regular file (a directory)`},
		{"record: an argument", []string{"surface", "extra"}, `glass-conformance surface: unexpected argument "extra"`},
		{"record: a bad URL", []string{"surface", "--url", "ftp://x/", "-o", filepath.Join(dir, "s.json")}, `glass-conformance surface: --url "ftp://x/": want an http or https URL`},
		{"record: over an existing file", []string{"surface", "--url", "http://127.0.0.1:1/", "-o", existing},
			`glass-conformance surface: "` + existing + `" exists: compare the page with it (record to another file, then glass-conformance surface diff ` + existing + ` NEW), or pass --update to rewrite it`},
		{"record: into a directory", []string{"surface", "-o", dir}, `glass-conformance surface: -o "` + dir + `": not a regular file (a directory)`},
	}
	if fifo := filepath.Join(dir, "fifo"); haveFIFO(t, fifo) {
		cases = append(cases,
			struct {
				name string
				args []string
				err  string
			}{"a FIFO", []string{"surface", "diff", fifo, old}, `glass-conformance surface diff: read "` + fifo + `": not a regular file (a named pipe)`},
			struct {
				name string
				args []string
				err  string
			}{"record: into a FIFO", []string{"surface", "-o", fifo}, `glass-conformance surface: -o "` + fifo + `": not a regular file (a named pipe)`})
	}
	if _, err := os.Stat("/proc/self/comm"); err == nil && runtime.GOOS == "linux" {
		cases = append(cases, struct {
			name string
			args []string
			err  string
		}{"record: into a file the kernel makes up", []string{"surface", "-o", "/proc/self/comm", "--update"}, `glass-conformance surface: -o "/proc/self/comm": not a regular file (a file the kernel makes up)`})
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases = append(cases, struct {
			name string
			args []string
			err  string
		}{"an endless device", []string{"surface", "diff", old, "/dev/zero"}, `glass-conformance surface diff: read "/dev/zero": not a regular file (a device)`})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, c.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if r.stderr != c.err+"\n" {
				t.Errorf("stderr:\n%s\nwant one line:\n%s", r.stderr, c.err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "s.json")); err == nil {
		t.Error("a failed recording left a surface file")
	}
}

// TestSurfaceDiffFailsOnBreakingAndUpdateAcceptsIt: the gate on two files,
// without a browser.
func TestSurfaceDiffFailsOnBreakingAndUpdateAcceptsIt(t *testing.T) {
	dir := t.TempDir()
	old := surfaceCase(t, dir, "risk-lowered", "baseline")
	cur := surfaceCase(t, dir, "risk-lowered", "live")
	junit, js, html := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.json"), filepath.Join(dir, "report.html")

	// Flags may follow the files.
	r := runCLI(t, "surface", "diff", old, cur, "--junit", junit, "--json", js, "--html", html)
	want := "capability surface " + cur + " against the baseline " + old + ":\n" +
		"  BREAKING      remove: risk lowered from dangerous to write: a call no longer asks the user\n\n" +
		"1 breaking, 0 need review, 0 additive\n" +
		"breaking changes: if they are intended, accept them with glass-conformance surface diff --update " + old + " " + cur + " and commit " + old + " in the same change\n"
	if r.code != 1 || r.stdout != want || r.stderr != "" {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(readFile(t, junit), &suites); err != nil || suites.Failures != 1 {
		t.Errorf("junit: %+v, %v", suites, err)
	}
	var rep struct{ Breaking bool }
	if err := json.Unmarshal(readFile(t, js), &rep); err != nil || !rep.Breaking {
		t.Errorf("json report: %+v, %v", rep, err)
	}
	if !bytes.Contains(readFile(t, html), []byte("risk lowered from dangerous to write")) {
		t.Error("the HTML report does not show the difference")
	}

	// Accepting the change rewrites the baseline from NEW.
	r = runCLI(t, "surface", "diff", "--update", old, cur)
	if r.code != 0 || !strings.HasSuffix(r.stdout, "accepted: "+old+" now holds the surface of "+cur+"; commit it with the change\n") {
		t.Fatalf("--update: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !bytes.Equal(readFile(t, old), readFile(t, cur)) {
		t.Error("--update did not make the baseline the new surface")
	}
	r = runCLI(t, "surface", "diff", old, cur)
	if r.code != 0 || !strings.HasSuffix(r.stdout, "\nno differences\n") {
		t.Errorf("after --update: exit %d\nstdout:\n%s", r.code, r.stdout)
	}
}

// TestSurfaceDiffPassesReviewAndAdditiveDifferences: only a breaking
// difference fails the gate; the others are printed.
func TestSurfaceDiffPassesReviewAndAdditiveDifferences(t *testing.T) {
	dir := t.TempDir()
	for name, line := range map[string]string{
		"risk-raised":  "  NEEDS REVIEW  add: risk raised from write to dangerous: a call now asks the user\n",
		"action-added": "  ADDITIVE      archive: new action (function, write)\n",
	} {
		r := runCLI(t, "surface", "diff", surfaceCase(t, dir, name, "baseline"), surfaceCase(t, dir, name, "live"))
		if r.code != 0 || !strings.Contains(r.stdout, line) {
			t.Errorf("%s: exit %d, want 0 and %q\nstdout:\n%s\nstderr:\n%s", name, r.code, line, r.stdout, r.stderr)
		}
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// riskLowered serves the Todo example with one change, made here rather
// than in the example: its app.js declares remove@<task> a write instead
// of a dangerous action, so deleting no longer asks the user (the change
// of issue 22).
func riskLowered(t *testing.T) string {
	t.Helper()
	h := app.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/static/app.js" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		js := rec.Body.String()
		const decl = `id: "remove@" + t.id,
        description: "Delete the task",
        risk: "dangerous",`
		if strings.Count(js, decl) != 1 {
			t.Errorf("the Todo example's app.js no longer declares remove@<task> as this test expects:\n%s", decl)
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write([]byte(strings.Replace(js, decl, strings.Replace(decl, `"dangerous"`, `"write"`, 1), 1)))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// TestSurfaceGateOnTheTodoPage is the review workflow end to end, in real
// Chromium: the Todo example's baseline holds for the example; a change
// that lowers remove's risk fails the gate, naming the action and what
// changed; accepting it with --update makes the gate pass again.
func TestSurfaceGateOnTheTodoPage(t *testing.T) {
	dir := t.TempDir()
	baseline := filepath.Join(dir, "glass-surface.json")
	if err := os.WriteFile(baseline, readFile(t, filepath.Join("..", "..", "examples", "todo", "testdata", "glass-surface.json")), 0o644); err != nil {
		t.Fatal(err)
	}

	// The example as it is: its surface is the baseline, byte for byte.
	same := filepath.Join(dir, "same.json")
	r := runCLI(t, "surface", "--url", serve(t, app.Handler()), "-o", same)
	if r.code != 0 || r.stdout != `wrote the surface of page "todo" (19 entries) to `+same+"\n" {
		t.Fatalf("surface of the example: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !bytes.Equal(readFile(t, same), readFile(t, baseline)) {
		t.Errorf("the example's surface is not its baseline (examples/todo/testdata/glass-surface.json):\n%s", readFile(t, same))
	}

	// -o - writes the same bytes to stdout, and nothing else.
	if r := runCLI(t, "surface", "--url", serve(t, app.Handler()), "-o", "-"); r.code != 0 || r.stdout != string(readFile(t, baseline)) {
		t.Errorf("surface -o -: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	// The page with remove's risk lowered.
	live := filepath.Join(dir, "live.json")
	if r := runCLI(t, "surface", "--url", riskLowered(t), "-o", live); r.code != 0 {
		t.Fatalf("surface of the changed page: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "surface", "diff", baseline, live)
	if r.code != 1 || !strings.Contains(r.stdout, "\n  BREAKING      remove: risk lowered from dangerous to write: a call no longer asks the user\n") {
		t.Fatalf("the gate on the changed page: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	// Accepting the change in the same pull request.
	if r := runCLI(t, "surface", "diff", "--update", baseline, live); r.code != 0 {
		t.Fatalf("--update: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "surface", "diff", baseline, live); r.code != 0 || !strings.HasSuffix(r.stdout, "\nno differences\n") {
		t.Fatalf("the gate after --update: exit %d, want 0\nstdout:\n%s", r.code, r.stdout)
	}

	// Recording over the baseline with --update says what it accepts: here,
	// going back to the example as it is.
	r = runCLI(t, "surface", "--url", serve(t, app.Handler()), "--update", "-o", baseline)
	if r.code != 0 || !strings.Contains(r.stdout, "  NEEDS REVIEW  remove: risk raised from write to dangerous: a call now asks the user\n") {
		t.Fatalf("surface --update: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !bytes.Equal(readFile(t, same), readFile(t, baseline)) {
		t.Error("surface --update did not write the page's surface")
	}
}

// runScript runs a shell step of action.yml as the runner would, with env
// and a GITHUB_OUTPUT file, and returns the outputs it wrote and its exit
// status.
func runScript(t *testing.T, script string, env ...string) (map[string]string, int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "github-output")
	ctx, cancel := context.WithTimeout(context.Background(), cliDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", script)
	cmd.Env = append(os.Environ(), append(env, "GITHUB_OUTPUT="+out)...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the step is still running after %s:\n%s", cliDeadline, log.String())
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{}
	b, _ := os.ReadFile(out)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			outputs[k] = v
		}
	}
	t.Logf("step log:\n%s", log.String())
	return outputs, code
}

// TestActionSurfaceGate runs the action's check step and its last step as
// the runner would (bash, RUNNER_TEMP holding the binary, a GITHUB_OUTPUT
// file): on the Todo example with its baseline the gate passes;
// on the page with remove's risk lowered the run fails and the surface's
// verdict is 1, which fails the job; with strict, the hover-only delete of
// the todos app fails the run. The example workflow and docs/ci.md's
// fragment pass only declared inputs.
func TestActionSurfaceGate(t *testing.T) {
	root := repoRoot(t)
	var action actionFile
	readYAML(t, filepath.Join(root, "action.yml"), &action)
	for _, in := range []string{"surface", "strict"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Fatalf("action.yml has no %s input", in)
		}
	}
	if v := action.Outputs["surface-exit-code"]["value"]; v != "${{ steps.check.outputs.surface-exit-code }}" {
		t.Errorf("the surface-exit-code output is %q", v)
	}
	var step, last actionStep
	for _, s := range action.Runs.Steps {
		if s.ID == "check" {
			step = s
		}
		last = s
	}
	if step.Env["GLASS_SURFACE"] != "${{ inputs.surface }}" || step.Env["GLASS_STRICT"] != "${{ inputs.strict }}" {
		t.Fatalf("the check step does not pass the surface and strict inputs: %+v", step.Env)
	}

	// The runner's view: the binary in RUNNER_TEMP, the workspace as
	// working directory.
	runner := t.TempDir()
	if err := os.Link(bin, filepath.Join(runner, "glass-conformance")); err != nil {
		if err := os.WriteFile(filepath.Join(runner, "glass-conformance"), readFile(t, bin), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	baseline := filepath.Join(root, "examples", "todo", "testdata", "glass-surface.json")
	check := func(url, surface, strict string) (map[string]string, int) {
		return runScript(t, step.Run, "RUNNER_TEMP="+t.TempDir(), "PATH="+os.Getenv("PATH"), "GLASS_URL="+url, "GLASS_TRANSPORT=bridge",
			"GLASS_ARGS=--rules protocol.global", "GLASS_SURFACE="+surface, "GLASS_STRICT="+strict)
	}
	step.Run = strings.ReplaceAll(step.Run, `"$RUNNER_TEMP/glass-conformance"`, `"`+filepath.Join(runner, "glass-conformance")+`"`)
	outputs, code := check(serve(t, app.Handler()), baseline, "false")
	if code != 0 || outputs["exit-code"] != "0" || outputs["surface-exit-code"] != "0" {
		t.Fatalf("the check step on the example: exit %d, outputs %v", code, outputs)
	}
	outputs, code = check(riskLowered(t), baseline, "false")
	if code != 0 || outputs["exit-code"] != "1" || outputs["surface-exit-code"] != "1" {
		t.Fatalf("the check step on the changed page: exit %d, outputs %v; want the step to pass, exit-code=1 and surface-exit-code=1", code, outputs)
	}
	outputs, code = check(todosApp(t)+"?demo", "", "true")
	if _, ok := outputs["surface-exit-code"]; code != 0 || outputs["exit-code"] != "1" || ok {
		t.Fatalf("the check step with strict on the hover-only delete: exit %d, outputs %v; want exit-code=1 and no surface-exit-code", code, outputs)
	}
	for _, c := range []struct {
		code, surface string
		want          int
	}{{"1", "1", 1}, {"0", "", 0}, {"1", "0", 1}, {"2", "2", 2}, {"0", "2", 2}} {
		if _, got := runScript(t, last.Run, "CODE="+c.code, "SURFACE_CODE="+c.surface); got != c.want {
			t.Errorf("the last step with exit-code %s and surface-exit-code %q: exit %d, want %d", c.code, c.surface, got, c.want)
		}
	}

	var wf workflowFile
	readYAML(t, filepath.Join(root, ".github", "workflows", "conformance-example.yml"), &wf)
	var watched bool
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if p := s.With["surface"]; s.Uses == "./" && p != "" {
				watched = true
				mustExist(t, root, "the example workflow", p)
			}
		}
	}
	if !watched {
		t.Error("the example workflow does not check the Todo example's surface")
	}
	var frag workflowFile
	readYAML(t, filepath.Join(root, "docs", "snippets", "ci-surface.yml"), &frag)
	for _, j := range frag.Jobs {
		for _, s := range j.Steps {
			for k := range s.With {
				if _, ok := action.Inputs[k]; !ok && strings.HasPrefix(s.Uses, "glassworks/glass@") {
					t.Errorf("docs/snippets/ci-surface.yml passes %s, which the action does not declare", k)
				}
			}
		}
	}
}

// TestSurfaceOfAPageWithoutARuntimeIsOneLine: a page that declares nothing
// is a set-up error (exit 2, one line), and leaves no surface file.
func TestSurfaceOfAPageWithoutARuntimeIsOneLine(t *testing.T) {
	url := serve(t, htmlPage("<!doctype html><title>Plain</title><p>No runtime here.</p>"))
	out := filepath.Join(t.TempDir(), "glass-surface.json")
	r := runCLI(t, "surface", "--url", url, "-o", out)
	want := `glass-conformance surface: glasstest: snapshot "` + strings.TrimSuffix(url, "/") + `/": the page has no Glass runtime (globalThis.glassRuntime)` + "\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("exit %d, want 2\nstderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed recording left a surface file")
	}
}
