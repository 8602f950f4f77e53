package page

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// passedOverDefaults calls a, whose handler returns the arguments it
// received, once more with every defaulted member given a value other
// than its default (where the probe can build one): the handler must
// receive the validated arguments, so the value passed, not the default —
// a default fills a member the caller left out and nothing else.
func passedOverDefaults(p *probe.Probe, a receipt.ActionInfo, s *params.Schema, base map[string]any, defaults map[string]any, opts []glasstest.PageOption) *probe.Outcome {
	args := maps.Clone(base)
	passed := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(defaults)) {
		prop := s.Properties[k]
		if prop == nil {
			continue
		}
		if v, ok := prop.OtherValue(defaults[k]); ok {
			args[k], passed[k] = v, v
		}
	}
	if len(passed) == 0 {
		return nil
	}
	pg, err := p.Open("", opts...)
	if err != nil {
		o := probe.Broken(err)
		return &o
	}
	r := pg.Do(a.ID, args)
	if !r.Result.OK {
		return nil // the call the rule needs succeeded without these values
	}
	var data map[string]any
	if json.Unmarshal(r.Result.Data, &data) != nil {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(passed)) {
		if got, ok := data[k]; !ok || !reflect.DeepEqual(judge.Plain(passed[k]), got) {
			o := probe.Failf("%s: called with %q set to %s, whose params declare the default %s, and the handler received %s: a default fills only a member the caller left out", a.ID, k, judge.JSONText(passed[k]), judge.JSONText(defaults[k]), judge.JSONText(got)).
				With(report.ReceiptEvidence("receipt", r))
			return &o
		}
	}
	return nil
}
