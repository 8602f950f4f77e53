package judge

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/report"
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

// UpdatedRecords is what changed.records.updated must report between two
// snapshots: every record present in both whose fields differ, with the
// names of the fields that changed (sorted), by id.
func UpdatedRecords(b, a *receipt.Snapshot) map[string][]string {
	out := map[string][]string{}
	after := RecordMap(a)
	for _, r := range b.Records.Items {
		q, ok := after[r.ID]
		if !ok {
			continue
		}
		var fields []string
		for k := range MergeKeys(r.Fields, q.Fields) {
			x, inB := r.Fields[k]
			y, inA := q.Fields[k]
			if inB != inA || !params.SameJSON(x, y) {
				fields = append(fields, k)
			}
		}
		if len(fields) > 0 {
			slices.Sort(fields)
			out[r.ID] = fields
		}
	}
	return out
}

// Reordered reports whether the records present in both snapshots come in
// another order in the second.
func Reordered(b, a *receipt.Snapshot) bool {
	inA, inB := RecordMap(a), RecordMap(b)
	var x, y []string
	for _, r := range b.Records.Items {
		if _, ok := inA[r.ID]; ok {
			x = append(x, r.ID)
		}
	}
	for _, r := range a.Records.Items {
		if _, ok := inB[r.ID]; ok {
			y = append(y, r.ID)
		}
	}
	return !slices.Equal(x, y)
}

// updatedProblem compares changed.records.updated with the updates the
// snapshots show: the same records, each with the names of the fields
// that changed (a list cut at the bound of 20 may leave names out), and
// the omission count making up the rest.
func updatedProblem(rc *receipt.RecordChanges, actual map[string][]string) string {
	seen := map[string]bool{}
	for _, u := range rc.Updated {
		if seen[u.ID] {
			return fmt.Sprintf("changed.records.updated lists %q twice", u.ID)
		}
		seen[u.ID] = true
		want, ok := actual[u.ID]
		if !ok {
			return fmt.Sprintf("changed.records.updated lists %q, but the snapshots show no field of it changed", u.ID)
		}
		for _, f := range u.Fields {
			if !slices.Contains(want, f) {
				return fmt.Sprintf("changed.records.updated names the field %q of %q, but the snapshots show it unchanged (changed: %s)", f, u.ID, strings.Join(want, ", "))
			}
		}
		if len(u.Fields) < len(want) && len(u.Fields) < receipt.MaxChangedEntries {
			return fmt.Sprintf("changed.records.updated names the fields %s of %q, but the snapshots show %s changed", listText(u.Fields), u.ID, listText(want))
		}
	}
	if rc.Omitted.Updated == 0 {
		for _, id := range slices.Sorted(maps.Keys(actual)) {
			if !seen[id] {
				return fmt.Sprintf("changed.records.updated leaves out %q (fields %s) with no omission count, but the snapshots show it updated", id, listText(actual[id]))
			}
		}
	}
	if len(rc.Updated)+rc.Omitted.Updated != len(actual) {
		return fmt.Sprintf("changed.records.updated reports %d (%d listed + %d omitted), the snapshots show %d records updated", len(rc.Updated)+rc.Omitted.Updated, len(rc.Updated), rc.Omitted.Updated, len(actual))
	}
	return ""
}

func listText(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return "[" + strings.Join(ClipList(l), ", ") + "]"
}

// RecordsProblem compares a receipt's changed.records with two snapshots
// the harness took itself, b the page as the call's window began and a
// as it ended: the records added and removed, the records updated with
// the fields that changed, whether the records kept changed order, the
// totals, and every omission count.
func RecordsProblem(r *receipt.Receipt, b, a *receipt.Snapshot) string {
	rc := &receipt.RecordChanges{}
	if c := r.Result.Changed; c != nil && c.Records != nil {
		rc = c.Records
	}
	bIDs, bAll := RecordIDs(b)
	aIDs, aAll := RecordIDs(a)
	if bAll && aAll {
		if pr := Claims("changed.records.removed", rc.Removed, rc.Omitted.Removed, Minus(bIDs, aIDs)); pr != "" {
			return pr
		}
		if pr := Claims("changed.records.added", rc.Added, rc.Omitted.Added, Minus(aIDs, bIDs)); pr != "" {
			return pr
		}
		if pr := updatedProblem(rc, UpdatedRecords(b, a)); pr != "" {
			return pr
		}
		if want := Reordered(b, a); rc.Reordered != want {
			return fmt.Sprintf("changed.records.reordered is %t, but the snapshots show the records present before and after %s", rc.Reordered,
				map[bool]string{true: "in another order", false: "in the same order"}[want])
		}
	}
	from, to := b.Records.Total, a.Records.Total
	if rc.Total != nil && (rc.Total.From != from || rc.Total.To != to) {
		return fmt.Sprintf("changed.records.total is %d → %d, the snapshots show %d → %d", rc.Total.From, rc.Total.To, from, to)
	}
	if rc.Total == nil && from != to {
		return fmt.Sprintf("changed.records has no total, but the snapshots show %d → %d records", from, to)
	}
	return ""
}

