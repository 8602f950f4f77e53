package scrub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

const mask = "[sensitive]"

// The values of the table tests: ASCII with the characters every encoder
// escapes, letters with diacritics in every normalisation form, and an
// astral character.
const (
	plain  = `s3cret pw&ü"x/`
	accent = "Grüße-ñandú-Åsa"
	astral = "p@ss😀w0rd"
)

// Each spelling below is written out by hand, so that these tests do not
// only trust the speller the other tests use.
var spellings = []struct {
	name, value, text string
}{
	{"as is", plain, plain},
	{"JSON as JavaScript writes it", plain, `s3cret pw&ü\"x/`},
	{"JSON as Go writes it", plain, `s3cret pw\u0026ü\"x/`},
	{"JSON, solidus escaped", plain, `s3cret pw&ü\"x\/`},
	{"JSON, every character escaped, upper-case hex", plain, `\u0073\u0033\u0063\u0072\u0065\u0074\u0020\u0070\u0077\u0026\u00FC\u0022\u0078\u002F`},
	{"JSON, one character escaped, lower-case hex", plain, `s3cret pw&\u00fc"x/`},
	{"JSON, mixed escapes and case", plain, `s\u0033cr\u0065t\u0020pw&\u00Fc\"x\/`},
	{"JSON inside JSON", plain, `s3cret pw\\u0026\\u00fc\\\"x\\/`},
	{"JSON inside JSON inside JSON", plain, `s3cret pw\\\\u0026\\\\u00fc\\\\\\\"x/`},
	{"JSON, surrogate pair", astral, `p@ss\uD83D\uDE00w0rd`},
	{"JSON, surrogate pair, lower-case", astral, `p@ss\ud83d\ude00w0rd`},
	{"JavaScript code point escape", astral, `p@ss\u{1F600}w0rd`},
	{"JavaScript hex, octal and identity escapes", plain, `\x73\063c\re\t \p\w\&\xFC\"\x78\/`},
	{"Go's escapes", "bell\a and 😀", `bell\a and \U0001F600`},
	{"JavaScript identity escapes of hex letters and of 8 and 9", "GlassSecret-46c10f81<&25ab24c0", `GlassSecret-46\c10f81<&25\ab24\c0`},
	{"JavaScript identity escapes, digits and upper-case hex", "cafe-8899-DEAD", `\c\af\e-\8\89\9-\D\E\AD`},
	{"CSS escapes", plain, `\73 \000033 cret\20pw&\fc \22x/`},
	{"encodeURIComponent", plain, "s3cret%20pw%26%C3%BC%22x%2F"},
	{"url.QueryEscape", plain, url.QueryEscape(plain)},
	{"url.PathEscape", plain, url.PathEscape(plain)},
	{"percent-encoding, lower-case hex", plain, "s3cret%20pw%26%c3%bc%22x%2f"},
	{"percent-encoding of every byte", plain, "%73%33%63%72%65%74%20%70%77%26%C3%BC%22%78%2F"},
	{"percent-encoding twice", plain, "s3cret%2520pw%2526%25C3%25BC%2522x%252F"},
	{"percent-encoding of some bytes of a character", accent, "Gr%C3\xbc\xc3%9Fe-%c3%b1and\xc3%BA-Åsa"},
	{"JavaScript's escape()", plain, "s3cret%20pw%26%FC%22x/"},
	{"JavaScript's escape() of an astral character", astral, "p@ss%uD83D%uDE00w0rd"},
	{"HTML as html.EscapeString writes it", plain, html.EscapeString(plain)},
	{"HTML named references", plain, "s3cret pw&amp;&uuml;&quot;x&sol;"},
	{"HTML numeric references, decimal and hex, with and without ;", plain, "&#115;&#x33;&#X63;ret&#32pw&#38&#252;&#x22x&#47;"},
	{"HTML numeric references with leading zeros", plain, "&#0000115;3cret pw&#x0026;ü&quot;x/"},
	{"HTML legacy names without ;", plain, "s3cret pw&amp&uuml&quot" + "x/"},
	{"HTML reference inside JSON as Go writes it", plain, `s3cret pw\u0026amp;\u0026#252;\"x/`},
	{"HTML inside HTML", plain, "s3cret pw&amp;amp;&amp;#252;&quot;x/"},
	{"percent-encoded JSON escape", plain, "s3cret%20pw%5Cu0026ü%22x/"},
	{"NFC value, NFD text", accent, norm.NFD.String(accent)},
	{"NFD value, NFC text", norm.NFD.String(accent), norm.NFC.String(accent)},
	{"NFKC text", accent, norm.NFKC.String(accent)},
	{"NFKD text", accent, norm.NFKD.String(accent)},
	{"fullwidth letters", "Secret42", "Ｓｅｃｒｅｔ４２"},
	{"mathematical letters as HTML names", "Secret42", "&Sopf;&eopf;&copf;ret42"},
	{"NFD, JSON-escaped combining marks", accent, `Gru\u0308\u00dfe-n\u0303andu\u0301-A\u030asa`},
	{"NFD, percent-encoded combining marks", accent, "Gru%CC%88%C3%9Fe-n%CC%83andu%CC%81-A%CC%8Asa"},
	{"combining marks out of canonical order", "ệ", "e\u0302\u0323"},
	{"zero-width characters between the characters", plain, "s\u200b3\u200dcret\u00ad pw&ü\"\u2060x/"},
	{"escaped zero-width characters", plain, `s\u200b3&#8203;cret%E2%80%8B pw&ü"x/`},
	{"format, private-use and unassigned characters between the characters", plain, "s\ufff93\u0600c\u070fr\ue000e\U000f0000t\u0378 \ufffepw\U0010ffff&\U00013430ü\ufdd0\"x\U000110bd/"},
	{"escaped format and private-use characters", plain, `s\ufff93\ue000cret pw&ü"x/`},
	{"CSS and JavaScript line continuations", plain, "s3\\\ncret\\\r\n pw&ü\"x/"},
	{"JavaScript line continuations over the line and paragraph separators", plain, "s\\\u20283c\\\u2029ret pw&ü\"x/"},
	{"UTF-16, NUL between the characters", "s3cret", "s\x003\x00c\x00r\x00e\x00t"},
	{"split over adjacent text nodes of a trace", plain, `s3c","ret pw&ü\"x","/`},
	{"an accent added to the last character", "s3cret", "s3cret\u0301"},
	{"a precomposed last character", "s3cre", "s3cré"},
}

