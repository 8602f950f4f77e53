package args

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
)

func parse(t *testing.T, params string) *Schema {
	t.Helper()
	s, err := Parse(json.RawMessage(params))
	if err != nil {
		t.Fatalf("Parse(%s): %v", params, err)
	}
	return s
}

func readSchema(t *testing.T, name string) *Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestObjectOnRealSchemas pins the value built for each schema of
// testdata/: the same schema gives the same value, run after run and
// release after release (a change here changes every generated spec).
func TestObjectOnRealSchemas(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"todo-add.json", `{"title":"glass probe"}`},
		{"todomvc-edit.json", `{"title":"glass probe"}`},
		{"signup.json", `{"birthday":"2024-01-02","email":"glass@example.com","password":"glass probe","username":"buk4752"}`},
		{"booking.json", `{"arrival":"2024-01-02T03:04:05Z","contact":{"country":"XG","phone":"+8644752"},"guests":1,"nights":1,"reference":"123e4567-e89b-42d3-a456-426614174000","room":"single"}`},
		{"server.json", `{"address":"192.0.2.1","address6":"2001:db8::1","host":"example.com","path":"/","port":1}`},
		{"invoice.json", `{"currency":"XGU","id":"123e4567-e89b-42d3-a456-426614174000","kind":"invoice","lines":[{"amount":0.25,"description":"glass pr"},{"amount":0.25,"description":"glass pr"}],"sku":"XG-32364-bggbaociac","tags":["xguehf","jarxz","j"]}`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s := readSchema(t, tc.file)
			v, err := s.Object()
			if err != nil {
				t.Fatal(err)
			}
			if got := canonical(t, v); got != tc.want {
				t.Errorf("Object() = %s\nwant       %s", got, tc.want)
			}
			if err := s.Check(v); err != nil {
				t.Errorf("the schema rejects the value built: %v", err)
			}
			// A second parse of the same schema gives the same value.
			again, err := readSchema(t, tc.file).Object()
			if err != nil || !reflect.DeepEqual(again, v) {
				t.Errorf("a second build gave %v (%v), want %v", again, err, v)
			}
		})
	}
}

