package conformance_test

import (
	"slices"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

// The package's Ginkgo suite registers the conformance suite the way an
// app team would, against the proving page on the reference runtime, over
// both transports; ReportAfterSuite then checks what Ginkgo recorded. It
// runs beside the package's other full runs (TestBothRuntimesConform,
// TestTodoExampleConforms), not before them: its specs run one by one and
// mostly wait on the browser.
func TestConformanceSuite(t *testing.T) {
	t.Parallel()
	RegisterFailHandler(Fail)
	RunSpecs(t, "Conformance suite")
}

var provingURL string

var _ = BeforeSuite(func() {
	provingURL = glasstest.Serve(mutants.ProvingPage()) + "/"
})

var provingManifest = func() *conformance.Manifest {
	m, err := conformance.ParseManifest("proving-manifest.yaml", mutants.ProvingManifest())
	if err != nil {
		panic(err)
	}
	return m
}()

var _ = conformance.Register(func() conformance.Target {
	return conformance.Target{URL: provingURL}
}, conformance.WithManifest(provingManifest),
	conformance.WithTransports(glasstest.TransportBridge, glasstest.TransportWebMCP))

// notOverWebMCP names the checked rules that cannot be probed over WebMCP,
// with the reason the spec must give.
var notOverWebMCP = map[string]string{
	"args.malformed-json": "arguments that are not JSON cannot be sent over webmcp",
	// Host rules probed on Glass's fault fixtures, whose runtime answers
	// over the bridge only.
	"host.ticket-binding":            "a host rule probed on Glass's fault fixtures",
	"host.throw-is-execution-failed": "a host rule probed on Glass's fault fixtures",
	"host.transport":                 "a host rule probed on Glass's fault fixtures",
	"host.browser-effect":            "a host rule probed on Glass's fault fixtures",
}

// notOnProvingPage names the checked rules the proving page gives nothing
// to probe, with the reason their specs must give (over both transports):
// none since compose.new is step-only.
var notOnProvingPage = map[string]string{}

var _ = ReportAfterSuite("every rule is one labelled spec per transport, passed or skipped with its reason", func(r Report) {
	specs := map[string]types.SpecReport{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt {
			specs[s.LeafNodeText] = s
		}
	}
	for _, rule := range conformance.Catalog {
		bridge, ok := specs[rule.ID+" [bridge]"]
		Expect(ok).To(BeTrue(), "no spec for %s over the bridge", rule.ID)
		Expect(bridge.ContainerHierarchyTexts).To(Equal([]string{"Glass conformance"}))
		labels := bridge.Labels()
		Expect(labels).To(ContainElements(conformance.Label, rule.ID, "transport:bridge"), "labels of %s", rule.ID)
		if rule.Phase != "" {
			Expect(labels).To(ContainElement("phase:"+string(rule.Phase)), "labels of %s", rule.ID)
		}
		if why := notOnProvingPage[rule.ID]; why != "" {
			Expect(bridge.State).To(Equal(types.SpecStateSkipped), "%s on the proving page", rule.ID)
			Expect(bridge.Failure.Message).To(ContainSubstring(why))
		} else if conformance.Checked(rule.ID) {
			Expect(bridge.State).To(Equal(types.SpecStatePassed), "%s on the reference runtime: %s", rule.ID, bridge.Failure.Message)
		} else {
			Expect(bridge.State).To(Equal(types.SpecStateSkipped), "%s has no check", rule.ID)
			Expect(bridge.Failure.Message).To(Equal("not probed: " + conformance.NoCheckYet))
		}

		webmcp, ok := specs[rule.ID+" [webmcp]"]
		Expect(ok).To(BeTrue(), "no spec for %s over webmcp", rule.ID)
		Expect(webmcp.Labels()).To(ContainElements(conformance.Label, "transport:webmcp"))
		switch {
		case !conformance.Checked(rule.ID):
			Expect(webmcp.State).To(Equal(types.SpecStateSkipped), "%s has no check", rule.ID)
		case notOnProvingPage[rule.ID] != "":
			Expect(webmcp.State).To(Equal(types.SpecStateSkipped), "%s on the proving page over webmcp", rule.ID)
			Expect(webmcp.Failure.Message).To(ContainSubstring(notOnProvingPage[rule.ID]))
		case notOverWebMCP[rule.ID] != "":
			Expect(webmcp.State).To(Equal(types.SpecStateSkipped), "%s over webmcp", rule.ID)
			Expect(webmcp.Failure.Message).To(ContainSubstring(notOverWebMCP[rule.ID]))
		case webmcp.State == types.SpecStateSkipped && strings.Contains(webmcp.Failure.Message, "(probed over the bridge)"):
			// A probe a WebMCP tool cannot carry (an undeclared id named
			// like a control, a call after its tool went away) says so,
			// and its bridge spec must have passed.
			Expect(bridge.State).To(Equal(types.SpecStatePassed), "%s: skipped over webmcp as probed over the bridge, where it did not pass", rule.ID)
		default:
			Expect(webmcp.State).To(Equal(types.SpecStatePassed), "%s over webmcp on the reference runtime: %s", rule.ID, webmcp.Failure.Message)
		}
	}
	Expect(specs).To(HaveLen(2*len(conformance.Catalog)), "one spec per rule and transport, no more")
	// Evidence travels with the report: the audit of bounds says how many
	// receipts it judged.
	bounded := specs["changed.bounded [bridge]"]
	if slices.ContainsFunc(conformance.Catalog, func(r conformance.Rule) bool { return r.ID == "changed.bounded" }) {
		found := false
		for _, e := range bounded.ReportEntries {
			found = found || strings.Contains(e.Name, "receipts judged")
		}
		Expect(found).To(BeTrue(), "changed.bounded attaches its evidence as a report entry")
	}
	// The console shows a spec's evidence only when it failed, or with -v:
	// a suite that passes prints no page of evidence.
	for name, s := range specs {
		for _, e := range s.ReportEntries {
			Expect(e.Visibility).To(Equal(types.ReportEntryVisibilityFailureOrVerbose), "%s: report entry %q", name, e.Name)
		}
	}
})
