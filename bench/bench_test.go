package main

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/sdk"
)

func TestQuantiles(t *testing.T) {
	s := sample{5, 1, 4, 2, 3}
	if got := s.median(); got != 3 {
		t.Errorf("median of 1..5 = %v, want 3", got)
	}
	if got := (sample{4, 1, 3, 2}).median(); got != 2.5 {
		t.Errorf("median of 1..4 = %v, want 2.5", got)
	}
	var hundred sample
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, float64(i))
	}
	if got := hundred.p95(); got != 95 {
		t.Errorf("p95 of 1..100 = %v, want 95", got)
	}
	if got := hundred.max(); got != 100 {
		t.Errorf("max of 1..100 = %v, want 100", got)
	}
	if got := hundred.mean(); got != 50.5 {
		t.Errorf("mean of 1..100 = %v, want 50.5", got)
	}
	if got := (sample{}).p95(); !math.IsNaN(got) {
		t.Errorf("p95 of nothing = %v, want NaN", got)
	}
	if got := (sample{}).median(); !math.IsNaN(got) {
		t.Errorf("median of nothing = %v, want NaN", got)
	}
	if got := pairRatio(sample{2, 9, 4}, sample{1, 3, 4}); got != 2 {
		t.Errorf("pairRatio = %v, want the median of 2, 3, 1 = 2", got)
	}
}

func TestProbeRuntimeAddsOnlyTheHook(t *testing.T) {
	probe, err := probeRuntime()
	if err != nil {
		t.Fatal(err)
	}
	ref := sdk.Runtime()
	if !bytes.Equal(bytes.Replace(probe, []byte(probeHook), nil, 1), ref) {
		t.Fatal("the probe runtime differs from the reference runtime by more than the hook")
	}
}

func TestRunRefusesBadSizes(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"-sizes", "10,x"}, &out, &errOut); code != 2 {
		t.Fatalf("run -sizes 10,x = %d, want 2", code)
	}
	if !strings.Contains(errOut.String(), `"x" is not a number`) {
		t.Errorf("stderr = %q, want it to name the bad size", errOut.String())
	}
}

// TestRecordsPage checks the page the scaling section measures: a row's
// deletion is confirmed, verified and diffed like the Todo example's, the
// plain side's button and dialog delete the same way, and the probe page
// times the runtime's passes.
func TestRecordsPage(t *testing.T) {
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h, err := handler()
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(h)
	defer site.Close()

	p, err := glasstest.OpenPage(b, site.URL+"/records.html?n=12", glasstest.Approve())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := p.Do("remove@r5", nil)
	if err := checkRemoved(r, "r5"); err != nil {
		t.Fatal(err)
	}
	if tot := r.Result.Changed.Records.Total; tot == nil || tot.From != 12 || tot.To != 11 {
		t.Errorf("total = %+v, want 12 → 11", tot)
	}
	if r := p.Do("remove@r6", nil, glasstest.Deny()); r.Result.OK {
		t.Errorf("a denied deletion succeeded: %s", r.GomegaString())
	}

	ctx, plain, err := openPlain(p, site.URL+"/records.html?n=12", "#records li")
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if _, err := plainRemove(plain, "#records", "record", "r7"); err != nil {
		t.Fatal(err)
	}
	if n, err := plain.Locator("#records li").Count(); err != nil || n != 11 {
		t.Errorf("rows after the plain deletion = %d, %v; want 11", n, err)
	}

	probePage, err := glasstest.OpenPage(b, site.URL+"/probe/records.html?n=12", glasstest.Approve())
	if err != nil {
		t.Fatal(err)
	}
	defer probePage.Close()
	v, err := probePage.Playwright().Evaluate(probeScript, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got probe
	if err := json.Unmarshal([]byte(v.(string)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Removed != 1 || got.Model <= 0 || got.Diff <= 0 || got.Snapshot <= 0 {
		t.Errorf("probe = %+v, want one removal and positive timings", got)
	}
}

func TestRunRefusesBadRunCounts(t *testing.T) {
	for _, args := range [][]string{{"-suite-runs", "0"}, {"-register-runs", "-1"}} {
		var out, errOut strings.Builder
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("run %v = %d, want 2", args, code)
		}
		if !strings.Contains(errOut.String(), "-suite-runs must be 1 or more") {
			t.Errorf("run %v: stderr = %q, want it to say what the counts must be", args, errOut.String())
		}
	}
}

// TestTypicalSpecSides runs each side of the typical spec once on the Todo
// example: each does what it is timed doing, or says what it did not.
func TestTypicalSpecSides(t *testing.T) {
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	if _, err := glassTypical(b, srv.URL+"/", false); err != nil {
		t.Errorf("with Glass: %v", err)
	}
	first, err := glasstest.OpenPage(b, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	br := first.Playwright().Context().Browser()
	_ = first.Close()
	if _, err := plainTypical(br, srv.URL+"/"); err != nil {
		t.Errorf("plain playwright-go: %v", err)
	}
}
