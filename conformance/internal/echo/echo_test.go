package echo

import (
	"slices"
	"testing"
)

func TestTypedSpellingsSpellTheValueEachWay(t *testing.T) {
	var got []string
	for _, sp := range typedSpellings("a<&\u00eb") {
		got = append(got, sp.text)
	}
	want := []string{
		"a<&e\u0308",
		"a%3C%26%C3%AB",
		"a%3c%26%c3%ab",
		`a\u003c\u0026` + "\u00eb",
		`a<&\u00eb`,
		`a\u003C\u0026\u00EB`,
		"a&lt;&amp;\u00eb",
		"&#97;&#60;&#38;&#235;",
		"&#x61;&#x3c;&#x26;&#xeb;",
		"a&#0000060;&#0000038;&#0000235;",
		"a&#X00003C;&#X000026;&#X0000EB;",
	}
	if !slices.Equal(got, want) {
		t.Errorf("typedSpellings:\n got %q\nwant %q", got, want)
	}
}

// A value with a compatibility character (the ligature fi) has four
// distinct normalisation forms: each of the other three is typed; one with
// a space is percent-encoded with + and with %20.
func TestTypedSpellingsTypeEachOtherNormalisationForm(t *testing.T) {
	var got []string
	for _, sp := range typedSpellings("a \ufb01\u00eb")[:6] {
		got = append(got, sp.how+": "+sp.text)
	}
	want := []string{
		"in another normalisation form (NFD): a \ufb01e\u0308",
		"in another normalisation form (NFKC): a fi\u00eb",
		"in another normalisation form (NFKD): a fie\u0308",
		"percent-encoded: a+%EF%AC%81%C3%AB",
		"percent-encoded in lower-case hex: a+%ef%ac%81%c3%ab",
		"percent-encoded with %20 for a space: a%20%EF%AC%81%C3%AB",
	}
	if !slices.Equal(got, want) {
		t.Errorf("typedSpellings:\n got %q\nwant %q", got, want)
	}
}

func TestShowsVerbatimLooksInStringsAndNames(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want bool
	}{
		{`{"records":[{"title":"say \"a%3c\" now"}]}`, true},
		{`{"a%3c":1}`, true},
		{`{"title":"a%3C"}`, false},
		{`{"title":"[sensitive]"}`, false},
		{`{"n":"a\u00253c"}`, true}, // JSON's own escape of the percent sign
	} {
		if got := showsVerbatim([]byte(c.doc), "a%3c"); got != c.want {
			t.Errorf("showsVerbatim(%s) = %v, want %v", c.doc, got, c.want)
		}
	}
}
