package scrub

import (
	"strings"
	"testing"
)

// TestWhatACutLeftOfAValueIsHidden: a text Glass cut short before its
// values were hidden (a page's message that repeats a password until the
// receipt's bound cuts a copy) can hold part of a value next to the cut
// mark, which no spelling of the whole value matches. That part is hidden
// too, in any spelling, when it is long enough to tell; text that is not
// next to a mark, or too short a part, is left.
func TestWhatACutLeftOfAValueIsHidden(t *testing.T) {
	const long = "correct-horse-battery"
	for _, tc := range []struct {
		name   string
		values []string
		text   string
		want   string
	}{
		{"a start before the mark", []string{long}, "bad: " + long + " " + long[:15] + "…", "bad: [sensitive] [sensitive]…"},
		{"a start in JSON escapes", []string{long}, `"bad: corr\u0065ct-hors…"`, `"bad: [sensitive]…"`},
		{"a start percent-encoded", []string{"pass word&more"}, "q=pass%20word%26m…", "q=[sensitive]…"},
		// The cut fell inside one character's escape: the start of the
		// value ends before what the cut left of that escape (an attack
		// page's padding moved the cut there).
		{"a start cut inside a \\u escape", []string{long}, `bad: \u0063\u006f\u0072\u0072\u0065\u0063\u0074\u0…`, "bad: [sensitive]…"},
		{"a start cut inside a doubled escape", []string{long}, `bad: \\u0063\\u006f\\u0072\\u0072\\u0065\\u0063\\u00…`, "bad: [sensitive]…"},
		{"a start cut inside a hex entity", []string{long}, "bad: &#x00063;&#x0006f;&#x00072;&#x00072;&#x00065;&#x00063;&#…", "bad: [sensitive]…"},
		{"a start cut inside a percent escape", []string{"pass word&more"}, "q=pass%20word%2…", "q=[sensitive]…"},
		{"a start cut inside a named entity", []string{"pass word&more"}, "q=pass word&am…", "q=[sensitive]…"},
		{"a start cut inside an escaped entity", []string{long}, "bad: &amp;#x63;&amp;#x6f;&amp;#x72;&amp;#x72;&amp;#x65;&amp;#x63;&amp;#x6…", "bad: [sensitive]…"},
		{"a start cut inside JSON nested seven levels", []string{long}, "bad: correct" + strings.Repeat(`\`, 64) + "u006…", "bad: [sensitive]…"},
		{"an end begun inside an entity", []string{long}, "…amp;horse-battery, said", "…[sensitive], said"},
		{"an end of hex digits begun inside an escape", []string{"tok&1234abcdef"}, `…261234abcdef`, "…[sensitive]"},
		{"an end begun inside a percent sequence", []string{"pass€word-more"}, "…82%ACword-more", "…[sensitive]"},
		{"a start cut inside a character of two escapes", []string{"secret-pä"}, "q=secret-p%C3%A…", "q=[sensitive]…"},
		{"a start cut inside an escape escaped again", []string{long}, `correct%5C%5Cu002…`, "[sensitive]…"},
		// A value spelt with a character that shows nothing after each of
		// its characters: one is left after the last before the mark.
		{"a start with a zero-width space after each character", []string{long}, "bad: " + zwEach(long[:15], "\u200b") + "…", "bad: [sensitive]…"},
		{"a start with a variation selector after each character", []string{long}, "bad: " + zwEach(long[:15], "\ufe0f") + "…", "bad: [sensitive]…"},
		{"a start with a soft hyphen after each character", []string{long}, "bad: " + zwEach(long[:15], "\u00ad") + "…", "bad: [sensitive]…"},
		{"an end with a joiner before each character", []string{long}, "…" + "\u200d" + zwEach(long[7:], "\u200d") + " said", "…[sensitive]\u200d said"},
		// Parts are hidden before whole values: a whole value beside the
		// mark, one that ends with a start of itself or of another value,
		// is hidden whole.
		{"a whole value that ends with a start of itself, before the mark", []string{"abc123abc123"}, "x abc123abc123…", "x [sensitive]…"},
		{"a whole value that begins with an end of itself, after the mark", []string{"abc123abc123"}, "…abc123abc123 x", "…[sensitive] x"},
		{"a whole value that ends with a start of another", []string{"tokenAAA111", "AAA111zzz"}, "x tokenAAA111…", "x [sensitive]…"},
		{"a long run of zero-width spaces before the mark", []string{long}, "bad: " + long[:15] + strings.Repeat("\u200b", 33) + "…", "bad: [sensitive]…"},
		{"a word after the mark is not the rest of an escape", []string{long}, "…soldier-battery", "…soldier-battery"},
		{"an end begun inside an escape", []string{long}, "…72se-battery, said", "…[sensitive], said"},
		{"an end after the mark", []string{long}, "…horse-battery, said the page", "…[sensitive], said the page"},
		{"both sides of two marks", []string{long}, "a correct-hor… b …-battery c", "a [sensitive]… b …[sensitive] c"},
		{"a start too short to tell", []string{long}, "corre… and …ttery", "corre… and …ttery"},
		{"a short value: all but its last character", []string{"1234"}, "pin 123… and 12…", "pin [sensitive]… and 12…"},
		{"a value of two characters is masked anyway", []string{"ab"}, "xa…", "xa…"},
		{"no mark", []string{long}, "correct-horse and battery", "correct-horse and battery"},
		{"a part not next to the mark", []string{long}, "correct-horse … and", "correct-horse … and"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(tc.values...).ReplaceString(tc.text, mask); got != tc.want {
				t.Errorf("ReplaceString(%q)\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
	// A set of any case hides a part in any case.
	if got := NewAnyCase(long).ReplaceString("x CORRECT-Horse…", mask); got != "x [sensitive]…" {
		t.Errorf("any case: got %q", got)
	}
	// Replace still returns the text itself when it hides nothing.
	b := []byte("nothing here… at all")
	if got := New(long).Replace(b, mask); &got[0] != &b[0] {
		t.Error("Replace copied a text it did not change")
	}
	// A long run of marks and escapes stays fast: one window per mark.
	text := strings.Repeat(`\\\\\\\\u0063…`, 2000)
	if got := New(long).ReplaceString(text, mask); got != text {
		t.Error("a text of marks and escapes changed")
	}
}

// zwEach writes sep after each character of v.
func zwEach(v, sep string) string {
	var b strings.Builder
	for _, r := range v {
		b.WriteRune(r)
		b.WriteString(sep)
	}
	return b.String()
}
