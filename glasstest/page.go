package glasstest

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/internal/browser"
	"github.com/glassworks/glass/internal/evidence"
	"github.com/glassworks/glass/internal/hostlog"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/internal/pagepool"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// MaxReceiptBytes is the largest receipt the harness accepts; a bigger one
// is refused in the page, before it crosses to Go, as RECEIPT_INVALID.
const MaxReceiptBytes = receipt.MaxReceiptBytes

// MaxReceiptDepth is the deepest nesting of objects and arrays the harness
// accepts in a receipt or snapshot (receipt.MaxReceiptDepth).
const MaxReceiptDepth = receipt.MaxReceiptDepth

// Page is one page of the app under test in its own browser context: the
// harness plays the agent runtime around the page's runtime.
type Page struct {
	pw      playwright.Page
	context playwright.BrowserContext
	browser *Browser
	// slot holds the context and page; with a pool (Reuse) other Pages
	// own it before and after this one.
	slot     *pagepool.Slot
	url      string
	settings settings
	protocol string

	// fail reports a harness error that is not a receipt (Snapshot's).
	fail func(error)

	crashed chan struct{}
	closed  chan struct{}
	once    struct{ crash, close, closeContext sync.Once }

	// nonce is the key that signs the host channel's own messages, and
	// channel tells them from a page script's (pagejs.Channel).
	nonce   string
	channel pagejs.Channel
	// evidence is set by Open: what to keep when the spec fails.
	evidence *specEvidence
	// host is the record of the host channel: every confirmation and
	// hand-off request, the tickets of approvals (it has its own lock).
	hostLog hostlog.Log
	// Guarded by mu: the spec's own failures during a call by execution
	// (a panicking callback, arguments that cannot be sent), whether the
	// trace was saved.
	failures     map[string]error
	traceStopped bool
	secretValues map[string]bool

	mu      sync.Mutex
	pending map[string]*pendingCall
	// calls maps every receipt Do and Resume returned, and the runtime's
	// own answer behind it, to the call the host issued.
	calls map[*receipt.Receipt]issuedCall
	// navRequested is set by a navigation request of the main frame and
	// turned into a navigation when the frame commits it: a same-document
	// URL change (pushState, a new fragment) makes no request and is no
	// navigation away.
	navRequested bool
	receipts     []*receipt.Receipt
	snapshots    []*receipt.Snapshot
	navigations  int
	// tainted (Playwright was called) and unhealthy (a call timed out)
	// keep the page out of its pool.
	tainted, unhealthy atomic.Bool
	// inflight counts the bounded calls not yet returned from Playwright.
	inflight atomic.Int32
	// loaded is navigations once the page loaded.
	loaded int
}

type pendingCall struct {
	id       string
	action   string
	settings settings
}

// OpenPage opens url in a fresh browser context of b and waits for the page
// runtime to be ready. It is the error-returning form of Open, for code
// that does not run inside a Ginkgo spec.
func OpenPage(b *Browser, url string, opts ...PageOption) (*Page, error) {
	p, err := openPage(b, url, opts...)
	return p, pagejs.Printable(err)
}

func openPage(b *Browser, url string, opts ...PageOption) (*Page, error) {
	if !browser.Started(b) {
		return nil, errors.New("glasstest: open: no browser")
	}
	s := defaults().forPage(opts)
	p := &Page{
		browser:  b,
		url:      url,
		settings: s,
		crashed:  make(chan struct{}),
		closed:   make(chan struct{}),
		pending:  map[string]*pendingCall{},
		calls:    map[*receipt.Receipt]issuedCall{},
		failures: map[string]error{},
		nonce:    hostlog.NewID("k_") + hostlog.NewID("") + hostlog.NewID(""), // the host channel's key: 144 bits
		fail:     func(error) {},
	}
	if !pooled(s) {
		p.settings.pool = nil
	} else if sl := s.pool.pool.Take(keyOf(b, s)); sl != nil {
		// A kept page: its context has the host channel with its nonce.
		p.slot, p.context, p.pw, p.nonce = sl, sl.Context, sl.Page, sl.Nonce
		sl.SetOwner((*slotOwner)(p))
		if err := p.load(); err != nil {
			_ = sl.Context.Close()
			return nil, err
		}
		return p, nil
	}
	ctx, err := b.NewContext()
	if err != nil {
		return nil, fmt.Errorf("glasstest: open %q: new context: %w", url, err)
	}
	p.context = ctx
	sl, err := pagepool.New(ctx, pagejs.Binding, p.nonce, (*slotOwner)(p))
	if err == nil {
		p.slot = sl
		err = p.host().beforeScripts(p)
	}
	if err == nil && s.trace {
		err = evidence.StartTrace(ctx)
	}
	if err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("glasstest: open %q: %w", url, err)
	}
	if p.pw, err = sl.Attach(); err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("glasstest: open %q: new page: %w", url, err)
	}
	if err := p.load(); err != nil {
		_ = ctx.Close()
		return nil, err
	}
	return p, nil
}

