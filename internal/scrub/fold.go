package scrub

import (
	"slices"
	"strings"
)

// ReplaceStringAnyCase is ReplaceString for a set whose values are all in
// lower case (FoldASCII): it replaces every spelling of a value written in
// any case of its ASCII letters, matching on t with its ASCII letters
// lowered, which keeps every byte offset. Escapes keep the case of the
// letters they stand for, so for those the set of the values as they are
// must run first. The mask must start and end with a character no value
// holds, so that it cannot spell a value with the text around it.
func (s *Set) ReplaceStringAnyCase(t, mask string) string {
	low := []byte(FoldASCII(t)) // lowered once: offsets in it are offsets in t
	var out strings.Builder
	for at := 0; ; {
		start, end := s.Index(low[at:])
		if start < 0 || end <= start {
			out.WriteString(t[at:])
			return out.String()
		}
		out.WriteString(t[at : at+start])
		out.WriteString(mask)
		at += end
	}
}

// FoldASCII lowers the ASCII letters of t and nothing else, so that every
// byte stays where it was.
func FoldASCII(t string) string {
	b := []byte(t)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Reverse is t, a string of ASCII characters, backwards.
func Reverse(t string) string {
	b := []byte(t)
	slices.Reverse(b)
	return string(b)
}
