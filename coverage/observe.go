// Package coverage is the capability coverage of an acceptance suite: for
// every page, the actions it declared and what the suite's specs exercised
// on each — called, over which transport, approved, denied, without a
// confirmation channel, every failure code, a flow's failed step and its
// resume, a hand-off's outcome — with the names of the specs that did.
//
// It is data and output only, without Playwright, as Ginkgo keeps its types
// and reporters apart from its machinery. glasstest gives Observe what one
// page saw, carries the Observation in the spec's report entry, and at the
// end of the suite merges the entries of every process (New), checks the
// floors (Report.Check) and writes Report.JSON (glass-coverage.json, whose
// schema is schema/coverage.schema.json) and Report.WriteHTML. The measures
// are explained in docs/coverage.md.
package coverage

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// Bounds on what one page contributes: the page chooses its ids, titles and
// how many actions it declares, and a suite's coverage must not grow with a
// hostile page's whims.
const (
	// MaxText bounds, in bytes, every page-provided text kept (a page key,
	// a title, an action name).
	MaxText = 200
	// MaxPages bounds the page identities one page of a spec can report
	// (a page whose snapshots change their id every time); further ones
	// are counted under the page's address.
	MaxPages = 16
	// MaxDeclared bounds the actions kept for one page identity of one
	// page — four snapshots' worth of actions, each listing at most 500
	// (receipt.MaxSnapshotItems); those left out are counted in
	// Page.Omitted.
	MaxDeclared = 4 * receipt.MaxSnapshotItems
)

// UnknownHandle names, as an action, the resumes of a handle the harness
// never saw returned: a random handle is no action of the page.
const UnknownHandle = "(resume of an unknown handle)"

// PageLog is everything one page of one spec saw, as the harness hands it
// to Observe.
type PageLog struct {
	// URL is the address the page was opened at.
	URL string
	// Snapshots are every snapshot the page read, in order: the spec's
	// own, the harness's, and the one taken when the page closed.
	Snapshots []*receipt.Snapshot
	// Calls are the page's calls, in order.
	Calls []CallLog
}

// CallLog is one call of Do or Resume.
type CallLog struct {
	// Receipt is the receipt the call returned.
	Receipt *receipt.Receipt
	// Spec is the full name of the spec that made the call.
	Spec      string
	Transport Transport
	// Resume is true for Page.Resume; Flow is the flow whose handle it
	// resumed, empty when the handle was not one the page returned.
	Resume bool
	Flow   string
	// Snapshots is how many of PageLog.Snapshots had been read when the
	// call returned: the call is counted under the page identity of the
	// latest of them (the page it ran on), or, when there was none yet, of
	// the first one read after it.
	Snapshots int
	// HostAnswers are the host's answers (true: approved) to the
	// confirmation requests of the call's execution, in order.
	HostAnswers []bool
	// NoChannel is true when the call had no confirmation channel
	// (glasstest.NoConfirmationChannel, on the page or the call), so that
	// a confirmation that was not approved is counted as no channel.
	NoChannel bool
	// Handoffs are the host's answers to the hand-off requests of the
	// call's execution.
	Handoffs []HandoffLog
}

// HandoffLog is one hand-off request of a call and the user's answer.
type HandoffLog struct {
	// Action is the declared id of the hand-off action (for a hand-off
	// step, the step's, not the flow's).
	Action  string
	Outcome HandoffOutcome
}

// Observation is what one page of one spec contributed, per page identity:
// the value of a spec's "glass coverage" report entry.
type Observation struct {
	Pages []Page `json:"pages"`
}

// String is the report entry's representation in Ginkgo's reports: the
// full value travels as JSON.
func (o Observation) String() string {
	calls := 0
	for _, p := range o.Pages {
		for _, a := range p.Actions {
			calls += a.Calls
		}
	}
	return fmt.Sprintf("capability coverage: %d calls on %d pages", calls, len(o.Pages))
}

// Page is the coverage of one page identity: the snapshot's page id, else
// the path of its address (see PageKey).
type Page struct {
	Page  string `json:"page"`
	Title string `json:"title,omitempty"`
	// Omitted counts the declared actions left out beyond MaxDeclared.
	Omitted int      `json:"omitted,omitempty"`
	Actions []Action `json:"actions"`
}

