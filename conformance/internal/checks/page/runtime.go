package page

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of runtime rules that look at the runtime's global directly
// (protocol.ready, protocol.no-throw), at what the page declares
// (fidelity.assigned), or at what a handler received and how often it ran
// (args.normalised, envelope.no-auto-retry).

// readyWatch runs before any page script: it catches the moment the
// runtime installs its global (Object.defineProperty on globalThis, as
// CONTRACT.md §6.1 has it), calls ready() at once, as the earliest host
// could, and on resolution records how many actions the snapshot lists.
const readyWatch = `(() => {
  const seen = { hooked: false, promise: false, resolved: false, actions: -1, error: "" };
  Object.defineProperty(globalThis, "__glassReadyWatch", { value: seen, enumerable: false });
  const define = Object.defineProperty;
  const watch = (rt) => {
    if (seen.hooked || !rt || typeof rt.ready !== "function") return;
    seen.hooked = true;
    Object.defineProperty = define;
    let p;
    try { p = rt.ready(); } catch (e) { seen.error = "ready() threw: " + String(e && e.message); return; }
    seen.promise = !!p && typeof p.then === "function";
    if (!seen.promise) return;
    p.then(() => {
      seen.resolved = true;
      try {
        Promise.resolve(rt.snapshot()).then((s) => {
          const o = typeof s === "string" ? JSON.parse(s) : s;
          seen.actions = o && o.actions && Array.isArray(o.actions.items) ? o.actions.items.length : 0;
        }, (e) => { seen.error = "snapshot() rejected: " + String(e && e.message); });
      } catch (e) { seen.error = "snapshot() threw: " + String(e && e.message); }
    }, (e) => { seen.error = "ready() rejected: " + String(e && e.message); });
  };
  Object.defineProperty = function (o, k, d) {
    const r = define.call(Object, o, k, d);
    if (o === globalThis && k === "glassRuntime") watch(globalThis.glassRuntime);
    return r;
  };
})();`

type readySeen struct {
	Hooked   bool   `json:"hooked"`
	Promise  bool   `json:"promise"`
	Resolved bool   `json:"resolved"`
	Actions  int    `json:"actions"`
	Error    string `json:"error"`
}

// Ready: ready() returns a promise, and when it resolves — even for a
// host that calls it the moment the runtime's global appears, before the
// page has declared anything — the snapshot lists the declared actions.
func Ready(p *probe.Probe) probe.Outcome {
	declared := len(p.Base().Actions.Items)
	pg, err := p.Open("")
	if err != nil {
		return probe.Broken(err)
	}
	pw := pg.Harness.Playwright()
	script := readyWatch
	if err := pw.Context().AddInitScript(playwright.Script{Content: &script}); err != nil {
		return probe.Broken(err)
	}
	if err := pg.Reload(); err != nil {
		return probe.Broken(err)
	}
	var seen readySeen
	deadline := time.Now().Add(p.CallTimeout())
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		v, err := pg.Evaluate("JSON.stringify(globalThis.__glassReadyWatch || null)", nil)
		if err != nil {
			return probe.Broken(err)
		}
		text, _ := v.(string)
		_ = json.Unmarshal([]byte(text), &seen)
		if seen.Error != "" || seen.Actions >= 0 || (seen.Hooked && !seen.Promise) || time.Now().After(deadline) {
			break
		}
		if !seen.Hooked {
			// A runtime that does not install its global with
			// Object.defineProperty is not watched from its install; the
			// host's own wait still is (below).
			if ok, _ := pg.Evaluate("document.readyState === 'complete'", nil); ok == true {
				break
			}
		}
		<-tick.C
	}
	ev := report.TextEvidence("how ready() was probed", "called the moment the runtime installed globalThis.glassRuntime, before the page's own scripts declared anything")
	switch {
	case seen.Error != "":
		return probe.Failf("%s", seen.Error).With(ev)
	case seen.Hooked && !seen.Promise:
		return probe.Failf("ready() did not return a promise").With(ev)
	case seen.Hooked && !seen.Resolved:
		return probe.Failf("ready() did not resolve within %s of the runtime's install", p.CallTimeout()).With(ev)
	case seen.Hooked && seen.Actions < 0:
		return probe.Failf("ready() resolved, but the snapshot taken then did not come back within %s", p.CallTimeout()).With(ev)
	case seen.Hooked && seen.Actions == 0 && declared > 0:
		return probe.Failf("ready() resolved before the page declared its model: the snapshot taken then lists no action, the page declares %d", declared).With(ev)
	}
	// Called again on the loaded page, ready() resolves at once to true.
	v, err := pg.Evaluate(`async () => {
  const p = globalThis.glassRuntime.ready();
  if (!p || typeof p.then !== "function") return "no promise";
  return String(await p);
}`, nil)
	if err != nil {
		return probe.Failf("ready() on the loaded page: %s", probe.FirstLine(err.Error()))
	}
	if v != "true" {
		return probe.Failf("ready() on the loaded page gave %v, want a promise of true", v)
	}
	if !seen.Hooked {
		return probe.Pass().With(report.TextEvidence("not judged", "the runtime did not install its global with Object.defineProperty, so ready() was not called before the page declared its model"))
	}
	return probe.Pass().With(ev, report.TextEvidence("actions listed when ready() resolved", fmt.Sprint(seen.Actions)))
}

