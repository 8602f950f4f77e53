package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of successful calls: each walks the exercise's calls it needs
// (made once per run, approved, with valid arguments) and judges what
// their receipts claim against the harness's own witnesses.

// verdictOf turns what a walk over the exercise ended with into an outcome: a
// probe that could not run, or the violation found; nil to go on.
func verdictOf(err error, o *outcome) *outcome {
	if err != nil {
		b := broken(err)
		return &b
	}
	return o
}

// judgeEach walks the exercise's calls whose action keep accepts, judging
// each: judge returns whether the call was judged, and a sentence when it
// breaks the rule. It returns the first failure (with the receipt as
// evidence), or nil and how many calls were judged.
func (p *probe) judgeEach(keep func(receipt.ActionInfo) bool, judge func(e *exercised) (judged bool, problem string)) (*outcome, int) {
	var o *outcome
	n := 0
	err := p.each(keep, func(e *exercised) bool {
		judged, problem := judge(e)
		if judged {
			n++
		}
		if problem != "" {
			res := failf("%s: %s", e.action.ID, problem).with(receiptEvidence("receipt", e.r))
			o = &res
			return false
		}
		return true
	})
	return verdictOf(err, o), n
}

// judged turns a walk's end into an outcome: the failure, not probed with
// why when nothing was judged, else a pass.
func (p *probe) judged(o *outcome, n int, why string) outcome {
	switch {
	case o != nil:
		return *o
	case n == 0:
		return notProbed(why).with(p.planNotes()...)
	}
	return pass()
}

func (p *probe) planNotes() []Evidence {
	_, notes := p.exercisePlan()
	if len(notes) == 0 {
		return nil
	}
	return []Evidence{textEvidence("not exercised", notes...)}
}

func checkExpectation(p *probe) outcome {
	var o *outcome
	var tried []string
	err := p.each(func(a receipt.ActionInfo) bool { return a.Expect != "" }, func(e *exercised) bool {
		if !e.r.Result.OK {
			tried = append(tried, fmt.Sprintf("%s: %s", e.action.ID, got(e.r)))
			return true
		}
		res := pass()
		if e.r.Result.Expect != e.action.Expect {
			res = failf("%s succeeded with expect = %q, want the declared %q", e.action.ID, e.r.Result.Expect, e.action.Expect).
				with(receiptEvidence("receipt", e.r))
		}
		o = &res
		return false
	})
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	if len(tried) > 0 {
		return notProbed("no call of an action that declares an expectation succeeded (" + strings.Join(tried, "; ") + ")")
	}
	return notProbed("the page declares no available action with an expectation that the probe can call").with(p.planNotes()...)
}

// recordIDs returns the ids of a snapshot's records and whether the list
// is complete.
func recordIDs(s *receipt.Snapshot) ([]string, bool) {
	ids := make([]string, len(s.Records.Items))
	for i, r := range s.Records.Items {
		ids[i] = r.ID
	}
	return ids, s.Records.Omitted == 0
}

// claims compares a list a receipt reports (plus its omission count) with
// what the harness's own snapshots show.
func claims(what string, listed []string, omitted int, actual []string) string {
	for _, id := range listed {
		if !slices.Contains(actual, id) {
			return fmt.Sprintf("%s lists %q, but the snapshots do not show that change", what, id)
		}
	}
	if omitted == 0 {
		for _, id := range actual {
			if !slices.Contains(listed, id) {
				return fmt.Sprintf("%s leaves out %q with no omission count, but the snapshots show that change", what, id)
			}
		}
	}
	if len(listed)+omitted != len(actual) {
		return fmt.Sprintf("%s reports %d (%d listed + %d omitted), the snapshots show %d", what, len(listed)+omitted, len(listed), omitted, len(actual))
	}
	return ""
}

