package golden_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	. "github.com/glassworks/glass/matchers/golden"
	"github.com/glassworks/glass/receipt"
)

// fixture is the JSON text of testdata/<name>.json, receipts copied from
// package matchers' testdata.
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

var pointer = regexp.MustCompile(`0x[0-9a-f]+`)

// stable removes the address Gomega prints for a pointer.
func stable(msg string) string { return pointer.ReplaceAllString(msg, "0x") }

// header is how every message starts, as in package matchers: the receipt
// as its GomegaString renders it.
func header(r *receipt.Receipt) string {
	return "Expected\n" + format.Indent + "<*receipt.Receipt | 0x>: " + r.GomegaString()
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

// call is a Receipter, like a handle a harness could return.
type call struct{ r *receipt.Receipt }

func (c call) Receipt() *receipt.Receipt { return c.r }

// The input rows below are those every matcher of package matchers is held
// to (its input_test.go), for the matcher that lives here.

func TestMatchGoldenReceiptAcceptsEveryFormOfAReceipt(t *testing.T) {
	raw := fixture(t, "remove-t9-approved")
	r := decoded(t, "remove-t9-approved")
	forms := map[string]any{
		"receipt.Receipt":  *r,
		"*receipt.Receipt": r,
		"Receipter":        call{r},
		"[]byte":           raw,
		"string":           string(raw),
		"json.RawMessage":  json.RawMessage(raw),
	}
	for form, actual := range forms {
		ok, err := MatchGoldenReceipt("remove-t9-approved").Match(actual)
		if err != nil || !ok {
			t.Errorf("given a %s: Match = %v, %v; want true, nil", form, ok, err)
		}
	}
	// and fails on another receipt
	if ok, err := MatchGoldenReceipt("remove-t9-approved").Match(fixture(t, "denied")); err != nil || ok {
		t.Errorf("given another receipt: Match = %v, %v; want false, nil", ok, err)
	}
}

func TestMatchGoldenReceiptNamesItselfForAWrongInput(t *testing.T) {
	const name = "MatchGoldenReceipt"
	for _, in := range []struct {
		actual any
		err    string
	}{
		{42, name + " matcher expects a receipt (receipt.Receipt, *receipt.Receipt, a Receipter, or receipt JSON as []byte, string or json.RawMessage), got int"},
		{nil, name + " matcher expects a receipt, got nil"},
		{(*receipt.Receipt)(nil), name + " matcher expects a receipt, got a nil *receipt.Receipt"},
		{call{}, name + " matcher expects a receipt, got a golden_test.call carrying none"},
		{&receipt.Snapshot{}, name + " matcher expects a receipt (receipt.Receipt, *receipt.Receipt, a Receipter, or receipt JSON as []byte, string or json.RawMessage), got *receipt.Snapshot"},
	} {
		ok, err := MatchGoldenReceipt("remove-t9-approved").Match(in.actual)
		if err == nil || err.Error() != in.err || ok {
			t.Errorf("given %T: Match = %v, %v; want false and error %q", in.actual, ok, err, in.err)
		}
	}
	ok, err := MatchGoldenReceipt("remove-t9-approved").Match(`["not", "a", "receipt"]`)
	if err == nil || ok || !errors.Is(err, receipt.ErrInvalid) || !strings.HasPrefix(err.Error(), name+" matcher: ") {
		t.Errorf("given JSON that is not a receipt: Match = %v, %v; want false and a wrapped receipt.ErrInvalid", ok, err)
	}
}

func TestMatchGoldenReceiptPollsOnlyAReceipter(t *testing.T) {
	r := decoded(t, "denied")
	m, ok := MatchGoldenReceipt("denied").(interface{ MatchMayChangeInTheFuture(any) bool })
	if !ok {
		t.Fatal("MatchGoldenReceipt does not tell Eventually whether to keep polling")
	}
	for _, actual := range []any{r, *r, fixture(t, "denied"), string(fixture(t, "denied"))} {
		if m.MatchMayChangeInTheFuture(actual) {
			t.Errorf("a %T may change, want final", actual)
		}
	}
	if !m.MatchMayChangeInTheFuture(call{r}) {
		t.Error("a Receipter is final, want polled")
	}
}

func TestMatchGoldenReceipt(t *testing.T) {
	// A receipt recorded at revisions 41→42, with its own execution id and
	// ticket, matches the golden file written from another run.
	m := MatchGoldenReceipt("remove-t9-approved")
	ok, err := m.Match(fixture(t, "remove-t9-approved"))
	if err != nil || !ok {
		t.Fatalf("Match = %v, %v; want true, nil", ok, err)
	}
	want := header(decoded(t, "remove-t9-approved")) + "\nnot to match the golden receipt " + filepath.Join("testdata", "remove-t9-approved.golden.json") + ", but it does"
	if got := stable(m.NegatedFailureMessage(nil)); got != want {
		t.Errorf("negated message:\n%s\nwant:\n%s", got, want)
	}
}

func TestMatchGoldenReceiptShowsALabelledDiff(t *testing.T) {
	dir := t.TempDir()
	golden, err := os.ReadFile(filepath.Join("testdata", "remove-t9-approved.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	golden = bytes.Replace(golden, []byte(`"to": 11`), []byte(`"to": 10`), 1)
	if err := os.WriteFile(filepath.Join(dir, "t9.golden.json"), golden, 0o644); err != nil {
		t.Fatal(err)
	}
	m := MatchGoldenReceipt("t9", GoldenDir(dir))
	ok, err := m.Match(fixture(t, "remove-t9-approved"))
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	want := header(decoded(t, "remove-t9-approved")) + "\nto match the golden receipt " + filepath.Join(dir, "t9.golden.json") + `, but it differs:
    --- Expected
    +++ Actual
    @@ -26,3 +26,3 @@
               "from": 12,
    -          "to": 10
    +          "to": 11
             }`
	if got := stable(m.FailureMessage(nil)); got != stable(want) {
		t.Errorf("message:\n%s\nwant:\n%s", got, stable(want))
	}
}

func TestMatchGoldenReceiptAcceptsCRLFCheckouts(t *testing.T) {
	dir := t.TempDir()
	golden, err := os.ReadFile(filepath.Join("testdata", "remove-t9-approved.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(golden, []byte("\n"), []byte("\r\n"))
	if err := os.WriteFile(filepath.Join(dir, "t9.golden.json"), crlf, 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := MatchGoldenReceipt("t9", GoldenDir(dir)).Match(fixture(t, "remove-t9-approved")); err != nil || !ok {
		t.Errorf("Match = %v, %v; want true, nil", ok, err)
	}
}

func TestMatchGoldenReceiptErrors(t *testing.T) {
	r := fixture(t, "remove-t9-approved")
	dir := t.TempDir()
	missing := filepath.Join(dir, "new-receipt.golden.json")
	cases := []errorCase{
		{"a missing file says how to create it", MatchGoldenReceipt("new-receipt", GoldenDir(dir)), r,
			"MatchGoldenReceipt matcher: golden file " + missing + " does not exist; create it from this receipt by running the test with GLASS_UPDATE_GOLDEN=1 (or -glass.update), then review and commit it"},
	}
	for _, name := range []string{"", "../escape", "a/b", `a\b`, ".hidden", "with space", "ümlaut", "-flag"} {
		cases = append(cases, errorCase{"name " + name, MatchGoldenReceipt(name, GoldenDir(dir)), r,
			`MatchGoldenReceipt matcher: golden name "` + strings.ReplaceAll(name, `\`, `\\`) + `" is not a plain file name: use letters, digits, '.', '_' and '-', starting with a letter or digit (no path separators)`})
	}
	runErrors(t, cases)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed match wrote %d files", len(entries))
	}
}

func TestMatchGoldenReceiptUpdates(t *testing.T) {
	for _, how := range []string{"env", "flag"} {
		t.Run(how, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "nested", "testdata")
			switch how {
			case "env":
				t.Setenv("GLASS_UPDATE_GOLDEN", "1")
			case "flag":
				if err := flag.Set("glass.update", "true"); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = flag.Set("glass.update", "false") })
			}
			r := decoded(t, "flow-step-failed")
			ok, err := MatchGoldenReceipt("flow", GoldenDir(dir)).Match(r)
			if err != nil || !ok {
				t.Fatalf("Match while updating = %v, %v; want true, nil", ok, err)
			}
			written, err := os.ReadFile(filepath.Join(dir, "flow.golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := GoldenJSON(r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(written, want) {
				t.Errorf("written:\n%s\nwant:\n%s", written, want)
			}
		})
	}
	// Without the switch, the file written above is only read.
	if ok, err := MatchGoldenReceipt("x", GoldenDir(t.TempDir())).Match(fixture(t, "denied")); err == nil || ok {
		t.Errorf("Match with no golden file and no update = %v, %v; want an error", ok, err)
	}
}

func TestGoldenJSONNormalisesVolatileFields(t *testing.T) {
	b, err := GoldenJSON(decoded(t, "flow-step-failed"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		`"executionId": "<execution-id>"`,
		`"resume": "<resume>"`,
		`"ticket": "<ticket>"`,
		"\"revision\": {\n    \"before\": 0,\n    \"after\": 1\n  }",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("golden JSON lacks %s:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "}\n") || strings.Contains(got, "\r") {
		t.Errorf("golden JSON is not canonical (LF, one final newline):\n%q", got)
	}
	// The receipt itself is left alone.
	if r := decoded(t, "flow-step-failed"); r.Result.Resume != "rs_5f1c0a9e3b2d7c64" {
		t.Errorf("fixture changed: %q", r.Result.Resume)
	}
}
