package probe

import (
	"errors"
	"slices"
	"strings"
	"testing"

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
