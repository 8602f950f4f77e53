package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// The params of two entries are compared keyword by keyword, as JSON
// Schema validates them: a change that makes the schema refuse arguments
// it accepted is breaking (a call that worked fails INVALID_PARAMS), one
// that only accepts more needs review, and a change Glass cannot tell
// apart (a new oneOf, a changed $ref) is breaking when it adds or changes
// a constraint and needs review when it removes one. docs/surface.md has
// the table.

// params compares the params schemas of one entry.
func (c *comparison) params(name string, o, n Action) {
	if o.Params == nil && n.Params == nil {
		return
	}
	c.schema(name, "", orEmpty(o.Params), orEmpty(n.Params), false)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// subject names the part of the arguments a path points at.
func subject(path string) string {
	if path == "" {
		return "the arguments"
	}
	return "parameter " + receipt.PrintableID(path)
}

func field(path string) string {
	if path == "" {
		return "params"
	}
	return "params." + path
}

func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Keywords by how a change to them is classified.
var (
	// lower bounds: raising one refuses values it accepted.
	lowerBounds = map[string]string{
		"minLength":        "shorter values are refused",
		"minimum":          "smaller values are refused",
		"exclusiveMinimum": "smaller values are refused",
		"minItems":         "shorter lists are refused",
		"minProperties":    "objects with fewer members are refused",
		"minContains":      "lists with fewer matching items are refused",
	}
	// upper bounds: lowering one refuses values it accepted.
	upperBounds = map[string]string{
		"maxLength":        "longer values are refused",
		"maximum":          "larger values are refused",
		"exclusiveMaximum": "larger values are refused",
		"maxItems":         "longer lists are refused",
		"maxProperties":    "objects with more members are refused",
		"maxContains":      "lists with more matching items are refused",
	}
	// constraints whose change Glass does not order: any new or changed
	// value may refuse what the old one accepted.
	constraints = []string{"pattern", "format", "multipleOf", "const", "contentMediaType", "contentEncoding"}
	// validation keywords Glass does not look into.
	opaque = []string{
		"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$dynamicRef", "$defs", "definitions",
		"dependentRequired", "dependentSchemas", "dependencies", "patternProperties", "propertyNames", "prefixItems",
		"contains", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema",
	}
)

// handled keywords have their own comparison below.
var handled = []string{"type", "enum", "x-glass-enum", "required", "properties", "additionalProperties", "items", "uniqueItems"}

// schema compares two schemas at path; param says the path is a parameter
// of the arguments object itself, whose sensitivity is compared apart.
func (c *comparison) schema(name, path string, o, n map[string]any, param bool) {
	subj, fld := subject(path), field(path)
	c.types(name, subj, fld, o["type"], n["type"])
	c.enums(name, subj, fld, o, n)
	for _, k := range constraints {
		c.constraint(name, subj, fld, k, o, n)
	}
	for _, k := range sortedKeys(lowerBounds) {
		c.bound(name, subj, fld, k, o, n, 1, lowerBounds[k])
	}
	for _, k := range sortedKeys(upperBounds) {
		c.bound(name, subj, fld, k, o, n, -1, upperBounds[k])
	}
	if ou, nu := o["uniqueItems"] == true, n["uniqueItems"] == true; ou != nu {
		if nu {
			c.add(Breaking, name, fld, "%s: items must now be unique: a list with repeats is refused", subj)
		} else {
			c.add(NeedsReview, name, fld, "%s: items need no longer be unique", subj)
		}
	}
	c.object(name, path, o, n)
	c.additional(name, path, o["additionalProperties"], n["additionalProperties"])
	c.items(name, path, o["items"], n["items"])

	// The rest, keyword by keyword, in a stable order.
	keys := map[string]bool{}
	for k := range o {
		keys[k] = true
	}
	for k := range n {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		switch {
		case slices.Contains(handled, k), slices.Contains(constraints, k), lowerBounds[k] != "", upperBounds[k] != "":
			continue
		case param && (k == "sensitive" || k == "x-sensitive"):
			continue // a parameter's sensitivity is compared on its own
		}
		ov, inO := o[k]
		nv, inN := n[k]
		if inO && inN && sameJSON(ov, nv) {
			continue
		}
		switch {
		case k == "default":
			c.defaults(name, subj, fld, ov, nv, inO, inN)
		case slices.Contains(opaque, k) && inN:
			c.add(Breaking, name, fld, "%s: its %s changed from %s to %s: Glass cannot tell whether it still accepts what it accepted", subj, printable(k), shown(ov, inO), shown(nv, inN))
		case slices.Contains(opaque, k):
			c.add(NeedsReview, name, fld, "%s: its %s was removed: it may accept more than it did", subj, printable(k))
		default: // an annotation, or a keyword JSON Schema does not define (validators ignore those)
			c.add(NeedsReview, name, fld, "%s: its %s changed from %s to %s", subj, printable(k), shown(ov, inO), shown(nv, inN))
		}
	}
}

func shown(v any, present bool) string {
	if !present {
		return "none"
	}
	return jsonText(v)
}

func (c *comparison) defaults(name, subj, fld string, ov, nv any, inO, inN bool) {
	switch {
	case !inO:
		c.add(NeedsReview, name, fld, "%s: now defaults to %s: a call that leaves it out gets that value", subj, jsonText(nv))
	case !inN:
		c.add(NeedsReview, name, fld, "%s: no longer defaults to %s", subj, jsonText(ov))
	default:
		c.add(NeedsReview, name, fld, "%s: default changed from %s to %s: a call that leaves it out behaves differently", subj, jsonText(ov), jsonText(nv))
	}
}

// typeSet reads "type": nil when absent (any type).
func typeSet(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		sort.Strings(out)
		return out
	}
	return nil
}

