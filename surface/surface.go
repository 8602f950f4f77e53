package surface

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// Format names the version of the surface file format; it is the value of
// every file's "format" field.
const Format = "glass.surface/v1"

// Surface is the declared capability surface of one page.
type Surface struct {
	// Format is always Format.
	Format string `json:"format"`
	// Protocol is the page protocol the snapshot spoke (glass.page/v1).
	Protocol string `json:"protocol"`
	Page     Page   `json:"page"`
	// Actions are sorted by Name; names are unique.
	Actions []Action `json:"actions"`
	// Omitted is how many actions the snapshot left out (it lists at most
	// 500): a surface with Omitted > 0 is incomplete.
	Omitted int `json:"omitted,omitempty"`
}

// Page is the page identity, without what changes from run to run.
type Page struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Host is the URL's host name without the port, left out for a
	// loopback host (localhost, 127.0.0.0/8, ::1), where test servers run.
	Host string `json:"host,omitempty"`
	// Path is the URL's path ("/" for an empty one), without query or
	// fragment.
	Path string `json:"path,omitempty"`
}

// Action is one entry of the surface: a declared action, or the folded
// tool of a family of row actions.
type Action struct {
	// Name is the action id, or for row actions the name of their folded
	// tool (remove for remove@t1, remove@t2, …; remove.rows when the page
	// also declares an action remove).
	Name string `json:"name"`
	// Rows is the id pattern of a folded tool's row actions
	// ("remove@<record>"); empty for any other action.
	Rows string `json:"rows,omitempty"`
	// Tool is the WebMCP tool name of an action whose id is not a valid
	// tool name (CONTRACT.md §6.4); empty when the tool is Name.
	Tool        string       `json:"tool,omitempty"`
	Description string       `json:"description"`
	Kind        receipt.Kind `json:"kind"`
	Risk        receipt.Risk `json:"risk"`
	// Confirm says whether a call asks the user (the snapshot's confirm).
	Confirm bool `json:"confirm"`
	// StepOnly marks an action only a flow may run (CONTRACT.md §2.7).
	StepOnly bool `json:"stepOnly,omitempty"`
	// Steps are a flow's step ids (or labels), in order. In a folded
	// tool a step that names the row's own record reads name@<record>.
	Steps []string `json:"steps,omitempty"`
	// Params is the action's params JSON Schema, canonicalised.
	Params map[string]any `json:"params,omitempty"`
	// Sensitive lists the parameters declared sensitive ("sensitive" or
	// "x-sensitive": true on a property of params), sorted.
	Sensitive []string         `json:"sensitive,omitempty"`
	Fidelity  receipt.Fidelity `json:"fidelity,omitempty"`
	// Expect is the description of the action's declared expectation (for
	// a hand-off, its check).
	Expect string `json:"expect,omitempty"`
	// Idempotent is the descriptor's x-idempotent.
	Idempotent bool `json:"idempotent,omitempty"`
}

// Action returns the entry named name, if any.
func (s *Surface) Action(name string) (Action, bool) {
	i, ok := slices.BinarySearchFunc(s.Actions, name, func(a Action, n string) int { return strings.Compare(a.Name, n) })
	if !ok {
		return Action{}, false
	}
	return s.Actions[i], true
}

// ErrSnapshot wraps every error of FromSnapshot.
var ErrSnapshot = errors.New("surface: cannot read the surface of the snapshot")

// toolName is what WebMCP accepts as a tool name (CONTRACT.md §6.4).
var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// FromSnapshot returns the declared capability surface of the page the
// snapshot describes. Row actions are folded by the tool and record their
// descriptors name (or, from a runtime that names none, by the id's part
// before "@"); a folded entry takes its description, kind, steps, params,
// expectation and idempotence from the first row in snapshot order, as
// the WebMCP tool does, and the weakest risk, confirm and fidelity of all
// its rows, so that a row which asks less than the others is what the
// surface shows.
func FromSnapshot(snap *receipt.Snapshot) (*Surface, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: no snapshot", ErrSnapshot)
	}
	s := &Surface{
		Format:   Format,
		Protocol: snap.Protocol,
		Page:     pageOf(snap.Page),
		Omitted:  snap.Actions.Omitted,
	}
	records := recordIDs(snap)
	plain := map[string]bool{}
	for _, a := range snap.Actions.Items {
		if a.Record == "" && !rowID(a.ID) {
			plain[a.ID] = true
		}
	}
	byName := map[string]int{} // entry name → index in s.Actions
	var order []string
	for _, a := range snap.Actions.Items {
		e := entryOf(a, records, plain)
		i, seen := byName[e.Name]
		if !seen {
			byName[e.Name] = len(s.Actions)
			s.Actions = append(s.Actions, e)
			order = append(order, e.Name)
			continue
		}
		prev := &s.Actions[i]
		if prev.Rows == "" || e.Rows == "" {
			// Two declarations under one name: the runtime lists an id
			// once, so this is a plain id that collides with a fold.
			return nil, fmt.Errorf("%w: action %q and another entry are both named %q", ErrSnapshot, a.ID, e.Name)
		}
		fold(prev, e)
	}
	slices.SortFunc(s.Actions, func(a, b Action) int { return strings.Compare(a.Name, b.Name) })
	return s, nil
}

