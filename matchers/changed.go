package matchers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// ChangePart is one expectation about a receipt's changed object, built by
// Records, Actions, State, Feedback and NothingChanged and given to
// HaveChanged.
type ChangePart interface {
	describe() string
	check(c *receipt.Changed) ([]string, error)
}

// RecordsPart is one expectation about changed.records, built by Added,
// Removed, Updated, Reordered and Total and given to Records.
type RecordsPart interface {
	describe() string
	checkRecords(rc *receipt.RecordChanges) ([]string, error)
}

// ActionsPart is one expectation about changed.actions, built by Added and
// Removed and given to Actions.
type ActionsPart interface {
	describe() string
	checkActions(ac *receipt.ActionChanges) ([]string, error)
}

// FeedbackPart is one expectation about changed.feedback, built by Added
// and Removed and given to Feedback.
type FeedbackPart interface {
	describe() string
	checkFeedback(fc *receipt.FeedbackChange) ([]string, error)
}

// ListPart is what Added and Removed build: it fits Records, Actions and
// Feedback alike. The types keep Total, Updated and Reordered out of
// Actions and Feedback at compile time.
type ListPart interface {
	RecordsPart
	ActionsPart
	FeedbackPart
}

// HaveChanged succeeds if the receipt reports an observed change and every
// part holds. With no parts it only asks that something changed. Each part
// names what it checks; ids, keys and texts are plain values or Gomega
// matchers.
//
//	Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11)), Actions(Removed("remove@t9"))))
func HaveChanged(parts ...ChangePart) types.GomegaMatcher {
	return &haveChanged{parts: parts}
}

type haveChanged struct {
	final
	parts    []ChangePart
	got      *receipt.Receipt
	failures []string
}

func (m *haveChanged) nothing() bool {
	return slices.ContainsFunc(m.parts, func(p ChangePart) bool { _, ok := p.(nothingChanged); return ok })
}

func (m *haveChanged) Match(actual any) (bool, error) {
	s, err := load("HaveChanged", actual)
	if err != nil {
		return false, err
	}
	m.got, m.failures = s.r, nil
	c := s.r.Result.Changed
	if c == nil {
		m.failures = []string{"changed is absent: the runtime compared no snapshots for this call"}
		return false, nil
	}
	if !c.Observed && !m.nothing() {
		m.failures = []string{"changed.observed is false: the page model did not change"}
		return false, nil
	}
	for _, p := range m.parts {
		f, err := p.check(c)
		if err != nil {
			return false, fmt.Errorf("HaveChanged matcher: %s: %w", p.describe(), err)
		}
		m.failures = append(m.failures, f...)
	}
	return len(m.failures) == 0, nil
}

func (m *haveChanged) expected() string {
	if len(m.parts) == 0 {
		return "something"
	}
	d := make([]string, len(m.parts))
	for i, p := range m.parts {
		d[i] = p.describe()
	}
	return strings.Join(d, ", ")
}

func (m *haveChanged) FailureMessage(any) string {
	return format.Message(m.got, "to have changed "+m.expected()+", but:\n"+bullets(m.failures))
}

func (m *haveChanged) NegatedFailureMessage(any) string {
	if len(m.parts) == 1 && m.nothing() {
		return format.Message(m.got, "to have changed something, but changed.observed is false: the page model did not change")
	}
	return format.Message(m.got, "not to have changed "+m.expected()+", but it did")
}

// Records expects the given parts of changed.records. With no parts it
// asks only that records changed.
//
//	HaveChanged(Records(Removed("t9"), Total(12, 11)))
func Records(parts ...RecordsPart) ChangePart {
	return scope[receipt.RecordChanges, RecordsPart]{
		name:   "records",
		absent: "changed.records is absent: no record changed",
		get:    func(c *receipt.Changed) *receipt.RecordChanges { return c.Records },
		check1: RecordsPart.checkRecords,
		parts:  parts,
	}
}

