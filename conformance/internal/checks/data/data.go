package data

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// The echo probe of data.bounded: a function action whose data returns
// the arguments it received (its exercise call's data holds every
// argument passed) is called again with arguments too large for a
// receipt, of sizes the probe knows, so every marker can be judged
// against how much was really left out.
const (
	echoString = "glassProbeText" // a string of echoChars characters
	// echoWide is a string of echoChars characters past the Basic
	// Multilingual Plane after one that is not: each takes two UTF-16 code
	// units, and a cut after an odd number of units splits one.
	echoWide = "glassProbeWide"
	echoList = "glassProbeItems" // an array of echoItems numbers
	echoKeys = "glassProbeKeys"  // an object of echoKeyCount keys
	echoDeep = "glassProbeDeep"  // objects nested past the depth bound
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
	out[echoWide] = wideText()
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
		// top and path lead to v: the containers on the way, at depths 1
		// to 3, stay containers.
		top  string
		path []any
	}{
		{"an object of 1 key", "object", "key", "/" + echoDeep + "/a/b/c", 1, at(data[echoDeep], "a", "b", "c"), echoDeep, []any{"a", "b"}},
		{"an array of 3 items", "array", "item", "/" + echoDeepList + "/0/0/0", 3, at(data[echoDeepList], 0, 0, 0), echoDeepList, []any{0, 0}},
	} {
		where := "/" + c.top
		for depth := 1; depth <= len(c.path)+1; depth++ {
			if m, ok := at(data[c.top], c.path[:depth-1]...).(string); ok {
				return fmt.Sprintf("%s, an %s at depth %d, became %q: only an object or array at depth 4 or more becomes a marker (depth counts from data itself, at 0)", where, c.kind, depth, m)
			}
			if depth <= len(c.path) {
				where += "/" + fmt.Sprint(c.path[depth-1])
			}
		}
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

// wideText is echoWide's string: "g" and echoChars-1 emoji.
func wideText() string { return "g" + strings.Repeat("\U0001F600", echoChars-1) }

// cutProblem judges the string a runtime made of sent, a string of more
// than receipt.MaxDataChars characters (Unicode code points, CONTRACT.md
// §2.6): it keeps at most that many of sent's first characters, whole,
// and its marker says how many it left out.
func cutProblem(name, sent, got string) string {
	want, kept := []rune(sent), []rune(got)
	n := 0
	for n < len(want) && n < len(kept) && want[n] == kept[n] {
		n++
	}
	marker := string(kept[n:])
	switch {
	case n == len(want):
		return fmt.Sprintf("/%s, a string of %d characters, keeps all of them, over the bound of %d", name, len(want), receipt.MaxDataChars)
	case n == len(kept):
		return fmt.Sprintf("/%s, a string of %d characters, was cut to %d with nothing saying so", name, len(want), n)
	case n > receipt.MaxDataChars:
		return fmt.Sprintf("/%s, a string of %d characters, keeps %d of them, over the bound of %d", name, len(want), n, receipt.MaxDataChars)
	case kept[n] == utf8.RuneError:
		return fmt.Sprintf("/%s, a string of %d characters, is cut inside its character %d (%q follows the %d it keeps whole): a cut splits no character", name, len(want), n+1, marker, n)
	case !saysCount(marker, len(want)-n):
		return fmt.Sprintf("/%s, a string of %d characters, keeps its first %d with the marker %q, which does not say the %d characters left out (characters are code points, not UTF-16 units)", name, len(want), n, marker, len(want)-n)
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
	for _, c := range [][2]string{{echoString, strings.Repeat("g", echoChars)}, {echoWide, wideText()}} {
		if s, ok := data[c[0]].(string); ok {
			if pr := cutProblem(c[0], c[1], s); pr != "" {
				return pr
			}
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
			pg.Close()
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
					o := probe.Failf("%s: data is the marker %q, which does not say how much was left out", what, s).With(report.ReceiptEvidence("receipt", r))
					return &o, judged, nil
				}
				judged = append(judged, fmt.Sprintf("%s → the marker %q", c.Action.ID, s))
				continue
			}
			if pr := dataProblem(v, 0, ""); pr != "" {
				o := probe.Failf("%s: data %s", what, pr).With(report.ReceiptEvidence("receipt", r))
				return &o, judged, nil
			}
			if m, ok := v.(map[string]any); ok && !huge {
				if pr := echoMarkersProblem(m); pr != "" {
					o := probe.Failf("%s: data %s", what, pr).With(report.ReceiptEvidence("receipt", r))
					return &o, judged, nil
				}
			}
			judged = append(judged, c.Action.ID+map[bool]string{false: " (markers counted)", true: " (a result too large even once bounded)"}[huge])
		}
	}
	return nil, judged, nil
}

