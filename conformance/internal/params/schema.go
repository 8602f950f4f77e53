package params

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/glassworks/glass/internal/args"
)

// Schema is the part of an action's declared params (a JSON Schema) that
// the probes read to build valid and deliberately invalid arguments.
type Schema struct {
	Type                 json.RawMessage    `json:"type"`
	Properties           map[string]*Schema `json:"properties"`
	Required             []string           `json:"required"`
	Enum                 []any              `json:"enum"`
	Const                json.RawMessage    `json:"const"`
	Default              json.RawMessage    `json:"default"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	Pattern              string             `json:"pattern"`
	Format               string             `json:"format"`
	Items                *Schema            `json:"items"`
	MinItems             *int               `json:"minItems"`
	OneOf                []json.RawMessage  `json:"oneOf"`
	AnyOf                []json.RawMessage  `json:"anyOf"`
	AllOf                []json.RawMessage  `json:"allOf"`
	Ref                  string             `json:"$ref"`
	Sensitive            bool               `json:"sensitive"`
	XSensitive           bool               `json:"x-sensitive"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
}

func ParseSchema(raw json.RawMessage) (*Schema, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return &Schema{}, nil
	}
	var s Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("params is not a JSON Schema object: %w", err)
	}
	return &s, nil
}

// Types returns the declared type names ("string", ["string","null"]).
func (s *Schema) Types() []string {
	if len(s.Type) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(s.Type, &many)
	return many
}

func (s *Schema) HasType(t string) bool {
	for _, x := range s.Types() {
		if x == t {
			return true
		}
	}
	return false
}

func (s *Schema) IsSensitive() bool { return s.Sensitive || s.XSensitive }

// SensitiveRef is the name the probes give the sensitive value they pass.
const SensitiveRef = "glass-probe"

// Synthesize builds a value s accepts: the first enum value, the default,
// or the smallest value of the declared type that meets the declared
// bounds. Required properties of objects are filled, optional ones left
// out. A sensitive string becomes a placeholder for secret. It returns an
// error naming what cannot be synthesized (a pattern, a format, oneOf).
func (s *Schema) Synthesize(path string, secret string) (any, error) {
	spent := 0
	return s.synthesize(path, secret, &spent)
}

