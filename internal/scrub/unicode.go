package scrub

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Values and text are compared in NFKD, the compatibility decomposition:
// NFC, NFD, NFKC and NFKD of a value all decompose to it, and so do its
// compatibility variants (fullwidth letters, ligatures, mathematical
// letters, superscript digits). NFKD puts the combining marks that follow
// a character in canonical order; text is decomposed one character at a
// time, so the matcher puts each run of marks of the text in that order
// itself before it compares it.

// cp is a code point of a decomposition and its canonical combining class
// (0 for a starter, a character that does not combine with the one before).
type cp struct {
	r   rune
	ccc uint8
}

// segment is one character of a value in NFKD: a starter and the marks
// that combine with it, in canonical order.
type segment struct {
	starter rune // noRune when the value begins with a combining mark
	marks   []cp
}

// segments splits a value into its characters, after NFKD.
func segments(value string) []segment {
	var out []segment
	for _, c := range decompose(norm.NFKD.String(strings.ToValidUTF8(value, "\uFFFD"))) {
		if c.ccc == 0 || len(out) == 0 {
			s := segment{starter: c.r}
			if c.ccc != 0 {
				s = segment{starter: noRune, marks: []cp{c}}
			}
			out = append(out, s)
			continue
		}
		last := &out[len(out)-1]
		last.marks = append(last.marks, c)
	}
	return out
}

// decompose lists the code points of s, already in NFKD, with their classes.
func decompose(s string) []cp {
	var out []cp
	for i := 0; i < len(s); {
		p := norm.NFKD.PropertiesString(s[i:])
		r, n := utf8.DecodeRuneInString(s[i:])
		out = append(out, cp{r: r, ccc: p.CCC()})
		i += n
	}
	return out
}

// ascii holds the decomposition of every ASCII character: itself.
var ascii = func() (t [utf8.RuneSelf]cp) {
	for i := range t {
		t[i] = cp{r: rune(i)}
	}
	return t
}()

// decomposer decomposes the characters a text is read as, caching the
// non-ASCII ones for one scan.
type decomposer struct {
	cache map[rune][]cp
}

// of returns the NFKD of the reading's character (or two).
func (dc *decomposer) of(a reading) []cp {
	d := dc.rune(a.r)
	if a.r2 == noRune {
		return d
	}
	return append(slices.Clip(d), dc.rune(a.r2)...)
}

func (dc *decomposer) rune(r rune) []cp {
	if r >= 0 && r < utf8.RuneSelf {
		return ascii[r : r+1 : r+1]
	}
	if d, ok := dc.cache[r]; ok {
		return d
	}
	d := decompose(norm.NFKD.String(string(r)))
	if dc.cache == nil {
		dc.cache = map[rune][]cp{}
	}
	dc.cache[r] = d
	return d
}

// ignorable reports whether r shows nothing of itself between the
// characters of a value: a default-ignorable code point (zero-width space
// and joiners, soft hyphen, bidirectional controls, variation selectors,
// tags), any other format character (the Arabic number signs, the
// interlinear annotation controls, …), a private-use, unassigned or
// noncharacter code point — every character receipt.Invisible counts as
// showing nothing, white space aside. A page that puts them between the
// characters of a value shows the value as it is, so the matcher skips
// them there. So is NUL, which UTF-16 puts between the characters of an
// ASCII value.
func ignorable(r rune) bool {
	if r == 0 {
		return true
	}
	if r < 0xAD || unicode.Is(unicode.White_Space, r) {
		return false
	}
	if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Co, r) {
		return true
	}
	// Unassigned code points and noncharacters: in no category.
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cs)
}
