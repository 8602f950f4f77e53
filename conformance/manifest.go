package conformance

import "github.com/glassworks/glass/conformance/internal/manifest"

// Manifest names what the zero-config probes cannot derive from a page's
// own snapshot: actions whose expectation fails, handlers that throw, flows
// that fail at a step, hand-offs and how the user answers them, reveals,
// arguments to use, actions never to execute. Every field is optional.
// docs/manifest.md is the reference of its YAML or JSON form.
type Manifest = manifest.Manifest

// Scenario is one call the manifest asks for: an action, the page it runs
// on, its arguments, and (for flows and hand-offs) the step that fails or
// the user's answer.
type Scenario = manifest.Scenario

// MaxFileSize is the most bytes a manifest or a baseline file may hold.
const MaxFileSize = manifest.MaxFileSize

// ErrManifest wraps every manifest error.
var ErrManifest = manifest.ErrManifest

// LoadManifest reads and validates the manifest at file, which must be a
// regular file of at most MaxFileSize bytes: a device, a named pipe or a
// directory is refused before it is read.
func LoadManifest(file string) (*Manifest, error) { return manifest.Load(file) }

// ParseManifest parses and validates a YAML or JSON manifest; name is used
// in errors, which name the field of the first mistake with its line.
func ParseManifest(name string, data []byte) (*Manifest, error) { return manifest.Parse(name, data) }

// Baseline is a list of rules known to fail (--expected-failures): one rule
// id per line, "#" starts a comment, blank lines are ignored.
//
//	# known violations of our app, tracked in JIRA-123
//	policy.no-channel     # the SDK asks the page itself
//	changed.write-warning
//
// Report.ApplyBaseline applies it to a run's findings.
type Baseline = manifest.Baseline

// LoadBaseline reads and validates the baseline at file, which must be a
// regular file of at most MaxFileSize bytes.
func LoadBaseline(file string) (*Baseline, error) { return manifest.LoadBaseline(file) }

// ParseBaseline parses a baseline; every id must name a rule of the
// catalog, so a renamed rule cannot hide in a stale baseline.
func ParseBaseline(name string, data []byte) (*Baseline, error) {
	return manifest.ParseBaseline(name, data)
}
