package matchers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// SatisfyExpectation succeeds if the call succeeded and the runtime
// verified the action's declared expectation (result.expect). With an
// argument, the verified text must also equal it (a string) or match it
// (a Gomega matcher).
//
//	Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
func SatisfyExpectation(text ...any) types.GomegaMatcher {
	m := &satisfyExpectation{}
	m.text, m.err = optionalText("expectation", text)
	return m
}

// optionalText is the one optional text argument of SatisfyExpectation
// and HaveWarning: nil when absent.
func optionalText(what string, text []any) (*arg, error) {
	switch len(text) {
	case 0:
		return nil, nil
	case 1:
		a := newArg(text[0])
		return &a, a.stringArg(what + " " + a.String())
	}
	return nil, fmt.Errorf("want at most one %s text, got %d", what, len(text))
}

type satisfyExpectation struct {
	final
	text *arg
	err  error
	got  *receipt.Receipt
	why  string
}

func (m *satisfyExpectation) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("SatisfyExpectation matcher: %w", m.err)
	}
	s, err := load("SatisfyExpectation", actual)
	if err != nil {
		return false, err
	}
	m.got = s.r
	switch {
	case !s.r.Result.OK:
		m.why = failedWith(s.r)
		return false, nil
	case s.r.Result.Expect == "":
		m.why = "result.expect is absent: the runtime verified no expectation"
		return false, nil
	}
	if m.text != nil {
		ok, err := m.text.match(s.r.Result.Expect)
		if err != nil {
			return false, fmt.Errorf("SatisfyExpectation matcher: %w", err)
		}
		if !ok {
			m.why = "it verified " + receipt.Quote(s.r.Result.Expect)
			return false, nil
		}
	}
	return true, nil
}

func (m *satisfyExpectation) FailureMessage(any) string {
	if m.text == nil {
		return format.Message(m.got, "to satisfy its expectation, but "+m.why)
	}
	return format.Message(m.got, fmt.Sprintf("to satisfy the expectation %s, but %s", m.text, m.why))
}

func (m *satisfyExpectation) NegatedFailureMessage(any) string {
	if m.text == nil {
		return format.Message(m.got, "not to satisfy its expectation, but the runtime verified "+receipt.Quote(m.got.Result.Expect))
	}
	return format.Message(m.got, fmt.Sprintf("not to satisfy the expectation %s, but the runtime verified %s", m.text, receipt.Quote(m.got.Result.Expect)))
}

func validFidelity(f receipt.Fidelity) bool {
	switch f {
	case receipt.FidelityHigh, receipt.FidelityAuto, receipt.FidelityLow:
		return true
	}
	return false
}

// HaveFidelity succeeds if the receipt reports the given fidelity: a
// receipt.Fidelity ("high", "auto", "low"), its name, or a Gomega matcher
// applied to it. A receipt reports fidelity only when it is not high, so
// an absent result.fidelity is high.
//
//	Expect(r).To(HaveFidelity(receipt.FidelityLow))
func HaveFidelity(level any) types.GomegaMatcher {
	a, err := enumArg[receipt.Fidelity](level, "fidelity", validFidelity)
	return &property{name: "HaveFidelity", want: a, err: err,
		get: func(r *receipt.Receipt) (any, bool) {
			if r.Result.Fidelity == "" {
				return receipt.FidelityHigh, true
			}
			return r.Result.Fidelity, true
		},
		positive: "to have fidelity", negative: "not to have fidelity",
		has: func(r *receipt.Receipt) string {
			if r.Result.Fidelity == "" {
				return "it has high (result.fidelity is absent, which means high)"
			}
			return "it has " + string(r.Result.Fidelity)
		}}
}

// HaveWarning succeeds if the receipt carries a warning (result.warning):
// a successful call that still needs interpretation. With an argument the
// warning must equal it (a string) or match it (a Gomega matcher, such as
// ContainSubstring, since a runtime joins several warnings with "; ").
//
//	Expect(r).To(HaveWarning(ContainSubstring("the page model did not change")))
func HaveWarning(text ...any) types.GomegaMatcher {
	m := &haveWarning{}
	m.text, m.err = optionalText("warning", text)
	return m
}

type haveWarning struct {
	final
	text *arg
	err  error
	got  *receipt.Receipt
}

