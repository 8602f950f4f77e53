package scrub

import (
	"html"
	"strconv"
	"sync"
	"unicode/utf8"
)

// This file reads one character of a text in every spelling a page can
// give it. A reading is a character and the offset where its spelling ends;
// one offset usually has one reading, and a few have several (`\n` is a
// newline in JSON and an "n" in CSS; "%C3%A9" is "é" in UTF-8 and "Ã" then
// "©" as JavaScript's escape() wrote them). The matcher tries every
// reading, so an ambiguity never hides a value: it can only find one more.
//
// Escapes nest: the characters that make up an escape — the backslash and
// hex digits of `\u0047`, the % of "%47", the & and digits of "&#71;" — may
// themselves be spelt in any form, down to maxDepth levels. `\\u0047` (JSON
// inside JSON), "%2547" (double percent-encoding), "\u0026#71;" (an HTML
// reference inside JSON as Go writes it) and "%5Cu0047" are each a "G" two
// levels down.

// maxDepth is how many encodings may be stacked on one character. Two
// covers JSON inside JSON, percent-encoding twice and every pair of the
// families (an HTML reference in a JSON string in a trace, say); each level
// more multiplies the work at an escape character.
const maxDepth = 2

// noRune marks the absence of a second rune in a reading.
const noRune = -1

// zeroWidthSpace is what a spelling of nothing reads as.
const zeroWidthSpace = '\u200B'

// reading is one way to read one character: r (and r2, for the few HTML
// references that stand for two code points) spelt up to end.
type reading struct {
	r, r2 rune
	end   int
}

// readings is a small set of readings. Most offsets have one or two, so
// they live in the array and a scan allocates nothing for them.
type readings struct {
	n    int
	a    [4]reading
	more []reading
}

func (rs *readings) len() int { return rs.n + len(rs.more) }

func (rs *readings) at(i int) reading {
	if i < rs.n {
		return rs.a[i]
	}
	return rs.more[i-rs.n]
}

// add adds x unless the set holds it already.
func (rs *readings) add(x reading) {
	for i := range rs.len() {
		if rs.at(i) == x {
			return
		}
	}
	if rs.n < len(rs.a) {
		rs.a[rs.n] = x
		rs.n++
		return
	}
	rs.more = append(rs.more, x)
}

// ends is a small set of offsets where a piece of syntax ends.
type ends struct {
	n    int
	a    [4]int
	more []int
}

func (es *ends) len() int { return es.n + len(es.more) }

func (es *ends) at(i int) int {
	if i < es.n {
		return es.a[i]
	}
	return es.more[i-es.n]
}

func (es *ends) add(x int) {
	for i := range es.len() {
		if es.at(i) == x {
			return
		}
	}
	if es.n < len(es.a) {
		es.a[es.n] = x
		es.n++
		return
	}
	es.more = append(es.more, x)
}

// reader reads the spellings of one text.
type reader struct {
	text []byte
}

// introducer reports whether c can begin an escape, at any depth: every
// escape's spelling begins with the spelling of \, %, & or +, and each of
// those begins with one of them again.
func introducer(c byte) bool {
	return c == '\\' || c == '%' || c == '&' || c == '+'
}

// raw reads the character at pos as it is: a UTF-8 sequence, or one byte
// that is not valid UTF-8, read as U+FFFD as a browser or an encoder shows it.
func (rd *reader) raw(pos int) reading {
	if c := rd.text[pos]; c < utf8.RuneSelf {
		return reading{r: rune(c), r2: noRune, end: pos + 1}
	}
	r, n := utf8.DecodeRune(rd.text[pos:])
	return reading{r: r, r2: noRune, end: pos + n}
}

