package receipt_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/glassworks/glass/internal/hostile"
	"github.com/glassworks/glass/receipt"
)

func TestPrintableJSONEscapesWhatDoesNotPrintAndKeepsTheValue(t *testing.T) {
	value := map[string]string{"text": "ü → 🙂 \u009b31m \u202eRTL\u2066 \u2028 \U000e0041 \x1b[2J"}
	b, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	got := string(receipt.PrintableJSON(b))
	for _, want := range []string{`ü → 🙂 `, `\u009b31m`, `\u202eRTL\u2066`, `\u2028`, `\udb40\udc41`, `\u001b[2J`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	for _, raw := range []string{"\u009b", "\u202e", "\u2066", "\U000e0041"} {
		if strings.Contains(got, raw) {
			t.Errorf("%q still carries a raw %U", got, []rune(raw)[0])
		}
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["text"] != value["text"] {
		t.Errorf("the value changed: %q, %v", back["text"], err)
	}
}

func TestPrintableJSONLeavesPrintableTextAndBrokenBytesAlone(t *testing.T) {
	for _, in := range []string{`{"a":"plain ascii"}`, `["ü","日本","🙂"]`, "\"\xff\xfe\"", ""} {
		if got := string(receipt.PrintableJSON([]byte(in))); got != in {
			t.Errorf("PrintableJSON(%q) = %q", in, got)
		}
	}
}

// FuzzPrintableJSON: whatever string a page sends, the JSON Glass writes
// of it is valid, means the same string and carries no character a
// terminal acts on.
func FuzzPrintableJSON(f *testing.F) {
	for _, s := range []string{"", "plain", hostile.Text, "\x7f\u0085\u2028\u2066\U000e0041", "\xff\xfe", "ü → 🙂"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Fatal(err)
		}
		p := receipt.PrintableJSON(b)
		var back map[string]string
		if err := json.Unmarshal(p, &back); err != nil {
			t.Fatalf("PrintableJSON(%q) = %q: not JSON: %v", b, p, err)
		}
		var want map[string]string
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("PrintableJSON(%q) = %q: the value changed", b, p)
		}
		if c := hostile.Controls(string(p)); len(c) > 0 {
			t.Fatalf("PrintableJSON(%q) = %q carries a raw %U", b, p, c[0])
		}
	})
}

func TestPrintableTextShowsWhatATerminalWouldActOn(t *testing.T) {
	got := receipt.PrintableText(hostile.Text + " \xff")
	if c := hostile.Controls(got); len(c) > 0 {
		t.Errorf("PrintableText(hostile.Text) = %q still carries %q", got, c)
	}
	for _, want := range []string{`\x1b[31mRED\x1b[0m`, `\x1b]0;title\x07`, `\x9b31m`, `\x0dOVER`, `\u202eRTL`, `\x00`, `\xff`, "<script>alert(1)</script>"} {
		if !strings.Contains(got, want) {
			t.Errorf("PrintableText(hostile.Text) = %q, want it to show %q", got, want)
		}
	}
	for _, in := range []string{"", "plain", "ü → 🙂 日本", "two\nlines\tand a tab", "\ufffd", "👩\u200d💻 زیر\u200cنویس", "❤\ufe0f ✌\ufe0e"} {
		if got := receipt.PrintableText(in); got != in {
			t.Errorf("PrintableText(%q) = %q, want it unchanged", in, got)
		}
	}
	// The code points a renderer shows nothing of that are not format
	// characters: an id with one would pass for the id without.
	for _, r := range []rune{0x034f, 0x115f, 0x1160, 0x17b4, 0x180b, 0x3164, 0xfe00, 0xffa0, 0xe0100, 0x2800} {
		in := "count" + string(r) + "@t1"
		if got := receipt.PrintableText(in); got == in || !strings.Contains(got, "count") {
			t.Errorf("PrintableText(%q) = %q, want the U+%04X escaped", in, got, r)
		}
	}
	// The bidi marks reorder what is around them as the overrides do.
	if got, want := receipt.PrintableText("a\u200eb\u200fc\u061cd"), `a\u200eb\u200fc\u061cd`; got != want {
		t.Errorf("PrintableText of the bidi marks = %q, want %q", got, want)
	}
	if got, want := receipt.PrintableLine("one\nFAKE LINE\x1b[2J"), `one\nFAKE LINE\x1b[2J`; got != want {
		t.Errorf("PrintableLine = %q, want %q", got, want)
	}
	// On one line a tab would pass for spaces (an attack page's id
	// "t\tab" beside "t ab"); in a text of several lines it stays.
	if got, want := receipt.PrintableLine("t\tab"), `t\tab`; got != want {
		t.Errorf("PrintableLine of a tab = %q, want %q", got, want)
	}
	if got, want := receipt.PrintableID(`t\tab`+"\t"), `t\\tab\t`; got != want {
		t.Errorf("PrintableID of a typed and a real tab = %q, want %q", got, want)
	}
	if got, want := receipt.PrintableText("a\tb"), "a\tb"; got != want {
		t.Errorf("PrintableText of a tab = %q, want %q", got, want)
	}
}

