package surface

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
)

// RecordIDsEnum is the value of "x-glass-enum" that stands for an enum
// listing exactly the page's record ids.
const RecordIDsEnum = "record-ids"

// Keywords whose values are schemas, lists of schemas, or maps of schemas
// (JSON Schema draft 2020-12 and the drafts before it): canonicalising
// follows them and nothing else, so that a property named "required" is
// never taken for the keyword.
var (
	schemaKeywords    = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	schemaListKeyword = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMapKeywords = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

// canonicalParams decodes a params schema and canonicalises it: required
// and type lists sorted and without duplicates, an enum of the page's
// record ids replaced by "x-glass-enum": "record-ids". It returns the
// sensitive parameters too: the properties of the schema's own
// properties that say "sensitive" or "x-sensitive": true, as the
// reference runtime reads them.
func canonicalParams(raw json.RawMessage, records recordSet) (map[string]any, []string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil
	}
	canonicalSchema(m, records)
	return m, sensitiveOf(m)
}

func canonicalSchema(m map[string]any, records recordSet) {
	for _, k := range []string{"required", "type"} {
		if list, ok := m[k].([]any); ok {
			m[k] = sortedStrings(list)
		}
	}
	if enum, ok := m["enum"].([]any); ok && records.enumerates(enum) {
		delete(m, "enum")
		m["x-glass-enum"] = RecordIDsEnum
	}
	for _, k := range schemaKeywords {
		if sub, ok := m[k].(map[string]any); ok {
			canonicalSchema(sub, records)
		}
	}
	for _, k := range schemaListKeyword {
		if list, ok := m[k].([]any); ok {
			for _, it := range list {
				if sub, ok := it.(map[string]any); ok {
					canonicalSchema(sub, records)
				}
			}
		}
	}
	for _, k := range schemaMapKeywords {
		if props, ok := m[k].(map[string]any); ok {
			for _, it := range props {
				if sub, ok := it.(map[string]any); ok {
					canonicalSchema(sub, records)
				}
			}
		}
	}
}

// sortedStrings sorts a list of strings and drops duplicates; a list with
// anything but strings is left as it is.
func sortedStrings(list []any) []any {
	s := make([]string, 0, len(list))
	for _, v := range list {
		str, ok := v.(string)
		if !ok {
			return list
		}
		s = append(s, str)
	}
	sort.Strings(s)
	s = slices.Compact(s)
	out := make([]any, len(s))
	for i, str := range s {
		out[i] = str
	}
	return out
}

// sensitiveOf lists the properties declared sensitive, sorted.
func sensitiveOf(params map[string]any) []string {
	props, _ := params["properties"].(map[string]any)
	var out []string
	for name, p := range props {
		if isSensitive(p) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func isSensitive(p any) bool {
	m, _ := p.(map[string]any)
	return m["sensitive"] == true || m["x-sensitive"] == true
}