// synthesize is Synthesize counting, in spent, the characters and items it
// made: nested arrays multiply a page's numbers, so the whole value is
// bounded by args.MaxBuilt.
func (s *Schema) synthesize(path string, secret string, spent *int) (any, error) {
	switch {
	case s.Ref != "" || len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.AllOf) > 0:
		return nil, fmt.Errorf("%s: cannot build a value for a composed schema ($ref, oneOf, anyOf, allOf)", PathOr(path))
	case len(s.Const) > 0:
		var v any
		_ = json.Unmarshal(s.Const, &v)
		return v, nil
	case len(s.Enum) > 0:
		return s.Enum[0], nil
	case len(s.Default) > 0:
		var v any
		_ = json.Unmarshal(s.Default, &v)
		return v, nil
	}
	ts := s.Types()
	if len(ts) == 0 {
		if len(s.Properties) > 0 {
			ts = []string{"object"}
		} else {
			return "glass probe", nil
		}
	}
	switch ts[0] {
	case "string":
		if s.Pattern != "" || s.Format != "" {
			// As init builds it (internal/args): a string the pattern
			// matches, or a canonical value of the format, within the
			// declared lengths. A sensitive one is passed as it is: the
			// probe's secret matches no pattern.
			v, err := patternString(s, path)
			if str, ok := v.(string); ok && err == nil {
				if *spent += len(str); *spent > args.MaxBuilt {
					return nil, fmt.Errorf("%s: the arguments would hold more than the %d characters and items the probe builds; name arguments for this action in the manifest", PathOr(path), args.MaxBuilt)
				}
			}
			return v, err
		}
		if s.IsSensitive() && secret != "" {
			if !s.Fits(secret) {
				return nil, fmt.Errorf("%s: the probe's sensitive value does not fit the declared length", PathOr(path))
			}
			return map[string]string{"$sensitive": SensitiveRef}, nil
		}
		v := "glass probe"
		if s.MinLength != nil && *s.MinLength > args.MaxBuilt {
			return nil, fmt.Errorf("%s: minLength %d is more than the %d characters the probe builds a string of; name arguments for this action in the manifest", PathOr(path), *s.MinLength, args.MaxBuilt)
		}
		if s.MinLength != nil {
			*spent += max(*s.MinLength, 0)
		}
		if *spent += len(v); *spent > args.MaxBuilt {
			return nil, fmt.Errorf("%s: the arguments would hold more than the %d characters and items the probe builds; name arguments for this action in the manifest", PathOr(path), args.MaxBuilt)
		}
		if s.MinLength != nil && len(v) < *s.MinLength {
			v += strings.Repeat("x", *s.MinLength-len(v))
		}
		if s.MaxLength != nil && len(v) > *s.MaxLength {
			v = v[:*s.MaxLength]
		}
		return v, nil
	case "integer", "number":
		v := 1.0
		if s.Minimum != nil {
			v = math.Ceil(*s.Minimum)
		}
		if s.Maximum != nil && v > *s.Maximum {
			v = math.Floor(*s.Maximum)
		}
		return v, nil
	case "boolean":
		return true, nil
	case "null":
		return nil, nil
	case "array":
		n := 0
		if s.MinItems != nil {
			n = *s.MinItems
		}
		if n > args.MaxBuilt {
			return nil, fmt.Errorf("%s: minItems %d is more than the %d items the probe builds an array of; name arguments for this action in the manifest", PathOr(path), n, args.MaxBuilt)
		}
		if *spent += max(n, 0); *spent > args.MaxBuilt {
			return nil, fmt.Errorf("%s: the arguments would hold more than the %d characters and items the probe builds; name arguments for this action in the manifest", PathOr(path), args.MaxBuilt)
		}
		out := make([]any, 0, max(n, 0))
		for i := 0; i < n; i++ {
			item := s.Items
			if item == nil {
				item = &Schema{}
			}
			v, err := item.synthesize(fmt.Sprintf("%s/%d", path, i), secret, spent)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "object":
		out := map[string]any{}
		for _, k := range s.Required {
			ps := s.Properties[k]
			if ps == nil {
				ps = &Schema{}
			}
			v, err := ps.synthesize(path+"/"+k, secret, spent)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		// A sensitive property is passed even when optional: the leak
		// probe needs the runtime to restore and then hide it.
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			if _, done := out[k]; !done && s.Properties[k].IsSensitive() && secret != "" {
				if v, err := s.Properties[k].synthesize(path+"/"+k, secret, spent); err == nil {
					out[k] = v
				}
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: cannot build a value of type %q", PathOr(path), ts[0])
}

// Fits reports whether the string v meets s's length bounds.
func (s *Schema) Fits(v string) bool {
	n := len([]rune(v))
	return (s.MinLength == nil || n >= *s.MinLength) && (s.MaxLength == nil || n <= *s.MaxLength)
}

func PathOr(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// WrongValue returns a value of a JSON type that s does not allow, or false
// when s allows every type.
func (s *Schema) WrongValue() (any, string, bool) {
	ts := s.Types()
	if len(ts) == 0 {
		return nil, "", false
	}
	candidates := []struct {
		value any
		types []string
		name  string
	}{
		{12345, []string{"integer", "number"}, "a number"},
		{"glass probe", []string{"string"}, "a string"},
		{true, []string{"boolean"}, "a boolean"},
		{[]any{}, []string{"array"}, "an array"},
		{map[string]any{}, []string{"object"}, "an object"},
	}
	for _, c := range candidates {
		ok := true
		for _, t := range c.types {
			if s.HasType(t) {
				ok = false
			}
		}
		if ok {
			return c.value, c.name, true
		}
	}
	return nil, "", false
}

// OutsideEnum returns a value of the enum's type that is not in it.
func (s *Schema) OutsideEnum() (any, bool) {
	if len(s.Enum) == 0 {
		return nil, false
	}
	in := func(v any) bool {
		for _, e := range s.Enum {
			if SameJSON(e, v) {
				return true
			}
		}
		return false
	}
	var candidates []any
	switch s.Enum[0].(type) {
	case float64:
		candidates = []any{-987654321.0, 987654321.0}
	case bool:
		candidates = []any{!s.Enum[0].(bool)}
	default:
		candidates = []any{"glass-probe-not-in-enum", "GLASS-PROBE-NOT-IN-ENUM"}
	}
	for _, c := range candidates {
		if !in(c) {
			return c, true
		}
	}
	return nil, false
}

func SameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// WideChar is one character outside Unicode's Basic Multilingual Plane:
// one code point, as JSON Schema's minLength and maxLength count (and
// CONTRACT.md's bounds), but two UTF-16 code units and four UTF-8 bytes. A
// string of n of them has length n only to a runtime that counts code
// points.
const WideChar = "\U0001F9EA"

// patternString builds a string s's pattern matches, or of s's format,
// within its declared lengths, with the generator init uses.
func patternString(s *Schema, path string) (any, error) {
	sub := map[string]any{"type": "string"}
	if s.Pattern != "" {
		sub["pattern"] = s.Pattern
	}
	if s.Format != "" {
		sub["format"] = s.Format
	}
	if s.MinLength != nil {
		sub["minLength"] = *s.MinLength
	}
	if s.MaxLength != nil {
		sub["maxLength"] = *s.MaxLength
	}
	raw, _ := json.Marshal(sub)
	a, err := args.Parse(raw)
	if err == nil {
		var v any
		if v, err = a.Valid(); err == nil {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%s: cannot build a string for the pattern or format (%v); name arguments for this action in the manifest", PathOr(path), err)
}