// read adds to out every reading of the character at pos with up to depth
// levels of escapes.
func (rd *reader) read(pos, depth int, out *readings) {
	if pos >= len(rd.text) {
		return
	}
	c := rd.text[pos]
	if depth > 0 && c >= 0xC2 && c <= 0xF4 {
		if a := rd.raw(pos); a.r == utf8.RuneError && a.end == pos+1 {
			// A lead byte whose continuation bytes are percent-encoded.
			out.add(a)
			rd.continuation([4]byte{c}, 1, pos+1, depth-1, utf8Continuations(c), out)
			return
		}
	}
	if depth == 0 || !introducer(c) {
		out.add(rd.raw(pos))
		return
	}
	if depth == maxDepth && rd.text[pos] == '\\' {
		rd.backslashRun(pos, out)
	}
	var base readings
	rd.read(pos, depth-1, &base)
	// The escapes whose introducer is one of the readings one level down;
	// their other characters are read one level down too.
	for i := range base.len() {
		a := base.at(i)
		out.add(a)
		if a.r2 != noRune {
			continue
		}
		switch a.r {
		case '\\':
			rd.backslash(a.end, depth-1, out)
		case '%':
			rd.percent(a.end, depth-1, out)
		case '&':
			rd.reference(a.end, depth-1, out)
		case '+':
			// A space in a form body or a query (url.QueryEscape).
			out.add(reading{r: ' ', r2: noRune, end: a.end})
		}
	}
}

// runCap bounds the run of backslashes backslashRun reads: 64 is JSON
// nested seven levels deep, and the bound keeps a text of backslashes
// linear to scan.
const runCap = 64

// backslashRun reads a run of backslashes at pos as JSON nested any number
// of times writes it: each level doubles the backslashes of the one
// inside, so a backslash is 2, 4, 8… of them, a quote 1, 3, 7… before it,
// and \u0047 1, 2, 4… before the u. Any run before an escape's letter is
// read as that escape, which can only find more.
func (rd *reader) backslashRun(pos int, out *readings) {
	n := 0
	for pos+n < len(rd.text) && rd.text[pos+n] == '\\' && n <= runCap {
		n++
	}
	if n < 2 || n > runCap {
		return
	}
	for k := 2; k <= n; k *= 2 {
		out.add(reading{r: '\\', r2: noRune, end: pos + k})
	}
	if pos+n < len(rd.text) && rd.text[pos+n] == 'u' {
		// A surrogate pair's low half has a run of its own.
		var hs numbers
		rd.digits(pos+n+1, 0, 16, 4, 4, &hs)
		for i := range hs.len() {
			h := hs.at(i)
			rd.unit(rune(h.val), h.end, 0, out, rd.runUnit)
		}
	}
	rd.backslash(pos+n, 0, out)
}

// runUnit reads a \uXXXX code unit at pos after a run of backslashes.
func (rd *reader) runUnit(pos, _ int, out *numbers) {
	n := 0
	for pos+n < len(rd.text) && rd.text[pos+n] == '\\' && n <= runCap {
		n++
	}
	if n == 0 || n > runCap || pos+n >= len(rd.text) || rd.text[pos+n] != 'u' {
		return
	}
	rd.digits(pos+n+1, 0, 16, 4, 4, out)
}

// char adds to out the ends of the readings of the character at pos at
// depth d that are the ASCII character c, for the syntax of an escape.
func (rd *reader) char(pos, d int, c byte, out *ends) {
	if pos >= len(rd.text) {
		return
	}
	if d == 0 || !introducer(rd.text[pos]) {
		if rd.text[pos] == c {
			out.add(pos + 1)
		}
		return
	}
	var rs readings
	rd.read(pos, d, &rs)
	for i := range rs.len() {
		if a := rs.at(i); a.r == rune(c) && a.r2 == noRune {
			out.add(a.end)
		}
	}
}

// number is a run of digits read at some depth: its value (saturated above
// the last code point), where it ends and how many digits it has.
type number struct {
	val uint64
	end int
	n   int
}

// numbers is a small set of numbers.
type numbers struct {
	n    int
	a    [4]number
	more []number
}

func (ns *numbers) len() int { return ns.n + len(ns.more) }

func (ns *numbers) at(i int) number {
	if i < ns.n {
		return ns.a[i]
	}
	return ns.more[i-ns.n]
}

