// Package scrub finds sensitive values in text in every spelling a web page
// can give them, and replaces them.
//
// A page that receives a secret can echo it escaped, encoded or
// normalised, and the evidence Glass keeps (receipts, snapshots, the
// Playwright trace with its DOM snapshots and network log, a dev server's
// log) would carry it. A Set finds each of its values however its
// characters are spelt, each character independently:
//
//   - as is;
//   - JSON and JavaScript escapes of any character: \u0047 (upper- or
//     lower-case hex), surrogate pairs \uD83D\uDE00 for astral characters,
//     the short escapes \" \\ \/ \b \f \n \r \t, JavaScript's \v \0 \x47
//     \u{1F600}, legacy octal \107 and identity escapes \G (\c and \8
//     too, which CSS would read as hex), and Go's \a and \U0001F600;
//   - CSS escapes: \47 and \000047, with the optional space after them;
//   - percent-encoding of any byte of the UTF-8 form (encodeURIComponent,
//     url.QueryEscape with + for a space, url.PathEscape), upper- or
//     lower-case hex, and JavaScript's escape() (%E9, %u20AC);
//   - HTML character references: decimal &#71;, hex &#x47; or &#X47;, with
//     leading zeros, named (&amp; &eacute; &Aopf;), with or without the
//     final ; where HTML reads them without it;
//   - JSON nested in JSON up to seven levels deep, as JSON.stringify
//     applied again and again writes it (\\u0047, \\\", \\\\\\\": runs of
//     up to 64 backslashes; a longer run is read as none, which keeps a
//     text of backslashes linear to scan);
//   - any of these escapes nested in another, two levels deep: the
//     characters of an escape spelt again (%2547, percent-encoding twice;
//     \u0026#71;, an HTML reference in a JSON string as Go writes it;
//     %5Cu0047; &amp;#71;);
//   - in any Unicode normalisation form, NFC, NFD, NFKC or NFKD, whatever
//     form the value was given in: text and values are compared in NFKD,
//     so compatibility variants (fullwidth letters, ligatures,
//     mathematical letters) are found too;
//   - with invisible characters between its characters (zero-width space
//     and joiners, soft hyphen, bidirectional controls, variation
//     selectors: Unicode's default-ignorable code points, and every other
//     format character, private-use, unassigned and noncharacter code
//     point, what receipt.Invisible counts as showing nothing; the line
//     continuations of CSS and JavaScript strings, a backslash before any
//     line terminator of either, JavaScript's line and paragraph
//     separators too; NUL, so an ASCII value
//     in UTF-16 too), split over adjacent JSON strings as a Playwright
//     trace writes the text nodes of one element ("s3c","ret"), and with
//     extra combining marks on its last character.
//
// Every reading of an ambiguous spelling is tried (\n is a newline in JSON
// and an "n" in CSS), so an ambiguity can make a Set find a value where a
// strict reader would not, never the other way round.
//
// What a Set does not find: a value the page transforms otherwise — hashed,
// encrypted, base64-encoded, compressed, reversed, split into pieces
// otherwise (across elements, say), with visible characters inserted or
// changed (look-alike letters of other scripts, another case: NewAnyCase
// finds every case of the ASCII letters), in escapes of different kinds
// nested three levels deep, in an encoding not listed (Punycode, quoted-
// printable, JavaScript's String.fromCharCode) — or drawn as pixels.
//
// The matcher walks the text once, reading at each offset every spelling of
// the next character the value needs, so it never builds the spellings of
// a value (there are exponentially many). A byte that can begin no
// spelling of the first character of any value is skipped after one table
// look-up, which keeps a scan of megabytes of trace fast (see the package
// benchmarks). The states of a match are remembered across offsets, so a
// text that can be read many ways at every offset (runs of backslashes)
// still takes time linear in its length; an attempt that takes too many
// steps even so counts as a match up to where it got: the most a text
// built against the matcher can do is be masked more.
//
// A Set is built once (New) and used from any goroutine: Contains and
// Index find a value anywhere in a text, however long; Replace and
// ReplaceString replace every spelling with a mask; ReplaceIn does so
// through a value decoded from JSON (a confirmation request's arguments),
// its keys and numbers included.
//
// Replace also hides what a cut left of a value: next to each CutMark (…),
// the longest start of a value that ends where the mark begins and the
// longest end of one that begins where it ends, in any of those spellings,
// of MinPart characters or more (all but the last character of a shorter
// value). A text cut short before its values were hidden can hold such a
// part, which no spelling of the whole value matches.
//
// Empty values are ignored. Any other value is found, however short: a
// value of one or two characters matches wherever those characters appear,
// so a caller with such values should expect much of its text masked.
package scrub

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Set is a set of sensitive values to find. The zero Set and a nil *Set
// hold none. A Set is safe for concurrent use.
type Set struct {
	values []value
	filter
	// anyCase matches ASCII letters in either case (NewAnyCase).
	anyCase bool
	// raw are the values as given (folded for anyCase), and cut what a
	// cut can leave of them, built when first needed.
	raw []string
	cut *cuts
}

