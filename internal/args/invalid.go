package args

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Kind is a way of making arguments invalid that CONTRACT.md §2.3 names:
// each fails INVALID_PARAMS.
type Kind int

const (
	// WrongType gives a member a value of a JSON type its schema does not
	// allow.
	WrongType Kind = iota + 1
	// OutsideEnum gives a member with an enum a value of the enum's type
	// that is not in it.
	OutsideEnum
	// MissingRequired leaves a required member out.
	MissingRequired
)

func (k Kind) String() string {
	switch k {
	case WrongType:
		return "wrong type"
	case OutsideEnum:
		return "outside enum"
	case MissingRequired:
		return "missing required"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Invalid is arguments made invalid one way, in one member.
type Invalid struct {
	Kind Kind
	// Field is the member made invalid; Path its JSON Pointer.
	Field, Path string
	// Args is the whole argument object: the valid arguments given, with
	// Field changed or left out.
	Args map[string]any
	// Describe says what was done, for a message: `a number for "title",
	// declared string`. It never quotes a value of the valid arguments.
	Describe string
}

// Invalid returns valid changed one way: the first member, in the order of
// Properties, that kind can make invalid. The result is checked: the
// schema rejects it. ok is false when no member can be made invalid that
// way (no declared type, no enum, no required member).
func (s *Schema) Invalid(kind Kind, valid map[string]any) (Invalid, bool) {
	for _, name := range s.Properties() {
		prop := s.Property(name)
		var (
			v     any
			leave bool
			what  string
		)
		switch kind {
		case WrongType:
			w, n, ok := prop.WrongValue()
			if !ok {
				continue
			}
			v, what = w, fmt.Sprintf("%s for %q, declared %s", n, name, strings.Join(prop.Types(), " or "))
		case OutsideEnum:
			w, ok := prop.OutsideEnum()
			if !ok {
				continue
			}
			v, what = w, fmt.Sprintf("%v for %q, outside its enum", w, name)
		case MissingRequired:
			if !contains(s.n.Required, name) {
				continue
			}
			leave, what = true, fmt.Sprintf("the required field %q left out", name)
		default:
			return Invalid{}, false
		}
		args := make(map[string]any, len(valid))
		for k, x := range valid {
			args[k] = x
		}
		if leave {
			delete(args, name)
		} else {
			args[name] = v
		}
		// A probe that the schema accepts would prove nothing.
		if s.check(args) == nil {
			continue
		}
		return Invalid{Kind: kind, Field: name, Path: "/" + escapePointer(name), Args: args, Describe: what}, true
	}
	return Invalid{}, false
}

// WrongValue returns a value of a JSON type the schema does not allow and
// its name ("a number"), or false when the schema declares no type. The
// candidates are tried in a fixed order: 12345, "glass probe", true, [],
// {}.
func (s *Schema) WrongValue() (any, string, bool) {
	ts := s.n.types()
	if len(ts) == 0 {
		return nil, "", false
	}
	candidates := []struct {
		value any
		types []string
		name  string
	}{
		{12345, []string{"integer", "number"}, "a number"},
		{plainString, []string{"string"}, "a string"},
		{true, []string{"boolean"}, "a boolean"},
		{[]any{}, []string{"array"}, "an array"},
		{map[string]any{}, []string{"object"}, "an object"},
	}
	for _, c := range candidates {
		allowed := false
		for _, t := range c.types {
			allowed = allowed || contains(ts, t)
		}
		if !allowed {
			return c.value, c.name, true
		}
	}
	return nil, "", false
}

// OutsideEnum returns a value of the enum's type that is not in it, or
// false when the schema has no enum (or every candidate is in it).
func (s *Schema) OutsideEnum() (any, bool) {
	enum := s.n.Enum
	if len(enum) == 0 {
		return nil, false
	}
	var candidates []any
	switch first := enum[0].(type) {
	case float64:
		candidates = []any{-987654321.0, 987654321.0}
	case bool:
		candidates = []any{!first, first}
	default:
		candidates = []any{"glass-probe-not-in-enum", "GLASS-PROBE-NOT-IN-ENUM"}
	}
	for _, c := range candidates {
		in := false
		for _, e := range enum {
			in = in || sameJSON(e, c)
		}
		if !in {
			return c, true
		}
	}
	return nil, false
}

// sameJSON reports whether two values encode to the same JSON.
func sameJSON(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
