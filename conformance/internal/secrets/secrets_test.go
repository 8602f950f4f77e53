package secrets

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/internal/scrub"
)

// TestAFindingShowsNoPartOfAProbesSecret: a page that shows the probe's
// secret without its constant prefix, or percent-encoded, or its random
// digits without the middle between them (an outside audit's attack),
// still gets none of them into a finding.
func TestAFindingShowsNoPartOfAProbesSecret(t *testing.T) {
	var s Set
	v := s.Fresh()
	random := strings.TrimPrefix(v, Prefix)
	digits := strings.Replace(random, Middle, "", 1)
	f := s.Hide(report.Finding{Message: "echoed " + random + " and " + v + " and " + strings.ToUpper(digits) + " and GlassSecret-" + digits,
		Evidence: []report.Evidence{{Label: "receipt", Text: `{"title": "Card ` + random + `"}`}}})
	for _, text := range []string{f.Message, f.Evidence[0].Text} {
		if strings.Contains(text, random) || strings.Contains(strings.ToLower(text), digits[2:14]) {
			t.Errorf("a finding shows the secret's random part: %q", text)
		}
	}
	if !strings.Contains(f.Message, Leaked) {
		t.Errorf("the finding does not say where the secret was: %q", f.Message)
	}
}

// TestAFindingShowsNoHalfOfAProbesSecretsDigits: a page that writes the
// halves of the random digits apart — one delimiter character, another
// one ("_", as a WebMCP tool name from an id), the other order, each half
// reversed — gets none of the 64 random bits into a finding (an outside
// attack's spellings).
func TestAFindingShowsNoHalfOfAProbesSecretsDigits(t *testing.T) {
	var s Set
	v := s.Fresh()
	x, y, _ := strings.Cut(strings.TrimPrefix(v, Prefix), Middle)
	rev := func(t string) string { b := []byte(t); slices.Reverse(b); return string(b) }
	for _, text := range []string{x + "<" + y, x + "&" + y, x + "&<" + y, y + Middle + x, y + x,
		"sec3-" + strings.ToUpper(Prefix+x+"_"+y), rev(x) + rev(y)} {
		got := s.Hide(report.Finding{Message: "tools: " + text}).Message
		if strings.Contains(strings.ToLower(got), x) || strings.Contains(strings.ToLower(got), y) ||
			strings.Contains(strings.ToLower(got), rev(x)) || strings.Contains(strings.ToLower(got), rev(y)) {
			t.Errorf("%q shows a half of the digits: %q", text, got)
		}
	}
}

