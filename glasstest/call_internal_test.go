package glasstest

import (
	"encoding/json"
	"math"
	"testing"
)

// TestEncodeArgsSendsWhatJSONCanHold: Do's rule for its args, without a
// browser. What can be sent is sent as the text Do passes on; what cannot
// is an error that names the call and says what to do instead.
func TestEncodeArgsSendsWhatJSONCanHold(t *testing.T) {
	for _, c := range []struct {
		name string
		args any
		want string
	}{
		{"nil", nil, `{}`},
		{"a map", map[string]any{"title": "milk"}, `{"title":"milk"}`},
		{"a struct", struct {
			Title string `json:"title"`
		}{"milk"}, `{"title":"milk"}`},
		{"a JSON object as a string", `{"title": "milk"}`, `{"title": "milk"}`},
		{"a JSON string as a string", `"milk"`, `"milk"`},
		{"a JSON number as a string", `42`, `42`},
		{"an object malformed on purpose", `{"unterminated`, `{"unterminated`},
		{"an array malformed on purpose, after white space", "\n [1,", "\n [1,"},
		{"raw bytes", []byte(`milk`), `milk`},
		{"a json.RawMessage", json.RawMessage(`{"x":`), `{"x":`},
	} {
		got, err := encodeArgs("add", c.args)
		if err != nil || got != c.want {
			t.Errorf("%s: encodeArgs(%#v) = %q, %v; want %q", c.name, c.args, got, err, c.want)
		}
	}
	for _, c := range []struct {
		name string
		args any
		want string
	}{
		{"a Go string", "milk", `glasstest: Do("add"): the string argument "milk" is not JSON text: Do sends a string as JSON text, unchanged; send arguments as a map or a struct (map[string]any{...}), or malformed input as json.RawMessage`},
		{"an empty string", "", `glasstest: Do("add"): the string argument "" is not JSON text: Do sends a string as JSON text, unchanged; send arguments as a map or a struct (map[string]any{...}), or malformed input as json.RawMessage`},
		{"a channel", make(chan int), `glasstest: Do("add"): the arguments (chan int) cannot be sent as JSON: json: unsupported type: chan int`},
		{"a func in a map", map[string]any{"f": func() {}}, `glasstest: Do("add"): the arguments (map[string]interface {}) cannot be sent as JSON: json: unsupported type: func()`},
		{"NaN", map[string]any{"n": math.NaN()}, `glasstest: Do("add"): the arguments (map[string]interface {}) cannot be sent as JSON: json: unsupported value: NaN`},
		{"+Inf", math.Inf(1), `glasstest: Do("add"): the arguments (float64) cannot be sent as JSON: json: unsupported value: +Inf`},
	} {
		got, err := encodeArgs("add", c.args)
		if err == nil {
			t.Errorf("%s: encodeArgs = %q, want an error", c.name, got)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%s: error\n%s\nwant\n%s", c.name, err, c.want)
		}
	}
}
