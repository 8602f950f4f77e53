// Package echo is the echo probe: it passes a sensitive value through
// every string parameter of every action (CONTRACT.md §2.3: a
// {"$sensitive": name} placeholder may stand for any string): the runtime
// restores it, the page shows it, echoes it into feedback or returns it as
// data — and wherever the value would appear in a receipt, a snapshot, a
// confirmation request or a hand-off request, the runtime must write
// "[sensitive]" (sensitive.never-echoed). Each call is made on a fresh
// page, approved, with the host answering a hand-off cancelled (and the
// first whose value the page showed, masked, again on one page with
// another value, typed twice into one string, typed in each spelling
// CONTRACT.md §6.3 lists, and with a value of three letters: twice); the
// value is looked for in every spelling internal/scrub knows (a typed
// spelling as it was typed), in the runtime's own documents (the host
// masks what it records, and says when it had to).
//
// The calls are made one by one as a check walks them (Each), once per
// run and transport; a check that stops at a leak leaves the rest for the
// run's audits, which judge every receipt a whole run sees
// (probe.Probe.FinishWalks).
package echo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
	"golang.org/x/text/unicode/norm"
)

// Call is one call of the echo probe and where the value showed.
type Call struct {
	Action receipt.ActionInfo
	// Params are the string parameters that carried the value.
	Params  []string
	Receipt *receipt.Receipt
	// ByRuntime is false when the harness wrote the receipt.
	ByRuntime bool
	// Leak says where the value showed, or "".
	Leak     string
	Evidence string
	// shown is true when the snapshot after the call shows the value
	// masked: the page shows what the call passed.
	shown bool
}

// echoMember is the member the echo probe adds to the arguments of an
// action that asks first and allows members it does not declare.
const echoMember = "glassEcho"

// plan is one call of the echo probe: the action, and its arguments
// with the placeholder in every string parameter that can hold it.
type plan struct {
	action receipt.ActionInfo
	args   map[string]any
	params []string
}

// planCalls lists the echo calls: for each declared action with a string
// parameter (step-only ones aside: a direct call never restores anything,
// and a hand-off or a flow is called like any other), valid arguments with
// the placeholder in every free string parameter (one with no enum,
// pattern or format); an action whose string parameters are all
// constrained so gets the placeholder in each of them instead,
// a call validation must refuse.
func planCalls(p *probe.Probe) (calls []plan, notes []string) {
	extraTools := map[string]bool{}
	for _, a := range p.Base().Actions.Items {
		if a.StepOnly || p.Manifest().Skips(a.ID) {
			continue
		}
		s, err := params.ParseSchema(a.Params)
		if err != nil {
			continue
		}
		// An action that asks first, or a hand-off, that takes members
		// its schema does not declare gets the value in one more: the
		// runtime restores a placeholder wherever it is, and the
		// confirmation or hand-off request shows the arguments
		// (CONTRACT.md §2.3, §6.3; an outside audit's runtime masked the
		// confirmation's and not the hand-off's).
		extra := (probe.NeedsConfirmation(a) || a.Kind == receipt.KindHandoff) && a.Available && string(s.AdditionalProperties) != "false" && s.Properties[echoMember] == nil
		if len(s.Properties) == 0 && !extra {
			continue
		}
		if extra && len(s.Properties) == 0 && a.Tool != "" {
			if extraTools[a.Tool] {
				continue // one row of a tool is enough
			}
			extraTools[a.Tool] = true
		}
		var free, enums []string
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			prop := s.Properties[k]
			if prop == nil || !prop.HasType("string") {
				continue
			}
			// A value the params constrain (an enum, a pattern, a
			// format) cannot hold the probe's value: validation refuses it.
			if len(prop.Enum) > 0 || prop.Pattern != "" || prop.Format != "" {
				enums = append(enums, k)
			} else {
				free = append(free, k)
			}
		}
		if len(free)+len(enums) == 0 && !extra {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		pl := plan{action: a, args: args, params: free}
		if len(free) == 0 || !a.Available {
			// Refused either way (by validation, or at stage 5): the value
			// goes in every string parameter.
			pl.params = append(free, enums...)
		}
		if extra {
			pl.params = append(pl.params, echoMember)
		}
		for _, k := range pl.params {
			pl.args[k] = glasstest.SensitiveRef(params.SensitiveRef)
		}
		calls = append(calls, pl)
	}
	return calls, notes
}

