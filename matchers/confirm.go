package matchers

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// Confirmer is implemented by values that record the confirmation
// requests a page's runtime asked the host, such as glasstest's *Page,
// so that the confirmation matchers take a page without this package
// importing the harness. A page can be asked again, so Eventually keeps
// polling a Confirmer.
type Confirmer interface {
	Confirmations() []receipt.ConfirmationRecord
}

// A ConfirmationPart narrows which confirmation requests
// HaveAskedConfirmation and HaveAskedConfirmationFor count: Approved,
// Denied, WithMasked, or how many there must be (Times).
type ConfirmationPart interface {
	confirmationPart()
}

type confirmPart struct {
	describe string
	// keep reports whether a request counts; nil for Times.
	keep  func(asked) (bool, error)
	times *arg
}

func (confirmPart) confirmationPart() {}

// Approved counts only the requests the user approved.
//
//	Expect(page).To(HaveAskedConfirmationFor("remove@t9", Approved()))
func Approved() ConfirmationPart {
	return confirmPart{describe: "approved", keep: func(a asked) (bool, error) { return a.approved, nil }}
}

// Denied counts only the requests the user (or the host) denied.
//
//	Expect(page).To(HaveAskedConfirmationFor("remove@t9", Denied()))
func Denied() ConfirmationPart {
	return confirmPart{describe: "denied", keep: func(a asked) (bool, error) { return !a.approved, nil }}
}

// Times says how many requests must count: an int, or a Gomega matcher
// applied to the count (BeNumerically(">=", 2)). Without it, at least
// one must.
//
//	Expect(page).To(HaveAskedConfirmationFor("remove@t9", Times(1)))
func Times(n any) ConfirmationPart {
	a := newArg(n)
	return confirmPart{times: &a}
}

// WithMasked counts only the requests whose arguments hold each of keys
// with the runtime's mask (receipt.Masked, "[sensitive]") in place of
// the value: a sensitive argument reached the user's question masked, as
// CONTRACT.md's sensitive.never-echoed asks. A receipt carries no
// arguments of its requests, so WithMasked needs a page or its records.
//
//	Expect(page).To(HaveAskedConfirmationFor("sign-in", WithMasked("password")))
func WithMasked(keys ...string) ConfirmationPart {
	return confirmPart{
		describe: "with " + quoteAll(keys) + " masked",
		keep: func(a asked) (bool, error) {
			if a.args == nil && a.fromReceipt {
				return false, fmt.Errorf("WithMasked needs the host's records of the requests (a page or []receipt.ConfirmationRecord); a receipt carries none of their arguments")
			}
			for _, k := range keys {
				if v, ok := a.args[k]; !ok || v != receipt.Masked {
					return false, nil
				}
			}
			return true, nil
		},
	}
}

func quoteAll(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = receipt.Quote(k)
	}
	return strings.Join(q, ", ")
}

// HaveAskedConfirmation succeeds if the page's runtime asked the user to
// confirm a call, at least once or as often as Times says, counting only
// the requests that every part admits (Approved, Denied, WithMasked).
//
// It takes a page (a Confirmer: glasstest's *Page), the records of its
// host ([]receipt.ConfirmationRecord, what Page.Confirmations returns), or
// a receipt, whose confirmations are those the runtime reports for that
// call. Of a page's records only the solicited ones count — requests
// through glassHost for a call in flight; a page that asks on its own
// behalf asks no user. The failure message lists every request with its
// action, risk, answer and arguments.
//
//	Expect(page).To(HaveAskedConfirmation(Denied(), Times(2)))
//	Expect(page.Do("export", nil)).NotTo(HaveAskedConfirmation())
func HaveAskedConfirmation(parts ...ConfirmationPart) types.GomegaMatcher {
	return newAskedConfirmation("HaveAskedConfirmation", nil, parts)
}

// HaveAskedConfirmationFor succeeds if the page's runtime asked the user
// to confirm a call of action — an action id, or a Gomega matcher applied
// to it — as HaveAskedConfirmation says. A request counts for the action
// it names and, when a step of a flow asks again, for the step's action.
//
//	Expect(page).To(HaveAskedConfirmationFor("remove@t9", Approved(), Times(1)))
//	Expect(page).To(HaveAskedConfirmationFor(HavePrefix("remove@"), Denied()))
func HaveAskedConfirmationFor(action any, parts ...ConfirmationPart) types.GomegaMatcher {
	a := newArg(action)
	return newAskedConfirmation("HaveAskedConfirmationFor", &a, parts)
}

func newAskedConfirmation(name string, action *arg, parts []ConfirmationPart) *askedConfirmation {
	m := &askedConfirmation{name: name, action: action}
	for _, p := range parts {
		cp, ok := p.(confirmPart)
		if !ok {
			m.err = fmt.Errorf("%s matcher: want parts made by Approved, Denied, WithMasked or Times, got %T", name, p)
			continue
		}
		if cp.times != nil {
			m.times = cp.times
			continue
		}
		m.parts = append(m.parts, cp)
	}
	if action != nil && m.err == nil {
		if err := action.stringArg(name + " matcher: the action"); err != nil {
			m.err = err
		}
	}
	return m
}

type askedConfirmation struct {
	name   string
	action *arg
	parts  []confirmPart
	times  *arg
	err    error

	all   []asked
	count int
}

// asked is one confirmation request as the matchers see it, from a host's
// record or from a receipt's report.
type asked struct {
	action, step string
	risk         receipt.Risk
	approved     bool
	reason       string
	args         map[string]any
	solicited    bool
	fromReceipt  bool
}

