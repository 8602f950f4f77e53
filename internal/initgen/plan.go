// Package initgen is the generator behind glass-conformance init: it reads
// a live page (Observe), and writes a starter Ginkgo suite, a manifest for
// glass-conformance run (Render) and the Go module the suite builds in
// (GoMod), and says what init found that a person must decide (Findings).
// The Go files are rendered from text/template templates and formatted
// with go/format; imports the specs do not use are removed.
package initgen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// The files Render writes, relative to the suite's directory.
const (
	SuiteFile    = "glass_suite_test.go"
	ActionsFile  = "glass_actions_test.go"
	ManifestFile = "glass-manifest.yaml"
	GoModFile    = "go.mod"
	// SurfaceFile is the first baseline of the page's capability surface
	// (docs/surface.md), for glass-conformance run --surface.
	SurfaceFile = "glass-surface.json"
)

// EnvURL is the environment variable the generated suite reads the page
// under test from. The suite fails at once, saying so, when it is unset:
// a suite that silently tested a stale address would be worse.
const EnvURL = "GLASS_URL"

// UnsetURLMessage starts the failure of a generated suite run without
// $GLASS_URL.
const UnsetURLMessage = "set " + EnvURL + " to the address of the page under test"

// Plan is what init learnt from the page: one spec per call it made (one
// per declared action, one per group of row actions), each with the
// receipt the call produced.
type Plan struct {
	URL      string
	Title    string
	Declared int // actions the snapshot lists
	Omitted  int // actions the snapshot left out (its bound)
	// Records is how many records the page showed. With none, there are
	// no row actions to call.
	Records int
	Specs   []Spec
	// Snapshot is what the page declared before init called anything: the
	// capability surface init records as the first baseline.
	Snapshot *receipt.Snapshot
	// Warnings are the runtime's warnings about the page's declarations
	// (glassRuntime.warnings(), when the runtime has it).
	Warnings []string
	// LateModel says how the page's model moved after it was ready, with
	// no call in flight ("records 0 → 3"); "" when it stayed put.
	LateModel string
}

// Spec is one call init made, and the spec it becomes.
type Spec struct {
	Action receipt.ActionInfo
	// RowGroup is how many row actions this spec stands for (0: it is not
	// a row action).
	RowGroup int
	// ManifestKey is the key of the manifest's args for this action: the
	// tool for a row action (every row shares it), else the id.
	ManifestKey string
	Args        map[string]any
	ArgsErr     string // why no arguments could be built
	// SecretArgs are Args with every sensitive string (a parameter whose
	// schema says sensitive) the placeholder of SecretName, which the
	// spec registers with the value SecretValue; nil when the action has
	// no sensitive parameter init can fill.
	SecretArgs map[string]any
	StepOf     string // the flow this action is a step of
	Dangerous  bool   // needs the user's approval
	Got        *receipt.Receipt
	// Asked is how many confirmation requests the host got during the
	// call init made.
	Asked int
	// Cancelled is the message of the first confirm() dialog of the
	// page's own that the host cancelled during the call (page text), or "".
	Cancelled string
}

// FindingKind is what init found wrong with a call.
type FindingKind int

const (
	// Unusable: the snapshot lists the action as available, but the
	// approved call could not make its target usable (ACTION_UNAVAILABLE
	// at target_resolution): a control shown only on hover, covered, or
	// disabled.
	Unusable FindingKind = iota + 1
	// Failed: the snapshot lists the action as available, and the
	// approved call failed after it was resolved.
	Failed
	// NoArgs: init could not build arguments for the call, so the call
	// proves nothing.
	NoArgs
	// Cancelled: the call succeeded, but the page's own confirm() dialog
	// was cancelled during it (the host was asked for no approval it could
	// give), so what the dialog guards did not run.
	Cancelled
)

func (k FindingKind) String() string {
	switch k {
	case Unusable:
		return "never usable"
	case Failed:
		return "failed"
	case NoArgs:
		return "no arguments"
	case Cancelled:
		return "dialog cancelled"
	}
	return fmt.Sprintf("FindingKind(%d)", int(k))
}

// Finding is a call whose outcome a person must judge: the spec init
// writes for it expects success and is pending.
type Finding struct {
	Action string
	Kind   FindingKind
	// Approved is whether the call asked for the user's confirmation, and
	// init approved it.
	Approved bool
	// Detail says what happened: the code, the phase and the page's
	// message, or why no arguments could be built.
	Detail string
}