// fold merges the entry of one more row into its tool's entry: the
// weakest risk, confirm and fidelity win.
func fold(into *Action, row Action) {
	if row.Risk.Rank() < into.Risk.Rank() {
		into.Risk = row.Risk
	}
	into.Confirm = into.Confirm && row.Confirm
	switch {
	case into.Fidelity == "":
		into.Fidelity = row.Fidelity
	case row.Fidelity != "" && fidelityRank(row.Fidelity) < fidelityRank(into.Fidelity):
		into.Fidelity = row.Fidelity
	}
}

// fidelityRank orders fidelity levels: low 0, auto 1, high 2.
func fidelityRank(f receipt.Fidelity) int {
	return len(receipt.Fidelities) - 1 - slices.Index(receipt.Fidelities, f)
}

// rowID reports whether id has the shape name@record with a name that is
// a valid tool name, the actions a host may fold (CONTRACT.md §2.2).
func rowID(id string) bool {
	at := strings.LastIndexByte(id, '@')
	return at > 0 && at < len(id)-1 && toolName.MatchString(id[:at])
}

// entryOf is the entry of one descriptor.
func entryOf(a receipt.ActionInfo, records recordSet, plain map[string]bool) Action {
	e := Action{
		Name:        a.ID,
		Description: a.Description,
		Kind:        a.Kind,
		Risk:        a.Risk,
		Confirm:     a.Confirm,
		StepOnly:    a.StepOnly,
		Steps:       slices.Clone(a.Steps),
		Fidelity:    a.Fidelity,
		Expect:      a.Expect,
		Idempotent:  idempotent(a.Extra),
	}
	if len(a.Params) > 0 {
		e.Params, e.Sensitive = canonicalParams(a.Params, records)
	}
	record := a.Record
	prefix := ""
	switch {
	case record != "" && strings.HasSuffix(a.ID, "@"+record):
		prefix = strings.TrimSuffix(a.ID, "@"+record)
	case record == "" && a.Tool == "" && rowID(a.ID):
		at := strings.LastIndexByte(a.ID, '@')
		prefix, record = a.ID[:at], a.ID[at+1:]
	}
	if prefix == "" {
		if a.Tool != "" && a.Tool != a.ID {
			e.Tool = a.Tool
		}
		return e
	}
	e.Name = a.Tool
	if e.Name == "" {
		e.Name = prefix
		if plain[prefix] {
			e.Name = prefix + ".rows" // CONTRACT.md §6.4: a plain action named prefix wins
		}
	}
	e.Rows = prefix + "@<record>"
	for i, st := range e.Steps {
		if strings.HasSuffix(st, "@"+record) {
			e.Steps[i] = strings.TrimSuffix(st, record) + "<record>"
		}
	}
	return e
}

func idempotent(extra map[string]json.RawMessage) bool {
	var b bool
	return json.Unmarshal(extra["x-idempotent"], &b) == nil && b
}

// pageOf keeps what identifies the page: its id, its title, and its URL's
// host and path without the parts that change from run to run.
func pageOf(p receipt.PageIdentity) Page {
	out := Page{ID: p.ID, Title: p.Title}
	u, err := url.Parse(p.URL)
	if err != nil || p.URL == "" {
		return out
	}
	if h := u.Hostname(); h != "" && !loopback(h) {
		out.Host = strings.ToLower(h)
	}
	if u.Scheme == "http" || u.Scheme == "https" || u.Path != "" {
		out.Path = u.EscapedPath()
		if out.Path == "" {
			out.Path = "/"
		}
	}
	return out
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// recordSet is what an enum must list to be the page's record ids rather
// than a declared set of values.
type recordSet struct {
	ids map[string]bool
	// partial: the snapshot lists only some of total records.
	partial bool
	total   int
}

func recordIDs(snap *receipt.Snapshot) recordSet {
	rs := recordSet{ids: map[string]bool{}, partial: snap.Records.Omitted > 0, total: snap.Records.Total}
	for _, r := range snap.Records.Items {
		rs.ids[r.ID] = true
	}
	return rs
}

// enumerates reports whether the enum values are the page's record ids:
// every listed record and nothing else — or, when the snapshot lists only
// some records, every listed one and no more values than records.
func (rs recordSet) enumerates(values []any) bool {
	if len(rs.ids) == 0 || len(values) < len(rs.ids) {
		return false
	}
	seen := map[string]bool{}
	for _, v := range values {
		s, ok := v.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
		if !rs.ids[s] && !rs.partial {
			return false
		}
	}
	for id := range rs.ids {
		if !seen[id] {
			return false
		}
	}
	return !rs.partial || len(values) <= rs.total
}

// GomegaString renders the surface in one line for Gomega's messages:
// the page and how many entries it declares.
func (s *Surface) GomegaString() string {
	if s == nil {
		return "no surface"
	}
	where := ""
	if s.Page.Host != "" || s.Page.Path != "" {
		where = " (" + printable(s.Page.Host+s.Page.Path) + ")"
	}
	return fmt.Sprintf("capability surface of page %s%s, %d %s", quote(s.Page.ID), where, len(s.Actions), plural("entry", len(s.Actions)))
}

// String is GomegaString.
func (s *Surface) String() string { return s.GomegaString() }
