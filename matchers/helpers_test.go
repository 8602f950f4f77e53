package matchers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// fixture is the JSON text of testdata/<name>.json: receipts recorded from
// the Todo example, and receipts of the shapes the runtime grows into.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decoded(t testing.TB, name string) *receipt.Receipt {
	t.Helper()
	r, err := receipt.Decode(fixture(t, name))
	if err != nil {
		t.Fatalf("testdata/%s.json: %v", name, err)
	}
	return r
}

// lenientReceipt reads a fixture the way BeBounded and NeverContain read
// JSON that receipt.Decode refuses: field by field.
type lenientReceipt receipt.Receipt

// shownAs is the receipt a matcher shows for a fixture: decoded, or read
// leniently where the decoder refuses it.
func shownAs(t testing.TB, name string) *receipt.Receipt {
	t.Helper()
	if r, err := receipt.Decode(fixture(t, name)); err == nil {
		return r
	}
	var l lenientReceipt
	if err := json.Unmarshal(fixture(t, name), &l); err != nil {
		t.Fatalf("testdata/%s.json: %v", name, err)
	}
	return (*receipt.Receipt)(&l)
}

var pointer = regexp.MustCompile(`0x[0-9a-f]+`)

// stable removes what differs between runs from a message: the address
// Gomega prints for a pointer.
func stable(msg string) string { return pointer.ReplaceAllString(msg, "0x") }

// header is how every message of this package starts: the receipt as its
// GomegaString renders it. Building it from GomegaString keeps these tests
// about this package's words, not about the receipt package's rendering.
func header(r *receipt.Receipt) string {
	return "Expected\n" + format.Indent + "<*receipt.Receipt | 0x>: " + r.GomegaString()
}

// matcherCase is one row of the message tables: a matcher given the JSON
// of a fixture, whether it matches, and the exact message a reader sees —
// the failure message when it does not match, the negated one (what
// Not(matcher) reports) when it does.
type matcherCase struct {
	name    string
	fixture string
	matcher types.GomegaMatcher
	match   bool
	message string // after the header and a newline
}

func runCases(t *testing.T, cases []matcherCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, err := c.matcher.Match(fixture(t, c.fixture))
			if err != nil {
				t.Fatalf("Match: unexpected error: %v", err)
			}
			if ok != c.match {
				t.Fatalf("Match = %v, want %v; failure message:\n%s", ok, c.match, c.matcher.FailureMessage(nil))
			}
			var got string
			if ok {
				got = c.matcher.NegatedFailureMessage(nil)
			} else {
				got = c.matcher.FailureMessage(nil)
			}
			want := header(shownAs(t, c.fixture)) + "\n" + c.message
			if stable(got) != want {
				t.Errorf("message:\n%s\nwant:\n%s", stable(got), want)
			}
		})
	}
}

// errorCase is a matcher that cannot decide: a bad argument or input.
type errorCase struct {
	name    string
	matcher types.GomegaMatcher
	actual  any
	err     string
}

func runErrors(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, err := c.matcher.Match(c.actual)
			if err == nil {
				t.Fatalf("Match = %v, nil error; want error %q", ok, c.err)
			}
			if ok {
				t.Errorf("Match = true alongside an error")
			}
			if err.Error() != c.err {
				t.Errorf("error:\n%s\nwant:\n%s", err, c.err)
			}
		})
	}
}
