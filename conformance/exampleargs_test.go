package conformance

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

func TestExampleArgs(t *testing.T) {
	for _, c := range []struct {
		params string
		want   map[string]any
		err    string
	}{
		{``, map[string]any{}, ""},
		{`{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1},"priority":{"type":"string","enum":["low","high"]}}}`,
			map[string]any{"title": "glass probe"}, ""},
		{`{"type":"object","required":["task"],"properties":{"task":{"type":"string","enum":["t1","t2"]}}}`,
			map[string]any{"task": "t1"}, ""},
		{`{"type":"object","required":["n"],"properties":{"n":{"type":"integer","minimum":3}}}`,
			map[string]any{"n": 3.0}, ""},
		{`{"type":"object","required":["code"],"properties":{"code":{"type":"string","pattern":"^AB$"}}}`,
			map[string]any{"code": "AB"}, ""},
		{`{"type":"object","required":["iban"],"properties":{"iban":{"type":"string","pattern":"^(?=x)y$"}}}`,
			nil, "/iban: cannot build a string for the pattern or format"},
		{`{"type":"string"}`, nil, "params of a is not an object schema"},
		{`[1,2]`, nil, "params is not a JSON Schema object"},
	} {
		got, err := ExampleArgs(receipt.ActionInfo{ID: "a", Params: json.RawMessage(c.params)})
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err %v, want one containing %q", c.params, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.params, err)
		case c.err == "" && !reflect.DeepEqual(got, c.want):
			t.Errorf("%s: %v, want %v", c.params, got, c.want)
		}
	}
}
