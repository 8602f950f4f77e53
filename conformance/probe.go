package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// outcome is what a check returns: a verdict, one sentence, and evidence.
type outcome struct {
	verdict  Verdict
	message  string
	evidence []Evidence
}

func pass() outcome { return outcome{verdict: Pass} }

func failf(format string, args ...any) outcome {
	return outcome{verdict: Fail, message: fmt.Sprintf(format, args...)}
}

func notProbed(reason string) outcome { return outcome{verdict: NotProbed, message: reason} }

// broken reports a probe that could not run at all (the page did not open,
// the browser went away). It fails the rule: a gate must not turn green
// because it could not look.
func broken(err error) outcome {
	return outcome{verdict: Fail, message: probeCouldNotRun + firstLine(err.Error())}
}

// probeCouldNotRun starts the message of a probe that could not run.
const probeCouldNotRun = "the probe could not run: "

func (o outcome) with(ev ...Evidence) outcome {
	o.evidence = append(o.evidence, ev...)
	return o
}

// probe is one check's view of the run: it opens fresh pages over one
// transport and records every receipt it gets.
type probe struct {
	s         *session
	transport glasstest.Transport
	pages     []*glasstest.Page
}

// base is the page model as the run first saw it.
func (p *probe) base() *receipt.Snapshot { return p.s.base }

func (p *probe) manifest() *Manifest { return p.s.cfg.manifest }

// open opens ref (resolved against the target URL; "" is the target) in a
// fresh browser context.
func (p *probe) open(ref string, opts ...glasstest.Option) (*page, error) {
	u, err := p.s.resolve(ref)
	if err != nil {
		return nil, err
	}
	all := append([]glasstest.Option{glasstest.Via(p.transport), glasstest.Timeout(p.s.cfg.callTimeout)}, p.s.hostOptions()...)
	all = append(all, opts...)
	g, err := glasstest.OpenPage(p.s.browser, u, all...)
	if err != nil {
		return nil, err
	}
	p.pages = append(p.pages, g)
	return &page{g: g, p: p}, nil
}

func (p *probe) close() {
	for _, g := range p.pages {
		_ = g.Close()
	}
	p.pages = nil
}

func (s *session) resolve(ref string) (string, error) {
	if ref == "" {
		return s.target.URL, nil
	}
	base, err := url.Parse(s.target.URL)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return base.ResolveReference(r).String(), nil
}

// page is one fresh page of a probe.
type page struct {
	g *glasstest.Page
	p *probe
}

// do calls id and records the receipt in the run.
func (pg *page) do(id string, args any, opts ...glasstest.Option) *receipt.Receipt {
	r := pg.runtimeAnswer(pg.g.Do(id, args, opts...))
	a, declared := pg.p.base().Action(id)
	pg.p.s.record(seen{receipt: r, action: a, declared: declared, transport: pg.p.transport, what: id})
	return r
}

// runtimeAnswer is the runtime's own receipt behind r: the checks judge
// the runtime, not what the host made of its answer (a receipt of another
// execution refused, available actions added). A harness receipt, where
// the runtime gave none, is judged as it is.
func (pg *page) runtimeAnswer(r *receipt.Receipt) *receipt.Receipt {
	if answer, ok := pg.g.Answer(r); ok {
		return answer
	}
	return r
}

// witness is the page as the harness sees it, independently of any
// receipt: the runtime's snapshot, the DOM and the accessibility tree.
type witness struct {
	snap *receipt.Snapshot
	dom  domState
	aria string
}

type domState struct {
	HTML     string `json:"html"`
	Elements int    `json:"elements"`
	// Text is the page's text outside live regions (toasts and status
	// lines announce changes; they are not the content that changed).
	Text string `json:"text"`
	// Controls is the live state of form controls (value, checked), which
	// innerHTML does not show.
	Controls string `json:"controls"`
}