type value struct {
	segs []segment
	filter
}

// filter tells, from the first two bytes at an offset, whether a spelling
// of a value can begin there. Nearly every offset of a text is ruled out by
// the first byte; of the escapes, most are ruled out by the second (the
// \" and \n of JSON, when the value begins with neither).
type filter struct {
	// first marks the bytes a spelling can begin with; raw, the first
	// bytes that are a spelling's only byte.
	first, raw [256]bool
	// second marks, for an escape's first byte (\\, %, &, +), the bytes
	// that can follow it.
	second [4][256]bool
}

// introducerIndex numbers the bytes that begin an escape, for filter.second.
func introducerIndex(c byte) int {
	switch c {
	case '\\':
		return 0
	case '%':
		return 1
	case '&':
		return 2
	}
	return 3
}

// allows reports whether a spelling can begin at b[i].
func (f *filter) allows(b []byte, i int) bool {
	c := b[i]
	if !f.first[c] {
		return false
	}
	// + is a whole spelling of a space by itself, the last byte of a text
	// too.
	if !introducer(c) || f.raw[c] || c == '+' {
		return true
	}
	return i+1 < len(b) && f.second[introducerIndex(c)][b[i+1]]
}

func (f *filter) merge(g *filter) {
	for c := range 256 {
		f.first[c] = f.first[c] || g.first[c]
		f.raw[c] = f.raw[c] || g.raw[c]
		for k := range f.second {
			f.second[k][c] = f.second[k][c] || g.second[k][c]
		}
	}
}

// New returns the set of the given values; empty ones are ignored, and so
// are repeats.
func New(values ...string) *Set {
	return newSet(false, values)
}

// NewAnyCase is New for values found in any case of their ASCII letters,
// in every spelling: escapes of either case of a letter, and the letters
// a compatibility variant decomposes to (a fullwidth or mathematical
// capital is its ASCII letter in NFKD) in either case too. For values a
// caller chose itself, whose case a page may change freely.
func NewAnyCase(values ...string) *Set {
	return newSet(true, values)
}

func newSet(anyCase bool, values []string) *Set {
	s := &Set{anyCase: anyCase, cut: &cuts{}}
	seen := map[string]bool{}
	// Two spellings of a value with the same segments (after NFKD) are
	// one value: keyed, not compared pairwise (a set of a run's values
	// is built once per change, with thousands of them).
	same := map[string]bool{}
	for _, v := range values {
		if anyCase {
			v = FoldASCII(v)
		}
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		segs := segments(v)
		k := segmentsKey(segs)
		if same[k] {
			continue
		}
		same[k] = true
		w := value{segs: segs, filter: filterOf(segs[0], anyCase)}
		s.merge(&w.filter)
		s.values = append(s.values, w)
		s.raw = append(s.raw, v)
	}
	return s
}

// fold is r with an ASCII capital lowered when the set matches any case.
func (m *matcher) fold(r rune) rune {
	if m.anyCase && 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// segmentsKey is a string equal for equal segments (their starters and
// marks) only.
func segmentsKey(segs []segment) string {
	var b strings.Builder
	for _, sg := range segs {
		b.WriteString(strconv.Itoa(int(sg.starter)))
		for _, m := range sg.marks {
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(int(m.r)))
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(int(m.ccc)))
		}
		b.WriteByte('|')
	}
	return b.String()
}

