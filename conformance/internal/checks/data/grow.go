package data

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// The grow probe of data.bounded: a page whose function actions return
// lists of its records may hold too few records for a list to reach the
// bound on a fresh page (the Todo example's twelve tasks, where a receipt
// lists at most 20 entries), so a cut off by one, or with no marker,
// never shows. When no receipt of the run showed data cut at the bound,
// a write of the run that added a record is called again on one page
// until the page holds more records than a receipt's data may list, and
// then each function action whose data held a list is called with its
// widest arguments: a string member empty where its schema allows, a
// number at its declared maximum.

// maxGrowCalls bounds the calls that add records.
const maxGrowCalls = receipt.MaxDataEntries + 5

// lister is a function action of the run whose data held a list.
type lister struct {
	action receipt.ActionInfo
	args   map[string]any
	secret string
}

// reachedBound reports whether v holds a list or object cut at the bound:
// MaxDataEntries entries and a marker.
func reachedBound(v any) bool {
	switch x := v.(type) {
	case []any:
		if len(x) > receipt.MaxDataEntries {
			return true
		}
		for _, e := range x {
			if reachedBound(e) {
				return true
			}
		}
	case map[string]any:
		if len(x) > receipt.MaxDataEntries {
			return true
		}
		for _, e := range x {
			if reachedBound(e) {
				return true
			}
		}
	}
	return false
}

// holdsList reports whether v has an array anywhere in it.
func holdsList(v any) bool {
	switch x := v.(type) {
	case []any:
		return true
	case map[string]any:
		for _, e := range x {
			if holdsList(e) {
				return true
			}
		}
	}
	return false
}

// widest returns args with each string member empty where its schema
// allows it and each number at its declared maximum.
func widest(a receipt.ActionInfo, args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		out[k] = v
	}
	s, err := params.ParseSchema(a.Params)
	if err != nil || s == nil {
		return out
	}
	for k, ps := range s.Properties {
		if ps == nil || ps.IsSensitive() || len(ps.Enum) > 0 || len(ps.Const) > 0 {
			continue
		}
		switch {
		case ps.HasType("string") && (ps.MinLength == nil || *ps.MinLength == 0) && ps.Pattern == "" && ps.Format == "":
			if _, given := out[k]; given {
				out[k] = ""
			}
		case (ps.HasType("integer") || ps.HasType("number")) && ps.Maximum != nil && !math.IsInf(*ps.Maximum, 0):
			m := *ps.Maximum
			if ps.HasType("integer") {
				m = math.Floor(m)
			}
			out[k] = m
		}
	}
	return out
}

// growAndRead is the grow probe: nil, with what was judged, when no data
// broke the bounds (or nothing could be grown); else the failure.
func growAndRead(p *probe.Probe, listers []lister) (*probe.Outcome, []string, error) {
	if len(listers) == 0 {
		return nil, nil, nil
	}
	var grower *probe.Exercised
	err := p.Each(probe.IsWrite, func(e *probe.Exercised) bool {
		if c := e.Receipt.Result.Changed; e.Receipt.Result.OK && c != nil && c.Records != nil && len(c.Records.Added) > 0 {
			grower = e
			return false
		}
		return true
	})
	if err != nil || grower == nil {
		return nil, nil, err
	}
	secret := grower.Secret
	pg, err := p.OpenApproved(secret)
	if err != nil {
		return nil, nil, err
	}
	defer pg.Close()
	snap, err := pg.Snapshot()
	if err != nil {
		return nil, nil, err
	}
	held := max(snap.Records.Total, len(snap.Records.Items)+snap.Records.Omitted)
	calls := 0
	for ; held <= receipt.MaxDataEntries+1 && calls < maxGrowCalls; calls++ {
		r := pg.Do(grower.Action.ID, grower.Args)
		c := r.Result.Changed
		if !r.Result.OK || c == nil || c.Records == nil || len(c.Records.Added) == 0 {
			break
		}
		held += len(c.Records.Added) + c.Records.Omitted.Added
	}
	if held <= receipt.MaxDataEntries+1 {
		return nil, nil, nil // too few records for a list to reach the bound
	}
	var judged []string
	for _, l := range listers {
		if l.secret != "" && l.secret != secret {
			continue
		}
		args := widest(l.action, l.args)
		r := pg.Do(l.action.ID, args)
		if !r.Result.OK || len(r.Result.Data) == 0 {
			continue
		}
		var v any
		if json.Unmarshal(r.Result.Data, &v) != nil {
			continue
		}
		what := fmt.Sprintf("%s with %s, once %d calls of %s made the page hold %d records", l.action.ID, judge.JSONText(args), calls, grower.Action.ID, held)
		if pr := dataProblem(v, 0, ""); pr != "" {
			o := probe.Failf("%s: data %s", what, pr).With(report.ReceiptEvidence("receipt", r))
			return &o, nil, nil
		}
		if reachedBound(v) {
			judged = append(judged, what+": its list cut at the bound")
		}
	}
	return nil, judged, nil
}
