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
// Records, Actions and NothingChanged and given to HaveChanged.
type ChangePart interface {
	describe() string
	check(c *receipt.Changed) []string
}

// ListPart is one expectation about a list of the changed object, built by
// Added, Removed and Total and given to Records or Actions.
type ListPart interface {
	describe() string
	check(scope string, l changeList) []string
}

// HaveChanged succeeds if the receipt reports an observed change and every
// part holds. With no parts it only asks that something changed.
//
//	Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11)), Actions(Removed("remove@t9"))))
func HaveChanged(parts ...ChangePart) types.GomegaMatcher {
	return &haveChanged{parts: parts}
}

type haveChanged struct {
	parts    []ChangePart
	got      *receipt.Receipt
	failures []string
}

func (m *haveChanged) Match(actual any) (bool, error) {
	r, err := toReceipt("HaveChanged", actual)
	if err != nil {
		return false, err
	}
	m.got, m.failures = r, nil
	c := r.Result.Changed
	if c == nil {
		m.failures = []string{"the receipt has no changed object"}
		return false, nil
	}
	nothing := len(m.parts) == 1 && m.parts[0] == ChangePart(nothingChanged{})
	if !c.Observed && !nothing {
		m.failures = []string{"changed.observed is false: the page model did not change"}
		return false, nil
	}
	for _, p := range m.parts {
		m.failures = append(m.failures, p.check(c)...)
	}
	return len(m.failures) == 0, nil
}

func (m *haveChanged) expected() string {
	if len(m.parts) == 0 {
		return "an observed change"
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
	return format.Message(m.got, "not to have changed "+m.expected())
}

func bullets(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(format.Indent + "- " + l)
	}
	return b.String()
}

// changeList is the common view of the records and actions parts.
type changeList struct {
	present        bool
	added, removed []string
	omitAdded      int
	omitRemoved    int
	total          *receipt.Total
}

// Records expects the given parts of changed.records.
func Records(parts ...ListPart) ChangePart { return scoped{scope: "records", parts: parts} }

// Actions expects the given parts of changed.actions.
func Actions(parts ...ListPart) ChangePart { return scoped{scope: "actions", parts: parts} }

type scoped struct {
	scope string
	parts []ListPart
}

func (s scoped) describe() string {
	d := make([]string, len(s.parts))
	for i, p := range s.parts {
		d[i] = p.describe()
	}
	return s.scope + "(" + strings.Join(d, ", ") + ")"
}

func (s scoped) check(c *receipt.Changed) []string {
	var l changeList
	switch s.scope {
	case "records":
		if rc := c.Records; rc != nil {
			l = changeList{present: true, added: rc.Added, removed: rc.Removed, omitAdded: rc.Omitted.Added, omitRemoved: rc.Omitted.Removed, total: rc.Total}
		}
	case "actions":
		if ac := c.Actions; ac != nil {
			l = changeList{present: true, added: ac.Added, removed: ac.Removed, omitAdded: ac.Omitted.Added, omitRemoved: ac.Omitted.Removed}
		}
	}
	if !l.present {
		return []string{"changed." + s.scope + " is absent: no " + s.scope + " changed"}
	}
	var out []string
	for _, p := range s.parts {
		out = append(out, p.check(s.scope, l)...)
	}
	return out
}

// Added expects ids among the added entries.
func Added(ids ...string) ListPart { return membership{kind: "added", ids: ids} }

// Removed expects ids among the removed entries.
func Removed(ids ...string) ListPart { return membership{kind: "removed", ids: ids} }

type membership struct {
	kind string
	ids  []string
}

func (m membership) describe() string { return m.kind + " " + fmt.Sprintf("%q", m.ids) }

func (m membership) check(scope string, l changeList) []string {
	list, omitted := l.added, l.omitAdded
	if m.kind == "removed" {
		list, omitted = l.removed, l.omitRemoved
	}
	var out []string
	for _, id := range m.ids {
		if slices.Contains(list, id) {
			continue
		}
		if omitted > 0 {
			out = append(out, fmt.Sprintf("%q is not listed in changed.%s.%s %q, but %d entries were omitted: it may be among them", id, scope, m.kind, list, omitted))
		} else {
			out = append(out, fmt.Sprintf("%q is not in changed.%s.%s %q", id, scope, m.kind, list))
		}
	}
	return out
}

// Total expects the record count to go from → to.
func Total(from, to int) ListPart { return total{from, to} }

type total struct{ from, to int }

func (t total) describe() string { return fmt.Sprintf("total %d→%d", t.from, t.to) }

func (t total) check(scope string, l changeList) []string {
	if scope != "records" {
		return []string{"Total applies to Records only, not to " + scope}
	}
	if l.total == nil {
		return []string{"changed.records.total is absent"}
	}
	if l.total.From != t.from || l.total.To != t.to {
		return []string{fmt.Sprintf("changed.records.total is %d→%d, want %d→%d", l.total.From, l.total.To, t.from, t.to)}
	}
	return nil
}

// NothingChanged expects changed.observed to be false: the page model is
// the same before and after. Use it alone: HaveChanged(NothingChanged()).
func NothingChanged() ChangePart { return nothingChanged{} }

type nothingChanged struct{}

func (nothingChanged) describe() string { return "nothing" }

func (nothingChanged) check(c *receipt.Changed) []string {
	if c.Observed {
		return []string{"changed.observed is true: " + summary(c)}
	}
	return nil
}

func summary(c *receipt.Changed) string {
	r := &receipt.Receipt{Result: receipt.Result{OK: true, Changed: c}}
	s := r.GomegaString()
	if i := strings.Index(s, "changed "); i >= 0 {
		return s[i+len("changed "):]
	}
	return s
}
