package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func TestCompareReportsChangedVerdictsAndBrokenTests(t *testing.T) {
	runs := []map[string]string{
		{"p TestA": "pass", "p TestB": "pass", "p TestC": "fail", "p [It] spec": "passed", "p TestGone": "pass"},
		{"p TestA": "pass", "p TestB": "fail", "p TestC": "fail", "p [It] spec": "failed"},
		{"p TestA": "pass", "p TestB": "pass", "p TestC": "fail", "p [It] spec": "passed", "p TestGone": "pass"},
	}
	changed, broken := compare(runs)
	want := []change{
		{"p TestB", "fail×1 pass×2"},
		{"p TestGone", "absent×1 pass×2"},
		{"p [It] spec", "failed×1 passed×2"},
	}
	if !reflect.DeepEqual(changed, want) {
		t.Errorf("changed = %+v, want %+v", changed, want)
	}
	if !reflect.DeepEqual(broken, []string{"p TestC (fail)"}) {
		t.Errorf("always failed = %v", broken)
	}
	if c, b := compare(runs[:1]); len(c) != 0 || len(b) != 1 {
		t.Errorf("one run: changed %v, broken %v", c, b)
	}
}

func TestGoTestVerdictsReadsTheEventStream(t *testing.T) {
	events := strings.Join([]string{
		`{"Action":"run","Package":"m/p","Test":"TestA"}`,
		`{"Action":"output","Package":"m/p","Test":"TestA","Output":"--- PASS"}`,
		`{"Action":"pass","Package":"m/p","Test":"TestA"}`,
		`{"Action":"fail","Package":"m/p","Test":"TestB/sub"}`,
		`{"Action":"skip","Package":"m/p","Test":"TestC"}`,
		`# m/p [build failed]`,
		`{"Action":"fail","Package":"m/p"}`,
	}, "\n")
	got := goTestVerdicts("m/p", strings.NewReader(events))
	want := map[string]string{"m/p TestA": "pass", "m/p TestB/sub": "fail", "m/p TestC": "skip", "m/p (package)": "fail"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := goTestVerdicts("m/q", bytes.NewReader([]byte("m/q: build failed\n"))); got["m/q (package)"] != "fail" {
		t.Errorf("a package that did not build: %v", got)
	}
}

func TestGinkgoVerdictsNameSpecsByFullText(t *testing.T) {
	spec := func(text string, state types.SpecState) types.SpecReport {
		return types.SpecReport{ContainerHierarchyTexts: []string{"Faults"}, LeafNodeText: text, LeafNodeType: types.NodeTypeIt, State: state}
	}
	got := ginkgoVerdicts("m/p", []types.Report{{SpecReports: types.SpecReports{
		spec("never answers", types.SpecStatePassed),
		spec("twin", types.SpecStatePassed),
		spec("twin", types.SpecStateFailed),
		spec("Entry: f, [0xb3cb20]", types.SpecStatePassed),
		{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
	}}})
	want := map[string]string{
		"m/p [It] Faults never answers":   "passed",
		"m/p [It] Faults twin":            "passed",
		"m/p [It] Faults twin #2":         "failed",
		"m/p [It] Faults Entry: f, [0x…]": "passed",
		"m/p [BeforeSuite] ":              "passed",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	for _, args := range [][]string{{"-n", "1"}, {"-p", "0"}, {"-n", "x"}, {"./no/such/package/..."}} {
		var o, e bytes.Buffer
		if code := run(args, &o, &e); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, code, o.String(), e.String())
		} else if lines := strings.Count(strings.TrimSpace(e.String()), "\n"); args[0] != "-n" && lines != 0 {
			t.Errorf("%v: want one line on stderr, got:\n%s", args, e.String())
		}
	}
}

func TestARunFindsTheFlakyTestAndSpec(t *testing.T) {
	t.Setenv("FLAKE_FIXTURE_COUNTER", filepath.Join(t.TempDir(), "counter"))
	var o, e bytes.Buffer
	code := run([]string{"-n", "2", "-p", "1", "-dir", t.TempDir(), "./testdata/flaky"}, &o, &e)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, o.String(), e.String())
	}
	out := o.String()
	for _, want := range []string{
		"CHANGED github.com/glassworks/glass/scripts/flake/testdata/flaky TestFlaky: fail×1 pass×1",
		"CHANGED github.com/glassworks/glass/scripts/flake/testdata/flaky [It] The fixture flakes: failed×1 passed×1",
		"CHANGED github.com/glassworks/glass/scripts/flake/testdata/flaky TestSuite: fail×1 pass×1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, steady := range []string{"TestSteady", "is steady"} {
		if strings.Contains(out, steady) {
			t.Errorf("a steady test is reported (%s):\n%s", steady, out)
		}
	}
	if !strings.Contains(out, "with a changed verdict over 2 runs") {
		t.Errorf("no summary:\n%s", out)
	}
}

func TestARunGivenTheDirOfAnInterruptedOneGoesOn(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "counter")
	t.Setenv("FLAKE_FIXTURE_COUNTER", counter)
	dir := t.TempDir()
	flake := func(args ...string) (int, string, string) {
		var o, e bytes.Buffer
		code := run(append(args, "./testdata/flaky"), &o, &e)
		return code, o.String(), e.String()
	}
	// Two runs finish; a third is cut off, leaving part of its output.
	if code, o, e := flake("-n", "2", "-p", "1", "-dir", dir); code != 1 {
		t.Fatalf("first two runs: exit %d\n%s%s", code, o, e)
	}
	if err := os.MkdirAll(filepath.Join(dir, "run03"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run03", "half.jsonl"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}

	code, o, e := flake("-n", "3", "-p", "1", "-dir", dir)
	if code != 1 {
		t.Fatalf("going on: exit %d\n%s%s", code, o, e)
	}
	for _, want := range []string{
		"2 runs of this tree already finished there; going on from run 3",
		"run 3/3:",
		"with a changed verdict over 3 runs",
		"TestFlaky: fail×1 pass×2",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if strings.Contains(o, "run 1/3") || strings.Contains(o, "run 2/3") {
		t.Errorf("finished runs ran again:\n%s", o)
	}
	if b, _ := os.ReadFile(counter); string(b) != "3" {
		t.Errorf("the fixture ran %s times, want 3", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "run03", "half.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted run's output was kept: %v", err)
	}

	// Runs of another tree are refused, in one line, not mixed in.
	b, err := os.ReadFile(filepath.Join(dir, planFile))
	if err != nil {
		t.Fatal(err)
	}
	var p plan
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	p.Tree = "0000000000000000000000000000000000000000"
	if err := writeJSON(filepath.Join(dir, planFile), p); err != nil {
		t.Fatal(err)
	}
	code, o, e = flake("-n", "4", "-p", "1", "-dir", dir)
	if code != 2 || !strings.Contains(e, "holds runs of another tree") || strings.Count(strings.TrimSpace(e), "\n") != 0 {
		t.Errorf("another tree's runs: exit %d, want 2 and one line\n%s%s", code, o, e)
	}
	if b, _ := os.ReadFile(counter); string(b) != "3" {
		t.Errorf("the fixture ran after the refusal: %s times", b)
	}
}
