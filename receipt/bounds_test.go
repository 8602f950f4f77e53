package receipt_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

// TestEachBoundIsDeclaredOnce: the contract's bounds are declared in
// bounds.go and nowhere else. The non-test Go source of the module is
// searched for each bound's value written as a bound — compared with,
// declared as a constant, or as a regular expression's repeat count — so
// that a second declaration, which could drift from the first, fails
// here. The JSON Schema's copies are held to these by schema's
// TestSchemaAgreesWithTheGoModel.
var quoted = regexp.MustCompile(`"(\\.|[^"\\])*"`)

// notABound, in a line's comment, says that a value equal to a bound is
// Glass's own limit, not the contract's, and is not to follow it.
const notABound = "not a contract bound"

func TestEachBoundIsDeclaredOnce(t *testing.T) {
	bounds := []struct {
		name   string
		values []string
		// onlyRepeat: the value is common, and only a regular
		// expression's repeat count writes it as this bound.
		onlyRepeat bool
		// near, when set, must match the line too: the value is too
		// common (a 4) to be this bound wherever it is compared with.
		near string
	}{
		{"MaxChangedEntries and MaxDataEntries", []string{fmt.Sprint(receipt.MaxChangedEntries), fmt.Sprint(receipt.MaxDataEntries)}, false, ""},
		{"MaxSnapshotItems, MaxDataChars and MaxToolDescriptionChars", []string{fmt.Sprint(receipt.MaxSnapshotItems), fmt.Sprint(receipt.MaxDataChars), fmt.Sprint(receipt.MaxToolDescriptionChars)}, false, ""},
		{"MaxAvailable, MaxSnapshotViews and MaxSnapshotFeedback", []string{fmt.Sprint(receipt.MaxAvailable), fmt.Sprint(receipt.MaxSnapshotViews), fmt.Sprint(receipt.MaxSnapshotFeedback)}, false, ""},
		{"MaxTextChars", []string{fmt.Sprint(receipt.MaxTextChars)}, false, ""},
		{"MaxDataDepth", []string{fmt.Sprint(receipt.MaxDataDepth)}, false, `(?i)depth|level|nest`},
		{"MaxInteger", []string{fmt.Sprint(receipt.MaxInteger), `1\s*<<\s*53`}, false, ""},
		{"MaxReceiptBytes", []string{fmt.Sprint(receipt.MaxReceiptBytes), `4\s*<<\s*20`}, false, ""},
		{"the executionId's length (ExecutionIDPattern)", []string{"64"}, true, ""},
	}
	type pattern struct {
		name string
		re   *regexp.Regexp
		near *regexp.Regexp
	}
	var patterns []pattern
	for _, b := range bounds {
		for _, v := range slices.Compact(b.values) {
			repeat := `\{\d*,\s*(` + v + `)\}`
			var near *regexp.Regexp
			if b.near != "" {
				near = regexp.MustCompile(b.near)
			}
			if b.onlyRepeat {
				patterns = append(patterns, pattern{b.name, regexp.MustCompile(repeat), near})
				continue
			}
			patterns = append(patterns, pattern{name: b.name, near: near, re: regexp.MustCompile(
				// compared with (not shifted by), declared as a constant,
				// or a repeat count
				`(^|[^<>])[<>]=?\s*(` + v + `)\b|\b(` + v + `)\s*[<>]=?([^<>=]|$)|^\s*(const\s+)?\w+\s*(\w+\s*)?=\s*(` + v + `)\s*$|` + repeat)})
		}
	}
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name != ".." && strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" {
				return filepath.SkipDir
			}
			// The mutants' Find and Replace texts quote the pages'
			// JavaScript, bounds and all: they are text to find, not
			// declarations.
			if rel, _ := filepath.Rel(root, path); rel == filepath.Join("fixtures", "mutants") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == filepath.Join("receipt", "bounds.go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			// Comments and quoted text (a rule's sentence quotes the
			// contract) are prose, not declarations.
			line, comment, _ := strings.Cut(quoted.ReplaceAllString(sc.Text(), `""`), "//")
			if strings.Contains(comment, notABound) {
				continue
			}
			for _, p := range patterns {
				if p.re.MatchString(line) && (p.near == nil || p.near.MatchString(line)) {
					t.Errorf("%s:%d: %s is declared in receipt/bounds.go; use it: %s", rel, n, p.name, strings.TrimSpace(line))
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}