// noThrowScript calls execute and resume directly, with inputs for which
// the contract names a failure, and reports for each whether it threw,
// rejected, or answered with something that carries the protocol.
const noThrowScript = `async ([calls, limit]) => {
  const rt = globalThis.glassRuntime;
  const out = [];
  for (const c of calls) {
    let p;
    try {
      p = c.method === "resume" ? rt.resume(c.id, c.options) : rt.execute(c.id, c.args, c.options);
    } catch (e) {
      out.push({ what: c.what, threw: String(e && e.message).slice(0, 200) });
      continue;
    }
    try {
      const r = await p;
      const o = typeof r === "string" ? JSON.parse(r) : r;
      let text = "", over = false;
      try { text = String(JSON.stringify(o)); } catch (e) { text = ""; }
      if (text.length > limit || new TextEncoder().encode(text).length > limit) { text = ""; over = true; }
      out.push({ what: c.what, protocol: o && typeof o === "object" ? String(o.protocol) : typeof o, ok: !!(o && o.result && o.result.ok), code: o && o.result && o.result.error ? String(o.result.error.code) : "", text: text, over: over });
    } catch (e) {
      out.push({ what: c.what, rejected: String(e && e.message).slice(0, 200) });
    }
  }
  return JSON.stringify(out);
}`

type noThrowCall struct {
	What    string `json:"what"`
	Method  string `json:"method"`
	ID      any    `json:"id"`
	Args    any    `json:"args"`
	Options any    `json:"options"`
}

type noThrowAnswer struct {
	What     string `json:"what"`
	Threw    string `json:"threw"`
	Rejected string `json:"rejected"`
	Protocol string `json:"protocol"`
	Code     string `json:"code"`
	// Text is the answer as JSON text, for the strict decoder; none when
	// it is Over the receipt bound (a violation of failure.bounded, which
	// judges it).
	Text string `json:"text"`
	Over bool   `json:"over"`
}

