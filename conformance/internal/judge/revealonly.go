package judge

import (
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/receipt"
)

// RevealOnly reports whether s differs from b by records added and
// nothing else: the same page identity, state views, feedback and
// records (fields included), the same actions apart from row actions of
// the added records, and at least one record more.
func RevealOnly(b, s *receipt.Snapshot) bool {
	if b.Page != s.Page || !params.SameJSON(b.State, s.State) || !params.SameJSON(b.Feedback, s.Feedback) {
		return false
	}
	if b.Records.Omitted > 0 || s.Records.Omitted > 0 || b.Actions.Omitted > 0 || s.Actions.Omitted > 0 {
		return false
	}
	inS, inB := RecordMap(s), RecordMap(b)
	for _, r := range b.Records.Items {
		q, ok := inS[r.ID]
		if !ok || !params.SameJSON(r.Fields, q.Fields) {
			return false
		}
	}
	added := map[string]bool{}
	for _, r := range s.Records.Items {
		if _, ok := inB[r.ID]; !ok {
			added[r.ID] = true
		}
	}
	if len(added) == 0 {
		return false
	}
	if len(Minus(b.ActionIDs(), s.ActionIDs())) > 0 {
		return false
	}
	for _, a := range s.Actions.Items {
		if _, ok := b.Action(a.ID); ok {
			continue
		}
		if a.Record == "" || !added[a.Record] {
			return false
		}
	}
	return true
}
