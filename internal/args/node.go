package args

import (
	"encoding/json"
	"fmt"
	"strings"
)

// node is the part of a JSON Schema the builder reads. The validator reads
// the whole schema; a keyword the builder ignores can only make it fail
// with an error, never return a value the schema rejects.
type node struct {
	never bool // the schema false: no value is valid

	Type             json.RawMessage  `json:"type"`
	Properties       map[string]*node `json:"properties"`
	Required         []string         `json:"required"`
	Enum             []any            `json:"enum"`
	Const            jsonValue        `json:"const"`
	Default          jsonValue        `json:"default"`
	MinLength        *int             `json:"minLength"`
	MaxLength        *int             `json:"maxLength"`
	Minimum          *float64         `json:"minimum"`
	Maximum          *float64         `json:"maximum"`
	ExclusiveMinimum json.RawMessage  `json:"exclusiveMinimum"`
	ExclusiveMaximum json.RawMessage  `json:"exclusiveMaximum"`
	MultipleOf       *float64         `json:"multipleOf"`
	Pattern          string           `json:"pattern"`
	Format           string           `json:"format"`
	Items            *node            `json:"items"`
	PrefixItems      []*node          `json:"prefixItems"`
	MinItems         *int             `json:"minItems"`
	MaxItems         *int             `json:"maxItems"`
	UniqueItems      bool             `json:"uniqueItems"`
	MinProperties    *int             `json:"minProperties"`
	OneOf            []*node          `json:"oneOf"`
	AnyOf            []*node          `json:"anyOf"`
	AllOf            []*node          `json:"allOf"`
	Ref              string           `json:"$ref"`
	Defs             map[string]*node `json:"$defs"`
	Definitions      map[string]*node `json:"definitions"`
	Sensitive        bool             `json:"sensitive"`
	XSensitive       bool             `json:"x-sensitive"`

	AdditionalProperties *node `json:"additionalProperties"`
}

// jsonValue is a keyword whose value may be any JSON, null included: a
// const of null is not an absent const. (encoding/json calls UnmarshalJSON
// of a non-pointer field for null too.)
type jsonValue struct {
	v   any
	set bool
}

func (j *jsonValue) UnmarshalJSON(b []byte) error {
	j.set = true
	return json.Unmarshal(b, &j.v)
}

// UnmarshalJSON reads a schema, or a boolean schema: true accepts every
// value, false none.
func (n *node) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "true":
		*n = node{}
		return nil
	case "false":
		*n = node{never: true}
		return nil
	}
	type plain node
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*n = node(p)
	return nil
}

