package scrub

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// CutMark is what Glass writes where it cut a text short: at the end of
// what it kept (receipt.Clip), or at the start of a tail.
const CutMark = "…"

// MinPart is the fewest characters of a value that Replace hides next to
// a cut mark (fewer for a value of MinPart characters or fewer: all but
// its last).
const MinPart = 6

// cuts are a Set's values in part: what a cut can leave of one.
type cuts struct {
	once sync.Once
	// starts holds each value's starts, ends its ends, of MinPart
	// characters or more and short of the whole; nil when no value has
	// any. first holds each value's shortest start: a text where no
	// spelling of it begins begins no spelling of a longer one.
	starts, ends, first *Set
	// window is the most bytes a spelling of a part can take.
	window int
}

// parts builds the starts and the ends of the values once.
func (s *Set) parts() *cuts {
	c := s.cut
	c.once.Do(func() {
		var starts, ends, first []string
		longest := 0
		for _, v := range s.raw {
			w := norm.NFKD.String(strings.ToValidUTF8(v, "\uFFFD"))
			// The byte offsets where a character starts: a starter and
			// the combining marks after it are one character.
			var at []int
			off := 0
			for i, ch := range decompose(w) {
				if ch.ccc == 0 || i == 0 {
					at = append(at, off)
				}
				off += utf8.RuneLen(ch.r)
			}
			n := len(at)
			if n < 3 {
				continue // a value this short is masked wherever it appears
			}
			least := min(MinPart, n-1)
			first = append(first, w[:at[least]])
			for k := least; k < n; k++ {
				starts = append(starts, w[:at[k]])
				ends = append(ends, w[at[n-k]:])
			}
			// And the whole value: parts are hidden before whole values,
			// so a whole one beside the mark must not be read as a part
			// (a value that ends with a start of itself).
			starts, ends = append(starts, w), append(ends, w)
			longest = max(longest, len(w))
		}
		if len(starts) == 0 {
			return
		}
		c.starts, c.ends, c.first = newSet(s.anyCase, starts), newSet(s.anyCase, ends), newSet(s.anyCase, first)
		// Each byte of a part can be spelt in up to about sixty bytes
		// (JSON nested seven levels, an escape inside an escape).
		c.window = min(64*longest+64, 1<<14)
	})
	return c
}

// hideCuts replaces with mask what a cut left of a value next to each cut
// mark of b: the longest start of a value (MinPart characters or more, in
// any spelling Replace finds) that ends where a mark begins, and the
// longest end of one that begins where a mark ends. A text Glass bounded
// before its values were hidden (a page that repeats a secret until the
// bound cuts a copy) can hold such a part, which no spelling of the whole
// value matches. It reports whether it replaced any.
func (s *Set) hideCuts(b []byte, mask string) ([]byte, bool) {
	mark := []byte(CutMark)
	if s.cut == nil || !bytes.Contains(b, mark) {
		return b, false
	}
	c := s.parts()
	if c.starts == nil {
		return b, false
	}
	var out bytes.Buffer
	hid := false
	rest := b
	for {
		i := bytes.Index(rest, mark)
		if i < 0 {
			out.Write(rest)
			break
		}
		head, tail := rest[:i], rest[i+len(mark):]
		cut := len(head)
		lo := max(0, len(head)-c.window)
		// The cut may have fallen inside one character's escape
		// ("…\u0034\u0…", "…%3C%2…"): the start of a value then ends
		// before the escape's bytes the cut left, and they are hidden
		// with it.
		if j := c.partEnding(head[lo:]); j >= 0 {
			cut = lo + j
		} else {
			// Or after characters that show nothing: a value spelt with a
			// zero-width space or a variation selector after each of its
			// characters leaves one after its last before the mark.
			ends := partialEscapes(head[lo:])
			if t := trailingIgnorable(head[lo:]); t > 0 {
				ends = append([]int{t}, ends...)
			}
			for _, t := range ends {
				if j := c.partEnding(head[lo : len(head)-t]); j >= 0 {
					cut = lo + j
					break
				}
			}
		}
		out.Write(head[:cut])
		if cut < len(head) {
			out.WriteString(mask)
			hid = true
		}
		out.Write(mark)
		rest = tail
		window := tail[:min(len(tail), c.window)]
		// Likewise a tail may begin with the rest of an escape, or with
		// characters that show nothing.
		begins := restOfEscape(window)
		if t := leadingIgnorable(window); t > 0 {
			begins = append(begins, t)
		}
		for _, t := range begins {
			if e := c.ends.longestAt(window, t); e > 0 {
				out.WriteString(mask)
				hid = true
				rest = tail[e:]
				break
			}
		}
	}
	if !hid {
		return b, false
	}
	return out.Bytes(), true
}

// maxPartialEscape is the most bytes of an escape a cut can leave beside
// its mark that hideCuts looks past: JSON nested seven levels (64
// backslashes) and the longest escape after them (u{10FFFF}), with room.
const maxPartialEscape = 96