// NoThrow calls execute and resume on a fresh page with inputs the
// contract names failures for; each must come back as a receipt.
func NoThrow(p *probe.Probe) probe.Outcome {
	calls := []noThrowCall{
		{What: "execute of an undeclared id", Method: "execute", ID: judge.UndeclaredID(p.Base()), Args: "{}"},
		{What: "execute of the empty id (a string no page declares)", Method: "execute", ID: "", Args: "{}"},
		{What: "resume of a handle no call returned", Method: "resume", ID: "glass-probe-no-such-handle"},
		{What: "resume with no handle at all", Method: "resume"},
		// An id that is not a string is an id no page declares (§2.2).
		{What: "execute of an id that is not a string (the number 42)", Method: "execute", ID: 42, Args: "{}"},
		{What: "execute of the id null", Method: "execute", ID: nil, Args: "{}"},
		{What: "resume of a handle that is not a string (the number 42)", Method: "resume", ID: 42},
	}
	if c := p.Candidates(); len(c) > 0 {
		id := c[0].ID
		calls = append(calls,
			noThrowCall{What: "execute of " + id + " with arguments that are not JSON", Method: "execute", ID: id, Args: `{"unterminated`},
			noThrowCall{What: "execute of " + id + " with arguments that are a JSON array", Method: "execute", ID: id, Args: `[1, 2]`},
			noThrowCall{What: "execute of " + id + " with a placeholder for a sensitive value the host never gave", Method: "execute", ID: id, Args: `{"glassProbe": {"$sensitive": "` + refusal.NeverGivenSecret + `"}}`},
			noThrowCall{What: "execute of " + id + " with a stale expected revision", Method: "execute", ID: id, Args: "{}", Options: map[string]any{"expectedRevision": 987654321}},
			noThrowCall{What: "execute of " + id + " with an expected revision that is not a non-negative integer", Method: "execute", ID: id, Args: "{}", Options: map[string]any{"expectedRevision": -1}},
		)
	}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err)
	}
	v, err := pg.Evaluate(noThrowScript, []any{judge.Plain(calls), receipt.MaxReceiptBytes})
	if err != nil {
		return probe.Broken(err)
	}
	text, _ := v.(string)
	var answers []noThrowAnswer
	if err := json.Unmarshal([]byte(text), &answers); err != nil {
		return probe.Broken(err)
	}
	var judged []string
	for i, a := range answers {
		switch {
		case a.Threw != "":
			return probe.Failf("%s: the runtime threw instead of returning a receipt (%s)", a.What, a.Threw)
		case a.Rejected != "":
			return probe.Failf("%s: the runtime's promise rejected instead of resolving to a receipt (%s)", a.What, a.Rejected)
		case a.Protocol != receipt.Protocol:
			return probe.Failf("%s: the runtime answered with something that is not a receipt (protocol %q)", a.What, a.Protocol)
		}
		// The answer is a receipt only if it decodes as one: an id that
		// is not a string is named as text in result.action, or left out
		// (§2.2), and fails ACTION_NOT_FOUND like any unknown id.
		if i >= len(calls) {
			break
		}
		if a.Over {
			// Not read: an answer over the bound is failure.bounded's.
			judged = append(judged, a.What+" → "+a.Code+" (over the receipt bound, not decoded)")
			continue
		}
		r, err := receipt.Decode([]byte(a.Text))
		if err != nil {
			return probe.Failf("%s: the runtime's answer does not decode as a receipt: %s", a.What, report.Clip(err.Error(), 300)).
				With(report.TextEvidence("answer", report.Clip(a.Text, 2000)))
		}
		if _, isString := calls[i].ID.(string); calls[i].Method == "execute" && !isString && r.Code() != receipt.CodeActionNotFound {
			return probe.Failf("%s: an id that is not a string names no declared action: want ACTION_NOT_FOUND, %s", a.What, report.Got(r)).With(report.ReceiptEvidence("receipt", r))
		}
		code := a.Code
		if code == "" {
			code = "ok"
		}
		judged = append(judged, a.What+" → "+code)
	}
	return probe.Pass().With(report.TextEvidence("calls made on the runtime's global", judged...))
}

