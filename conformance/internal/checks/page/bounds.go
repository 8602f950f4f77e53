package page

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/args"
	"github.com/glassworks/glass/receipt"
)

// AtTheBounds (args.invalid-params, beside calls.InvalidParams) calls,
// approved on a fresh page, available actions whose params bound a number
// or a string's length, with every such parameter at one of its inclusive
// bounds — a number at its maximum, then at its minimum; a string of its
// maxLength, then of its minLength, or empty where it declares no
// minLength — and the other arguments valid: the schema accepts them, so
// the call must not fail INVALID_PARAMS (a runtime that reads a bound as
// exclusive, or counts a string's length one off, refuses it). The string
// at its maxLength is made of characters outside the Basic Multilingual
// Plane (params.WideChar), so that a runtime that counts UTF-16 code units
// or bytes instead of code points refuses it too; the one at its
// minLength is white space, which a runtime that trims before it counts
// refuses; the empty one is refused by a runtime that takes an empty
// required member for a missing one. Parameters with an enum, a pattern
// or a format are left as the probe builds them. Each of the five bounds
// is tried on the first action that declares it.
func AtTheBounds(p *probe.Probe) probe.Outcome {
	var judged []string
	covered := map[string]bool{} // "maximum", "minimum", "maxLength", "minLength": a call had one at it
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || p.Manifest().Skips(a.ID) {
			continue
		}
		for _, upper := range []bool{true, false} {
			vals, err := p.ValidArgs(a, "")
			if err != nil || probe.UsesSecret(vals) {
				break
			}
			var set []string
			fresh := false
			for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
				prop := s.Properties[k]
				if prop == nil || len(prop.Enum) > 0 || prop.Pattern != "" || prop.Format != "" || len(prop.Types()) != 1 {
					continue
				}
				v, bound, ok := atBound(prop, upper)
				if !ok {
					continue
				}
				vals[k] = v
				fresh = fresh || !covered[bound]
				covered[bound] = true
				set = append(set, fmt.Sprintf("%s = %s (its %s)", k, shortValue(v), bound))
			}
			if !fresh {
				continue
			}
			// Only arguments the schema accepts, as a JSON Schema
			// validator reads it: a const, a composition or a not may
			// refuse the empty string or white space, and a runtime must
			// then refuse them too.
			if sch, err := args.Parse(a.Params); err != nil || sch.Check(vals) != nil {
				continue
			}
			pg, err := p.Open("", glasstest.Approve())
			if err != nil {
				return probe.Broken(err)
			}
			r := pg.Do(a.ID, vals)
			pg.Close()
			what := fmt.Sprintf("approved call of %s with %s, each at an inclusive bound its params declare", a.ID, strings.Join(set, ", "))
			if r.Code() == receipt.CodeInvalidParams {
				return probe.Failf("%s: it failed INVALID_PARAMS (%s), but the schema accepts these arguments", what, r.Result.Error.Path).With(report.ReceiptEvidence("receipt", r))
			}
			judged = append(judged, what+" → "+report.OutcomeCode(r))
		}
		if len(covered) == 5 {
			break
		}
	}
	if len(judged) == 0 {
		return probe.NotProbed("no available action bounds a number (minimum, maximum) or declares a string parameter (its length bounds, minLength 0 by default) that the probe can fill")
	}
	return probe.Pass().With(report.TextEvidence("arguments at their bounds", judged...))
}

// atBound is prop's value at its upper (maximum, maxLength) or lower
// (minimum, minLength) inclusive bound, and the bound's name; false when
// prop declares none the probe can build.
func atBound(prop *params.Schema, upper bool) (any, string, bool) {
	num, length, numName, lenName := prop.Minimum, prop.MinLength, "minimum", "minLength"
	if upper {
		num, length, numName, lenName = prop.Maximum, prop.MaxLength, "maximum", "maxLength"
	}
	switch {
	case num != nil && (prop.HasType("number") || prop.HasType("integer") && *num == float64(int64(*num))):
		return *num, numName, true
	case length != nil && prop.HasType("string") && *length >= 0 && *length <= 1000: // not a contract bound: a string the probe builds
		if upper {
			// Characters outside the Basic Multilingual Plane: a runtime
			// that counts UTF-16 code units or bytes, not code points,
			// finds the string too long.
			return strings.Repeat(params.WideChar, *length), lenName, true
		}
		// White space: the schema counts it like any character, and a
		// runtime that trims before it counts refuses it.
		return strings.Repeat(" ", *length), lenName, true
	case !upper && length == nil && prop.HasType("string"):
		// No minLength: the empty string is at the bound, 0, and the
		// schema accepts it, required or not; a runtime that takes an
		// empty required member for a missing one refuses it.
		return "", "default minLength, 0", true
	}
	return nil, "", false
}

// shortValue is v as JSON, a long string shown by its length and its
// first characters.
func shortValue(v any) string {
	if s, ok := v.(string); ok && utf8.RuneCountInString(s) > 12 {
		return fmt.Sprintf("%s… (%d characters)", judge.JSONText(string([]rune(s)[:3])), utf8.RuneCountInString(s))
	}
	return judge.JSONText(v)
}