// feedbackKey is one message of the page's feedback, for counting.
func feedbackKey(f receipt.Feedback) string { return f.Kind + "\x00" + f.Text }

// feedbackMinus is a without b, counting repeats: a second identical
// toast is a message of its own.
func feedbackMinus(a, b []receipt.Feedback) []receipt.Feedback {
	left := map[string]int{}
	for _, f := range b {
		left[feedbackKey(f)]++
	}
	var out []receipt.Feedback
	for _, f := range a {
		if k := feedbackKey(f); left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, f)
	}
	return out
}

// feedbackClaims compares a feedback list a receipt reports with the
// messages the snapshots show added or removed.
func feedbackClaims(what string, listed []receipt.Feedback, omitted int, actual []receipt.Feedback) string {
	if extra := feedbackMinus(listed, actual); len(extra) > 0 {
		return fmt.Sprintf("%s lists the %s message %q, but the snapshots do not show that change", what, extra[0].Kind, report.Clip(extra[0].Text, 120))
	}
	if missing := feedbackMinus(actual, listed); omitted == 0 && len(missing) > 0 {
		return fmt.Sprintf("%s leaves out the %s message %q with no omission count, but the snapshots show that change", what, missing[0].Kind, report.Clip(missing[0].Text, 120))
	}
	if len(listed)+omitted != len(actual) {
		return fmt.Sprintf("%s reports %d (%d listed + %d omitted), the snapshots show %d", what, len(listed)+omitted, len(listed), omitted, len(actual))
	}
	return ""
}

// maxSnapshotFeedback is how many messages a snapshot lists (the last
// ones, CONTRACT.md §5): at the bound, older messages may have left the
// list without leaving the page, and the lists cannot be judged.
const maxSnapshotFeedback = receipt.MaxSnapshotFeedback

// ListsProblem compares the lists of a receipt's changed other than the
// records — the actions added and removed, the state keys changed, the
// feedback added and removed — with two snapshots the harness took.
func ListsProblem(r *receipt.Receipt, b, a *receipt.Snapshot) string {
	c := r.Result.Changed
	if c == nil {
		c = &receipt.Changed{}
	}
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
	return FeedbackProblem(r, b, a)
}

// FeedbackProblem compares the feedback a receipt's changed reports added
// and removed with two snapshots the harness took, counting repeats (a
// second identical message is a message of its own). Snapshots at the
// bound of the messages they list are not judged.
func FeedbackProblem(r *receipt.Receipt, b, a *receipt.Snapshot) string {
	if len(b.Feedback) >= maxSnapshotFeedback || len(a.Feedback) >= maxSnapshotFeedback {
		return ""
	}
	fc := &receipt.FeedbackChange{}
	if c := r.Result.Changed; c != nil && c.Feedback != nil {
		fc = c.Feedback
	}
	if pr := feedbackClaims("changed.feedback.added", fc.Added, fc.Omitted.Added, feedbackMinus(a.Feedback, b.Feedback)); pr != "" {
		return pr
	}
	return feedbackClaims("changed.feedback.removed", fc.Removed, fc.Omitted.Removed, feedbackMinus(b.Feedback, a.Feedback))
}

// ChangesProblem is RecordsProblem, then ListsProblem.
func ChangesProblem(r *receipt.Receipt, b, a *receipt.Snapshot) string {
	if pr := RecordsProblem(r, b, a); pr != "" {
		return pr
	}
	return ListsProblem(r, b, a)
}

