package scrub

import "testing"

func TestNewAnyCaseFindsEveryCaseOfEveryValueInEverySpelling(t *testing.T) {
	s := NewAnyCase("GlassSecret-0a1B", Reverse("GlassSecret-0a1B"))
	for _, in := range []string{
		"GLASSSECRET-0A1B", "glasssecret-0a1b", "B1a0-terceSssalG", "b1a0-terceSssalg",
		`\u0047LASSSECRET-0A1B`, "%47lassSecret-0A1b", "&#x47;lasssecret-0a1b",
		"ＧＬＡＳＳＳＥＣＲＥＴ－０Ａ１Ｂ",             // fullwidth capitals
		"𝐆𝐋𝐀𝐒𝐒𝐒𝐄𝐂𝐑𝐄𝐓-𝟎𝐀𝟏𝐁",             // mathematical bold capitals
		"G\u200bLASS\u00adSECRET-0A1B", // invisible characters between
	} {
		if got := s.ReplaceString("a "+in+" b", "[x]"); got != "a [x] b" {
			t.Errorf("ReplaceString(%q) = %q, want it masked", in, got)
		}
	}
	for _, in := range []string{"nothing here", "GlassSecre", "GlassSecret-0a1C"} {
		if got := s.ReplaceString(in, "[x]"); got != in {
			t.Errorf("a text without a value changed: %q → %q", in, got)
		}
	}
	if got := New("GlassSecret-0a1B").ReplaceString("GLASSSECRET-0A1B", "[x]"); got != "GLASSSECRET-0A1B" {
		t.Errorf("New matched another case: %q", got)
	}
}
