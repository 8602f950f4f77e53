package matchers_test

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

func TestNeverContain(t *testing.T) {
	// The failure shows the receipt with the secret redacted.
	leak := decoded(t, "sensitive-leak")
	leak.Result.Warning = "retried with password <redacted> after a slow answer"
	shown := header(leak)

	cases := []struct {
		name    string
		fixture string
		value   any
		match   bool
		message string // after the header and a newline
		header  string
	}{
		{"a clean receipt", "sensitive-clean", "hunter2", true,
			`to contain the sensitive value, but it appears nowhere`, ""},
		{"a leak anywhere: a key deep in data, a warning, an extension field", "sensitive-leak", "hunter2", false,
			`never to contain the sensitive value, but it appears at:
    - a key of $.result.data.session.cache
    - $.result.warning
    - $["x-debug"].typed[1]`, shown},
		{"a number, in a number", "sensitive-leak", 48151623, false,
			`never to contain the sensitive value, but it appears at:
    - $.result.data.pin`, ""},
		{"part of a number", "sensitive-leak", "1516", false,
			`never to contain the sensitive value, but it appears at:
    - $.result.data.pin`, ""},
		{"a matcher, applied to every key, string and number", "sensitive-leak", MatchRegexp(`^hunter\d$`), false,
			`never to contain a value matching MatchRegexp(…), but it appears at:
    - a key of $.result.data.session.cache
    - $["x-debug"].typed[1]`, ""},
		{"a matcher that matches nothing", "sensitive-clean", MatchRegexp(`^hunter\d$`), true,
			`to contain a value matching MatchRegexp(…), but it appears nowhere`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NeverContain(c.value)
			ok, err := m.Match(fixture(t, c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			if ok != c.match {
				t.Fatalf("Match = %v, want %v", ok, c.match)
			}
			got := m.FailureMessage(nil)
			if ok {
				got = m.NegatedFailureMessage(nil)
			}
			h := c.header
			if h == "" {
				h = header(decoded(t, c.fixture))
			}
			if want := h + "\n" + c.message; stable(got) != want {
				t.Errorf("message:\n%s\nwant:\n%s", stable(got), want)
			}
			if s, ok := c.value.(string); ok && !c.match && strings.Contains(got, s) {
				t.Errorf("the failure message repeats the sensitive value:\n%s", got)
			}
		})
	}
}

func TestNeverContainSearchesExtensionFieldsOfAReceiptValue(t *testing.T) {
	r := decoded(t, "sensitive-clean")
	r.Extra = map[string]json.RawMessage{"x-debug": json.RawMessage(`{"typed":["hunter2"]}`)}
	r.Result.Extra = map[string]json.RawMessage{"x-trace": json.RawMessage(`"pw=hunter2"`)}
	m := NeverContain("hunter2")
	ok, err := m.Match(r)
	if err != nil {
		t.Fatal(err)
	}
	want := header(r) + `
never to contain the sensitive value, but it appears at:
    - $.result["x-trace"]
    - $["x-debug"].typed[0]`
	if got := stable(m.FailureMessage(nil)); ok || got != want {
		t.Errorf("Match = %v, message:\n%s\nwant false and:\n%s", ok, got, want)
	}
}

func TestNeverContainRedactsEvenWhenTheModelCannotHoldTheRedaction(t *testing.T) {
	// The secret is part of the phase: redacting it leaves a phase the
	// model rejects, and the message shows less rather than the secret.
	m := NeverContain("polic")
	ok, err := m.Match(fixture(t, "denied"))
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	if msg := m.FailureMessage(nil); strings.Contains(msg, "polic") || !strings.Contains(msg, `receipt "<redacted>"`) {
		t.Errorf("message:\n%s", msg)
	}
}

func TestNeverContainErrors(t *testing.T) {
	r := fixture(t, "sensitive-clean")
	runErrors(t, []errorCase{
		{"an empty value", NeverContain(""), r, `NeverContain matcher: the empty string is in every text: give a value to search for`},
		{"a value of the wrong type", NeverContain(true), r, `NeverContain matcher: want a string, a number or a Gomega matcher, got bool`},
		{"a matcher that cannot take a string", NeverContain(BeNumerically(">", 1)), r, "NeverContain matcher: BeNumerically(…): Expected a number.  Got:\n    <string>: executionId"},
	})
}

// A *receipt.Receipt from the harness and its JSON are searched alike.
func TestNeverContainOnAReceiptValue(t *testing.T) {
	r := decoded(t, "sensitive-leak")
	m := NeverContain("hunter2")
	ok, err := m.Match(*r)
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	for _, path := range []string{"a key of $.result.data.session.cache", "$.result.warning"} {
		if !strings.Contains(m.FailureMessage(nil), path) {
			t.Errorf("message lacks %s:\n%s", path, m.FailureMessage(nil))
		}
	}
	if ok, _ := NeverContain("anna").Match(&receipt.Receipt{}); !ok {
		t.Error("an empty receipt contains nothing")
	}
}

func TestNeverContainSearchesJSONTheDecoderRefuses(t *testing.T) {
	raw := strings.Replace(string(fixture(t, "sensitive-leak")), `"ok": true`, `"ok": false`, 1)
	if _, err := receipt.Decode([]byte(raw)); err == nil {
		t.Fatal("receipt.Decode accepts the broken receipt; this test needs one it refuses")
	}
	m := NeverContain("hunter2")
	ok, err := m.Match(raw)
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	if msg := m.FailureMessage(nil); !strings.Contains(msg, "\n    - $.result.warning\n") || strings.Contains(msg, "hunter2") {
		t.Errorf("message:\n%s", msg)
	}
}
