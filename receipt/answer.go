package receipt

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrOtherProtocol is wrapped by DecodeAnswer's error for a receipt that
// names a protocol other than Protocol.
var ErrOtherProtocol = errors.New("receipt of another protocol")

// DecodeAnswer turns a runtime's answer, JSON text, into a receipt,
// refusing, with a message that names the cause: nesting beyond
// MaxReceiptDepth, JSON that is not an object with protocol and result, a
// receipt of another protocol (ErrOtherProtocol), and anything Decode
// rejects, with the JSON path of each problem.
//
// A receipt is validated once, by the strict decoder: it refuses every
// receipt the published JSON Schema refuses (receipt's FuzzDecode fails on
// one it accepts, and schema's TestEachMistakeFailsWithItsPath holds the
// two to the same paths on a corpus of every kind of mistake), so running
// the schema first as well would only decide the same thing twice.
func DecodeAnswer(b []byte) (*Receipt, error) {
	if err := CheckDepth(b); err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		if json.Valid(b) {
			return nil, fmt.Errorf("not a receipt: want a JSON object, got %s", answerExcerpt(b))
		}
		return nil, fmt.Errorf("the receipt is not JSON (%v): %s", err, answerExcerpt(b))
	}
	if _, ok := top["result"]; !ok {
		return nil, fmt.Errorf("not a receipt: $.result is missing (keys: %s)", topKeys(top))
	}
	if raw, ok := top["protocol"]; ok {
		var proto string
		if err := json.Unmarshal(raw, &proto); err != nil {
			return nil, fmt.Errorf("%w: the receipt's protocol is not a string: %s", ErrOtherProtocol, answerExcerpt(raw))
		}
		if proto != Protocol {
			return nil, fmt.Errorf("%w: the receipt says protocol %q, want %q", ErrOtherProtocol, proto, Protocol)
		}
	}
	r, err := Decode(b)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// CheckDepth refuses JSON nested deeper than MaxReceiptDepth, without
// decoding it. It is a byte scan that skips strings.
func CheckDepth(b []byte) error {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > MaxReceiptDepth {
				return fmt.Errorf("the answer nests deeper than %d levels (MaxReceiptDepth)", MaxReceiptDepth)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

func answerExcerpt(b []byte) string {
	const max = 60
	if len(b) > max {
		return fmt.Sprintf("%q…", b[:max])
	}
	return fmt.Sprintf("%q", b)
}

func topKeys(m map[string]json.RawMessage) string {
	if len(m) == 0 {
		return "none"
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, fmt.Sprintf("%q", k))
	}
	sort.Strings(ks)
	if len(ks) > 5 {
		ks = append(ks[:5], "…")
	}
	return strings.Join(ks, ", ")
}