// markerSlack is room, past receipt.MaxDataChars, for the marker that says
// how many characters a cut string of result.data left out
// ("…[N more characters]", CONTRACT.md §2.6).
const markerSlack = 40

func dataProblem(v any, depth int, path string) string {
	// Depth counts from data itself, at 0; an object or array at depth 4
	// or more must have become a marker (CONTRACT.md §2.6), so data holds
	// at most four levels of containers.
	switch v.(type) {
	case []any, map[string]any:
		if depth >= receipt.MaxDataDepth {
			return fmt.Sprintf("%s is an %s at depth %d: data is nested deeper than %d levels (an object or array at depth %d or more becomes a marker)",
				params.PathOr(path), map[bool]string{true: "array", false: "object"}[isArray(v)], depth, receipt.MaxDataDepth, receipt.MaxDataDepth)
		}
	}
	switch x := v.(type) {
	case string:
		n := len([]rune(x))
		if n > receipt.MaxDataChars+markerSlack {
			return fmt.Sprintf("%s is a string of %d characters, over the bound of %d", params.PathOr(path), n, receipt.MaxDataChars)
		}
		if n > receipt.MaxDataChars && !strings.ContainsAny(string([]rune(x)[receipt.MaxDataChars:]), "0123456789") {
			return fmt.Sprintf("%s is cut after %d characters, but its marker does not say how much was left out", params.PathOr(path), receipt.MaxDataChars)
		}
	case []any:
		if len(x) > receipt.MaxDataEntries+1 {
			return fmt.Sprintf("%s is an array of %d entries, over the bound of %d", params.PathOr(path), len(x), receipt.MaxDataEntries)
		}
		if len(x) == receipt.MaxDataEntries+1 && !isMarker(x[receipt.MaxDataEntries]) {
			return fmt.Sprintf("%s holds %d entries, but its last is not a marker saying how many were left out", params.PathOr(path), len(x))
		}
		for i, e := range x {
			if pr := dataProblem(e, depth+1, fmt.Sprintf("%s/%d", path, i)); pr != "" {
				return pr
			}
		}
	case map[string]any:
		if len(x) > receipt.MaxDataEntries+1 {
			return fmt.Sprintf("%s is an object of %d keys, over the bound of %d", params.PathOr(path), len(x), receipt.MaxDataEntries)
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if pr := dataProblem(x[k], depth+1, path+"/"+k); pr != "" {
				return pr
			}
		}
	}
	return ""
}

func isArray(v any) bool {
	_, ok := v.([]any)
	return ok
}

// isMarker reports whether v is a marker that says how much was left out:
// a string with a number in it.
func isMarker(v any) bool {
	s, ok := v.(string)
	return ok && strings.ContainsAny(s, "0123456789")
}

// DataBounded judges the data of function actions, reads first.
func DataBounded(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	probed := 0
	reached := false
	var listers []lister
	judge := func(e *probe.Exercised) bool {
		if len(e.Receipt.Result.Data) == 0 {
			return true
		}
		probed++
		var v any
		if err := json.Unmarshal(e.Receipt.Result.Data, &v); err != nil {
			res := probe.Failf("%s: data is not JSON: %v", e.Action.ID, err)
			o = &res
			return false
		}
		reached = reached || reachedBound(v)
		if args, ok := e.Args.(map[string]any); ok && holdsList(v) {
			listers = append(listers, lister{action: e.Action, args: args, secret: e.Secret})
		}
		if pr := dataProblem(v, 0, ""); pr != "" {
			res := probe.Failf("%s: data %s", e.Action.ID, pr).With(report.ReceiptEvidence("receipt", e.Receipt))
			o = &res
			return false
		}
		return true
	}
	isFunc := func(a receipt.ActionInfo) bool { return a.Kind == receipt.KindFunction }
	err := p.Each(func(a receipt.ActionInfo) bool { return isFunc(a) && probe.IsRead(a) }, judge)
	if err == nil && o == nil {
		err = p.Each(func(a receipt.ActionInfo) bool { return isFunc(a) && probe.IsWrite(a) }, judge)
	}
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	eo, echoed, err := echoBounds(p)
	if err != nil {
		return probe.Broken(err)
	}
	if eo != nil {
		return *eo
	}
	if probed == 0 && len(echoed) == 0 {
		return probe.NotProbed("no call of the run returned data").With(p.PlanNotes()...)
	}
	if !reached && len(echoed) == 0 {
		og, grown, err := growAndRead(p, listers)
		if err != nil {
			return probe.Broken(err)
		}
		if og != nil {
			return *og
		}
		if len(grown) > 0 {
			return probe.Pass().With(report.TextEvidence("data of lists grown past the bound", grown...))
		}
	}
	if len(echoed) > 0 {
		return probe.Pass().With(report.TextEvidence("data of known size, from actions that return their arguments", echoed...))
	}
	return probe.Pass()
}
