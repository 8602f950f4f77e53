package args

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// A params pattern is an ECMAScript regular expression: the reference
// runtime compiles it as new RegExp(pattern, "u") and tests a value with
// it, unanchored, as JSON Schema says. Go's regexp (RE2) reads most of
// that syntax the same way; the differences that matter for generating
// and checking a value are translated here:
//
//   - \s and \S: ECMAScript's whitespace is Unicode's (U+00A0, U+2028,
//     U+FEFF…), RE2's is ASCII only, so RE2's \S would let through
//     characters that ECMAScript's \S refuses;
//   - . does not match any line terminator (\n, \r, U+2028, U+2029), RE2's
//     only \n;
//   - \uXXXX, \u{X…}, \cX and \0 are spelled \x{…} in RE2; \/ is /;
//   - [^] matches any character; [] matches none; a [ inside a class is a
//     literal;
//   - \p{Script=Greek}, \p{gc=L} and the long category names are RE2's
//     \p{Greek}, \p{L}.
//
// What RE2 cannot express — lookahead and lookbehind, backreferences — is
// an error that names the construct.

// jsWhitespace is ECMAScript's WhiteSpace and LineTerminator, the set \s
// matches, as RE2 class ranges.
const jsWhitespace = `\t\n\x{b}\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// jsNotWhitespace is the complement of jsWhitespace, as class ranges (so
// that \S can stand inside a class).
const jsNotWhitespace = `\x{0}-\x{8}\x{e}-\x{1f}!-\x{9f}\x{a1}-\x{167f}\x{1681}-\x{1fff}\x{200b}-\x{2027}\x{202a}-\x{202e}\x{2030}-\x{205e}\x{2060}-\x{2fff}\x{3001}-\x{fefe}\x{ff00}-\x{10ffff}`

// jsAnyButLineTerminator is what . matches in ECMAScript.
const jsAnyButLineTerminator = `[^\n\r\x{2028}\x{2029}]`

// generalCategories maps the long names of Unicode general categories
// that ECMAScript accepts to the short ones RE2 knows.
var generalCategories = map[string]string{
	"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
	"Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc",
	"Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps",
	"Close_Punctuation": "Pe", "Initial_Punctuation": "Pi", "Final_Punctuation": "Pf", "Other_Punctuation": "Po",
	"Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So",
	"Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C",
	"Control": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co", "Unassigned": "Cn",
}

// translate rewrites an ECMAScript pattern (u mode) into Go's syntax.
func translate(p string) (string, error) {
	var out strings.Builder
	inClass := false
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", fmt.Errorf("pattern %q ends with a lone backslash", p)
			}
			n, err := translateEscape(&out, p, i, inClass)
			if err != nil {
				return "", err
			}
			i += n
			continue
		case c == '[' && !inClass:
			switch {
			case strings.HasPrefix(p[i:], "[^]"):
				out.WriteString(`[\x{0}-\x{10ffff}]`)
				i += 3
				continue
			case strings.HasPrefix(p[i:], "[]"):
				return "", fmt.Errorf("pattern %q: the class [] matches no character", p)
			}
			inClass = true
			out.WriteByte('[')
			i++
			if i < len(p) && p[i] == '^' {
				out.WriteByte('^')
				i++
			}
			continue
		case c == '[' && inClass:
			out.WriteString(`\[`)
		case c == ']' && inClass:
			inClass = false
			out.WriteByte(']')
		case c == '.' && !inClass:
			out.WriteString(jsAnyButLineTerminator)
		case c == '(' && !inClass:
			for _, look := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
				if strings.HasPrefix(p[i:], look) {
					return "", fmt.Errorf("pattern %q: the lookaround %q is not supported (Go's regexp has none); name the arguments in the manifest", p, look)
				}
			}
			out.WriteByte('(')
		default:
			_, size := utf8.DecodeRuneInString(p[i:])
			out.WriteString(p[i : i+size])
			i += size
			continue
		}
		i++
	}
	if inClass {
		return "", fmt.Errorf("pattern %q: a character class is not closed", p)
	}
	return out.String(), nil
}

// translateEscape writes the translation of the escape at p[i] and returns
// how many bytes of p it read.
func translateEscape(out *strings.Builder, p string, i int, inClass bool) (int, error) {
	e := p[i+1]
	switch e {
	case 'd', 'D', 'w', 'W', 'n', 'r', 't', 'f':
		out.WriteString(p[i : i+2])
	case 'v':
		out.WriteString(`\x{b}`)
	case 's':
		if inClass {
			out.WriteString(jsWhitespace)
		} else {
			out.WriteString("[" + jsWhitespace + "]")
		}
	case 'S':
		if inClass {
			out.WriteString(jsNotWhitespace)
		} else {
			out.WriteString("[" + jsNotWhitespace + "]")
		}
	case 'b':
		if inClass {
			out.WriteString(`\x{8}`) // a backspace inside a class
		} else {
			out.WriteString(`\b`)
		}
	case 'B':
		if inClass {
			return 0, fmt.Errorf("pattern %q: \\B inside a class is not valid", p)
		}
		out.WriteString(`\B`)
	case 'u':
		r, n, err := unicodeEscape(p, i)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(out, `\x{%x}`, r)
		return n, nil
	case 'x':
		if i+4 > len(p) || !isHex(p[i+2:i+4]) {
			return 0, fmt.Errorf("pattern %q: \\x wants two hex digits", p)
		}
		out.WriteString(p[i : i+4])
		return 4, nil
	case 'c':
		if i+2 >= len(p) || !(p[i+2] >= 'a' && p[i+2] <= 'z' || p[i+2] >= 'A' && p[i+2] <= 'Z') {
			return 0, fmt.Errorf("pattern %q: \\c wants a letter", p)
		}
		fmt.Fprintf(out, `\x{%x}`, p[i+2]%32)
		return 3, nil
	case '0':
		if i+2 < len(p) && p[i+2] >= '0' && p[i+2] <= '9' {
			return 0, fmt.Errorf("pattern %q: octal escapes are not valid in a Unicode pattern", p)
		}
		out.WriteString(`\x{0}`)
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return 0, fmt.Errorf("pattern %q: the backreference \\%c is not supported (Go's regexp has none); name the arguments in the manifest", p, e)
	case 'k':
		return 0, fmt.Errorf("pattern %q: the named backreference \\k is not supported (Go's regexp has none); name the arguments in the manifest", p)
	case 'p', 'P':
		end := strings.IndexByte(p[i:], '}')
		if i+2 >= len(p) || p[i+2] != '{' || end < 0 {
			return 0, fmt.Errorf("pattern %q: \\%c wants a property in braces", p, e)
		}
		prop := p[i+3 : i+end]
		name, value, hasValue := strings.Cut(prop, "=")
		switch {
		case hasValue && (name == "Script" || name == "sc"):
			prop = value
		case hasValue && (name == "General_Category" || name == "gc"):
			prop = value
		case hasValue:
			return 0, fmt.Errorf("pattern %q: the property %q is not supported (Go's regexp knows general categories and scripts)", p, prop)
		}
		if short, ok := generalCategories[prop]; ok {
			prop = short
		}
		fmt.Fprintf(out, `\%c{%s}`, e, prop)
		return end + 1, nil
	case '/':
		out.WriteByte('/')
	default:
		r, size := utf8.DecodeRuneInString(p[i+1:])
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return 0, fmt.Errorf("pattern %q: the escape \\%c is not valid in a Unicode pattern", p, r)
		}
		// An escaped syntax character (\., \-, \$ …) means itself in
		// both syntaxes.
		out.WriteString(p[i : i+1+size])
		return 1 + size, nil
	}
	return 2, nil
}

// unicodeEscape reads \uXXXX (with a following low surrogate, one code
// point) or \u{X…} at p[i].
func unicodeEscape(p string, i int) (rune, int, error) {
	rest := p[i+2:]
	if strings.HasPrefix(rest, "{") {
		end := strings.IndexByte(rest, '}')
		if end < 2 || !isHex(rest[1:end]) {
			return 0, 0, fmt.Errorf("pattern %q: \\u{…} wants hex digits", p)
		}
		v, err := strconv.ParseUint(rest[1:end], 16, 32)
		if err != nil || v > unicode.MaxRune {
			return 0, 0, fmt.Errorf("pattern %q: \\u{%s} is not a code point", p, rest[1:end])
		}
		return rune(v), 2 + end + 1, nil
	}
	if len(rest) < 4 || !isHex(rest[:4]) {
		return 0, 0, fmt.Errorf("pattern %q: \\u wants four hex digits", p)
	}
	v, _ := strconv.ParseUint(rest[:4], 16, 32)
	r := rune(v)
	if r >= 0xD800 && r <= 0xDBFF && len(rest) >= 10 && rest[4:6] == `\u` && isHex(rest[6:10]) {
		lo, _ := strconv.ParseUint(rest[6:10], 16, 32)
		if lo >= 0xDC00 && lo <= 0xDFFF {
			return (r-0xD800)<<10 + rune(lo-0xDC00) + 0x10000, 12, nil
		}
	}
	return r, 6, nil
}

func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

var ecmaCache sync.Map // pattern → *ecmaRegexp or error

// ecmaRegexp is an ECMAScript pattern compiled through its translation;
// String gives the pattern as the page declared it.
type ecmaRegexp struct {
	src string
	*regexp.Regexp
}

func (r *ecmaRegexp) String() string { return r.src }

// compileECMA compiles an ECMAScript pattern the way it is generated from
// and checked here.
func compileECMA(p string) (*ecmaRegexp, error) {
	if v, ok := ecmaCache.Load(p); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.(*ecmaRegexp), nil
	}
	re, err := compileUncached(p)
	if err != nil {
		ecmaCache.Store(p, err)
		return nil, err
	}
	ecmaCache.Store(p, re)
	return re, nil
}

func compileUncached(p string) (*ecmaRegexp, error) {
	goExpr, err := translate(p)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(goExpr)
	if err != nil {
		var se *syntax.Error
		if asSyntax(err, &se) {
			return nil, fmt.Errorf("pattern %q: %s %q", p, se.Code, se.Expr)
		}
		return nil, fmt.Errorf("pattern %q: %w", p, err)
	}
	return &ecmaRegexp{src: p, Regexp: re}, nil
}

func asSyntax(err error, target **syntax.Error) bool {
	se, ok := err.(*syntax.Error)
	if ok {
		*target = se
	}
	return ok
}

// seeds is how many examples of a pattern the generator tries before it
// gives up finding one of the declared length that the schema accepts.
const seeds = 200

// generate returns a string that matches the ECMAScript pattern p, is lo
// to hi characters long (hi < 0: no maximum) and that accept takes; the
// variant-th distinct such string in a fixed order, so the same pattern
// always gives the same string. The strings are drawn by rapid's regexp
// generator with the seeds 0, 1, 2… from the pattern narrowed to letters
// and digits where a class allows them (the pattern \S gives a letter, not
// U+E0001), then to printable ASCII, then as declared; a string too short
// is padded, one too long cut, where the pattern still matches.
func generate(p string, lo, hi, variant int, accept func(string) bool) (string, error) {
	re, err := compileECMA(p)
	if err != nil {
		return "", err
	}
	goExpr, _ := translate(p)
	parsed, err := syntax.Parse(goExpr, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %w", p, err)
	}
	good := func(s string) bool {
		return utf8.ValidString(s) && re.MatchString(s) && lengthOK(s, lo, hi) && accept(s)
	}
	var found []string
	matched := false
	// Letters and digits read best; where the pattern needs more (a word
	// boundary next to punctuation), printable ASCII, then the pattern as
	// declared.
	for _, chars := range [][]rune{alnum, printable, nil} {
		expr := parsed
		if chars != nil {
			expr = narrow(parsed, chars)
		}
		gen, err := generator(expr.String())
		if err != nil {
			return "", fmt.Errorf("pattern %q: %w", p, err)
		}
		for seed := 0; seed < seeds && len(found) <= variant; seed++ {
			s, ok := example(gen, seed)
			if !ok || !re.MatchString(s) {
				continue
			}
			matched = true
			for _, c := range append([]string{s}, adjusted(s, lo, hi)...) {
				if good(c) && !containsString(found, c) {
					found = append(found, c)
					break
				}
			}
		}
		if len(found) > variant {
			return found[variant], nil
		}
	}
	if !matched {
		return "", fmt.Errorf("pattern %q: no string matching it could be generated", p)
	}
	return "", fmt.Errorf("cannot build a string %s matching the pattern %q that the schema accepts", lengthPhrase(lo, hi), p)
}

// adjusted returns variants of s for a pattern that still matches them:
// with a word around it (the pattern @example\.org$ gives "@example.org",
// which no email check takes), padded to lo characters (with "x" after it,
// then before it) or cut to hi.
func adjusted(s string, lo, hi int) []string {
	n := utf8.RuneCountInString(s)
	out := []string{"glass" + s, s + "glass"}
	if n < lo {
		pad := strings.Repeat("x", lo-n)
		out = append(out, s+pad, pad+s)
	}
	if hi >= 0 && n > hi {
		r := []rune(s)
		out = append(out, string(r[:hi]), string(r[n-hi:]))
	}
	return out
}

func lengthPhrase(lo, hi int) string {
	switch {
	case hi < 0 && lo == 0:
		return "of any length"
	case hi < 0:
		return fmt.Sprintf("of at least %d characters", lo)
	case lo == 0:
		return fmt.Sprintf("of at most %d characters", hi)
	}
	return fmt.Sprintf("of %d to %d characters", lo, hi)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// generator makes rapid's generator for a Go pattern; rapid panics on a
// pattern it cannot read.
func generator(expr string) (g *rapid.Generator[string], err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%v", v)
		}
	}()
	return rapid.StringMatching(expr), nil
}

// example draws the example of seed; rapid panics when it finds none
// (a pattern that matches nothing, or only rarely).
func example(g *rapid.Generator[string], seed int) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return g.Example(seed), true
}

// The character sets a class is narrowed to, as (lo, hi) range pairs.
var (
	alnum     = []rune{'0', '9', 'A', 'Z', 'a', 'z'}
	printable = []rune{' ', '~'}
)

// narrow returns re with every character class intersected with chars
// where the intersection is not empty, and . made chars: the strings it
// matches are a subset of re's, and read well in a generated spec and on
// the page.
func narrow(re *syntax.Regexp, chars []rune) *syntax.Regexp {
	cp := *re
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		cp.Op = syntax.OpCharClass
		cp.Rune = append([]rune(nil), chars...)
		return &cp
	case syntax.OpCharClass:
		if in := intersect(re.Rune, chars); len(in) > 0 {
			cp.Rune = in
		} else if in := intersect(re.Rune, printable); len(in) > 0 {
			cp.Rune = in // a class of spaces or punctuation
		}
		return &cp
	}
	if len(re.Sub) > 0 {
		cp.Sub = make([]*syntax.Regexp, len(re.Sub))
		for i, s := range re.Sub {
			cp.Sub[i] = narrow(s, chars)
		}
	}
	return &cp
}

// intersect intersects a class's ranges with others, both as (lo, hi)
// pairs.
func intersect(ranges, with []rune) []rune {
	var out []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for j := 0; j+1 < len(with); j += 2 {
			lo, hi := max(ranges[i], with[j]), min(ranges[i+1], with[j+1])
			if lo <= hi {
				out = append(out, lo, hi)
			}
		}
	}
	return out
}
