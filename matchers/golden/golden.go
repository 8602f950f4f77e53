package golden

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"
	"github.com/sebdah/goldie/v2"

	"github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// Golden files are updated by GLASS_UPDATE_GOLDEN=1 or -glass.update.
// The flag has its own name because -update is taken: goldie itself
// registers -update (and -template, -clean) on the default flag set, and
// other packages often do too. Registering a second "glass.update" would
// panic, so the flag is only added when nobody has added it before.
const (
	updateEnv  = "GLASS_UPDATE_GOLDEN"
	updateFlag = "glass.update"
)

func init() {
	if flag.Lookup(updateFlag) == nil {
		flag.Bool(updateFlag, false, "rewrite the golden receipts of MatchGoldenReceipt from the receipts the tests produce (or set "+updateEnv+"=1)")
	}
}

func updating() bool {
	if ok, _ := strconv.ParseBool(os.Getenv(updateEnv)); ok {
		return true
	}
	f := flag.Lookup(updateFlag)
	if f == nil {
		return false
	}
	ok, _ := strconv.ParseBool(f.Value.String())
	return ok
}

// GoldenSuffix ends the name of every golden receipt file.
const GoldenSuffix = ".golden.json"

// goldenName is what a golden name may look like: one file name, readable
// on every file system, chosen by the test's author rather than derived
// from spec text.
var goldenName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// GoldenOption configures MatchGoldenReceipt.
type GoldenOption func(*matcher)

// GoldenDir sets the directory of the golden files, relative to the test's
// package directory. The default is "testdata".
func GoldenDir(dir string) GoldenOption { return func(g *matcher) { g.dir = dir } }

// MatchGoldenReceipt succeeds if the receipt, normalised and rendered as
// canonical JSON, is byte for byte the golden file testdata/<name>.golden.json.
// Normalising (receipt.Normalize, plus the resume handle) replaces what
// differs between runs: the execution id, confirmation tickets, the
// resume handle, and absolute revisions, which become relative. The
// receipt model carries no timings, so there are none to normalise.
//
// The name must be a plain file name (letters, digits, '.', '_', '-').
// With GLASS_UPDATE_GOLDEN=1 in the environment, or -glass.update on the
// test binary's command line, the file is (re)written from the receipt and
// the matcher succeeds; review the diff and commit the file. A missing file
// is a matcher error that says so. A mismatch shows goldie's unified diff,
// labelled Expected (the file) and Actual (the receipt).
//
//	Expect(page.Do("remove@t9", nil)).To(MatchGoldenReceipt("remove-t9-approved"))
func MatchGoldenReceipt(name string, opts ...GoldenOption) types.GomegaMatcher {
	g := &matcher{name: name, dir: "testdata"}
	for _, o := range opts {
		o(g)
	}
	return g
}

// matcher is the golden-file matcher. The matchers package's own base is
// unexported, so it follows that base by hand: its input through
// matchers.ReceiptFor, its MatchMayChangeInTheFuture through
// matchers.MayChange.
type matcher struct {
	name, dir string
	got       *receipt.Receipt
	diff      string
}

func (g *matcher) path() string { return filepath.Join(g.dir, g.name+GoldenSuffix) }

func (g *matcher) Match(actual any) (bool, error) {
	if !goldenName.MatchString(g.name) {
		return false, fmt.Errorf("MatchGoldenReceipt matcher: golden name %q is not a plain file name: use letters, digits, '.', '_' and '-', starting with a letter or digit (no path separators)", g.name)
	}
	r, err := matchers.ReceiptFor("MatchGoldenReceipt", actual)
	if err != nil {
		return false, err
	}
	g.got, g.diff = r, ""
	got, err := GoldenJSON(r)
	if err != nil {
		return false, fmt.Errorf("MatchGoldenReceipt matcher: %w", err)
	}
	if updating() {
		if err := os.MkdirAll(g.dir, 0o755); err != nil {
			return false, fmt.Errorf("MatchGoldenReceipt matcher: update %s: %w", g.path(), err)
		}
		if err := os.WriteFile(g.path(), got, 0o644); err != nil {
			return false, fmt.Errorf("MatchGoldenReceipt matcher: update %s: %w", g.path(), err)
		}
		return true, nil
	}
	want, err := os.ReadFile(g.path())
	if errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("MatchGoldenReceipt matcher: golden file %s does not exist; create it from this receipt by running the test with %s=1 (or -%s), then review and commit it", g.path(), updateEnv, updateFlag)
	}
	if err != nil {
		return false, fmt.Errorf("MatchGoldenReceipt matcher: %w", err)
	}
	// A checkout with CRLF line endings must not make every golden differ.
	want = bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))
	if bytes.Equal(got, want) {
		return true, nil
	}
	g.diff = goldie.Diff(goldie.ClassicDiff, string(got), string(want))
	return false, nil
}

// GoldenJSON is the text MatchGoldenReceipt compares with a golden file:
// the receipt normalised (receipt.Normalize, and the resume handle
// replaced by VolatileResume) and rendered as canonical JSON.
func GoldenJSON(r *receipt.Receipt) ([]byte, error) {
	n := receipt.Normalize(r)
	if n.Result.Resume != "" {
		n.Result.Resume = VolatileResume
	}
	return receipt.CanonicalJSON(n)
}

// VolatileResume stands for a resume handle in a golden receipt: the
// handle names one execution, so it differs on every run.
const VolatileResume = "<resume>"

func (g *matcher) FailureMessage(any) string {
	return format.Message(g.got, "to match the golden receipt "+g.path()+", but it differs:\n"+format.IndentString(strings.TrimRight(g.diff, "\n"), 1))
}

func (g *matcher) NegatedFailureMessage(any) string {
	return format.Message(g.got, "not to match the golden receipt "+g.path()+", but it does")
}

// MatchMayChangeInTheFuture tells Eventually whether polling actual again
// could change the outcome: as for every receipt matcher, true only for a
// matchers.Receipter.
func (g *matcher) MatchMayChangeInTheFuture(actual any) bool { return matchers.MayChange(actual) }