func TestValidKeywords(t *testing.T) {
	for _, tc := range []struct{ name, params, want string }{
		{"empty schema", `{}`, `"glass probe"`},
		{"const", `{"type":"string","const":"x"}`, `"x"`},
		{"const null", `{"const":null}`, `null`},
		{"first enum value", `{"enum":["b","a"]}`, `"b"`},
		{"enum value the rest allows", `{"type":"string","enum":["toolong","ok"],"maxLength":3}`, `"ok"`},
		{"default", `{"type":"integer","default":7}`, `7`},
		{"invalid default passed over", `{"type":"integer","minimum":10,"default":7}`, `10`},
		{"minLength pads", `{"type":"string","minLength":14}`, `"glass probexxx"`},
		{"maxLength cuts", `{"type":"string","maxLength":5}`, `"glass"`},
		{"pattern the plain string matches", `{"type":"string","pattern":"\\S"}`, `"glass probe"`},
		{"anchored pattern", `{"type":"string","pattern":"^[A-Z]{3}-\\d{4}$"}`, `"XGU-6060"`},
		{"pattern and minLength", `{"type":"string","pattern":"^\\S+$","minLength":12,"maxLength":12}`, `"xO13236qz16S"`},
		{"pattern and format", `{"type":"string","format":"email","pattern":"@example\\.org$"}`, `"glass@example.org"`},
		{"format email", `{"type":"string","format":"email"}`, `"glass@example.com"`},
		{"format email grown", `{"type":"string","format":"email","minLength":20}`, `"glassxxx@example.com"`},
		{"format email short", `{"type":"string","format":"email","maxLength":15}`, `"a@example.com"`},
		{"format uri", `{"type":"string","format":"uri"}`, `"https://example.com/glass"`},
		{"format date", `{"type":"string","format":"date"}`, `"2024-01-02"`},
		{"format date-time", `{"type":"string","format":"date-time"}`, `"2024-01-02T03:04:05Z"`},
		{"format time", `{"type":"string","format":"time"}`, `"03:04:05Z"`},
		{"format uuid", `{"type":"string","format":"uuid"}`, `"123e4567-e89b-42d3-a456-426614174000"`},
		{"format ipv4", `{"type":"string","format":"ipv4"}`, `"192.0.2.1"`},
		{"format ipv6", `{"type":"string","format":"ipv6"}`, `"2001:db8::1"`},
		{"format hostname", `{"type":"string","format":"hostname"}`, `"example.com"`},
		{"format hostname grown", `{"type":"string","format":"hostname","minLength":80}`, `"` + strings.Repeat("x", 63) + ".xxxx.example.com" + `"`},
		{"unknown format", `{"type":"string","format":"colour"}`, `"glass probe"`},
		{"integer", `{"type":"integer"}`, `1`},
		{"minimum", `{"type":"number","minimum":2.5}`, `2.5`},
		{"integer minimum", `{"type":"integer","minimum":2.5}`, `3`},
		{"maximum below one", `{"type":"integer","maximum":-3}`, `-3`},
		{"exclusive bounds", `{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":0.5}`, `0.25`},
		{"multipleOf", `{"type":"integer","minimum":10,"multipleOf":7}`, `14`},
		{"boolean", `{"type":"boolean"}`, `true`},
		{"null", `{"type":"null"}`, `null`},
		{"type list", `{"type":["null","string"]}`, `null`},
		{"array of minItems", `{"type":"array","minItems":2,"items":{"type":"integer"}}`, `[1,1]`},
		{"unique items", `{"type":"array","minItems":3,"uniqueItems":true,"items":{"type":"integer"}}`, `[1,2,3]`},
		{"unique strings", `{"type":"array","minItems":2,"uniqueItems":true,"items":{"type":"string"}}`, `["glass probe","glass probe 2"]`},
		{"prefixItems", `{"type":"array","minItems":2,"prefixItems":[{"type":"boolean"},{"const":3}]}`, `[true,3]`},
		{"nested object", `{"type":"object","required":["a"],"properties":{"a":{"type":"object","required":["b"],"properties":{"b":{"type":"integer","minimum":4}}}}}`, `{"a":{"b":4}}`},
		{"required not declared", `{"type":"object","required":["x"]}`, `{"x":"glass probe"}`},
		{"required from additionalProperties", `{"type":"object","required":["x"],"additionalProperties":{"type":"integer"}}`, `{"x":1}`},
		{"minProperties", `{"type":"object","minProperties":1,"properties":{"b":{"type":"boolean"},"a":{"type":"integer"}}}`, `{"a":1}`},
		{"$ref", `{"$defs":{"n":{"type":"integer","minimum":5}},"$ref":"#/$defs/n"}`, `5`},
		{"definitions", `{"definitions":{"n":{"type":"string","maxLength":2}},"type":"object","required":["x"],"properties":{"x":{"$ref":"#/definitions/n"}}}`, `{"x":"gl"}`},
		{"allOf", `{"allOf":[{"type":"string"},{"minLength":12}]}`, `"glass probex"`},
		{"anyOf second branch", `{"anyOf":[{"type":"string","maxLength":0,"minLength":1},{"type":"integer"}]}`, `1`},
		{"oneOf", `{"oneOf":[{"type":"integer"},{"type":"number","minimum":0.5,"multipleOf":0.5}]}`, `0.5`}, // 1 matches both
		{"anyOf beside properties", `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"boolean"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`, `{"a":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := parse(t, tc.params)
			v, err := s.Valid()
			if err != nil {
				t.Fatal(err)
			}
			if got := canonical(t, v); got != tc.want {
				t.Errorf("Valid(%s) = %s, want %s", tc.params, got, tc.want)
			}
		})
	}
}

// TestValidFailsClearly: what cannot be built is one error that names
// where and why, never a value the schema might reject.
func TestValidFailsClearly(t *testing.T) {
	for _, tc := range []struct{ name, params, want string }{
		{"lookahead on an optional member", `{"type":"object","properties":{"x":{"type":"string","pattern":"^(?=.*\\d)\\w+$"}}}`,
			`args: params: /properties/x/pattern: pattern "^(?=.*\\d)\\w+$": the lookaround "(?=" is not supported`},
		{"lookahead on a member built", `{"type":"object","required":["x"],"properties":{"x":{"type":"string","pattern":"^(?=.*\\d)\\w+$"}}}`,
			`pattern "^(?=.*\\d)\\w+$": the lookaround "(?=" is not supported (Go's regexp has none); name the arguments in the manifest`},
		{"backreference", `{"type":"string","pattern":"^(a)\\1$"}`,
			`pattern "^(a)\\1$": the backreference \1 is not supported (Go's regexp has none); name the arguments in the manifest`},
		{"named backreference", `{"type":"string","pattern":"^(?<x>a)\\k<x>$"}`,
			`pattern "^(?<x>a)\\k<x>$": the named backreference \k is not supported`},
		{"lookbehind", `{"type":"string","pattern":"(?<!a)b"}`, `the lookaround "(?<!" is not supported`},
		{"unknown property", `{"type":"string","pattern":"\\p{Script_Extensions=Latin}"}`, `the property "Script_Extensions=Latin" is not supported`},
		{"impossible length", `{"type":"object","required":["c"],"properties":{"c":{"type":"string","pattern":"^[A-Z]{3}$","minLength":5}}}`,
			`args: /c: cannot build a string of at least 5 characters matching the pattern "^[A-Z]{3}$" that the schema accepts`},
		{"false schema", `{"type":"object","required":["x"],"properties":{"x":false}}`, `args: /x: the schema is false: it accepts no value`},
		{"ref outside", `{"$ref":"https://example.com/s.json"}`, `a params schema refers to "https://example.com/s.json": only references inside it are followed`},
		{"ref cycle", `{"$defs":{"n":{"type":"object","required":["n"],"properties":{"n":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`, `a $ref cycle through required members has no finite value`},
		{"no integer within bounds", `{"type":"integer","minimum":1.2,"maximum":1.8}`, `args: /: no integer lies within the declared bounds`},
		{"no enum value fits", `{"type":"string","enum":["long"],"maxLength":2}`, `args: /: no value of the enum meets the rest of the schema`},
		// A page's own numbers never size an allocation past MaxBuilt.
		{"huge minLength", `{"type":"object","required":["s"],"properties":{"s":{"type":"string","minLength":2000000000}}}`,
			`args: /s: minLength 2000000000 is more than the 10000 characters the probe builds a string of`},
		{"huge minLength with a pattern", `{"type":"string","pattern":"^x+$","minLength":2000000000}`,
			`args: /: minLength 2000000000 is more than the 10000 characters the probe builds a string of`},
		{"huge minItems", `{"type":"array","minItems":2000000000}`, `args: /: minItems 2000000000 is more than the 10000 items the probe builds an array of`},
		{"nested arrays multiply", `{"type":"array","minItems":300,"items":{"type":"array","minItems":300,"items":{"type":"string","minLength":1000}}}`,
			`the arguments would hold more than the 10000 characters and items the probe builds`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse(json.RawMessage(tc.params))
			if err == nil {
				var v any
				v, err = s.Valid()
				if err == nil {
					t.Fatalf("Valid(%s) = %#v, want an error", tc.params, v)
				}
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q\nwant it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is more than one line: %q", err)
			}
		})
	}
}

func TestObjectWantsAnObjectSchema(t *testing.T) {
	if _, err := parse(t, `{"type":"string"}`).Object(); err == nil || err.Error() != `args: params declares type "string", not an object` {
		t.Errorf("Object of a string schema: %v", err)
	}
	if _, err := Parse(json.RawMessage(`[1]`)); err == nil || !strings.HasPrefix(err.Error(), "args: params is not a JSON Schema: ") {
		t.Errorf("Parse of an array: %v", err)
	}
	for _, empty := range []string{``, `null`, `{}`} {
		v, err := parse(t, empty).Object()
		if err != nil || len(v) != 0 {
			t.Errorf("Object of %q = %v, %v; want {}", empty, v, err)
		}
	}
}

func TestSensitiveValuesArePlaceholders(t *testing.T) {
	s := parse(t, `{"type":"object","required":["user"],"properties":{
		"user":{"type":"string"},
		"password":{"type":"string","sensitive":true,"minLength":8},
		"pin":{"type":"string","x-sensitive":true,"pattern":"^\\d{4}$"}}}`)
	v, err := s.Object(Sensitive("glass-probe", "s3cret-value"))
	if err != nil {
		t.Fatal(err)
	}
	// The pin is left out: the secret does not match its pattern, and it is
	// optional.
	want := `{"password":{"$sensitive":"glass-probe"},"user":"glass probe"}`
	if got := canonical(t, v); got != want {
		t.Errorf("Object = %s, want %s", got, want)
	}
	short := parse(t, `{"type":"object","required":["p"],"properties":{"p":{"type":"string","sensitive":true,"maxLength":3}}}`)
	if _, err := short.Object(Sensitive("glass-probe", "s3cret-value")); err == nil || !strings.Contains(err.Error(), "/p: the probe's sensitive value does not meet the declared schema") {
		t.Errorf("a secret too long for the schema: %v", err)
	}
}

func TestInvalid(t *testing.T) {
	s := parse(t, `{"type":"object","additionalProperties":false,"required":["title"],"properties":{
		"title":{"type":"string","minLength":1},
		"priority":{"type":"string","enum":["low","high"]},
		"count":{"type":"integer"},
		"free":{}}}`)
	valid, err := s.Object()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind                  Kind
		field, describe, args string
	}{
		{WrongType, "title", `a number for "title", declared string`, `{"title":12345}`},
		{OutsideEnum, "priority", `glass-probe-not-in-enum for "priority", outside its enum`, `{"priority":"glass-probe-not-in-enum","title":"glass probe"}`},
		{MissingRequired, "title", `the required field "title" left out`, `{}`},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			inv, ok := s.Invalid(tc.kind, valid)
			if !ok {
				t.Fatal("no invalid arguments")
			}
			if inv.Field != tc.field || inv.Path != "/"+tc.field || inv.Describe != tc.describe || canonical(t, inv.Args) != tc.args {
				t.Errorf("Invalid = %+v\nwant field %q, describe %q, args %s", inv, tc.field, tc.describe, tc.args)
			}
			if err := s.Check(inv.Args); err == nil {
				t.Errorf("the schema accepts %s", canonical(t, inv.Args))
			}
		})
	}
	// The valid arguments are not changed.
	if canonical(t, valid) != `{"title":"glass probe"}` {
		t.Errorf("Invalid changed its input: %v", valid)
	}
	if _, ok := parse(t, `{"type":"object","properties":{"a":{}}}`).Invalid(WrongType, map[string]any{}); ok {
		t.Error("a wrong type for a member that declares no type")
	}
	if _, ok := parse(t, `{"type":"object","properties":{"a":{"type":"string"}}}`).Invalid(MissingRequired, map[string]any{}); ok {
		t.Error("a missing member where none is required")
	}
	if v, ok := parse(t, `{"enum":[true]}`).OutsideEnum(); !ok || v != false {
		t.Errorf("OutsideEnum of [true] = %v, %v", v, ok)
	}
	if v, ok := parse(t, `{"enum":[1,2]}`).OutsideEnum(); !ok || v != -987654321.0 {
		t.Errorf("OutsideEnum of [1,2] = %v, %v", v, ok)
	}
	if _, _, ok := parse(t, `{"type":["integer","string","boolean","array","object"]}`).WrongValue(); ok {
		t.Error("a wrong value where every type but null is allowed")
	}
}

