package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// The files init writes, relative to --dir.
const (
	initSuiteFile    = "glass_suite_test.go"
	initActionsFile  = "glass_actions_test.go"
	initManifestFile = "glass-manifest.yaml"
)

// EnvURL is the environment variable the generated suite reads the page
// under test from. The suite fails at once, saying so, when it is unset:
// a suite that silently tested a stale address would be worse.
const EnvURL = "GLASS_URL"

// UnsetURLMessage starts the failure of a generated suite run without
// $GLASS_URL.
const UnsetURLMessage = "set " + EnvURL + " to the address of the page under test"

// initExpectTimeout is the expectation deadline of the generated suite and
// of init's own calls: ten seconds instead of the contract's two, because
// an app's writes go through its server and CI machines are busy.
const initExpectTimeout = 10 * time.Second

type initFlags struct {
	url, dir, pkg string
	force         bool
}

func initCmd(args []string, stdout, stderr io.Writer) (code int) {
	var f initFlags
	flags := flag.NewFlagSet("init", flag.ContinueOnError)
	flags.StringVar(&f.url, "url", "", "the live page to read (required)")
	flags.StringVar(&f.dir, "dir", "glass-acceptance", "write the suite and the manifest into `DIR`")
	flags.StringVar(&f.pkg, "package", "", "Go package `NAME` of the suite (default: from the directory name)")
	flags.BoolVar(&f.force, "force", false, "overwrite files init wrote before")
	if done, code := parseFlags(flags, args, stdout, stderr); done {
		return code
	}
	fail := func(format string, args ...any) int {
		return failLine(stderr, "glass-conformance: init: ", format, args...)
	}
	if f.url == "" {
		return fail("--url is required: the address of the live page to read")
	}
	if err := checkURL(f.url); err != nil {
		return fail("%v", err)
	}
	if f.dir == "" {
		return fail("--dir must not be empty")
	}
	pkg := f.pkg
	if pkg == "" {
		pkg = packageFromDir(f.dir)
	} else if !validPackage(pkg) {
		return fail("--package %q: want a Go identifier such as acceptance", pkg)
	}
	paths := []string{
		filepath.Join(f.dir, initSuiteFile),
		filepath.Join(f.dir, initActionsFile),
		filepath.Join(f.dir, initManifestFile),
	}
	_, statErr := os.Stat(f.dir)
	if err := checkDir(f.dir); err != nil {
		return fail("--dir %q: cannot write there: %v", f.dir, pathErr(err))
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// A run that fails leaves no empty directory behind.
		defer func() {
			if code != exitOK {
				_ = os.Remove(f.dir)
			}
		}()
	}
	if !f.force {
		for _, p := range paths {
			if _, err := os.Lstat(p); err == nil {
				return fail("%s exists; pass --force to overwrite it", p)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return fail("%s: %v", p, pathErr(err))
			}
		}
	}
	if err := reach(f.url); err != nil {
		return fail("%v", err)
	}

	// The driver is installed on first use; its download progress goes to
	// stderr so that a first run does not look hung.
	b, err := launch(stderr)
	if err != nil {
		return fail("%s", firstLine(err.Error()))
	}
	defer b.Close()
	fmt.Fprintf(stdout, "reading %s\n", f.url)
	plan, err := observe(b, f.url, stdout)
	if err != nil {
		return fail("%s", firstLine(err.Error()))
	}
	files, err := plan.render(pkg)
	if err != nil {
		return fail("%v", err)
	}
	for i, p := range paths {
		if err := os.WriteFile(p, files[i], 0o644); err != nil {
			return fail("write %s: %v", p, pathErr(err))
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	if note := moduleNote(f.dir); note != "" {
		fmt.Fprintf(stdout, "\nnote: %s\n", note)
	}
	fmt.Fprintf(stdout, "\n%d specs for %d declared actions. Run them with\n\n  cd %s && %s=%s go test ./...\n\nand check the page against the contract with\n\n  glass-conformance run --url %s --manifest %s\n",
		plan.specCount(), plan.declared, f.dir, EnvURL, f.url, f.url, paths[2])
	return exitOK
}

// moduleNote says what to do when dir is in no Go module, or in one that
// does not require Glass yet: the suite cannot build there.
func moduleNote(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		mod, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			if strings.Contains(string(mod), "github.com/glassworks/glass") {
				return ""
			}
			return "the module at " + d + " does not require Glass yet: go get github.com/glassworks/glass@latest"
		}
		if filepath.Dir(d) == d {
			return dir + " is in no Go module: cd " + dir + " && go mod init example.com/acceptance && go get github.com/glassworks/glass@latest"
		}
	}
}