// filterOf works out the bytes a spelling of a value's first character
// can begin with: its own byte when it is ASCII, the lead byte of any
// non-ASCII character (many decompose to an ASCII letter: é, ｅ, ℯ), and
// the bytes that begin an escape, each followed by what can come next in
// an escape of the character, or of an escape's first character, two
// levels down.
func filterOf(s segment, anyCase bool) (f filter) {
	c0 := s.starter
	ascii := c0 >= 0 && c0 < 0x80
	// The first character's own byte, and its capital for a set of any
	// case.
	own := []rune{c0}
	if anyCase && 'a' <= c0 && c0 <= 'z' {
		own = append(own, c0-'a'+'A')
	}
	if ascii {
		for _, c := range own {
			f.first[c], f.raw[c] = true, true
		}
	}
	for b := 0xC2; b <= 0xF4; b++ {
		f.first[b] = true
	}
	f.first['\\'], f.first['%'], f.first['&'] = true, true, true
	if c0 == ' ' {
		f.first['+'] = true
	}
	mark := func(k int, bs string) {
		for i := range len(bs) {
			f.second[k][bs[i]] = true
		}
	}
	const hex, letters, intro = "0123456789abcdefABCDEF", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "\\%&+"
	// \: a hex, octal or CSS escape, \u and \x, an identity escape of the
	// character (or of one that decomposes to it), a short escape of a
	// control character, or an escape's first character spelt again.
	mark(0, hex+"uxU"+intro)
	if ascii {
		for _, c := range own {
			f.second[0][c] = true
		}
		for _, e := range "abfnrtv0" {
			if r, _ := shortEscape(e); r == c0 {
				f.second[0][e] = true
			}
		}
	}
	for b := 0xC2; b <= 0xF4; b++ {
		f.second[0][b] = true
	}
	// %: a byte in hex, or %u.
	mark(1, hex+"u"+intro)
	// &: a numeric or a named reference.
	mark(2, "#"+letters+intro)
	// +: a space, and only that.
	if c0 == ' ' {
		for b := range 256 {
			f.second[3][b] = true
		}
	}
	return f
}

// Len reports how many distinct values the set holds (values equal in NFKD
// count once).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.values)
}

// Contains reports whether b holds a value of the set in any spelling.
func (s *Set) Contains(b []byte) bool {
	if s.Len() == 0 {
		return false
	}
	found := false
	s.scan(b, false, func(int, int) bool { found = true; return false })
	return found
}

// ContainsString reports whether t holds a value of the set in any
// spelling.
func (s *Set) ContainsString(t string) bool {
	return s.Contains([]byte(t))
}

// Index returns the offsets of the first value b holds, in any spelling:
// the leftmost, and the longest spelling that starts there; -1, -1 when it
// holds none.
func (s *Set) Index(b []byte) (start, end int) {
	start, end = -1, -1
	if s.Len() == 0 {
		return start, end
	}
	s.scan(b, true, func(i, j int) bool { start, end = i, j; return false })
	return start, end
}

// Replace returns b with every spelling of every value replaced by mask:
// the leftmost first, and at each offset the longest spelling. The result
// holds no value of the set: should the mask, next to the text around it,
// spell a value again (a value that is a piece of the mask, say), those
// spellings are removed too. Next to a cut mark, what a cut left of a value
// is replaced as well (see the package comment). Replace returns b itself
// when it holds no value, and a new slice otherwise.
func (s *Set) Replace(b []byte, mask string) []byte {
	if s.Len() == 0 {
		return b
	}
	// What a cut left of a value first: a shorter value inside it (a
	// half of a probe's secret) would otherwise be masked on its own and
	// leave the rest of the part.
	out, hid := s.hideCuts(b, mask)
	out, n := s.replaceOnce(out, mask)
	if n > 0 {
		// Removing without a mask shortens the text at each pass, so this
		// ends.
		for s.Contains(out) {
			out, _ = s.replaceOnce(out, "")
		}
	}
	if n == 0 && !hid {
		return b
	}
	return out
}

// ReplaceString is Replace for a string.
func (s *Set) ReplaceString(t, mask string) string {
	if s.Len() == 0 {
		return t
	}
	out := s.Replace([]byte(t), mask)
	return string(out)
}

// replaceOnce replaces the leftmost-longest spellings of b in one pass, and
// says how many.
func (s *Set) replaceOnce(b []byte, mask string) ([]byte, int) {
	var out bytes.Buffer
	last, n := 0, 0
	s.scan(b, true, func(i, j int) bool {
		if n == 0 {
			out.Grow(len(b))
		}
		out.Write(b[last:i])
		out.WriteString(mask)
		last = j
		n++
		return true
	})
	if n == 0 {
		return b, 0
	}
	out.Write(b[last:])
	return out.Bytes(), n
}