// TestPatternsAreECMAScript checks the generated strings with the engine a
// page runtime uses: node's RegExp in Unicode mode, and String.length.
func TestPatternsAreECMAScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the generated strings cannot be checked against ECMAScript's RegExp")
	}
	type sample struct {
		Pattern string `json:"pattern"`
		Value   string `json:"value"`
		Min     int    `json:"min"`
		Max     int    `json:"max"`
	}
	var samples []sample
	for _, tc := range []struct {
		pattern  string
		min, max int
	}{
		{`\S`, 0, -1},
		{`^\S+$`, 0, -1},
		{`^\S+$`, 30, 40},
		{`^[^\s]{3}$`, 0, -1},
		{`^[\S]{2}\s[\S]$`, 0, -1},
		{`^.{3,5}$`, 0, -1},
		{`^[A-Z]{3}-\d{4}$`, 0, -1},
		{`^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$`, 0, 20},
		{`^\+?[0-9 ]{7,15}$`, 0, -1},
		{`^\u0041\u{42}\x43$`, 0, -1},
		{`^\p{Lu}\p{Ll}+$`, 0, -1},
		{`^\p{Script=Greek}+$`, 0, 3},
		{`^[^]{2}$`, 0, -1},
		{`^a\/b$`, 0, -1},
		{`^(?:foo|bar)-(?<n>\d+)$`, 0, -1},
		{`\bword\b`, 0, -1},
		{`^[\w.]+$`, 5, 5},
		{`^[\u00e0-\u00ff]+$`, 2, 4},
		{`^[\[\]]+$`, 0, -1},
	} {
		v, err := generate(tc.pattern, tc.min, tc.max, 0, func(string) bool { return true })
		if err != nil {
			t.Errorf("generate(%q): %v", tc.pattern, err)
			continue
		}
		for _, r := range v {
			if !unicode.IsPrint(r) && r != ' ' {
				t.Errorf("generate(%q) = %q: not printable", tc.pattern, v)
			}
		}
		samples = append(samples, sample{tc.pattern, v, tc.min, tc.max})
	}
	input, _ := json.Marshal(samples)
	script := `
const samples = JSON.parse(require("fs").readFileSync(0, "utf8"));
for (const s of samples) {
  const ok = new RegExp(s.pattern, "u").test(s.value) && s.value.length >= s.min && (s.max < 0 || s.value.length <= s.max);
  if (!ok) console.log("NO " + JSON.stringify(s));
}
console.log("checked " + samples.length);`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", script)
	cmd.Stdin = strings.NewReader(string(input))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(line, "NO ") {
			t.Errorf("ECMAScript does not accept %s", strings.TrimPrefix(line, "NO "))
		}
	}
	if !strings.Contains(string(out), "checked ") || len(samples) == 0 {
		t.Errorf("node checked nothing:\n%s", out)
	}
}

