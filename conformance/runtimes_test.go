package conformance

import (
	"os"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

// TestBothRuntimesConform runs every rule against each base runtime of the
// mutation matrix — the reference runtime in front of the proving page,
// and the stockroom runtime, written apart from it from CONTRACT.md, in
// front of its page — with the page's manifest and without one, over the
// bridge and over WebMCP: no rule may fail either runtime. A
// rule a run cannot probe is not probed, never passed; the report lists
// them. One shared browser; each rule runs once per combination. The
// reference runtime with its manifest is the package's Ginkgo suite
// (register_test.go: the proving page, the same manifest, both
// transports, every checked rule must pass), so it is not run twice; the
// reference runtime without one runs over the bridge only (what a manifest
// adds is the same over either transport, and the other three runs check
// the reference runtime over WebMCP with it and the stockroom's without
// it): a full run over WebMCP costs about 35 s of CPU.
//
// GLASS_RULES=id,id runs only those rules (while working on a check).
func TestBothRuntimesConform(t *testing.T) {
	b := browser(t)
	var rules []Option
	if only := os.Getenv("GLASS_RULES"); only != "" {
		rules = append(rules, WithRules(strings.Split(only, ",")...))
	}
	for _, base := range mutants.Bases {
		url := serve(t, base.Page(base.Source()))
		for _, withManifest := range []bool{true, false} {
			if base == mutants.Reference && withManifest {
				continue // TestConformanceSuite's run
			}
			name := string(base) + "/without-manifest"
			if withManifest {
				name = string(base) + "/with-manifest"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel() // each run mostly waits on the browser
				transports := []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP}
				if base == mutants.Reference && !withManifest {
					transports = transports[:1]
				}
				opts := append([]Option{WithTransports(transports...)}, rules...)
				if withManifest {
					opts = append(opts, WithManifest(baseManifest(t, base)))
				}
				rep, err := Run(Target{URL: url, Browser: b}, opts...)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range rep.Findings {
					if f.Verdict == Fail {
						t.Errorf("%s fails the %s runtime: %s\n%s", rep.Name(f), base, f.Message, report.FailureText(f))
					}
				}
				var text strings.Builder
				_ = rep.WriteText(&text)
				_ = rep.WriteNotProbed(&text)
				t.Log(text.String())
			})
		}
	}
}
