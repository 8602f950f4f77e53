// Package docs holds the guides of Glass. Its test holds every code block
// of README.md and docs/*.md to code that is compiled and run:
//
//   - a block preceded by <!-- snippet: PATH --> must appear verbatim
//     (indentation aside) in PATH, a file some test compiles and runs
//     (docs/tutorial/, examples/, fixtures/, docs/snippets/);
//   - a block preceded by <!-- printed: PATH --> is output: every line must
//     appear verbatim in PATH, a test that asserts it is printed;
//   - a block preceded by <!-- output --> is an illustration of output
//     with elisions, and must be an untyped block;
//   - a block preceded by <!-- api: DIR --> lists the public API of the
//     package in DIR: it must name every exported identifier of the
//     package, and every func it declares must be one;
//   - a sh block is read command by command: make targets, glass-conformance
//     subcommands and flags, go run/test/install/tool paths and test names
//     must exist;
//   - a yaml block without a marker is a manifest and must load;
//   - a js block without a marker must parse (node --check);
//   - any other block without a marker fails the test.
package docs

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance"
)

var (
	root string // the repository root
	cli  string // the glass-conformance binary built for this test
)

func TestMain(m *testing.M) {
	var err error
	root, err = filepath.Abs("..")
	if err == nil {
		var dir string
		dir, err = os.MkdirTemp("", "glass-docs-test")
		if err == nil {
			defer os.RemoveAll(dir)
			cli = filepath.Join(dir, "glass-conformance")
			var out []byte
			if out, err = exec.Command("go", "build", "-o", cli, "../cmd/glass-conformance").CombinedOutput(); err != nil {
				err = fmt.Errorf("go build: %v\n%s", err, out)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(filepath.Dir(cli))
	os.Exit(code)
}

// block is one fenced code block of a markdown file.
type block struct {
	file   string
	line   int // of the opening fence, from 1
	lang   string
	marker string // the HTML comment just before the fence, if any
	text   string
}

func (b block) where() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

var markerRE = regexp.MustCompile(`^<!-- *(snippet|printed|output|api)(?:: *(\S+))? *-->$`)

func readBlocks(t *testing.T, rel string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	lines := strings.Split(string(data), "\n")
	prev := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			if strings.TrimSpace(l) != "" {
				prev = strings.TrimSpace(l)
			}
			continue
		}
		b := block{file: rel, line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(l, "```"))}
		if markerRE.MatchString(prev) {
			b.marker = prev
		}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		b.text = strings.Join(body, "\n")
		blocks = append(blocks, b)
		prev = ""
	}
	return blocks
}

func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

func TestEverySnippetIsExercised(t *testing.T) {
	n := 0
	for _, f := range markdownFiles(t) {
		for _, b := range readBlocks(t, f) {
			n++
			t.Run(b.where(), func(t *testing.T) { checkBlock(t, b) })
		}
	}
	if n < 10 {
		t.Errorf("found only %d code blocks: is the parser broken?", n)
	}
}

func checkBlock(t reporter, b block) {
	if m := markerRE.FindStringSubmatch(b.marker); m != nil {
		switch m[1] {
		case "snippet":
			checkSnippet(t, b, m[2])
		case "printed":
			checkPrinted(t, b, m[2])
		case "api":
			checkAPI(t, b, m[2])
		case "output":
			if b.lang != "" {
				t.Errorf("%s: <!-- output --> is for untyped blocks of output, not %s", b.where(), b.lang)
			}
		}
		return
	}
	switch b.lang {
	case "sh", "bash", "shell":
		checkShell(t, b)
	case "yaml":
		if _, err := conformance.ParseManifest(b.where(), []byte(b.text)); err != nil {
			t.Errorf("%s: a yaml block is a manifest and must load: %v", b.where(), err)
		}
	case "js", "javascript":
		f := filepath.Join(t.TempDir(), "snippet.js")
		if err := os.WriteFile(f, []byte(b.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("node", "--check", f).CombinedOutput(); err != nil {
			t.Errorf("%s: the js block does not parse: %v\n%s", b.where(), err, out)
		}
	default:
		t.Errorf("%s: a %q block that no test exercises; mark it <!-- snippet: PATH --> (a compiled file that holds it), <!-- printed: PATH --> or <!-- output -->", b.where(), b.lang)
	}
}

// normalize drops trailing blank lines and the indentation all lines
// share, so that a block matches code nested in a file.
func normalize(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(strings.TrimPrefix(l, prefix), " \t")
	}
	return out
}

func checkSnippet(t reporter, b block, path string) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Errorf("%s: snippet of %s: %v", b.where(), path, err)
		return
	}
	want := normalize(strings.Split(b.text, "\n"))
	file := strings.Split(string(data), "\n")
	for i := 0; i+len(want) <= len(file); i++ {
		if strings.Join(normalize(append([]string(nil), file[i:i+len(want)]...)), "\n") == strings.Join(want, "\n") {
			return
		}
	}
	t.Errorf("%s: the block is not in %s (indentation aside); update the block or the file:\n%s", b.where(), path, b.text)
}