// scan calls found with the offsets of each spelling of a value in b, left
// to right, each starting after the previous one ended, until found
// returns false. With longest it reports the longest spelling at an offset,
// else the first it finds.
func (s *Set) scan(b []byte, longest bool, found func(start, end int) bool) {
	m := newMatcher(b, longest, len(s.values))
	m.anyCase = s.anyCase
	for i := 0; i < len(b); {
		end := s.matchAt(m, b, i)
		if end <= i {
			i++
			continue
		}
		if !found(i, end) {
			return
		}
		i = end
	}
}

// begins reports whether one of the readings rs can begin a spelling of v.
func (m *matcher) begins(v *value, rs *readings) bool {
	first := v.segs[0].starter
	for i := range rs.len() {
		c := m.dc.of(rs.at(i))[0]
		if first == noRune && c.ccc != 0 || m.fold(c.r) == first {
			return true
		}
	}
	return false
}

// budget bounds the states one match attempt explores. A text built to
// make the matcher branch may use it up; the attempt then counts as a
// match up to the farthest offset it reached, so that running out of time
// masks too much, never too little.
const budget = 1 << 16

// memoMax bounds the states remembered for one value; past it they are
// forgotten, which costs time, never a match.
const memoMax = 1 << 16

// matcher matches values at offsets of one text. It reads the text as a
// stream of code points — each reading of a character contributes its
// NFKD — and consumes them one character of the value (a starter and its
// marks) at a time, trying every reading. A state (the value's next
// character, the offset, the code points of the text's last character not
// consumed yet) has one answer, the farthest end of a match from it,
// whichever offset the attempt began at: the matcher remembers it, so a
// text that branches at every offset (runs of backslashes) is still
// scanned in time linear in its length and the value's.
type matcher struct {
	rd      reader
	dc      decomposer
	longest bool
	anyCase bool
	cache   *readCache

	v     *value
	memo  map[stateKey]int
	memos []map[stateKey]int
	steps int
	far   int
	spent bool
	// branched is set once the attempt read an offset two ways: before
	// that, no two paths can meet in one state, and remembering states
	// would only cost time.
	branched bool
}

// stateKey names a state without code points pending, the only ones
// remembered: the others (a ligature split between two characters of the
// value) are rare.
type stateKey struct {
	seg, pos int
}

func newMatcher(b []byte, longest bool, values int) *matcher {
	m := &matcher{rd: reader{text: b}, longest: longest, memos: make([]map[stateKey]int, values)}
	if len(b) > cacheMin {
		m.cache = &readCache{}
		for i := range m.cache.pos {
			m.cache.pos[i] = -1
		}
	}
	return m
}

// readCache keeps the readings of recent offsets: the states of a match
// read one offset once for each character of the value they are at.
type readCache struct {
	pos [cacheSize]int
	rs  [cacheSize]readings
}

const (
	cacheSize = 1024
	// cacheMin is the text below which the cache costs more than it saves.
	cacheMin = 4096
)

// read returns the readings at pos, with every level of escapes.
func (m *matcher) read(pos int) readings {
	if m.cache == nil {
		var rs readings
		m.rd.read(pos, maxDepth, &rs)
		return rs
	}
	slot := pos % cacheSize
	if m.cache.pos[slot] != pos {
		m.cache.rs[slot] = readings{}
		m.rd.read(pos, maxDepth, &m.cache.rs[slot])
		m.cache.pos[slot] = pos
	}
	return m.cache.rs[slot]
}

// match returns the end of a spelling of the value v (number k) at start,
// the farthest one if m is so set, or -1.
func (m *matcher) match(k int, v *value, start int) int {
	if m.memos[k] == nil || len(m.memos[k]) > memoMax {
		m.memos[k] = map[stateKey]int{}
	}
	m.v, m.memo = v, m.memos[k]
	m.steps, m.far, m.spent, m.branched = 0, start, false, false
	end := m.step(0, start, nil)
	if m.spent {
		// The answers of this attempt may be cut short.
		m.memos[k] = nil
		return max(m.far, start+1)
	}
	return end
}

// tick counts a step of the attempt at pos, and reports whether the
// budget is spent.
func (m *matcher) tick(pos int) bool {
	m.far = max(m.far, pos)
	if m.steps++; m.steps > budget {
		m.spent = true
	}
	return m.spent
}