// Action is one action of a page, folded per tool (every row action
// remove@t1, remove@t2… is the one action remove), with what the specs
// exercised on it. An action a spec called but no snapshot declared is
// listed with Declared false.
type Action struct {
	Name     string       `json:"name"`
	Declared bool         `json:"declared"`
	Kind     receipt.Kind `json:"kind,omitempty"`
	Risk     receipt.Risk `json:"risk,omitempty"`
	// Confirm: a call asks for confirmation (the snapshot's confirm).
	Confirm bool `json:"confirm,omitempty"`
	// Rows: the action is per row, declared as name@record.
	Rows bool `json:"rows,omitempty"`
	// StepOnly: only a flow may run the action (CONTRACT.md §2.7).
	StepOnly bool `json:"stepOnly,omitempty"`
	// Calls counts the calls of the action.
	Calls int `json:"calls"`
	// Cells names, for every cell exercised, the specs that exercised it,
	// sorted.
	Cells map[Cell][]string `json:"cells,omitempty"`
	// Codes lists every failure code a call of the action returned, with
	// its phase and the specs, sorted by code.
	Codes []CodeSeen `json:"codes,omitempty"`
}

// CodeSeen is one failure code returned by calls of an action.
type CodeSeen struct {
	Code  receipt.Code  `json:"code"`
	Phase receipt.Phase `json:"phase,omitempty"`
	Specs []string      `json:"specs"`
}

// Has reports whether a spec exercised cell c on a.
func (a Action) Has(c Cell) bool { return len(a.Cells[c]) > 0 }

// PageKey is the identity a snapshot gives its page: its page id; else
// the path of its address (of the snapshot's page.url, else of the address
// the page was opened at). The query, the fragment, the host and the port
// are left out: Serve gives every spec its own port, and fixtures choose
// their behaviour in the query, so that a page keeps one identity across
// specs and processes. Pages without an id that share a path share an
// identity: declare a page id to tell them apart.
func PageKey(s *receipt.Snapshot, opened string) string {
	if s != nil && s.Page.ID != "" {
		return clip(s.Page.ID)
	}
	if s != nil && s.Page.URL != "" {
		return urlKey(s.Page.URL)
	}
	return urlKey(opened)
}

func urlKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		raw, _, _ = strings.Cut(raw, "#")
		raw, _, _ = strings.Cut(raw, "?")
		return clip(raw)
	}
	if u.Path == "" {
		return "/"
	}
	return clip(u.Path)
}

// Observe turns what one page saw into its coverage: the actions its
// snapshots declared, folded per tool, and every call's cells under the
// page identity it ran on.
func Observe(log PageLog) Observation {
	o := observer{log: log, pages: map[string]*pageAcc{}, byID: map[string]receipt.ActionInfo{}, rowTools: map[string]string{}}
	o.index()
	keys := make([]string, len(log.Snapshots))
	for i, s := range log.Snapshots {
		keys[i] = o.key(s)
		acc := o.page(keys[i])
		if s.Page.Title != "" {
			acc.title = clip(s.Page.Title)
		}
		for _, a := range s.Actions.Items {
			acc.declare(o.fold(a.ID), a)
		}
	}
	for _, c := range log.Calls {
		key := ""
		switch {
		case c.Snapshots > 0 && c.Snapshots <= len(keys):
			key = keys[c.Snapshots-1]
		case c.Snapshots > len(keys) && len(keys) > 0:
			key = keys[len(keys)-1]
		case len(keys) > 0:
			key = keys[0]
		default:
			key = o.key(nil)
		}
		o.call(o.page(key), c)
	}
	out := Observation{Pages: make([]Page, 0, len(o.pages))}
	for _, k := range slices.Sorted(maps.Keys(o.pages)) {
		out.Pages = append(out.Pages, o.pages[k].page(k))
	}
	return out
}

type observer struct {
	log   PageLog
	pages map[string]*pageAcc
	// byID is every action descriptor of every snapshot, the latest for
	// an id; rowTools maps the name before "@" of a row action to the tool
	// its descriptor names (name, or name.rows when the page also declares
	// an action called name).
	byID     map[string]receipt.ActionInfo
	rowTools map[string]string
	keys     []string
}

func (o *observer) index() {
	for _, s := range o.log.Snapshots {
		for _, a := range s.Actions.Items {
			o.byID[a.ID] = a
			if a.Record != "" {
				if name, _, ok := strings.Cut(a.ID, "@"); ok && name != "" && a.Tool != "" {
					o.rowTools[name] = a.Tool
				}
			}
		}
	}
}

// key is the identity of snapshot s (nil: none), at most MaxPages of them
// per page; beyond that the page's address stands for the rest.
func (o *observer) key(s *receipt.Snapshot) string {
	k := PageKey(s, o.log.URL)
	if slices.Contains(o.keys, k) {
		return k
	}
	if len(o.keys) >= MaxPages {
		return urlKey(o.log.URL)
	}
	o.keys = append(o.keys, k)
	return k
}