func TestReplaceFindsEverySpelling(t *testing.T) {
	for _, c := range spellings {
		t.Run(c.name, func(t *testing.T) {
			s := New(c.value)
			text := "before «" + c.text + "» after"
			if !s.ContainsString(text) {
				t.Fatalf("Contains(%q) = false, want true", text)
			}
			want := "before «" + mask + "» after"
			if got := s.ReplaceString(text, mask); got != want {
				t.Errorf("ReplaceString(%q) = %q, want %q", text, got, want)
			}
			i, j := s.Index([]byte(text))
			if text[i:j] != c.text {
				t.Errorf("Index(%q) = %d, %d (%q), want the spelling %q", text, i, j, text[i:j], c.text)
			}
		})
	}
}

// A near miss is another value: it must not be replaced.
func TestNearMissesAreNotReplaced(t *testing.T) {
	for _, c := range []struct{ name, value, text string }{
		{"the last character differs", plain, `s3cret pw&ü"y/`},
		{"the first character differs", plain, `S3cret pw&ü"x/`},
		{"a character without its accent", plain, `s3cret pw&u"x/`},
		{"a character missing", plain, `s3cret pw&ü"x`},
		{"a visible character inserted", plain, `s3cr-et pw&ü"x/`},
		{"a replacement character inserted", plain, "s3cr\ufffdet pw&ü\"x/"},
		{"an object replacement character inserted", plain, "s3cr\ufffcet pw&ü\"x/"},
		{"a hair space inserted", plain, "s3cr\u200aet pw&ü\"x/"},
		{"a space doubled", plain, `s3cret  pw&ü"x/`},
		{"an escape of the other case of a letter", plain, `\u0053` + `3cret pw&ü"x/`},
		{"an escape of the next letter", plain, `%74` + `3cret pw&ü"x/`},
		{"an HTML reference to another character", plain, `&#116;` + `3cret pw&ü"x/`},
		{"an HTML reference whose digits go on", plain, `&#1153cret pw&ü"x/`},
		{"a CSS escape whose hex digits go on", "Bad", `\42ad`},
		{"an accent added in the middle", "cafes", "cafés"},
		{"an accent missing", accent, "Gruße-ñandú-Åsa"},
		{"another accent", accent, "Grüße-ñandù-Åsa"},
		{"a ring missing in NFD", "Åsa", "Asa"},
		{"sharp s is not ss", "Grüße", "Grüsse"},
		{"a lone surrogate instead of the pair", astral, `p@ss\uD83Dw0rd`},
		{"base64", plain, "czNjcmV0IHB3JsO8In gv"},
		{"reversed", "s3cret", "terc3s"},
		{"split across elements", "s3cret", `"s3c"],["B",{},"ret"`},
		{"split by other JSON", "s3cret", `"s3c", "ret"`},
		{"look-alike letters", "secret", "ѕесrеt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(c.value)
			if s.ContainsString(c.text) {
				i, j := s.Index([]byte(c.text))
				t.Errorf("Contains(%q) = true (%q), want false", c.text, c.text[i:j])
			}
			if got := s.ReplaceString(c.text, mask); got != c.text {
				t.Errorf("ReplaceString(%q) = %q, want it unchanged", c.text, got)
			}
		})
	}
}