// FuzzPrintableText: whatever a page writes, the text Glass prints of it
// carries no character a terminal acts on, and printable text is left as
// it is.
func FuzzPrintableText(f *testing.F) {
	for _, s := range []string{"", "plain", hostile.Text, "\x7f\u0085\u2028\u2066", "\xff\xfe", "ü → 🙂", "a\u200bb\U000E0041\uFEFF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := receipt.PrintableText(s)
		if c := hostile.Controls(got); len(c) > 0 {
			t.Fatalf("PrintableText(%q) = %q carries %q", s, got, c)
		}
		if len(hostile.Controls(s)) == 0 && utf8.ValidString(s) && got != s {
			t.Fatalf("PrintableText(%q) = %q, want the printable text unchanged", s, got)
		}
		id := receipt.PrintableID(s)
		if again := receipt.PrintableText(got); again != got {
			t.Fatalf("PrintableText(%q) = %q, and applied again %q", s, got, again)
		}
		if line := receipt.PrintableLine(id); line != id || strings.Contains(id, "\n") {
			t.Fatalf("PrintableID(%q) = %q, which PrintableLine shows as %q", s, id, line)
		}
		if back := unprint(id); back != s {
			t.Fatalf("PrintableID(%q) = %q, which reads back as %q: two ids could show alike", s, id, back)
		}
	})
}

// unprint reads back the bytes PrintableID shows: the escapes it writes
// (\x as a byte, \u and \U as a character), a doubled backslash as one,
// and a backslash before anything else as itself.
func unprint(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) {
			digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
			switch {
			case s[i+1] == '\\':
				b.WriteByte('\\')
				i += 2
				continue
			case s[i+1] == 't':
				b.WriteByte('\t')
				i += 2
				continue
			case s[i+1] == 'n':
				b.WriteByte('\n')
				i += 2
				continue
			case digits > 0 && i+2+digits <= len(s):
				if v, err := strconv.ParseUint(s[i+2:i+2+digits], 16, 32); err == nil && digits == 2 {
					b.WriteByte(byte(v)) // a byte: a C0 control, or one of invalid UTF-8
					i += 2 + digits
					continue
				} else if err == nil {
					b.WriteRune(rune(v))
					i += 2 + digits
					continue
				}
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// TestPrintableIDShowsAPagesOwnEscapeTextApart: an id that holds the text
// of an escape and the id with the real character show apart (SECURITY.md:
// an id cannot pass for another), and a backslash shows as itself where
// nothing could misread it.
func TestPrintableIDShowsAPagesOwnEscapeTextApart(t *testing.T) {
	for in, want := range map[string]string{
		"pay\u202eyap":   `pay\u202eyap`,
		`pay\u202eyap`:   `pay\\u202eyap`,
		"refund\x1b[31m": `refund\x1b[31m`,
		`refund\x1b[31m`: `refund\\x1b[31m`,
		"a\\\u202eb":     `a\\\u202eb`,
		`a\\u202eb`:      `a\\\\u202eb`,
		"two\nlines":     `two\nlines`,
		`two\nlines`:     `two\\nlines`,
		`C:\Users\x`:     `C:\\Users\\x`,
		`say "hi\"`:      `say "hi\"`,
		`a\b`:            `a\b`,
	} {
		if got := receipt.PrintableID(in); got != want {
			t.Errorf("PrintableID(%q) = %q, want %q", in, got, want)
		}
		if got := receipt.PrintableLine(receipt.PrintableID(in)); got != want {
			t.Errorf("PrintableLine(PrintableID(%q)) = %q, want it unchanged, %q", in, got, want)
		}
	}
}

func TestPrintableTextEscapesControlsAndKeepsNewlinesAndTabs(t *testing.T) {
	cases := map[string]string{
		"plain text, ünïcode ✓\nsecond line\ttab":  "plain text, ünïcode ✓\nsecond line\ttab",
		"\x1b[31mred\x1b[0m":                       `\x1b[31mred\x1b[0m`,
		"bell\a and \r return":                     `bell\x07 and \x0d return`,
		"c1 \u009b31m csi":                         `c1 \x9b31m csi`,
		"bidi \u202eevil\u202c":                    `bidi \u202eevil\u202c`,
		"bad utf8 \xff":                            `bad utf8 \xff`,
		"remove\u200b@t1 \ufeffbom \u00adshy":      `remove\u200b@t1 \ufeffbom \u00adshy`,
		"tag \U000E0041 private \uE000 non \uFFFE": `tag \U000e0041 private \ue000 non \ufffe`,
		"kept: ü 🙂 \u00a0nbsp \u0301 x²":           "kept: ü 🙂 \u00a0nbsp \u0301 x²",
	}
	for in, want := range cases {
		if got := receipt.PrintableText(in); got != want {
			t.Errorf("PrintableText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAReceiptsGomegaStringEscapesWhatShowsNothing: the ids and texts a
// receipt's Gomega string quotes show a combining grapheme joiner or a
// Hangul filler escaped, as every other character that shows nothing.
func TestAReceiptsGomegaStringEscapesWhatShowsNothing(t *testing.T) {
	r := &receipt.Receipt{}
	r.Result.Action.ID = "pay\u034f"
	r.Result.Error = &receipt.Error{Code: receipt.CodeExecutionFailed, Message: "no\u3164pe"}
	s := r.GomegaString()
	for _, raw := range []string{"\u034f", "\u3164"} {
		if strings.Contains(s, raw) {
			t.Errorf("GomegaString = %q shows %q raw", s, raw)
		}
	}
	if !strings.Contains(s, `pay\u034f`) || !strings.Contains(s, `no\u3164pe`) {
		t.Errorf("GomegaString = %q, want the marks escaped", s)
	}
}
