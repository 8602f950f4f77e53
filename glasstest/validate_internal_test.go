package glasstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

func TestMarkerMessagesNameTheCause(t *testing.T) {
	for kind, want := range map[string]string{
		"missing":        "the page has no Glass runtime",
		"threw":          "the runtime threw synchronously: boom",
		"rejected":       "the runtime's promise rejected: boom",
		"replaced":       "was replaced after the page loaded",
		"unserializable": "cannot be serialised to JSON: boom",
		"toolarge":       "over the 4194304-byte bound",
		"empty":          "answered with nothing",
	} {
		if got := (pagejs.Marker{Glass: kind, Message: "boom", Size: 5 << 20}).Text(); !strings.Contains(got, want) {
			t.Errorf("Marker{%s}.Text() = %q, want it to contain %q", kind, got, want)
		}
	}
}

func TestHarnessReceiptsCarryTheirCodesPhase(t *testing.T) {
	for _, code := range []receipt.Code{receipt.CodeCallTimeout, receipt.CodePageCrashed, receipt.CodeExecutionFailed, receipt.CodeReceiptInvalid} {
		r := harnessReceipt("a", "act_1", code, "m")
		if r.Phase != code.Phase() || r.Result.Error.Started != code.Started() || r.Result.OK {
			t.Errorf("harnessReceipt(%s) = phase %s started %s ok %v", code, r.Phase, r.Result.Error.Started, r.Result.OK)
		}
	}
}

func fmtValue(v any) string { return fmt.Sprint(v) }

// TestPageAndCallOptionsAreKeptApart: an option that makes sense only for
// a page is no CallOption, and one only for a call no PageOption, so
// giving one to the wrong function does not compile; the options of both
// are both.
func TestPageAndCallOptionsAreKeptApart(t *testing.T) {
	for name, o := range map[string]any{"Trace": Trace(true), "ArtifactsDir": ArtifactsDir("x"), "KeepArtifacts": KeepArtifacts(), "OpenTimeout": OpenTimeout(time.Second)} {
		if _, ok := o.(CallOption); ok {
			t.Errorf("%s is a CallOption: Do would take it and ignore it", name)
		}
		if _, ok := o.(PageOption); !ok {
			t.Errorf("%s is no PageOption", name)
		}
	}
	for name, o := range map[string]any{"ExpectedRevision": ExpectedRevision(1), "WithoutExecutionID": WithoutExecutionID()} {
		if _, ok := o.(PageOption); ok {
			t.Errorf("%s is a PageOption", name)
		}
		if _, ok := o.(CallOption); !ok {
			t.Errorf("%s is no CallOption", name)
		}
	}
	for name, o := range map[string]any{"Approve": Approve(), "Timeout": Timeout(time.Second), "Sensitive": Sensitive("a", "b"), "Via": Via(TransportWebMCP)} {
		_, page := o.(PageOption)
		_, call := o.(CallOption)
		if !page || !call {
			t.Errorf("%s: page option %t, call option %t; want both", name, page, call)
		}
	}
}
