package matchers

import (
	"fmt"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// BeBounded succeeds if every list of the receipt's changed object (records
// added, removed and updated; actions added and removed; state keys;
// feedback added and removed) holds at most receipt.MaxChangedEntries
// entries (the contract's bound, CONTRACT.md "changed"), and every
// omission count is consistent with its list: never negative, and above
// zero only when the list is full, since a runtime omits entries only once
// the bound is reached. A receipt without a changed object is bounded.
// Receipt JSON that receipt.Decode refuses for its bounds is still read,
// so that the failure says which list broke which bound.
//
//	Expect(r).To(BeBounded())
func BeBounded() types.GomegaMatcher { return &beBounded{bound: receipt.MaxChangedEntries} }

type beBounded struct {
	final
	bound    int
	got      *receipt.Receipt
	failures []string
}

func (m *beBounded) Match(actual any) (bool, error) {
	s, err := loadLenient("BeBounded", actual)
	if err != nil {
		return false, err
	}
	m.got, m.failures = s.r, nil
	c := s.r.Result.Changed
	if c == nil {
		return true, nil
	}
	if rc := c.Records; rc != nil {
		m.check("changed.records.added", len(rc.Added), "changed.records.omitted.added", rc.Omitted.Added)
		m.check("changed.records.removed", len(rc.Removed), "changed.records.omitted.removed", rc.Omitted.Removed)
		m.check("changed.records.updated", len(rc.Updated), "changed.records.omitted.updated", rc.Omitted.Updated)
	}
	if ac := c.Actions; ac != nil {
		m.check("changed.actions.added", len(ac.Added), "changed.actions.omitted.added", ac.Omitted.Added)
		m.check("changed.actions.removed", len(ac.Removed), "changed.actions.omitted.removed", ac.Omitted.Removed)
	}
	if sc := c.State; sc != nil {
		m.check("changed.state.changed", len(sc.Changed), "changed.state.omitted", sc.Omitted)
	}
	if fc := c.Feedback; fc != nil {
		m.check("changed.feedback.added", len(fc.Added), "changed.feedback.omitted.added", fc.Omitted.Added)
		m.check("changed.feedback.removed", len(fc.Removed), "changed.feedback.omitted.removed", fc.Omitted.Removed)
	}
	return len(m.failures) == 0, nil
}

func (m *beBounded) check(path string, n int, omittedPath string, omitted int) {
	if n > m.bound {
		m.failures = append(m.failures, fmt.Sprintf("%s: %d entries, over the bound of %d", path, n, m.bound))
	}
	switch {
	case omitted < 0:
		m.failures = append(m.failures, fmt.Sprintf("%s is %d: an omission count cannot be negative", omittedPath, omitted))
	case omitted > 0 && n < m.bound:
		m.failures = append(m.failures, fmt.Sprintf("%s is %d, but %s lists only %d of %d entries: entries may be omitted only from a full list", omittedPath, omitted, path, n, m.bound))
	}
}

func (m *beBounded) FailureMessage(any) string {
	return format.Message(m.got, fmt.Sprintf("to be bounded (at most %d entries per list of changed, omission counts only on full lists), but:\n%s", m.bound, bullets(m.failures)))
}

func (m *beBounded) NegatedFailureMessage(any) string {
	return format.Message(m.got, fmt.Sprintf("not to be bounded, but every list of changed holds at most %d entries and every omission count is consistent", m.bound))
}