// recordsProblem compares one call's changed.records with the before and
// after snapshots the harness took itself.
func recordsProblem(e *exercised) string {
	rc := &receipt.RecordChanges{}
	if c := e.r.Result.Changed; c != nil && c.Records != nil {
		rc = c.Records
	}
	bIDs, bAll := recordIDs(e.before.snap)
	aIDs, aAll := recordIDs(e.after.snap)
	if bAll && aAll {
		if pr := claims("changed.records.removed", rc.Removed, rc.Omitted.Removed, minus(bIDs, aIDs)); pr != "" {
			return pr
		}
		if pr := claims("changed.records.added", rc.Added, rc.Omitted.Added, minus(aIDs, bIDs)); pr != "" {
			return pr
		}
	}
	from, to := e.before.snap.Records.Total, e.after.snap.Records.Total
	if rc.Total != nil && (rc.Total.From != from || rc.Total.To != to) {
		return fmt.Sprintf("changed.records.total is %d → %d, the snapshots show %d → %d", rc.Total.From, rc.Total.To, from, to)
	}
	if rc.Total == nil && from != to {
		return fmt.Sprintf("changed.records has no total, but the snapshots show %d → %d records", from, to)
	}
	return ""
}

// removalProblem checks a receipt's removals against the browser itself:
// a record reported removed no longer shows in the page's text or its
// accessibility tree (live regions, where toasts announce the removal,
// aside). It returns the violation, if any, and how many removals it could
// witness, or why it could not.
func removalProblem(e *exercised) (o *outcome, witnessed int, why []string) {
	c := e.r.Result.Changed
	if c == nil || c.Records == nil || len(c.Records.Removed) == 0 {
		return nil, 0, nil
	}
	if !e.domWitness {
		return nil, 0, []string{e.action.ID + ": the DOM changes by itself, so it cannot witness the removal"}
	}
	beforeAria, afterAria := ariaContent(e.before.aria), ariaContent(e.after.aria)
	for i, id := range c.Records.Removed {
		if i == 5 {
			break
		}
		rec, ok := findRecord(e.before.snap, id)
		if !ok {
			res := failf("%s: changed.records.removed lists %q, which was not a record before the call", e.action.ID, id).
				with(receiptEvidence("receipt", e.r))
			return &res, witnessed, why
		}
		value, n := telltale(rec, e.before.dom.Text)
		if value == "" {
			why = append(why, fmt.Sprintf("%s: no field of %s shows in the page's text", e.action.ID, id))
			continue
		}
		witnessed++
		if m := strings.Count(e.after.dom.Text, value); m >= n {
			res := failf("%s reports %s removed, but the page still shows %q as often as before (%d times)", e.action.ID, id, value, m).
				with(receiptEvidence("receipt", e.r), textEvidence("DOM witness", fmt.Sprintf("%q in the body text outside live regions: %d times before the call, %d after", value, n, m)))
			return &res, witnessed, why
		}
		if nb := strings.Count(beforeAria, value); nb > 0 {
			if na := strings.Count(afterAria, value); na >= nb {
				res := failf("%s reports %s removed, but the accessibility tree still shows %q as often as before (%d times)", e.action.ID, id, value, na).
					with(receiptEvidence("receipt", e.r), textEvidence("accessibility tree after the call", afterAria))
				return &res, witnessed, why
			}
		}
	}
	return nil, witnessed, why
}

// checkChangedRecords judges changed.records of every write the exercise
// makes against two witnesses: the harness's own snapshots, and for
// removals the DOM and the accessibility tree, so a runtime that
// misreports its effects — even in its own snapshots — is caught.
func checkChangedRecords(p *probe) outcome {
	var o *outcome
	var why []string
	judged, witnessed := 0, 0
	err := p.each(isWrite, func(e *exercised) bool {
		if e.r.Result.Changed == nil {
			return true
		}
		judged++
		if pr := recordsProblem(e); pr != "" {
			res := failf("%s: %s", e.action.ID, pr).with(receiptEvidence("receipt", e.r),
				textEvidence("snapshot difference seen by the harness", modelDiff(e.before.snap, e.after.snap)...),
				snapshotEvidence("snapshot before the call", e.before.snap), snapshotEvidence("snapshot after the call", e.after.snap))
			o = &res
			return false
		}
		bad, n, w := removalProblem(e)
		witnessed += n
		why = append(why, w...)
		o = bad
		return o == nil
	})
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	if judged == 0 {
		return notProbed("no write of the run produced a receipt with changed to compare").with(p.planNotes()...)
	}
	res := pass()
	if witnessed == 0 {
		if len(why) == 0 {
			why = []string{"no call of the run removed a record"}
		}
		res = res.with(textEvidence("removals not witnessed in the DOM", why...))
	}
	return res
}

