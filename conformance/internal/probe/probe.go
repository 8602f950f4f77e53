package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Probe is one check's view of the run: it opens fresh pages over one
// transport and records every receipt it gets.
type Probe struct {
	s         *Session
	Transport glasstest.Transport
	pages     []*glasstest.Page
}

// Base is the page model as the run first saw it.
func (p *Probe) Base() *receipt.Snapshot { return p.s.base }

// Manifest is the run's manifest (empty without one).
func (p *Probe) Manifest() *manifest.Manifest { return p.s.cfg.Manifest }

// Open opens ref (resolved against the target URL; "" is the target) in a
// fresh page: a new browser context, or a page of the run's pool whose
// storage was cleared (glasstest.PagePool).
func (p *Probe) Open(ref string, opts ...glasstest.PageOption) (*Page, error) {
	u, err := p.s.resolve(ref)
	if err != nil {
		return nil, err
	}
	// The run's own bound first: a page option the run was given (the
	// mutation matrix's) or the probe's wins.
	all := append([]glasstest.PageOption{glasstest.Via(p.Transport), glasstest.Timeout(p.s.cfg.CallTimeout)}, p.s.openOptions()...)
	all = append(append(all, p.s.hostOptions()...), opts...)
	g, err := glasstest.OpenPage(p.s.browser, u, all...)
	p.s.noteOpen(err)
	if err != nil {
		return nil, err
	}
	return p.own(g), nil
}

// own makes g one of the probe's pages, closed with it.
func (p *Probe) own(g *glasstest.Page) *Page {
	p.pages = append(p.pages, g)
	return &Page{Harness: g, p: p, n: p.s.pageNumber(), docs: g.Navigations()}
}

// openRead opens the target in a fresh page for a probe that reads the
// page (its snapshot, DOM and rendered page) before anything else,
// as a refusal does: the first such probe with no options of its own
// over the set-up's transport gets the set-up's page, which the set-up
// only read (Session.takeSpare); what a read leaves, the probe's own
// first read would have left.
func (p *Probe) openRead(opts ...glasstest.PageOption) (*Page, error) {
	if len(opts) == 0 {
		if g := p.s.takeSpare(p.Transport); g != nil {
			return p.own(g), nil
		}
	}
	return p.Open("", opts...)
}

// release takes pg from the pages p closes.
func (p *Probe) release(pg *Page) {
	p.pages = slices.DeleteFunc(p.pages, func(g *glasstest.Page) bool { return g == pg.Harness })
}

// Close closes pg before its probe ends, giving its browser page back to
// the run's pool for the next open: a probe that is done with a page
// closes it, so that the pages it opens one after another share a few
// browser contexts instead of holding one each until the check ends.
func (pg *Page) Close() {
	pg.p.release(pg)
	_ = pg.Harness.Close()
}

// Close closes every page the probe opened.
func (p *Probe) Close() {
	for _, g := range p.pages {
		_ = g.Close()
	}
	p.pages = nil
}

func (s *Session) resolve(ref string) (string, error) {
	if ref == "" {
		return s.url, nil
	}
	base, err := url.Parse(s.url)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return base.ResolveReference(r).String(), nil
}

// Page is one fresh page of a probe.
type Page struct {
	Harness *glasstest.Page
	p       *Probe
	// n tells the run's pages apart (Seen.Page).
	n int
	// navigated is the id of the call on the page that loaded a new
	// document (its receipt PAGE_NAVIGATED, written by the host, or the
	// page left as the call ended): the page has left the document the
	// probe opened, and what reads it says so (*NavigatedError).
	navigated string
	// lastCall is the id the page's last call named; docs is the count of
	// the page's navigations (glasstest.Page.Navigations) while it shows
	// the document the probe opened or reloaded.
	lastCall string
	docs     int
}

// Navigated is the *NavigatedError of a page that has left the document
// the probe opened — a call of which loaded a new one, during the call or
// as it ended — else nil.
func (pg *Page) Navigated() error {
	if pg.navigated == "" && pg.Harness.Navigations() != pg.docs {
		pg.navigated = pg.lastCall
		if pg.navigated == "" {
			pg.navigated = noCall
		}
	}
	if pg.navigated != "" {
		return &NavigatedError{Action: pg.navigated}
	}
	return nil
}