func checkPrinted(t reporter, b block, path string) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Errorf("%s: %v", b.where(), err)
		return
	}
	for _, l := range strings.Split(b.text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(string(data), l) && !strings.Contains(string(data), strings.ReplaceAll(l, `"`, `\"`)) {
			t.Errorf("%s: %s does not assert the line %q", b.where(), path, l)
		}
	}
}

// shell commands the docs may name that are not this repository's.
var external = map[string]bool{"apt-get": true, "sudo": true, "npx": true, "curl": true, "export": true, "cd": true}

func checkShell(t reporter, b block) {
	text := strings.ReplaceAll(b.text, "\\\n", " ")
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "$ "))
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for _, cmd := range regexp.MustCompile(`&&|\|\||;|\|`).Split(line, -1) {
			checkCommand(t, b, strings.Fields(cmd))
		}
	}
}

func checkCommand(t reporter, b block, f []string) {
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
		f = f[1:] // VAR=value
	}
	if len(f) == 0 {
		return
	}
	where := b.where() + ": " + strings.Join(f, " ")
	switch f[0] {
	case "make":
		mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range f[1:] {
			if strings.Contains(target, "=") {
				continue // a variable: make flake N=2
			}
			if !strings.HasPrefix(target, "-") && !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(target)+`:`).Match(mk) {
				t.Errorf("%s: the Makefile has no target %q", where, target)
			}
		}
	case "glass-conformance":
		checkCLI(t, where, f[1:])
	case "go":
		checkGo(t, where, f[1:])
	default:
		if !external[f[0]] {
			t.Errorf("%s: the docs name a command %q this test does not know", where, f[0])
		}
	}
}

func checkGo(t reporter, where string, f []string) {
	if len(f) == 0 {
		t.Errorf("%s: go without a command", where)
		return
	}
	var pkgs []string
	switch f[0] {
	case "run":
		if len(f) > 1 && f[1] == "./cmd/glass-conformance" {
			checkCLI(t, where, f[2:])
			return
		}
		pkgs = f[1:2]
	case "install", "get":
		for _, a := range f[1:] {
			a = strings.Split(a, "@")[0]
			if rest, ok := strings.CutPrefix(a, "github.com/glassworks/glass"); ok {
				pkgs = append(pkgs, "."+rest)
			}
		}
	case "test", "generate", "vet":
		for i := 1; i < len(f); i++ {
			if f[i] == "-run" && i+1 < len(f) {
				checkTestName(t, where, f, strings.Trim(f[i+1], "'\"^$"))
				i++
			} else if !strings.HasPrefix(f[i], "-") {
				pkgs = append(pkgs, f[i])
			}
		}
	case "mod":
		if len(f) < 2 || (f[1] != "edit" && f[1] != "tidy") {
			t.Errorf("%s: go mod %s is not a command the docs use", where, strings.Join(f[1:], " "))
		}
	case "tool":
		mod, _ := os.ReadFile(filepath.Join(root, "go.mod"))
		if len(f) < 2 || !strings.Contains(string(mod), "tool github.com/onsi/ginkgo/v2/"+f[1]) {
			t.Errorf("%s: go.mod declares no such tool", where)
		}
	default:
		t.Errorf("%s: go %s is not a command the docs use", where, f[0])
	}
	for _, p := range pkgs {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/..."), "...")
		if p == "." || p == "./" || p == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("%s: %s does not exist", where, p)
		}
	}
}

// checkTestName makes sure a -run pattern names a test function of one of
// the command's packages.
func checkTestName(t reporter, where string, f []string, name string) {
	for _, a := range f[1:] {
		if !strings.HasPrefix(a, "./") {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(a, "/...")), "*_test.go"))
		for _, file := range files {
			src, _ := os.ReadFile(file)
			if strings.Contains(string(src), "func "+name+"(") {
				return
			}
		}
	}
	t.Errorf("%s: no test function %s", where, name)
}

var cliHelp = map[string]string{}

