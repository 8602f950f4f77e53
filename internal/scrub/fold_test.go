package scrub

import "testing"

func TestReplaceStringAnyCaseReplacesEveryCaseOfEveryValue(t *testing.T) {
	s := New(FoldASCII("GlassSecret-0a1B"), FoldASCII(Reverse("GlassSecret-0a1B")))
	in := "a GLASSSECRET-0A1B b glasssecret-0a1b c B1a0-terceSssalG d GlassSecre"
	want := "a [x] b [x] c [x] d GlassSecre"
	if got := s.ReplaceStringAnyCase(in, "[x]"); got != want {
		t.Errorf("ReplaceStringAnyCase(%q) = %q, want %q", in, got, want)
	}
	if got := s.ReplaceStringAnyCase("nothing here", "[x]"); got != "nothing here" {
		t.Errorf("a text without a value changed: %q", got)
	}
}
