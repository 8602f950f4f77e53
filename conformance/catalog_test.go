package conformance_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/receipt"
)

// These tests hold CONTRACT.md, the Go rule catalog, the Go code table and
// the seeds together: a rule added, removed or reworded on one side only,
// a code whose phase differs, or a seed paragraph nobody mapped fails here.

const (
	contractPath = "../CONTRACT.md"
	seedDir      = "../receipt/testdata/seeds"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// documentedRule is a rule as CONTRACT.md writes it:
//
//	#### `policy.denied`
//
//	A call whose confirmation is denied MUST fail with …
//
//	- Phase: `policy` · Party: runtime
//	- Seed: `000_3e7eae751e5cbc0b.txt` › "Apply the confirmation policy"
//	- Checked by: conformance spec `policy.denied`; needs …
type documentedRule struct {
	line                            int
	id, must, phase, party, seed    string
	checks                          []string
	needs                           string
	hasPhase, hasSeed, hasCheckedBy bool
}

var (
	ruleHeading = regexp.MustCompile("^#### `([^`]+)`$")
	phaseLine   = regexp.MustCompile("^- Phase: `([^`]+)` · Party: ([a-z]+)$")
	seedLine    = regexp.MustCompile(`^- Seed: (.+)$`)
	checkedLine = regexp.MustCompile("^- Checked by: (conformance spec `[^`]+`(?:, conformance spec `[^`]+`)*)(?:; needs (.+))?$")
	specName    = regexp.MustCompile("`([^`]+)`")
)

func unquote(s string) string { return strings.ReplaceAll(s, "`", "") }

func documentedRules(t *testing.T) []documentedRule {
	t.Helper()
	lines := strings.Split(readFile(t, contractPath), "\n")
	var out []documentedRule
	for i := 0; i < len(lines); i++ {
		m := ruleHeading.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		r := documentedRule{line: i + 1, id: m[1]}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		var must []string
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			must = append(must, strings.TrimSpace(lines[j]))
		}
		r.must = unquote(strings.Join(must, " "))
		for j++; j < len(lines) && strings.HasPrefix(lines[j], "- "); j++ {
			if m := phaseLine.FindStringSubmatch(lines[j]); m != nil {
				r.phase, r.party, r.hasPhase = m[1], m[2], true
			}
			if m := seedLine.FindStringSubmatch(lines[j]); m != nil {
				r.seed, r.hasSeed = unquote(m[1]), true
			}
			if m := checkedLine.FindStringSubmatch(lines[j]); m != nil {
				for _, s := range specName.FindAllStringSubmatch(m[1], -1) {
					r.checks = append(r.checks, s[1])
				}
				r.needs, r.hasCheckedBy = unquote(m[2]), true
			}
		}
		out = append(out, r)
	}
	return out
}

func TestCatalogAndContractListTheSameRules(t *testing.T) {
	doc := documentedRules(t)
	var docIDs, goIDs []string
	for _, r := range doc {
		docIDs = append(docIDs, r.id)
	}
	for _, r := range conformance.Catalog {
		goIDs = append(goIDs, r.ID)
	}
	for _, id := range goIDs {
		if !slices.Contains(docIDs, id) {
			t.Errorf("rule %s is in conformance.Catalog but not in CONTRACT.md", id)
		}
	}
	for _, r := range doc {
		if !slices.Contains(goIDs, r.id) {
			t.Errorf("CONTRACT.md:%d: rule %s is not in conformance.Catalog", r.line, r.id)
		}
	}
	if t.Failed() {
		return
	}
	if !slices.Equal(docIDs, goIDs) {
		t.Errorf("the rules are in another order:\nCONTRACT.md: %v\nCatalog:     %v", docIDs, goIDs)
	}
}

func TestCatalogAndContractSayTheSame(t *testing.T) {
	doc := map[string]documentedRule{}
	for _, r := range documentedRules(t) {
		doc[r.id] = r
	}
	for _, g := range conformance.Catalog {
		d, ok := doc[g.ID]
		if !ok {
			continue // reported by TestCatalogAndContractListTheSameRules
		}
		where := fmt.Sprintf("CONTRACT.md:%d: %s", d.line, g.ID)
		if !d.hasPhase || !d.hasSeed || !d.hasCheckedBy {
			t.Errorf("%s: want the lines \"- Phase: … · Party: …\", \"- Seed: …\" and \"- Checked by: conformance spec …\" under the sentence", where)
			continue
		}
		diff := func(field, inDoc, inGo string) {
			if inDoc != inGo {
				t.Errorf("%s: %s differs\nCONTRACT.md: %s\nCatalog:     %s", where, field, inDoc, inGo)
			}
		}
		diff("MUST sentence", d.must, g.Must)
		diff("phase", d.phase, g.PhaseName())
		diff("party", d.party, string(g.Party))
		diff("seed", d.seed, g.Seed)
		diff("checks", strings.Join(d.checks, ", "), strings.Join(g.Checks, ", "))
		diff("needs", d.needs, g.Needs)
	}
}