// Actions expects the given parts of changed.actions. With no parts it
// asks only that the declared actions changed.
//
//	HaveChanged(Actions(Removed("remove@t9")))
func Actions(parts ...ActionsPart) ChangePart {
	return scope[receipt.ActionChanges, ActionsPart]{
		name:   "actions",
		absent: "changed.actions is absent: no action appeared or disappeared",
		get:    func(c *receipt.Changed) *receipt.ActionChanges { return c.Actions },
		check1: ActionsPart.checkActions,
		parts:  parts,
	}
}

// Feedback expects the given parts of changed.feedback: messages that
// appeared (Added) or went away (Removed). A plain string is compared with
// a message's text, a receipt.Feedback with its kind and text, and a
// Gomega matcher is applied to the text.
//
//	HaveChanged(Feedback(Added("Deleted “Weekly report”")))
func Feedback(parts ...FeedbackPart) ChangePart {
	return scope[receipt.FeedbackChange, FeedbackPart]{
		name:   "feedback",
		absent: "changed.feedback is absent: no feedback appeared or went away",
		get:    func(c *receipt.Changed) *receipt.FeedbackChange { return c.Feedback },
		check1: FeedbackPart.checkFeedback,
		parts:  parts,
	}
}

// scope is one part of changed (records, actions, feedback) and the
// expectations about it; it is absent from a receipt when nothing in it
// changed.
type scope[C any, P interface{ describe() string }] struct {
	name   string
	absent string
	get    func(*receipt.Changed) *C
	check1 func(P, *C) ([]string, error)
	parts  []P
}

func (s scope[C, P]) describe() string {
	if len(s.parts) == 0 {
		return s.name
	}
	d := make([]string, len(s.parts))
	for i, p := range s.parts {
		d[i] = p.describe()
	}
	return s.name + "(" + strings.Join(d, ", ") + ")"
}

func (s scope[C, P]) check(c *receipt.Changed) ([]string, error) {
	part := s.get(c)
	if part == nil {
		return []string{s.absent}, nil
	}
	var out []string
	for _, p := range s.parts {
		f, err := s.check1(p, part)
		if err != nil {
			return nil, err
		}
		out = append(out, f...)
	}
	return out, nil
}

// State expects the given keys among changed.state.changed: the state
// views whose value changed. With no keys it asks only that some state
// changed.
//
//	HaveChanged(State("filter"))
func State(keys ...any) ChangePart { return state{newArgs(keys)} }

type state struct{ keys []arg }

func (s state) describe() string {
	if len(s.keys) == 0 {
		return "state"
	}
	return "state " + argList(s.keys)
}

func (s state) check(c *receipt.Changed) ([]string, error) {
	if c.State == nil {
		return []string{"changed.state is absent: no state key changed"}, nil
	}
	l := list{path: "changed.state.changed", n: len(c.State.Changed), omitted: c.State.Omitted, render: func() string { return quoted(c.State.Changed) }}
	return l.contains(s.keys, func(_ arg, i int) any { return c.State.Changed[i] }, stringsOnly)
}

// Added expects entries among the added ones: record ids in Records,
// action ids in Actions, messages in Feedback. Each is a plain value or a
// Gomega matcher; with none it asks only that something was added.
//
//	HaveChanged(Records(Added("t13")), Actions(Added("remove@t13")))
func Added(entries ...any) ListPart { return membership{kind: "added", entries: newArgs(entries)} }

// Removed expects entries among the removed ones: record ids in Records,
// action ids in Actions, messages in Feedback. Each is a plain value or a
// Gomega matcher; with none it asks only that something was removed.
//
//	HaveChanged(Records(Removed("t9")), Actions(Removed("remove@t9")))
func Removed(entries ...any) ListPart { return membership{kind: "removed", entries: newArgs(entries)} }

type membership struct {
	kind    string
	entries []arg
}

func (m membership) describe() string {
	if len(m.entries) == 0 {
		return m.kind
	}
	return m.kind + " " + argList(m.entries)
}

