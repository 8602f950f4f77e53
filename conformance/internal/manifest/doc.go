// Package manifest reads what a person gives a run besides the page: the
// manifest (YAML or JSON), naming what the probes cannot derive from the
// page's snapshot, and the baseline of known violations
// (--expected-failures).
package manifest