// load navigates p's page to its address and waits for the runtime.
func (p *Page) load() error {
	timeout := float64(p.settings.openTimeout.Milliseconds())
	if _, err := p.pw.Goto(p.url, playwright.PageGotoOptions{Timeout: &timeout}); err != nil {
		return fmt.Errorf("glasstest: open %q: %w", p.url, err)
	}
	if err := p.host().afterLoad(p); err != nil {
		return fmt.Errorf("glasstest: open %q: install host channel: %w", p.url, err)
	}
	v, err := p.evaluate(p.settings.openTimeout, pagejs.Ready, nil)
	if errors.Is(err, ErrCallTimeout) { // the runtime is there: ready() never resolved
		return fmt.Errorf("glasstest: open %q: wait for the page runtime: %w: glassRuntime.ready() did not resolve: does the page call glassRuntime.define? (docs/troubleshooting.md, \"A runtime that never becomes ready\")", p.url, err)
	} else if err != nil {
		return fmt.Errorf("glasstest: open %q: wait for the page runtime: %w", p.url, err)
	}
	p.protocol, _ = v.(string)
	p.mu.Lock()
	p.loaded = p.navigations
	p.mu.Unlock()
	return nil
}

// installChannels installs glassHost before any page script runs.
func installChannels(p *Page) error {
	script := p.hostScript()
	if err := p.context.AddInitScript(playwright.Script{Content: &script}); err != nil {
		return fmt.Errorf("install host channel: %w", err)
	}
	return nil
}

func (p *Page) hostScript() string {
	return pagejs.HostScript(p.nonce, p.settings.policy.kind != policyNoChannel, !p.settings.noHandoff)
}

// Close closes the page's browser context (or gives its page back to the
// pool it was opened with, see Reuse). Closing twice does nothing.
func (p *Page) Close() error {
	var err error
	p.once.closeContext.Do(func() {
		if p.takeTrace() { // a trace saved by no one is discarded, not left behind
			_ = evidence.DiscardTrace(p.context)
		}
		var cerr error
		if p.settings.pool != nil {
			cerr = p.recycle()
		} else {
			cerr = p.context.Close()
		}
		if cerr != nil {
			err = fmt.Errorf("glasstest: close %q: %w", p.url, cerr)
		}
	})
	return err
}

// Playwright returns the underlying Playwright page, for acting as the user
// or for assertions Glass does not cover.
func (p *Page) Playwright() playwright.Page {
	p.tainted.Store(true) // nothing tells what the caller changes: not kept
	return p.pw
}

// URL is the address the page was opened at.
func (p *Page) URL() string { return p.url }

// Receipts returns every receipt this page produced, in order.
func (p *Page) Receipts() []*receipt.Receipt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*receipt.Receipt(nil), p.receipts...)
}

// Confirmations returns every confirmation request the host received.
func (p *Page) Confirmations() []ConfirmationRecord { return p.hostLog.Confirmations() }

// CancelledConfirms returns the messages of the page's own confirm()
// dialogs the host cancelled, in order, as the page wrote them (docs/troubleshooting.md).
func (p *Page) CancelledConfirms() []string { return p.hostLog.Cancelled() }

// onHostCall answers the runtime's requests on the host channel.
func (p *Page) onHostCall(_ *playwright.BindingSource, args ...any) any {
	answer := func(v any) any {
		b, _ := json.Marshal(v)
		return string(b)
	}
	if len(args) != 1 {
		return answer(pagejs.ConfirmAnswer{Reason: "malformed host request"})
	}
	text, _ := args[0].(string)
	var msg pagejs.HostMessage
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		return answer(pagejs.ConfirmAnswer{Reason: "malformed host request"})
	}
	// A message the host script did not sign came from a page script
	// calling the raw binding: it is recorded (confirm) and refused.
	if !p.channel.Accept(msg, p.nonce) {
		return answer(p.refuseRaw(msg))
	}
	switch msg.Type {
	case "confirm":
		var req ConfirmRequest
		if err := json.Unmarshal(msg.Request, &req); err != nil {
			return answer(pagejs.ConfirmAnswer{Reason: "malformed confirmation request"})
		}
		return answer(p.confirm(req))
	case "handoff":
		return answer(p.handoff(msg.Request))
	default:
		return answer(map[string]string{"status": "failed", "reason": "no hand-off handler"})
	}
}

