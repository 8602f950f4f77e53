package glasstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// MaxReceiptDepth is the deepest nesting of objects and arrays the harness
// accepts in a receipt or snapshot. The contract's own bounds keep a
// receipt a handful of levels deep; a receipt nested thousands of levels
// is refused before it is decoded.
const MaxReceiptDepth = 64

// validateSnapshot checks a snapshot's JSON against the published JSON
// Schema of the contract (package schema).
var validateSnapshot = schema.ValidateSnapshot

var errReceiptProtocol = errors.New("receipt of another protocol")

// decodeReceipt turns the runtime's JSON text into a receipt, refusing,
// with a message that names the cause: nesting beyond MaxReceiptDepth, JSON
// that is not an object with protocol and result, a receipt of another
// protocol, and anything receipt.Decode rejects, with the JSON path of each
// problem.
//
// A receipt is validated once, by the strict decoder: it refuses every
// receipt the published JSON Schema refuses (receipt's FuzzDecode fails on
// one it accepts, and schema's TestEachMistakeFailsWithItsPath holds the
// two to the same paths on a corpus of every kind of mistake), so running
// the schema first as well would only decide the same thing twice.
func decodeReceipt(b []byte) (*receipt.Receipt, error) {
	if err := checkDepth(b); err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		if json.Valid(b) {
			return nil, fmt.Errorf("not a receipt: want a JSON object, got %s", excerpt(b))
		}
		return nil, fmt.Errorf("the receipt is not JSON (%v): %s", err, excerpt(b))
	}
	if _, ok := top["result"]; !ok {
		return nil, fmt.Errorf("not a receipt: $.result is missing (keys: %s)", keys(top))
	}
	if raw, ok := top["protocol"]; ok {
		var proto string
		if err := json.Unmarshal(raw, &proto); err != nil {
			return nil, fmt.Errorf("%w: the receipt's protocol is not a string: %s", errReceiptProtocol, excerpt(raw))
		}
		if proto != receipt.Protocol {
			return nil, fmt.Errorf("%w: the receipt says protocol %q, want %q", errReceiptProtocol, proto, receipt.Protocol)
		}
	}
	r, err := receipt.Decode(b)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// checkDepth refuses JSON nested deeper than MaxReceiptDepth, without
// decoding it. It is a byte scan that skips strings.
func checkDepth(b []byte) error {
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

func excerpt(b []byte) string {
	const max = 60
	if len(b) > max {
		return fmt.Sprintf("%q…", b[:max])
	}
	return fmt.Sprintf("%q", b)
}

func keys(m map[string]json.RawMessage) string {
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
