package params

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestSchemaBuildsValidAndInvalidArguments(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{
		"title":{"type":"string","minLength":15,"maxLength":20},
		"priority":{"type":"string","enum":["low","high"]},
		"count":{"type":"integer","minimum":3,"maximum":9},
		"done":{"type":"boolean"},
		"password":{"type":"string","sensitive":true},
		"note":{"type":"string"}},
		"required":["title","priority","count","done"]}`)
	s, err := ParseSchema(params)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Synthesize("", "s3cret-value")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"title": "glass probexxxx", "priority": "low", "count": 3.0, "done": true,
		"password": map[string]string{"$sensitive": SensitiveRef}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("synthesize = %#v\nwant %#v", v, want)
	}
	if w, what, ok := s.Properties["title"].WrongValue(); !ok || w != 12345 || what != "a number" {
		t.Errorf("wrongValue(string) = %v %q %v", w, what, ok)
	}
	if w, _, ok := s.Properties["count"].WrongValue(); !ok || w != "glass probe" {
		t.Errorf("wrongValue(integer) = %v %v", w, ok)
	}
	if w, ok := s.Properties["priority"].OutsideEnum(); !ok || w != "glass-probe-not-in-enum" {
		t.Errorf("outsideEnum = %v %v", w, ok)
	}
	if _, ok := s.Properties["note"].OutsideEnum(); ok {
		t.Error("outsideEnum without an enum")
	}
	// A pattern or a format is built as init builds it (an adoption trial's
	// PIN, ^[0-9]{4}$, left run with no call to make).
	for schema, want := range map[string]*regexp.Regexp{
		`{"type":"string","pattern":"^a+$"}`:                            regexp.MustCompile(`^a+$`),
		`{"type":"string","pattern":"^[0-9]{4}$","x-sensitive":true}`:   regexp.MustCompile(`^[0-9]{4}$`),
		`{"type":"string","format":"email"}`:                            regexp.MustCompile(`^[^@]+@[^@]+$`),
		`{"type":"string","pattern":"^[A-Z]{2}-[0-9]+$","maxLength":5}`: regexp.MustCompile(`^[A-Z]{2}-[0-9]{1,2}$`),
	} {
		s, _ := ParseSchema(json.RawMessage(schema))
		v, err := s.Synthesize("", "secret")
		if str, ok := v.(string); err != nil || !ok || !want.MatchString(str) {
			t.Errorf("synthesize(%s) = %#v, %v; want a string matching %s", schema, v, err, want)
		}
	}
	for _, bad := range []string{`{"type":"string","pattern":"^a+$","maxLength":0}`, `{"oneOf":[{"type":"string"}]}`, `{"type":"object","required":["x"],"properties":{"x":{"$ref":"#/defs/x"}}}`} {
		s, _ := ParseSchema(json.RawMessage(bad))
		if _, err := s.Synthesize("", ""); err == nil {
			t.Errorf("synthesize(%s) built a value it cannot know is valid", bad)
		}
	}
}

// TestAPagesOwnNumbersNeverSizeAnAllocation: a minLength or a minItems of
// two billion (an attack page's) is an error, at once, not a value that
// fills the machine's memory.
func TestAPagesOwnNumbersNeverSizeAnAllocation(t *testing.T) {
	for _, params := range []string{
		`{"type":"object","required":["s"],"properties":{"s":{"type":"string","minLength":2000000000}}}`,
		`{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":2000000000}}}`,
		// Nested arrays multiply: each number is under the bound, their
		// product is not.
		`{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":300,"items":{"type":"array","minItems":300,"items":{"type":"string","minLength":1000}}}}}`,
	} {
		s, err := ParseSchema(json.RawMessage(params))
		if err != nil {
			t.Fatal(err)
		}
		if v, err := s.Synthesize("", ""); err == nil || !strings.Contains(err.Error(), "more than the 10000") {
			t.Errorf("Synthesize(%s) = %.40v, %v; want an error naming the bound", params, v, err)
		}
	}
}
