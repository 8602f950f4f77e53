package glasstest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/receipt"
)

func TestCheckDepth(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"flat", `{"a":1}`, true},
		{"at the bound", deep(MaxReceiptDepth), true},
		{"one past the bound", deep(MaxReceiptDepth + 1), false},
		{"brackets inside strings do not count", `{"s":"` + strings.Repeat("[{", 100) + `"}`, true},
		{"an escaped quote does not end the string", `{"s":"\"` + strings.Repeat("[", 100) + `"}`, true},
		{"ten thousand levels", `{"deep":` + deep(10000) + `}`, false},
	} {
		err := checkDepth([]byte(tc.in))
		if (err == nil) != tc.ok {
			t.Errorf("%s: checkDepth = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestDecodeReceiptNamesTheCause(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		protocol bool
	}{
		{`<html>`, "the receipt is not JSON", false},
		{`[1,2]`, `not a receipt: want a JSON object, got "[1,2]"`, false},
		{`{"status":"done"}`, `not a receipt: $.result is missing (keys: "status")`, false},
		{`{"protocol":"glass.page/v9","result":{}}`, `the receipt says protocol "glass.page/v9", want "glass.page/v1"`, true},
		{`{"protocol":7,"result":{}}`, `the receipt's protocol is not a string: "7"`, true},
		{`{"protocol":"glass.page/v1","result":{"ok":"yes"}}`, "invalid receipt: $.result.ok: want boolean, got string", false},
	} {
		_, err := decodeReceipt([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("decodeReceipt(%s) = %v, want an error containing %q", tc.in, err, tc.want)
			continue
		}
		if errors.Is(err, errReceiptProtocol) != tc.protocol {
			t.Errorf("decodeReceipt(%s): errors.Is(err, errReceiptProtocol) = %v, want %v", tc.in, !tc.protocol, tc.protocol)
		}
	}
}

func TestConfirmRequestsAreMaskedEverywhereTheValueAppears(t *testing.T) {
	req := ConfirmRequest{
		ExecutionID: "act_1", Action: "pay", Step: "pay-with-s3cret",
		Description: "Pay with card s3cret now",
		Args: map[string]any{
			"user": "ada", "pw": "s3cret", "note": "my pin is s3cret!",
			"s3cret-key": "value",
			"nested":     map[string]any{"again": "s3cret", "list": []any{"xs3cretx", "public", 3.0}},
		},
	}
	got, hid := maskConfirmRequest(req, map[string]string{"pw": "s3cret", "empty": ""})
	if !hid {
		t.Error("hid = false, want true")
	}
	want := `map[[sensitive]-key:value nested:map[again:[sensitive] list:[x[sensitive]x public 3]] note:my pin is [sensitive]! pw:[sensitive] user:ada]`
	if s := fmtValue(got.Args); s != want {
		t.Errorf("args = %s, want %s", s, want)
	}
	if got.Description != "Pay with card [sensitive] now" || got.Step != "pay-with-[sensitive]" {
		t.Errorf("description %q, step %q: the value is not masked", got.Description, got.Step)
	}
	// In another spelling: percent-encoded, as HTML references, as a number.
	spelt, hid := maskConfirmRequest(ConfirmRequest{
		Description: "pay with s%33cret or &#115;3cret",
		Args:        map[string]any{"url": "https://x.test/?p=s3cr%65t", "pin": 4711.0},
	}, map[string]string{"pw": "s3cret", "pin": "4711"})
	if !hid || spelt.Description != "pay with [sensitive] or [sensitive]" || fmtValue(spelt.Args) != "map[pin:[sensitive] url:https://x.test/?p=[sensitive]]" {
		t.Errorf("spellings: hid %v, %q, %s", hid, spelt.Description, fmtValue(spelt.Args))
	}
	if _, hid := maskConfirmRequest(ConfirmRequest{Action: "a"}, map[string]string{"pw": "x"}); hid {
		t.Error("a request without the value: hid = true")
	}
}

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
		if got := markerMessage(marker{Glass: kind, Message: "boom", Size: 5 << 20}); !strings.Contains(got, want) {
			t.Errorf("markerMessage(%s) = %q, want it to contain %q", kind, got, want)
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

func TestSpecDirNameIsFileSafeAndUnique(t *testing.T) {
	a := specDirName(`The "Todo" page: removes <t9>/../x`, "a_test.go:10", 1)
	b := specDirName(`The "Todo" page: removes <t9>/../x`, "a_test.go:10", 2)
	if a == b {
		t.Errorf("two attempts share %q", a)
	}
	if !strings.HasPrefix(a, "the-todo-page-removes-t9-x-") || strings.ContainsAny(a, `/\:<>"`) {
		t.Errorf("specDirName = %q", a)
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
