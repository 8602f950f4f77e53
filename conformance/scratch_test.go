package conformance

import (
	"os"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

func TestScratch(t *testing.T) {
	target := os.Getenv("SCRATCH")
	if target == "" {
		t.Skip()
	}
	var opts []Option
	if r := os.Getenv("SCRATCH_RULES"); r != "" {
		opts = append(opts, WithRules(strings.Split(r, ",")...))
	}
	tr := []glasstest.Transport{glasstest.TransportBridge}
	if os.Getenv("SCRATCH_WEBMCP") != "" {
		tr = append(tr, glasstest.TransportWebMCP)
	}
	opts = append(opts, WithTransports(tr...))
	var url string
	switch target {
	case "proving":
		url = serve(t, mutants.ProvingPage())
		if os.Getenv("SCRATCH_NOMANIFEST") == "" {
			opts = append(opts, WithManifest(baseManifest(t, mutants.Reference)))
		}
	case "stockroom":
		url = serve(t, mutants.Stockroom.Page(mutants.Stockroom.Source()))
		if os.Getenv("SCRATCH_NOMANIFEST") == "" {
			opts = append(opts, WithManifest(baseManifest(t, mutants.Stockroom)))
		}
	case "todo":
		url = serve(t, app.Handler())
		if os.Getenv("SCRATCH_NOMANIFEST") == "" {
			opts = append(opts, WithManifest(todoManifest(t)))
		}
	}
	rep, err := Run(Target{URL: url, Browser: browser(t)}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	logReport(t, rep)
	if os.Getenv("SCRATCH_EVIDENCE") != "" {
		for _, f := range rep.Findings {
			t.Log(report.FailureText(f))
		}
	}
}
