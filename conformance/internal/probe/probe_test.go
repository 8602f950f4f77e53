package probe

import (
	"errors"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/report"
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