// noCall stands for the call in a NavigatedError of a page that loaded a
// new document before any call was made on it.
const noCall = "\x00"

// Snapshot is the runtime's snapshot of the page (glasstest's
// TrySnapshot), or the page's *NavigatedError.
func (pg *Page) Snapshot() (*receipt.Snapshot, error) {
	if err := pg.Navigated(); err != nil {
		return nil, err
	}
	snap, err := pg.Harness.TrySnapshot()
	if nav := pg.afterRead(err); nav != nil {
		return nil, nav
	}
	return snap, err
}

// afterRead is Navigated after a read that ended with err: a read a load
// broke before the page counted it (a form's post) is the navigation too.
func (pg *Page) afterRead(err error) error {
	if err != nil && pg.navigated == "" && strings.Contains(err.Error(), glasstest.ErrPageNavigated.Error()) {
		pg.navigated = max(pg.lastCall, noCall)
	}
	return pg.Navigated()
}

// Evaluate runs script in the page (glasstest's Evaluate), or gives the
// page's *NavigatedError.
func (pg *Page) Evaluate(script string, arg any) (any, error) {
	if err := pg.Navigated(); err != nil {
		return nil, err
	}
	v, err := pg.Harness.Evaluate(script, arg)
	if nav := pg.afterRead(err); nav != nil {
		return nil, nav
	}
	return v, err
}

// CallErr is err, the error of a raw call of id on the page (through the
// runtime's global or a WebMCP tool, not Do), as a *NavigatedError when the
// page navigated away during it, which the page remembers (afterRead).
func (pg *Page) CallErr(id string, err error) error {
	pg.lastCall = id
	if errors.Is(err, glasstest.ErrCallTimeout) {
		pg.p.s.noteStall(id)
	}
	if nav := pg.afterRead(err); err != nil && nav != nil {
		return nav
	}
	return err
}

// noteNavigated remembers a call of id on the page that loaded a new
// document.
func (pg *Page) noteNavigated(id string, r *receipt.Receipt, byRuntime bool) {
	pg.lastCall = id
	if !byRuntime && r.Code() == receipt.CodePageNavigated && pg.navigated == "" {
		pg.navigated = id
	}
}

// Reload loads the page again through Playwright, bounded by the run's
// call timeout (a page whose pagehide handler never returns would
// otherwise hold it for Playwright's own default of 30 seconds).
func (pg *Page) Reload() error {
	ms := float64(pg.p.CallTimeout().Milliseconds())
	before := pg.Harness.Navigations()
	_, err := pg.Harness.Playwright().Reload(playwright.PageReloadOptions{Timeout: &ms})
	if err == nil && pg.navigated == "" {
		// The probe's own load: the document it shows now is the one it
		// reads, once the page has counted it (the count follows an event
		// that Reload's return need not wait for).
		for deadline := time.Now().Add(time.Second); pg.Harness.Navigations() == before && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		pg.docs = pg.Harness.Navigations()
	}
	return err
}

// Do calls id and records the receipt in the run: the runtime's own
// answer (see Answered).
func (pg *Page) Do(id string, args any, opts ...glasstest.CallOption) *receipt.Receipt {
	r, _ := pg.DoAnswered(id, args, opts...)
	return r
}

// DoAnswered is Do, and whether the runtime wrote the receipt (false: the
// harness wrote it for a failure of its own, or as a WebMCP client that
// stopped before calling a tool).
func (pg *Page) DoAnswered(id string, args any, opts ...glasstest.CallOption) (*receipt.Receipt, bool) {
	h := pg.Harness.Do(id, args, pg.p.callOptions(id, opts)...)
	r, byRuntime := pg.Answered(h)
	pg.noteNavigated(id, r, byRuntime)
	if !byRuntime && r.Code() == receipt.CodeCallTimeout {
		pg.p.s.noteStall(id) // Stalled
	}
	a, declared := pg.p.Base().Action(id)
	sn := Seen{Receipt: r, Action: a, Declared: declared, Transport: pg.p.Transport, What: id, ByRuntime: byRuntime, Page: pg.n, Tickets: pg.tickets()}
	if byRuntime && h.Code() == receipt.CodeExecutionMismatch {
		sn.Issued = h.ExecutionID
	}
	pg.p.s.record(sn)
	return r, byRuntime
}