func (m *haveWarning) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("HaveWarning matcher: %w", m.err)
	}
	s, err := load("HaveWarning", actual)
	if err != nil {
		return false, err
	}
	m.got = s.r
	if s.r.Result.Warning == "" {
		return false, nil
	}
	if m.text == nil {
		return true, nil
	}
	ok, err := m.text.match(s.r.Result.Warning)
	if err != nil {
		return false, fmt.Errorf("HaveWarning matcher: %w", err)
	}
	return ok, nil
}

func (m *haveWarning) has() string {
	if m.got.Result.Warning == "" {
		return "result.warning is absent"
	}
	return "it warns " + receipt.Quote(m.got.Result.Warning)
}

func (m *haveWarning) FailureMessage(any) string {
	if m.text == nil {
		return format.Message(m.got, "to carry a warning, but "+m.has())
	}
	return format.Message(m.got, fmt.Sprintf("to carry the warning %s, but %s", m.text, m.has()))
}

func (m *haveWarning) NegatedFailureMessage(any) string {
	if m.text == nil {
		return format.Message(m.got, "to carry no warning, but "+m.has())
	}
	return format.Message(m.got, fmt.Sprintf("not to carry the warning %s, but %s", m.text, m.has()))
}

// HaveData succeeds if the receipt carries a function action's result
// (result.data) that matches: the data is decoded from JSON into any
// (objects become map[string]any, numbers float64) and given to a Gomega
// matcher, or compared with a plain Go value after that value has made
// the same trip through JSON, so HaveData(map[string]int{"count": 12})
// and HaveData(HaveKeyWithValue("count", 12.0)) both hold for {"count":12}.
//
//	Expect(page.Do("count-open", nil)).To(HaveData(HaveKeyWithValue("count", 12.0)))
func HaveData(expected any) types.GomegaMatcher {
	m := &haveData{want: newArg(expected)}
	if !m.want.isMatcher() {
		b, err := json.Marshal(expected)
		if err != nil {
			m.err = fmt.Errorf("the expected data is not JSON: %w", err)
			return m
		}
		m.wantJSON = string(b)
		m.err = json.Unmarshal(b, &m.want.v)
	}
	return m
}

type haveData struct {
	final
	want     arg
	wantJSON string
	err      error
	got      *receipt.Receipt
	data     any
	nested   string
}

func (m *haveData) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("HaveData matcher: %w", m.err)
	}
	s, err := load("HaveData", actual)
	if err != nil {
		return false, err
	}
	m.got, m.data, m.nested = s.r, nil, ""
	if len(s.r.Result.Data) == 0 {
		return false, nil
	}
	if err := json.Unmarshal(s.r.Result.Data, &m.data); err != nil {
		return false, fmt.Errorf("HaveData matcher: result.data: %w", err)
	}
	ok, err := m.want.match(m.data)
	if err != nil {
		return false, fmt.Errorf("HaveData matcher: %w", err)
	}
	if !ok && m.want.isMatcher() {
		m.nested = m.want.m.FailureMessage(m.data)
	}
	return ok, nil
}

func (m *haveData) expected() string {
	if m.want.isMatcher() {
		return "data matching " + m.want.String()
	}
	return "data " + string(receipt.PrintableJSON([]byte(m.wantJSON)))
}

// is renders the data as compact JSON, the way the page sent it.
func (m *haveData) is() string {
	var b bytes.Buffer
	if err := json.Compact(&b, m.got.Result.Data); err != nil {
		return strconv.Quote(string(m.got.Result.Data))
	}
	return string(receipt.PrintableJSON(b.Bytes()))
}

func (m *haveData) FailureMessage(any) string {
	switch {
	case len(m.got.Result.Data) == 0:
		return format.Message(m.got, "to have "+m.expected()+", but result.data is absent")
	case m.nested != "":
		return format.Message(m.got, "to have "+m.expected()+", but result.data is "+m.is()+":\n"+indent(m.nested))
	}
	return format.Message(m.got, "to have "+m.expected()+", but result.data is "+m.is())
}

func (m *haveData) NegatedFailureMessage(any) string {
	return format.Message(m.got, "not to have "+m.expected()+", but result.data is "+m.is())
}

// StepPart is one expected entry of a step ledger, built by StepOK,
// StepFailed and StepPending and given to HaveSteps.
type StepPart interface {
	describe() string
	checkStep(path string, s receipt.Step) ([]string, error)
}

// StepOK expects a ledger entry for step id (a string or a Gomega matcher)
// that ran to completion.
//
//	HaveSteps(StepOK("search"), StepOK("open@t3"))
func StepOK(id any) StepPart { return stepPart{id: newArg(id), outcome: receipt.StepOK} }