// packageFromDir makes a package name of the directory's base name.
func packageFromDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case r == '-' || r == '_' || r == '.' || r == ' ':
			if b.Len() > 0 {
				b.WriteRune('_')
			}
		}
	}
	name := strings.Trim(b.String(), "_")
	if !validPackage(name) {
		return "acceptance"
	}
	return name
}

func validPackage(name string) bool {
	return token.IsIdentifier(name) && !token.IsKeyword(name) && name != "_"
}

// initPlan is what init learnt from the page: one spec per declared action
// (one per row action, on one record), each with the receipt the call
// produced when init made it.
type initPlan struct {
	url      string
	title    string
	declared int
	specs    []initSpec
	// manifest args, by action id or tool; unbuildable lists the actions
	// whose arguments init could not build.
	args        map[string]map[string]any
	unbuildable map[string]string
	handoffs    []string
}

type initSpec struct {
	action    receipt.ActionInfo
	rowGroup  int // how many row actions this spec stands for (0: not a row action)
	args      map[string]any
	argsErr   string // why no arguments could be built
	stepOf    string // the flow this action is a step of
	dangerous bool   // needs the user's approval
	got       *receipt.Receipt
}

// specCount is how many specs the actions file holds: one per planned
// call, and a denial for each that needs confirmation.
func (p *initPlan) specCount() int {
	n := len(p.specs)
	for _, sp := range p.specs {
		if sp.dangerous {
			n++
		}
	}
	return max(n, 1)
}

// observe opens the page, reads its snapshot and calls every planned action
// once, each on a fresh page, the way the generated spec will.
func observe(b *glasstest.Browser, url string, progress io.Writer) (*initPlan, error) {
	page, err := glasstest.OpenPage(b, url, glasstest.Trace(false))
	if err != nil {
		return nil, err
	}
	snap, err := page.TrySnapshot()
	_ = page.Close()
	if err != nil {
		return nil, err
	}
	plan := &initPlan{url: url, title: snap.Page.Title, declared: len(snap.Actions.Items),
		args: map[string]map[string]any{}, unbuildable: map[string]string{}}
	if snap.Actions.Omitted > 0 {
		fmt.Fprintf(progress, "the snapshot omits %d actions; the starter covers the %d it lists\n", snap.Actions.Omitted, len(snap.Actions.Items))
	}
	stepOf := map[string]string{}
	for _, a := range snap.Actions.Items {
		for _, s := range a.Steps {
			if _, seen := stepOf[s]; !seen {
				stepOf[s] = a.ID
			}
		}
	}
	records := map[string]bool{}
	for _, r := range snap.Records.Items {
		records[r.ID] = true
	}
	// Row actions (remove@t1, remove@t2, …) become one spec on one record
	// the snapshot shows, where the action is available if it is anywhere.
	rowKey := func(a receipt.ActionInfo) string {
		if a.Tool != "" && a.Record != "" {
			return a.Tool
		}
		if i := strings.IndexByte(a.ID, '@'); i > 0 {
			return a.ID[:i]
		}
		return ""
	}
	rowCount := map[string]int{}
	for _, a := range snap.Actions.Items {
		if k := rowKey(a); k != "" {
			rowCount[k]++
		}
	}
	chosen := map[string]string{}
	for _, a := range snap.Actions.Items {
		k := rowKey(a)
		if k == "" {
			continue
		}
		rec := a.Record
		if rec == "" {
			rec = a.ID[strings.IndexByte(a.ID, '@')+1:]
		}
		if _, done := chosen[k]; !done && records[rec] && a.Available {
			chosen[k] = a.ID
		}
	}
	for _, a := range snap.Actions.Items {
		k := rowKey(a)
		if k != "" {
			c, ok := chosen[k]
			if ok && c != a.ID {
				continue
			}
			if !ok {
				chosen[k] = a.ID // none available on a listed record: the first one
			}
		}
		sp := initSpec{action: a, stepOf: stepOf[a.ID],
			dangerous: a.Confirm || a.Risk == receipt.RiskDangerous}
		if k != "" {
			sp.rowGroup = rowCount[k]
		}
		args, err := conformance.ExampleArgs(a)
		if err != nil {
			sp.argsErr = strings.TrimPrefix(err.Error(), "conformance: ")
			plan.unbuildable[a.ID] = sp.argsErr
		} else {
			sp.args = args
			if len(args) > 0 {
				key := a.ID
				if k != "" {
					key = k
				}
				plan.args[key] = args
			}
		}
		if a.Kind == receipt.KindHandoff {
			plan.handoffs = append(plan.handoffs, a.ID)
		}
		fmt.Fprintf(progress, "  calling %s\n", receipt.PrintableText(a.ID))
		got, err := callOnce(b, url, sp)
		if err != nil {
			return nil, err
		}
		sp.got = got
		plan.specs = append(plan.specs, sp)
	}
	return plan, nil
}