// Every family of spellings, alone and mixed, many times over: the
// speller writes each character of the value in a form of the family at
// random, nested two levels down.
func TestReplaceFindsEveryFamilyMixed(t *testing.T) {
	values := []string{plain, accent, astral, "ＧＲＵＳＳ ｆｉ", "a\\b\"c\nd\te/f", "100% & <b>", "Ωμέγα Ångström ﬁne", " lead and trail "}
	families := [][]string{
		{"json"}, {"js"}, {"css"}, {"percent"}, {"escape()"}, {"html"}, {"ignorable"},
		{"json", "percent"}, {"json", "html"}, {"percent", "html"},
		nil, // every family
	}
	for _, fam := range families {
		t.Run(strings.Join(fam, "+"), func(t *testing.T) {
			for seed := range uint64(150) {
				sp := newSpeller(seed, fam...)
				v := values[seed%uint64(len(values))]
				spelt := sp.spell(v, maxDepth)
				checkFoundAndRemoved(t, v, "<p>"+spelt+"</p>")
			}
		})
	}
}

func checkFoundAndRemoved(t *testing.T, value, text string) {
	t.Helper()
	s := New(value)
	if !s.ContainsString(text) {
		t.Fatalf("value %q: Contains(%q) = false", value, text)
	}
	out := s.ReplaceString(text, mask)
	if s.ContainsString(out) {
		i, j := s.Index([]byte(out))
		t.Fatalf("value %q: ReplaceString(%q) = %q, which still holds %q", value, text, out, out[i:j])
	}
	// A value made of characters of the mask can leave the mask cut short
	// (TestReplaceNeverLeavesAValueBehindTheMask); any other leaves it whole.
	if !strings.Contains(out, mask) && !strings.ContainsAny(norm.NFKD.String(value), mask) {
		t.Fatalf("value %q: ReplaceString(%q) = %q, no mask", value, text, out)
	}
}

func TestSeveralValuesTheLongestFirst(t *testing.T) {
	s := New("secret", "secret-longer", "", "other")
	if s.Len() != 3 {
		t.Errorf("Len = %d, want 3: the empty value is ignored", s.Len())
	}
	got := s.ReplaceString(`a secret-longer, a \u0073ecret and an oth&#101;r`, "#")
	if want := "a #, a # and an #"; got != want {
		t.Errorf("ReplaceString = %q, want %q", got, want)
	}
}

