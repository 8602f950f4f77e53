package calls

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// The echo probe of data.bounded: a function action whose data returns
// the arguments it received (its exercise call's data holds every
// argument passed) is called again with arguments too large for a
// receipt, of sizes the probe knows, so every marker can be judged
// against how much was really left out.
const (
	echoString = "glassProbeText"  // a string of echoChars characters
	echoList   = "glassProbeItems" // an array of echoItems numbers
	echoKeys   = "glassProbeKeys"  // an object of echoKeyCount keys
	echoDeep   = "glassProbeDeep"  // objects nested past the depth bound
	// echoDeepList is arrays nested past the depth bound.
	echoDeepList = "glassProbeDeepList"

	echoChars    = receipt.MaxDataChars + 100
	echoItems    = receipt.MaxDataEntries + 10
	echoKeyCount = receipt.MaxDataEntries + 25
)

// echoArgs is args with the probe's large members added.
func echoArgs(args map[string]any) map[string]any {
	out := maps.Clone(args)
	out[echoString] = strings.Repeat("g", echoChars)
	items := make([]any, echoItems)
	for i := range items {
		items[i] = i + 1
	}
	out[echoList] = items
	keys := map[string]any{}
	for i := 1; i <= echoKeyCount; i++ {
		keys[fmt.Sprintf("k%02d", i)] = i
	}
	out[echoKeys] = keys
	// data (0) → glassProbeDeep (1) → a (2) → b (3) → c (4): an object at
	// depth 4 must have become a marker.
	out[echoDeep] = map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": 1}}}}
	// data (0) → glassProbeDeepList (1) → its entry (2) → its entry (3) →
	// [1, 2, 3] (4): an array of three items at depth 4.
	out[echoDeepList] = []any{[]any{[]any{[]any{1, 2, 3}}}}
	return out
}

// deepMarkersProblem judges the markers that stand for the containers of
// echoArgs nested past the depth bound: each says what it stood for and
// its size (CONTRACT.md §2.6: "[object of N keys omitted]", "[array of N
// items omitted]").
func deepMarkersProblem(data map[string]any) string {
	at := func(v any, path ...any) any { // a member, or an array's first entry
		for _, k := range path {
			if m, ok := v.(map[string]any); ok {
				v = m[fmt.Sprint(k)]
			} else if l, ok := v.([]any); ok && len(l) > 0 {
				v = l[0]
			} else {
				return nil
			}
		}
		return v
	}
	for _, c := range []struct {
		what, kind, unit, where string
		n                       int
		v                       any
	}{
		{"an object of 1 key", "object", "key", "/" + echoDeep + "/a/b/c", 1, at(data[echoDeep], "a", "b", "c")},
		{"an array of 3 items", "array", "item", "/" + echoDeepList + "/0/0/0", 3, at(data[echoDeepList], 0, 0, 0)},
	} {
		m, ok := c.v.(string)
		if !ok {
			continue // nesting past the bound is dataProblem's
		}
		if !strings.Contains(m, c.kind) || !strings.Contains(m, c.unit) || !saysCount(m, c.n) {
			return fmt.Sprintf("%s, %s at depth 4, became the marker %q, which does not say it was %s (\"[%s of %d %ss omitted]\")", c.where, c.what, m, c.what, c.kind, c.n, c.unit)
		}
	}
	return ""
}

// hugeArgs is args with members whose bounded form is still larger than a
// receipt should carry: a runtime may replace the whole result by a
// marker, which must then say how much was left out.
func hugeArgs(args map[string]any) map[string]any {
	out := maps.Clone(args)
	items := make([]any, receipt.MaxDataEntries)
	for i := range items {
		items[i] = strings.Repeat(string(rune('a'+i%26)), receipt.MaxDataChars)
	}
	out["glassProbeBulk"] = items
	return out
}

// saysCount reports whether the marker text says n.
func saysCount(marker string, n int) bool {
	return regexp.MustCompile(`(^|\D)` + fmt.Sprint(n) + `(\D|$)`).MatchString(marker)
}

