package conformance

import (
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/glassworks/glass/conformance/internal/engine"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

// Register adds the conformance suite to the Ginkgo suite it is called in:
// one spec per selected rule and transport, named and labelled with the
// rule id, labelled "phase:<phase>" and "transport:<transport>", and every
// one labelled Label ("glass-conformance"), inside a container "Glass
// conformance". A suite skips them all with
// --label-filter='!glass-conformance', or runs only them with
// --label-filter=glass-conformance. Call it at the top level of a test file or
// inside a container:
//
//	var _ = conformance.Register(func() conformance.Target {
//		return conformance.Target{URL: appURL}
//	}, conformance.WithManifest(m))
//
// target is called once, in the first spec that runs, so it may use what a
// BeforeSuite set up. A rule that fails fails its spec with the message and
// the evidence (also attached as report entries, which the console shows
// only for a failed spec or with -v); a rule that could not be probed is
// skipped with the reason, so Ginkgo counts it as skipped, never as
// passed. Bad options register a single failing spec that says why.
func Register(target func() Target, opts ...Option) bool {
	return ginkgo.Describe("Glass conformance", func() {
		cfg, err := newConfig(opts)
		var rules []Rule
		if err == nil {
			rules, err = engine.Select(cfg)
		}
		if err != nil {
			ginkgo.It("has valid options", func() { ginkgo.Fail(err.Error()) })
			return
		}
		var (
			once sync.Once
			s    *probe.Session
			serr error
		)
		get := func() *probe.Session {
			ginkgo.GinkgoHelper()
			once.Do(func() {
				// Specs run one by one and nothing waits for background
				// work at the suite's end: no probe is computed ahead.
				s, serr = engine.Start(target(), cfg, 0)
			})
			if serr != nil {
				ginkgo.Fail(serr.Error())
			}
			return s
		}
		for _, tr := range cfg.Transports {
			for _, rule := range rules {
				name := rule.ID
				if len(cfg.Transports) > 1 {
					name += " [" + string(tr) + "]"
				}
				ginkgo.It(name, ginkgo.Label(labels(rule, tr)...), func() {
					f := engine.Check(get(), rule, tr)
					// The evidence is in every report; the console shows it for
					// a spec that failed, or with -v: a passing suite stays short.
					for _, ev := range f.Evidence {
						ginkgo.AddReportEntry(ev.Label, ev.Text, ginkgo.ReportEntryVisibilityFailureOrVerbose)
					}
					switch f.Verdict {
					case NotProbed:
						ginkgo.Skip("not probed: " + f.Message)
					case Fail:
						ginkgo.Fail(report.FailureText(f))
					}
				})
			}
		}
	})
}

// Label is the Ginkgo label every spec Register adds carries, besides its
// rule's labels: a suite filters the conformance specs in or out with it
// (ginkgo --label-filter='!glass-conformance' for a quick run).
const Label = "glass-conformance"

// labels are the Ginkgo labels of a rule's spec; characters Ginkgo does
// not allow in labels become "-".
func labels(rule Rule, tr glasstest.Transport) []string {
	clean := strings.NewReplacer("&", "-", "|", "-", "!", "-", ",", "-", "(", "-", ")", "-", "/", "-", " ", "-")
	out := []string{Label, clean.Replace(rule.ID), "transport:" + string(tr)}
	if rule.Phase != "" {
		out = append(out, "phase:"+string(rule.Phase))
	}
	return out
}