// calls is a run's echo probe over one transport, made call by call.
type calls struct {
	mu    sync.Mutex
	p     *probe.Probe
	plans []plan
	notes []string
	next  int  // the next plan to call
	twice bool // the first call whose value the page showed was called twice
	made  []Call
	err   error
}

func sequence(p *probe.Probe) *calls {
	v, _ := p.Memo(string(p.Transport)+"|echo", func() (any, error) {
		plans, notes := planCalls(p)
		return &calls{p: p.Sibling(p.Transport), plans: plans, notes: notes}, nil
	})
	return v.(*calls)
}

// at returns call i, making the calls up to it first; ok is false past
// the last call.
func (c *calls) at(i int) (call Call, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.made) <= i && c.err == nil && c.next < len(c.plans) {
		c.step()
	}
	if i < len(c.made) {
		return c.made[i], true, nil
	}
	return Call{}, false, c.err
}

func (c *calls) step() {
	pl := c.plans[c.next]
	c.next++
	made, err := one(c.p, pl)
	if err != nil {
		c.err = err
		return
	}
	c.made = append(c.made, made)
	// The first action whose value the page showed (masked) is called
	// twice more on one page, each call with a value of its own.
	if !c.twice && made.shown && made.Receipt.Result.OK {
		c.twice = true
		if made, err = twice(c.p, pl); err != nil {
			c.err = err
			return
		}
		c.made = append(c.made, made)
	}
}

// Each walks the echo probe's calls, making each on first use, until fn
// returns false, and returns the notes on actions the probe could not
// build arguments for. The calls a check did not walk are made before the
// run's audits (probe.Probe.FinishWalks).
func Each(p *probe.Probe, fn func(Call) bool) ([]string, error) {
	c := sequence(p)
	for i := 0; ; i++ {
		call, ok, err := c.at(i)
		if err != nil || !ok {
			return c.notes, err
		}
		if !fn(call) {
			p.Unfinished(string(p.Transport)+"|echo", func() { _, _, _ = c.at(math.MaxInt) })
			return c.notes, nil
		}
	}
}

// one makes pl's call on a page of its own, closed after it.
func one(p *probe.Probe, pl plan) (Call, error) {
	q := p.Sibling(p.Transport)
	defer q.Close()
	secret := q.FreshSecret()
	set := scrub.New(secret)
	pg, err := q.Open("", glasstest.Approve(), glasstest.Sensitive(params.SensitiveRef, secret),
		glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome { return glasstest.HandoffCancelled }))
	if err != nil {
		return Call{}, err
	}
	r, byRuntime := pg.DoAnswered(pl.action.ID, pl.args)
	c := Call{Action: pl.action, Params: pl.params, Receipt: r, ByRuntime: byRuntime}
	leak := func(where string, v any) bool {
		b, _ := json.Marshal(v)
		if !set.Contains(b) {
			return false
		}
		c.Leak, c.Evidence = where, string(b)
		return true
	}
	if byRuntime {
		if rj, err := receipt.CanonicalJSON(r); err == nil && set.Contains(rj) {
			c.Leak, c.Evidence = "the receipt", string(rj)
			return c, nil
		}
	}
	for _, cr := range pg.Harness.Confirmations() {
		if cr.SensitiveMasked || leak("a confirmation request", cr.Request) {
			c.Leak = "a confirmation request (the host masked it)"
			c.Evidence = judge.JSONText(cr.Request)
			return c, nil
		}
	}
	for _, h := range pg.Harness.Handoffs() {
		if h.SensitiveMasked || leak("a hand-off request", h.Request) {
			c.Leak = "a hand-off request (the host masked it)"
			c.Evidence = judge.JSONText(h.Request)
			return c, nil
		}
	}
	sj, err := snapshotJSON(pg)
	if err != nil {
		return Call{}, err
	}
	if set.Contains(sj) {
		c.Leak, c.Evidence = "the snapshot after the call", string(sj)
	} else {
		c.shown = bytes.Contains(sj, []byte(receipt.Masked))
	}
	return c, nil
}

// snapshotJSON is the page's snapshot now, as the runtime's JSON.
func snapshotJSON(pg *probe.Page) ([]byte, error) {
	snap, err := pg.Snapshot()
	if err != nil {
		return nil, err
	}
	return receipt.CanonicalJSON(snap)
}