// echoMarkersProblem judges the data of the call made with echoArgs.
func echoMarkersProblem(data map[string]any) string {
	if pr := deepMarkersProblem(data); pr != "" {
		return pr
	}
	if s, ok := data[echoString].(string); ok {
		r := []rune(s)
		switch {
		case len(r) <= receipt.MaxDataChars:
			return fmt.Sprintf("/%s was cut to %d characters with nothing saying so", echoString, len(r))
		case !saysCount(string(r[receipt.MaxDataChars:]), echoChars-receipt.MaxDataChars):
			return fmt.Sprintf("/%s, a string of %d characters, is cut after %d with the marker %q, which does not say the %d characters left out", echoString, echoChars, receipt.MaxDataChars, string(r[receipt.MaxDataChars:]), echoChars-receipt.MaxDataChars)
		}
	}
	if l, ok := data[echoList].([]any); ok {
		if len(l) != receipt.MaxDataEntries+1 {
			return fmt.Sprintf("/%s, an array of %d entries, holds %d, want %d and a marker", echoList, echoItems, len(l), receipt.MaxDataEntries)
		}
		if m, _ := l[receipt.MaxDataEntries].(string); !saysCount(m, echoItems-receipt.MaxDataEntries) {
			return fmt.Sprintf("/%s, an array of %d entries, ends with the marker %s, which does not say the %d entries left out", echoList, echoItems, judge.JSONText(l[receipt.MaxDataEntries]), echoItems-receipt.MaxDataEntries)
		}
	}
	if o, ok := data[echoKeys].(map[string]any); ok {
		if len(o) != receipt.MaxDataEntries+1 {
			return fmt.Sprintf("/%s, an object of %d keys, holds %d, want %d and a marker", echoKeys, echoKeyCount, len(o), receipt.MaxDataEntries)
		}
		for _, k := range slices.Sorted(maps.Keys(o)) {
			if v, isNum := o[k].(float64); isNum && k == fmt.Sprintf("k%02d", int(v)) {
				continue
			}
			if m, _ := o[k].(string); !saysCount(m, echoKeyCount-receipt.MaxDataEntries) {
				return fmt.Sprintf("/%s, an object of %d keys, carries the marker %q: %s, which does not say the %d keys left out", echoKeys, echoKeyCount, k, judge.JSONText(o[k]), echoKeyCount-receipt.MaxDataEntries)
			}
		}
	}
	return ""
}

// echoBounds makes the echo probe for every function action whose
// exercise call echoed its arguments and whose params take members they
// do not declare. It returns a violation, the actions judged, and notes.
func echoBounds(p *probe.Probe) (*probe.Outcome, []string, error) {
	cands, err := p.ArgsEchoes()
	if err != nil {
		return nil, nil, err
	}
	var judged []string
	for _, c := range cands {
		for _, huge := range []bool{false, true} {
			args := echoArgs(c.Args)
			if huge {
				args = hugeArgs(c.Args)
			}
			pg, err := p.Open("", glasstest.Approve())
			if err != nil {
				return nil, nil, err
			}
			r := pg.Do(c.Action.ID, args)
			if !r.Result.OK || len(r.Result.Data) == 0 {
				continue
			}
			var v any
			if json.Unmarshal(r.Result.Data, &v) != nil {
				continue
			}
			what := fmt.Sprintf("%s, called with arguments it returns as data, larger than a receipt carries", c.Action.ID)
			if s, ok := v.(string); ok {
				// The whole result was replaced by one marker.
				if !regexp.MustCompile(`\d`).MatchString(s) {
					o := probe.Failf("%s: data is the marker %q, which does not say how much was left out", what, s).With(probe.ReceiptEvidence("receipt", r))
					return &o, judged, nil
				}
				judged = append(judged, fmt.Sprintf("%s → the marker %q", c.Action.ID, s))
				continue
			}
			if pr := dataProblem(v, 0, ""); pr != "" {
				o := probe.Failf("%s: data %s", what, pr).With(probe.ReceiptEvidence("receipt", r))
				return &o, judged, nil
			}
			if m, ok := v.(map[string]any); ok && !huge {
				if pr := echoMarkersProblem(m); pr != "" {
					o := probe.Failf("%s: data %s", what, pr).With(probe.ReceiptEvidence("receipt", r))
					return &o, judged, nil
				}
			}
			judged = append(judged, c.Action.ID+map[bool]string{false: " (markers counted)", true: " (a result too large even once bounded)"}[huge])
		}
	}
	return nil, judged, nil
}
