// Package snippets holds code blocks of README.md and docs/*.md that are
// fragments rather than whole files: here they compile (go vet and go test
// build this package), and docs/docs_test.go holds each block to its copy.
package snippets

import (
	"testing"

	"github.com/glassworks/glass/conformance"
)

// readmeRegister is the README's "Inside a Ginkgo suite" block.
func readmeRegister(appURL string) {
	var _ = conformance.Register(func() conformance.Target {
		return conformance.Target{URL: appURL}
	})
}

// conformanceEntryPoints is the first block of docs/conformance.md.
func conformanceEntryPoints(url string, m *conformance.Manifest) (*conformance.Report, error) {
	// Error-returning engine (the CLI uses it).
	rep, err := conformance.Run(conformance.Target{URL: url},
		conformance.WithManifest(m), conformance.WithRules("policy.*"))

	// Inside any Ginkgo suite: one spec per rule and transport, labelled
	// "glass-conformance" (conformance.Label), the rule id, "phase:<phase>"
	// and "transport:<transport>"; not probed is
	// Skip with the reason.
	var _ = conformance.Register(func() conformance.Target { return conformance.Target{URL: url} })
	return rep, err
}

// TestFragmentsCompile is here so that go test builds the package; the
// fragments are called by no one (Register outside a Ginkgo tree would
// register specs nobody runs).
func TestFragmentsCompile(t *testing.T) {
	_ = readmeRegister
	_ = conformanceEntryPoints
}
