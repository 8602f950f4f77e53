package receipt

import (
	"errors"
	"strings"
	"testing"
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
		err := CheckDepth([]byte(tc.in))
		if (err == nil) != tc.ok {
			t.Errorf("%s: checkDepth = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestDecodeAnswerNamesTheCause(t *testing.T) {
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
		_, err := DecodeAnswer([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeAnswer(%s) = %v, want an error containing %q", tc.in, err, tc.want)
			continue
		}
		if errors.Is(err, ErrOtherProtocol) != tc.protocol {
			t.Errorf("DecodeAnswer(%s): errors.Is(err, ErrOtherProtocol) = %v, want %v", tc.in, !tc.protocol, tc.protocol)
		}
	}
}
