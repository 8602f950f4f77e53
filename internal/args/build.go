package args

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds how deep the builder follows nested schemas and $refs:
// a required member that refers back to its own object has no finite
// value.
const maxDepth = 32

// MaxBuilt bounds what the builder makes from a schema's own numbers: a
// string of at most MaxBuilt characters, an array of at most MaxBuilt
// items. A page that asks for more (a minLength of two billion) gets an
// error, not a value that fills the machine's memory.
const MaxBuilt = 10000

// unknown is the pointer of a node that has no place in the document (a
// node merged from allOf, or a default): its value is checked with the
// enclosing node, and in the end with the whole schema.
const unknown = "-"

// sensitivePlaceholder is the member of a placeholder for a sensitive
// value (CONTRACT.md §2.3).
const sensitivePlaceholder = "$sensitive"

type builder struct {
	doc *document
	set settings
	// spent is what the build made so far, in characters of strings and
	// items of arrays: nested arrays multiply a page's numbers, so the
	// whole build is bounded by MaxBuilt too.
	spent int
}

// spend counts n more characters or items against MaxBuilt.
func (b *builder) spend(n int, path string) error {
	if b.spent += max(n, 0); b.spent > MaxBuilt || n > MaxBuilt {
		return fmt.Errorf("%s: the arguments would hold more than the %d characters and items the probe builds", at(path), MaxBuilt)
	}
	return nil
}

func at(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

func child(ptr, suffix string) string {
	if ptr == unknown {
		return unknown
	}
	return ptr + suffix
}

// ok reports whether the schema at ptr accepts v. A node without a place
// in the document, or one the validator cannot compile, is taken on
// trust here: the check of the whole value reports it.
func (b *builder) ok(ptr string, v any) bool {
	if ptr == unknown {
		return true
	}
	s, err := b.doc.validator(ptr)
	if err != nil {
		return true
	}
	return s.Validate(normalise(b.restore(v))) == nil
}

// restore replaces the placeholders of the sensitive value with the value,
// as a runtime does before it validates.
func (b *builder) restore(v any) any {
	switch x := v.(type) {
	case map[string]string:
		if name, ok := x[sensitivePlaceholder]; ok && len(x) == 1 && name == b.set.secretName {
			return b.set.secret
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = b.restore(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = b.restore(e)
		}
		return out
	}
	return v
}

// build returns a value for n, the schema at pointer ptr of the document,
// for the value at path. variant asks for the variant-th distinct value
// (the items of a uniqueItems array); 0 is the value Valid documents.
func (b *builder) build(n *node, ptr, path string, variant, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: the schema nests deeper than %d levels: a $ref cycle through required members has no finite value", at(path), maxDepth)
	}
	if n.never {
		return nil, fmt.Errorf("%s: the schema is false: it accepts no value", at(path))
	}
	if n.Ref != "" {
		target, tptr, err := b.doc.resolve(n.Ref)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at(path), err)
		}
		rest := *n
		rest.Ref = ""
		if isEmpty(&rest) {
			return b.build(target, tptr, path, variant, depth+1)
		}
		return b.build(merge(target, &rest), ptr, path, variant, depth+1)
	}
	if n.Const.set {
		return n.Const.v, nil
	}
	if len(n.Enum) > 0 {
		for i := range n.Enum {
			e := n.Enum[(i+variant)%len(n.Enum)]
			if b.ok(ptr, e) {
				return e, nil
			}
		}
		return nil, fmt.Errorf("%s: no value of the enum meets the rest of the schema", at(path))
	}
	if n.Default.set && variant == 0 && b.ok(ptr, n.Default.v) {
		return n.Default.v, nil
	}
	if n.composed() != nil {
		return b.buildComposed(n, ptr, path, variant, depth)
	}
	var firstErr error
	for _, t := range candidateTypes(n) {
		v, err := b.buildType(n, t, ptr, path, variant, depth)
		if err == nil && !b.ok(ptr, v) {
			err = fmt.Errorf("%s: the %s built for it does not meet the schema", at(path), t)
		}
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// isEmpty reports whether n has no keyword the builder reads.
func isEmpty(n *node) bool {
	return !n.never && len(n.Type) == 0 && len(n.Properties) == 0 && len(n.Required) == 0 && len(n.Enum) == 0 &&
		!n.Const.set && !n.Default.set && n.MinLength == nil && n.MaxLength == nil && n.Minimum == nil &&
		n.Maximum == nil && len(n.ExclusiveMinimum) == 0 && len(n.ExclusiveMaximum) == 0 && n.MultipleOf == nil &&
		n.Pattern == "" && n.Format == "" && n.Items == nil && len(n.PrefixItems) == 0 && n.MinItems == nil &&
		n.MaxItems == nil && !n.UniqueItems && n.MinProperties == nil && n.composed() == nil && n.Ref == "" &&
		!n.sensitive() && n.AdditionalProperties == nil
}

// buildComposed reads allOf as one schema laid over the keywords beside
// it, then tries the branches of anyOf (or else oneOf) in order: the first
// value the whole schema accepts wins.
func (b *builder) buildComposed(n *node, ptr, path string, variant, depth int) (any, error) {
	base := *n
	base.AllOf, base.AnyOf, base.OneOf = nil, nil, nil
	m := &base
	for _, sub := range n.AllOf {
		m = merge(m, sub)
		m.AllOf, m.AnyOf, m.OneOf = nil, nil, nil
	}
	branches, rest, name := n.AnyOf, n.OneOf, "anyOf"
	if len(branches) == 0 {
		branches, rest, name = n.OneOf, nil, "oneOf"
	}
	if len(branches) == 0 {
		return b.build(m, ptr, path, variant, depth+1)
	}
	var errs []string
	for i, br := range branches {
		cand := merge(m, br)
		if cand.OneOf == nil {
			cand.OneOf = rest
		}
		v, err := b.build(cand, ptr, path, variant, depth+1)
		if err == nil && b.ok(ptr, v) {
			return v, nil
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("branch %d: %v", i, err))
		}
	}
	msg := fmt.Sprintf("%s: no branch of %s gives a value the whole schema accepts", at(path), name)
	if len(errs) > 0 {
		msg += " (" + strings.Join(errs, "; ") + ")"
	}
	return nil, fmt.Errorf("%s", msg)
}