// partsProblem checks the parts of one call's changed other than records
// against the harness's snapshots: a part is present exactly when
// something in it changed, observed is true exactly when a part is
// present, and the actions and state keys listed are those that changed.
func partsProblem(e *exercised) string {
	c := e.r.Result.Changed
	if c == nil {
		return "the receipt has no changed"
	}
	present := c.Page != nil || c.Records != nil || c.Actions != nil || c.State != nil || c.Feedback != nil
	if c.Observed != present {
		return fmt.Sprintf("changed.observed is %t, but changed carries %s", c.Observed, map[bool]string{true: "a part", false: "no part"}[present])
	}
	b, a := e.before.snap, e.after.snap
	if b.Actions.Omitted == 0 && a.Actions.Omitted == 0 {
		ac := c.Actions
		if ac == nil {
			ac = &receipt.ActionChanges{}
		}
		if pr := claims("changed.actions.removed", ac.Removed, ac.Omitted.Removed, minus(b.ActionIDs(), a.ActionIDs())); pr != "" {
			return pr
		}
		if pr := claims("changed.actions.added", ac.Added, ac.Omitted.Added, minus(a.ActionIDs(), b.ActionIDs())); pr != "" {
			return pr
		}
	}
	var keys []string
	for _, k := range sortedKeys(mergeKeys(b.State, a.State)) {
		if !sameJSON(b.State[k], a.State[k]) {
			keys = append(keys, k)
		}
	}
	sc := c.State
	if sc == nil {
		sc = &receipt.StateChanges{}
	}
	if pr := claims("changed.state.changed", sc.Changed, sc.Omitted, keys); pr != "" {
		return pr
	}
	if c.Feedback == nil && !sameJSON(b.Feedback, a.Feedback) {
		return "changed has no feedback part, but the snapshots show the page's feedback changed"
	}
	if c.Feedback != nil && sameJSON(b.Feedback, a.Feedback) {
		return "changed carries a feedback part, but the snapshots show the same feedback"
	}
	if c.Records != nil && !recordsChanged(c.Records, b, a) {
		return "changed carries a records part, but the snapshots show the same records"
	}
	return ""
}