// callOnce makes the spec's call on a fresh page, with the options the
// generated spec uses.
func callOnce(b *glasstest.Browser, url string, sp initSpec) (*receipt.Receipt, error) {
	opts := []glasstest.Option{glasstest.Trace(false), glasstest.ExpectTimeout(initExpectTimeout)}
	if sp.dangerous {
		opts = append(opts, glasstest.Approve())
	}
	if sp.action.Kind == receipt.KindHandoff {
		opts = append(opts, glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome {
			return glasstest.HandoffCancelled
		}))
	}
	page, err := glasstest.OpenPage(b, url, opts...)
	if err != nil {
		return nil, err
	}
	defer page.Close()
	var args any
	if len(sp.args) > 0 {
		args = sp.args
	}
	return page.Do(sp.action.ID, args), nil
}

// render writes the suite file, the actions file and the manifest.
func (p *initPlan) render(pkg string) ([][]byte, error) {
	suite, err := format.Source([]byte(p.suiteSource(pkg)))
	if err != nil {
		return nil, fmt.Errorf("format the suite: %v", err)
	}
	actions, err := format.Source([]byte(p.actionsSource(pkg)))
	if err != nil {
		return nil, fmt.Errorf("format the specs: %v", err)
	}
	manifest, err := p.manifestSource()
	if err != nil {
		return nil, err
	}
	// The starter manifest must load the way run loads it.
	if _, err := conformance.ParseManifest(initManifestFile, manifest); err != nil {
		return nil, fmt.Errorf("the starter manifest does not load: %v", err)
	}
	return [][]byte{suite, actions, manifest}, nil
}

func (p *initPlan) suiteSource(pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `// Code written by glass-conformance init from %s; edit it freely.

package %s

import (
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
)

// pageURL is the page under test, from $%s. Start the app first, then
//
//	%s=%s go test ./...
var pageURL string

func TestGlass(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, %q)
}

var _ = BeforeSuite(func() {
	pageURL = os.Getenv(%q)
	Expect(pageURL).NotTo(BeEmpty(), %s)
})

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})

// open opens the page under test in a fresh browser context. Expectations
// get ten seconds instead of the contract's two: the app's writes go
// through its server, and CI machines are busy.
func open(opts ...glasstest.Option) *glasstest.Page {
	GinkgoHelper()
	return glasstest.Open(pageURL, append([]glasstest.Option{glasstest.ExpectTimeout(10 * time.Second)}, opts...)...)
}
`, commentText(p.url), pkg, EnvURL, EnvURL, commentText(p.url), suiteName(p.title), EnvURL,
		strconv.Quote(UnsetURLMessage+", for example "+EnvURL+"="+p.url))
	return b.String()
}

func suiteName(title string) string {
	if t := commentText(title); t != "" {
		return t + " acceptance suite"
	}
	return "Glass acceptance suite"
}