// candidateTypes returns the declared types, or the type the keywords
// imply; an unconstrained schema gets a string.
func candidateTypes(n *node) []string {
	if ts := n.types(); len(ts) > 0 {
		return ts
	}
	switch {
	case len(n.Properties) > 0 || len(n.Required) > 0 || n.MinProperties != nil:
		return []string{"object"}
	case n.Pattern != "" || n.Format != "" || n.MinLength != nil || n.MaxLength != nil:
		return []string{"string"}
	case n.Minimum != nil || n.Maximum != nil || len(n.ExclusiveMinimum) > 0 || len(n.ExclusiveMaximum) > 0 || n.MultipleOf != nil:
		return []string{"number"}
	case n.Items != nil || len(n.PrefixItems) > 0 || n.MinItems != nil || n.MaxItems != nil:
		return []string{"array"}
	}
	return []string{"string"}
}

func (b *builder) buildType(n *node, t, ptr, path string, variant, depth int) (any, error) {
	switch t {
	case "string":
		return b.buildString(n, ptr, path, variant)
	case "integer", "number":
		return buildNumber(n, t == "integer", path, variant)
	case "boolean":
		return variant%2 == 0, nil
	case "null":
		return nil, nil
	case "array":
		return b.buildArray(n, ptr, path, depth)
	case "object":
		return b.buildObject(n, ptr, path, depth)
	}
	return nil, fmt.Errorf("%s: cannot build a value of type %q", at(path), t)
}

// plainString is the string built where the schema asks only for a
// string: readable in a generated spec and in a page's own list.
const plainString = "glass probe"

func (b *builder) buildString(n *node, ptr, path string, variant int) (any, error) {
	if n.sensitive() && b.set.secretName != "" {
		if !b.ok(ptr, b.set.secret) || !fits(n, b.set.secret) {
			return nil, fmt.Errorf("%s: the probe's sensitive value does not meet the declared schema", at(path))
		}
		return map[string]string{sensitivePlaceholder: b.set.secretName}, nil
	}
	lo, hi := lengthBounds(n)
	if lo > MaxBuilt {
		return nil, fmt.Errorf("%s: minLength %d is more than the %d characters the probe builds a string of", at(path), lo, MaxBuilt)
	}
	if err := b.spend(max(lo, len(plainString)), path); err != nil {
		return nil, err
	}
	v := plainString
	if variant > 0 {
		v += " " + strconv.Itoa(variant+1)
	}
	if c := utf8.RuneCountInString(v); c < lo {
		v += strings.Repeat("x", lo-c)
	}
	if hi >= 0 && utf8.RuneCountInString(v) > hi {
		v = string([]rune(v)[:hi])
	}
	if n.Pattern != "" {
		// A loose pattern (\S: not blank) takes the plain string, which
		// reads better in a spec than a generated one.
		if re, err := compileECMA(n.Pattern); err == nil && re.MatchString(v) && b.ok(ptr, v) {
			return v, nil
		}
		v, err := generate(n.Pattern, lo, hi, variant, func(s string) bool { return b.ok(ptr, s) && plausible(n.Format, s) })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at(path), err)
		}
		return v, nil
	}
	if n.Format != "" {
		if v, known, err := formatString(n.Format, lo, hi, variant, func(s string) bool { return b.ok(ptr, s) }); known {
			if err != nil {
				return nil, fmt.Errorf("%s: %w", at(path), err)
			}
			return v, nil
		}
	}
	return v, nil
}

// plausible adds to the validator's format checks what it lets through
// and a page's own validation would not: an email address with an empty
// local part.
func plausible(format, s string) bool {
	switch format {
	case "email", "idn-email":
		local, domain, ok := strings.Cut(s, "@")
		return ok && local != "" && domain != ""
	}
	return true
}

// lengthBounds returns minLength and maxLength, -1 for no maximum.
func lengthBounds(n *node) (lo, hi int) {
	hi = -1
	if n.MinLength != nil {
		lo = *n.MinLength
	}
	if n.MaxLength != nil {
		hi = *n.MaxLength
	}
	return lo, hi
}

