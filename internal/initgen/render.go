package initgen

import (
	"bytes"
	"embed"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"unicode"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/glassworks/glass/receipt"
)

//go:embed templates
var templateFS embed.FS

var templates = template.Must(template.New("").ParseFS(templateFS, "templates/*.tmpl"))

// Files are the files Render writes.
type Files struct {
	Suite, Actions, Manifest []byte
}

// Options are what Render needs besides the plan.
type Options struct {
	Package string
	// RunCommand is how the suite is run, for its comment: "go tool
	// ginkgo" in a module init wrote, "go test ./..." in one it joined.
	RunCommand string
}

// Render writes the suite file, the actions file and the manifest. The Go
// files are gofmt'ed and import only what they use; the manifest is
// checked by parse, the function that loads it for run (pass
// conformance.ParseManifest's error-returning form).
func Render(p *Plan, o Options, parse func(name string, data []byte) error) (Files, error) {
	var f Files
	var err error
	if o.RunCommand == "" {
		o.RunCommand = "go test ./..."
	}
	if f.Suite, err = goFile("suite.go.tmpl", p.suiteData(o)); err != nil {
		return Files{}, err
	}
	if f.Actions, err = goFile("actions.go.tmpl", p.actionsData(o)); err != nil {
		return Files{}, err
	}
	if f.Manifest, err = p.manifest(); err != nil {
		return Files{}, err
	}
	// The starter manifest must load the way run loads it.
	if parse != nil {
		if err := parse(ManifestFile, f.Manifest); err != nil {
			return Files{}, fmt.Errorf("the starter manifest does not load: %w", err)
		}
	}
	return f, nil
}

// goFile renders a Go template, drops the imports the code does not use
// and formats it.
func goFile(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, b.Bytes(), parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("render %s: the code does not parse: %w", name, err)
	}
	pruneImports(fset, file)
	var out bytes.Buffer
	if err := format.Node(&out, fset, file); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	return out.Bytes(), nil
}

// dotUses names, for each package the templates dot-import, an identifier
// that shows the import is used.
var dotUses = map[string][]string{
	"github.com/glassworks/glass/matchers": {"BeOK", "SatisfyExpectation", "FailWith", "FailAtPhase", "HaveSteps", "HaveNotStarted"},
}

// pruneImports deletes the imports file does not use: a named package
// when no selector names it, a dot-imported one (of dotUses) when none of
// its identifiers appears.
func pruneImports(fset *token.FileSet, file *ast.File) {
	used := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		case *ast.Ident:
			used["."+x.Name] = true
		}
		return true
	})
	// DeleteImport edits file.Imports: range over a copy.
	for _, imp := range append([]*ast.ImportSpec(nil), file.Imports...) {
		path, _ := strconv.Unquote(imp.Path.Value)
		if imp.Name != nil && imp.Name.Name == "." {
			names, known := dotUses[path]
			if !known {
				continue
			}
			keep := false
			for _, n := range names {
				keep = keep || used["."+n]
			}
			if !keep {
				astutil.DeleteNamedImport(fset, file, ".", path)
			}
			continue
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if !used[name] {
			astutil.DeleteImport(fset, file, path)
		}
	}
}

func (p *Plan) suiteData(o Options) map[string]any {
	return map[string]any{
		"URL":           commentText(p.URL),
		"Package":       o.Package,
		"EnvURL":        EnvURL,
		"ShellURL":      ShellQuote(commentText(p.URL)),
		"RunCommand":    o.RunCommand,
		"SuiteName":     suiteName(p.Title),
		"UnsetMessage":  UnsetURLMessage + ", for example " + EnvURL + "=" + ShellQuote(p.URL),
		"ExpectSeconds": int(ExpectTimeout.Seconds()),
	}
}

func suiteName(title string) string {
	if t := commentText(title); t != "" {
		return t + " acceptance suite"
	}
	return "Glass acceptance suite"
}

// specView is one spec as the actions template writes it: Go code made
// here, the shape there.
type specView struct {
	Pending  bool
	Title    string
	Comments []string
	Options  string
	ID       string
	Args     string
	Asserts  []string
	Deny     bool
	// Secret is the option that registers the spec's sensitive value.
	Secret string
}

func (p *Plan) actionsData(o Options) map[string]any {
	name := commentText(p.Title)
	if name == "" {
		name = "the page"
	}
	var specs []specView
	for _, sp := range p.Specs {
		specs = append(specs, sp.view())
	}
	var header []string
	if note := p.EmptyPageNote(); note != "" {
		header = wrap("Note: "+note+".", 74)
	}
	return map[string]any{
		"URL":      commentText(p.URL),
		"Package":  o.Package,
		"Describe": "The actions of " + name,
		"Specs":    specs,
		"Header":   header,
	}
}