// step returns the farthest end of a match of the value from its
// character k at pos, pend being the code points of the text's last
// character still to consume; -1 if there is none.
func (m *matcher) step(k, pos int, pend []cp) int {
	if k == len(m.v.segs) {
		m.far = max(m.far, pos)
		return pos
	}
	key := stateKey{seg: k, pos: pos}
	remember := k > 0 && len(pend) == 0 && m.branched
	if remember {
		if e, ok := m.memo[key]; ok {
			m.far = max(m.far, e)
			return e
		}
	}
	if m.tick(pos) {
		return -1
	}
	var best int
	if len(pend) > 0 {
		best = m.character(k, pend[0], pend[1:], pos)
	} else {
		best = m.next(k, pos)
	}
	if remember && !m.spent {
		m.memo[key] = best
	}
	return best
}

// jsonGlue is what joins two text nodes of an element in the DOM
// snapshots of a Playwright trace: ["P",{},"s3c","ret"] shows "s3cret".
const jsonGlue = `","`

// next matches the value's character k against the characters read at
// pos. Between two characters of the value it passes over invisible
// characters and the glue of adjacent JSON strings, as many as there are,
// one offset after another.
func (m *matcher) next(k, pos int) int {
	sg := &m.v.segs[k]
	best := -1
	frontier := []int{pos}
	var seen map[int]bool
	for i := 0; i < len(frontier); i++ {
		p := frontier[i]
		if i > 0 && m.tick(p) {
			return -1
		}
		if k > 0 && bytes.HasPrefix(m.rd.text[p:], []byte(jsonGlue)) {
			if seen == nil {
				seen = map[int]bool{}
			}
			if !seen[p+len(jsonGlue)] {
				seen[p+len(jsonGlue)] = true
				frontier = append(frontier, p+len(jsonGlue))
			}
		}
		rs := m.read(p)
		m.branched = m.branched || rs.len() > 1
		for j := range rs.len() {
			a := rs.at(j)
			d := m.dc.of(a)
			if k > 0 && len(d) == 1 && m.fold(d[0].r) != sg.starter && ignorable(d[0].r) {
				if seen == nil {
					seen = map[int]bool{}
				}
				if !seen[a.end] {
					seen[a.end] = true
					frontier = append(frontier, a.end)
				}
				continue
			}
			if e := m.character(k, d[0], d[1:], a.end); e > best {
				best = e
				if !m.longest {
					return best
				}
			}
			if m.spent {
				return -1
			}
		}
	}
	return best
}

// character matches the value's character k against the code point c read
// at the text (rest being what is left of the text's character c came
// from, which ends at pos).
func (m *matcher) character(k int, c cp, rest []cp, pos int) int {
	sg := &m.v.segs[k]
	var run []cp
	if sg.starter != noRune {
		if m.fold(c.r) != sg.starter {
			return -1
		}
	} else {
		if c.ccc == 0 {
			return -1
		}
		run = []cp{c}
	}
	if k == len(m.v.segs)-1 {
		return m.lastMarks(sg, run, rest, pos)
	}
	return m.marks(k, run, rest, pos)
}

// marks collects the run of combining marks that follows the starter of
// the value's character k — the rest of the text's character, and the
// characters after it while they are marks — and compares it with the
// character's own marks, in canonical order. The run is never longer
// than the character's marks and one more.
func (m *matcher) marks(k int, run, rest []cp, pos int) int {
	sg := &m.v.segs[k]
	i := 0
	for i < len(rest) && rest[i].ccc != 0 {
		run = append(run, rest[i])
		i++
	}
	if len(run) > len(sg.marks) {
		return -1
	}
	if i < len(rest) {
		// A starter follows in the same character of the text: the run
		// ends here, and what is left is the value's next character's.
		if marksMatch(sg.marks, run) {
			return m.step(k+1, pos, rest[i:])
		}
		return -1
	}
	best := -1
	if marksMatch(sg.marks, run) {
		if best = m.step(k+1, pos, nil); best >= 0 && !m.longest || m.spent {
			return best
		}
	}
	if len(run) == len(sg.marks) {
		return best
	}
	rs := m.read(pos)
	m.branched = true
	for j := range rs.len() {
		a := rs.at(j)
		d := m.dc.of(a)
		if d[0].ccc == 0 {
			continue
		}
		if e := m.marks(k, slices.Clip(run), d, a.end); e > best {
			best = e
			if !m.longest {
				return best
			}
		}
		if m.spent {
			return -1
		}
	}
	return best
}

// marksMatch compares the marks of a value's character with the run of
// marks read: equal in canonical order (a stable sort by combining class).
func marksMatch(want, run []cp) bool {
	if len(run) != len(want) {
		return false
	}
	if len(run) == 0 {
		return true
	}
	sorted := slices.Clone(run)
	slices.SortStableFunc(sorted, func(a, b cp) int { return int(a.ccc) - int(b.ccc) })
	return slices.EqualFunc(sorted, want, func(a, b cp) bool { return a.r == b.r })
}

