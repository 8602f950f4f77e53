package scrub

import "slices"

// FoldASCII lowers the ASCII letters of t and nothing else, byte for byte.
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
