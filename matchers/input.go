// Package matchers is the Gomega vocabulary for Glass receipts. Every
// matcher reads like the seed's receipt table and works without a browser:
// it accepts a receipt value, a pointer, or raw receipt JSON.
//
//	r := page.Do("remove@t9", nil)
//	Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
//	Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11))))
//	Expect(page.Do("remove@t9", nil, glasstest.Deny())).To(FailAtPhase(receipt.PhasePolicy))
package matchers

import (
	"encoding/json"
	"fmt"

	"github.com/glassworks/glass/receipt"
)

// Receipter is implemented by values that carry a receipt, so that the
// matchers accept them directly.
type Receipter interface {
	Receipt() *receipt.Receipt
}

// toReceipt turns what a matcher was given into a receipt, or an error
// that names the matcher and what it got.
func toReceipt(matcher string, actual any) (*receipt.Receipt, error) {
	switch a := actual.(type) {
	case *receipt.Receipt:
		if a == nil {
			return nil, fmt.Errorf("%s matcher expects a receipt, got a nil *receipt.Receipt", matcher)
		}
		return a, nil
	case receipt.Receipt:
		return &a, nil
	case Receipter:
		r := a.Receipt()
		if r == nil {
			return nil, fmt.Errorf("%s matcher expects a receipt, got %T carrying none", matcher, actual)
		}
		return r, nil
	case []byte:
		return decode(matcher, a)
	case json.RawMessage:
		return decode(matcher, a)
	case string:
		return decode(matcher, []byte(a))
	case nil:
		return nil, fmt.Errorf("%s matcher expects a receipt, got nil", matcher)
	}
	return nil, fmt.Errorf("%s matcher expects a receipt (receipt.Receipt, *receipt.Receipt or receipt JSON), got %T", matcher, actual)
}

func decode(matcher string, b []byte) (*receipt.Receipt, error) {
	r, err := receipt.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s matcher: %w", matcher, err)
	}
	return r, nil
}