func mergeKeys(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func recordsChanged(rc *receipt.RecordChanges, b, a *receipt.Snapshot) bool {
	return len(rc.Added)+len(rc.Removed)+len(rc.Updated)+rc.Omitted.Added+rc.Omitted.Removed+rc.Omitted.Updated > 0 ||
		rc.Reordered || !sameJSON(b.Records, a.Records)
}

func checkChangedParts(p *probe) outcome {
	var o *outcome
	judged := 0
	err := p.each(anyAction, func(e *exercised) bool {
		if !e.r.Result.OK {
			return true
		}
		judged++
		if pr := partsProblem(e); pr != "" {
			res := failf("%s: %s", e.action.ID, pr).with(receiptEvidence("receipt", e.r),
				textEvidence("snapshot difference seen by the harness", modelDiff(e.before.snap, e.after.snap)...))
			o = &res
			return false
		}
		return true
	})
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	if judged == 0 {
		return notProbed("no call of the run succeeded").with(p.planNotes()...)
	}
	return pass()
}

func findRecord(s *receipt.Snapshot, id string) (receipt.Record, bool) {
	for _, r := range s.Records.Items {
		if r.ID == id {
			return r, true
		}
	}
	return receipt.Record{}, false
}

// telltale picks the record's most specific text that shows in the page:
// the string field found the fewest times (ties: the longest). It returns
// the value and how often it shows.
func telltale(rec receipt.Record, text string) (string, int) {
	best, bestN := "", 0
	for _, k := range sortedKeys(rec.Fields) {
		v, ok := rec.Fields[k].(string)
		if !ok || len(strings.TrimSpace(v)) < 3 {
			continue
		}
		n := strings.Count(text, v)
		if n == 0 {
			continue
		}
		if best == "" || n < bestN || n == bestN && len(v) > len(best) {
			best, bestN = v, n
		}
	}
	return best, bestN
}

// liveRoles are the ARIA roles of regions that announce changes.
var liveRoles = []string{"status", "alert", "log", "timer", "marquee"}

// ariaContent drops the subtrees of live regions from a Playwright aria
// snapshot (YAML, one node per "- role ..." line, nested by indentation).
func ariaContent(s string) string {
	var out []string
	skip := -1
	for _, line := range strings.Split(s, "\n") {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if skip >= 0 {
			if indent > skip {
				continue
			}
			skip = -1
		}
		t := strings.TrimPrefix(strings.TrimSpace(line), "- ")
		role := t
		if i := strings.IndexAny(t, " :["); i >= 0 {
			role = t[:i]
		}
		if slices.Contains(liveRoles, role) {
			skip = indent
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// checkWriteWarning: a successful write that changed nothing carries a
// warning and still reports ok.
func checkWriteWarning(p *probe) outcome {
	o, n := p.judgeEach(isWrite, func(e *exercised) (bool, string) {
		if !e.r.Result.OK || e.r.Result.Changed != nil && e.r.Result.Changed.Observed {
			return false, ""
		}
		if strings.TrimSpace(e.r.Result.Warning) == "" {
			return true, fmt.Sprintf("a %s action completed without any observable change, but the receipt has no warning", e.action.Risk)
		}
		return true, ""
	})
	return p.judged(o, n, "no write of the run succeeded without changing the page model")
}

// checkReadNoWarning: a successful read carries no warning unless its
// fidelity is low.
func checkReadNoWarning(p *probe) outcome {
	o, n := p.judgeEach(isRead, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		if w := e.r.Result.Warning; w != "" && e.r.Result.Fidelity != receipt.FidelityLow {
			return true, fmt.Sprintf("a read action's receipt carries the warning %q", w)
		}
		return true, ""
	})
	return p.judged(o, n, "no read action of the page could be called successfully")
}

func hasSecret(p *probe) func(receipt.ActionInfo) bool {
	calls, _ := p.exercisePlan()
	return func(a receipt.ActionInfo) bool {
		for _, pl := range calls {
			if pl.action.ID == a.ID {
				return pl.secret != ""
			}
		}
		return false
	}
}

func checkSensitive(p *probe) outcome {
	var o *outcome
	probed := 0
	leak := func(e *exercised, msg string, ev Evidence) bool {
		res := failf("%s: %s", e.action.ID, msg).with(ev)
		o = &res
		return false
	}
	err := p.each(hasSecret(p), func(e *exercised) bool {
		probed++
		rj, _ := receipt.CanonicalJSON(e.r)
		if strings.Contains(string(rj), e.secret) {
			return leak(e, "the receipt contains the sensitive value the call passed", receiptEvidence("receipt", e.r))
		}
		sj, _ := receipt.CanonicalJSON(e.after.snap)
		if strings.Contains(string(sj), e.secret) {
			return leak(e, "the page model snapshot after the call contains the sensitive value", snapshotEvidence("snapshot after the call", e.after.snap))
		}
		for _, c := range e.confirmations {
			// The harness masks what it records; SensitiveMasked says it
			// had to, that is, that the runtime sent the value in clear.
			cj, _ := json.Marshal(c.Request)
			if c.SensitiveMasked || strings.Contains(string(cj), e.secret) {
				return leak(e, "the runtime sent the confirmation request with the sensitive value in clear (the host masked it)", confirmationEvidence(e.confirmations))
			}
		}
		return true
	})
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	if probed == 0 {
		return notProbed("the page declares no available action with a sensitive parameter (sensitive: true) that the probe can call").with(p.planNotes()...)
	}
	return pass()
}

// checkTicket: every confirmation the runtime asked is listed in the
// receipt, an approved one with the host's ticket unchanged, a denied one
// as not approved.
func checkTicket(p *probe) outcome {
	var o *outcome
	probed := 0
	err := p.each(needsConfirmation, func(e *exercised) bool {
		for _, c := range e.confirmations {
			if !c.Approved {
				continue
			}
			probed++
			found := false
			for _, rc := range e.r.Confirmations {
				found = found || rc.Action == c.Request.Action && rc.Approved && rc.Ticket == c.Ticket
			}
			if !found {
				res := failf("%s: the host approved %s with ticket %q, but the receipt's confirmations do not carry that ticket", e.action.ID, c.Request.Action, c.Ticket).
					with(receiptEvidence("receipt", e.r), confirmationEvidence(e.confirmations))
				o = &res
				return false
			}
		}
		return probed == 0
	})
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	if res, out, ok := p.refuse(refusalByKind(refDenied)); ok && len(res.confirmations) > 0 {
		probed++
		listed := false
		for _, c := range res.r.Confirmations {
			listed = listed || c.Action == res.call.id && !c.Approved
		}
		if !listed {
			return failf("%s: the host denied the confirmation, but the receipt's confirmations do not list it as not approved", res.call.describe).
				with(receiptEvidence("receipt", res.r), confirmationEvidence(res.confirmations))
		}
	} else if !ok && out.verdict == Fail {
		return out
	}
	if probed == 0 {
		return notProbed("no call of the run asked the host for confirmation").with(p.planNotes()...)
	}
	return pass()
}

func confirmationEvidence(cs []glasstest.ConfirmationRecord) Evidence {
	var lines []string
	for _, c := range cs {
		b, _ := json.Marshal(c.Request)
		lines = append(lines, fmt.Sprintf("approved=%t solicited=%t request=%s", c.Approved, c.Solicited, b))
	}
	return textEvidence("confirmations the host was asked for", lines...)
}

// The bounds of a function action's data (CONTRACT.md): at most DataItems
// array entries and DataKeys object keys (each plus one marker entry that
// says what was left out), strings of at most DataChars characters plus a
// marker, nesting at most DataDepth levels (plus the marker that replaces
// deeper values).
const (
	DataItems = 20
	DataKeys  = 20
	DataChars = 500
	DataDepth = 4
	// markerSlack is room for the "…[N more characters]" marker.
	markerSlack = 40
)

func dataProblem(v any, depth int, path string) string {
	if depth > DataDepth+1 {
		return fmt.Sprintf("%s is nested deeper than %d levels", pathOr(path), DataDepth)
	}
	switch x := v.(type) {
	case string:
		n := len([]rune(x))
		if n > DataChars+markerSlack {
			return fmt.Sprintf("%s is a string of %d characters, over the bound of %d", pathOr(path), n, DataChars)
		}
		if n > DataChars && !strings.ContainsAny(string([]rune(x)[DataChars:]), "0123456789") {
			return fmt.Sprintf("%s is cut after %d characters, but its marker does not say how much was left out", pathOr(path), DataChars)
		}
	case []any:
		if len(x) > DataItems+1 {
			return fmt.Sprintf("%s is an array of %d entries, over the bound of %d", pathOr(path), len(x), DataItems)
		}
		if len(x) == DataItems+1 && !isMarker(x[DataItems]) {
			return fmt.Sprintf("%s holds %d entries, but its last is not a marker saying how many were left out", pathOr(path), len(x))
		}
		for i, e := range x {
			if pr := dataProblem(e, depth+1, fmt.Sprintf("%s/%d", path, i)); pr != "" {
				return pr
			}
		}
	case map[string]any:
		if len(x) > DataKeys+1 {
			return fmt.Sprintf("%s is an object of %d keys, over the bound of %d", pathOr(path), len(x), DataKeys)
		}
		for _, k := range sortedKeys(x) {
			if pr := dataProblem(x[k], depth+1, path+"/"+k); pr != "" {
				return pr
			}
		}
	}
	return ""
}

// isMarker reports whether v is a marker that says how much was left out:
// a string with a number in it.
func isMarker(v any) bool {
	s, ok := v.(string)
	return ok && strings.ContainsAny(s, "0123456789")
}

// checkDataBounded judges the data of function actions, reads first.
func checkDataBounded(p *probe) outcome {
	var o *outcome
	probed := 0
	judge := func(e *exercised) bool {
		if len(e.r.Result.Data) == 0 {
			return true
		}
		probed++
		var v any
		if err := json.Unmarshal(e.r.Result.Data, &v); err != nil {
			res := failf("%s: data is not JSON: %v", e.action.ID, err)
			o = &res
			return false
		}
		if pr := dataProblem(v, 0, ""); pr != "" {
			res := failf("%s: data %s", e.action.ID, pr).with(receiptEvidence("receipt", e.r))
			o = &res
			return false
		}
		return true
	}
	isFunc := func(a receipt.ActionInfo) bool { return a.Kind == receipt.KindFunction }
	err := p.each(func(a receipt.ActionInfo) bool { return isFunc(a) && isRead(a) }, judge)
	if err == nil && o == nil {
		err = p.each(func(a receipt.ActionInfo) bool { return isFunc(a) && isWrite(a) }, judge)
	}
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	if probed == 0 {
		return notProbed("no call of the run returned data").with(p.planNotes()...)
	}
	return pass()
}

// checkExpectOnlyWhenVerified: a receipt whose expectation was not
// observed (EXPECTATION_FAILED, from the manifest's scenarios) carries no
// expect, and a receipt of an action whose snapshot declares an
// expectation reports that one and no other. (An action whose snapshot
// shows none may declare one that depends on its arguments, so its
// receipts cannot be judged from outside.)
func checkExpectOnlyWhenVerified(p *probe) outcome {
	judged := 0
	for _, sc := range p.manifest().ExpectationFailures {
		r, o := p.scenario(sc, "expectationFailures")
		if o != nil {
			return *o
		}
		if r.Code() != receipt.CodeExpectationFailed {
			continue // verify.expectation-failed's violation
		}
		judged++
		if r.Result.Expect != "" {
			return failf("%s: the expectation was not observed (EXPECTATION_FAILED), but the receipt reports expect %q", sc.Action, r.Result.Expect).
				with(receiptEvidence("receipt", r))
		}
	}
	o, n := p.judgeEach(func(a receipt.ActionInfo) bool { return a.Expect != "" }, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		if got := e.r.Result.Expect; got != "" && got != e.action.Expect {
			return true, fmt.Sprintf("the receipt reports expect %q, but the action declares %q", got, e.action.Expect)
		}
		return true, ""
	})
	return p.judged(o, n+judged, "needs a manifest entry under expectationFailures, or an action whose snapshot declares an expectation")
}

func checkDataFunctionOnly(p *probe) outcome {
	o, n := p.judgeEach(func(a receipt.ActionInfo) bool { return a.Kind != receipt.KindFunction }, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		if len(e.r.Result.Data) > 0 {
			return true, fmt.Sprintf("the receipt of an action of kind %s carries data %s", e.action.Kind, clip(string(e.r.Result.Data), 80))
		}
		return true, ""
	})
	return p.judged(o, n, "no action of a kind other than function could be called successfully")
}

func checkFidelityReported(p *probe) outcome {
	o, n := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		got := e.r.Result.Fidelity
		if e.action.Kind != receipt.KindElement {
			if got != "" {
				return true, fmt.Sprintf("the receipt of an action of kind %s carries fidelity %q", e.action.Kind, got)
			}
			return true, ""
		}
		// An action whose target was not in the page at load gets its
		// fidelity when the call resolves the target (fidelity.assigned):
		// the snapshot after the call tells it.
		shown := e.action.Fidelity
		if shown == "" {
			if a, ok := e.after.snap.Action(e.action.ID); ok {
				shown = a.Fidelity
			}
		}
		if shown == "" {
			return false, "" // no snapshot tells the fidelity: fidelity.assigned's concern
		}
		want := shown
		if want == receipt.FidelityHigh {
			want = ""
		}
		if got != want {
			return true, fmt.Sprintf("the snapshot gives the element action fidelity %q, the receipt reports %q (want it exactly when not high)", shown, got)
		}
		return true, ""
	})
	return p.judged(o, n, "no action could be called successfully")
}

