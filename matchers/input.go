package matchers

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/glassworks/glass/receipt"
)

// Receipter is implemented by values that carry a receipt, so that the
// matchers accept them directly. A Receipter may hand out a newer receipt
// each time it is asked, so Eventually keeps polling one (see
// MatchMayChangeInTheFuture on any matcher of this package).
type Receipter interface {
	Receipt() *receipt.Receipt
}

// subject is what a matcher was given, turned into a receipt. raw keeps
// the JSON text when the input was JSON, so that NeverContain can search
// every byte the page sent, including fields the Go model does not know.
type subject struct {
	r   *receipt.Receipt
	raw []byte
}

// load turns what a matcher was given into a receipt, or an error that
// names the matcher and what it got.
func load(matcher string, actual any) (subject, error) {
	switch a := actual.(type) {
	case *receipt.Receipt:
		if a == nil {
			return subject{}, fmt.Errorf("%s matcher expects a receipt, got a nil *receipt.Receipt", matcher)
		}
		return subject{r: a}, nil
	case receipt.Receipt:
		return subject{r: &a}, nil
	case Receipter:
		r := a.Receipt()
		if r == nil {
			return subject{}, fmt.Errorf("%s matcher expects a receipt, got a %T carrying none", matcher, actual)
		}
		return subject{r: r}, nil
	case []byte:
		return decode(matcher, a)
	case json.RawMessage:
		return decode(matcher, a)
	case string:
		return decode(matcher, []byte(a))
	case nil:
		return subject{}, fmt.Errorf("%s matcher expects a receipt, got nil", matcher)
	}
	return subject{}, fmt.Errorf("%s matcher expects a receipt (receipt.Receipt, *receipt.Receipt, a Receipter, or receipt JSON as []byte, string or json.RawMessage), got %T", matcher, actual)
}

// ReceiptFor turns what a receipt matcher was given into a receipt, for
// matchers written outside this package (such as matchers/golden). It
// accepts what every matcher here accepts: a receipt.Receipt, a
// *receipt.Receipt, a Receipter, or receipt JSON as []byte, string or
// json.RawMessage, decoded with receipt.Decode. The error starts with the
// matcher's name ("<matcher> matcher expects a receipt …", or
// "<matcher> matcher: " and the decoder's error, which wraps
// receipt.ErrInvalid), so a reader sees which assertion could not decide.
// A matcher built on it should also have a MatchMayChangeInTheFuture that
// returns MayChange.
func ReceiptFor(matcher string, actual any) (*receipt.Receipt, error) {
	s, err := load(matcher, actual)
	return s.r, err
}

// MayChange reports whether polling actual again could give another
// receipt: true only for a Receipter. Every matcher of this package
// returns it from MatchMayChangeInTheFuture, so that Eventually stops at
// once on a finished receipt; a receipt matcher written elsewhere does the
// same by returning it from its own.
func MayChange(actual any) bool {
	_, ok := actual.(Receipter)
	return ok
}

// loadLenient is load for the matchers whose question is what strict
// decoding would refuse to look at: BeBounded judges lists over their
// bound, NeverContain searches bytes. JSON that receipt.Decode rejects is
// read again with the plain encoding/json rules of the model's fields, and
// only JSON of the wrong shape altogether is an error (Decode's).
func loadLenient(matcher string, actual any) (subject, error) {
	s, err := load(matcher, actual)
	if err == nil || !errors.Is(err, receipt.ErrInvalid) {
		return s, err
	}
	var b []byte
	switch a := actual.(type) {
	case []byte:
		b = a
	case json.RawMessage:
		b = a
	case string:
		b = []byte(a)
	}
	r, lerr := lenient(b)
	if lerr != nil {
		return subject{}, err
	}
	return subject{r: r, raw: b}, nil
}

// lenientReceipt has the fields of receipt.Receipt and none of its
// methods, so encoding/json fills it field by field without the checks of
// Receipt's own decoding.
type lenientReceipt receipt.Receipt

func lenient(b []byte) (*receipt.Receipt, error) {
	var l lenientReceipt
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, err
	}
	return (*receipt.Receipt)(&l), nil
}

func decode(matcher string, b []byte) (subject, error) {
	r, err := receipt.Decode(b)
	if err != nil {
		return subject{}, fmt.Errorf("%s matcher: %w", matcher, err)
	}
	return subject{r: r, raw: b}, nil
}

// final is embedded by every matcher. A receipt is the record of one
// finished call: the same value can never start to match later, so
// Eventually and Consistently stop polling a receipt value, pointer or JSON
// at once. Only a Receipter, which may return a newer receipt on the next
// poll, is worth polling. (Polling a function, Eventually(func() …), is
// unaffected: Gomega always calls the function again.)
type final struct{}

// MatchMayChangeInTheFuture tells Eventually whether polling actual again
// could change the outcome: true only for a Receipter.
func (final) MatchMayChangeInTheFuture(actual any) bool { return MayChange(actual) }