// FidelityAssigned: every element action the page declares carries a
// fidelity of high, auto or low, the same one in a fresh page's snapshot,
// or none yet: a target that is not in the page at registration (a row a
// virtual list has not rendered) cannot be inspected, and the runtime
// assigns the fidelity when the target first resolves. A successful call
// resolves it, so after one the snapshot must show a fidelity, and the one
// it showed before if it showed one. No action of another kind carries one.
func FidelityAssigned(p *probe.Probe) probe.Outcome {
	pg, err := p.Open("")
	if err != nil {
		return probe.Broken(err)
	}
	fresh, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err)
	}
	var assigned, pending []string
	for _, a := range p.Base().Actions.Items {
		if a.Kind != receipt.KindElement {
			if a.Fidelity != "" {
				return probe.Failf("%s is of kind %s, but the snapshot gives it fidelity %q", a.ID, a.Kind, a.Fidelity)
			}
			continue
		}
		if a.Fidelity == "" {
			pending = append(pending, a.ID)
			continue
		}
		if !validFidelity(a.Fidelity) {
			return probe.Failf("the element action %s has fidelity %q in the snapshot, want high, auto or low", a.ID, a.Fidelity)
		}
		if b, ok := fresh.Action(a.ID); ok && b.Fidelity != a.Fidelity {
			return probe.Failf("the element action %s has fidelity %q in one snapshot and %q in another of the same page", a.ID, a.Fidelity, b.Fidelity)
		}
		assigned = append(assigned, a.ID)
	}
	isElement := func(a receipt.ActionInfo) bool { return a.Kind == receipt.KindElement }
	var called []string
	resolved := map[string]bool{}
	judge := func(e *probe.Exercised) (bool, string) {
		if !e.Receipt.Result.OK {
			return false, ""
		}
		// A successful call during which no input event fired ran a
		// developer-supplied path, not the target: such an action is high
		// from registration, whether or not its target is in the page
		// (CONTRACT.md §2.6), so the snapshot before the call shows it.
		if b, ok := e.Before.Snap.Action(e.Action.ID); ok && b.Fidelity == "" && e.Stage6.Snap == nil && e.Stage6.Why == probe.NoInputEvent && e.Receipt.Result.Fidelity == "" {
			return true, "the call ran without any input event reaching the page (a developer-supplied execution path, fidelity high from registration), but the snapshot before the call gives the element action no fidelity"
		}
		after, ok := e.After.Snap.Action(e.Action.ID)
		if !ok && e.Stage6.Snap != nil {
			// The call removed its own action (a row it deleted): the
			// snapshot when its execution started, after stage 5
			// resolved the target, shows the fidelity.
			after, ok = e.Stage6.Snap.Action(e.Action.ID)
		}
		if !ok {
			return false, "" // the call removed its own action, and no snapshot of the call shows it
		}
		switch {
		case after.Fidelity == "":
			return true, "the call succeeded, so its target resolved, but the snapshot after it still gives the element action no fidelity"
		case after.Fidelity == receipt.FidelityLow && e.Stage6.Native:
			return true, fmt.Sprintf("the snapshot gives the element action fidelity low (input simulated on an element that is no native control), but the call's first input event reached a native control (<%s>): a native target is high (§2.6); a runtime that could not inspect the target at registration assigns the fidelity when it first resolves, and does not guess", e.Stage6.Tag)
		case !validFidelity(after.Fidelity):
			return true, fmt.Sprintf("the snapshot after the call gives the element action fidelity %q, want high, auto or low", after.Fidelity)
		case e.Action.Fidelity != "" && after.Fidelity != e.Action.Fidelity:
			return true, fmt.Sprintf("the element action has fidelity %q before the call and %q after it: a fidelity, once assigned, is fixed", e.Action.Fidelity, after.Fidelity)
		}
		resolved[e.Action.ID] = true
		called = append(called, fmt.Sprintf("%s: %s after a successful call", e.Action.ID, after.Fidelity))
		return true, ""
	}
	o, _ := p.JudgeEach(isElement, judge)
	if o != nil {
		return *o
	}
	// An action whose target is not in the page at load is the case the
	// rule is most about: each is called, through the manifest's reveals
	// or on its own, when the exercise did not call it.
	var notCalled []string
	own := map[string]bool{}
	for _, id := range pending {
		if resolved[id] {
			continue
		}
		a, _ := p.Base().Action(id)
		var e *probe.Exercised
		for _, sc := range p.Manifest().Reveals {
			if sc.Action == id && sc.Outcome == "shown" && sc.URL == "" {
				if e, err = p.Reveal(sc); err != nil {
					return probe.Broken(err)
				}
				break
			}
		}
		if e == nil {
			tool := a.Tool
			if tool == "" {
				tool = a.ID
			}
			switch {
			case !a.Available:
				notCalled = append(notCalled, id+": unavailable")
				continue
			case a.StepOnly:
				notCalled = append(notCalled, id+": step-only, run by its flow")
				continue
			case p.Manifest().Skips(id):
				notCalled = append(notCalled, id+": skipped by the manifest")
				continue
			case own[tool] || len(own) == maxOwnFidelityCalls:
				continue
			}
			own[tool] = true
			args, err := p.ValidArgs(a, "")
			if err != nil {
				notCalled = append(notCalled, fmt.Sprintf("%s: %v", id, err))
				continue
			}
			if e, err = p.Call(probe.Planned{Action: a, Args: args}); err != nil {
				return probe.Broken(err)
			}
		}
		if judged, pr := judge(e); pr != "" {
			return probe.Failf("%s: %s", id, pr).With(report.ReceiptEvidence("receipt", e.Receipt))
		} else if !judged {
			notCalled = append(notCalled, fmt.Sprintf("%s: %s", id, report.Got(e.Receipt)))
		}
	}
	anyResolved := false
	for _, id := range pending {
		anyResolved = anyResolved || resolved[id]
	}
	if len(pending) > 0 && !anyResolved {
		return probe.NotProbed("no call of an element action whose target is not in the page at load succeeded, so the fidelity assigned when its target first resolves was not seen").
			With(report.TextEvidence("without a fidelity yet", pending...), report.TextEvidence("not called", notCalled...))
	}
	if len(assigned) == 0 && len(called) == 0 {
		return probe.NotProbed("the page declares no element action")
	}
	res := probe.Pass().With(report.TextEvidence("element actions with a fidelity from the first snapshot", fmt.Sprint(len(assigned))))
	if len(pending) > 0 {
		res = res.With(report.TextEvidence("without a fidelity yet (their targets are not in the page at load)", pending...))
	}
	if len(called) > 0 {
		res = res.With(report.TextEvidence("fidelity after a call", called...))
	}
	if len(notCalled) > 0 {
		res = res.With(report.TextEvidence("not called", notCalled...))
	}
	return res
}