func (ns *numbers) add(x number) {
	for i := range ns.len() {
		if ns.at(i) == x {
			return
		}
	}
	if ns.n < len(ns.a) {
		ns.a[ns.n] = x
		ns.n++
		return
	}
	ns.more = append(ns.more, x)
}

// saturated is above every code point: a number that large stands for no
// character.
const saturated = 0x110000

func digitValue(r rune, base int) int {
	var v int
	switch {
	case r >= '0' && r <= '9':
		v = int(r - '0')
	case r >= 'a' && r <= 'f':
		v = int(r-'a') + 10
	case r >= 'A' && r <= 'F':
		v = int(r-'A') + 10
	default:
		return -1
	}
	if v >= base {
		return -1
	}
	return v
}

// digits adds to out the digits in base at pos, each read at depth d:
// exactly min digits when max == min, else a greedy run of min to max
// digits (max 0: no limit), as CSS, HTML and JavaScript read them. Every
// way of reading gives its own number.
func (rd *reader) digits(pos, d, base, min, max int, out *numbers) {
	// Two sets, swapped at each digit: most runs have one path, and fresh
	// sets would cost their zeroing at every digit.
	var sets [2]numbers
	paths, next := &sets[0], &sets[1]
	paths.add(number{end: pos})
	for paths.len() > 0 {
		next.n, next.more = 0, next.more[:0]
		for i := range paths.len() {
			p := paths.at(i)
			if max > 0 && p.n == max {
				out.add(p)
				continue
			}
			stops := false
			switch {
			case p.end >= len(rd.text):
				stops = true
			case d == 0 || !introducer(rd.text[p.end]):
				// A byte that begins no escape reads only as itself.
				if v := digitValue(rune(rd.text[p.end]), base); v >= 0 {
					next.add(number{val: min64(p.val*uint64(base)+uint64(v), saturated), end: p.end + 1, n: p.n + 1})
				} else {
					stops = true
				}
			default:
				var alts readings
				rd.read(p.end, d, &alts)
				for j := range alts.len() {
					a := alts.at(j)
					v := -1
					if a.r2 == noRune {
						v = digitValue(a.r, base)
					}
					if v < 0 {
						stops = true
						continue
					}
					next.add(number{val: min64(p.val*uint64(base)+uint64(v), saturated), end: a.end, n: p.n + 1})
				}
			}
			// A greedy run ends where some reading of the next character is
			// not a digit.
			if stops && max != min && p.n >= min {
				out.add(p)
			}
		}
		paths, next = next, paths
	}
}

func min64(a, b uint64) uint64 {
	if a < b {
		return a
	}
	return b
}

// shortEscape is the character of a one-letter escape of JSON,
// JavaScript, Go and C.
func shortEscape(c rune) (rune, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case '0':
		return 0, true
	}
	return 0, false
}