// pageEventGrace is how long a failed evaluation waits for the page's
// crash or close event, which Playwright may deliver after the error.
const pageEventGrace = 300 * time.Millisecond

// fate names what happened to the page when an evaluation failed: Playwright
// reports a crash, a close or a navigation as an error of the evaluation,
// and its page events can trail that error by a moment.
func (p *Page) fate(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "Execution context was destroyed"), strings.Contains(msg, "navigation"):
		return fmt.Errorf("%w: %w", ErrPageNavigated, err)
	case strings.Contains(msg, "crash"):
		return fmt.Errorf("%w: %w", ErrPageCrashed, err)
	}
	grace := time.NewTimer(pageEventGrace)
	defer grace.Stop()
	select {
	case <-p.crashed:
		return fmt.Errorf("%w: %w", ErrPageCrashed, err)
	case <-p.closed:
		return fmt.Errorf("%w: %w", ErrPageClosed, err)
	case <-grace.C:
		return err
	}
}

// fold maps a folded row call (tool + "record") to the declared action.
func (p *Page) fold(id, argsJSON string, s settings) (string, string) {
	if strings.Contains(id, "@") || !strings.Contains(argsJSON, `"record"`) {
		return id, argsJSON
	}
	var m map[string]json.RawMessage
	var record string
	if json.Unmarshal([]byte(argsJSON), &m) != nil || json.Unmarshal(m["record"], &record) != nil || record == "" {
		return id, argsJSON
	}
	snap, err := p.trySnapshot(s.timeout)
	if err != nil {
		return id, argsJSON
	}
	if _, declared := snap.Action(id); !declared {
		if row, rest, ok := p.host().foldRow(snap, id, record, m); ok {
			return row, rest
		}
	}
	return id, argsJSON
}

// Navigations is how many times the page's main frame has committed a
// navigation to another document since the page was opened: a form that
// posted, a link followed, a reload. A same-document URL change
// (history.pushState, a new fragment) is none.
func (p *Page) Navigations() int { return p.navigationCount() }

// navigationCount is how many documents the page has navigated to since
// it was opened.
func (p *Page) navigationCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.navigations
}

// toReceipt turns what the bridge returned into a receipt: the runtime's
// own (byRuntime), or one the harness writes for a failure it saw.
func (p *Page) toReceipt(id, execID string, v any, err error, navBefore int) (r *receipt.Receipt, byRuntime bool) {
	if r := p.classify(id, execID, v, err, navBefore); r != nil {
		return r, false
	}
	return p.decodeAnswer(id, execID, v.(string))
}

// decodeAnswer decodes the JSON text of the runtime's answer.
func (p *Page) decodeAnswer(id, execID, text string) (*receipt.Receipt, bool) {
	if len(text) > MaxReceiptBytes {
		return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, fmt.Sprintf("the answer is %d bytes, over the %d-byte bound (MaxReceiptBytes)", len(text), MaxReceiptBytes)), false
	}
	r, err := receipt.DecodeAnswer([]byte(text))
	if err != nil {
		code := receipt.CodeReceiptInvalid
		if errors.Is(err, receipt.ErrOtherProtocol) {
			code = receipt.CodeProtocolMismatch
		}
		return harnessReceipt(id, execID, code, receipt.Clip(err.Error(), maxPageText)), false
	}
	return r, true
}

// classify returns the harness's receipt for a call that gave no receipt
// of the runtime's, or nil when v is the runtime's answer.
func (p *Page) classify(id, execID string, v any, err error, navBefore int) *receipt.Receipt {
	return p.host().failure(p, callFailure{id: id, execID: execID, v: v, err: err, navigated: p.navigationCount() != navBefore})
}

