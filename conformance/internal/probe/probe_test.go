package probe

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

func TestAPanickingCheckFailsItsRule(t *testing.T) {
	p := &Probe{}
	o := p.Safely(func(*Probe) Outcome { panic("boom") })
	if o.Verdict != report.Fail || !strings.Contains(o.Message, "boom") {
		t.Errorf("got %+v", o)
	}
}

// TestSetUpErrorsAreBoundedInBytes: a set-up error quoting 18 MB that a
// page threw (past its own bounds) is one bounded line.
func TestSetUpErrorsAreBoundedInBytes(t *testing.T) {
	err := error(&setupError{url: "http://127.0.0.1/", cause: "the runtime's snapshot failed: " + strings.Repeat("x", 18<<20)})
	if n := len(err.Error()); n > report.MaxMessageBytes+200 {
		t.Errorf("set-up error of %d bytes, want about %d", n, report.MaxMessageBytes)
	}
	if !errors.Is(err, ErrSetup) {
		t.Errorf("%T does not wrap ErrSetup", err)
	}
}

// TestAFindingShowsNoPartOfAProbesSecret: a page that shows the probe's
// secret without its constant prefix, or percent-encoded, still gets
// neither into a finding.
func TestAFindingShowsNoPartOfAProbesSecret(t *testing.T) {
	var s secretSet
	v := s.fresh()
	random := strings.TrimPrefix(v, secretPrefix)
	f := s.hide(report.Finding{Message: "echoed " + random + " and " + v,
		Evidence: []report.Evidence{{Label: "receipt", Text: `{"title": "Card ` + random + `"}`}}})
	for _, text := range []string{f.Message, f.Evidence[0].Text} {
		if strings.Contains(text, random) {
			t.Errorf("a finding shows the secret's random part: %q", text)
		}
	}
	if !strings.Contains(f.Message, leakedSecret) {
		t.Errorf("the finding does not say where the secret was: %q", f.Message)
	}
}

// TestAFindingShowsAProbesSecretInNoCaseAndNotReversed: the probe chose
// the value, so the page's spellings of it in another case of its letters,
// mixed or escaped, and backwards are hidden too (an outside audit's
// attack: the upper-cased value reached every output).
func TestAFindingShowsAProbesSecretInNoCaseAndNotReversed(t *testing.T) {
	var s secretSet
	v := s.fresh()
	random := strings.TrimPrefix(v, secretPrefix)
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
		f := s.hide(report.Finding{Message: "echoed <" + spelling + ">", Evidence: []report.Evidence{{Label: "l " + spelling, Text: spelling}}})
		for _, text := range []string{f.Message, f.Evidence[0].Label, f.Evidence[0].Text} {
			low := strings.ToLower(norm.NFKC.String(text))
			if strings.Contains(low, strings.ToLower(random)) || strings.Contains(low, strings.ToLower(rev(random))) {
				t.Errorf("%q: a finding shows the secret: %q", spelling, text)
			}
		}
		if !strings.Contains(f.Message, leakedSecret) {
			t.Errorf("%q: the finding does not say where the secret was: %q", spelling, f.Message)
		}
	}
	// Text that only looks like it is left alone.
	other := "GLASSSECRET-" + strings.Repeat("0", 16)
	if f := s.hide(report.Finding{Message: other}); f.Message != other {
		t.Errorf("a value the probe never passed was hidden: %q", f.Message)
	}
}

func TestFinishWalksMakesEachUnfinishedWalkOnceForItsTransport(t *testing.T) {
	s := &Session{}
	bridge := &Probe{s: s, Transport: glasstest.TransportBridge}
	webmcp := &Probe{s: s, Transport: glasstest.TransportWebMCP}
	var made []string
	bridge.Unfinished("echo", func() { made = append(made, "bridge echo (first)") })
	bridge.Unfinished("echo", func() { made = append(made, "bridge echo") })
	bridge.Unfinished("churn", func() { made = append(made, "bridge churn") })
	webmcp.Unfinished("echo", func() { made = append(made, "webmcp echo") })
	bridge.FinishWalks()
	if want := []string{"bridge churn", "bridge echo"}; !slices.Equal(made, want) {
		t.Fatalf("after the bridge's FinishWalks: made %q, want %q (one finish per key, the last registered, in key order)", made, want)
	}
	bridge.FinishWalks()
	if len(made) != 2 {
		t.Fatalf("a second FinishWalks made %q again", made[2:])
	}
	webmcp.FinishWalks()
	if want := []string{"bridge churn", "bridge echo", "webmcp echo"}; !slices.Equal(made, want) {
		t.Fatalf("after the webmcp FinishWalks: made %q, want %q", made, want)
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