// backslash reads what follows a backslash at pos, its characters at depth
// d: JSON's and JavaScript's escapes (\" \\ \/ \n …, \u0047, surrogate
// pairs, \u{1F600}, \x47, legacy octal \107), Go's \a and \U0001F600, CSS's (\47 and \000047, with
// the optional space after them) and the identity escapes of both (\G).
func (rd *reader) backslash(pos, d int, out *readings) {
	var cs readings
	rd.read(pos, d, &cs)
	for i := range cs.len() {
		c := cs.at(i)
		if c.r2 != noRune {
			continue
		}
		switch c.r {
		case 'u':
			var hs numbers
			rd.digits(c.end, d, 16, 4, 4, &hs)
			rd.braced(c.end, d, &hs)
			for j := range hs.len() {
				h := hs.at(j)
				rd.unit(rune(h.val), h.end, d, out, rd.backslashUnit)
			}
		case 'U':
			// Go's and C's eight-digit escape.
			var hs numbers
			rd.digits(c.end, d, 16, 8, 8, &hs)
			for j := range hs.len() {
				if h := hs.at(j); h.val <= 0x10FFFF && (h.val < 0xD800 || h.val > 0xDFFF) {
					out.add(reading{r: rune(h.val), r2: noRune, end: h.end})
				}
			}
		case 'x':
			var hs numbers
			rd.digits(c.end, d, 16, 2, 2, &hs)
			for j := range hs.len() {
				h := hs.at(j)
				out.add(reading{r: rune(h.val), r2: noRune, end: h.end})
			}
		}
		if e, ok := shortEscape(c.r); ok {
			out.add(reading{r: e, r2: noRune, end: c.end})
		}
		if c.r == '\n' || c.r == '\r' || c.r == '\f' || c.r == '\u2028' || c.r == '\u2029' {
			// A line continuation in a CSS or JavaScript string stands for
			// nothing (JavaScript's line terminators include the line and
			// paragraph separators): it reads as a zero-width space, which
			// the matcher passes over between two characters.
			out.add(reading{r: zeroWidthSpace, r2: noRune, end: c.end})
			if c.r == '\r' {
				var lf ends
				rd.char(c.end, d, '\n', &lf)
				for k := range lf.len() {
					out.add(reading{r: zeroWidthSpace, r2: noRune, end: lf.at(k)})
				}
			}
		}
		if digitValue(c.r, 16) >= 0 {
			rd.css(pos, d, out)
		}
		if c.r != '\n' && c.r != '\r' && c.r != '\f' && identityToo(c.r) {
			// The identity escape of JavaScript strings and of CSS.
			out.add(reading{r: c.r, r2: noRune, end: c.end})
		}
		if digitValue(c.r, 8) >= 0 {
			// Legacy octal escapes of sloppy-mode JavaScript: up to three
			// digits, at most \377. Every length is taken, which can only
			// find more.
			for n := 1; n <= 3; n++ {
				var os numbers
				rd.digits(pos, d, 8, n, n, &os)
				for j := range os.len() {
					if o := os.at(j); o.val <= 0o377 {
						out.add(reading{r: rune(o.val), r2: noRune, end: o.end})
					}
				}
			}
		}
	}
}

// identityToo reports whether a backslash before c may stand for c itself
// in some language Glass reads: always in CSS but before a hex digit, and
// in JavaScript strings before any character without a meaning of its
// own there — so before the hex letters a, c, d, e and A–F and the digits
// 8 and 9 too (JavaScript's "\c" is "c", CSS's a hex escape), not before
// b and f (a backspace and a form feed) or an octal digit.
func identityToo(c rune) bool {
	return digitValue(c, 16) < 0 || digitValue(c, 8) < 0 && c != 'b' && c != 'f'
}

// braced adds the code units of the {1F600} of \u{1F600} at pos.
func (rd *reader) braced(pos, d int, out *numbers) {
	var opens ends
	rd.char(pos, d, '{', &opens)
	for i := range opens.len() {
		var hs numbers
		rd.digits(opens.at(i), d, 16, 1, 0, &hs)
		for j := range hs.len() {
			h := hs.at(j)
			var closes ends
			rd.char(h.end, d, '}', &closes)
			for k := range closes.len() {
				out.add(number{val: h.val, end: closes.at(k), n: h.n})
			}
		}
	}
}

// css reads a CSS escape's one to six hex digits at pos, and the one
// optional white space after them.
func (rd *reader) css(pos, d int, out *readings) {
	var hs numbers
	rd.digits(pos, d, 16, 1, 6, &hs)
	for i := range hs.len() {
		h := hs.at(i)
		r := cssCodePoint(h.val)
		out.add(reading{r: r, r2: noRune, end: h.end})
		var ws readings
		rd.read(h.end, d, &ws)
		for j := range ws.len() {
			switch w := ws.at(j); w.r {
			case ' ', '\t', '\n', '\f':
				out.add(reading{r: r, r2: noRune, end: w.end})
			case '\r':
				out.add(reading{r: r, r2: noRune, end: w.end})
				var lf ends
				rd.char(w.end, d, '\n', &lf)
				for k := range lf.len() {
					out.add(reading{r: r, r2: noRune, end: lf.at(k)})
				}
			}
		}
	}
}