// StepFailed expects a ledger entry for step id (a string or a Gomega
// matcher) that failed, optionally with the given error code (a
// receipt.Code, its name or a Gomega matcher).
//
//	HaveSteps(StepOK("open@t3"), StepFailed("save", receipt.CodeInvalidParams), StepPending("close"))
func StepFailed(id any, code ...any) StepPart {
	p := stepPart{id: newArg(id), outcome: receipt.StepFailed}
	switch len(code) {
	case 0:
	case 1:
		c, err := enumArg[receipt.Code](code[0], "code", receipt.Code.Known)
		p.code, p.err = &c, err
	default:
		p.err = fmt.Errorf("StepFailed: want at most one code, got %d", len(code))
	}
	return p
}

// StepPending expects a ledger entry for step id (a string or a Gomega
// matcher) that did not run because an earlier step failed: what a resume
// would continue with.
//
//	HaveSteps(StepFailed("save"), StepPending("close"))
func StepPending(id any) StepPart { return stepPart{id: newArg(id), outcome: receipt.StepPending} }

// StepSkipped expects a ledger entry for step id (a string or a Gomega
// matcher) that a resumed flow did not run again, because it had already
// run before the failure the flow was resumed from.
//
//	Expect(page.Resume(handle)).To(HaveSteps(StepSkipped("open-editor@t3"), StepSkipped("fill-title"), StepOK("save")))
func StepSkipped(id any) StepPart { return stepPart{id: newArg(id), outcome: stepSkipped} }

// stepSkipped is the outcome of a step before the resume point of a
// resumed flow: the ledger keeps its place without replaying it.
const stepSkipped = "skipped"

type stepPart struct {
	id      arg
	outcome string
	code    *arg
	err     error
}

func (p stepPart) describe() string {
	s := p.outcome + " " + p.id.String()
	if p.code != nil {
		s += " (" + p.code.String() + ")"
	}
	return s
}

func (p stepPart) checkStep(path string, s receipt.Step) ([]string, error) {
	if p.err != nil {
		return nil, p.err
	}
	if err := p.id.stringArg("step id " + p.id.String()); err != nil {
		return nil, err
	}
	ok, err := p.id.match(s.ID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.id, err)
	}
	if !ok {
		return []string{fmt.Sprintf("%s: id is %s, want %s", path, receipt.Quote(s.ID), p.id)}, nil
	}
	at := path + " " + receipt.Quote(s.ID)
	if s.Outcome != p.outcome {
		return []string{fmt.Sprintf("%s: outcome is %s, want %q", at, receipt.Quote(string(s.Outcome)), p.outcome)}, nil
	}
	if p.code == nil {
		return nil, nil
	}
	if s.Error == nil {
		return []string{fmt.Sprintf("%s: error is absent, want code %s", at, p.code)}, nil
	}
	ok, err = p.code.match(s.Error.Code)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.code, err)
	}
	if !ok {
		return []string{fmt.Sprintf("%s: error.code is %s, want %s", at, s.Error.Code, p.code)}, nil
	}
	return nil, nil
}

// stepID is a plain id or a matcher given to HaveSteps: any outcome will do.
type stepID struct{ id arg }

func (p stepID) describe() string { return p.id.String() }

func (p stepID) checkStep(path string, s receipt.Step) ([]string, error) {
	ok, err := p.id.match(s.ID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.id, err)
	}
	if !ok {
		return []string{fmt.Sprintf("%s: id is %s, want %s", path, receipt.Quote(s.ID), p.id)}, nil
	}
	return nil, nil
}

// stepMatcher applies a Gomega matcher to one whole receipt.Step.
type stepMatcher struct{ m types.GomegaMatcher }

func (p stepMatcher) describe() string { return matcherName(p.m) }

func (p stepMatcher) checkStep(path string, s receipt.Step) ([]string, error) {
	ok, err := p.m.Match(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", matcherName(p.m), err)
	}
	if !ok {
		return []string{path + ":\n" + p.m.FailureMessage(s)}, nil
	}
	return nil, nil
}