// TestWhitespaceClassesAreComplements: \S inside a class is spelled as the
// complement of ECMAScript's whitespace; the two must not drift apart.
func TestWhitespaceClassesAreComplements(t *testing.T) {
	ws, err := compileECMA(`^\s$`)
	if err != nil {
		t.Fatal(err)
	}
	nonWS, err := compileECMA(`^[\S]$`)
	if err != nil {
		t.Fatal(err)
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		if ws.MatchString(s) == nonWS.MatchString(s) {
			t.Fatalf("U+%04X: \\s %v, [\\S] %v: want exactly one", r, ws.MatchString(s), nonWS.MatchString(s))
		}
	}
	for _, r := range []rune{'\t', '\v', ' ', 0xA0, 0x2028, 0xFEFF, 0x3000} {
		if !ws.MatchString(string(r)) {
			t.Errorf("\\s does not match U+%04X, ECMAScript whitespace", r)
		}
	}
	if ws.MatchString("\u0085") {
		t.Error("\\s matches U+0085, which ECMAScript does not count as whitespace")
	}
	dot, _ := compileECMA(`^.$`)
	for _, r := range []string{"\n", "\r", "\u2028", "\u2029"} {
		if dot.MatchString(r) {
			t.Errorf(". matches the line terminator %q", r)
		}
	}
}

func TestVariantsAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for v := 0; v < 5; v++ {
		s, err := generate(`^[a-z]{2}$`, 0, -1, v, func(string) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		if seen[s] {
			t.Errorf("variant %d repeats %q", v, s)
		}
		seen[s] = true
	}
}