// cssCodePoint is the character a CSS escape of v stands for.
func cssCodePoint(v uint64) rune {
	if v == 0 || v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF {
		return utf8.RuneError
	}
	return rune(v)
}

// unit adds the character of a UTF-16 code unit u spelt up to end: a high
// surrogate needs the low one, read by next (an escape of the same family)
// right after it; a lone surrogate reads as U+FFFD, as it does once a
// browser encodes it.
func (rd *reader) unit(u rune, end, d int, out *readings, next func(pos, d int, out *numbers)) {
	switch {
	case u > 0x10FFFF:
	case u >= 0xDC00 && u <= 0xDFFF:
		out.add(reading{r: utf8.RuneError, r2: noRune, end: end})
	case u >= 0xD800 && u <= 0xDBFF:
		out.add(reading{r: utf8.RuneError, r2: noRune, end: end})
		var los numbers
		next(end, d, &los)
		for i := range los.len() {
			if lo := los.at(i); lo.val >= 0xDC00 && lo.val <= 0xDFFF {
				r := 0x10000 + (u-0xD800)<<10 + (rune(lo.val) - 0xDC00)
				out.add(reading{r: r, r2: noRune, end: lo.end})
			}
		}
	default:
		out.add(reading{r: u, r2: noRune, end: end})
	}
}

// backslashUnit reads a \uXXXX or \u{…} code unit at pos.
func (rd *reader) backslashUnit(pos, d int, out *numbers) {
	var bs ends
	rd.char(pos, d, '\\', &bs)
	for i := range bs.len() {
		var us ends
		rd.char(bs.at(i), d, 'u', &us)
		for j := range us.len() {
			rd.digits(us.at(j), d, 16, 4, 4, out)
			rd.braced(us.at(j), d, out)
		}
	}
}

// percentUnit reads a %uXXXX code unit at pos.
func (rd *reader) percentUnit(pos, d int, out *numbers) {
	var pcs ends
	rd.char(pos, d, '%', &pcs)
	for i := range pcs.len() {
		var us ends
		rd.char(pcs.at(i), d, 'u', &us)
		for j := range us.len() {
			rd.digits(us.at(j), d, 16, 4, 4, out)
		}
	}
}

// percent reads what follows a % at pos, its characters at depth d: the
// bytes of a character's UTF-8 form, each percent-encoded or raw (as
// encodeURIComponent, url.QueryEscape and url.PathEscape write them); a
// byte as the code point of the same number (JavaScript's escape() for
// U+0080 to U+00FF); and escape()'s %uXXXX.
func (rd *reader) percent(pos, d int, out *readings) {
	var hs numbers
	rd.digits(pos, d, 16, 2, 2, &hs)
	for i := range hs.len() {
		h := hs.at(i)
		b := byte(h.val)
		out.add(reading{r: rune(b), r2: noRune, end: h.end})
		if need := utf8Continuations(b); need > 0 {
			rd.continuation([4]byte{b}, 1, h.end, d, need, out)
		}
	}
	var us ends
	rd.char(pos, d, 'u', &us)
	for i := range us.len() {
		var hs numbers
		rd.digits(us.at(i), d, 16, 4, 4, &hs)
		for j := range hs.len() {
			h := hs.at(j)
			rd.unit(rune(h.val), h.end, d, out, rd.percentUnit)
		}
	}
}

// utf8Continuations is how many continuation bytes follow the lead byte b
// of a UTF-8 sequence (0 if it leads none).
func utf8Continuations(b byte) int {
	switch {
	case b >= 0xC2 && b <= 0xDF:
		return 1
	case b >= 0xE0 && b <= 0xEF:
		return 2
	case b >= 0xF0 && b <= 0xF4:
		return 3
	}
	return 0
}