var ruleID = regexp.MustCompile(`^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$`)

func TestCatalogEntriesAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range conformance.Catalog {
		if !ruleID.MatchString(r.ID) {
			t.Errorf("%q: want an id of the form area.kebab-name", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("%s: listed twice", r.ID)
		}
		seen[r.ID] = true
		if !strings.Contains(r.Must, "MUST") || !strings.HasSuffix(r.Must, ".") || strings.Contains(r.Must, "`") {
			t.Errorf("%s: want one sentence with MUST or MUST NOT, ending in a period, without code quotes: %q", r.ID, r.Must)
		}
		if r.Phase != receipt.PhaseNone && !r.Phase.Valid() {
			t.Errorf("%s: phase %q", r.ID, r.Phase)
		}
		if r.Party != conformance.Runtime && r.Party != conformance.Host {
			t.Errorf("%s: party %q", r.ID, r.Party)
		}
		if (r.Party == conformance.Host) != strings.HasPrefix(r.ID, "host.") {
			t.Errorf("%s: host rules, and only they, live in the host area", r.ID)
		}
		if !slices.Contains(r.Checks, r.ID) {
			t.Errorf("%s: checks %v do not include the spec named by the id", r.ID, r.Checks)
		}
		if r.Since != receipt.Protocol {
			t.Errorf("%s: since %q", r.ID, r.Since)
		}
	}
	for _, id := range []string{"resolve.unknown-id", "args.malformed-json", "policy.denied", "policy.no-channel", "verify.expectation"} {
		if _, ok := conformance.RuleByID(id); !ok {
			t.Errorf("the walking skeleton's rule %s is gone; rule ids are never dropped", id)
		}
	}
}

var seedRef = regexp.MustCompile(`(\d{3}_[0-9a-f]+\.txt) › "([^"]+)"`)

// headings returns the headings of a seed: in 000, a line standing alone
// between blank lines with no final punctuation; in 004, a Markdown
// heading.
func headings(t *testing.T, file string) []string {
	t.Helper()
	text := readFile(t, filepath.Join(seedDir, file))
	var out []string
	if strings.HasPrefix(file, "004") {
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "#") {
				out = append(out, strings.TrimSpace(strings.TrimLeft(l, "#")))
			}
		}
		return out
	}
	for _, block := range regexp.MustCompile(`\n\s*\n`).Split(text, -1) {
		block = strings.Trim(block, "\n")
		if !strings.Contains(block, "\n") && isPlainHeading(block) {
			out = append(out, strings.TrimSpace(block))
		}
	}
	return out
}

func seedRefs(seed string) [][2]string {
	var out [][2]string
	for _, m := range seedRef.FindAllStringSubmatch(seed, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	return out
}

func TestRuleSeedsNameRealHeadings(t *testing.T) {
	for _, r := range conformance.Catalog {
		refs := seedRefs(r.Seed)
		if len(refs) == 0 || len(strings.Split(r.Seed, "; ")) != len(refs) {
			t.Errorf("%s: seed %q, want file › \"heading\" (several separated by \"; \")", r.ID, r.Seed)
			continue
		}
		for _, ref := range refs {
			if !slices.Contains(headings(t, ref[0]), ref[1]) {
				t.Errorf("%s: %s has no heading %q", r.ID, ref[0], ref[1])
			}
		}
	}
}

func TestSeedCopiesAreUnchanged(t *testing.T) {
	want := map[string]string{
		"000_3e7eae751e5cbc0b.txt": "493317d8f4a58d080fa9466fc7eb89526ee13846a8176455f9eb7ec62b60e47d",
		"004_e93c79cfe25aa88f.txt": "197caa4fde4d0d919e8c861f0b2e487ca4f5d48aa27db94b492213e4d6f51555",
	}
	for file, sum := range want {
		got := sha256.Sum256([]byte(readFile(t, filepath.Join(seedDir, file))))
		if hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s is not the seed any more; the coverage table maps the original", file)
		}
	}
}

// coverageRow is one row of the coverage table of CONTRACT.md.
type coverageRow struct {
	line            int
	seed            string // "000" or "004"
	section, begins string
	cover           string
	rules           []string
}

var (
	seedTableHeading = regexp.MustCompile("^### Seed (\\d{3}) \\(`([^`]+)`\\)$")
	beginsCell       = regexp.MustCompile("^``? ?(.*?) ?``?$")
	rulesCell        = regexp.MustCompile("^`[^`]+`(, `[^`]+`)*$")
)