func (sp Spec) view() specView {
	a := sp.Action
	v := specView{ID: a.ID, Args: "nil", Deny: sp.Dangerous}
	v.Title = a.ID
	if d := commentText(a.Description); d != "" {
		v.Title += ": " + d
	}
	if len(sp.Args) > 0 {
		v.Args = goLiteral(sp.Args)
	}
	if sp.SecretArgs != nil {
		v.Args = goLiteral(sp.SecretArgs)
		v.Comments = append(v.Comments,
			"Its sensitive parameters travel as a placeholder (glasstest.SensitiveRef) for a",
			"value the page registers: the runtime restores it and must never echo it.")
		v.Secret = fmt.Sprintf("glasstest.Sensitive(%q, %q)", SecretName, SecretValue)
	}
	if sp.RowGroup > 1 {
		v.Comments = append(v.Comments, fmt.Sprintf("One of %d row actions like it; this spec calls it on one record of the page.", sp.RowGroup))
	}
	if sp.StepOf != "" {
		v.Comments = append(v.Comments, fmt.Sprintf("A step of the flow %s: called alone, it runs in whatever state the page is in.", commentText(sp.StepOf)))
	}
	if a.StepOnly {
		v.Comments = append(v.Comments, "Only a flow may run it: called directly, it is refused.")
	}
	if !a.Available {
		v.Comments = append(v.Comments, "The snapshot said it is unavailable: "+commentText(a.Reason))
	}
	var opts []string
	if sp.Dangerous {
		v.Comments = append(v.Comments, "It asks for confirmation: the spec plays a user who approves.")
		opts = append(opts, "glasstest.Approve()")
	}
	if a.Kind == receipt.KindHandoff {
		v.Comments = append(v.Comments,
			"A hand-off: the user performs this step. The handler below plays a user who",
			"cancels; to play one who completes it, act on h.Page() (Fill, Click) and",
			"return glasstest.HandoffCompleted.")
		opts = append(opts, "glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {\nreturn glasstest.HandoffCancelled\n})")
	}
	if v.Secret != "" {
		opts = append(opts, v.Secret)
	}
	v.Options = strings.Join(opts, ", ")
	if sp.ArgsErr != "" {
		v.Comments = append(v.Comments, fmt.Sprintf("init could not build arguments (%s): pass valid ones here.", commentText(sp.ArgsErr)))
	}
	r := sp.Got
	if f, finding := sp.Finding(); finding {
		// The call should have worked: the spec expects success, and is
		// pending until a person decides.
		v.Pending = true
		v.Title += " (pending: " + pendingReason(f) + ")"
		v.Asserts = successAsserts(sp, nil)
		return v
	}
	if r == nil || r.Result.OK {
		v.Asserts = successAsserts(sp, r)
		return v
	}
	msg := ""
	if r.Result.Error != nil && r.Result.Error.Message != "" {
		msg = ": " + commentText(r.Result.Error.Message)
	}
	v.Asserts = append(v.Asserts,
		"// When init called it, the call failed"+msg+".",
		"// Keep this if that is right; otherwise say what should happen.",
		fmt.Sprintf("Expect(r).To(FailWith(%s))", codeLiteral(r.Code())))
	if r.Phase != "" {
		v.Asserts = append(v.Asserts, fmt.Sprintf("Expect(r).To(FailAtPhase(%s))", phaseLiteral(r.Phase)))
	}
	v.Asserts = append(v.Asserts, neverEchoed(sp)...)
	return v
}

// pendingReason is the part of a pending spec's name that says why it is
// pending and what to decide.
func pendingReason(f Finding) string {
	called := "when init called it"
	if f.Approved {
		called += " with the user's approval"
	}
	switch f.Kind {
	case NoArgs:
		return "init could not build its arguments; pass valid ones, then make it an It"
	case Unusable:
		return called + " it could not be made usable, " + f.Detail +
			"; make the target usable (a reveal, a visible control) or, if that is right, expect the failure"
	case Cancelled:
		return called + ", the call succeeded, but " + f.Detail + "; once it is declared so, make it an It"
	}
	return called + " it failed, " + f.Detail + "; fix the page or, if that is right, expect the failure"
}

// successAsserts states a call that worked: r when init saw it work, else
// what the snapshot declares.
func successAsserts(sp Spec, r *receipt.Receipt) []string {
	var out []string
	expect := sp.Action.Expect
	if r != nil {
		expect = r.Result.Expect
	}
	if expect != "" {
		out = append(out, fmt.Sprintf("Expect(r).To(SatisfyExpectation(%q))", expect))
	} else {
		out = append(out, "Expect(r).To(BeOK())")
	}
	if r != nil && len(r.Result.Steps) > 0 {
		var steps []string
		for _, s := range r.Result.Steps {
			steps = append(steps, stepLiteral(s))
		}
		out = append(out, fmt.Sprintf("Expect(r).To(HaveSteps(%s))", strings.Join(steps, ", ")))
	}
	if sp.Dangerous {
		// As many requests as init's call saw: a flow whose riskier step
		// is asked again has two.
		out = append(out, fmt.Sprintf("Expect(page.Confirmations()).To(HaveLen(%d))", max(sp.Asked, 1)))
	}
	return append(out, neverEchoed(sp)...)
}

