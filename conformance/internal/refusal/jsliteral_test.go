package refusal

import (
	"encoding/json"
	"testing"
)

func TestNearJSONMakesOneSlipEachThatJSONRejects(t *testing.T) {
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"title": "Buy milk", "n": 2}, []string{
			`{"n":2,"title":"Buy milk",}`,
			`{'n':2,'title':'Buy milk'}`,
			`{n:2,title:"Buy milk"}`,
			`/* arguments */ {"n":2,"title":"Buy milk"}`,
			`({"n":2,"title":"Buy milk"})`,
			`{"n":2,"title":"Buy milk"};`,
			WhiteSpaceOnly,
		}},
		// No quote to swap, no key to unquote, no member to trail.
		{map[string]any{}, []string{`/* arguments */ {}`, `({})`, `{};`, WhiteSpaceOnly}},
		// A string that holds a quote keeps its double quotes; a key that
		// is no identifier keeps its own.
		{map[string]any{"it's": "a \"b\""}, []string{`{"it's":"a \"b\"",}`, `/* arguments */ {"it's":"a \"b\""}`, `({"it's":"a \"b\""})`, `{"it's":"a \"b\""};`, WhiteSpaceOnly}},
	} {
		got := NearJSON(c.args)
		if len(got) != len(c.want) {
			t.Fatalf("NearJSON(%v) = %q, want %q", c.args, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("NearJSON(%v)[%d] = %s, want %s", c.args, i, got[i], c.want[i])
			}
			if json.Valid([]byte(got[i])) {
				t.Errorf("%s is valid JSON", got[i])
			}
		}
	}
}
