package receipt

import (
	"fmt"
	"strconv"
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
		if r != utf8.RuneError && !strconv.IsPrint(r) {
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
		case r == utf8.RuneError || strconv.IsPrint(r):
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