// HaveSteps succeeds if the receipt's step ledger (result.steps) is
// exactly the given steps, in order. Each step is a StepOK, StepFailed,
// StepPending or StepSkipped, a plain step id (any outcome), or a Gomega matcher applied
// to the receipt.Step. With no steps it asks only that a ledger exists.
//
//	Expect(r).To(HaveSteps(StepOK("open@t3"), StepFailed("save", receipt.CodeInvalidParams), StepPending("close")))
func HaveSteps(steps ...any) types.GomegaMatcher {
	m := &haveSteps{}
	for i, s := range steps {
		switch x := s.(type) {
		case StepPart:
			if sp, ok := x.(stepPart); ok && sp.err != nil && m.err == nil {
				m.err = fmt.Errorf("step %d: %w", i, sp.err)
			}
			m.parts = append(m.parts, x)
		case types.GomegaMatcher:
			m.parts = append(m.parts, stepMatcher{x})
		case string:
			m.parts = append(m.parts, stepID{newArg(x)})
		default:
			if m.err == nil {
				m.err = fmt.Errorf("step %d: want a StepPart, a step id or a Gomega matcher, got %T", i, s)
			}
		}
	}
	return m
}

type haveSteps struct {
	final
	parts    []StepPart
	err      error
	got      *receipt.Receipt
	failures []string
}

func (m *haveSteps) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("HaveSteps matcher: %w", m.err)
	}
	s, err := load("HaveSteps", actual)
	if err != nil {
		return false, err
	}
	m.got, m.failures = s.r, nil
	steps := s.r.Result.Steps
	if len(steps) == 0 {
		m.failures = []string{"result.steps is absent: the call has no step ledger"}
		return false, nil
	}
	if len(m.parts) == 0 {
		return true, nil
	}
	if len(steps) != len(m.parts) {
		m.failures = append(m.failures, fmt.Sprintf("the ledger has %d steps, want %d", len(steps), len(m.parts)))
	}
	for i := 0; i < len(steps) && i < len(m.parts); i++ {
		f, err := m.parts[i].checkStep(fmt.Sprintf("steps[%d]", i), steps[i])
		if err != nil {
			return false, fmt.Errorf("HaveSteps matcher: steps[%d]: %w", i, err)
		}
		m.failures = append(m.failures, f...)
	}
	return len(m.failures) == 0, nil
}

func (m *haveSteps) expected() string {
	if len(m.parts) == 0 {
		return "a step ledger"
	}
	d := make([]string, len(m.parts))
	for i, p := range m.parts {
		d[i] = p.describe()
	}
	return "steps [" + strings.Join(d, ", ") + "]"
}

// ledger renders the step ledger compactly: receipt.GomegaString leaves it
// out, and it is the part a failing HaveSteps is about.
func ledger(steps []receipt.Step) string {
	s := make([]string, len(steps))
	for i, st := range steps {
		s[i] = fmt.Sprintf("%d %s %s", st.Index, receipt.Quote(st.ID), st.Outcome)
		if st.Error != nil {
			s[i] += " " + string(st.Error.Code)
		}
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func (m *haveSteps) FailureMessage(any) string {
	msg := "to have " + m.expected() + ", but:\n" + bullets(m.failures)
	if len(m.got.Result.Steps) > 0 {
		msg += "\nthe ledger is " + ledger(m.got.Result.Steps)
	}
	return format.Message(m.got, msg)
}

func (m *haveSteps) NegatedFailureMessage(any) string {
	return format.Message(m.got, "not to have "+m.expected()+", but the ledger is "+ledger(m.got.Result.Steps))
}

// BeResumable succeeds if the call failed and carries a resume handle
// (result.resume) for continuing from the failed step without replaying
// the earlier ones.
//
//	Expect(r).To(SatisfyAll(FailWith(receipt.CodeStepFailed), BeResumable()))
func BeResumable() types.GomegaMatcher { return &beResumable{} }

type beResumable struct {
	final
	got *receipt.Receipt
}

func (m *beResumable) Match(actual any) (bool, error) {
	s, err := load("BeResumable", actual)
	if err != nil {
		return false, err
	}
	m.got = s.r
	return !s.r.Result.OK && s.r.Result.Resume != "", nil
}

func (m *beResumable) FailureMessage(any) string {
	if m.got.Result.OK {
		return format.Message(m.got, "to be resumable from a failed step, but it succeeded: there is nothing to resume")
	}
	return format.Message(m.got, "to be resumable from a failed step, but result.resume is absent ("+failedWith(m.got)+")")
}

func (m *beResumable) NegatedFailureMessage(any) string {
	return format.Message(m.got, "not to be resumable, but it carries the resume handle "+receipt.Quote(m.got.Result.Resume))
}