// types returns the declared type names.
func (n *node) types() []string {
	if len(n.Type) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(n.Type, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(n.Type, &many)
	return many
}

func (n *node) sensitive() bool { return n.Sensitive || n.XSensitive }

// composed returns the subschemas of anyOf, oneOf and allOf, nil when
// there are none.
func (n *node) composed() []*node {
	if len(n.AnyOf)+len(n.OneOf)+len(n.AllOf) == 0 {
		return nil
	}
	return append(append(append([]*node(nil), n.AllOf...), n.AnyOf...), n.OneOf...)
}

// number reads exclusiveMinimum or exclusiveMaximum: a number in JSON
// Schema 2019-09 and later (a boolean in draft 4, which this package
// leaves to the validator).
func number(raw json.RawMessage) *float64 {
	var f float64
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil {
		return nil
	}
	return &f
}

// merge returns n with the keywords of o laid over it: o's scalar
// keywords win, properties are merged, required lists are joined. It is
// how the builder reads allOf, and a branch of anyOf or oneOf together
// with the keywords beside it.
func merge(n, o *node) *node {
	m := *n
	m.AllOf, m.AnyOf, m.OneOf = nil, nil, nil
	if o.never {
		m.never = true
	}
	if len(o.Type) > 0 {
		m.Type = o.Type
	}
	if len(o.Properties) > 0 {
		props := make(map[string]*node, len(n.Properties)+len(o.Properties))
		for k, v := range n.Properties {
			props[k] = v
		}
		for k, v := range o.Properties {
			if old, ok := props[k]; ok {
				props[k] = merge(old, v)
			} else {
				props[k] = v
			}
		}
		m.Properties = props
	}
	for _, r := range o.Required {
		if !contains(m.Required, r) {
			m.Required = append(append([]string(nil), m.Required...), r)
		}
	}
	if len(o.Enum) > 0 {
		m.Enum = o.Enum
	}
	if o.Const.set {
		m.Const = o.Const
	}
	if o.Default.set {
		m.Default = o.Default
	}
	m.MinLength = maxInt(m.MinLength, o.MinLength)
	m.MaxLength = minInt(m.MaxLength, o.MaxLength)
	m.MinItems = maxInt(m.MinItems, o.MinItems)
	m.MaxItems = minInt(m.MaxItems, o.MaxItems)
	m.MinProperties = maxInt(m.MinProperties, o.MinProperties)
	if o.Minimum != nil && (m.Minimum == nil || *o.Minimum > *m.Minimum) {
		m.Minimum = o.Minimum
	}
	if o.Maximum != nil && (m.Maximum == nil || *o.Maximum < *m.Maximum) {
		m.Maximum = o.Maximum
	}
	if len(o.ExclusiveMinimum) > 0 {
		m.ExclusiveMinimum = o.ExclusiveMinimum
	}
	if len(o.ExclusiveMaximum) > 0 {
		m.ExclusiveMaximum = o.ExclusiveMaximum
	}
	if o.MultipleOf != nil {
		m.MultipleOf = o.MultipleOf
	}
	if o.Pattern != "" {
		m.Pattern = o.Pattern
	}
	if o.Format != "" {
		m.Format = o.Format
	}
	if o.Items != nil {
		m.Items = o.Items
	}
	if len(o.PrefixItems) > 0 {
		m.PrefixItems = o.PrefixItems
	}
	m.UniqueItems = m.UniqueItems || o.UniqueItems
	if o.AdditionalProperties != nil {
		m.AdditionalProperties = o.AdditionalProperties
	}
	if o.Ref != "" {
		m.Ref = o.Ref
	}
	m.Sensitive = m.Sensitive || o.Sensitive
	m.XSensitive = m.XSensitive || o.XSensitive
	// A composition inside a branch is read when the merged node is
	// built.
	m.AllOf, m.AnyOf, m.OneOf = o.AllOf, o.AnyOf, o.OneOf
	return &m
}

func maxInt(a, b *int) *int {
	if a == nil || b != nil && *b > *a {
		return b
	}
	return a
}

func minInt(a, b *int) *int {
	if a == nil || b != nil && *b < *a {
		return b
	}
	return a
}

// resolve follows a $ref inside the document: "#", "#/$defs/name",
// "#/definitions/name", or any JSON Pointer into it. It returns the target
// and its pointer.
func (d *document) resolve(ref string) (*node, string, error) {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, "", fmt.Errorf("$ref %q: only references inside the params schema (#/...) are followed", ref)
	}
	n := d.root
	if ptr == "" {
		return n, "", nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, "", fmt.Errorf("$ref %q: want a JSON Pointer such as #/$defs/name", ref)
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		var next *node
		switch {
		case n == nil:
		case tok == "$defs":
			next = &node{Properties: n.Defs}
		case tok == "definitions":
			next = &node{Properties: n.Definitions}
		case tok == "properties":
			next = &node{Properties: n.Properties}
		case tok == "items":
			next = n.Items
		case tok == "additionalProperties":
			next = n.AdditionalProperties
		default:
			next = n.Properties[tok]
		}
		if next == nil {
			return nil, "", fmt.Errorf("$ref %q: nothing there", ref)
		}
		n = next
	}
	return n, ptr, nil
}

// checkPatterns translates every pattern of the schema, and returns the
// first that cannot be, with the JSON Pointer of its place.
func (n *node) checkPatterns(ptr string) error {
	if n == nil {
		return nil
	}
	if n.Pattern != "" {
		if _, err := compileECMA(n.Pattern); err != nil {
			return fmt.Errorf("%s/pattern: %w", ptr, err)
		}
	}
	for _, k := range sortedKeys(n.Properties) {
		if err := n.Properties[k].checkPatterns(ptr + "/properties/" + escapePointer(k)); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(n.Defs) {
		if err := n.Defs[k].checkPatterns(ptr + "/$defs/" + escapePointer(k)); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(n.Definitions) {
		if err := n.Definitions[k].checkPatterns(ptr + "/definitions/" + escapePointer(k)); err != nil {
			return err
		}
	}
	if err := n.Items.checkPatterns(ptr + "/items"); err != nil {
		return err
	}
	if err := n.AdditionalProperties.checkPatterns(ptr + "/additionalProperties"); err != nil {
		return err
	}
	for _, list := range []struct {
		name  string
		nodes []*node
	}{{"prefixItems", n.PrefixItems}, {"allOf", n.AllOf}, {"anyOf", n.AnyOf}, {"oneOf", n.OneOf}} {
		for i, sub := range list.nodes {
			if err := sub.checkPatterns(fmt.Sprintf("%s/%s/%d", ptr, list.name, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