// maxOwnFidelityCalls bounds the calls fidelity.assigned makes of its
// own, one per tool.
const maxOwnFidelityCalls = 3

func validFidelity(f receipt.Fidelity) bool {
	switch f {
	case receipt.FidelityHigh, receipt.FidelityAuto, receipt.FidelityLow:
		return true
	}
	return false
}

// ArgsNormalised calls each function action whose params declare
// defaults with the defaulted members left out; where the handler returns
// the arguments it received (its data holds every argument passed), the
// defaults must be there too.
func ArgsNormalised(p *probe.Probe) probe.Outcome {
	var judged, notEcho []string
	for _, a := range p.Base().Actions.Items {
		if a.Kind != receipt.KindFunction && a.Kind != receipt.KindFlow || !a.Available || p.Manifest().Skips(a.ID) {
			continue
		}
		s, err := params.ParseSchema(a.Params)
		if err != nil {
			continue
		}
		var declared struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		}
		if json.Unmarshal(a.Params, &declared) != nil {
			continue
		}
		defaults := map[string]any{}
		for k, prop := range declared.Properties {
			if len(prop.Default) > 0 && !slices.Contains(s.Required, k) {
				var d any
				if json.Unmarshal(prop.Default, &d) == nil {
					defaults[k] = d
				}
			}
		}
		if len(defaults) == 0 {
			continue
		}
		if a.Kind == receipt.KindFlow {
			o, line := flowDefaults(p, a, defaults)
			if o != nil {
				return *o
			}
			if line != "" {
				judged = append(judged, line)
			}
			continue
		}
		secret := p.FreshSecret()
		args, err := p.ValidArgs(a, secret)
		if err != nil {
			continue
		}
		for k := range defaults {
			delete(args, k)
		}
		opts := []glasstest.PageOption{glasstest.Approve()}
		if probe.UsesSecret(args) {
			opts = append(opts, glasstest.Sensitive(params.SensitiveRef, secret))
		}
		pg, err := p.Open("", opts...)
		if err != nil {
			return probe.Broken(err)
		}
		r := pg.Do(a.ID, args)
		confirmations := pg.Harness.Confirmations()
		pg.Close()
		if o := requestsNormalised(a.ID, confirmations, defaults, r); o != nil {
			return *o
		}
		if !r.Result.OK {
			notEcho = append(notEcho, fmt.Sprintf("%s: %s", a.ID, report.Got(r)))
			continue
		}
		var data map[string]any
		if json.Unmarshal(r.Result.Data, &data) != nil || !echoes(data, args) {
			notEcho = append(notEcho, a.ID+": its data is not the arguments it received")
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(defaults)) {
			if !reflect.DeepEqual(data[k], defaults[k]) {
				return probe.Failf("%s: called without %q, whose params declare the default %s, and the handler received %s", a.ID, k, judge.JSONText(defaults[k]), judge.JSONText(data[k])).
					With(report.ReceiptEvidence("receipt", r))
			}
		}
		if o := passedOverDefaults(p, a, s, args, defaults, opts); o != nil {
			return *o
		}
		judged = append(judged, a.ID)
	}
	if len(judged) == 0 {
		why := "the page declares no function action whose params declare a default and whose data returns the arguments it received"
		if len(notEcho) > 0 {
			why += " (" + strings.Join(notEcho, "; ") + ")"
		}
		return probe.NotProbed(why)
	}
	return probe.Pass().With(report.TextEvidence("actions judged", judged...))
}

