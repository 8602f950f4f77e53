package scrub

import (
	"testing"
)

func prefixDebug(t *testing.T, value, text string) {
	rs := []rune(value)
	for n := 1; n <= len(rs); n++ {
		s := New(string(rs[:n]))
		i, j := s.Index([]byte(text))
		if i < 0 {
			t.Logf("prefix %q not found; prefix %q found", string(rs[:n]), string(rs[:n-1]))
			s = New(string(rs[:n-1]))
			i, j = s.Index([]byte(text))
			if i >= 0 {
				t.Logf("   at %d..%d, rest: %q", i, j, text[j:min(len(text), j+80)])
			}
			return
		}
		_ = j
	}
	t.Logf("all found")
}

func dump(t *testing.T, text string, pos, depth int) {
	rd := reader{text: []byte(text)}
	var rs readings
	rd.read(pos, depth, &rs)
	for i := range rs.len() {
		a := rs.at(i)
		t.Logf("   %q %q end %d", a.r, a.r2, a.end)
	}
}

func TestDebug(t *testing.T) {
	text := "0+\\5c f\\u{66}\\146\\x64\\040\\\\&#X30;\\x30%300\\x35%30%20%26\\se\\u{6d}\\u0069%3b&amp;\\x230\\x30\\30\\u{38}\\060\\u0026#%30\\30 &#X34;%38%5c&#x35\\u0045\\20 0"
	prefixDebug(t, "+\uFFFDP;P0^", text)
}