const domScript = `() => {
  const body = document.body;
  if (!body) return JSON.stringify({ html: "", elements: 0, text: "" });
  const clone = body.cloneNode(true);
  for (const el of clone.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"], [role="timer"], [role="marquee"], script, style, template')) el.remove();
  const controls = Array.from(body.querySelectorAll("input, textarea, select"), (c) => (c.name || c.id || c.tagName) + "=" + JSON.stringify([c.value, !!c.checked]));
  return JSON.stringify({ html: body.innerHTML, elements: body.getElementsByTagName("*").length, text: clone.textContent || "", controls: controls.join("\n") });
}`

// witness reads the page; the accessibility tree, the costliest part, only
// when aria is true.
func (pg *page) witness(aria bool) (*witness, error) {
	snap, err := pg.g.TrySnapshot()
	if err != nil {
		return nil, err
	}
	w := &witness{snap: snap}
	v, err := pg.g.Evaluate(domScript, nil)
	if err != nil {
		return nil, fmt.Errorf("read the DOM: %w", err)
	}
	text, _ := v.(string)
	if err := json.Unmarshal([]byte(text), &w.dom); err != nil {
		return nil, fmt.Errorf("read the DOM: %w", err)
	}
	if !aria {
		return w, nil
	}
	tree, err := pg.g.AriaSnapshot("body")
	if err != nil {
		return nil, fmt.Errorf("read the accessibility tree: %w", err)
	}
	w.aria = tree
	return w, nil
}

func (d domState) hash() string {
	h := sha256.Sum256([]byte(d.HTML))
	return hex.EncodeToString(h[:8])
}

// stableWitness takes the witness before a call: a full witness, then a
// second reading of the DOM. If the two readings differ, the page changes
// by itself (a clock, an animation that rewrites text) and its DOM cannot
// witness the call; dom is then false.
func (pg *page) stableWitness(aria bool) (w *witness, dom bool, err error) {
	w, err = pg.witness(aria)
	if err != nil {
		return nil, false, err
	}
	v, err := pg.g.Evaluate(`() => document.body ? document.body.innerHTML : ""`, nil)
	if err != nil {
		return nil, false, fmt.Errorf("read the DOM: %w", err)
	}
	html, _ := v.(string)
	return w, html == w.dom.HTML, nil
}

// unchanged compares two witnesses and describes every difference: in the
// page model (from the runtime's own snapshots), in the DOM and in the
// accessibility tree. With domWitness false only the model is compared.
func unchanged(before, after *witness, domWitness bool) []string {
	var out []string
	for _, d := range modelDiff(before.snap, after.snap) {
		// A revision that moved with nothing else is envelope.revision's
		// concern, not a side effect.
		if !strings.HasPrefix(d, "revision ") {
			out = append(out, "page model: "+d)
		}
	}
	if !domWitness {
		return out
	}
	if before.dom.HTML != after.dom.HTML {
		out = append(out, fmt.Sprintf("DOM: body changed (hash %s → %s, %d → %d elements)",
			before.dom.hash(), after.dom.hash(), before.dom.Elements, after.dom.Elements))
	}
	if before.dom.Controls != after.dom.Controls {
		out = append(out, "DOM: a form control's value changed: "+firstDifference(before.dom.Controls, after.dom.Controls))
	}
	if before.aria != after.aria && before.aria != "" && after.aria != "" {
		out = append(out, "accessibility tree: "+firstDifference(before.aria, after.aria))
	}
	return out
}

// firstDifference names the first line where two texts differ.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d was %q, is %q", i+1, clip(strings.TrimSpace(x), 120), clip(strings.TrimSpace(y), 120))
		}
	}
	return "identical"
}