// PartsProblem checks one call's changed against the harness's snapshots
// b and a: a part is present exactly when something in it changed,
// observed is true exactly when a part is present, and every list is the
// one the snapshots show.
func PartsProblem(r *receipt.Receipt, b, a *receipt.Snapshot) string {
	c := r.Result.Changed
	if c == nil {
		return "the receipt has no changed"
	}
	present := c.Page != nil || c.Records != nil || c.Actions != nil || c.State != nil || c.Feedback != nil
	if c.Observed != present {
		return fmt.Sprintf("changed.observed is %t, but changed carries %s", c.Observed, map[bool]string{true: "a part", false: "no part"}[present])
	}
	if pr := ListsProblem(r, b, a); pr != "" {
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
func MergeKeys[V any](a, b map[string]V) map[string]bool {
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

// CountsProblem checks that every list of a receipt's changed, with its
// omission count, makes the true count the snapshots b and a show:
// records added, removed and updated, actions added and removed, state
// keys changed, feedback added and removed.
func CountsProblem(r *receipt.Receipt, b, a *receipt.Snapshot) string {
	c := r.Result.Changed
	if c == nil {
		return ""
	}
	type count struct {
		name        string
		listed, omi int
		actual      int
		known       bool
	}
	bIDs, bAll := RecordIDs(b)
	aIDs, aAll := RecordIDs(a)
	records := bAll && aAll
	rc := c.Records
	if rc == nil {
		rc = &receipt.RecordChanges{}
	}
	ac := c.Actions
	if ac == nil {
		ac = &receipt.ActionChanges{}
	}
	sc := c.State
	if sc == nil {
		sc = &receipt.StateChanges{}
	}
	fc := c.Feedback
	if fc == nil {
		fc = &receipt.FeedbackChange{}
	}
	var keys int
	for k := range MergeKeys(b.State, a.State) {
		if !params.SameJSON(b.State[k], a.State[k]) {
			keys++
		}
	}
	actions := b.Actions.Omitted == 0 && a.Actions.Omitted == 0
	feedback := len(b.Feedback) < maxSnapshotFeedback && len(a.Feedback) < maxSnapshotFeedback
	for _, n := range []count{
		{"records.added", len(rc.Added), rc.Omitted.Added, len(Minus(aIDs, bIDs)), records},
		{"records.removed", len(rc.Removed), rc.Omitted.Removed, len(Minus(bIDs, aIDs)), records},
		{"records.updated", len(rc.Updated), rc.Omitted.Updated, len(UpdatedRecords(b, a)), records},
		{"actions.added", len(ac.Added), ac.Omitted.Added, len(Minus(a.ActionIDs(), b.ActionIDs())), actions},
		{"actions.removed", len(ac.Removed), ac.Omitted.Removed, len(Minus(b.ActionIDs(), a.ActionIDs())), actions},
		{"state.changed", len(sc.Changed), sc.Omitted, keys, true},
		{"feedback.added", len(fc.Added), fc.Omitted.Added, len(feedbackMinus(a.Feedback, b.Feedback)), feedback},
		{"feedback.removed", len(fc.Removed), fc.Omitted.Removed, len(feedbackMinus(b.Feedback, a.Feedback)), feedback},
	} {
		if n.known && n.listed+n.omi != n.actual {
			return fmt.Sprintf("changed.%s lists %d and counts %d omitted, but the snapshots show %d", n.name, n.listed, n.omi, n.actual)
		}
	}
	return ""
}

// ModelDiff describes how two snapshots of the page model differ, part by
// part (page identity, records, actions, state, feedback, revision).
func ModelDiff(a, b *receipt.Snapshot) []string {
	var out []string
	if a.Page != b.Page {
		out = append(out, fmt.Sprintf("page identity %+v → %+v", a.Page, b.Page))
	}
	if a.Records.Total != b.Records.Total {
		out = append(out, fmt.Sprintf("records total %d → %d", a.Records.Total, b.Records.Total))
	}
	ar, br := RecordMap(a), RecordMap(b)
	if d := SetDiff(slices.Sorted(maps.Keys(ar)), slices.Sorted(maps.Keys(br))); d != "" {
		out = append(out, "records "+d)
	}
	var updated []string
	for id, r := range ar {
		if q, ok := br[id]; ok && !params.SameJSON(r.Fields, q.Fields) {
			updated = append(updated, id)
		}
	}
	if len(updated) > 0 {
		slices.Sort(updated)
		out = append(out, "records updated "+strings.Join(ClipList(updated), " "))
	}
	if d := SetDiff(a.ActionIDs(), b.ActionIDs()); d != "" {
		out = append(out, "actions "+d)
	}
	for _, x := range a.Actions.Items {
		if y, ok := b.Action(x.ID); ok && x.Available != y.Available {
			out = append(out, fmt.Sprintf("action %s available %t → %t", x.ID, x.Available, y.Available))
		}
	}
	if !params.SameJSON(a.State, b.State) {
		out = append(out, "state "+stateDiff(a.State, b.State))
	}
	if !params.SameJSON(a.Feedback, b.Feedback) {
		out = append(out, fmt.Sprintf("feedback %d → %d messages", len(a.Feedback), len(b.Feedback)))
	}
	if len(out) == 0 && a.Revision != b.Revision {
		out = append(out, fmt.Sprintf("revision %d → %d", a.Revision, b.Revision))
	}
	return out
}

// RecordMap indexes a snapshot's records by id.
func RecordMap(s *receipt.Snapshot) map[string]receipt.Record {
	m := make(map[string]receipt.Record, len(s.Records.Items))
	for _, r := range s.Records.Items {
		m[r.ID] = r
	}
	return m
}

// SetDiff describes what was added to and removed from a to make b.
func SetDiff(a, b []string) string {
	added, removed := Minus(b, a), Minus(a, b)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(ClipList(added), " "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(ClipList(removed), " "))
	}
	return strings.Join(parts, ", ")
}

// Minus returns the elements of a that are not in b, in a's order.
func Minus(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

func stateDiff(a, b map[string]any) string {
	ks := map[string]bool{}
	for k := range a {
		ks[k] = true
	}
	for k := range b {
		ks[k] = true
	}
	var changed []string
	for k := range ks {
		if !params.SameJSON(a[k], b[k]) {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return "keys changed: " + strings.Join(ClipList(changed), " ")
}

// ClipList keeps evidence lists short.
func ClipList(ids []string) []string {
	const max = 10
	if len(ids) <= max {
		return ids
	}
	return append(slices.Clone(ids[:max]), fmt.Sprintf("(+%d more)", len(ids)-max))
}

// Pointer is the JSON Pointer (RFC 6901) of the member name of the
// arguments' top-level object: "/" and the name with "~" spelt "~0" and
// "/" spelt "~1".
func Pointer(name string) string {
	return "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}