func TestValuesEqualInNFKDCountOnce(t *testing.T) {
	if n := New(accent, norm.NFD.String(accent), accent).Len(); n != 1 {
		t.Errorf("Len = %d, want 1", n)
	}
}

func TestEmptySetAndEmptyValues(t *testing.T) {
	for _, s := range []*Set{nil, {}, New(), New("", "")} {
		if s.Contains([]byte("anything")) || s.Len() != 0 {
			t.Errorf("%+v: holds a value", s)
		}
		b := []byte("unchanged")
		if got := s.Replace(b, mask); &got[0] != &b[0] {
			t.Errorf("Replace on an empty set copied its input")
		}
		if i, j := s.Index(b); i != -1 || j != -1 {
			t.Errorf("Index = %d, %d, want -1, -1", i, j)
		}
	}
}

func TestReplaceReturnsItsInputWhenNothingMatches(t *testing.T) {
	b := []byte("nothing to see")
	if got := New("secret").Replace(b, mask); &got[0] != &b[0] {
		t.Error("Replace copied an input that holds no value")
	}
}

// A one-character value is found wherever its character is spelt: the
// package does not guess which occurrences matter.
func TestAOneCharacterValueIsFoundEverywhere(t *testing.T) {
	got := New("é").ReplaceString(`café, cafe\u0301, caf&eacute;, caf%C3%A9`, "*")
	if want := "caf*, caf*, caf*, caf*"; got != want {
		t.Errorf("ReplaceString = %q, want %q", got, want)
	}
}

// When the mask, next to the text around it, spells a value again, the
// result still holds none.
func TestReplaceNeverLeavesAValueBehindTheMask(t *testing.T) {
	for _, c := range []struct{ value, text string }{
		{"e]", "e]]"},
		{"]x", "]xx"},
		{"sens", "sens"},
		{"[s", "[s[s"},
		{"ive]x", "ive]xx"},
	} {
		s := New(c.value)
		out := s.ReplaceString(c.text, mask)
		if s.ContainsString(out) {
			t.Errorf("value %q: ReplaceString(%q) = %q, which holds it", c.value, c.text, out)
		}
	}
}

// The output of JSON and URL encoders of the standard library, of any
// value: what Glass writes itself must be found.
func TestReplaceFindsWhatGoEncodersWrite(t *testing.T) {
	for _, v := range []string{plain, accent, astral, "\x00\x1f\u2028\u2029<>&'", "tab\there\r\nnew line"} {
		j, _ := json.Marshal(v)
		jj, _ := json.Marshal(string(j))
		for _, text := range []string{string(j), string(jj), url.QueryEscape(v), url.PathEscape(v), html.EscapeString(v), fmt.Sprintf("%q", v), fmt.Sprintf("%+q", v)} {
			checkFoundAndRemoved(t, v, text)
		}
	}
}