func checkCLI(t reporter, where string, args []string) {
	if len(args) == 0 {
		return
	}
	sub := args[0]
	help, ok := cliHelp[sub]
	if !ok {
		out, _ := exec.Command(cli, sub, "-h").CombinedOutput()
		help = string(out)
		cliHelp[sub] = help
	}
	if strings.Contains(help, "unknown command") {
		t.Errorf("%s: glass-conformance has no command %q", where, sub)
		return
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") || a == "-h" || a == "--help" {
			continue
		}
		name := strings.SplitN(strings.TrimLeft(a, "-"), "=", 2)[0]
		if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(name) + `\b`).MatchString(help) {
			t.Errorf("%s: glass-conformance %s has no flag --%s", where, sub, name)
		}
	}
}

// ruleRef is a rule id or glob as the prose of the docs quotes one: two
// lower-case words joined by a dot, the second kebab-case or a glob.
var ruleRef = regexp.MustCompile("`([a-z]+\\.(?:[a-z]+(?:-[a-z]+)+|[a-z-]*\\*[a-z*-]*|[a-z]+))`")

// TestEveryRuleTheDocsNameExists: a rule id or glob the prose quotes names
// a rule of the catalog (or, for a glob, at least one). An id is two words
// joined by a dot whose second is kebab-case (area.kebab-name); a pair
// with one plain word after the dot (changed.observed, webmcp.go) may be a
// field or a file and is not judged.
func TestEveryRuleTheDocsNameExists(t *testing.T) {
	files := append(markdownFiles(t), "SECURITY.md", "BENCHMARKS.md")
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, ref := range ruleRefs(line) {
				if msg := unknownRule(ref); msg != "" {
					t.Errorf("%s:%d: %s", f, i+1, msg)
				}
			}
		}
	}
}

func ruleRefs(line string) []string {
	var out []string
	for _, m := range ruleRef.FindAllStringSubmatch(line, -1) {
		out = append(out, m[1])
	}
	return out
}

// unknownRule says why ref names no rule, or "" when it does or is no rule
// reference at all.
func unknownRule(ref string) string {
	_, rest, _ := strings.Cut(ref, ".")
	if !strings.ContainsAny(rest, "-*") {
		return "" // changed.observed, webmcp.go: a field or a file as often as a rule
	}
	for _, r := range conformance.Catalog {
		if ok, _ := path.Match(ref, r.ID); ok {
			return ""
		}
	}
	return fmt.Sprintf("`%s` names no rule of the catalog", ref)
}

// TestTheCheckerCatchesStaleDocs proves the checks above can fail.
func TestTheCheckerCatchesStaleDocs(t *testing.T) {
	cases := []block{
		{file: "x.md", lang: "go", text: "fmt.Println(1)"},
		{file: "x.md", lang: "go", marker: "<!-- snippet: examples/todo/todo_test.go -->", text: "page := glasstest.Open(nowhere)"},
		{file: "x.md", lang: "sh", text: "make no-such-target"},
		{file: "x.md", lang: "sh", text: "glass-conformance run --no-such-flag x"},
		{file: "x.md", lang: "sh", text: "glass-conformance frobnicate"},
		{file: "x.md", lang: "sh", text: "go test ./no/such/pkg"},
		{file: "x.md", lang: "sh", text: "go test ./conformance -run TestNoSuchTest"},
		{file: "x.md", lang: "sh", text: "rm -rf /"},
		{file: "x.md", lang: "yaml", text: "version: 2\n"},
		{file: "x.md", lang: "", marker: "<!-- printed: cmd/glass-conformance/cli_test.go -->", text: "glass-conformance: a line no test prints"},
	}
	for _, c := range cases {
		r := &recorder{}
		checkBlock(r, c)
		if !r.failed {
			t.Errorf("the checker accepted the %q block %q", c.lang, c.text)
		}
	}
	for _, line := range []string{"`dispatch.execution-failed`: EXECUTION_FAILED", "see `policy.no-such-rule`", "`nosuch.*`", "`policy.zz*`"} {
		refs := ruleRefs(line)
		if len(refs) != 1 || unknownRule(refs[0]) == "" {
			t.Errorf("the rule check accepted %q (refs %q)", line, refs)
		}
	}
	for _, line := range []string{"`policy.denied` and `policy.*`", "`receipt.json`, `webmcp.go`, `changed.observed`"} {
		for _, ref := range ruleRefs(line) {
			if msg := unknownRule(ref); msg != "" {
				t.Errorf("the rule check refused %q: %s", line, msg)
			}
		}
	}
}

// reporter is the part of *testing.T the checks use, so that a test can
// run them on a recorder and see them fail.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatal(args ...any)
	TempDir() string
}

type recorder struct{ failed bool }

func (*recorder) Helper()                 {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (*recorder) TempDir() string         { return os.TempDir() }