// fold names the action a declared id belongs to: a row action's tool,
// any other action its id. A row is folded by its form, name@record, to
// the tool the page's rows of name publish (name, or name.rows when the
// page also declares an action called name), or to name when no snapshot
// listed a row of it: a row removed before the page was looked at, or a
// call of an undeclared id.
func (o *observer) fold(id string) string {
	if a, ok := o.byID[id]; ok && a.Record == "" {
		return clip(id)
	}
	name, _, ok := strings.Cut(id, "@")
	if !ok || name == "" {
		return clip(id)
	}
	if tool, ok := o.rowTools[name]; ok {
		return clip(tool)
	}
	return clip(name)
}

func (o *observer) page(key string) *pageAcc {
	acc, ok := o.pages[key]
	if !ok {
		acc = &pageAcc{actions: map[string]*actionAcc{}, omitted: map[string]bool{}}
		o.pages[key] = acc
	}
	return acc
}

func (o *observer) call(acc *pageAcc, c CallLog) {
	r := c.Receipt
	if r == nil {
		return
	}
	var name string
	switch {
	case c.Resume && c.Flow != "":
		name = o.fold(c.Flow)
	case c.Resume:
		name = UnknownHandle
	default:
		name = o.fold(r.Result.Action.ID)
	}
	a := acc.action(name)
	a.calls++
	spec := c.Spec
	a.mark(CellCalled, spec)
	if c.Resume {
		// Resume always goes through the bridge (the runtime's resume has
		// no WebMCP tool).
		a.mark(CellResumed, spec)
		a.mark(CellBridge, spec)
	} else {
		a.mark(transportCell(c.Transport), spec)
	}
	code := r.Code()
	if r.Result.OK {
		a.mark(CellOK, spec)
	} else {
		a.code(code, r.FailurePhase(), spec)
	}
	for _, ans := range answers(c) {
		a.mark(answerCell(ans), spec)
	}
	stepFailed := code == receipt.CodeStepFailed
	for _, s := range r.Result.Steps {
		switch s.Outcome {
		case receipt.StepFailed:
			stepFailed = true
			acc.action(o.fold(s.ID)).mark(CellAsStep, spec)
		case receipt.StepOK:
			acc.action(o.fold(s.ID)).mark(CellAsStep, spec)
		}
	}
	if stepFailed {
		a.mark(CellStepFailed, spec)
	}
	for _, h := range c.Handoffs {
		acc.action(o.fold(h.Action)).mark(handoffCell(h.Outcome), spec)
	}
	if len(c.Handoffs) == 0 {
		// A hand-off the host never heard of (the runtime answered for it:
		// its own time-out, or no channel) still shows as its outcome.
		switch code {
		case receipt.CodeHandoffCancelled:
			a.mark(CellHandoffCancelled, spec)
		case receipt.CodeHandoffTimeout:
			a.mark(CellHandoffTimeout, spec)
		case receipt.CodeHandoffFailed:
			a.mark(CellHandoffFailed, spec)
		}
	}
}

// answers are the confirmation answers of a call: the host's, or, when the
// host was never asked, what the receipt says the runtime could not ask.
func answers(c CallLog) []Answer {
	refused := AnswerDenied
	if c.NoChannel {
		refused = AnswerNoChannel
	}
	var out []Answer
	for _, ok := range c.HostAnswers {
		if ok {
			out = append(out, AnswerApproved)
		} else {
			out = append(out, refused)
		}
	}
	if len(out) > 0 {
		return out
	}
	// The runtime needed a confirmation it did not ask the host for (no
	// channel on the page). An approval the host never gave is not
	// counted: it is a forgery, which VerifyConfirmations reports.
	for _, conf := range c.Receipt.Confirmations {
		if !conf.Approved {
			out = append(out, refused)
		}
	}
	if len(out) == 0 && c.Receipt.Code() == receipt.CodePermissionDenied {
		out = append(out, refused)
	}
	return out
}

type pageAcc struct {
	title    string
	actions  map[string]*actionAcc
	declared int
	omitted  map[string]bool
}

func (p *pageAcc) declare(name string, d receipt.ActionInfo) {
	a, ok := p.actions[name]
	if !ok || !a.declared {
		if p.declared >= MaxDeclared {
			p.omitted[name] = true
			return
		}
		p.declared++
	}
	if !ok {
		a = newActionAcc()
		p.actions[name] = a
	}
	a.declareFrom(d)
}

func (p *pageAcc) action(name string) *actionAcc {
	a, ok := p.actions[name]
	if !ok {
		a = newActionAcc()
		p.actions[name] = a
	}
	return a
}

