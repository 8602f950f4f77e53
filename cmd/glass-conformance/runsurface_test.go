package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSurfaceBadInputIsOneLineAndExit2: what is wrong with --surface
// is said in one line before a browser starts.
func TestRunSurfaceBadInputIsOneLineAndExit2(t *testing.T) {
	dir := t.TempDir()
	garbage := write(t, "garbage.json", "{not json")
	missing := filepath.Join(dir, "glass-surface.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--update-surface"}, "glass-conformance: --update-surface needs --surface FILE: the baseline to rewrite\n"},
		{[]string{"--surface", missing}, "glass-conformance: --surface \"" + missing + "\" does not exist: record the baseline with --update-surface (or glass-conformance surface -o " + missing + "), review it and commit it\n"},
		{[]string{"--surface", dir}, "glass-conformance: --surface: "},
		{[]string{"--surface", garbage}, "glass-conformance: --surface: "},
		{[]string{"--update-surface", "--surface", filepath.Join(garbage, "s.json")}, "glass-conformance: --surface: "},
	} {
		r := runCLI(t, append([]string{"run", "--url", closedPort(t)}, c.args...)...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("run %q: exit %d, stderr %q\nwant exit 2 and one line starting %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a run that could not start wrote a baseline")
	}
}

// TestRunSurfaceGate is issue 22's gate in the run: the Todo example with
// remove's risk lowered fails run --surface against the example's
// baseline, naming the action and what changed, with the reports kept
// under --artifacts; --update-surface accepts the change, and the same
// run passes. (--rules narrows the rules; the surface is the page's.)
func TestRunSurfaceGate(t *testing.T) {
	dir := t.TempDir()
	baseline := filepath.Join(dir, "glass-surface.json")
	if err := os.WriteFile(baseline, readFile(t, filepath.Join("..", "..", "examples", "todo", "testdata", "glass-surface.json")), 0o644); err != nil {
		t.Fatal(err)
	}
	url := riskLowered(t)
	artifacts := filepath.Join(dir, "artifacts")
	gate := []string{"run", "--url", url, "--rules", "protocol.global", "--surface", baseline}

	r := runCLI(t, append(gate, "--artifacts", artifacts)...)
	if r.code != 1 || !strings.Contains(r.stdout, "\ncapability surface against the baseline "+baseline+":\n") ||
		!strings.Contains(r.stdout, "\n  BREAKING      remove: risk lowered from dangerous to write: a call no longer asks the user\n") ||
		!strings.Contains(r.stdout, "\nbreaking changes: if they are intended, accept them with --update-surface and commit "+baseline+" in the same change\n") {
		t.Fatalf("run --surface on the changed page: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	var rep struct{ Breaking bool }
	if err := json.Unmarshal(readFile(t, filepath.Join(artifacts, "surface", "report.json")), &rep); err != nil || !rep.Breaking {
		t.Errorf("artifacts/surface/report.json: %+v, %v", rep, err)
	}
	for _, f := range []string{"live.json", "junit.xml", "report.html"} {
		if _, err := os.Stat(filepath.Join(artifacts, "surface", f)); err != nil {
			t.Errorf("the artifacts lack surface/%s: %v", f, err)
		}
	}

	before := readFile(t, baseline)
	r = runCLI(t, append(gate, "--update-surface")...)
	if r.code != 0 || !strings.Contains(r.stdout, "  BREAKING      remove: risk lowered from dangerous to write") ||
		!strings.Contains(r.stdout, `capability surface: wrote the surface of page "todo" (19 entries) to `+baseline+"; review it and commit it\n") {
		t.Fatalf("run --update-surface: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if after := readFile(t, baseline); bytes.Equal(before, after) || !bytes.Contains(after, []byte(`"risk": "write"`)) {
		t.Errorf("--update-surface did not write the page's surface:\n%s", after)
	}

	r = runCLI(t, gate...)
	if r.code != 0 || !strings.Contains(r.stdout, "\nno differences\n") {
		t.Fatalf("run --surface after --update-surface: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestRunStrictFailsOnTheHoverOnlyDelete: the third-party-style todo app,
// whose delete shows only on :hover, conforms, but every approved call of
// delete fails: run says so in its findings and in the JSON report, and
// --strict fails the run on it.
func TestRunStrictFailsOnTheHoverOnlyDelete(t *testing.T) {
	js := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, "run", "--url", todosApp(t)+"?demo", "--rules", "protocol.global", "--strict", "--json", js)
	want := "\nfindings: 1; glass-conformance run --strict fails on them:\n" +
		"  - delete@1: available, but the approved call could not make it usable: ACTION_UNAVAILABLE at target_resolution: the target is hidden (display: none on itself; a control shown only on :hover or focus needs a reveal that shows it)\n" +
		"--strict: the page conforms, but the run fails on its findings\n"
	if r.code != 1 || !strings.HasSuffix(r.stdout, want) {
		t.Fatalf("run --strict: exit %d, want 1 and stdout ending\n%s\nstdout:\n%s\nstderr:\n%s", r.code, want, r.stdout, r.stderr)
	}
	var rep struct {
		Conforms, ConformsStrictly, CallsChecked bool
		CallFindings                             []struct{ Action, Kind, Code string }
	}
	if err := json.Unmarshal(readFile(t, js), &rep); err != nil {
		t.Fatal(err)
	}
	// --strict with --rules still calls every available action.
	if !rep.Conforms || rep.ConformsStrictly || !rep.CallsChecked || len(rep.CallFindings) != 1 || rep.CallFindings[0].Action != "delete@1" || rep.CallFindings[0].Kind != "unusable" {
		t.Errorf("the JSON report: %+v", rep)
	}
}
