package scrub

import "slices"

// foldASCII lowers the ASCII letters of t and nothing else.
func foldASCII(t string) string {
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