// flowDefaults calls a flow whose params declare defaults twice, each on a
// fresh page and approved: with its defaulted members written out, then
// left out. Normalised (§2.3, stage 4), the two are the same call, steps
// included: a flow whose call with the defaults written out succeeds must
// not fail with them left out (a runtime that hands its steps the
// arguments as they came does). Nothing is judged when the first call
// fails.
func flowDefaults(p *probe.Probe, a receipt.ActionInfo, defaults map[string]any) (*probe.Outcome, string) {
	args, err := p.ValidArgs(a, "")
	if err != nil || probe.UsesSecret(args) {
		return nil, ""
	}
	written, left := map[string]any{}, map[string]any{}
	for k, v := range args {
		written[k], left[k] = v, v
	}
	for k, d := range defaults {
		written[k] = d
		delete(left, k)
	}
	var rs [2]*receipt.Receipt
	for i, call := range []map[string]any{written, left} {
		pg, err := p.Open("", glasstest.Approve())
		if err != nil {
			b := probe.Broken(err)
			return &b, ""
		}
		rs[i] = pg.Do(a.ID, call)
		confirmations := pg.Harness.Confirmations()
		pg.Close()
		if !rs[0].Result.OK {
			return nil, ""
		}
		if i == 1 {
			if o := requestsNormalised(a.ID, confirmations, defaults, rs[1]); o != nil {
				return o, ""
			}
		}
	}
	names := slices.Sorted(maps.Keys(defaults))
	if !rs[1].Result.OK {
		o := probe.Failf("%s: called with %s written out as declared by default it succeeds, called without it fails (%s): the runtime must fill in the defaults before the flow's steps run",
			a.ID, strings.Join(names, ", "), report.Got(rs[1])).With(report.ReceiptEvidence("with the defaults written out", rs[0]), report.ReceiptEvidence("without them", rs[1]))
		return &o, ""
	}
	return nil, a.ID + " (a flow, called with and without " + strings.Join(names, ", ") + ")"
}

// requestsNormalised judges the confirmation requests of a call made with
// the members that declare a default left out: a request's args are the
// normalised arguments (CONTRACT.md §6.3), so each shows every default
// (a step's re-ask shows the step's arguments, and is not judged here).
func requestsNormalised(id string, asked []glasstest.ConfirmationRecord, defaults map[string]any, r *receipt.Receipt) *probe.Outcome {
	for _, c := range asked {
		if c.Request.Step != "" {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(defaults)) {
			if got, ok := c.Request.Args[k]; !ok || !reflect.DeepEqual(got, defaults[k]) {
				shown := "leave it out"
				if ok {
					shown = "show " + judge.JSONText(got)
				}
				o := probe.Failf("%s: called without %q, whose params declare the default %s, and the confirmation request's args %s: a request shows the normalised arguments, defaults filled in", id, k, judge.JSONText(defaults[k]), shown).
					With(report.ReceiptEvidence("receipt", r), report.ConfirmationEvidence(asked))
				return &o
			}
		}
	}
	return nil
}

