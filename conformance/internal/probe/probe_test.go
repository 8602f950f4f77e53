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