// TestACutCopyOfAProbesSecretShowsNothingOfIt: a copy cut short by the
// evidence bound, spelt with a variation selector after each character
// (an outside attack's page), shows neither its start nor a half of its
// digits: the part is hidden whole, not the half inside it first.
func TestACutCopyOfAProbesSecretShowsNothingOfIt(t *testing.T) {
	var s Set
	v := s.Fresh()
	var spelt strings.Builder
	for _, r := range v[:len(v)-5] {
		spelt.WriteRune(r)
		spelt.WriteString("\ufe0f")
	}
	got := s.Hide(report.Finding{Message: "warning: " + spelt.String() + "…"}).Message
	if want := "warning: " + Leaked + "…"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAFindingShowsAProbesSecretInNoCaseAndNotReversed: the probe chose
// the value, so the page's spellings of it in another case of its letters,
// mixed or escaped, and backwards are hidden too (an outside audit's
// attack: the upper-cased value reached every output).
func TestAFindingShowsAProbesSecretInNoCaseAndNotReversed(t *testing.T) {
	var s Set
	v := s.Fresh()
	random := strings.TrimPrefix(v, Prefix)
	rev := func(t string) string { b := []byte(t); slices.Reverse(b); return string(b) }
	mixed := []byte(v)
	for i := range mixed {
		if i%2 == 0 {
			mixed[i] = strings.ToUpper(string(mixed[i]))[0]
		}
	}
	for _, spelling := range []string{
		strings.ToUpper(v), strings.ToLower(v), strings.ToUpper(random), string(mixed),
		rev(v), rev(random), strings.ToUpper(rev(v)), url.QueryEscape(strings.ToUpper(v)),
		`\u0047LASSSECRET-` + strings.ToUpper(random),
		fullwidth(strings.ToUpper(v)), fullwidth(strings.ToUpper(rev(random))),
	} {
		f := s.Hide(report.Finding{Message: "echoed <" + spelling + ">", Evidence: []report.Evidence{{Label: "l " + spelling, Text: spelling}}})
		for _, text := range []string{f.Message, f.Evidence[0].Label, f.Evidence[0].Text} {
			low := strings.ToLower(norm.NFKC.String(text))
			if strings.Contains(low, strings.ToLower(random)) || strings.Contains(low, strings.ToLower(rev(random))) {
				t.Errorf("%q: a finding shows the secret: %q", spelling, text)
			}
		}
		if !strings.Contains(f.Message, Leaked) {
			t.Errorf("%q: the finding does not say where the secret was: %q", spelling, f.Message)
		}
	}
	// Text that only looks like it is left alone.
	other := "GLASSSECRET-" + strings.Repeat("0", 16)
	if f := s.Hide(report.Finding{Message: other}); f.Message != other {
		t.Errorf("a value the probe never passed was hidden: %q", f.Message)
	}
}

// fullwidth spells the ASCII letters, digits and dash of t in their
// fullwidth forms (U+FF01 to U+FF5E).
func fullwidth(t string) string {
	var b strings.Builder
	for _, c := range t {
		if '!' <= c && c <= '~' {
			c += 0xFF01 - '!'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestWhatACutLeftOfASecretIsHidden: a text Glass cut short before its
// secrets were hidden can end with the start of one (an outside audit's
// page repeated the secret in a warning until the bound cut a copy): that
// start is hidden too, in the spellings a page writes, in any case; text
// that only looks like it is left.
func TestWhatACutLeftOfASecretIsHidden(t *testing.T) {
	var s Set
	v := s.Fresh()
	random := strings.TrimPrefix(v, Prefix)
	for _, text := range []string{
		v + "." + v + "." + v[:len(v)-3] + "…",
		v + "!" + strings.ToUpper(v[:20]) + "…",
		"k0: " + strings.ReplaceAll(strings.ReplaceAll(v, "<", `\u003c`), "&", `\u0026`)[:len(v)+6] + "… and more",
		"only the random part: " + random[:10] + "…",
		"twice cut: " + v[:14] + "… then " + v[:9] + "…",
	} {
		f := s.Hide(report.Finding{Message: text})
		for _, part := range []string{v[:8+len(Prefix)], random[:8]} {
			if strings.Contains(scrub.FoldASCII(f.Message), scrub.FoldASCII(part)) {
				t.Errorf("%q: the cut secret shows: %q", text, f.Message)
			}
		}
		if !strings.Contains(f.Message, Leaked) || !strings.Contains(f.Message, "…") {
			t.Errorf("%q: %q does not say where the secret was cut", text, f.Message)
		}
	}
	for _, kept := range []string{"a short cut: Gla…", "GlassSecre and no cut", "no cut at all: " + Prefix + "zz"} {
		if f := s.Hide(report.Finding{Message: kept}); f.Message != kept {
			t.Errorf("%q was changed to %q", kept, f.Message)
		}
	}
}

// TestAFindingThatQuotesThePageThroughJSONHidesItsSecret: a page that
// spells the secret's middle with character references two levels deep
// (&amp;lt;&amp;amp;), quoted in a finding through json.Marshal, which
// escapes & as \u0026, is hidden (an outside audit's attack: the
// webmcp.agrees finding showed it); a backslash the page escaped itself
// is left as it was.
func TestAFindingThatQuotesThePageThroughJSONHidesItsSecret(t *testing.T) {
	var s Set
	v := s.Fresh()
	spelt := strings.Replace(v, Middle, "&amp;lt;&amp;amp;", 1)
	quoted, err := json.Marshal("Log in " + spelt)
	if err != nil {
		t.Fatal(err)
	}
	f := s.Hide(report.Finding{Message: "the receipts differ: " + string(quoted) + ` and "a\\u0026b"`})
	digits := strings.Replace(strings.TrimPrefix(v, Prefix), Middle, "", 1)
	if strings.Contains(strings.ToLower(f.Message), digits[2:10]) || !strings.Contains(f.Message, Leaked) {
		t.Errorf("the finding shows the secret spelt through JSON: %q", f.Message)
	}
	if !strings.Contains(f.Message, `"a\\u0026b"`) {
		t.Errorf("an escaped backslash was taken for an escape: %q", f.Message)
	}
}
