package conformance

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// schema is the part of an action's declared params (a JSON Schema) that
// the probes read to build valid and deliberately invalid arguments.
type schema struct {
	Type                 json.RawMessage    `json:"type"`
	Properties           map[string]*schema `json:"properties"`
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
	Items                *schema            `json:"items"`
	MinItems             *int               `json:"minItems"`
	OneOf                []json.RawMessage  `json:"oneOf"`
	AnyOf                []json.RawMessage  `json:"anyOf"`
	AllOf                []json.RawMessage  `json:"allOf"`
	Ref                  string             `json:"$ref"`
	Sensitive            bool               `json:"sensitive"`
	XSensitive           bool               `json:"x-sensitive"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
}

func parseSchema(raw json.RawMessage) (*schema, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return &schema{}, nil
	}
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("params is not a JSON Schema object: %w", err)
	}
	return &s, nil
}

// types returns the declared type names ("string", ["string","null"]).
func (s *schema) types() []string {
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

func (s *schema) hasType(t string) bool {
	for _, x := range s.types() {
		if x == t {
			return true
		}
	}
	return false
}

func (s *schema) sensitive() bool { return s.Sensitive || s.XSensitive }

// sensitiveRef is the name the probes give the sensitive value they pass.
const sensitiveRef = "glass-probe"

// synthesize builds a value s accepts: the first enum value, the default,
// or the smallest value of the declared type that meets the declared
// bounds. Required properties of objects are filled, optional ones left
// out. A sensitive string becomes a placeholder for secret. It returns an
// error naming what cannot be synthesized (a pattern, a format, oneOf).
func (s *schema) synthesize(path string, secret string) (any, error) {
	switch {
	case s.Ref != "" || len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.AllOf) > 0:
		return nil, fmt.Errorf("%s: cannot build a value for a composed schema ($ref, oneOf, anyOf, allOf)", pathOr(path))
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
	ts := s.types()
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
			return nil, fmt.Errorf("%s: cannot build a string for a pattern or format; name arguments for this action in the manifest", pathOr(path))
		}
		if s.sensitive() && secret != "" {
			if !s.fits(secret) {
				return nil, fmt.Errorf("%s: the probe's sensitive value does not fit the declared length", pathOr(path))
			}
			return map[string]string{"$sensitive": sensitiveRef}, nil
		}
		v := "glass probe"
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
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			item := s.Items
			if item == nil {
				item = &schema{}
			}
			v, err := item.synthesize(fmt.Sprintf("%s/%d", path, i), secret)
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
				ps = &schema{}
			}
			v, err := ps.synthesize(path+"/"+k, secret)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		// A sensitive property is passed even when optional: the leak
		// probe needs the runtime to restore and then hide it.
		for _, k := range sortedKeys(s.Properties) {
			if _, done := out[k]; !done && s.Properties[k].sensitive() && secret != "" {
				if v, err := s.Properties[k].synthesize(path+"/"+k, secret); err == nil {
					out[k] = v
				}
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: cannot build a value of type %q", pathOr(path), ts[0])
}

// fits reports whether the string v meets s's length bounds.
func (s *schema) fits(v string) bool {
	n := len([]rune(v))
	return (s.MinLength == nil || n >= *s.MinLength) && (s.MaxLength == nil || n <= *s.MaxLength)
}

func pathOr(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// wrongValue returns a value of a JSON type that s does not allow, or false
// when s allows every type.
func (s *schema) wrongValue() (any, string, bool) {
	ts := s.types()
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
			if s.hasType(t) {
				ok = false
			}
		}
		if ok {
			return c.value, c.name, true
		}
	}
	return nil, "", false
}

// outsideEnum returns a value of the enum's type that is not in it.
func (s *schema) outsideEnum() (any, bool) {
	if len(s.Enum) == 0 {
		return nil, false
	}
	in := func(v any) bool {
		for _, e := range s.Enum {
			if sameJSON(e, v) {
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