// escapeByte reports whether b can be part of an escape the scrubber
// reads: a backslash, a percent sign, an entity's &, # and ;, letters
// (an escape's letter, a hexadecimal digit, a named entity's name),
// digits and braces.
func escapeByte(b byte) bool {
	switch {
	case b == '\\' || b == '%' || b == '&' || b == '#' || b == ';' || b == '{' || b == '}',
		'0' <= b && b <= '9', 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z':
		return true
	}
	return false
}

// opensEscape reports whether b begins an escape: a backslash, a percent
// sign, an entity's &.
func opensEscape(b byte) bool { return b == '\\' || b == '%' || b == '&' }

// maxEscapeStarts is how many places partialEscapes offers: a character
// of several escapes (UTF-8's %C3%A4, a surrogate pair, an escape escaped
// again) may be cut inside its last one or before it.
const maxEscapeStarts = 4

// partialEscapes lists how many bytes at the end of b an escape the cut
// left unfinished may take: from the start of each of the last runs of
// bytes that open an escape ("\\\\u00", "%2", "&am", "&amp;#x6"), nearest
// first, while only bytes of an escape lie between it and the end, within
// maxPartialEscape bytes. At most maxEscapeStarts, so a mark costs a few
// scans of its window.
func partialEscapes(b []byte) []int {
	var out []int
	for t := 1; t <= maxPartialEscape && t <= len(b) && len(out) < maxEscapeStarts; t++ {
		c := b[len(b)-t]
		if !escapeByte(c) {
			break
		}
		if opensEscape(c) {
			// The start of this run of openers (a backslash escaped
			// seven times is 64 of them).
			for t < len(b) && t < maxPartialEscape && opensEscape(b[len(b)-t-1]) {
				t++
			}
			out = append(out, t)
		}
	}
	return out
}

// restOfEscape lists where, at the start of b, a value's end may begin:
// at 0; at each offset within the hexadecimal digits, braces and percent
// signs an escape the cut split left ("34\\u0035", "0035}", "AC%"), up to
// maxRestOfEscape; after the rest of an entity, up to its ";" ("amp;",
// "x00065;").
func restOfEscape(b []byte) []int {
	out := []int{0}
	// Any offset within a leading run of what ends a split escape (hex
	// digits, "}", a next "%"): the value may go on with hex digits of its
	// own ("…261234ab" for "&1234ab").
	hex := 0
	for hex < len(b) && hex < maxRestOfEscape && (isHex(b[hex]) || b[hex] == '}' || b[hex] == '%') {
		hex++
		out = append(out, hex)
	}
	for i := 0; i < len(b) && i < maxPartialEscape; i++ {
		c := b[i]
		if c == ';' {
			if i+1 > hex {
				out = append(out, i+1)
			}
			break
		}
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '#') {
			break
		}
	}
	return out
}

// maxRestOfEscape bounds the offsets restOfEscape offers in a run of hex
// digits: the rest of a split escape is a few bytes.
const maxRestOfEscape = 12

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// partEnding returns the first offset of b at which a spelling of a
// value's start begins and runs to b's end, or -1. Each offset costs one
// attempt at the shortest starts, as a scan of Replace does, and the
// longer ones only where one of those matched.
func (c *cuts) partEnding(b []byte) int {
	var short, long *matcher
	for i := range b {
		if !c.first.allows(b, i) {
			continue
		}
		if short == nil {
			short, long = c.first.newMatcher(b), c.starts.newMatcher(b)
		}
		if c.first.matchAt(short, b, i) < 0 {
			continue
		}
		if c.starts.matchAt(long, b, i) == len(b) {
			return i
		}
	}
	return -1
}

func (s *Set) newMatcher(b []byte) *matcher {
	m := newMatcher(b, true, len(s.values))
	m.anyCase = s.anyCase
	return m
}

// longestAt returns the end of the longest spelling of a value of s that
// starts at offset i of b, or -1.
func (s *Set) longestAt(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	return s.matchAt(s.newMatcher(b), b, i)
}

// matchAt returns the end of a spelling of a value of s that starts at
// offset i of b (the longest if m is so set, else the first found), or -1.
func (s *Set) matchAt(m *matcher, b []byte, i int) int {
	if !s.allows(b, i) {
		return -1
	}
	// The readings at i, read once for every value: most rule the offset
	// out by their first code point.
	rs := m.read(i)
	end := -1
	for k := range s.values {
		v := &s.values[k]
		if !v.allows(b, i) || !m.begins(v, &rs) {
			continue
		}
		if e := m.match(k, v, i); e > end {
			end = e
			if !m.longest {
				break
			}
		}
	}
	return end
}

// trailingIgnorable returns how many bytes at the end of b are characters
// that show nothing (ignorable).
func trailingIgnorable(b []byte) int {
	t := 0
	for t < len(b) {
		r, n := utf8.DecodeLastRune(b[:len(b)-t])
		if r == utf8.RuneError && n <= 1 || !ignorable(r) {
			break
		}
		t += n
	}
	return t
}

// leadingIgnorable returns how many bytes at the start of b are
// characters that show nothing.
func leadingIgnorable(b []byte) int {
	t := 0
	for t < len(b) {
		r, n := utf8.DecodeRune(b[t:])
		if r == utf8.RuneError && n <= 1 || !ignorable(r) {
			break
		}
		t += n
	}
	return t
}
