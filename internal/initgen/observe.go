package initgen

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/args"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

// ExpectTimeout is the expectation deadline of the generated suite and of
// init's own calls: ten seconds instead of the contract's two, because CI
// machines are busy.
const ExpectTimeout = 10 * time.Second

// Observe opens url, reads its snapshot and calls every planned action
// once, each on a fresh page, the way the generated spec will: a dangerous
// action approved, a hand-off cancelled, row actions (remove@t1,
// remove@t2, …) once, on a record the snapshot shows. progress gets a
// line per call.
func Observe(b *glasstest.Browser, url string, progress io.Writer) (*Plan, error) {
	page, err := glasstest.OpenPage(b, url, glasstest.Trace(false))
	if err != nil {
		return nil, err
	}
	snap, err := page.TrySnapshot()
	var warnings []string
	var late string
	if err == nil {
		snap, late = lateModel(page, snap)
	}
	if err == nil { // read after the snapshot, which read every declaration
		v, werr := page.Evaluate(pagejs.WarningsScript, pagejs.WarningsArg)
		if werr == nil {
			warnings = pagejs.DecodeWarnings(v)
		}
	}
	_ = page.Close()
	if err != nil {
		return nil, err
	}
	plan := &Plan{URL: url, Title: snap.Page.Title, Declared: len(snap.Actions.Items), Omitted: snap.Actions.Omitted,
		Records: max(snap.Records.Total, len(snap.Records.Items)), Snapshot: snap, Warnings: warnings, LateModel: late}
	if snap.Actions.Omitted > 0 {
		fmt.Fprintf(progress, "the snapshot omits %d actions; the starter covers the %d it lists\n", snap.Actions.Omitted, len(snap.Actions.Items))
	}
	// A runtime that answers none of the first SilentCalls calls within
	// the call bound is taken as one that never answers: the calls left
	// get SilentTimeout each, so that init ends in minutes on a page of
	// hundreds of actions, not in hours (SECURITY.md).
	// A runtime that answers some calls and stalls on others gets
	// StalledTimeout for each call left once StalledCalls calls in all
	// ended at the bound, so that a page of many actions, every other one
	// stalling, costs a few bounds too.
	silent, answered, told := 0, false, false
	for _, sp := range plan.plan(snap) {
		fmt.Fprintf(progress, "  calling %s\n", receipt.PrintableID(sp.Action.ID))
		var opts []glasstest.CallOption
		switch {
		case !answered && silent >= SilentCalls:
			if silent == SilentCalls {
				fmt.Fprintf(progress, "  the runtime answered none of %d calls within the call bound: each call left gets %v\n", SilentCalls, SilentTimeout)
			}
			opts = append(opts, glasstest.Timeout(SilentTimeout))
		case answered && silent >= StalledCalls:
			if !told {
				fmt.Fprintf(progress, "  %d calls ended CALL_TIMEOUT with no answer: each call left gets %v\n", silent, StalledTimeout)
				told = true
			}
			opts = append(opts, glasstest.Timeout(StalledTimeout))
		}
		got, asked, cancelled, err := callOnce(b, url, sp, opts...)
		if err != nil {
			return nil, err
		}
		sp.Asked = asked
		if len(cancelled) > 0 {
			sp.Cancelled = cancelled[0]
		}
		if got.Code() == receipt.CodeCallTimeout {
			silent++
		} else {
			answered = true
		}
		sp.Got = got
		plan.Specs = append(plan.Specs, sp)
	}
	return plan, nil
}

// SilentCalls is how many calls in a row must end at the call bound
// (CALL_TIMEOUT), with no answer before them, for init to take the runtime
// as one that never answers.
const SilentCalls = 3 // not a contract bound

// SilentTimeout bounds each call init makes once it takes the runtime as
// silent: long enough for a runtime that does answer to be seen answering.
const SilentTimeout = 500 * time.Millisecond // not a contract bound

// StalledCalls is how many calls in all must end at the call bound, with
// others answered, for init to shorten the calls left to StalledTimeout
// (a run bounds a stalling action's later calls at a second too).
const (
	StalledCalls   = 3               // not a contract bound
	StalledTimeout = 1 * time.Second // not a contract bound
)

// rowTool returns the name shared by the row actions of a's group, or ""
// when a is not a row action: the tool the snapshot names, else the part
// of the id before "@".
func rowTool(a receipt.ActionInfo) string {
	if a.Tool != "" && a.Record != "" {
		return a.Tool
	}
	if i := strings.IndexByte(a.ID, '@'); i > 0 {
		return a.ID[:i]
	}
	return ""
}

// plan chooses the calls: every action, row actions once per group.
func (p *Plan) plan(snap *receipt.Snapshot) []Spec {
	stepOf := map[string]string{}
	for _, a := range snap.Actions.Items {
		for _, s := range a.Steps {
			if _, seen := stepOf[s]; !seen {
				stepOf[s] = a.ID
			}
		}
	}
	records := map[string]bool{}
	for _, r := range snap.Records.Items {
		records[r.ID] = true
	}
	rowCount := map[string]int{}
	for _, a := range snap.Actions.Items {
		if k := rowTool(a); k != "" {
			rowCount[k]++
		}
	}
	// A row group is called on a record the snapshot shows, where the
	// action is available if it is anywhere.
	chosen := map[string]string{}
	for _, a := range snap.Actions.Items {
		k := rowTool(a)
		if k == "" {
			continue
		}
		rec := a.Record
		if rec == "" {
			rec = a.ID[strings.IndexByte(a.ID, '@')+1:]
		}
		if _, done := chosen[k]; !done && records[rec] && a.Available {
			chosen[k] = a.ID
		}
	}
	var specs []Spec
	for _, a := range snap.Actions.Items {
		k := rowTool(a)
		if k != "" {
			c, ok := chosen[k]
			if ok && c != a.ID {
				continue
			}
			if !ok {
				chosen[k] = a.ID // none available on a listed record: the first one
			}
		}
		sp := Spec{Action: a, StepOf: stepOf[a.ID], ManifestKey: a.ID,
			// A step-only action is refused before any confirmation: no
			// approval or denial to spec.
			Dangerous: (a.Confirm || a.Risk == receipt.RiskDangerous) && !a.StepOnly}
		if k != "" {
			sp.RowGroup = rowCount[k]
			// The manifest matches a row action by the tool the snapshot
			// names (conformance.Manifest's args); without one, only the
			// id matches.
			if a.Tool != "" {
				sp.ManifestKey = a.Tool
			}
		}
		sp.Args, sp.ArgsErr = buildArgs(a)
		sp.SecretArgs = secretArgs(a)
		specs = append(specs, sp)
	}
	return specs
}

