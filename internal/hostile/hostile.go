// Package hostile holds what the tests of page-provided text share: a
// string as a hostile page writes it and the test of what a terminal would
// act on instead of showing.
package hostile

import "unicode"

// Text is page-provided text as a hostile page writes it: markup, a CDATA
// terminator, ANSI colour and clear-screen sequences, an OSC title change
// ended by BEL, a C1 CSI, a carriage return that would overwrite the line,
// a right-to-left override, characters that show nothing though Go counts
// them printable (the combining grapheme joiner, a Hangul filler, a
// variation selector) and a NUL.
const Text = "<script>alert(1)</script> ]]> \x1b[31mRED\x1b[0m\x1b[2J \x1b]0;title\x07 \u009b31m \rOVER \u202eRTL \u034fCGJ\u3164\ufe00\x00"

// Controls lists the characters of s that a terminal acts on instead of
// showing: C0 controls other than newline and tab, DEL, C1 controls,
// bidirectional overrides and isolates, line and paragraph separators, and
// the characters that show nothing of themselves (a format, private-use or
// unassigned code point; the zero-width joiners excepted).
func Controls(s string) []rune {
	var out []rune
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029,
			r == 0x200e, r == 0x200f, r == 0x061c, // the bidi marks LRM, RLM, ALM
			r >= 0x80 && r != 0x200c && r != 0x200d && (unicode.In(r, unicode.Cf, unicode.Co) || !unicode.IsGraphic(r)),         // zero-width, format, private-use, unassigned
			r != 0xfe0e && r != 0xfe0f && unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector): // the other default-ignorable code points
			out = append(out, r)
		}
	}
	return out
}
