package matchers_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/glassworks/glass/matchers"
)

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