// accepts reports whether a value of type t passes a schema of types set.
func accepts(set []string, t string) bool {
	return slices.Contains(set, t) || t == "integer" && slices.Contains(set, "number")
}

func (c *comparison) types(name, subj, fld string, ov, nv any) {
	o, n := typeSet(ov), typeSet(nv)
	if slices.Equal(o, n) {
		return
	}
	switch {
	case o == nil:
		c.add(Breaking, name, fld, "%s: must now be of type %s (any type was accepted): other values are refused", subj, strings.Join(n, " or "))
		return
	case n == nil:
		c.add(NeedsReview, name, fld, "%s: now accepts any type (was %s)", subj, strings.Join(o, " or "))
		return
	}
	var lost []string
	for _, t := range o {
		if !accepts(n, t) {
			lost = append(lost, t)
		}
	}
	if len(lost) == 0 {
		c.add(NeedsReview, name, fld, "%s: type widened from %s to %s", subj, strings.Join(o, " or "), strings.Join(n, " or "))
		return
	}
	c.add(Breaking, name, fld, "%s: type changed from %s to %s: a value of type %s is refused", subj, strings.Join(o, " or "), strings.Join(n, " or "), strings.Join(lost, " or "))
}

func (c *comparison) enums(name, subj, fld string, o, n map[string]any) {
	oRec, nRec := o["x-glass-enum"] == RecordIDsEnum, n["x-glass-enum"] == RecordIDsEnum
	oe, oHas := o["enum"].([]any)
	ne, nHas := n["enum"].([]any)
	switch {
	case oRec && nRec:
		return
	case oRec && nHas:
		c.add(NeedsReview, name, fld, "%s: now an enum of %d fixed values, no longer the page's record ids", subj, len(ne))
		return
	case oHas && nRec:
		c.add(NeedsReview, name, fld, "%s: its values are now the page's record ids, no longer an enum of %d fixed values", subj, len(oe))
		return
	case oRec:
		c.add(NeedsReview, name, fld, "%s: no longer limited to the page's record ids", subj)
		return
	case nRec:
		c.add(Breaking, name, fld, "%s: now limited to the page's record ids: other values are refused", subj)
		return
	case !oHas && !nHas:
		return
	case !oHas:
		c.add(Breaking, name, fld, "%s: now limited to the values %s: other values are refused", subj, valueList(ne))
		return
	case !nHas:
		c.add(NeedsReview, name, fld, "%s: no longer limited to the values %s", subj, valueList(oe))
		return
	}
	lost, gained := setMinus(oe, ne), setMinus(ne, oe)
	switch {
	case len(lost) > 0 && len(gained) > 0:
		c.add(Breaking, name, fld, "%s: lost the enum %s %s (and gained %s): a call with it is refused", subj, plural("value", len(lost)), valueList(lost), valueList(gained))
	case len(lost) > 0:
		c.add(Breaking, name, fld, "%s: lost the enum %s %s: a call with it is refused", subj, plural("value", len(lost)), valueList(lost))
	case len(gained) > 0:
		c.add(NeedsReview, name, fld, "%s: gained the enum %s %s", subj, plural("value", len(gained)), valueList(gained))
	}
}