func (p *initPlan) actionsSource(pkg string) string {
	var b strings.Builder
	imports := map[string]bool{}
	var body strings.Builder
	for i, sp := range p.specs {
		if i > 0 {
			body.WriteString("\n")
		}
		sp.write(&body, imports)
		imports["matchers"] = true
	}
	if len(p.specs) == 0 {
		// A page that declares nothing yet still gets a suite that builds
		// and says so.
		body.WriteString("It(\"declares no action yet\", func() {\nExpect(open().Snapshot().Actions.Items).To(BeEmpty())\n})\n")
	}
	fmt.Fprintf(&b, "// Code written by glass-conformance init from %s; edit it freely.\n", commentText(p.url))
	b.WriteString("// One spec per declared action: each states what the call did when init\n")
	b.WriteString("// made it. Replace them with what the page should do, action by action.\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkg)
	b.WriteString("\t. \"github.com/onsi/ginkgo/v2\"\n\t. \"github.com/onsi/gomega\"\n\n")
	if imports["glasstest"] {
		b.WriteString("\t\"github.com/glassworks/glass/glasstest\"\n")
	}
	if imports["matchers"] {
		b.WriteString("\t. \"github.com/glassworks/glass/matchers\"\n")
	}
	if imports["receipt"] {
		b.WriteString("\t\"github.com/glassworks/glass/receipt\"\n")
	}
	b.WriteString(")\n\n")
	name := commentText(p.title)
	if name == "" {
		name = "the page"
	}
	fmt.Fprintf(&b, "var _ = Describe(%q, func() {\n", "The actions of "+name)
	b.WriteString(body.String())
	b.WriteString("})\n")
	return b.String()
}

func (sp initSpec) write(b *strings.Builder, imports map[string]bool) {
	a := sp.action
	r := sp.got
	title := a.ID
	if d := commentText(a.Description); d != "" {
		title += ": " + d
	}
	fmt.Fprintf(b, "It(%q, func() {\n", title)
	if sp.rowGroup > 1 {
		fmt.Fprintf(b, "// One of %d row actions like it; this spec calls it on one record of the page.\n", sp.rowGroup)
	}
	if sp.stepOf != "" {
		fmt.Fprintf(b, "// A step of the flow %s: called alone, it runs in whatever state the page is in.\n", commentText(sp.stepOf))
	}
	if !a.Available {
		fmt.Fprintf(b, "// The snapshot said it is unavailable: %s\n", commentText(a.Reason))
	}
	var opts []string
	if sp.dangerous {
		imports["glasstest"] = true
		b.WriteString("// It asks for confirmation: the spec plays a user who approves.\n")
		opts = append(opts, "glasstest.Approve()")
	}
	if a.Kind == receipt.KindHandoff {
		imports["glasstest"] = true
		b.WriteString("// A hand-off: the user performs this step. The handler below plays a user who\n")
		b.WriteString("// cancels; to play one who completes it, act on h.Page() (Fill, Click) and\n")
		b.WriteString("// return glasstest.HandoffCompleted.\n")
		opts = append(opts, "glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {\nreturn glasstest.HandoffCancelled\n})")
	}
	fmt.Fprintf(b, "page := open(%s)\n", strings.Join(opts, ", "))
	args := "nil"
	if len(sp.args) > 0 {
		args = goLiteral(sp.args)
	}
	if sp.argsErr != "" {
		fmt.Fprintf(b, "// init could not build arguments (%s): pass valid ones here.\n", commentText(sp.argsErr))
	}
	fmt.Fprintf(b, "r := page.Do(%q, %s)\n", a.ID, args)
	switch {
	case r.Result.OK:
		if r.Result.Expect != "" {
			fmt.Fprintf(b, "Expect(r).To(SatisfyExpectation(%q))\n", r.Result.Expect)
		} else {
			b.WriteString("Expect(r).To(BeOK())\n")
		}
		if len(r.Result.Steps) > 0 {
			var steps []string
			for _, s := range r.Result.Steps {
				steps = append(steps, stepLiteral(s, imports))
			}
			fmt.Fprintf(b, "Expect(r).To(HaveSteps(%s))\n", strings.Join(steps, ", "))
		}
		if sp.dangerous {
			b.WriteString("Expect(page.Confirmations()).To(HaveLen(1))\n")
		}
	default:
		b.WriteString("// When init called it, the call failed")
		if r.Result.Error != nil && r.Result.Error.Message != "" {
			fmt.Fprintf(b, ": %s", commentText(r.Result.Error.Message))
		}
		b.WriteString(".\n// Keep this if that is right; otherwise say what should happen.\n")
		fmt.Fprintf(b, "Expect(r).To(FailWith(%s))\n", codeLiteral(r.Code(), imports))
		if r.Phase != "" {
			fmt.Fprintf(b, "Expect(r).To(FailAtPhase(%s))\n", phaseLiteral(r.Phase, imports))
		}
	}
	b.WriteString("})\n")
	if sp.dangerous {
		imports["glasstest"] = true
		imports["receipt"] = true
		fmt.Fprintf(b, "\nIt(%q, func() {\n", a.ID+" changes nothing when the user says no")
		b.WriteString("page := open(glasstest.Deny())\n")
		fmt.Fprintf(b, "r := page.Do(%q, %s)\n", a.ID, args)
		b.WriteString("Expect(r).To(FailWith(receipt.CodePermissionDenied))\n")
		b.WriteString("Expect(r).To(SatisfyAll(FailAtPhase(receipt.PhasePolicy), HaveNotStarted()))\n")
		b.WriteString("})\n")
	}
}

// commentText makes page-supplied text safe inside a Go comment or a
// quoted literal's surroundings: one line, printable, bounded.
func commentText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 160 {
		s = string(r[:157]) + "..."
	}
	return s
}

