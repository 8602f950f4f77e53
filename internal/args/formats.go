package args

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// formatValues are canonical values of the formats JSON Schema defines,
// the one to use first, then shorter ones for a maxLength, and for formats that can grow, how to grow one to a
// length: documentation addresses and example domains (RFC 2606, RFC 5737,
// RFC 3849) that no page will mistake for a real person's data.
var formatValues = map[string]struct {
	values []string
	grow   func(n int) string // a value of exactly n characters, or ""
}{
	"email":                 {[]string{"glass@example.com", "a@example.com"}, growInside("glass", "@example.com")},
	"idn-email":             {[]string{"glass@example.com", "a@example.com"}, growInside("glass", "@example.com")},
	"hostname":              {[]string{"example.com"}, growHost},
	"idn-hostname":          {[]string{"example.com"}, growHost},
	"uri":                   {[]string{"https://example.com/glass", "https://example.com/"}, growInside("https://example.com/glass", "")},
	"url":                   {[]string{"https://example.com/glass", "https://example.com/"}, growInside("https://example.com/glass", "")},
	"iri":                   {[]string{"https://example.com/glass", "https://example.com/"}, growInside("https://example.com/glass", "")},
	"uri-reference":         {[]string{"/glass"}, growInside("/glass", "")},
	"iri-reference":         {[]string{"/glass"}, growInside("/glass", "")},
	"uri-template":          {[]string{"https://example.com/{id}"}, nil},
	"date":                  {[]string{"2024-01-02"}, nil},
	"date-time":             {[]string{"2024-01-02T03:04:05Z"}, nil},
	"time":                  {[]string{"03:04:05Z"}, nil},
	"duration":              {[]string{"P1D"}, nil},
	"uuid":                  {[]string{"123e4567-e89b-42d3-a456-426614174000"}, nil},
	"ipv4":                  {[]string{"192.0.2.1"}, nil},
	"ipv6":                  {[]string{"2001:db8::1"}, nil},
	"json-pointer":          {[]string{"/glass"}, growInside("/glass", "")},
	"relative-json-pointer": {[]string{"0"}, nil},
	"regex":                 {[]string{"glass"}, growInside("glass", "")},
}

// growInside grows a value by x's between prefix and suffix.
func growInside(prefix, suffix string) func(int) string {
	return func(n int) string {
		k := n - utf8.RuneCountInString(prefix+suffix)
		if k < 0 {
			return ""
		}
		return prefix + strings.Repeat("x", k) + suffix
	}
}

// growHost grows a hostname by labels of at most 63 characters.
func growHost(n int) string {
	base := "example.com"
	k := n - len(base)
	if k < 2 {
		return ""
	}
	var labels []string
	for k > 1 {
		l := min(63, k-1)
		labels = append(labels, strings.Repeat("x", l))
		k -= l + 1
	}
	if k == 1 {
		return "" // one character left over: no label is empty
	}
	return strings.Join(labels, ".") + "." + base
}

// formatString returns a value of a known format within the length
// bounds that accept takes; known is false for a format this package does
// not know (JSON Schema ignores those, so a plain string is valid).
func formatString(format string, lo, hi, variant int, accept func(string) bool) (v string, known bool, err error) {
	f, ok := formatValues[format]
	if !ok {
		return "", false, nil
	}
	candidates := append([]string(nil), f.values...)
	if f.grow != nil {
		for _, n := range []int{lo, lo + variant + 1} {
			if g := f.grow(n); g != "" {
				candidates = append(candidates, g)
			}
		}
	}
	n := 0
	for _, c := range candidates {
		if lengthOK(c, lo, hi) && accept(c) {
			if n == variant {
				return c, true, nil
			}
			n++
		}
	}
	return "", true, fmt.Errorf("cannot build a %q string %s that the schema accepts", format, lengthPhrase(lo, hi))
}