func (a asked) String() string {
	s := a.action
	if a.step != "" {
		s += " (step " + a.step + ")"
	}
	if a.risk != "" {
		s += ", " + string(a.risk)
	}
	if a.approved {
		s += ": approved"
	} else {
		s += ": denied"
		if a.reason != "" {
			s += fmt.Sprintf(" (%s)", a.reason)
		}
	}
	if a.args != nil {
		b, err := json.Marshal(a.args)
		if err == nil {
			s += ", args " + clipText(string(b), 200)
		}
	}
	if !a.fromReceipt && !a.solicited {
		s += " [unsolicited: not counted]"
	}
	return s
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (m *askedConfirmation) MatchMayChangeInTheFuture(actual any) bool {
	_, ok := actual.(Confirmer)
	return ok || MayChange(actual)
}

func (m *askedConfirmation) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, m.err
	}
	all, err := m.load(actual)
	if err != nil {
		return false, err
	}
	m.all, m.count = all, 0
	for _, a := range all {
		ok, err := m.counts(a)
		if err != nil {
			return false, err
		}
		if ok {
			m.count++
		}
	}
	if m.times == nil {
		return m.count > 0, nil
	}
	if !m.times.isMatcher() {
		if _, ok := m.times.v.(int); !ok {
			return false, fmt.Errorf("%s matcher: Times wants an int or a Gomega matcher, got %T", m.name, m.times.v)
		}
	}
	ok, err := m.times.match(m.count)
	if err != nil {
		return false, fmt.Errorf("%s matcher: Times: %w", m.name, err)
	}
	return ok, nil
}

func (m *askedConfirmation) counts(a asked) (bool, error) {
	if !a.fromReceipt && !a.solicited {
		return false, nil
	}
	if m.action != nil {
		ok, err := m.action.match(a.action)
		if err != nil {
			return false, fmt.Errorf("%s matcher: the action: %w", m.name, err)
		}
		if !ok && a.step != "" {
			if ok, err = m.action.match(a.step); err != nil {
				return false, fmt.Errorf("%s matcher: the action: %w", m.name, err)
			}
		}
		if !ok {
			return false, nil
		}
	}
	for _, p := range m.parts {
		ok, err := p.keep(a)
		if err != nil {
			return false, fmt.Errorf("%s matcher: %w", m.name, err)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// load turns what the matcher was given into the requests it reads.
func (m *askedConfirmation) load(actual any) ([]asked, error) {
	var records []receipt.ConfirmationRecord
	switch a := actual.(type) {
	case Confirmer:
		if isNilPointer(a) {
			return nil, fmt.Errorf("%s matcher expects a page, confirmation records or a receipt, got a nil %T", m.name, actual)
		}
		records = a.Confirmations()
	case []receipt.ConfirmationRecord:
		records = a
	case receipt.ConfirmationRecord:
		records = []receipt.ConfirmationRecord{a}
	case receipt.Receipt, *receipt.Receipt, Receipter, []byte, json.RawMessage, string:
		s, err := load(m.name, actual)
		if err != nil {
			return nil, err
		}
		out := make([]asked, 0, len(s.r.Confirmations))
		for _, c := range s.r.Confirmations {
			out = append(out, asked{action: c.Action, risk: c.Risk, approved: c.Approved, fromReceipt: true})
		}
		return out, nil
	default:
		return nil, fmt.Errorf("%s matcher expects a page (a Confirmer such as *glasstest.Page), []receipt.ConfirmationRecord or a receipt, got %T", m.name, actual)
	}
	out := make([]asked, 0, len(records))
	for _, r := range records {
		out = append(out, asked{
			action: r.Request.Action, step: r.Request.Step, risk: r.Request.Risk,
			approved: r.Approved, reason: r.Reason, args: r.Request.Args, solicited: r.Solicited,
		})
	}
	return out, nil
}

// want is what the matcher asks for, in words.
func (m *askedConfirmation) want() string {
	s := "to have asked the user to confirm"
	if m.action != nil {
		s += " " + m.action.String()
	} else {
		s += " a call"
	}
	var qual []string
	for _, p := range m.parts {
		qual = append(qual, p.describe)
	}
	if len(qual) > 0 {
		s += ", " + strings.Join(qual, ", ")
	}
	if m.times == nil {
		return s + ", at least once"
	}
	if n, ok := m.times.v.(int); ok && !m.times.isMatcher() {
		return s + fmt.Sprintf(", %s", timesText(n))
	}
	return s + ", a number of times that satisfies " + m.times.String()
}

func timesText(n int) string {
	switch n {
	case 0:
		return "never"
	case 1:
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// got lists every request, so that a failure shows what was asked instead.
func (m *askedConfirmation) got() string {
	if len(m.all) == 0 {
		return "no confirmation request at all"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s that counted, of %d request(s):", timesText(m.count), len(m.all))
	for i, a := range m.all {
		fmt.Fprintf(&b, "\n    %d. %s", i+1, a)
	}
	return b.String()
}

func (m *askedConfirmation) FailureMessage(any) string {
	return fmt.Sprintf("Expected the page %s,\nbut it asked %s", m.want(), m.got())
}

func (m *askedConfirmation) NegatedFailureMessage(any) string {
	return fmt.Sprintf("Expected the page not %s,\nbut it asked %s", m.want(), m.got())
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
