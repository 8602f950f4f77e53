package params

import (
	"encoding/json"
	"math"
)

// OtherValue returns a value s accepts that differs from v (for a
// parameter with a default: a value the caller may pass instead of it),
// or false when the probe cannot build one: another enum member, the
// other boolean, a number one step away within the bounds, another string
// within the length bounds. Patterns, formats, const and composed schemas
// are left alone.
func (s *Schema) OtherValue(v any) (any, bool) {
	if s.Ref != "" || len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.AllOf) > 0 || len(s.Const) > 0 {
		return nil, false
	}
	if len(s.Enum) > 0 {
		for _, e := range s.Enum {
			if !SameJSON(e, v) {
				return e, true
			}
		}
		return nil, false
	}
	ts := s.Types()
	if len(ts) != 1 {
		return nil, false
	}
	switch ts[0] {
	case "boolean":
		b, ok := v.(bool)
		return !b, ok
	case "integer", "number":
		f, ok := toFloat(v)
		if !ok {
			return nil, false
		}
		for _, x := range []float64{f + 1, f - 1} {
			if ts[0] == "integer" && x != math.Trunc(x) {
				continue
			}
			if (s.Minimum == nil || x >= *s.Minimum) && (s.Maximum == nil || x <= *s.Maximum) {
				return x, true
			}
		}
	case "string":
		if s.Pattern != "" || s.Format != "" || s.IsSensitive() {
			return nil, false
		}
		for _, x := range []string{"glass probe", "glass probe other", "gp", "g"} {
			if x != v && s.Fits(x) {
				return x, true
			}
		}
	}
	return nil, false
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case int:
		return float64(x), true
	}
	return 0, false
}