func (m membership) checkRecords(rc *receipt.RecordChanges) ([]string, error) {
	ids, omitted := rc.Added, rc.Omitted.Added
	if m.kind == "removed" {
		ids, omitted = rc.Removed, rc.Omitted.Removed
	}
	l := list{path: "changed.records." + m.kind, n: len(ids), omitted: omitted, render: func() string { return quoted(ids) }}
	return l.contains(m.entries, func(_ arg, i int) any { return ids[i] }, stringsOnly)
}

func (m membership) checkActions(ac *receipt.ActionChanges) ([]string, error) {
	ids, omitted := ac.Added, ac.Omitted.Added
	if m.kind == "removed" {
		ids, omitted = ac.Removed, ac.Omitted.Removed
	}
	l := list{path: "changed.actions." + m.kind, n: len(ids), omitted: omitted, render: func() string { return quoted(ids) }}
	return l.contains(m.entries, func(_ arg, i int) any { return ids[i] }, stringsOnly)
}

func (m membership) checkFeedback(fc *receipt.FeedbackChange) ([]string, error) {
	items, omitted := fc.Added, fc.Omitted.Added
	if m.kind == "removed" {
		items, omitted = fc.Removed, fc.Omitted.Removed
	}
	l := list{path: "changed.feedback." + m.kind, n: len(items), omitted: omitted, render: func() string { return renderFeedback(items) }}
	// A receipt.Feedback is compared whole; anything else sees the text,
	// which is what a reader of the page sees.
	at := func(a arg, i int) any {
		if _, whole := a.v.(receipt.Feedback); whole {
			return items[i]
		}
		return items[i].Text
	}
	return l.contains(m.entries, at, func(a arg) error {
		if _, ok := a.v.(receipt.Feedback); ok {
			return nil
		}
		return stringsOnly(a)
	})
}