// twice calls pl's action twice on one page, the second time with
// another value: the runtime masks a value from the call that restored it
// on (CONTRACT.md §6.3), so the first value must not show in the second
// call's receipt or in the snapshot after it, though the second call did
// not pass it. Then, with no placeholder, the second value is typed into
// each of the string parameters twice into one string (every occurrence
// is masked, not the first in a string only), and the first value, which
// has a non-ASCII letter so that its normalisation forms differ, in each
// spelling sensitive.never-echoed names, one call each (the page shows
// what it is given; the runtime must mask the value however it appears).
// Last, a value of three letters is restored: a short value is masked
// too.
func twice(p *probe.Probe, pl plan) (Call, error) {
	q := p.Sibling(p.Transport)
	defer q.Close()
	first, second := q.FreshAccentedSecret(), q.FreshSecret()
	pg, err := q.Open("", glasstest.Approve(),
		glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome { return glasstest.HandoffCancelled }))
	if err != nil {
		return Call{}, err
	}
	pg.Do(pl.action.ID, pl.args, glasstest.Sensitive(params.SensitiveRef, first))
	r, byRuntime := pg.DoAnswered(pl.action.ID, pl.args, glasstest.Sensitive(params.SensitiveRef, second))
	c := Call{Action: pl.action, Params: pl.params, Receipt: r, ByRuntime: byRuntime}
	set := scrub.New(first)
	// leaked judges a call's receipt and the snapshot after it with
	// shows, and keeps the first that shows the value.
	leaked := func(r *receipt.Receipt, byRuntime bool, shows func([]byte) bool, what string) (bool, error) {
		if rj, err := receipt.CanonicalJSON(r); err == nil && byRuntime && shows(rj) {
			c.Receipt, c.Leak, c.Evidence = r, "the receipt of "+what, string(rj)
			return true, nil
		}
		sj, err := snapshotJSON(pg)
		if err != nil {
			return false, err
		}
		if shows(sj) {
			c.Receipt, c.Leak, c.Evidence = r, "the snapshot after "+what, string(sj)
			return true, nil
		}
		return false, nil
	}
	if l, err := leaked(r, byRuntime, set.Contains, "a second call with another value (the first call's value)"); l || err != nil {
		return c, err
	}
	// typeIn calls the action with text in each of the string parameters.
	typeIn := func(text string) (*receipt.Receipt, bool) {
		typed := maps.Clone(pl.args)
		for _, k := range pl.params {
			typed[k] = text
		}
		return pg.DoAnswered(pl.action.ID, typed)
	}
	// The second value (ASCII: every normalisation form of it is itself)
	// typed twice into one string, looked for in every spelling.
	r, byRuntime = typeIn(second + " " + second)
	if l, err := leaked(r, byRuntime, scrub.New(second).Contains, "a later call that typed the second call's value twice into one string"); l || err != nil {
		return c, err
	}
	// Each spelling of the first value, in quotes (as text around it, so
	// that the string is no spelling of anything as a whole), looked for
	// as it was typed: the page may spell it again (percent-encode what
	// was typed percent-encoded), and a spelling of a spelling is not one
	// the rule names.
	for _, sp := range typedSpellings(first) {
		r, byRuntime = typeIn(`"` + sp.text + `"`)
		shows := func(doc []byte) bool { return showsVerbatim(doc, sp.text) }
		if l, err := leaked(r, byRuntime, shows, "a later call that typed the first call's value "+sp.how); l || err != nil {
			return c, err
		}
	}
	// A short value, unless the page already shows those letters.
	before, err := snapshotJSON(pg)
	if err != nil {
		return Call{}, err
	}
	short := q.FreshShortSecret()
	if scrub.New(short).Contains(before) {
		return c, nil
	}
	r, byRuntime = pg.DoAnswered(pl.action.ID, pl.args, glasstest.Sensitive(params.SensitiveRef, short))
	_, err = leaked(r, byRuntime, scrub.New(short).Contains, "a later call that restored a value of three letters")
	return c, err
}

// spelling is a string to type and how it spells the value.
type spelling struct{ text, how string }

