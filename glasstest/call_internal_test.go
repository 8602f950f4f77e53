package glasstest

import (
	"encoding/json"
	"math"
	"testing"
	"time"
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

// TestACallsBoundCoversItsExpectationTimeout: a call whose expectation
// may take as long as the default call bound (init's suite gives ten
// seconds, the default Timeout is ten) would end CALL_TIMEOUT before the
// runtime could say EXPECTATION_FAILED (an adoption trial's server-side
// refusal did). Unless Timeout is given, the bound grows to the
// expectation timeout plus DefaultTimeout; a Timeout given is kept.
func TestACallsBoundCoversItsExpectationTimeout(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []Option
		want time.Duration
	}{
		{"no option", nil, DefaultTimeout},
		{"an expectation timeout", []Option{ExpectTimeout(10 * time.Second)}, 10*time.Second + DefaultTimeout},
		{"a short expectation timeout", []Option{ExpectTimeout(300 * time.Millisecond)}, 300*time.Millisecond + DefaultTimeout},
		{"a call timeout", []Option{Timeout(3 * time.Second)}, 3 * time.Second},
		{"both", []Option{ExpectTimeout(10 * time.Second), Timeout(4 * time.Second)}, 4 * time.Second},
		{"both, the other way round", []Option{Timeout(4 * time.Second), ExpectTimeout(10 * time.Second)}, 4 * time.Second},
		{"a long call timeout", []Option{Timeout(time.Minute), ExpectTimeout(10 * time.Second)}, time.Minute},
	} {
		s := defaults()
		for _, o := range c.opts {
			o(&s)
		}
		if got := s.callBound(); got != c.want {
			t.Errorf("%s: the call's bound is %v, want %v", c.name, got, c.want)
		}
	}
}