// echoes reports whether data holds every argument passed, unchanged (a
// sensitive placeholder's value is masked, so it is not compared).
func echoes(data map[string]any, args map[string]any) bool {
	if data == nil {
		return false
	}
	for k, v := range args {
		got, ok := data[k]
		if !ok {
			return false
		}
		if _, secret := v.(map[string]string); secret {
			continue
		}
		if !reflect.DeepEqual(judge.Plain(v), got) {
			return false
		}
	}
	return true
}

// NoAutoRetry judges the manifest's failing calls (a handler that throws,
// an expectation that fails), its failing flows and the exercise's calls,
// on pages that count their handlers' runs (a fixture page may expose
// globalThis.glassHandlerRuns, action id → runs): one call may run a
// handler at most once. The calls are the ones the other checks share
// (Scenario, Call), each read around; a failing flow gets a page of its
// own.
func NoAutoRetry(p *probe.Probe) probe.Outcome {
	type call struct {
		url, action string
		r           *receipt.Receipt
		runs        probe.RunsAround
	}
	var calls []func() (call, *probe.Outcome)
	for _, field := range []string{"executionFailures", "expectationFailures"} {
		list := p.Manifest().ExecutionFailures
		if field == "expectationFailures" {
			list = p.Manifest().ExpectationFailures
		}
		for _, sc := range list {
			calls = append(calls, func() (call, *probe.Outcome) {
				r, runs, o := p.ScenarioRuns(sc, field)
				return call{url: sc.URL, action: sc.Action, r: r, runs: runs}, o
			})
		}
	}
	for _, sc := range p.Manifest().FlowFailures {
		calls = append(calls, func() (call, *probe.Outcome) {
			args := p.ScenarioArgs(sc)
			pg, err := p.Open(sc.URL, glasstest.Approve())
			if err != nil {
				o := probe.Broken(err)
				return call{}, &o
			}
			defer pg.Close()
			c := call{url: sc.URL, action: sc.Action}
			c.runs = pg.Around(func() { c.r = pg.Do(sc.Action, args) })
			return c, nil
		})
	}
	plan, _ := p.ExercisePlan()
	for _, pl := range plan {
		calls = append(calls, func() (call, *probe.Outcome) {
			e, err := p.Call(pl)
			if err != nil {
				o := probe.Broken(err)
				return call{}, &o
			}
			return call{action: pl.Action.ID, r: e.Receipt, runs: e.Runs}, nil
		})
	}
	var judged []string
	counted := false
	for _, next := range calls {
		c, o := next()
		if o != nil {
			return *o
		}
		if c.runs.Err != nil {
			return probe.Broken(c.runs.Err)
		}
		before, after := c.runs.Before, c.runs.After
		if before == nil || after == nil {
			continue
		}
		counted = true
		if o := stepsRunOnce(c.action, c.r, before, after); o != nil {
			return *o
		}
		if _, ok := after[c.action]; !ok {
			continue // the page does not count this action's handler
		}
		if n := after[c.action] - before[c.action]; n > 1 {
			return probe.Failf("one call of %s (%s) ran its handler %v times", c.action, report.OutcomeCode(c.r), n).With(report.ReceiptEvidence("receipt", c.r))
		}
		judged = append(judged, fmt.Sprintf("%s%s → %s, handler ran %v time(s)", c.action, scenarioNote(c.url), report.OutcomeCode(c.r), after[c.action]-before[c.action]))
	}
	switch {
	case !counted:
		return probe.NotProbed("the page does not count its handlers' runs (a fixture page may expose globalThis.glassHandlerRuns, action id → runs)")
	case len(judged) == 0:
		return probe.NotProbed("the page counts no handler that the probes call")
	}
	return probe.Pass().With(report.TextEvidence("calls judged", judged...))
}

func scenarioNote(url string) string {
	if url == "" {
		return ""
	}
	return " on " + url
}