func renderFeedback(items []receipt.Feedback) string {
	s := make([]string, len(items))
	for i, f := range items {
		s[i] = string(f.Kind) + " " + receipt.Quote(f.Text)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// list is one bounded list of changed, seen by the membership checks.
type list struct {
	path    string
	n       int
	omitted int
	render  func() string
}

func stringsOnly(a arg) error {
	if _, ok := a.v.(string); ok || a.isMatcher() {
		return nil
	}
	return a.stringArg(a.String())
}

// contains checks that every wanted entry is listed. An entry that is not
// listed may still be among the omitted ones; the message says so instead
// of a plain "not found", so nobody mistakes a partial diff for a complete
// one.
func (l list) contains(want []arg, at func(a arg, i int) any, valid func(a arg) error) ([]string, error) {
	if len(want) == 0 {
		if l.n+l.omitted == 0 {
			return []string{l.path + " is empty"}, nil
		}
		return nil, nil
	}
	var out []string
	for _, a := range want {
		if err := valid(a); err != nil {
			return nil, err
		}
		found := false
		for i := 0; i < l.n && !found; i++ {
			ok, err := a.match(at(a, i))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
			found = ok
		}
		if found {
			continue
		}
		what := a.String() + " is not listed"
		if a.isMatcher() {
			what = "no entry matches " + a.String()
		}
		if l.omitted > 0 {
			out = append(out, fmt.Sprintf("%s: %s in %s, but %d more entries were omitted: it may be among them", l.path, what, l.render(), l.omitted))
		} else {
			out = append(out, fmt.Sprintf("%s: %s in %s", l.path, what, l.render()))
		}
	}
	return out, nil
}

// Updated expects record id among changed.records.updated. Each field is a
// field name the update must include, or a Gomega matcher applied to the
// whole list of updated field names.
//
//	HaveChanged(Records(Updated("t3", "done")))
//	HaveChanged(Records(Updated("t3", ConsistOf("done", "title"))))
func Updated(id any, fields ...any) RecordsPart {
	return updated{id: newArg(id), fields: newArgs(fields)}
}

type updated struct {
	id     arg
	fields []arg
}

func (u updated) describe() string {
	if len(u.fields) == 0 {
		return "updated " + u.id.String()
	}
	return "updated " + u.id.String() + " with fields " + argList(u.fields)
}

func (u updated) checkRecords(rc *receipt.RecordChanges) ([]string, error) {
	if err := u.id.stringArg("updated id " + u.id.String()); err != nil {
		return nil, err
	}
	for _, f := range u.fields {
		if err := f.stringArg("field " + f.String()); err != nil {
			return nil, err
		}
	}
	var first []string
	seen := false
	for _, e := range rc.Updated {
		ok, err := u.id.match(e.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.id, err)
		}
		if !ok {
			continue
		}
		f, err := u.checkFields(e)
		if err != nil {
			return nil, err
		}
		if len(f) == 0 {
			return nil, nil
		}
		if !seen {
			first, seen = f, true
		}
	}
	if seen {
		return first, nil
	}
	l := list{path: "changed.records.updated", n: len(rc.Updated), omitted: rc.Omitted.Updated, render: func() string { return renderUpdated(rc.Updated) }}
	return l.contains([]arg{u.id}, func(_ arg, i int) any { return rc.Updated[i].ID }, stringsOnly)
}

func (u updated) checkFields(e receipt.UpdatedRecord) ([]string, error) {
	path := "changed.records.updated[" + receipt.Quote(e.ID) + "].fields"
	var out []string
	for _, f := range u.fields {
		if f.isMatcher() {
			ok, err := f.m.Match(e.Fields)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if !ok {
				out = append(out, path+":\n"+f.m.FailureMessage(e.Fields))
			}
			continue
		}
		if !slices.Contains(e.Fields, f.v.(string)) {
			out = append(out, fmt.Sprintf("%s: %s is not among %s", path, f, quoted(e.Fields)))
		}
	}
	return out, nil
}

func renderUpdated(us []receipt.UpdatedRecord) string {
	s := make([]string, len(us))
	for i, u := range us {
		s[i] = receipt.Quote(u.ID) + quoted(u.Fields)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// Reordered expects changed.records.reordered: records present before and
// after changed their order.
//
//	HaveChanged(Records(Reordered()))
func Reordered() RecordsPart { return reordered{} }

type reordered struct{}

func (reordered) describe() string { return "reordered" }

func (reordered) checkRecords(rc *receipt.RecordChanges) ([]string, error) {
	if !rc.Reordered {
		return []string{"changed.records.reordered is false"}, nil
	}
	return nil, nil
}

// Total expects the record count to go from → to.
//
//	HaveChanged(Records(Total(12, 11)))
func Total(from, to int) RecordsPart { return total{from, to} }

type total struct{ from, to int }

func (t total) describe() string { return fmt.Sprintf("total %d→%d", t.from, t.to) }

func (t total) checkRecords(rc *receipt.RecordChanges) ([]string, error) {
	if rc.Total == nil {
		return []string{"changed.records.total is absent"}, nil
	}
	if rc.Total.From != t.from || rc.Total.To != t.to {
		return []string{fmt.Sprintf("changed.records.total is %d→%d, want %d→%d", rc.Total.From, rc.Total.To, t.from, t.to)}, nil
	}
	return nil, nil
}

// NothingChanged expects changed.observed to be false: the page model is
// the same before and after. Use it alone: HaveChanged(NothingChanged()).
//
//	Expect(r).To(HaveChanged(NothingChanged()))
func NothingChanged() ChangePart { return nothingChanged{} }

type nothingChanged struct{}

func (nothingChanged) describe() string { return "nothing" }

func (nothingChanged) check(c *receipt.Changed) ([]string, error) {
	if !c.Observed {
		return nil, nil
	}
	var parts []string
	if c.Page != nil {
		parts = append(parts, "page")
	}
	if c.Records != nil {
		parts = append(parts, "records")
	}
	if c.Actions != nil {
		parts = append(parts, "actions")
	}
	if c.State != nil {
		parts = append(parts, "state")
	}
	if c.Feedback != nil {
		parts = append(parts, "feedback")
	}
	if len(parts) == 0 {
		return []string{"changed.observed is true"}, nil
	}
	return []string{"changed.observed is true: " + andList(parts) + " changed"}, nil
}

// andList joins words the way a sentence does: "a", "a and b", "a, b and c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