// goCamel turns ACTION_NOT_FOUND or target_resolution into ActionNotFound
// or TargetResolution: the names of receipt's constants.
func goCamel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(strings.ToLower(s), "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func codeLiteral(c receipt.Code, imports map[string]bool) string {
	if c.Known() {
		imports["receipt"] = true
		return "receipt.Code" + goCamel(string(c))
	}
	return strconv.Quote(string(c))
}

func phaseLiteral(p receipt.Phase, imports map[string]bool) string {
	for _, known := range receipt.Phases {
		if p == known {
			imports["receipt"] = true
			return "receipt.Phase" + goCamel(string(p))
		}
	}
	return strconv.Quote(string(p))
}

func stepLiteral(s receipt.Step, imports map[string]bool) string {
	switch s.Outcome {
	case receipt.StepOK:
		return fmt.Sprintf("StepOK(%q)", s.ID)
	case receipt.StepSkipped:
		return fmt.Sprintf("StepSkipped(%q)", s.ID)
	case receipt.StepPending:
		return fmt.Sprintf("StepPending(%q)", s.ID)
	case receipt.StepFailed:
		if s.Error != nil && s.Error.Code != "" {
			return fmt.Sprintf("StepFailed(%q, %s)", s.ID, codeLiteral(s.Error.Code, imports))
		}
		return fmt.Sprintf("StepFailed(%q)", s.ID)
	}
	return fmt.Sprintf("StepOK(%q)", s.ID)
}

// goLiteral writes a JSON value as a Go composite literal.
func goLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return strconv.Itoa(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = goLiteral(e)
		}
		return "[]any{" + strings.Join(parts, ", ") + "}"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = strconv.Quote(k) + ": " + goLiteral(x[k])
		}
		return "map[string]any{" + strings.Join(parts, ", ") + "}"
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return goLiteral(m)
	}
	return strconv.Quote(fmt.Sprint(v))
}

func (p *initPlan) manifestSource() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Starter manifest of glass-conformance run, written by glass-conformance\n# init from %s. docs/manifest.md describes every field.\nversion: 1\n", commentText(p.url))
	if len(p.args) > 0 {
		b.WriteString("\n# Arguments for the calls the checks make succeed, by action id (or tool for\n# row actions), built from each action's params: replace them with real ones.\n")
		out, err := yaml.Marshal(map[string]any{"args": p.args})
		if err != nil {
			return nil, fmt.Errorf("write the manifest: %v", err)
		}
		b.Write(out)
	}
	if len(p.unbuildable) > 0 {
		b.WriteString("# init could not build arguments for these; add them under args:\n")
		ids := make([]string, 0, len(p.unbuildable))
		for id := range p.unbuildable {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(&b, "#   %s: %s\n", commentText(id), commentText(p.unbuildable[id]))
		}
	}
	if len(p.handoffs) > 0 {
		b.WriteString("\n# Hand-offs, and how the user answers them.\nhandoffs:\n")
		for _, id := range p.handoffs {
			q, _ := yaml.Marshal(id)
			fmt.Fprintf(&b, "  - action: %s\n    outcome: cancelled\n", strings.TrimSuffix(string(q), "\n"))
		}
	}
	b.WriteString(`
# Actions the checks must never execute (path.Match globs):
# skip: ["pay@*"]
#
# A fault switch of your page that makes a declared expectation fail, or a
# handler throw, lets the checks see those receipts too:
# expectationFailures:
#   - action: remove@t1
#     url: /?fault=delete-stale
# executionFailures:
#   - action: remove@t1
#     url: /?fault=delete-throws
`)
	return b.Bytes(), nil
}