func (p *pageAcc) page(key string) Page {
	out := Page{Page: key, Title: p.title, Omitted: len(p.omitted), Actions: make([]Action, 0, len(p.actions))}
	for _, name := range slices.Sorted(maps.Keys(p.actions)) {
		out.Actions = append(out.Actions, p.actions[name].action(name))
	}
	return out
}

type actionAcc struct {
	declared bool
	decl     Action
	calls    int
	cells    map[Cell]map[string]bool
	codes    map[codeKey]map[string]bool
}

type codeKey struct {
	code  receipt.Code
	phase receipt.Phase
}

func newActionAcc() *actionAcc {
	return &actionAcc{cells: map[Cell]map[string]bool{}, codes: map[codeKey]map[string]bool{}}
}

func (a *actionAcc) declareFrom(d receipt.ActionInfo) {
	if !a.declared {
		a.declared = true
		a.decl = Action{Kind: d.Kind, Risk: d.Risk, StepOnly: d.StepOnly}
	}
	mergeDeclaration(&a.decl, Action{Kind: d.Kind, Risk: d.Risk, Confirm: d.Confirm, Rows: d.Record != "", StepOnly: d.StepOnly})
}

// mergeDeclaration folds declaration b into a: rows of one tool, or one
// action seen in several snapshots, specs or processes. The result does
// not depend on the order: the highest risk, confirm and rows if any says
// so, step-only only if all do, and of two kinds the first by name.
func mergeDeclaration(a *Action, b Action) {
	if riskRank(b.Risk) > riskRank(a.Risk) {
		a.Risk = b.Risk
	}
	if a.Kind == "" || (b.Kind != "" && b.Kind < a.Kind) {
		a.Kind = b.Kind
	}
	a.Confirm = a.Confirm || b.Confirm
	a.Rows = a.Rows || b.Rows
	a.StepOnly = a.StepOnly && b.StepOnly
}

func riskRank(r receipt.Risk) int {
	switch r {
	case receipt.RiskRead:
		return 1
	case receipt.RiskWrite:
		return 2
	case receipt.RiskDangerous:
		return 3
	}
	return 0
}

func (a *actionAcc) mark(c Cell, spec string) {
	set, ok := a.cells[c]
	if !ok {
		set = map[string]bool{}
		a.cells[c] = set
	}
	set[spec] = true
}

func (a *actionAcc) code(c receipt.Code, p receipt.Phase, spec string) {
	k := codeKey{c, p}
	set, ok := a.codes[k]
	if !ok {
		set = map[string]bool{}
		a.codes[k] = set
	}
	set[spec] = true
}

func (a *actionAcc) action(name string) Action {
	out := a.decl
	out.Name = name
	out.Declared = a.declared
	out.Calls = a.calls
	if len(a.cells) > 0 {
		out.Cells = make(map[Cell][]string, len(a.cells))
		for c, set := range a.cells {
			out.Cells[c] = slices.Sorted(maps.Keys(set))
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(a.codes), compareCode) {
		out.Codes = append(out.Codes, CodeSeen{Code: k.code, Phase: k.phase, Specs: slices.Sorted(maps.Keys(a.codes[k]))})
	}
	return out
}

func compareCode(a, b codeKey) int {
	if c := strings.Compare(string(a.code), string(b.code)); c != 0 {
		return c
	}
	return strings.Compare(string(a.phase), string(b.phase))
}

// clip keeps at most MaxText bytes of s (receipt.Clip).
func clip(s string) string { return receipt.Clip(s, MaxText) }

// MapText returns o with f applied to every text it holds — page keys,
// titles, action names and spec names — so that the harness can mask
// sensitive values before the observation leaves the page.
func (o Observation) MapText(f func(string) string) Observation {
	out := Observation{Pages: make([]Page, len(o.Pages))}
	for i, p := range o.Pages {
		p.Page, p.Title = f(p.Page), f(p.Title)
		actions := make([]Action, len(p.Actions))
		for j, a := range p.Actions {
			a.Name = f(a.Name)
			if a.Cells != nil {
				cells := make(map[Cell][]string, len(a.Cells))
				for c, specs := range a.Cells {
					cells[c] = mapAll(specs, f)
				}
				a.Cells = cells
			}
			codes := make([]CodeSeen, len(a.Codes))
			for k, cs := range a.Codes {
				cs.Specs = mapAll(cs.Specs, f)
				codes[k] = cs
			}
			if a.Codes != nil {
				a.Codes = codes
			}
			actions[j] = a
		}
		p.Actions = actions
		out.Pages[i] = p
	}
	return out
}

func mapAll(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
