package pagejs

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeWarningsTakesOnlyWhatItBounds(t *testing.T) {
	many := make([]string, 80)
	for i := range many {
		many[i] = "w"
	}
	manyJSON, _ := json.Marshal(many)
	long, _ := json.Marshal([]string{strings.Repeat("é", 400)})
	for _, c := range []struct {
		name string
		in   any
		want int // warnings; -1: nil
	}{
		{"no runtime warnings", "", -1},
		{"not a string", 12.0, -1},
		{"not JSON", "[", -1},
		{"not strings", `[1, {"a": 2}]`, -1},
		{"over the byte bound", `["` + strings.Repeat("x", MaxWarningBytes) + `"]`, -1},
		{"two", `["a", "b"]`, 2},
		{"more than MaxWarnings", string(manyJSON), MaxWarnings},
		{"a long one", string(long), 1},
	} {
		got := DecodeWarnings(c.in)
		if c.want < 0 && got != nil || c.want >= 0 && len(got) != c.want {
			t.Errorf("%s: %d warnings %q, want %d", c.name, len(got), got, c.want)
		}
		for _, w := range got {
			if n := len([]rune(w)); n > MaxWarningRunes+1 {
				t.Errorf("%s: a warning of %d characters", c.name, n)
			}
		}
	}
}
