package refusal

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// RefJSLiteral is a refusal kind of its own, outside Refusals: arguments
// written as a JavaScript object literal — unquoted keys, single-quoted
// strings, a trailing comma — which a JavaScript engine evaluates but
// JSON does not parse. Any text that is not JSON must fail INVALID_ARGS
// (args.malformed-json), so a runtime that falls back to evaluating the
// text, as models often write object literals, is caught.
const RefJSLiteral = "arguments written as a JavaScript object literal"

// JSLiteralRefusal is the refusal of kind RefJSLiteral. Its text stands
// for arguments the action's params accept, so a runtime that evaluates
// it runs the call instead of refusing it.
var JSLiteralRefusal = probe.Refusal{Kind: RefJSLiteral, Code: receipt.CodeInvalidArgs, Plan: planJSLiteral}

func planJSLiteral(p *probe.Probe) (*probe.PlannedCall, string) {
	c := p.Candidates()
	if len(c) == 0 {
		return nil, "the page declares no available action"
	}
	a, args := c[0], map[string]any{}
	for _, x := range c {
		if v, err := p.ValidArgs(x, ""); err == nil {
			a, args = x, v
			break
		}
	}
	text := JSLiteral(args)
	return &probe.PlannedCall{ID: a.ID, Args: text, Describe: fmt.Sprintf("call of %s with arguments that are not JSON but a JavaScript object literal (%s)", a.ID, text)}, ""
}

var jsIdent = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// JSLiteral writes v as a JavaScript expression that JSON.parse rejects:
// object keys unquoted where they can be, strings in single quotes, a
// trailing comma after an object's members, and an empty object with a
// comment in it.
func JSLiteral(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return "{ /* no arguments */ }"
		}
		var b strings.Builder
		b.WriteString("{ ")
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if jsIdent.MatchString(k) {
				b.WriteString(k)
			} else {
				b.WriteString(jsString(k))
			}
			b.WriteString(": ")
			b.WriteString(JSLiteral(x[k]))
			b.WriteString(", ")
		}
		b.WriteString("}")
		return b.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = JSLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return jsString(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// jsString is s in single quotes, escaped the way JSON escapes it (JSON's
// escapes are JavaScript's), with single quotes escaped and double quotes
// left bare.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	inner := string(b[1 : len(b)-1])
	inner = strings.ReplaceAll(inner, `\"`, `"`)
	inner = strings.ReplaceAll(inner, `'`, `\'`)
	return "'" + inner + "'"
}

// RefNearJSON is a refusal kind of its own, outside Refusals: valid
// arguments one slip away from JSON, each slip alone — a trailing comma,
// single quotes, unquoted keys, a comment, parentheses around the object,
// a semicolon after it — and white space alone, so that a runtime that
// forgives one of them (a lenient parser, a regular expression that mends
// the text, eval, a trim before the test for empty text) runs the call
// instead of refusing it. The calls are made on one page.
const RefNearJSON = "arguments one slip away from JSON"

// NearJSONRefusal is the refusal of kind RefNearJSON.
var NearJSONRefusal = probe.Refusal{Kind: RefNearJSON, Code: receipt.CodeInvalidArgs, Plan: planNearJSON}

func planNearJSON(p *probe.Probe) (*probe.PlannedCall, string) {
	if p.Transport == glasstest.TransportWebMCP {
		return nil, "a WebMCP tool's input is always a JSON object, so arguments that are not JSON cannot be sent over webmcp"
	}
	c := p.Candidates()
	if len(c) == 0 {
		return nil, "the page declares no available action"
	}
	// Arguments with members show more slips: the first action with valid
	// arguments that has some, else the first with valid arguments.
	a, args := c[0], map[string]any(nil)
	for _, x := range c {
		if v, err := p.ValidArgs(x, ""); err == nil && (args == nil || len(args) == 0 && len(v) > 0) {
			a, args = x, v
		}
	}
	texts := NearJSON(args)
	more := make([]any, len(texts)-1)
	for i, t := range texts[1:] {
		more[i] = json.RawMessage(t) // sent as it is written
	}
	shown := make([]string, len(texts))
	for i, t := range texts {
		shown[i] = t
		if strings.TrimSpace(t) == "" {
			shown[i] = fmt.Sprintf("white space alone, %q", t)
		}
	}
	return &probe.PlannedCall{ID: a.ID, Args: json.RawMessage(texts[0]), MoreArgs: more,
		Describe: fmt.Sprintf("calls of %s with its valid arguments one slip away from JSON (%s)", a.ID, strings.Join(shown, ", "))}, ""
}

var quotedKey = regexp.MustCompile(`"([A-Za-z_$][A-Za-z0-9_$]*)":`)

// NearJSON writes args as JSON with one slip each: a trailing comma (for
// arguments with members), single quotes (when no string holds a quote),
// unquoted keys (when a key is an identifier), a comment before it,
// parentheses around it and a semicolon after it; and, last, white space
// alone, which is not the empty text (that means {}) nor JSON (a runtime
// that trims the text before testing it for empty takes it for {}). Every
// text is one JSON.parse rejects.
func NearJSON(args map[string]any) []string {
	b, err := json.Marshal(args)
	if err != nil {
		b = []byte("{}")
	}
	j := string(b)
	var out []string
	if len(args) > 0 {
		out = append(out, j[:len(j)-1]+",}")
	}
	if strings.Contains(j, `"`) && !strings.ContainsAny(j, `'\`) {
		out = append(out, strings.ReplaceAll(j, `"`, `'`))
	}
	if k := quotedKey.ReplaceAllString(j, "$1:"); k != j {
		out = append(out, k)
	}
	return append(out, "/* arguments */ "+j, "("+j+")", j+";", WhiteSpaceOnly)
}

// WhiteSpaceOnly is argument text of white space alone: not JSON.
const WhiteSpaceOnly = " \t\n "