// modelDiff describes how two snapshots of the page model differ, part by
// part (page identity, records, actions, state, feedback, revision).
func modelDiff(a, b *receipt.Snapshot) []string {
	var out []string
	if a.Page != b.Page {
		out = append(out, fmt.Sprintf("page identity %+v → %+v", a.Page, b.Page))
	}
	if a.Records.Total != b.Records.Total {
		out = append(out, fmt.Sprintf("records total %d → %d", a.Records.Total, b.Records.Total))
	}
	ar, br := recordMap(a), recordMap(b)
	if d := setDiff(sortedKeys(ar), sortedKeys(br)); d != "" {
		out = append(out, "records "+d)
	}
	var updated []string
	for id, r := range ar {
		if q, ok := br[id]; ok && !sameJSON(r.Fields, q.Fields) {
			updated = append(updated, id)
		}
	}
	if len(updated) > 0 {
		sort.Strings(updated)
		out = append(out, "records updated "+strings.Join(clipList(updated), " "))
	}
	if d := setDiff(a.ActionIDs(), b.ActionIDs()); d != "" {
		out = append(out, "actions "+d)
	}
	for _, x := range a.Actions.Items {
		if y, ok := b.Action(x.ID); ok && x.Available != y.Available {
			out = append(out, fmt.Sprintf("action %s available %t → %t", x.ID, x.Available, y.Available))
		}
	}
	if !sameJSON(a.State, b.State) {
		out = append(out, "state "+stateDiff(a.State, b.State))
	}
	if !sameJSON(a.Feedback, b.Feedback) {
		out = append(out, fmt.Sprintf("feedback %d → %d messages", len(a.Feedback), len(b.Feedback)))
	}
	if len(out) == 0 && a.Revision != b.Revision {
		out = append(out, fmt.Sprintf("revision %d → %d", a.Revision, b.Revision))
	}
	return out
}

func recordMap(s *receipt.Snapshot) map[string]receipt.Record {
	m := make(map[string]receipt.Record, len(s.Records.Items))
	for _, r := range s.Records.Items {
		m[r.ID] = r
	}
	return m
}

// setDiff describes what was added to and removed from a to make b.
func setDiff(a, b []string) string {
	added, removed := minus(b, a), minus(a, b)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(clipList(added), " "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(clipList(removed), " "))
	}
	return strings.Join(parts, ", ")
}

// minus returns the elements of a that are not in b, in a's order.
func minus(a, b []string) []string {
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
		if !sameJSON(a[k], b[k]) {
			changed = append(changed, k)
		}
	}
	sort.Strings(changed)
	return "keys changed: " + strings.Join(clipList(changed), " ")
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// clipList keeps evidence lists short.
func clipList(ids []string) []string {
	const max = 10
	if len(ids) <= max {
		return ids
	}
	return append(slices.Clone(ids[:max]), fmt.Sprintf("(+%d more)", len(ids)-max))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// receiptEvidence is the receipt as evidence, in canonical JSON.
func receiptEvidence(label string, r *receipt.Receipt) Evidence {
	if r == nil {
		return Evidence{Label: label, Text: "<no receipt>"}
	}
	b, err := receipt.CanonicalJSON(r)
	if err != nil {
		return Evidence{Label: label, Text: r.GomegaString()}
	}
	return Evidence{Label: label, Text: clip(strings.TrimSpace(string(b)), maxEvidence)}
}

// maxEvidence bounds one piece of evidence; a report stays readable and a
// hostile page cannot make it huge.
const maxEvidence = 8 << 10

// snapshotEvidence is a snapshot as evidence, bounded.
func snapshotEvidence(label string, s *receipt.Snapshot) Evidence {
	b, err := receipt.CanonicalJSON(s)
	if err != nil {
		return Evidence{Label: label, Text: err.Error()}
	}
	return Evidence{Label: label, Text: clip(strings.TrimSpace(string(b)), maxEvidence)}
}

func textEvidence(label string, lines ...string) Evidence {
	return Evidence{Label: label, Text: clip(strings.Join(lines, "\n"), maxEvidence)}
}

// got describes how r ended, for "want X, got Y" sentences.
func got(r *receipt.Receipt) string {
	if r == nil {
		return "no receipt"
	}
	if r.Result.OK {
		return "it succeeded"
	}
	return fmt.Sprintf("it failed with %s at phase %s", r.Code(), r.FailurePhase())
}