// A text built to make the matcher branch at every offset is scanned in
// bounded time, and a budget spent counts as found.
func TestAHostileTextIsScannedInBoundedTime(t *testing.T) {
	for _, text := range []string{
		strings.Repeat(`\`, 1<<16),
		strings.Repeat(`\\\\\\\\u005c`, 1<<12),
		strings.Repeat("%25", 1<<14),
		"&#" + strings.Repeat("0", 1<<16),
		`\u{` + strings.Repeat("0", 1<<16),
		"e" + strings.Repeat("\u0301", 1<<14),
		"s" + strings.Repeat("\u200b", 1<<14) + "x",
	} {
		s := New(`\\\\s`, "e\u0302", "s3")
		s.ContainsString(text)
		s.ReplaceString(text, mask)
	}
}

func TestInvalidUTF8(t *testing.T) {
	s := New("ab\xffcd")
	for _, text := range []string{"ab\xffcd", "ab\ufffdcd", `ab\ufffdcd`, "ab\xfecd"} {
		if !s.ContainsString(text) {
			t.Errorf("Contains(%q) = false: an invalid byte reads as U+FFFD", text)
		}
	}
	if got := New("x").ReplaceString("\xff\xfex\xc3", "#"); got != "\xff\xfe#\xc3" {
		t.Errorf("ReplaceString = %q", got)
	}
}

func FuzzScrubFindsEverySpelling(f *testing.F) {
	for _, v := range []string{plain, accent, astral, "a", "\\\"", "ﬁ x", "e\u0301"} {
		f.Add(v, uint64(1), "<", ">")
	}
	f.Fuzz(func(t *testing.T, value string, seed uint64, prefix, suffix string) {
		if value == "" || len(value) > 64 || len(prefix) > 256 || len(suffix) > 256 {
			return
		}
		spelt := newSpeller(seed).spell(value, maxDepth)
		checkFoundAndRemoved(t, value, prefix+spelt+suffix)
	})
}

func FuzzScrubArbitraryBytes(f *testing.F) {
	f.Add("s3cret", []byte(`{"a":"s\u0033cret%20&amp;"}`))
	f.Add(`\`, []byte(`\\\\\\`))
	f.Add("é", []byte("e\u0301\u0301&#x301;%CC%81"))
	f.Fuzz(func(t *testing.T, value string, text []byte) {
		if len(text) > 4096 {
			return
		}
		s := New(value)
		in := bytes.Clone(text)
		out := s.Replace(text, mask)
		if !bytes.Equal(text, in) {
			t.Fatal("Replace changed its input")
		}
		if s.Contains(out) {
			t.Fatalf("Replace(%q) = %q still holds %q", text, out, value)
		}
		if s.Contains(text) != !bytes.Equal(out, text) {
			t.Fatalf("Contains(%q) = %v, but Replace gave %q", text, s.Contains(text), out)
		}
		if !utf8.Valid(text) {
			return
		}
		if s.ContainsString(string(text)) != s.Contains(text) {
			t.Fatal("ContainsString and Contains disagree")
		}
	})
}

// A confirmation or hand-off request decoded from JSON: every string, key
// and number is scrubbed, and keys that become equal stay apart.
func TestReplaceInScrubsADecodedJSONValue(t *testing.T) {
	s := New("4096", "hunter2")
	var in any
	if err := json.Unmarshal([]byte(`{
		"pin": 4096, "amount": 12.5, "code": 40960,
		"note": "pw hunter\u0032, pin %34096",
		"hunter2": "key", "hunter%32": "another key",
		"list": [4096, "x", true, null, {"deep": "h&#117;nter2"}]
	}`), &in); err != nil {
		t.Fatal(err)
	}
	got := s.ReplaceIn(in, mask)
	want := map[string]any{
		"pin": mask, "amount": 12.5, "code": mask,
		// %34096 is "4096" spelt with a percent-encoded 4.
		"note": "pw " + mask + ", pin " + mask,
		// In the order of the keys: "hunter%32" sorts first.
		mask:        "another key",
		mask + " 2": "key",
		"list":      []any{mask, "x", true, nil, map[string]any{"deep": mask}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReplaceIn =\n%#v\nwant\n%#v", got, want)
	}
	if n := s.ReplaceIn(json.Number("14096"), mask); n != mask {
		t.Errorf("ReplaceIn(json.Number) = %v", n)
	}
	// Its digits spell it with a point or a sign between them (an outside
	// audit's attack: 4.242 for the value 4242 reached a confirmation).
	for _, n := range []any{4.096, 40.96, -4096.5, json.Number("409.6"), json.Number("4.096e3")} {
		if got := s.ReplaceIn(n, mask); got != mask {
			t.Errorf("ReplaceIn(%v) = %v, want it masked", n, got)
		}
	}
	if got := s.ReplaceIn(4.0961e-10, mask); got != mask {
		t.Errorf("ReplaceIn(4.0961e-10) = %v, want it masked", got)
	}
	type other struct{ S string }
	if v := s.ReplaceIn(other{"hunter2"}, mask); v != (other{"hunter2"}) {
		t.Errorf("ReplaceIn changed a value of another type: %v", v)
	}
	if in := map[string]any{"a": "hunter2"}; !reflect.DeepEqual(New().ReplaceIn(in, mask), in) {
		t.Error("an empty set changed the value")
	}
}