// continuation reads the need continuation bytes of a UTF-8 sequence that
// begins with seq[:n], from pos: each raw or percent-encoded.
func (rd *reader) continuation(seq [4]byte, n, pos, d, need int, out *readings) {
	if need == 0 {
		// An invalid sequence decodes to one byte; U+FFFD spelt validly
		// decodes to all of them.
		if r, size := utf8.DecodeRune(seq[:n]); size == n {
			out.add(reading{r: r, r2: noRune, end: pos})
		}
		return
	}
	if pos < len(rd.text) && rd.text[pos] >= 0x80 && rd.text[pos] <= 0xBF {
		next := seq
		next[n] = rd.text[pos]
		rd.continuation(next, n+1, pos+1, d, need-1, out)
	}
	var pcs ends
	rd.char(pos, d, '%', &pcs)
	for i := range pcs.len() {
		var hs numbers
		rd.digits(pcs.at(i), d, 16, 2, 2, &hs)
		for j := range hs.len() {
			if h := hs.at(j); h.val >= 0x80 && h.val <= 0xBF {
				next := seq
				next[n] = byte(h.val)
				rd.continuation(next, n+1, h.end, d, need-1, out)
			}
		}
	}
}

// reference reads what follows an & at pos, its characters at depth d: a
// numeric character reference (&#71; &#x47; &#X47;, any number of leading
// zeros, the ; optional) or a named one (&amp; &eacute; &Aopf;, and the
// legacy names HTML reads without the ;), as a browser reads them in text.
func (rd *reader) reference(pos, d int, out *readings) {
	var hashes ends
	rd.char(pos, d, '#', &hashes)
	for i := range hashes.len() {
		hash := hashes.at(i)
		var nums numbers
		var xs ends
		rd.char(hash, d, 'x', &xs)
		rd.char(hash, d, 'X', &xs)
		for j := range xs.len() {
			rd.digits(xs.at(j), d, 16, 1, 0, &nums)
		}
		rd.digits(hash, d, 10, 1, 0, &nums)
		for j := range nums.len() {
			n := nums.at(j)
			rd.semicolon(reading{r: htmlCodePoint(n.val), r2: noRune, end: n.end}, d, out)
		}
	}
	rd.named(pos, d, out)
}

// semicolon adds a, ended there or by a ; that follows it.
func (rd *reader) semicolon(a reading, d int, out *readings) {
	out.add(a)
	var semis ends
	rd.char(a.end, d, ';', &semis)
	for i := range semis.len() {
		b := a
		b.end = semis.at(i)
		out.add(b)
	}
}

// htmlCodePoint is the character a numeric character reference to v stands
// for in HTML: C1 controls are read as Windows-1252, and no character as
// U+FFFD.
func htmlCodePoint(v uint64) rune {
	switch {
	case v >= 0x80 && v <= 0x9F:
		return windows1252[v-0x80]
	case v == 0 || v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF:
		return utf8.RuneError
	}
	return rune(v)
}

// windows1252 is what HTML reads &#128; to &#159; as, taken from the html
// package so the two agree.
var windows1252 = func() (t [32]rune) {
	for i := range t {
		r, _ := utf8.DecodeRuneInString(html.UnescapeString("&#" + strconv.Itoa(0x80+i) + ";"))
		t[i] = r
	}
	return t
}()

// nameCap bounds the name of a reference read: the longest name HTML
// knows, with its ;, is 32 characters.
const nameCap = 33

// namePath is a run of ASCII letters and digits read so far, with the end
// of each character.
type namePath struct {
	n    int
	name [nameCap]byte
	ends [nameCap]int
}