func coverageRows(t *testing.T) []coverageRow {
	t.Helper()
	text := readFile(t, contractPath)
	_, after, ok := strings.Cut(text, "\n## 7. Coverage of the seeds\n")
	if !ok {
		t.Fatal("CONTRACT.md has no section \"## 7. Coverage of the seeds\"")
	}
	start := strings.Count(text[:len(text)-len(after)], "\n")
	var rows []coverageRow
	seed := ""
	for i, l := range strings.Split(after, "\n") {
		if m := seedTableHeading.FindStringSubmatch(l); m != nil {
			seed = m[1]
			continue
		}
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| under the heading") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | ")
		if len(cells) != 3 || seed == "" {
			t.Errorf("CONTRACT.md:%d: want | heading | `first words` | covered by |, got %q", start+i+1, l)
			continue
		}
		m := beginsCell.FindStringSubmatch(cells[1])
		row := coverageRow{line: start + i + 1, seed: seed, section: cells[0], cover: cells[2]}
		if m == nil || !strings.HasPrefix(cells[1], "`") {
			t.Errorf("CONTRACT.md:%d: the first words must be in code quotes: %q", row.line, cells[1])
			continue
		}
		row.begins = normalize(m[1])
		if rulesCell.MatchString(row.cover) {
			for _, s := range specName.FindAllStringSubmatch(row.cover, -1) {
				row.rules = append(row.rules, s[1])
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func TestCoverageTableMapsEverySeedParagraph(t *testing.T) {
	rows := coverageRows(t)
	files := map[string]string{"000": "000_3e7eae751e5cbc0b.txt", "004": "004_e93c79cfe25aa88f.txt"}
	cited := map[string][]string{} // rule → sections of the paragraphs that cite it
	for seed, file := range files {
		paras := seedParagraphs(file, readFile(t, filepath.Join(seedDir, file)))
		if len(paras) < 20 {
			t.Fatalf("%s: %d paragraphs; the splitter lost the text", file, len(paras))
		}
		covered := make([]int, len(paras))
		for _, row := range rows {
			if row.seed != seed {
				continue
			}
			var hits []int
			for i, p := range paras {
				if p.text == row.begins || strings.HasPrefix(p.text, row.begins+" ") {
					hits = append(hits, i)
				}
			}
			switch {
			case len(hits) == 0:
				t.Errorf("CONTRACT.md:%d: no paragraph of seed %s begins %q", row.line, seed, row.begins)
				continue
			case len(hits) > 1:
				t.Errorf("CONTRACT.md:%d: %d paragraphs of seed %s begin %q; quote more words", row.line, len(hits), seed, row.begins)
				continue
			}
			p := paras[hits[0]]
			covered[hits[0]]++
			if row.section != p.section {
				t.Errorf("CONTRACT.md:%d: the paragraph %q stands under %q, not %q", row.line, row.begins, p.section, row.section)
			}
			switch {
			case row.rules != nil:
				for _, id := range row.rules {
					if _, ok := conformance.RuleByID(id); !ok {
						t.Errorf("CONTRACT.md:%d: no rule %s", row.line, id)
					}
					cited[id] = append(cited[id], p.section)
				}
			case strings.HasPrefix(row.cover, "informative"):
			case strings.HasPrefix(row.cover, "not checkable from outside the page: ") && len(row.cover) > len("not checkable from outside the page: ")+10:
			default:
				t.Errorf("CONTRACT.md:%d: covered by %q; want rule ids in code quotes, \"informative…\" or \"not checkable from outside the page: why\"", row.line, row.cover)
			}
		}
		for i, n := range covered {
			if n != 1 {
				t.Errorf("seed %s paragraph %d (under %q, %q…) has %d rows in the coverage table, want 1", seed, i, paras[i].section, excerpt(paras[i].text), n)
			}
		}
	}
	for _, r := range conformance.Catalog {
		sections, ok := cited[r.ID]
		if !ok {
			t.Errorf("%s is not named in the coverage table: which seed paragraph does it carry?", r.ID)
			continue
		}
		found := false
		for _, ref := range seedRefs(r.Seed) {
			found = found || slices.Contains(sections, ref[1])
		}
		if !found {
			t.Errorf("%s cites %s, but the coverage table names it only under %v", r.ID, r.Seed, sections)
		}
	}
}

func excerpt(s string) string {
	if len(s) > 50 {
		return s[:50]
	}
	return s
}

var codeRow = regexp.MustCompile("^\\| `([A-Z_]+)` \\| `([a-z_]+)` \\| (no|yes|unknown) \\| ([a-z, ]+) \\| .+ \\|$")

func TestCodeTableMatchesTheModel(t *testing.T) {
	text := readFile(t, contractPath)
	var codes []receipt.Code
	for _, l := range strings.Split(text, "\n") {
		m := codeRow.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		c := receipt.Code(m[1])
		codes = append(codes, c)
		if !c.Known() {
			t.Errorf("CONTRACT.md lists %s, which receipt.Codes does not", c)
			continue
		}
		if string(c.Phase()) != m[2] || string(c.Started()) != m[3] {
			t.Errorf("%s: CONTRACT.md says phase %s, started %s; the Go model says %s, %s", c, m[2], m[3], c.Phase(), c.Started())
		}
	}
	if !slices.Equal(codes, receipt.Codes) {
		t.Errorf("CONTRACT.md's code table lists %v; receipt.Codes is %v", codes, receipt.Codes)
	}
}