func checkLowFidelityWarning(p *probe) outcome {
	low := func(a receipt.ActionInfo) bool {
		return a.Kind == receipt.KindElement && a.Fidelity == receipt.FidelityLow
	}
	o, n := p.judgeEach(low, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		if strings.TrimSpace(e.r.Result.Warning) == "" {
			return true, "a successful call of a low-fidelity element action carries no warning"
		}
		return true, ""
	})
	return p.judged(o, n, "the page declares no element action of fidelity low that the probe can call")
}

// checkRiskClasses: every action carries a risk class, and each call asks
// for confirmation exactly once when it needs one, and never otherwise.
func checkRiskClasses(p *probe) outcome {
	for _, a := range p.base().Actions.Items {
		switch a.Risk {
		case receipt.RiskRead, receipt.RiskWrite, receipt.RiskDangerous:
		default:
			return failf("the snapshot gives %s the risk %q, want read, write or dangerous", a.ID, a.Risk)
		}
	}
	o, n := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		// A flow step that turns out riskier than the flow asks again
		// (policy.flow-reask): only the call's own requests count here.
		asked := 0
		for _, c := range e.confirmations {
			if c.Request.Step == "" {
				asked++
			}
		}
		if needsConfirmation(e.action) && asked != 1 {
			return true, fmt.Sprintf("the action is %s (confirm %t) and the runtime asked for confirmation %d times, want once", e.action.Risk, e.action.Confirm, asked)
		}
		if !needsConfirmation(e.action) && asked != 0 {
			return true, fmt.Sprintf("the action is %s and declares no confirmation, but the runtime asked %d times", e.action.Risk, asked)
		}
		return true, ""
	})
	if o != nil {
		o.evidence = append(o.evidence, textEvidence("how the runtime is judged", "an action needs confirmation when its risk is dangerous or the snapshot says confirm: true"))
	}
	return p.judged(o, n, "no action could be called")
}

// checkRevision: every receipt carries revisions, they never go down, and
// a call that changed the page model moves the revision.
func checkRevision(p *probe) outcome {
	o, n := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		rv := e.r.Revision
		switch {
		case rv == nil:
			return true, "the receipt has no revision"
		case rv.After < rv.Before:
			return true, fmt.Sprintf("revision went down, %d → %d", rv.Before, rv.After)
		case e.after.snap.Revision < e.before.snap.Revision:
			return true, fmt.Sprintf("the snapshot's revision went down, %d → %d", e.before.snap.Revision, e.after.snap.Revision)
		case e.r.Result.Changed != nil && e.r.Result.Changed.Observed && rv.After <= rv.Before:
			return true, fmt.Sprintf("changed.observed is true, but the revision stayed at %d → %d", rv.Before, rv.After)
		}
		return true, ""
	})
	return p.judged(o, n, "no action could be called")
}