// named reads a named character reference after the & at pos, as
// html.UnescapeString does: the longest run of letters and digits (and a ;
// after it) that names a reference, else its longest prefix of up to six
// characters that names a legacy reference, which HTML reads without the ;.
func (rd *reader) named(pos, d int, out *readings) {
	if pos >= len(rd.text) || !isAlnum(rune(rd.text[pos])) && !introducer(rd.text[pos]) {
		return
	}
	// Raw letters, the common case, are read without paths: at depth 0,
	// and wherever the byte after the run begins no escape (letters and
	// digits never do), so that no character of the name reads otherwise.
	end := pos
	for end < len(rd.text) && end-pos < nameCap && isAlnum(rune(rd.text[end])) {
		end++
	}
	if d == 0 || end == len(rd.text) || !introducer(rd.text[end]) && end-pos < nameCap {
		if end > pos && isLetter(rd.text[pos]) {
			rd.lookupName(rd.text[pos:end], func(j int) int { return pos + j + 1 }, end, d, out)
		}
		return
	}
	paths := []namePath{{}}
	for len(paths) > 0 {
		var next []namePath
		for i := range paths {
			p := &paths[i]
			end := pos
			if p.n > 0 {
				end = p.ends[p.n-1]
			}
			var alts readings
			if end < len(rd.text) && !introducer(rd.text[end]) {
				alts.add(rd.raw(end))
			} else {
				rd.read(end, d, &alts)
			}
			stops := alts.len() == 0
			for j := range alts.len() {
				a := alts.at(j)
				if a.r2 != noRune || !isAlnum(a.r) || p.n == nameCap {
					stops = true
					continue
				}
				q := *p
				q.name[q.n] = byte(a.r)
				q.ends[q.n] = a.end
				q.n++
				next = append(next, q)
			}
			if stops && p.n > 0 && isLetter(p.name[0]) {
				rd.lookupName(p.name[:p.n], func(j int) int { return p.ends[j] }, end, d, out)
			}
		}
		paths = next
	}
}

// lookupName reads a name of letters and digits that ends at end (its
// character j at endOf(j)) as html does.
func (rd *reader) lookupName(name []byte, endOf func(j int) int, end, d int, out *readings) {
	if len(name) < nameCap {
		if r, r2, ok := entity(name); ok {
			out.add(reading{r: r, r2: r2, end: end})
		}
		var semis ends
		rd.char(end, d, ';', &semis)
		if semis.len() > 0 {
			var key [nameCap + 1]byte
			n := copy(key[:], name)
			key[n] = ';'
			if r, r2, ok := entity(key[:n+1]); ok {
				for i := range semis.len() {
					out.add(reading{r: r, r2: r2, end: semis.at(i)})
				}
			}
		}
	}
	// The legacy names, read without their ; even before more letters.
	for j := min(len(name), legacyNameMax); j >= 2; j-- {
		if r, r2, ok := entity(name[:j]); ok {
			out.add(reading{r: r, r2: r2, end: endOf(j - 1)})
			break
		}
	}
}

// legacyNameMax is the longest name HTML reads without a ;.
const legacyNameMax = 6

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// entities caches what entity found, bounded so that a text full of
// made-up names cannot grow it without end.
var entities struct {
	mu sync.Mutex
	m  map[string]entityValue
}

type entityValue struct {
	r, r2 rune
	ok    bool
}

const entityCacheMax = 4096

// entity reports what the reference named key (with its ; if it has one)
// stands for, asking html.UnescapeString, which holds HTML's table of
// 2,231 names: "&"+key decodes to one or two characters exactly when key is
// a name of the table. When it is not, UnescapeString either leaves it as
// it is or reads a shorter legacy name and keeps the rest, whose last
// character is then key's; no name of two characters ends with a ; or
// with the last letter of its own name, so the two cannot be confused.
func entity(key []byte) (r, r2 rune, ok bool) {
	entities.mu.Lock()
	v, hit := entities.m[string(key)]
	entities.mu.Unlock()
	if hit {
		return v.r, v.r2, v.ok
	}
	v = entityValue{r: noRune, r2: noRune}
	s := "&" + string(key)
	if u := html.UnescapeString(s); u != s {
		a, n := utf8.DecodeRuneInString(u)
		switch rest := u[n:]; utf8.RuneCountInString(rest) {
		case 0:
			v = entityValue{r: a, r2: noRune, ok: true}
		case 1:
			if b, _ := utf8.DecodeRuneInString(rest); b != rune(key[len(key)-1]) {
				v = entityValue{r: a, r2: b, ok: true}
			}
		}
	}
	entities.mu.Lock()
	if entities.m == nil {
		entities.m = map[string]entityValue{}
	}
	if len(entities.m) < entityCacheMax {
		entities.m[string(key)] = v
	}
	entities.mu.Unlock()
	return v.r, v.r2, v.ok
}
