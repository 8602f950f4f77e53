package scrub

import (
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// speller writes a value the way a page could, choosing at random for each
// character — and, nested, for each character of an escape — among the
// spellings the package promises to find. The tests check that a Set
// finds whatever it writes; it is the package's claim, written the other
// way round.
type speller struct {
	rng *rand.Rand
	// forms, when set, limits the families used: "raw", "json", "js", "css",
	// "percent", "escape()", "html", "ignorable".
	forms map[string]bool
}

func newSpeller(seed uint64, forms ...string) *speller {
	s := &speller{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	if len(forms) > 0 {
		s.forms = map[string]bool{}
		for _, f := range forms {
			s.forms[f] = true
		}
	}
	return s
}

func (s *speller) allowed(form string) bool { return s.forms == nil || s.forms[form] }

// item is a piece of a spelling: fixed text, or a terminator (the ; of an
// HTML reference, the space after a CSS escape) that may be left out when
// the byte after it cannot extend the escape.
type item struct {
	text     string
	optional []item
	// keep reports whether the terminator must stay before the byte next;
	// coin keeps it anyway.
	keep func(next byte) bool
	coin bool
}

// spell returns a spelling of value in a random normalisation form, every
// character spelt at random down to depth levels of escapes.
func (s *speller) spell(value string, depth int) string {
	forms := []norm.Form{norm.NFC, norm.NFD, norm.NFKC, norm.NFKD}
	v := forms[s.rng.IntN(len(forms))].String(strings.ToValidUTF8(value, "\uFFFD"))
	var items []item
	first := true
	for _, r := range v {
		if !first && s.allowed("ignorable") && s.rng.IntN(6) == 0 && norm.NFKD.PropertiesString(string(r)).CCC() == 0 {
			// Invisible characters between two characters of the value.
			inv := []rune{0x200B, 0x200C, 0x200D, 0x00AD, 0x2060, 0xFEFF, 0x202E, 0xFE0F, 0, 0xFFF9, 0x0600, 0xE000, 0x0378}
			items = append(items, s.char(inv[s.rng.IntN(len(inv))], depth, false)...)
		}
		if !first && s.allowed("ignorable") && s.rng.IntN(8) == 0 && norm.NFKD.PropertiesString(string(r)).CCC() == 0 {
			// Two text nodes of one element, as a trace's DOM snapshot
			// writes them.
			items = append(items, item{text: `","`})
		}
		first = false
		items = append(items, s.char(r, depth, false)...)
	}
	return flatten(items)
}

// flatten joins the items, leaving out each optional terminator the byte
// after it allows to leave out, at random. The last one always stays: the
// byte after the spelling is not known.
func flatten(items []item) string {
	var out []byte
	var walk func(items []item)
	walk = func(items []item) {
		for i := len(items) - 1; i >= 0; i-- {
			it := items[i]
			if it.keep == nil {
				out = append([]byte(it.text), out...)
				continue
			}
			if len(out) == 0 || it.keep(out[0]) || it.coin {
				walk(it.optional)
			}
		}
	}
	walk(items)
	return string(out)
}

func isHexByte(c byte) bool   { return digitValue(rune(c), 16) >= 0 }
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// terminator is an optional ; or space, spelt itself at depth; mustKeep
// reports whether it has to stay before a byte.
func (s *speller) terminator(r rune, depth int, mustKeep func(next byte) bool) item {
	return item{optional: s.char(r, depth, true), keep: mustKeep, coin: s.rng.IntN(2) == 0}
}

// char spells one character at up to depth levels. An exact character
// (of an escape's syntax) is spelt as itself; another may be spelt as a
// character that decomposes to it (&popf; for p).
func (s *speller) char(r rune, depth int, exact bool) []item {
	type form struct {
		name  string
		spell func() []item
	}
	hexCase := func(h string) string {
		if s.rng.IntN(2) == 0 {
			return strings.ToUpper(h)
		}
		return strings.ToLower(h)
	}
	// syntax spells the characters of an escape one level down.
	syntax := func(text string) []item {
		var out []item
		for _, c := range text {
			out = append(out, s.char(c, depth-1, true)...)
		}
		return out
	}
	forms := []form{{"raw", func() []item { return []item{{text: string(r)}} }}}
	if depth > 0 {
		u16 := utf16(r)
		forms = append(forms,
			form{"json", func() []item {
				var out []item
				for _, u := range u16 {
					out = append(out, syntax(`\u`+hexCase(fmt.Sprintf("%04x", u)))...)
				}
				return out
			}},
			form{"js", func() []item { return syntax(`\u{` + hexCase(fmt.Sprintf("%x", r)) + `}`) }},
		)
		if r != 0 {
			forms = append(forms, form{"css", func() []item {
				digits := hexCase(fmt.Sprintf("%x", r))
				if s.rng.IntN(2) == 0 {
					digits = hexCase(fmt.Sprintf("%06x", r))
				}
				return append(syntax(`\`+digits), s.terminator(' ', depth-1, func(next byte) bool {
					return isHexByte(next) || strings.IndexByte(" \t\n\r\f", next) >= 0
				}))
			}})
		}
		forms = append(forms,
			form{"percent", func() []item {
				var out []item
				for i, b := range []byte(string(r)) {
					if i > 0 && s.rng.IntN(3) == 0 {
						// A continuation byte left raw.
						out = append(out, item{text: string([]byte{b})})
						continue
					}
					out = append(out, syntax("%"+hexCase(fmt.Sprintf("%02x", b)))...)
				}
				return out
			}},
			form{"escape()", func() []item {
				if r < 0x100 {
					return syntax("%" + hexCase(fmt.Sprintf("%02x", r)))
				}
				var out []item
				for _, u := range u16 {
					out = append(out, syntax("%u"+hexCase(fmt.Sprintf("%04x", u)))...)
				}
				return out
			}},
		)
		if r != 0 && (r < 0x80 || r > 0x9F) {
			// HTML reads &#0; and &#128; to &#159; as other characters.
			forms = append(forms, form{"html", func() []item {
				if s.rng.IntN(2) == 0 {
					zeros := strings.Repeat("0", s.rng.IntN(4))
					return append(syntax(fmt.Sprintf("&#%s%d", zeros, r)), s.terminator(';', depth-1, func(next byte) bool {
						return isDigitByte(next) || next == ';'
					}))
				}
				x := "x"
				if s.rng.IntN(2) == 0 {
					x = "X"
				}
				return append(syntax("&#"+x+hexCase(fmt.Sprintf("%x", r))), s.terminator(';', depth-1, func(next byte) bool {
					return isHexByte(next) || next == ';'
				}))
			}})
		}
		if r < 0x100 {
			forms = append(forms,
				form{"js", func() []item { return syntax(`\x` + hexCase(fmt.Sprintf("%02x", r))) }},
				form{"js", func() []item { return syntax(fmt.Sprintf(`\%03o`, r)) }},
			)
		}
		if e, ok := jsonShort[r]; ok {
			forms = append(forms, form{"json", func() []item { return syntax(`\` + string(e)) }})
		}
		if r != '\n' && r != '\r' && r != '\f' && !isHexByte(byte(r)) || r >= utf8.RuneSelf {
			forms = append(forms, form{"js", func() []item { return append(syntax(`\`), s.char(r, depth-1, exact)...) }})
		}
		if r == ' ' {
			forms = append(forms, form{"percent", func() []item { return syntax("+") }})
		}
		if depth == maxDepth {
			// JSON nested k levels deep, as JSON.stringify applied k times
			// writes it.
			k := 1 + s.rng.IntN(5)
			forms = append(forms, form{"json", func() []item {
				if e, ok := jsonShort[r]; ok {
					if r == '\\' {
						return []item{{text: strings.Repeat(`\`, 1<<k)}}
					}
					return []item{{text: strings.Repeat(`\`, 1<<k-1) + string(e)}}
				}
				var b strings.Builder
				for _, u := range u16 {
					b.WriteString(strings.Repeat(`\`, 1<<(k-1)) + "u" + hexCase(fmt.Sprintf("%04x", u)))
				}
				return []item{{text: b.String()}}
			}})
		}
		for _, name := range htmlNames[r] {
			if exact && html.UnescapeString("&"+name+";") != string(r) {
				continue
			}
			forms = append(forms, form{"html", func() []item {
				if legacy[name] {
					return append(syntax("&"+name), s.terminator(';', depth-1, func(next byte) bool {
						return isAlnum(rune(next)) || next == ';'
					}))
				}
				return syntax("&" + name + ";")
			}})
		}
	}
	var usable []form
	for _, f := range forms {
		if f.name == "raw" || s.allowed(f.name) {
			usable = append(usable, f)
		}
	}
	return usable[s.rng.IntN(len(usable))].spell()
}

// utf16 is r's UTF-16 code units.
func utf16(r rune) []rune {
	if r < 0x10000 {
		return []rune{r}
	}
	r -= 0x10000
	return []rune{0xD800 + r>>10, 0xDC00 + r&0x3FF}
}

// jsonShort are the one-letter escapes JSON writes.
var jsonShort = map[rune]rune{'"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// htmlNames lists HTML's names for some characters, checked against the
// html package when the tests start; legacy marks those HTML reads
// without the ;.
var htmlNames, legacy = func() (map[rune][]string, map[string]bool) {
	names := map[rune][]string{}
	leg := map[string]bool{}
	candidates := []string{"amp", "lt", "gt", "quot", "apos", "nbsp", "eacute", "Eacute", "uuml", "ntilde", "Aring", "aring", "szlig",
		"copy", "num", "percnt", "bsol", "semi", "excl", "dollar", "lpar", "rpar", "ast", "plus", "comma", "period", "sol",
		"colon", "equals", "quest", "commat", "lsqb", "rsqb", "Hat", "lowbar", "grave", "lcub", "verbar", "rcub", "hyphen", "fjlig"}
	for c := 'a'; c <= 'z'; c++ {
		candidates = append(candidates, string(c)+"opf", strings.ToUpper(string(c))+"opf", string(c)+"fr")
	}
	for _, n := range candidates {
		v := html.UnescapeString("&" + n + ";")
		if v == "&"+n+";" {
			panic("not an HTML name: " + n)
		}
		d := []rune(norm.NFKD.String(v))
		if len([]rune(v)) != 1 {
			continue
		}
		r := []rune(v)[0]
		names[r] = append(names[r], n)
		// A character that decomposes to a letter is a spelling of it.
		if len(d) == 1 && d[0] != r {
			names[d[0]] = append(names[d[0]], n)
		}
		if html.UnescapeString("&"+n+" ") == v+" " {
			leg[n] = true
		}
	}
	return names, leg
}()