// Resume resumes handle and records the receipt in the run, as the
// resume of flow (the zero ActionInfo when the handle names no flow the
// probe knows).
func (pg *Page) Resume(handle string, flow receipt.ActionInfo, opts ...glasstest.CallOption) *receipt.Receipt {
	h := pg.Harness.Resume(handle, pg.p.callOptions(flow.ID, opts)...)
	r, byRuntime := pg.Answered(h)
	pg.noteNavigated(flow.ID, r, byRuntime)
	if !byRuntime && r.Code() == receipt.CodeCallTimeout {
		pg.p.s.noteStall(flow.ID) // Stalled
	}
	sn := Seen{Receipt: r, Action: flow, Declared: flow.ID != "", Transport: pg.p.Transport, What: "resume " + handle, ByRuntime: byRuntime, Page: pg.n, Tickets: pg.tickets()}
	if byRuntime && h.Code() == receipt.CodeExecutionMismatch {
		sn.Issued = h.ExecutionID
	}
	pg.p.s.record(sn)
	return r
}

// tickets are the tickets of the approvals the host has given on the
// page, each with the executionId of the request it answered.
func (pg *Page) tickets() map[string]string {
	out := map[string]string{}
	for _, c := range pg.Harness.Confirmations() {
		if c.Approved && c.Ticket != "" {
			out[c.Ticket] = c.Request.ExecutionID
		}
	}
	return out
}

// RuntimeAnswer is the runtime's own receipt behind r (see Answered).
func (pg *Page) RuntimeAnswer(r *receipt.Receipt) *receipt.Receipt {
	a, _ := pg.Answered(r)
	return a
}

// Answered is the runtime's own receipt behind r: the checks judge the
// runtime, not what the host made of its answer (a receipt of another
// execution refused, available actions added). byRuntime is false when
// the runtime gave no receipt and r is the harness's own: the checks of
// runtime rules do not judge it as the runtime's.
func (pg *Page) Answered(r *receipt.Receipt) (answer *receipt.Receipt, byRuntime bool) {
	if answer, ok := pg.Harness.Answer(r); ok {
		return answer, true
	}
	return r, false
}

// Witness is the page as the harness sees it, independently of any
// receipt: the runtime's snapshot, the DOM and the rendered page.
type Witness struct {
	Snap *receipt.Snapshot
	DOM  DOMState
	// Rendered is what the page shows (pagewatch.Rendered).
	Rendered string
}

// DOMState is what the DOM witness reads of the page.
type DOMState struct {
	HTML     string `json:"html"`
	Elements int    `json:"elements"`
	// Text is the page's text outside live regions (toasts and status
	// lines announce changes; they are not the content that changed).
	Text string `json:"text"`
	// Controls is the live state of form controls (value, checked), which
	// innerHTML does not show.
	Controls string `json:"controls"`
}

// Witness reads the page; the rendered page, the costliest part, only
// when rendered is true and the page changes nothing by itself
// (SelfChanging, whose elements the DOM's reading leaves out).
func (pg *Page) Witness(rendered bool) (*Witness, error) {
	snap, err := pg.Snapshot()
	if err != nil {
		return nil, err
	}
	w := &Witness{Snap: snap}
	masks := pg.p.SelfChanging()
	v, err := pg.Evaluate(pagewatch.DOM, masks)
	if err != nil {
		return nil, fmt.Errorf("read the DOM: %w", err)
	}
	text, _ := v.(string)
	if err := json.Unmarshal([]byte(text), &w.DOM); err != nil {
		return nil, fmt.Errorf("read the DOM: %w", err)
	}
	if !rendered || len(masks) > 0 {
		return w, nil
	}
	tree, err := pg.Harness.EvaluateIsolated(pg.Probe().CallTimeout(), pagewatch.Rendered)
	if err != nil {
		return nil, fmt.Errorf("read the rendered page: %w", err)
	}
	w.Rendered, _ = tree.(string)
	return w, nil
}

