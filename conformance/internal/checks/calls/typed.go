package calls

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/glasstest"
)

// typedMarker starts the argument text of failure.bounded's own call with
// arguments that are not JSON: a parser's message that quotes the text it
// could not parse (V8's does: Unexpected token 'g', "glassprobe"... is not
// valid JSON) carries it.
const typedMarker = "glassprobe"

// typedInRefusals returns the values the caller typed in the refusals
// whose failure text a runtime might be tempted to quote: the value of the
// wrong type and the number past its bound (their JSON text, when long
// enough not to be a word a message uses anyway), judged in that call's own receipt (byCall, keyed by its
// executionId: a number such as 12345 may well appear in another call's
// text, an unknown handle's for one, without having been typed there),
// and the text of a call with arguments that are not JSON, which
// failure.bounded makes itself over the bridge with typedMarker at its
// start (a WebMCP tool's input is always a JSON object).
func typedInRefusals(p *probe.Probe) (typed []string, byCall map[string][]string) {
	byCall = map[string][]string{}
	for _, kind := range []string{refusal.RefWrongType, refusal.RefBeyondNumber} {
		if res, _, ok := p.Refuse(refusal.RefusalByKind(kind)); ok && res.Receipt != nil {
			if m, isMap := res.Call.Args.(map[string]any); isMap {
				if b, err := json.Marshal(m[res.Call.Field]); err == nil {
					text := strings.Trim(string(b), `"`)
					if id := res.Receipt.ExecutionID; len(text) >= 5 && id != "" {
						byCall[id] = append(byCall[id], text)
					}
				}
			}
		}
	}
	// A member whose name makes its pointer longer than error.path's
	// bound: the audit below judges the receipt's path.
	if c := refusal.PlanLongUndeclared(p); c != nil {
		_, _ = p.Memo(fmt.Sprintf("%s|failure.bounded|long-member", p.Transport), func() (any, error) {
			pg, err := p.Open("", glasstest.Deny())
			if err != nil {
				return nil, err
			}
			defer pg.Close()
			return pg.Do(c.ID, c.Args), nil
		})
	}
	if p.Transport != glasstest.TransportBridge {
		return typed, byCall
	}
	c, _ := refusal.PlanMalformed(p)
	if c == nil {
		return typed, byCall
	}
	_, _ = p.Memo(fmt.Sprintf("%s|failure.bounded|malformed", p.Transport), func() (any, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		return pg.Do(c.ID, json.RawMessage(typedMarker+": typed text that is not JSON")), nil
	})
	return append(typed, typedMarker), byCall
}