// buildArgs returns arguments a's params accept, or why there are none.
func buildArgs(a receipt.ActionInfo) (map[string]any, string) {
	s, err := args.Parse(a.Params)
	if err == nil {
		var m map[string]any
		if m, err = s.Object(); err == nil {
			return m, ""
		}
	}
	return nil, strings.TrimPrefix(err.Error(), "args: ")
}

// The sensitive value init's calls and specs pass, by placeholder, to a
// parameter whose schema says sensitive (CONTRACT.md §2.3).
const (
	SecretName  = "secret"
	SecretValue = "glass-init-secret"
)

// secretArgs returns arguments a's params accept with every sensitive
// string the placeholder of SecretName, or nil when a has no sensitive
// parameter (or init cannot fill one with SecretValue).
func secretArgs(a receipt.ActionInfo) map[string]any {
	s, err := args.Parse(a.Params)
	if err != nil {
		return nil
	}
	m, err := s.Object(args.Sensitive(SecretName, SecretValue))
	if err != nil || !hasPlaceholder(m) {
		return nil
	}
	return m
}

// hasPlaceholder reports whether v holds a sensitive placeholder.
func hasPlaceholder(v any) bool {
	switch x := v.(type) {
	case map[string]string:
		_, ok := x["$sensitive"]
		return ok && len(x) == 1
	case map[string]any:
		for _, e := range x {
			if hasPlaceholder(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasPlaceholder(e) {
				return true
			}
		}
	}
	return false
}

// callOnce makes the spec's call on a fresh page, with the options the
// generated spec uses, and counts the confirmation requests the host got.
func callOnce(b *glasstest.Browser, url string, sp Spec, callOpts ...glasstest.CallOption) (*receipt.Receipt, int, []string, error) {
	opts := []glasstest.PageOption{glasstest.Trace(false), glasstest.ExpectTimeout(ExpectTimeout)}
	if sp.Dangerous {
		opts = append(opts, glasstest.Approve())
	}
	if sp.Action.Kind == receipt.KindHandoff {
		opts = append(opts, glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome {
			return glasstest.HandoffCancelled
		}))
	}
	if sp.SecretArgs != nil {
		opts = append(opts, glasstest.Sensitive(SecretName, SecretValue))
	}
	page, err := glasstest.OpenPage(b, url, opts...)
	if err != nil {
		return nil, 0, nil, err
	}
	defer page.Close()
	var a any
	switch {
	case sp.SecretArgs != nil:
		a = sp.SecretArgs
	case len(sp.Args) > 0:
		a = sp.Args
	}
	loaded := len(page.CancelledConfirms()) // the page's load's own dialogs are not the call's
	r := page.Do(sp.Action.ID, a, callOpts...)
	return r, len(page.Confirmations()), page.CancelledConfirms()[loaded:], nil
}

// LateQuiet is how long the DOM must stay quiet after the first snapshot
// before init takes the page's model as loaded, and LateMax bounds that
// wait: a page that calls define before its data arrives shows its records
// when its request answers.
const (
	LateQuiet = 1500 * time.Millisecond // not a contract bound
	LateMax   = 4 * time.Second         // not a contract bound
)

// quietScript resolves once the DOM has not changed for quiet ms, or
// after max ms.
const quietScript = `([quiet, max]) => new Promise((done) => {
  let t;
  const end = () => { obs.disconnect(); clearTimeout(t); clearTimeout(cap); done(true); };
  const obs = new MutationObserver(() => { clearTimeout(t); t = setTimeout(end, quiet); });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  t = setTimeout(end, quiet);
  const cap = setTimeout(end, max);
})`

// lateModel reads the page's model again once its DOM went quiet. When its
// records or actions moved with no call in flight, the page defined its
// model before its data was shown: the later model is the one init plans
// from, and late says what moved. A page that cannot be read again keeps
// the first model.
func lateModel(page *glasstest.Page, first *receipt.Snapshot) (*receipt.Snapshot, string) {
	if _, err := page.EvaluateWithin(LateMax+2*time.Second, quietScript, []any{LateQuiet.Milliseconds(), LateMax.Milliseconds()}); err != nil {
		return first, ""
	}
	later, err := page.TrySnapshot()
	if err != nil {
		return first, ""
	}
	var moved []string
	from, to := max(first.Records.Total, len(first.Records.Items)), max(later.Records.Total, len(later.Records.Items))
	if from != to {
		moved = append(moved, fmt.Sprintf("records %d → %d", from, to))
	}
	if a, b := len(first.Actions.Items)+first.Actions.Omitted, len(later.Actions.Items)+later.Actions.Omitted; a != b {
		moved = append(moved, fmt.Sprintf("actions %d → %d", a, b))
	}
	if len(moved) == 0 {
		return first, ""
	}
	return later, strings.Join(moved, ", ")
}
