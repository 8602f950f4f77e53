package initgen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/receipt"
)

// repoRoot is the root of this module (the test runs in internal/initgen).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the module root %s: %v", root, err)
	}
	return root
}

func parseManifest(name string, data []byte) error {
	_, err := conformance.ParseManifest(name, data)
	return err
}

func TestPackageFromDir(t *testing.T) {
	for dir, want := range map[string]string{
		"glass-acceptance":                  "glass_acceptance",
		"acceptance":                        "acceptance",
		filepath.Join("suites", "My Suite"): "my_suite",
		"2024":                              "acceptance",
		"func":                              "acceptance",
		filepath.Join("a", "e2e"):           "e2e",
	} {
		if got := PackageFromDir(dir); got != want {
			t.Errorf("PackageFromDir(%q) = %q, want %q", dir, got, want)
		}
	}
}

func TestModulePath(t *testing.T) {
	for dir, want := range map[string]string{
		"glass-acceptance":                  "glass-acceptance",
		filepath.Join("suites", "My Suite"): "acceptance",
		"Acceptance":                        "acceptance",
		"std":                               "acceptance",
	} {
		if got := ModulePath(dir); got != want {
			t.Errorf("ModulePath(%q) = %q, want %q", dir, got, want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8471/":      "http://127.0.0.1:8471/",
		"http://127.0.0.1:8471/?demo": "'http://127.0.0.1:8471/?demo'",
		"http://h/?a=1&b=2":           "'http://h/?a=1&b=2'",
		"glass-acceptance":            "glass-acceptance",
		"my suite":                    "'my suite'",
		"it's":                        `'it'\''s'`,
		"":                            "''",
		"glass-acceptance/glass.yaml": "glass-acceptance/glass.yaml",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestGeneratedNamesAreReceiptConstants proves that every code and phase
// init may name is a constant of package receipt, by reading receipt's
// source: a renamed constant fails here, not in an adopter's suite.
func TestGeneratedNamesAreReceiptConstants(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(repoRoot(t), "receipt", "enums.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for name, obj := range f.Scope.Objects {
		if obj.Kind == ast.Con {
			declared[name] = true
		}
	}
	for _, c := range receipt.Codes {
		name := strings.TrimPrefix(codeLiteral(c), "receipt.")
		if !declared[name] {
			t.Errorf("code %s: init would write receipt.%s, which receipt does not declare", c, name)
		}
	}
	for _, p := range receipt.Phases {
		name := strings.TrimPrefix(phaseLiteral(p), "receipt.")
		if !declared[name] {
			t.Errorf("phase %s: init would write receipt.%s, which receipt does not declare", p, name)
		}
	}
	if got := codeLiteral("APP_SPECIFIC"); got != `"APP_SPECIFIC"` {
		t.Errorf("an unknown code is written as %s, want a string literal", got)
	}
}

func TestGoLiteral(t *testing.T) {
	got := goLiteral(map[string]any{"b": []any{1.5, true, nil}, "a": "x\"y", "c": map[string]any{}})
	want := `map[string]any{"a": "x\"y", "b": []any{1.5, true, nil}, "c": map[string]any{}}`
	if got != want {
		t.Errorf("goLiteral = %s, want %s", got, want)
	}
}

func imports(t *testing.T, name string, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
	if err != nil {
		t.Fatalf("%s does not parse: %v\n%s", name, err, src)
	}
	var out []string
	for _, imp := range f.Imports {
		out = append(out, imp.Path.Value)
	}
	return out
}

// TestRenderWithoutActions: a page that declares no action yet gets a
// suite that parses and imports only what it uses.
func TestRenderWithoutActions(t *testing.T) {
	files, err := Render(&Plan{URL: "http://127.0.0.1:8080/", Title: "Empty", Records: 3}, Options{Package: "acceptance"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range imports(t, ActionsFile, files.Actions) {
		if imp == `"github.com/glassworks/glass/matchers"` || imp == `"github.com/glassworks/glass/receipt"` || imp == `"github.com/glassworks/glass/glasstest"` {
			t.Errorf("%s imports %s, which it does not use:\n%s", ActionsFile, imp, files.Actions)
		}
	}
	imports(t, SuiteFile, files.Suite)
	if !strings.Contains(string(files.Actions), `It("declares no action yet"`) {
		t.Errorf("no spec for a page without actions:\n%s", files.Actions)
	}
}

func action(t *testing.T, js string) receipt.ActionInfo {
	t.Helper()
	var a receipt.ActionInfo
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// failed is the receipt of a call that failed with code at phase.
func failed(code receipt.Code, phase receipt.Phase, message string) *receipt.Receipt {
	return &receipt.Receipt{Phase: phase, Result: receipt.Result{Error: &receipt.Error{Code: code, Message: message}}}
}

func worked(expect string) *receipt.Receipt {
	return &receipt.Receipt{Result: receipt.Result{OK: true, Expect: expect}}
}

// hoverPlan is a page like TodoMVC: a row delete shown only on hover,
// whose approved call fails at target_resolution, an edit whose pattern
// init builds a title for, and a step of a flow that fails alone.
func hoverPlan(t *testing.T) *Plan {
	del := action(t, `{"id":"delete@a1","description":"Delete the todo","kind":"element","risk":"dangerous","confirm":true,"available":true,"tool":"delete","record":"a1","expect":"The todo is gone"}`)
	edit := action(t, `{"id":"edit@a1","description":"Rename the todo","kind":"function","risk":"write","available":true,"tool":"edit","record":"a1",
		"params":{"type":"object","required":["title"],"properties":{"title":{"type":"string","pattern":"^\\S+$"}}}}`)
	step := action(t, `{"id":"wizard.next","description":"Next page","kind":"element","risk":"read","available":true}`)
	p := &Plan{URL: "http://127.0.0.1:8471/?demo", Title: "todos", Declared: 5, Records: 2}
	editArgs, errText := buildArgs(edit)
	if errText != "" {
		t.Fatal(errText)
	}
	p.Specs = []Spec{
		{Action: del, RowGroup: 2, ManifestKey: "delete", Dangerous: true,
			Got: failed(receipt.CodeActionUnavailable, receipt.PhaseTargetResolution, "the target is not visible after reveal")},
		{Action: edit, RowGroup: 2, ManifestKey: "edit", Args: editArgs,
			Got: worked("The todo has the new title")},
		{Action: step, StepOf: "wizard", ManifestKey: "wizard.next",
			Got: failed(receipt.CodeActionUnavailable, receipt.PhaseTargetResolution, "the dialog is closed")},
	}
	return p
}

// TestAFailedApprovedCallIsPendingNotGreen: the approved delete that could
// not be made usable is a finding, and its spec expects success and is
// pending, with the reason in its name; a step of a flow that fails alone
// is asserted as it is.
func TestAFailedApprovedCallIsPendingNotGreen(t *testing.T) {
	p := hoverPlan(t)
	findings := p.Findings()
	if len(findings) != 1 || findings[0].Action != "delete@a1" || findings[0].Kind != Unusable {
		t.Fatalf("findings = %+v, want the delete, never usable", findings)
	}
	want := "delete@a1: available, but the approved call could not make it usable: ACTION_UNAVAILABLE at target_resolution: the target is not visible after reveal"
	if got := findings[0].String(); got != want {
		t.Errorf("finding = %q\nwant      %q", got, want)
	}
	files, err := Render(p, Options{Package: "acceptance", RunCommand: "go tool ginkgo"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	src := string(files.Actions)
	for _, want := range []string{
		`PIt("delete@a1: Delete the todo (pending: when init called it with the user's approval it could not be made usable, ACTION_UNAVAILABLE at target_resolution: the target is not visible after reveal; make the target usable (a reveal, a visible control) or, if that is right, expect the failure)", func() {`,
		"page := open(glasstest.Approve())\n\t\tr := page.Do(\"delete@a1\", nil)\n\t\tExpect(r).To(SatisfyExpectation(\"The todo is gone\"))\n\t\tExpect(page.Confirmations()).To(HaveLen(1))",
		`It("delete@a1 changes nothing when the user says no", func() {`,
		`r := page.Do("edit@a1", map[string]any{"title": "xO13236qz16Sz01k2e02"})`,
		`Expect(r).To(SatisfyExpectation("The todo has the new title"))`,
		"// A step of the flow wizard: called alone, it runs in whatever state the page is in.",
		`Expect(r).To(FailWith(receipt.CodeActionUnavailable))`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the specs lack\n%s\n\n%s", want, src)
		}
	}
	if strings.Contains(src, "PIt(\"wizard") || strings.Contains(src, `It("delete@a1: Delete the todo", func`) {
		t.Errorf("wrong pending specs:\n%s", src)
	}
	if all, pending := p.SpecCount(); all != 4 || pending != 1 {
		t.Errorf("SpecCount = %d, %d; want 4, 1", all, pending)
	}
	suite := string(files.Suite)
	for _, want := range []string{
		"//\tGLASS_URL='http://127.0.0.1:8471/?demo' go tool ginkgo",
		"glasstest.WarmUp()",
		`"set GLASS_URL to the address of the page under test, for example GLASS_URL='http://127.0.0.1:8471/?demo'"`,
	} {
		if !strings.Contains(suite, want) {
			t.Errorf("the suite lacks %s:\n%s", want, suite)
		}
	}
	if strings.Contains(suite, "server") {
		t.Errorf("the suite says what init did not observe (a server):\n%s", suite)
	}
}

// TestManifestKeysAreTools: a row action's args go under its tool, and the
// list of arguments init could not build names the key without repeating
// it.
func TestManifestKeysAreTools(t *testing.T) {
	p := hoverPlan(t)
	add := action(t, `{"id":"add","description":"Add","kind":"function","available":true,
		"params":{"type":"object","required":["title"],"properties":{"title":{"type":"string","pattern":"^(?=x)"}}}}`)
	sp := Spec{Action: add, ManifestKey: "add", Got: failed(receipt.CodeInvalidParams, receipt.PhasePreflight, "/title: required")}
	sp.Args, sp.ArgsErr = buildArgs(add)
	p.Specs = append(p.Specs, sp)
	files, err := Render(p, Options{Package: "acceptance"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	m, err := conformance.ParseManifest(ManifestFile, files.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Args["edit"]; !ok || len(m.Args) != 1 {
		t.Errorf("args = %v, want the key edit (the tool of edit@a1)", m.Args)
	}
	want := `#   add: params: /properties/title/pattern: pattern "^(?=x)": the lookaround "(?=" is not supported (Go's regexp has none); name the arguments in the manifest`
	if !strings.Contains(string(files.Manifest), want+"\n") {
		t.Errorf("the manifest lacks\n%s\n%s", want, files.Manifest)
	}
	if f := p.Findings(); len(f) != 2 || f[1].Kind != NoArgs {
		t.Errorf("findings = %+v, want the add without arguments last", f)
	}
	if !strings.Contains(string(files.Actions), `PIt("add: Add (pending: init could not build its arguments; pass valid ones, then make it an It)"`) {
		t.Errorf("the call without arguments is not pending:\n%s", files.Actions)
	}
}

// TestEmptyPageNote: a page that shows no records says so, in the
// specs' header and in init's note, with an example URL quoted for a
// shell.
func TestEmptyPageNote(t *testing.T) {
	p := &Plan{URL: "http://127.0.0.1:8471/", Title: "todos"}
	note := p.EmptyPageNote()
	for _, want := range []string{"the page showed no records, so init called no row action", "--url 'http://127.0.0.1:8471/?demo'"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	files, err := Render(p, Options{Package: "acceptance"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(files.Actions), "// Note: the page showed no records") {
		t.Errorf("the specs do not say the page was empty:\n%s", files.Actions)
	}
	if (&Plan{Records: 1}).EmptyPageNote() != "" {
		t.Error("a note for a page with records")
	}
}

func TestGoMod(t *testing.T) {
	mod, err := GoMod("glass-acceptance", Source{Version: "v0.0.0", Replace: "/src/my glass"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", mod, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, mod)
	}
	if f.Module.Mod.Path != "glass-acceptance" || f.Go.Version != GlassGo || len(f.Require) != 1 || f.Require[0].Mod.Version != "v0.0.0" ||
		len(f.Replace) != 1 || f.Replace[0].New.Path != "/src/my glass" || len(f.Tool) != 1 || f.Tool[0].Path != "github.com/onsi/ginkgo/v2/ginkgo" {
		t.Errorf("go.mod:\n%s", mod)
	}
	published, err := GoMod("acceptance", Source{Version: "v0.9.0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(published), "require github.com/glassworks/glass v0.9.0") || strings.Contains(string(published), "replace") {
		t.Errorf("go.mod of a published Glass:\n%s", published)
	}
}

// TestGlassGoIsGoMods: the go directive init writes is Glass's own.
func TestGlassGoIsGoMods(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Go.Version != GlassGo {
		t.Errorf("GlassGo = %s, go.mod says go %s", GlassGo, f.Go.Version)
	}
}

// TestFindSource: a test binary is built from this checkout, without
// -trimpath: the source is this checkout, replaced; a directory that does
// not hold Glass's go.mod is no checkout.
func TestFindSource(t *testing.T) {
	src := FindSource()
	if src.Replace != repoRoot(t) || src.Version != "v0.0.0" || src.Problem != "" {
		t.Errorf("FindSource() = %+v, want this checkout %s", src, repoRoot(t))
	}
	gone := t.TempDir()
	if got := checkoutSource(gone); got.Replace != "" || !strings.Contains(got.Problem, "no longer holds Glass's go.mod") {
		t.Errorf("checkoutSource(an empty directory) = %+v", got)
	}
}

func TestFindEnclosing(t *testing.T) {
	bare := t.TempDir()
	if e, err := FindEnclosing(filepath.Join(bare, "suite")); err != nil || e.Path != "" && !strings.HasPrefix(bare, filepath.Dir(e.Path)) {
		t.Errorf("outside a module: %+v, %v", e, err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/x\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if e, err := FindEnclosing(filepath.Join(other, "suite")); err != nil || e.Module != "example.com/x" || e.RequiresGlass {
		t.Errorf("in a module without Glass: %+v, %v", e, err)
	}
	if e, err := FindEnclosing("."); err != nil || !e.RequiresGlass {
		t.Errorf("in this repository: %+v, %v", e, err)
	}
}

// TestTheManifestShowsWhatThePagesStringsHold: a page string with a
// character that does not print as itself (a bidirectional override, a
// zero-width space, a control character) is written into the manifest as
// a double-quoted YAML scalar with escapes, so the committed file shows
// it; the manifest still reads back to the same values.
func TestTheManifestShowsWhatThePagesStringsHold(t *testing.T) {
	p := hoverPlan(t)
	id := "pay\u202eyap"
	tag := "a\u200bb\x07"
	pay := action(t, `{"id":"`+id+`","description":"Pay","kind":"function","available":true,
		"params":{"type":"object","required":["tag"],"properties":{"tag":{"type":"string","enum":["`+strings.ReplaceAll(tag, "\x07", `\u0007`)+`"]}}}}`)
	handoff := action(t, `{"id":"sign\u200b","description":"Sign","kind":"handoff","available":true}`)
	sp := Spec{Action: pay, ManifestKey: id}
	sp.Args, sp.ArgsErr = buildArgs(pay)
	p.Specs = append(p.Specs, sp, Spec{Action: handoff, ManifestKey: handoff.ID})
	files, err := Render(p, Options{Package: "acceptance"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	text := string(files.Manifest)
	for _, raw := range []string{"\u202e", "\u200b", "\x07"} {
		if strings.Contains(text, raw) {
			t.Errorf("the manifest holds %q raw:\n%s", raw, text)
		}
	}
	for _, want := range []string{`"pay\u202eyap":`, `tag: "a\u200bb\u0007"`, `action: "sign\u200b"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the manifest lacks %s:\n%s", want, text)
		}
	}
	m, err := conformance.ParseManifest(ManifestFile, files.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Args[id]["tag"]; got != tag {
		t.Errorf("args[%q].tag reads back as %q, want %q", id, got, tag)
	}
}

// TestASensitiveParameterTravelsAsAPlaceholder: an action whose params
// mark a parameter sensitive is called, and specced, with the placeholder
// of a value the page registers, and its specs state that the receipt
// never holds that value; its manifest args stay plain.
func TestASensitiveParameterTravelsAsAPlaceholder(t *testing.T) {
	save := action(t, `{"id":"save-token","description":"Save the API token","kind":"function","risk":"dangerous","confirm":true,"available":true,
		"params":{"type":"object","required":["token"],"properties":{"token":{"type":"string","sensitive":true},"label":{"type":"string"}}}}`)
	plain, errText := buildArgs(save)
	if errText != "" {
		t.Fatal(errText)
	}
	secret := secretArgs(save)
	if ref, ok := secret["token"].(map[string]string); !ok || ref["$sensitive"] != SecretName {
		t.Fatalf("secretArgs = %#v, want token as the placeholder of %q", secret, SecretName)
	}
	if secretArgs(action(t, `{"id":"add","kind":"function","risk":"write","available":true,"params":{"type":"object","properties":{"title":{"type":"string"}}}}`)) != nil {
		t.Error("secretArgs of an action without a sensitive parameter is not nil")
	}
	p := &Plan{URL: "http://127.0.0.1:8471/", Title: "keys", Declared: 1}
	p.Specs = []Spec{{Action: save, ManifestKey: "save-token", Args: plain, SecretArgs: secret, Dangerous: true, Got: worked("")}}
	files, err := Render(p, Options{Package: "acceptance", RunCommand: "go test ./..."}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	src := string(files.Actions)
	for _, want := range []string{
		`page := open(glasstest.Approve(), glasstest.Sensitive("secret", "glass-init-secret"))`,
		`r := page.Do("save-token", map[string]any{"token": glasstest.SensitiveRef("secret")})`,
		`Expect(r).To(NeverContain("glass-init-secret"))`,
		`page := open(glasstest.Deny(), glasstest.Sensitive("secret", "glass-init-secret"))`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the specs lack\n%s\n\n%s", want, src)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "glass_actions_test.go", files.Actions, 0); err != nil {
		t.Errorf("the specs do not parse: %v\n%s", err, src)
	}
	if strings.Contains(string(files.Manifest), "$sensitive") {
		t.Errorf("the manifest's args carry a placeholder, which run does not restore:\n%s", files.Manifest)
	}
}

// TestAStepOnlyActionGetsNoApprovalOrDenial: a dangerous step of a flow is
// refused before any confirmation when called alone, so init specs what
// that call did, with no approval and no denial spec; the flow gets both.
func TestAStepOnlyActionGetsNoApprovalOrDenial(t *testing.T) {
	snap := &receipt.Snapshot{}
	snap.Actions.Items = []receipt.ActionInfo{
		action(t, `{"id":"board.delete","kind":"flow","risk":"dangerous","confirm":true,"available":true,"steps":["board.delete.press"]}`),
		action(t, `{"id":"board.delete.press","kind":"element","risk":"dangerous","confirm":true,"available":true,"stepOnly":true}`),
	}
	specs := (&Plan{}).plan(snap)
	if len(specs) != 2 {
		t.Fatalf("plan = %d specs, want 2", len(specs))
	}
	for _, sp := range specs {
		if want := !sp.Action.StepOnly; sp.Dangerous != want {
			t.Errorf("%s: Dangerous = %v, want %v", sp.Action.ID, sp.Dangerous, want)
		}
	}
}

// TestAPageWithAFlowGetsAFlowFailuresTemplate: the starter manifest of a
// page that declares a flow shows, commented out, a flowFailures entry for
// it, which reads back as a manifest once uncommented.
func TestAPageWithAFlowGetsAFlowFailuresTemplate(t *testing.T) {
	p := hoverPlan(t)
	flow := action(t, `{"id":"borrow","description":"Borrow a book","kind":"flow","risk":"write","available":true}`)
	p.Specs = append(p.Specs, Spec{Action: flow, ManifestKey: flow.ID})
	files, err := Render(p, Options{Package: "acceptance"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	text := string(files.Manifest)
	i := strings.Index(text, "# flowFailures:\n")
	if i < 0 || !strings.Contains(text[i:], "#   - action: borrow\n") {
		t.Fatalf("the manifest has no flowFailures template for borrow:\n%s", text)
	}
	var uncommented []string
	for _, line := range strings.Split(text[i:], "\n") {
		uncommented = append(uncommented, strings.TrimPrefix(line, "# "))
	}
	m, err := conformance.ParseManifest(ManifestFile, []byte("version: 1\n"+strings.Join(uncommented, "\n")))
	if err != nil {
		t.Fatalf("the template, uncommented, is no manifest: %v", err)
	}
	if len(m.FlowFailures) != 1 || m.FlowFailures[0].Action != "borrow" || m.FlowFailures[0].Step != 2 {
		t.Errorf("the template reads back as %+v", m.FlowFailures)
	}
}

// TestACallWhosePageDialogWasCancelledIsPending: a write whose button asks
// confirm() succeeded, but its dialog was cancelled: a finding that quotes
// the dialog (its controls escaped), and a pending spec saying what to
// declare.
func TestACallWhosePageDialogWasCancelledIsPending(t *testing.T) {
	clear := action(t, `{"id":"clear","description":"Clear the done todos","kind":"element","risk":"write","available":true}`)
	p := &Plan{URL: "http://127.0.0.1:8471/", Title: "todos", Declared: 1, Records: 2,
		Specs: []Spec{{Action: clear, ManifestKey: "clear", Got: worked(""), Cancelled: "Clear all?\n\x1b[2J"}}}
	findings := p.Findings()
	why := `the page's own confirm("Clear all?\n\x1b[2J") was cancelled during it: no call in flight had its confirmation approved by the host. An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)`
	if len(findings) != 1 || findings[0].Kind != Cancelled || findings[0].String() != "clear: available, and the call succeeded, but "+why {
		t.Fatalf("findings = %q, want the clear's cancelled dialog", findings)
	}
	files, err := Render(p, Options{Package: "acceptance", RunCommand: "go tool ginkgo"}, parseManifest)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("PIt(%q, func() {", "clear: Clear the done todos (pending: when init called it, the call succeeded, but "+why+"; once it is declared so, make it an It)"); !strings.Contains(string(files.Actions), want) {
		t.Errorf("the specs lack\n%s\n\n%s", want, files.Actions)
	}
	// Without the dialog the same call is no finding.
	p.Specs[0].Cancelled = ""
	if f := p.Findings(); len(f) != 0 {
		t.Errorf("findings = %q, want none", f)
	}
}
