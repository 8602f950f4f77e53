package sdk_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/glassworks/glass/schema"
)

var update = flag.Bool("update", false, "write the generated types of glass-runtime.d.ts from the schemas")

const (
	typesFile      = "glass-runtime.d.ts"
	generatedBegin = "// ---- generated from schema/receipt.schema.json and schema/snapshot.schema.json;\n// ---- go test ./sdk -run TestTypesMatchTheSchemas -update writes it; do not edit\n"
	generatedEnd   = "// ---- end of generated types\n"
)

// TestTypesMatchTheSchemas holds the snapshot and receipt types of
// glass-runtime.d.ts to the JSON Schemas: it generates them again and
// fails when the file differs. Generating, not comparing field by field,
// is what keeps them equal: a schema change that the generator cannot
// express (a keyword it does not know) fails here too, instead of being
// left out of the types.
func TestTypesMatchTheSchemas(t *testing.T) {
	want, err := generateTypes()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(typesFile)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(src, []byte(generatedBegin))
	j := bytes.Index(src, []byte(generatedEnd))
	if i < 0 || j < i {
		t.Fatalf("%s: the generated section's markers are missing", typesFile)
	}
	got := string(src[i+len(generatedBegin) : j])
	if got == want {
		return
	}
	if *update {
		out := string(src[:i+len(generatedBegin)]) + want + string(src[j:])
		if err := os.WriteFile(typesFile, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the generated types differ from the schemas at line %d of the section (go test ./sdk -run TestTypesMatchTheSchemas -update writes them)\n--- want\n%s\n--- got\n%s",
		typesFile, firstDiffLine(got, want), excerpt(want, firstDiffLine(got, want)), excerpt(got, firstDiffLine(got, want)))
}

func firstDiffLine(a, b string) int {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return i + 1
		}
	}
	return min(len(x), len(y)) + 1
}

func excerpt(s string, line int) string {
	l := strings.Split(s, "\n")
	from, to := max(0, line-3), min(len(l), line+3)
	return strings.Join(l[from:to], "\n")
}

// TestTheGeneratorRefusesWhatItCannotExpress: a schema keyword the
// generator does not know fails generation, so the types never quietly
// lose a constraint that a schema adds.
func TestTheGeneratorRefusesWhatItCannotExpress(t *testing.T) {
	for _, doc := range []string{
		`{"$defs": {"x": {"type": "string", "format": "date"}}}`,
		`{"$defs": {"x": {"oneOf": [{"type": "string"}, {"type": "number"}]}}}`,
		`{"$defs": {"x": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
			"allOf": [{"if": {"required": ["a"], "properties": {"a": {"const": "x"}}}, "then": {"required": ["b"]}},
			          {"if": {"required": ["b"], "properties": {"b": {"const": "y"}}}, "then": {"required": ["a"]}}]}}}`,
		`{"$defs": {"x": {"$ref": "#/$defs/nowhere"}}}`,
	} {
		var s node
		if err := json.Unmarshal([]byte(doc), &s); err != nil {
			t.Fatal(err)
		}
		g := &generator{defs: s.Defs}
		if _, err := g.typeOf(s.Defs["x"], 0); err == nil {
			t.Errorf("the generator accepted %s", doc)
		}
	}
}

// node is one JSON Schema object of the subset the schemas use. Keywords
// that only validate (bounds, patterns) have no TypeScript form and are
// listed in validationOnly; any keyword in neither is an error.
type node struct {
	Ref                  string           `json:"$ref"`
	Defs                 map[string]*node `json:"$defs"`
	Description          string           `json:"description"`
	Type                 any              `json:"type"`
	Const                any              `json:"const"`
	Enum                 []any            `json:"enum"`
	Properties           map[string]*node `json:"properties"`
	Required             []string         `json:"required"`
	AdditionalProperties *json.RawMessage `json:"additionalProperties"`
	Items                *node            `json:"items"`
	If                   *node            `json:"if"`
	Then                 *node            `json:"then"`
	Else                 *node            `json:"else"`
	AllOf                []*node          `json:"allOf"`

	hasConst bool
	isFalse  bool // the schema false: the member may not be present
	raw      map[string]json.RawMessage
}

var known = map[string]bool{
	"$ref": true, "$defs": true, "description": true, "type": true, "const": true, "enum": true,
	"properties": true, "required": true, "additionalProperties": true, "items": true,
	"if": true, "then": true, "else": true, "allOf": true,
}

