package receipt

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// PrintableJSON returns the JSON text b with every character that does not
// print as itself and that encoding/json leaves raw — DEL, C1 controls,
// bidirectional overrides and isolates, line and paragraph separators,
// other format characters — written as a \u escape. The JSON value is the
// same; the text is one a terminal, an editor or a log viewer shows as
// written, so page-provided strings cannot recolour, reorder or hide what
// surrounds them. encoding/json already escapes the other ASCII controls.
// b must be JSON text (outside its strings JSON has no such characters, so
// only strings change); bytes that are not UTF-8 are left as they are.
func PrintableJSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf && b[i] != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && !printsInJSON(r) {
			break
		}
		i += n
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		if b[i] < utf8.RuneSelf && b[i] != 0x7f {
			out = append(out, b[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError || printsInJSON(r):
			out = append(out, b[i:i+n]...)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
	}
	return out
}

// printsInJSON reports whether PrintableJSON keeps r as it is: a
// character that prints as itself (strconv.IsPrint) and is not one a
// renderer shows nothing of (Invisible).
func printsInJSON(r rune) bool { return strconv.IsPrint(r) && !Invisible(r) }

// PrintableText returns s as a terminal shows it without acting on it:
// control characters (ESC and the rest of C0 and C1, except newline and
// tab), bidirectional controls (overrides, isolates, and the marks LRM,
// RLM and ALM), line and paragraph separators, the other invisible
// characters (Invisible) and invalid UTF-8 become visible escapes such as
// \x1b, \u202e, \u200b or \U000e0041, so page-provided text cannot
// recolour, rewrite or hide the lines around it. Text with none of them
// is returned as it is, and so is text PrintableText or PrintableID
// returned: applying it twice is applying it once. A name that must not
// pass for another is shown with PrintableID.
func PrintableText(s string) string { return printableText(s, false, false) }

// PrintableLine is PrintableText on one line: a line break shows as \n,
// so page text stays on the line Glass gave it, and a tab as \t, so that
// it cannot pass for spaces.
func PrintableLine(s string) string { return printableText(s, true, false) }

// PrintableID is PrintableLine for a name that must not pass for another
// (an action id, a tool name): a backslash of s is also doubled where
// what follows it would read as an escape (before x, u, U, n, t, a
// backslash or a character shown escaped), so the id "pay\u202eyap" typed with a
// backslash and the id with a real U+202E show apart, and a C1 control
// shows as \u0085, apart from the byte 0x85 of invalid UTF-8 (\x85). No
// two names show alike; PrintableText and PrintableLine leave what it
// returns as it is.
func PrintableID(s string) string { return printableText(s, true, true) }

func printableText(s string, oneLine, exact bool) string {
	shown := func(i int) bool { // whether s[i:] starts with a character shown escaped
		r, n := utf8.DecodeRuneInString(s[i:])
		return r == utf8.RuneError && n <= 1 || unprintableRune(r) || oneLine && (r == '\n' || r == '\t')
	}
	doubled := func(i int) bool { // whether the backslash at s[i] is doubled
		if !exact || i+1 == len(s) {
			return false
		}
		switch s[i+1] {
		case 'x', 'u', 'U', '\\':
			return true
		case 'n', 't':
			return oneLine
		}
		return shown(i + 1)
	}
	clean := true
	for i := 0; i < len(s) && clean; {
		_, n := utf8.DecodeRuneInString(s[i:])
		clean = !shown(i) && (s[i] != '\\' || !doubled(i))
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && oneLine:
			b.WriteString(`\n`)
		case r == '\t' && oneLine:
			// On one line a tab would pass for spaces: "t\tab" for "t ab".
			b.WriteString(`\t`)
		case r == '\\' && doubled(i):
			b.WriteString(`\\`)
		case unprintableRune(r) && (r < 0x80 || r < 0xa0 && !exact):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unprintableRune(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case unprintableRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unprintableRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 || r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	}
	return Invisible(r)
}

// Invisible reports whether r, outside ASCII, shows nothing of itself or
// is not a character a terminal can be trusted to show: a format character
// (a soft hyphen, zero-width spaces, the byte-order mark, tag characters,
// invisible operators), a private-use or unassigned code point, a
// noncharacter, and the other code points Unicode says a renderer shows
// nothing of (Default_Ignorable_Code_Point: the combining grapheme joiner,
// the Hangul fillers, Khmer's inherent vowels, the variation selectors).
// So does the Braille pattern blank U+2800, a symbol that draws no dot
// (a favourite blank where whitespace is trimmed). Text Glass repeats
// escapes them, so that an id with a zero-width space cannot pass for
// another. Letters, marks, digits, punctuation, symbols
// and spaces print, and so do the zero-width joiner and non-joiner and the
// emoji presentation selectors U+FE0E and U+FE0F, which emoji sequences
// and scripts such as Persian need.
func Invisible(r rune) bool {
	switch {
	case r < 0x80 || r == 0x200c || r == 0x200d || r == 0xfe0e || r == 0xfe0f:
		return false
	case r == 0x2800 || unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector):
		return true
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

// Clip keeps at most n bytes of s, cut at a character boundary, with "…"
// when it cut: how the harness, the conformance reports and coverage
// bound a text the page chose before they repeat it.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
