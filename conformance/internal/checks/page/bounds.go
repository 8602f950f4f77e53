package page

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// AtTheBounds (args.invalid-params, beside calls.InvalidParams) calls,
// approved on a fresh page, the first available action whose params bound
// a number or a string's length, with every such parameter at its
// inclusive bound — a number at its maximum, a string of its maxLength —
// and the other arguments valid: the schema accepts them, so the call must
// not fail INVALID_PARAMS (a runtime that reads maximum as exclusive, or
// counts a string's length one too many, refuses it). Parameters with an
// enum, a pattern or a format are left as the probe builds them.
func AtTheBounds(p *probe.Probe) probe.Outcome {
	var judged []string
	covered := map[string]bool{} // "number", "string": a call has each at its bound
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || p.Manifest().Skips(a.ID) {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil || probe.UsesSecret(args) {
			continue
		}
		var set []string
		fresh := false
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			prop := s.Properties[k]
			if prop == nil || len(prop.Enum) > 0 || prop.Pattern != "" || prop.Format != "" || len(prop.Types()) != 1 {
				continue
			}
			kind := ""
			switch {
			case prop.Maximum != nil && (prop.HasType("number") || prop.HasType("integer") && *prop.Maximum == float64(int64(*prop.Maximum))):
				args[k], kind = *prop.Maximum, "number"
			case prop.MaxLength != nil && prop.HasType("string") && *prop.MaxLength > 0 && *prop.MaxLength <= 1000: // not a contract bound: a string the probe builds
				args[k], kind = strings.Repeat("g", *prop.MaxLength), "string"
			default:
				continue
			}
			fresh = fresh || !covered[kind]
			covered[kind] = true
			set = append(set, fmt.Sprintf("%s = %s", k, judge.JSONText(args[k])))
		}
		if !fresh {
			continue
		}
		pg, err := p.Open("", glasstest.Approve())
		if err != nil {
			return probe.Broken(err)
		}
		r := pg.Do(a.ID, args)
		pg.Close()
		what := fmt.Sprintf("approved call of %s with %s, each at the inclusive bound its params declare", a.ID, strings.Join(set, ", "))
		if r.Code() == receipt.CodeInvalidParams {
			return probe.Failf("%s: it failed INVALID_PARAMS (%s), but the schema accepts these arguments", what, r.Result.Error.Path).With(probe.ReceiptEvidence("receipt", r))
		}
		if judged = append(judged, what+" → "+probe.OutcomeCode(r)); covered["number"] && covered["string"] {
			break
		}
	}
	if len(judged) == 0 {
		return probe.NotProbed("no available action bounds a number (maximum) or a string's length (maxLength) of a parameter the probe can fill")
	}
	return probe.Pass().With(probe.TextEvidence("arguments at their bounds", judged...))
}
