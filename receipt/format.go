package receipt

import (
	"fmt"
	"strconv"
	"strings"
)

// GomegaString renders r compactly for failure messages: what was called,
// the outcome, and the evidence that matters, on one line.
func (r *Receipt) GomegaString() string {
	if r == nil {
		return "<nil receipt>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "receipt %s", Quote(r.Result.Action.ID))
	if r.Result.OK {
		b.WriteString(" ok")
	} else if e := r.Result.Error; e != nil {
		fmt.Fprintf(&b, " failed %s at %s", e.Code, r.FailurePhase())
		if e.Message != "" {
			fmt.Fprintf(&b, ": %s", Quote(e.Message))
		}
	}
	if r.Result.Expect != "" {
		fmt.Fprintf(&b, "; expect %s", Quote(r.Result.Expect))
	}
	if c := r.Result.Changed; c != nil {
		b.WriteString("; changed ")
		b.WriteString(c.summary())
	}
	if r.Result.Fidelity != "" {
		fmt.Fprintf(&b, "; fidelity %s", r.Result.Fidelity)
	}
	if r.Result.Warning != "" {
		fmt.Fprintf(&b, "; warning %s", Quote(r.Result.Warning))
	}
	return b.String()
}

func (c *Changed) summary() string {
	if !c.Observed {
		return "nothing"
	}
	var parts []string
	if rc := c.Records; rc != nil {
		var s []string
		if len(rc.Added) > 0 || rc.Omitted.Added > 0 {
			s = append(s, "added "+list(rc.Added, rc.Omitted.Added))
		}
		if len(rc.Removed) > 0 || rc.Omitted.Removed > 0 {
			s = append(s, "removed "+list(rc.Removed, rc.Omitted.Removed))
		}
		if len(rc.Updated) > 0 || rc.Omitted.Updated > 0 {
			ids := make([]string, len(rc.Updated))
			for i, u := range rc.Updated {
				fields := make([]string, len(u.Fields))
				for j, f := range u.Fields {
					fields[j] = printable(f)
				}
				ids[i] = printable(u.ID) + "(" + strings.Join(fields, ",") + ")"
			}
			s = append(s, "updated "+list(ids, rc.Omitted.Updated))
		}
		if rc.Reordered {
			s = append(s, "reordered")
		}
		if rc.Total != nil {
			s = append(s, fmt.Sprintf("total %d→%d", rc.Total.From, rc.Total.To))
		}
		parts = append(parts, "records{"+strings.Join(s, " ")+"}")
	}
	if ac := c.Actions; ac != nil {
		var s []string
		if len(ac.Added) > 0 || ac.Omitted.Added > 0 {
			s = append(s, "added "+list(ac.Added, ac.Omitted.Added))
		}
		if len(ac.Removed) > 0 || ac.Omitted.Removed > 0 {
			s = append(s, "removed "+list(ac.Removed, ac.Omitted.Removed))
		}
		parts = append(parts, "actions{"+strings.Join(s, " ")+"}")
	}
	if sc := c.State; sc != nil {
		parts = append(parts, "state{"+list(sc.Changed, sc.Omitted)+"}")
	}
	if fc := c.Feedback; fc != nil {
		parts = append(parts, fmt.Sprintf("feedback{+%d -%d}", len(fc.Added)+fc.Omitted.Added, len(fc.Removed)+fc.Omitted.Removed))
	}
	if pc := c.Page; pc != nil {
		parts = append(parts, "page")
	}
	return strings.Join(parts, " ")
}

// list renders ids as printed by summary; ids already made printable
// (updated records) pass through printable unchanged.
func list(ids []string, omitted int) string {
	shown := make([]string, len(ids))
	for i, id := range ids {
		shown[i] = printable(id)
	}
	s := "[" + strings.Join(shown, " ")
	if omitted > 0 {
		s += fmt.Sprintf(" +%d omitted", omitted)
	}
	return s + "]"
}

// Quote is s Go-quoted, every character Invisible names escaped too
// (strconv.Quote, and so %q, keeps those that Go counts as printable,
// such as U+034F): how Glass's failure messages quote a page's text.
func Quote(s string) string {
	for _, r := range s {
		if Invisible(r) {
			return strconv.QuoteToASCII(s)
		}
	}
	return strconv.Quote(s)
}

// printable returns s as is when every character prints as itself, and
// Go-quoted otherwise: ids and field names come from the page, and a page
// must not recolour, rewrite or hide a line of a failure message with
// escape sequences, carriage returns or bidirectional overrides.
func printable(s string) string {
	for _, r := range s {
		if Invisible(r) || !strconv.IsPrint(r) {
			return Quote(s)
		}
	}
	return s
}

// String renders r as GomegaString does, so that printing a receipt
// (fmt.Println, GinkgoWriter.Println) shows what it says, not pointers.
func (r *Receipt) String() string { return r.GomegaString() }

// GomegaString renders s compactly for failure messages: the page, its
// revision, how many records and actions it lists, and the action ids.
func (s *Snapshot) GomegaString() string {
	if s == nil {
		return "<nil snapshot>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "snapshot of %s", printable(s.Page.Title))
	if s.Page.ID != "" {
		fmt.Fprintf(&b, " (%s)", printable(s.Page.ID))
	}
	fmt.Fprintf(&b, " at revision %d: %d records", s.Revision, s.Records.Total)
	ids := make([]string, 0, len(s.Actions.Items))
	for _, a := range s.Actions.Items {
		id := a.ID
		if !a.Available {
			id += "(unavailable)"
		}
		ids = append(ids, id)
	}
	fmt.Fprintf(&b, ", %d actions %s", len(s.Actions.Items)+s.Actions.Omitted, list(ids, s.Actions.Omitted))
	if len(s.State) > 0 {
		fmt.Fprintf(&b, ", %d state views", len(s.State))
	}
	if len(s.Feedback) > 0 {
		fmt.Fprintf(&b, ", %d feedback", len(s.Feedback))
	}
	return b.String()
}

// String renders s as GomegaString does.
func (s *Snapshot) String() string { return s.GomegaString() }