func plural(word string, n int) string {
	switch {
	case n == 1:
		return word
	case strings.HasSuffix(word, "y"):
		return strings.TrimSuffix(word, "y") + "ies"
	}
	return word + "s"
}

// setMinus lists the values of a that b lacks, compared as JSON.
func setMinus(a, b []any) []any {
	var out []any
	for _, v := range a {
		if !slices.ContainsFunc(b, func(w any) bool { return sameJSON(v, w) }) {
			out = append(out, v)
		}
	}
	return out
}

// maxListed bounds the values a sentence lists.
const maxListed = 5

func valueList(vs []any) string {
	var parts []string
	for i, v := range vs {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(vs)-i))
			break
		}
		parts = append(parts, jsonText(v))
	}
	return strings.Join(parts, ", ")
}

func (c *comparison) constraint(name, subj, fld, k string, o, n map[string]any) {
	ov, inO := o[k]
	nv, inN := n[k]
	switch {
	case !inO && !inN, inO && inN && sameJSON(ov, nv):
	case !inO:
		c.add(Breaking, name, fld, "%s: now has the %s %s: values it does not allow are refused", subj, k, jsonText(nv))
	case !inN:
		c.add(NeedsReview, name, fld, "%s: no longer has the %s %s", subj, k, jsonText(ov))
	default:
		c.add(Breaking, name, fld, "%s: %s changed from %s to %s: values the old one accepted may be refused", subj, k, jsonText(ov), jsonText(nv))
	}
}

// bound compares a numeric bound; dir is 1 for a lower bound (raising it
// narrows) and -1 for an upper one (lowering it narrows).
func (c *comparison) bound(name, subj, fld, k string, o, n map[string]any, dir int, refused string) {
	ov, inO := o[k]
	nv, inN := n[k]
	if !inO && !inN || inO && inN && sameJSON(ov, nv) {
		return
	}
	or, oNum := number(ov)
	nr, nNum := number(nv)
	switch {
	case !inO:
		c.add(Breaking, name, fld, "%s: now has the %s %s: %s", subj, k, jsonText(nv), refused)
	case !inN:
		c.add(NeedsReview, name, fld, "%s: no longer has the %s %s", subj, k, jsonText(ov))
	case !oNum || !nNum:
		c.add(Breaking, name, fld, "%s: %s changed from %s to %s: values the old one accepted may be refused", subj, k, jsonText(ov), jsonText(nv))
	case or.Cmp(nr)*dir < 0:
		verb := "raised"
		if dir < 0 {
			verb = "lowered"
		}
		c.add(Breaking, name, fld, "%s: %s %s from %s to %s: %s", subj, k, verb, jsonText(ov), jsonText(nv), refused)
	default:
		verb := "lowered"
		if dir < 0 {
			verb = "raised"
		}
		c.add(NeedsReview, name, fld, "%s: %s %s from %s to %s", subj, k, verb, jsonText(ov), jsonText(nv))
	}
}