// String is the finding's line in init's summary.
func (f Finding) String() string {
	call := "the call"
	if f.Approved {
		call = "the approved call"
	}
	switch f.Kind {
	case Unusable:
		return fmt.Sprintf("%s: available, but %s could not make it usable: %s", f.Action, call, f.Detail)
	case Failed:
		return fmt.Sprintf("%s: available, but %s failed: %s", f.Action, call, f.Detail)
	case NoArgs:
		return fmt.Sprintf("%s: init could not build arguments: %s", f.Action, f.Detail)
	case Cancelled:
		return fmt.Sprintf("%s: available, and %s succeeded, but %s", f.Action, call, f.Detail)
	}
	return f.Action + ": " + f.Detail
}

// Finding returns what init found wrong with the spec's call, if anything.
// A call that failed as it should is no finding: an action the snapshot
// lists as unavailable, one only a flow may run, a step of a flow called
// alone (it runs in whatever state the page is in), a hand-off the spec's
// user cancelled.
func (sp Spec) Finding() (Finding, bool) {
	a := sp.Action
	if sp.ArgsErr != "" {
		return Finding{Action: a.ID, Kind: NoArgs, Detail: sp.ArgsErr}, true
	}
	r := sp.Got
	if r != nil && r.Result.OK && sp.Cancelled != "" && a.Available && !a.StepOnly && sp.StepOf == "" {
		return Finding{Action: a.ID, Kind: Cancelled, Approved: sp.Dangerous, Detail: "the page's own confirm(" + commentText(strconv.Quote(sp.Cancelled)) +
			") was cancelled during it: no call in flight had its confirmation approved by the host. An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)"}, true
	}
	if r == nil || r.Result.OK || !a.Available || a.StepOnly || sp.StepOf != "" {
		return Finding{}, false
	}
	if a.Kind == receipt.KindHandoff && r.Code() == receipt.CodeHandoffCancelled {
		return Finding{}, false
	}
	detail := string(r.Code())
	if r.Phase != "" {
		detail += " at " + string(r.Phase)
	}
	if r.Result.Error != nil && r.Result.Error.Message != "" {
		detail += ": " + commentText(r.Result.Error.Message)
	}
	if r.Code() == receipt.CodeActionUnavailable && r.Phase == receipt.PhaseTargetResolution {
		return Finding{Action: a.ID, Kind: Unusable, Approved: sp.Dangerous, Detail: detail}, true
	}
	return Finding{Action: a.ID, Kind: Failed, Approved: sp.Dangerous, Detail: detail}, true
}

// Findings returns every finding, in the order of the specs: the calls
// of available actions that failed (approved where they ask for
// confirmation), and those init had no arguments for.
func (p *Plan) Findings() []Finding {
	var out []Finding
	for _, sp := range p.Specs {
		if f, ok := sp.Finding(); ok {
			out = append(out, f)
		}
	}
	return out
}

// SpecCount is how many specs the actions file holds: one per call, and a
// denial for each that needs confirmation (a page that declares nothing
// gets one that says so).
func (p *Plan) SpecCount() (all, pending int) {
	for _, sp := range p.Specs {
		all++
		if _, ok := sp.Finding(); ok {
			pending++
		}
		if sp.Dangerous {
			all++
		}
	}
	return max(all, 1), pending
}

// RowActions reports whether the snapshot listed any row action.
func (p *Plan) RowActions() bool {
	for _, sp := range p.Specs {
		if sp.RowGroup > 0 {
			return true
		}
	}
	return false
}

// EmptyPageNote says, for a page whose model moved after it was ready,
// that it defines its model too early; for a page that showed no records,
// why init called no row action and how to give it records; "" else.
func (p *Plan) EmptyPageNote() string {
	late := ""
	if p.LateModel != "" {
		late = "the page model changed after the page was ready, with no call in flight (" + p.LateModel + "): the page probably defines its model before its data is shown, " +
			"so a call made as the page opens (an agent's, a spec's, init's own) finds another model; call define once the data is shown (docs/runtime.md, define). " +
			"init planned from the later model"
	}
	if p.Records > 0 {
		return late
	}
	if late != "" {
		late += ". "
	}
	return late + "the page showed no records, so init called no row action (actions declared per record, such as remove@<record>, exist only with records). " +
		"If the page lists records, start it with some and run init again with --force: pass a URL that seeds them (your app's own switch, " +
		"for example --url " + ShellQuote(seedExample(p.URL)) + "), or have the specs create one first with the action that adds it"
}

// seedExample is url with a demo switch, as an example of a URL that
// seeds records.
func seedExample(url string) string {
	base, _, _ := strings.Cut(url, "#")
	if strings.Contains(base, "?") {
		return base + "&demo"
	}
	return base + "?demo"
}
