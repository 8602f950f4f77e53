package probe

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// RecordIDs returns the ids of a snapshot's records and whether the list
// is complete.
func RecordIDs(s *receipt.Snapshot) ([]string, bool) {
	ids := make([]string, len(s.Records.Items))
	for i, r := range s.Records.Items {
		ids[i] = r.ID
	}
	return ids, s.Records.Omitted == 0
}

// Claims compares a list a receipt reports (plus its omission count) with
// what the harness's own snapshots show.
func Claims(what string, listed []string, omitted int, actual []string) string {
	for _, id := range listed {
		if !slices.Contains(actual, id) {
			return fmt.Sprintf("%s lists %q, but the snapshots do not show that change", what, id)
		}
	}
	if omitted == 0 {
		for _, id := range actual {
			if !slices.Contains(listed, id) {
				return fmt.Sprintf("%s leaves out %q with no omission count, but the snapshots show that change", what, id)
			}
		}
	}
	if len(listed)+omitted != len(actual) {
		return fmt.Sprintf("%s reports %d (%d listed + %d omitted), the snapshots show %d", what, len(listed)+omitted, len(listed), omitted, len(actual))
	}
	return ""
}

// RecordsProblem compares one call's changed.records with the before and
// after snapshots the harness took itself.
func RecordsProblem(e *Exercised) string {
	rc := &receipt.RecordChanges{}
	if c := e.Receipt.Result.Changed; c != nil && c.Records != nil {
		rc = c.Records
	}
	bIDs, bAll := RecordIDs(e.Before.Snap)
	aIDs, aAll := RecordIDs(e.After.Snap)
	if bAll && aAll {
		if pr := Claims("changed.records.removed", rc.Removed, rc.Omitted.Removed, Minus(bIDs, aIDs)); pr != "" {
			return pr
		}
		if pr := Claims("changed.records.added", rc.Added, rc.Omitted.Added, Minus(aIDs, bIDs)); pr != "" {
			return pr
		}
	}
	from, to := e.Before.Snap.Records.Total, e.After.Snap.Records.Total
	if rc.Total != nil && (rc.Total.From != from || rc.Total.To != to) {
		return fmt.Sprintf("changed.records.total is %d → %d, the snapshots show %d → %d", rc.Total.From, rc.Total.To, from, to)
	}
	if rc.Total == nil && from != to {
		return fmt.Sprintf("changed.records has no total, but the snapshots show %d → %d records", from, to)
	}
	return ""
}

// PartsProblem checks the parts of one call's changed other than records
// against the harness's snapshots: a part is present exactly when
// something in it changed, observed is true exactly when a part is
// present, and the actions and state keys listed are those that changed.
func PartsProblem(e *Exercised) string {
	c := e.Receipt.Result.Changed
	if c == nil {
		return "the receipt has no changed"
	}
	present := c.Page != nil || c.Records != nil || c.Actions != nil || c.State != nil || c.Feedback != nil
	if c.Observed != present {
		return fmt.Sprintf("changed.observed is %t, but changed carries %s", c.Observed, map[bool]string{true: "a part", false: "no part"}[present])
	}
	b, a := e.Before.Snap, e.After.Snap
	if b.Actions.Omitted == 0 && a.Actions.Omitted == 0 {
		ac := c.Actions
		if ac == nil {
			ac = &receipt.ActionChanges{}
		}
		if pr := Claims("changed.actions.removed", ac.Removed, ac.Omitted.Removed, Minus(b.ActionIDs(), a.ActionIDs())); pr != "" {
			return pr
		}
		if pr := Claims("changed.actions.added", ac.Added, ac.Omitted.Added, Minus(a.ActionIDs(), b.ActionIDs())); pr != "" {
			return pr
		}
	}
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(MergeKeys(b.State, a.State))) {
		if !params.SameJSON(b.State[k], a.State[k]) {
			keys = append(keys, k)
		}
	}
	sc := c.State
	if sc == nil {
		sc = &receipt.StateChanges{}
	}
	if pr := Claims("changed.state.changed", sc.Changed, sc.Omitted, keys); pr != "" {
		return pr
	}
	if c.Feedback == nil && !params.SameJSON(b.Feedback, a.Feedback) {
		return "changed has no feedback part, but the snapshots show the page's feedback changed"
	}
	if c.Feedback != nil && params.SameJSON(b.Feedback, a.Feedback) {
		return "changed carries a feedback part, but the snapshots show the same feedback"
	}
	if c.Records != nil && !recordsChanged(c.Records, b, a) {
		return "changed carries a records part, but the snapshots show the same records"
	}
	return ""
}

// MergeKeys is the set of keys of a and b.
func MergeKeys(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func recordsChanged(rc *receipt.RecordChanges, b, a *receipt.Snapshot) bool {
	return len(rc.Added)+len(rc.Removed)+len(rc.Updated)+rc.Omitted.Added+rc.Omitted.Removed+rc.Omitted.Updated > 0 ||
		rc.Reordered || !params.SameJSON(b.Records, a.Records)
}

// ConfirmationEvidence is the confirmation requests a call made, as
// evidence.
func ConfirmationEvidence(cs []glasstest.ConfirmationRecord) report.Evidence {
	var lines []string
	for _, c := range cs {
		b, _ := json.Marshal(c.Request)
		lines = append(lines, fmt.Sprintf("approved=%t solicited=%t request=%s", c.Approved, c.Solicited, b))
	}
	return TextEvidence("confirmations the host was asked for", lines...)
}

// Plain gives a value the shapes playwright-go can serialise.
func Plain(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// JSONText is v as compact JSON, for a sentence.
func JSONText(v any) string {
	if v == nil {
		return "absent"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