// lastMarks matches the marks of the value's last character: the text's
// run of marks must hold each of them, and may hold more (a page that adds
// an accent to the last letter still shows the value). The longest match
// takes the extra marks too, which would otherwise sit on the mask.
func (m *matcher) lastMarks(sg *segment, run, rest []cp, pos int) int {
	need := slices.Clone(sg.marks)
	for _, c := range run {
		need = without(need, c)
	}
	type state struct {
		pos        int
		rest, need []cp
	}
	best := -1
	frontier := []state{{pos: pos, rest: rest, need: need}}
	for len(frontier) > 0 {
		var next []state
		for _, st := range frontier {
			need, i := st.need, 0
			for i < len(st.rest) && st.rest[i].ccc != 0 {
				need = without(need, st.rest[i])
				i++
			}
			if i < len(st.rest) || len(need) == 0 {
				// Satisfied, or a starter follows in the same character of
				// the text, which ends the run.
				if len(need) == 0 {
					best = max(best, st.pos)
					if !m.longest {
						return best
					}
					if i == len(st.rest) {
						best = max(best, m.trailingMarks(st.pos))
					}
				}
				continue
			}
			if m.tick(st.pos) {
				return -1
			}
			rs := m.read(st.pos)
			for j := range rs.len() {
				a := rs.at(j)
				if d := m.dc.of(a); d[0].ccc != 0 {
					s := state{pos: a.end, rest: d, need: need}
					if !slices.ContainsFunc(next, func(t state) bool {
						return t.pos == s.pos && slices.Equal(t.need, s.need) && slices.Equal(t.rest, s.rest)
					}) {
						next = append(next, s)
					}
				}
			}
		}
		frontier = next
	}
	return best
}

// without returns need without one mark equal to c (a new slice).
func without(need []cp, c cp) []cp {
	i := slices.IndexFunc(need, func(n cp) bool { return n.r == c.r })
	if i < 0 {
		return need
	}
	return slices.Concat(need[:i], need[i+1:])
}

// trailingMarks returns the end of the run of combining marks at pos,
// each character read to its farthest end.
func (m *matcher) trailingMarks(pos int) int {
	for !m.tick(pos) {
		rs := m.read(pos)
		end := -1
		for j := range rs.len() {
			a := rs.at(j)
			if d := m.dc.of(a); !slices.ContainsFunc(d, func(c cp) bool { return c.ccc == 0 }) {
				end = max(end, a.end)
			}
		}
		if end < 0 {
			return pos
		}
		pos = end
	}
	return pos
}

// spelledByNumber reports whether a number's text holds a value, as it
// is or by its digits alone (4.242 spells 4242: its point and sign left
// out).
func (s *Set) spelledByNumber(text string) bool {
	if s.ContainsString(text) {
		return true
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, text)
	return digits != text && digits != "" && s.ContainsString(digits)
}

// ReplaceIn returns a copy of v, a value as encoding/json decodes JSON
// into an any (map[string]any, []any, string, float64, json.Number, bool,
// nil), with every string and every key replaced as ReplaceString does,
// and every number whose decimal form holds a value, as it is or by its
// digits alone (a PIN sent as a number, 4242 or 4.242), replaced by mask. Keys that become equal are told apart by a
// number after them, in the order of the original keys. Values of other
// types are returned as they are.
func (s *Set) ReplaceIn(v any, mask string) any {
	if s.Len() == 0 {
		return v
	}
	switch x := v.(type) {
	case string:
		return s.ReplaceString(x, mask)
	case float64:
		if s.spelledByNumber(strconv.FormatFloat(x, 'f', -1, 64)) {
			return mask
		}
		return x
	case json.Number:
		if s.spelledByNumber(x.String()) {
			return mask
		}
		if f, err := x.Float64(); err == nil && s.spelledByNumber(strconv.FormatFloat(f, 'f', -1, 64)) {
			return mask
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.ReplaceIn(e, mask)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			key := s.ReplaceString(k, mask)
			for n := 2; ; n++ {
				if _, taken := out[key]; !taken {
					break
				}
				key = s.ReplaceString(k, mask) + " " + strconv.Itoa(n)
			}
			out[key] = s.ReplaceIn(x[k], mask)
		}
		return out
	}
	return v
}