// neverEchoed states that a call with a sensitive value keeps it out of
// its receipt.
func neverEchoed(sp Spec) []string {
	if sp.SecretArgs == nil {
		return nil
	}
	return []string{fmt.Sprintf("Expect(r).To(NeverContain(%q))", SecretValue)}
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

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
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

func codeLiteral(c receipt.Code) string {
	if c.Known() {
		return "receipt.Code" + goCamel(string(c))
	}
	return strconv.Quote(string(c))
}

func phaseLiteral(p receipt.Phase) string {
	for _, known := range receipt.Phases {
		if p == known {
			return "receipt.Phase" + goCamel(string(p))
		}
	}
	return strconv.Quote(string(p))
}

func stepLiteral(s receipt.Step) string {
	switch s.Outcome {
	case receipt.StepSkipped:
		return fmt.Sprintf("StepSkipped(%q)", s.ID)
	case receipt.StepPending:
		return fmt.Sprintf("StepPending(%q)", s.ID)
	case receipt.StepFailed:
		if s.Error != nil && s.Error.Code != "" {
			return fmt.Sprintf("StepFailed(%q, %s)", s.ID, codeLiteral(s.Error.Code))
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
		if name, ok := x["$sensitive"]; ok && len(x) == 1 {
			return "glasstest.SensitiveRef(" + strconv.Quote(name) + ")"
		}
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return goLiteral(m)
	}
	return strconv.Quote(fmt.Sprint(v))
}

// quotedStrings writes the page's strings that hold a character that does
// not print as itself (a bidirectional override, a zero-width space, a
// control character) into the manifest as double-quoted YAML scalars with
// escapes, where a YAML encoder writes them raw: a committed manifest then
// shows what it holds (SECURITY.md). Strings are swapped for sentinels
// before encoding (swap) and the sentinels for the quoted scalars after
// (restore).
type quotedStrings struct{ quoted []string }

func (q *quotedStrings) swap(v any) any {
	switch x := v.(type) {
	case string:
		if receipt.PrintableText(x) == x && !strings.ContainsAny(x, "\n\t") {
			return x
		}
		q.quoted = append(q.quoted, yamlQuote(x))
		return fmt.Sprintf("glass-init-quoted-%06d", len(q.quoted)-1)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[q.swap(k).(string)] = q.swap(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = q.swap(e)
		}
		return out
	}
	return v
}

func (q *quotedStrings) restore(yamlText string) string {
	for i, s := range q.quoted {
		yamlText = strings.ReplaceAll(yamlText, fmt.Sprintf("glass-init-quoted-%06d", i), s)
	}
	return yamlText
}

// yamlQuote is s as a double-quoted YAML scalar, every character that does
// not print as itself written as an escape.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r != 0x7f && receipt.PrintableText(string(r)) == string(r):
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// manifest renders the starter manifest.
func (p *Plan) manifest() ([]byte, error) {
	var quoted quotedStrings
	argsByKey := map[string]any{}
	unbuildable := map[string]string{}
	var handoffs, flows []string
	for _, sp := range p.Specs {
		switch {
		case sp.ArgsErr != "":
			unbuildable[sp.ManifestKey] = sp.ArgsErr
		case len(sp.Args) > 0:
			argsByKey[sp.ManifestKey] = sp.Args
		}
		if k := sp.Action.Kind; k == receipt.KindHandoff || k == receipt.KindFlow {
			q, err := yaml.Marshal(quoted.swap(sp.Action.ID))
			if err != nil {
				return nil, fmt.Errorf("write the manifest: %w", err)
			}
			id := quoted.restore(strings.TrimSuffix(string(q), "\n"))
			if k == receipt.KindHandoff {
				handoffs = append(handoffs, id)
			} else {
				flows = append(flows, commentText(id))
			}
		}
	}
	data := map[string]any{"URL": commentText(p.URL), "Handoffs": handoffs, "Flows": flows}
	if len(argsByKey) > 0 {
		out, err := yaml.Marshal(map[string]any{"args": quoted.swap(argsByKey)})
		if err != nil {
			return nil, fmt.Errorf("write the manifest: %w", err)
		}
		data["Args"] = quoted.restore(strings.TrimSuffix(string(out), "\n"))
	}
	var lines []string
	for _, key := range sortedKeys(unbuildable) {
		lines = append(lines, commentText(key)+": "+commentText(unbuildable[key]))
	}
	data["Unbuildable"] = lines
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, "manifest.yaml.tmpl", data); err != nil {
		return nil, fmt.Errorf("render the manifest: %w", err)
	}
	return b.Bytes(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
