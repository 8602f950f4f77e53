package page

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

// notPlaceholder is a member the probe adds to the arguments of an action
// that returns them: objects like a placeholder that are not one.
const notPlaceholder = "glassNotAPlaceholder"

// NotPlaceholders (args.sensitive-restored, beside calls.SensitiveRestored)
// calls a function action that returns its arguments as
// data with objects that look like placeholders but are not — a
// "$sensitive" member beside another, and one whose name is not a string
// — the host passing a value for the name: a placeholder is an object with
// exactly one member, "$sensitive", whose value is a string (CONTRACT.md
// §2.3), so the runtime leaves both as they are and they come back in the
// data unchanged.
func NotPlaceholders(p *probe.Probe) probe.Outcome {
	cands, err := p.ArgsEchoes()
	if err != nil {
		return probe.Broken(err)
	}
	if len(cands) == 0 {
		return probe.NotProbed("objects like a placeholder that are not one: no function action returns its arguments as data and takes members its params do not declare")
	}
	c := cands[0]
	looks := []any{
		map[string]any{"$sensitive": params.SensitiveRef, "keep": 1.0},
		map[string]any{"$sensitive": 7.0},
	}
	args := maps.Clone(c.Args)
	args[notPlaceholder] = looks
	pg, err := p.Open("", glasstest.Approve(), glasstest.Sensitive(params.SensitiveRef, p.FreshSecret()))
	if err != nil {
		return probe.Broken(err)
	}
	r := pg.Do(c.Action.ID, args)
	what := fmt.Sprintf("call of %s with %s (each object like a placeholder, not one), the host passing a value for %q", c.Action.ID, judge.JSONText(looks), params.SensitiveRef)
	if !r.Result.OK {
		return probe.Failf("%s: want success, %s: only an object with exactly one member, \"$sensitive\", whose value is a string, is a placeholder", what, report.Got(r)).With(report.ReceiptEvidence("receipt", r))
	}
	var data map[string]any
	if json.Unmarshal(r.Result.Data, &data) != nil || !reflect.DeepEqual(data[notPlaceholder], looks) {
		return probe.Failf("%s: the data returns %s for %q, want the objects unchanged: only an object with exactly one member, \"$sensitive\", whose value is a string, is a placeholder", what, judge.JSONText(data[notPlaceholder]), notPlaceholder).With(report.ReceiptEvidence("receipt", r))
	}
	return probe.Pass().With(report.TextEvidence("objects like a placeholder that are not one", what+" → returned unchanged"))
}