// typedSpellings lists the value spelt each way CONTRACT.md §6.3 lists for
// sensitive.never-echoed: in each other normalisation form (NFD, NFKC,
// NFKD: those that differ from the value and from each other);
// percent-encoded in upper- and lower-case hex, and with %20 for a space
// where + stands for one; escaped in JSON as Go
// writes it (<, > and & as \u escapes), as an ASCII-only encoder writes
// it (every other character as one; one outside the Basic Multilingual
// Plane as a surrogate pair) and with both, in upper-case hex; as
// HTML character references, named, decimal and hex, and with <, >, & and
// the non-ASCII characters of the Basic Multilingual Plane as decimal and
// hex references with leading zeros (hex with an upper-case X and digits).
func typedSpellings(v string) []spelling {
	pct := url.QueryEscape(v)
	lower := regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(pct, strings.ToLower)
	// A character outside the Basic Multilingual Plane is escaped as the
	// surrogate pair JSON writes for it (\ud83d\udd11).
	jsonEscaped := func(escape func(rune) bool, format string) string {
		var b strings.Builder
		for _, r := range v {
			switch {
			case !escape(r):
				b.WriteRune(r)
			case r > 0xffff:
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, format+format, hi, lo)
			default:
				fmt.Fprintf(&b, format, r)
			}
		}
		return b.String()
	}
	htmlChar := func(r rune) bool { return r == '<' || r == '>' || r == '&' }
	nonASCII := func(r rune) bool { return r >= 0x80 }
	var dec, hex, dec0, hex0 strings.Builder
	for _, r := range v {
		fmt.Fprintf(&dec, "&#%d;", r)
		fmt.Fprintf(&hex, "&#x%x;", r)
		// Leading zeros and an upper-case X, for the characters HTML
		// escapes and the non-ASCII ones of the Basic Multilingual Plane
		// only (the rest as they are, so that the text fits where the
		// whole value as references would not: the proving page's titles
		// take 80 characters): the same text to an HTML parser, another to
		// a mask that spells only the short references (an outside audit's
		// variant).
		if htmlChar(r) || nonASCII(r) && r <= 0xffff {
			fmt.Fprintf(&dec0, "&#%07d;", r)
			fmt.Fprintf(&hex0, "&#X%06X;", r)
		} else {
			dec0.WriteRune(r)
			hex0.WriteRune(r)
		}
	}
	var out []spelling
	for _, f := range []struct {
		form norm.Form
		name string
	}{{norm.NFD, "NFD"}, {norm.NFKC, "NFKC"}, {norm.NFKD, "NFKD"}} {
		out = append(out, spelling{f.form.String(v), "in another normalisation form (" + f.name + ")"})
	}
	out = append(out, []spelling{
		{pct, "percent-encoded"},
		{lower, "percent-encoded in lower-case hex"},
		{strings.ReplaceAll(pct, "+", "%20"), "percent-encoded with %20 for a space"},
		{jsonEscaped(htmlChar, `\u%04x`), "escaped in JSON as Go writes it"},
		{jsonEscaped(nonASCII, `\u%04x`), "escaped in JSON as an ASCII-only encoder writes it"},
		{jsonEscaped(func(r rune) bool { return htmlChar(r) || nonASCII(r) }, `\u%04X`), "escaped in JSON with upper-case hex"},
		{html.EscapeString(v), "as HTML character references"},
		{dec.String(), "as decimal HTML character references"},
		{hex.String(), "as hex HTML character references"},
		{dec0.String(), "with <, >, & and its non-ASCII characters as decimal HTML character references with leading zeros"},
		{hex0.String(), "with <, >, & and its non-ASCII characters as hex HTML character references with leading zeros and an upper-case X"},
	}...)
	// A spelling that is the value itself, or the same text as one before
	// it (the value has no space, no compatibility character, or nothing
	// to escape that way), is left out.
	seen := map[string]bool{v: true}
	return slices.DeleteFunc(out, func(sp spelling) bool {
		dup := seen[sp.text]
		seen[sp.text] = true
		return dup
	})
}

// showsVerbatim reports whether a string of the JSON document doc, or a
// member name, holds text as it is.
func showsVerbatim(doc []byte, text string) bool {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return bytes.Contains(doc, []byte(text))
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			return strings.Contains(v, text)
		case []any:
			return slices.ContainsFunc(v, walk)
		case map[string]any:
			for k, m := range v {
				if strings.Contains(k, text) || walk(m) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