var validationOnly = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "minLength": true, "maxLength": true,
	"minimum": true, "maximum": true, "minItems": true, "maxItems": true, "pattern": true,
	// dependentRequired ties members of seed 004's flat receipt together;
	// TypeScript cannot say "b is required when a is present".
	"dependentRequired": true,
	// not and anyOf appear only inside an if, which the generator reads
	// for its then and else alone.
	"not": true, "anyOf": true,
}

func (n *node) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "false" {
		n.isFalse = true
		return nil
	}
	type plain node
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*n = node(p)
	if err := json.Unmarshal(b, &n.raw); err != nil {
		return err
	}
	_, n.hasConst = n.raw["const"]
	return nil
}

type generator struct {
	defs map[string]*node
}

// generateTypes renders each schema as a TypeScript namespace named after
// it — receipt and snapshot, as the Go packages are — holding its root
// (receipt.Receipt, snapshot.Snapshot) and every definition under its
// name in PascalCase. The namespaces keep names such as Error and Record
// from shadowing TypeScript's own, and a definition the two schemas share
// is generated from each.
func generateTypes() (string, error) {
	var b strings.Builder
	for _, sc := range []struct {
		name, root string
		src        []byte
	}{{"receipt", "Receipt", schema.ReceiptJSON}, {"snapshot", "Snapshot", schema.SnapshotJSON}} {
		var s node
		if err := json.Unmarshal(sc.src, &s); err != nil {
			return "", fmt.Errorf("%s schema: %w", sc.name, err)
		}
		g := &generator{defs: s.Defs}
		b.WriteString(doc(string(s.raw["title"][1:len(s.raw["title"])-1]), ""))
		fmt.Fprintf(&b, "export declare namespace %s {\n", sc.name)
		emit := func(name string, n *node) error {
			ts, err := g.typeOf(n, 1)
			if err != nil {
				return fmt.Errorf("%s schema: %s: %w", sc.name, name, err)
			}
			b.WriteString(doc(n.Description, "  "))
			fmt.Fprintf(&b, "  export type %s = %s;\n", name, ts)
			return nil
		}
		root := s
		root.Defs = nil
		if err := emit(sc.root, &root); err != nil {
			return "", err
		}
		for _, name := range sortedKeys(s.Defs) {
			b.WriteString("\n")
			if err := emit(pascal(name), s.Defs[name]); err != nil {
				return "", err
			}
		}
		b.WriteString("}\n\n")
	}
	return b.String(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func pascal(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func doc(text, indent string) string {
	if text == "" {
		return ""
	}
	return indent + "/** " + strings.ReplaceAll(text, "*/", "*\\/") + " */\n"
}

func literal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func propName(s string) string {
	if identifier.MatchString(s) {
		return s
	}
	return literal(s)
}

// typeOf renders n as a TypeScript type at the given indentation depth.
func (g *generator) typeOf(n *node, depth int) (string, error) {
	for k := range n.raw {
		if !known[k] && !validationOnly[k] {
			return "", fmt.Errorf("keyword %q has no TypeScript form in this generator", k)
		}
	}
	switch {
	case n.isFalse:
		return "never", nil
	case n.Ref != "":
		name, ok := strings.CutPrefix(n.Ref, "#/$defs/")
		if !ok || g.defs[name] == nil {
			return "", fmt.Errorf("$ref %q names no definition", n.Ref)
		}
		return pascal(name), nil
	case n.If != nil:
		return g.conditional(n, depth)
	case n.hasConst:
		return literal(n.Const), nil
	case n.Enum != nil:
		parts := make([]string, len(n.Enum))
		for i, v := range n.Enum {
			parts[i] = literal(v)
		}
		return strings.Join(parts, " | "), nil
	}
	types, err := typeNames(n.Type)
	if err != nil {
		return "", err
	}
	if len(types) == 0 && (n.Properties != nil || n.AllOf != nil) {
		types = []string{"object"}
	}
	if len(types) == 0 {
		return "unknown", nil
	}
	var parts []string
	for _, t := range types {
		s, err := g.single(n, t, depth)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | "), nil
}

func typeNames(t any) ([]string, error) {
	switch t := t.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{t}, nil
	case []any:
		var out []string
		for _, x := range t {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("type %v", t)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("type %v", t)
}

func (g *generator) single(n *node, t string, depth int) (string, error) {
	switch t {
	case "string":
		return "string", nil
	case "integer", "number":
		return "number", nil
	case "boolean":
		return "boolean", nil
	case "null":
		return "null", nil
	case "array":
		if n.Items == nil {
			return "unknown[]", nil
		}
		item, err := g.typeOf(n.Items, depth)
		if err != nil {
			return "", err
		}
		if strings.Contains(item, " ") {
			item = "(" + item + ")"
		}
		return item + "[]", nil
	case "object":
		return g.object(n, depth)
	}
	return "", fmt.Errorf("type %q", t)
}

// members renders the properties of an object schema, one per line.
func (g *generator) members(n *node, required []string, depth int) ([]string, error) {
	ind := strings.Repeat("  ", depth+1)
	var lines []string
	for _, name := range sortedKeysInOrder(n) {
		p := n.Properties[name]
		ts, err := g.typeOf(p, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		opt := "?"
		if slices.Contains(required, name) {
			opt = ""
		}
		lines = append(lines, doc(p.Description, ind)+ind+propName(name)+opt+": "+ts+";\n")
	}
	closed := false
	if n.AdditionalProperties != nil {
		closed = strings.TrimSpace(string(*n.AdditionalProperties)) == "false"
		if !closed {
			return nil, fmt.Errorf("additionalProperties other than false")
		}
	}
	if !closed {
		lines = append(lines, ind+"/** An extension field (CONTRACT.md §4.3). */\n"+ind+"[extension: string]: unknown;\n")
	}
	return lines, nil
}

// sortedKeysInOrder keeps the order the schema lists its properties in,
// which the JSON decoder into a map loses: it reads the raw text again.
func sortedKeysInOrder(n *node) []string {
	raw, ok := n.raw["properties"]
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				keys = append(keys, v)
				// skip the value
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return keys
				}
			}
		}
	}
	return keys
}

func (g *generator) object(n *node, depth int) (string, error) {
	if n.Properties == nil && n.AdditionalProperties == nil && n.AllOf == nil {
		return "{ [key: string]: unknown }", nil
	}
	conds := n.AllOf
	if len(conds) > 0 {
		return g.variants(n, conds, depth)
	}
	lines, err := g.members(n, n.Required, depth)
	if err != nil {
		return "", err
	}
	return "{\n" + strings.Join(lines, "") + strings.Repeat("  ", depth) + "}", nil
}

// conditional renders an object schema with one if/then(/else): as the
// variants the condition tells apart, or — when then and else are each a
// $ref — as the union of the two.
func (g *generator) conditional(n *node, depth int) (string, error) {
	if n.Then != nil && n.Else != nil && n.Then.Ref != "" && n.Else.Ref != "" {
		a, err := g.typeOf(n.Then, depth)
		if err != nil {
			return "", err
		}
		b, err := g.typeOf(n.Else, depth)
		if err != nil {
			return "", err
		}
		return a + " | " + b, nil
	}
	if n.Else != nil {
		return "", fmt.Errorf("an if with an else that is not a $ref")
	}
	return g.variants(n, []*node{{If: n.If, Then: n.Then}}, depth)
}

// discriminant reads an if of the form {required: [k], properties: {k:
// {const: v} or {enum: [...]}}}, or the same one level down ({required:
// [k], properties: {k: <that form>}}): the path to the member and the
// values it takes.
func discriminant(cond *node) (path []string, values []any, err error) {
	if len(cond.Required) != 1 || len(cond.Properties) != 1 {
		return nil, nil, fmt.Errorf("an if that is not a test of one required member")
	}
	k := cond.Required[0]
	p := cond.Properties[k]
	if p == nil {
		return nil, nil, fmt.Errorf("an if that is not a test of one required member")
	}
	switch {
	case p.hasConst:
		return []string{k}, []any{p.Const}, nil
	case p.Enum != nil:
		return []string{k}, p.Enum, nil
	}
	inner, vals, err := discriminant(p)
	if err != nil {
		return nil, nil, err
	}
	return append([]string{k}, inner...), vals, nil
}

// variants renders an object whose allOf holds conditionals on one member
// (its discriminant): one variant per condition, with the member narrowed
// to the condition's values and the then applied (required members made
// required, members given the schema false made never), and one variant
// for the values no condition names, when there are any.
func (g *generator) variants(n *node, conds []*node, depth int) (string, error) {
	base := *n
	base.AllOf = nil
	var path []string
	named := []any{}
	type variant struct {
		values   []any
		absent   bool // the discriminant is not there at all
		required []string
		never    []string
	}
	var vs []variant
	for _, c := range conds {
		if c.If == nil || c.Then == nil || c.Else != nil {
			return "", fmt.Errorf("an allOf entry that is not an if/then")
		}
		p, values, err := discriminant(c.If)
		if err != nil {
			return "", err
		}
		if path != nil && !slices.Equal(path, p) {
			return "", fmt.Errorf("conditionals on two members (%v and %v)", path, p)
		}
		path = p
		named = append(named, values...)
		v := variant{values: values, required: c.Then.Required}
		for _, name := range sortedKeys(c.Then.Properties) {
			if !c.Then.Properties[name].isFalse {
				return "", fmt.Errorf("a then that constrains %q other than by false", name)
			}
			v.never = append(v.never, name)
		}
		for k := range c.Then.raw {
			if k != "required" && k != "properties" && k != "$comment" && k != "dependentRequired" {
				return "", fmt.Errorf("a then with %q", k)
			}
		}
		vs = append(vs, v)
	}
	rest, err := g.complement(&base, path, named)
	if err != nil {
		return "", err
	}
	if rest != nil {
		vs = append(vs, variant{values: rest})
	}
	if !slices.Contains(base.Required, path[0]) {
		// No if holds when the member is absent: that is a variant too.
		vs = append(vs, variant{absent: true})
	}
	// The type is the base members, documented once, intersected with the
	// union of the variants: TypeScript narrows it on the discriminant.
	lines, err := g.members(&base, base.Required, depth)
	if err != nil {
		return "", err
	}
	ind := strings.Repeat("  ", depth+1)
	var out []string
	for _, v := range vs {
		narrowed := ind + "  " + propName(path[0]) + "?: never;\n"
		if !v.absent {
			if narrowed, err = g.narrow(&base, path, v.values, depth+1); err != nil {
				return "", err
			}
		}
		body := narrowed
		for _, name := range v.required {
			if name != path[0] {
				if base.Properties[name] == nil {
					return "", fmt.Errorf("a then that requires %q, which the object does not declare", name)
				}
				r, err := g.typeOf(base.Properties[name], depth+2)
				if err != nil {
					return "", err
				}
				body += ind + "  " + propName(name) + ": " + r + ";\n"
			}
		}
		for _, name := range v.never {
			body += ind + "  " + propName(name) + "?: never;\n"
		}
		out = append(out, "| {\n"+body+ind+"}")
	}
	return "{\n" + strings.Join(lines, "") + strings.Repeat("  ", depth) + "} & (\n" + ind + strings.Join(out, "\n"+ind) + "\n" + strings.Repeat("  ", depth) + ")", nil
}

// complement lists the values of the discriminant that no condition
// names, when its type enumerates them (a boolean, an enum); nil when
// the conditions cover it, or it cannot be enumerated and the base
// stands for the rest.
func (g *generator) complement(base *node, path []string, named []any) ([]any, error) {
	n := base
	for _, k := range path {
		p := n.Properties[k]
		if p == nil {
			return nil, fmt.Errorf("the discriminant %v is not a declared member", path)
		}
		for p.Ref != "" {
			p = g.defs[strings.TrimPrefix(p.Ref, "#/$defs/")]
		}
		n = p
	}
	var domain []any
	switch {
	case n.Enum != nil:
		domain = n.Enum
	case n.Type == "boolean":
		domain = []any{true, false}
	default:
		return nil, nil
	}
	var rest []any
	for _, v := range domain {
		if !slices.ContainsFunc(named, func(x any) bool { return reflect.DeepEqual(x, v) }) {
			rest = append(rest, v)
		}
	}
	return rest, nil
}

// narrow renders the member at path with the given values: the member
// itself (its type intersected with the values one level down).
func (g *generator) narrow(base *node, path []string, values []any, depth int) (string, error) {
	ind := strings.Repeat("  ", depth+1)
	lits := make([]string, len(values))
	for i, v := range values {
		lits[i] = literal(v)
	}
	union := strings.Join(lits, " | ")
	if len(path) == 1 {
		return ind + propName(path[0]) + ": " + union + ";\n", nil
	}
	if len(path) != 2 {
		return "", fmt.Errorf("a discriminant %v deeper than one level", path)
	}
	outer, err := g.typeOf(base.Properties[path[0]], depth)
	if err != nil {
		return "", err
	}
	return ind + propName(path[0]) + ": " + outer + " & { " + propName(path[1]) + ": " + union + " };\n", nil
}