// fits reports whether s meets n's length bounds, counted both ways a
// length is counted: in code points (JSON Schema) and in UTF-16 units
// (String.length, as a page runtime counts).
func fits(n *node, s string) bool {
	lo, hi := lengthBounds(n)
	return lengthOK(s, lo, hi)
}

func lengthOK(s string, lo, hi int) bool {
	cp, u16 := utf8.RuneCountInString(s), utf16Len(s)
	return cp >= lo && u16 >= lo && (hi < 0 || cp <= hi && u16 <= hi)
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// buildNumber returns the number 1, or the smallest number within the
// declared bounds (a multiple of multipleOf when declared), moved up by
// variant for the items of a uniqueItems array.
func buildNumber(n *node, integer bool, path string, variant int) (any, error) {
	lo, hi := math.Inf(-1), math.Inf(1)
	loEx, hiEx := false, false
	if n.Minimum != nil {
		lo = *n.Minimum
	}
	if x := number(n.ExclusiveMinimum); x != nil && *x >= lo {
		lo, loEx = *x, true
	}
	if n.Maximum != nil {
		hi = *n.Maximum
	}
	if x := number(n.ExclusiveMaximum); x != nil && *x <= hi {
		hi, hiEx = *x, true
	}
	step := 1.0
	if n.MultipleOf != nil && *n.MultipleOf > 0 {
		step = *n.MultipleOf
	}
	above := func(v float64) bool { return v > lo || !loEx && v == lo }
	below := func(v float64) bool { return v < hi || !hiEx && v == hi }
	align := func(v float64) float64 {
		if n.MultipleOf != nil && *n.MultipleOf > 0 {
			v = math.Ceil(v/step) * step
		}
		if integer {
			v = math.Ceil(v)
		}
		return v
	}
	v := 1.0
	if !math.IsInf(lo, -1) {
		v = lo
	} else if !math.IsInf(hi, 1) && hi < 1 {
		v = math.Floor(hi)
		if hiEx && v >= hi {
			v -= step
		}
	}
	v = align(v)
	// An exclusive bound moves the value one step up; a few steps are
	// enough unless the step vanishes next to the value's magnitude.
	for i := 0; i < 3 && !above(v); i++ {
		v = align(v + step)
	}
	v += float64(variant) * step
	if !below(v) && n.MultipleOf == nil && !integer && !math.IsInf(lo, -1) {
		v = (lo + hi) / 2 // a real number strictly between close bounds
	}
	if !above(v) || !below(v) {
		return nil, fmt.Errorf("%s: no %s lies within the declared bounds", at(path), map[bool]string{true: "integer", false: "number"}[integer])
	}
	return v, nil
}

func (b *builder) buildArray(n *node, ptr, path string, depth int) (any, error) {
	count := 0
	if n.MinItems != nil {
		count = *n.MinItems
	}
	if count > MaxBuilt {
		return nil, fmt.Errorf("%s: minItems %d is more than the %d items the probe builds an array of", at(path), count, MaxBuilt)
	}
	if err := b.spend(count, path); err != nil {
		return nil, err
	}
	out := make([]any, 0, max(count, 0))
	for i := 0; i < count; i++ {
		item, iptr := n.Items, child(ptr, "/items")
		if i < len(n.PrefixItems) {
			item, iptr = n.PrefixItems[i], child(ptr, "/prefixItems/"+strconv.Itoa(i))
		}
		if item == nil {
			item, iptr = &node{}, unknown
		}
		variant := 0
		if n.UniqueItems {
			variant = i
		}
		v, err := b.build(item, iptr, path+"/"+strconv.Itoa(i), variant, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (b *builder) buildObject(n *node, ptr, path string, depth int) (any, error) {
	out := map[string]any{}
	prop := func(k string) (*node, string) {
		if p, ok := n.Properties[k]; ok {
			return p, child(ptr, "/properties/"+escapePointer(k))
		}
		if n.AdditionalProperties != nil {
			return n.AdditionalProperties, child(ptr, "/additionalProperties")
		}
		return &node{}, unknown
	}
	for _, k := range n.Required {
		p, pptr := prop(k)
		v, err := b.build(p, pptr, path+"/"+escapePointer(k), 0, depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	// A sensitive property is passed even when optional: the leak probes
	// need the runtime to restore and then hide it.
	if b.set.secretName != "" {
		for _, k := range sortedKeys(n.Properties) {
			if _, done := out[k]; !done && n.Properties[k].sensitive() {
				p, pptr := prop(k)
				if v, err := b.build(p, pptr, path+"/"+escapePointer(k), 0, depth+1); err == nil {
					out[k] = v
				}
			}
		}
	}
	if n.MinProperties != nil {
		for _, k := range sortedKeys(n.Properties) {
			if len(out) >= *n.MinProperties {
				break
			}
			if _, done := out[k]; done {
				continue
			}
			p, pptr := prop(k)
			v, err := b.build(p, pptr, path+"/"+escapePointer(k), 0, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
	}
	return out, nil
}