// failureReceipt names what went wrong with a call that gave no receipt:
// the page's fate (crashed, closed, navigated away), no answer in time, a
// runtime that is missing, speaks another protocol, throws or rejects (the
// seed: the agent runtime turns an unexpected throw into EXECUTION_FAILED,
// phase dispatch), or answers something that is no receipt.
func failureReceipt(_ *Page, f callFailure) *receipt.Receipt {
	id, execID, v, err, navigated := f.id, f.execID, f.v, f.err, f.navigated
	if err != nil {
		switch {
		case errors.Is(err, ErrPageCrashed):
			return harnessReceipt(id, execID, receipt.CodePageCrashed, "the page crashed while the call was executing")
		case errors.Is(err, ErrPageClosed):
			return harnessReceipt(id, execID, receipt.CodePageClosed, "the page was closed while the call was executing")
		case navigated, errors.Is(err, ErrPageNavigated):
			return harnessReceipt(id, execID, receipt.CodePageNavigated, "the page navigated away while the call was executing")
		case errors.Is(err, ErrCallTimeout):
			return harnessReceipt(id, execID, receipt.CodeCallTimeout, "the page did not answer: "+err.Error())
		}
		return harnessReceipt(id, execID, receipt.CodeTransportFailed, "evaluate in the page: "+pagejs.FirstLine(err.Error()))
	}
	if m, ok := pagejs.AsMarker(v); ok {
		switch m.Glass {
		case "missing":
			return harnessReceipt(id, execID, receipt.CodeRuntimeMissing, "the page has no Glass runtime (globalThis.glassRuntime)")
		case "protocol":
			return harnessReceipt(id, execID, receipt.CodeProtocolMismatch, fmt.Sprintf("the page runtime speaks %q, want %q", m.Got, receipt.Protocol))
		case "threw", "rejected":
			return harnessReceipt(id, execID, receipt.CodeExecutionFailed, m.Text())
		default:
			code := receipt.CodeReceiptInvalid
			if m.Glass == "replaced" || m.Glass == "inspect" {
				code = receipt.CodeTransportFailed
			}
			return harnessReceipt(id, execID, code, m.Text())
		}
	}
	if _, ok := v.(string); !ok {
		return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, fmt.Sprintf("the bridge returned %T, want JSON text", v))
	}
	return nil
}

// harnessReceipt is a receipt the harness writes for a failure of its own.
func harnessReceipt(id, execID string, code receipt.Code, message string) *receipt.Receipt {
	return &receipt.Receipt{
		Protocol:         receipt.Protocol,
		ExecutionID:      execID,
		Phase:            code.Phase(),
		RecoveryStrategy: receipt.RecoveryNone,
		Result: receipt.Result{
			OK:     false,
			Action: receipt.Action{ID: id},
			Error:  &receipt.Error{Code: code, Message: message, Started: code.Started()},
		},
	}
}

// Snapshot returns the page model now. A failure to read it fails the
// spec (for a page opened with Open) and returns nil.
func (p *Page) Snapshot() *receipt.Snapshot {
	s, err := p.trySnapshot(p.settings.timeout)
	if err != nil {
		p.fail(err)
		return nil
	}
	return s
}

// TrySnapshot is Snapshot's error-returning form.
func (p *Page) TrySnapshot() (*receipt.Snapshot, error) {
	return p.trySnapshot(p.settings.timeout)
}

func (p *Page) trySnapshot(timeout time.Duration) (*receipt.Snapshot, error) {
	s, err := p.readSnapshot(timeout)
	return s, pagejs.Printable(err)
}

func (p *Page) readSnapshot(timeout time.Duration) (*receipt.Snapshot, error) {
	v, err := p.evaluate(timeout, pagejs.Snapshot, []any{map[string]any{}, MaxReceiptBytes})
	if err != nil {
		return nil, fmt.Errorf("glasstest: snapshot %q: %w", p.url, err)
	}
	if m, ok := pagejs.AsMarker(v); ok {
		return nil, fmt.Errorf("glasstest: snapshot %q: %s", p.url, m.Text())
	}
	text, _ := v.(string)
	if len(text) > MaxReceiptBytes {
		return nil, fmt.Errorf("glasstest: snapshot %q: the answer is %d bytes, over the %d-byte bound (MaxReceiptBytes)", p.url, len(text), MaxReceiptBytes)
	}
	if err := receipt.CheckDepth([]byte(text)); err != nil {
		return nil, fmt.Errorf("glasstest: snapshot %q: %w", p.url, err)
	}
	if err := schema.ValidateSnapshot([]byte(text)); err != nil { // the published JSON Schema
		return nil, fmt.Errorf("glasstest: snapshot %q does not match the schema: %w", p.url, err)
	}
	s, err := receipt.DecodeSnapshot([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("glasstest: snapshot %q: %w", p.url, err)
	}
	p.mu.Lock()
	p.snapshots = append(p.snapshots, s)
	p.mu.Unlock()
	return s, nil
}