func number(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case float64:
		s = fmt.Sprint(x)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// object compares properties and required.
func (c *comparison) object(name, path string, o, n map[string]any) {
	op, _ := o["properties"].(map[string]any)
	np, _ := n["properties"].(map[string]any)
	or, nr := stringSet(o["required"]), stringSet(n["required"])
	closed := n["additionalProperties"] == false
	names := map[string]bool{}
	for k := range op {
		names[k] = true
	}
	for k := range np {
		names[k] = true
	}
	for k := range or {
		names[k] = true
	}
	for k := range nr {
		names[k] = true
	}
	for _, k := range sortedKeys(names) {
		p := child(path, k)
		subj, fld := subject(p), field(p)
		oSchema, inO := op[k]
		nSchema, inN := np[k]
		switch {
		case inO && !inN:
			if closed {
				c.add(Breaking, name, fld, "%s removed: a call that passes it is refused", subj)
			} else {
				c.add(Breaking, name, fld, "%s removed: a value passed for it is ignored", subj)
			}
			continue
		case !inO && inN && nr[k] && !or[k]:
			c.add(Breaking, name, fld, "new required %s: a call without it is refused", subj)
			continue
		case !inO && inN && !nr[k]:
			c.add(NeedsReview, name, fld, "new optional %s", subj)
		}
		switch {
		case nr[k] && !or[k]:
			c.add(Breaking, name, fld, "%s is now required: a call without it is refused", subj)
		case or[k] && !nr[k] && inN:
			c.add(NeedsReview, name, fld, "%s is no longer required", subj)
		}
		if inO && inN {
			om, _ := oSchema.(map[string]any)
			nm, _ := nSchema.(map[string]any)
			c.subschema(name, p, oSchema, nSchema, om, nm, path == "")
		}
	}
}

// subschema compares two schemas that may be booleans: true (or absent)
// accepts anything, false nothing.
func (c *comparison) subschema(name, path string, ov, nv any, om, nm map[string]any, param bool) {
	oFalse, nFalse := ov == false, nv == false
	switch {
	case oFalse && nFalse:
	case nFalse:
		c.add(Breaking, name, field(path), "%s: now accepts no value at all", subject(path))
	case oFalse:
		c.add(NeedsReview, name, field(path), "%s: now accepts values (it accepted none)", subject(path))
	default:
		c.schema(name, path, orEmpty(om), orEmpty(nm), param)
	}
}

func (c *comparison) additional(name, path string, ov, nv any) {
	if ov == nil && nv == nil || sameJSON(ov, nv) {
		return
	}
	subj, fld := subject(path), field(path)
	om, oSchema := ov.(map[string]any)
	nm, nSchema := nv.(map[string]any)
	oOpen, nOpen := ov == nil || ov == true, nv == nil || nv == true
	switch {
	case oOpen && nOpen:
	case nv == false && !oSchema:
		c.add(Breaking, name, fld, "%s: undeclared members are now refused", subj)
	case nv == false:
		c.add(Breaking, name, fld, "%s: undeclared members are now refused (a schema checked them)", subj)
	case ov == false && nOpen:
		c.add(NeedsReview, name, fld, "%s: now accepts undeclared members", subj)
	case ov == false:
		c.add(NeedsReview, name, fld, "%s: now accepts undeclared members, checked against a schema", subj)
	case nSchema || oSchema:
		c.schema(name, child(path, "*"), orEmpty(om), orEmpty(nm), false)
	}
}

func (c *comparison) items(name, path string, ov, nv any) {
	if ov == nil && nv == nil || sameJSON(ov, nv) {
		return
	}
	om, _ := ov.(map[string]any)
	nm, _ := nv.(map[string]any)
	c.subschema(name, path+"[]", ov, nv, om, nm, false)
}

func stringSet(v any) map[string]bool {
	out := map[string]bool{}
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out[s] = true
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sameJSON compares two decoded JSON values as JSON: numbers by value.
func sameJSON(a, b any) bool {
	if ra, ok := number(a); ok {
		rb, ok := number(b)
		return ok && ra.Cmp(rb) == 0
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// compactJSON is v as one line of JSON, HTML characters left as they are.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimRight(b.String(), "\n")
}