func (d DOMState) hash() string {
	h := sha256.Sum256([]byte(d.HTML))
	return hex.EncodeToString(h[:8])
}

// StableWitness takes the witness before a call: a full witness, then a
// second reading of the DOM. If the two differ, or the page changes its
// whole body by itself (SelfChanging), its DOM cannot witness the call;
// dom is then false.
func (pg *Page) StableWitness(rendered bool) (w *Witness, dom bool, err error) {
	w, err = pg.Witness(rendered)
	if err != nil {
		return nil, false, err
	}
	masks := pg.p.SelfChanging()
	v, err := pg.Evaluate(pagewatch.DOM, masks)
	if err != nil {
		return nil, false, fmt.Errorf("read the DOM: %w", err)
	}
	var again DOMState
	text, _ := v.(string)
	return w, !pagewatch.BodyMasked(masks) && json.Unmarshal([]byte(text), &again) == nil && again.HTML == w.DOM.HTML, nil
}

// Unchanged compares two witnesses and describes every difference: in the
// page model (from the runtime's own snapshots), in the DOM and in the
// rendered page. With domWitness false only the model is compared.
func Unchanged(before, after *Witness, domWitness bool) []string {
	var out []string
	for _, d := range judge.ModelDiff(before.Snap, after.Snap) {
		// A revision that moved with nothing else is envelope.revision's
		// concern, not a side effect.
		if !strings.HasPrefix(d, "revision ") {
			out = append(out, "page model: "+d)
		}
	}
	if !domWitness {
		return out
	}
	if before.DOM.HTML != after.DOM.HTML {
		out = append(out, fmt.Sprintf("DOM: body changed (hash %s → %s, %d → %d elements)",
			before.DOM.hash(), after.DOM.hash(), before.DOM.Elements, after.DOM.Elements))
	}
	if before.DOM.Controls != after.DOM.Controls {
		out = append(out, "DOM: a form control's value changed: "+judge.FirstDifference(before.DOM.Controls, after.DOM.Controls))
	}
	if before.Rendered != after.Rendered && before.Rendered != "" && after.Rendered != "" {
		out = append(out, "rendered page: "+judge.FirstDifference(before.Rendered, after.Rendered))
	}
	return out
}

// Sibling is a probe of the same run over transport tr, with pages of its
// own: a check closes it when the probes it makes are done.
func (p *Probe) Sibling(tr glasstest.Transport) *Probe { return &Probe{s: p.s, Transport: tr} }

// Memo computes fn once per run for key, whichever check asks first, and
// shares the result (see Session.memo).
func (p *Probe) Memo(key string, fn func() (any, error)) (any, error) { return p.s.memo(key, fn) }

// Record keeps a receipt the check got outside Page.Do in the run, for the
// audits.
func (p *Probe) Record(sn Seen) { p.s.record(sn) }

// SeenReceipts is every receipt of the run over p's transport so far.
func (p *Probe) SeenReceipts() []Seen { return p.s.seenReceipts(p.Transport) }

// SentReceipts is SeenReceipts less those the runtime never sent (Sent).
func (p *Probe) SentReceipts() []Seen {
	return slices.DeleteFunc(p.SeenReceipts(), func(sn Seen) bool { return !sn.Sent() })
}

// CallTimeout bounds each call a probe makes.
func (p *Probe) CallTimeout() time.Duration { return p.s.cfg.CallTimeout }

// Global is what the set-up learned of the runtime's global.
func (p *Probe) Global() GlobalFacts { return p.s.global }

// Probe is the probe that opened the page.
func (pg *Page) Probe() *Probe { return pg.p }
