package conformance

import (
	"github.com/glassworks/glass/conformance/internal/engine"
	"github.com/glassworks/glass/conformance/internal/report"
)

// CallFinding is a call of a run's exercise that should have worked and
// did not (or did, but its page's own confirm() was cancelled): an available action, valid arguments, the confirmation
// approved (Report.CallFindings; glass-conformance run --strict fails on
// them).
type CallFinding = report.CallFinding

// CallKind says what went wrong with a CallFinding's call.
type CallKind = report.CallKind

// The call kinds.
const (
	// CallUnusable: ACTION_UNAVAILABLE at target_resolution — the target
	// could not be made usable (a control shown only on :hover, covered,
	// disabled).
	CallUnusable = report.CallUnusable
	// CallFailed: the call failed after its target was resolved.
	CallFailed = report.CallFailed
	// CallCancelled: the call succeeded, but the page's own confirm()
	// dialog was cancelled during it (CallFinding.Cancelled quotes it): no
	// call in flight had its confirmation approved, so what the dialog
	// guards did not run.
	CallCancelled = report.CallCancelled
)

// WithCallFindings makes the run call every available action once (a
// tool's row actions once) with valid arguments, approved, whether or not
// a selected rule needs those calls, and report the calls that failed as
// Report.CallFindings — what glass-conformance run --strict fails on.
// Without it CallFindings is empty and Report.CallsChecked false (the
// text report says the findings were not looked for): a narrow run
// (WithRules) makes only the calls its rules need. glass-conformance run
// passes it for a run of every rule and for --strict.
func WithCallFindings() Option {
	return func(c *engine.Config) error {
		c.CallFindings = true
		return nil
	}
}
