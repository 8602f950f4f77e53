package glasstest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/receipt"
)

// MaxReceiptBytes is the largest receipt the harness accepts; a bigger one
// is refused in the page, before it crosses to Go, as RECEIPT_INVALID.
const MaxReceiptBytes = 4 << 20

const hostBinding = "__glassHostCall"

// hostScript installs the host channels before any page script runs. The
// property is neither writable nor configurable, so a page script cannot
// swap the channel for its own; an answer also carries a ticket that only
// the host can issue.
const hostScript = `(() => {
  const call = globalThis.` + hostBinding + `;
  if (typeof call !== "function" || globalThis.glassHost) return;
  const send = (type, request) => call(JSON.stringify({ type, request })).then((s) => JSON.parse(s));
  const host = { protocol: "glass.page/v1" };
  if (%s) host.confirm = (request) => send("confirm", request);
  host.handoff = (request) => send("handoff", request);
  Object.defineProperty(globalThis, "glassHost", { value: Object.freeze(host), writable: false, configurable: false, enumerable: false });
})();`

// bridgeScript calls execute (or resume) on the runtime's global and
// returns the receipt as JSON text, or a {"$glass": …} marker naming what
// went wrong on the page side.
const bridgeScript = `async ([method, id, args, options, maxBytes]) => {
  const rt = globalThis.glassRuntime;
  const mark = (kind, extra) => JSON.stringify(Object.assign({ "$glass": kind }, extra || {}));
  if (!rt || typeof rt !== "object" || typeof rt[method] !== "function") return mark("missing");
  if (rt.protocol !== "glass.page/v1") return mark("protocol", { got: String(rt.protocol).slice(0, 80) });
  let r;
  try {
    r = method === "resume" ? await rt.resume(id, options) : await rt.execute(id, args, options);
  } catch (e) {
    return mark("threw", { message: String(e && e.message ? e.message : e).slice(0, 500) });
  }
  let s;
  try {
    s = typeof r === "string" ? r : JSON.stringify(r);
  } catch (e) {
    return mark("unserializable", { message: String(e && e.message ? e.message : e).slice(0, 200) });
  }
  if (typeof s !== "string") return mark("empty");
  if (s.length > maxBytes) return mark("toolarge", { size: s.length });
  return s;
}`

const snapshotScript = `async ([options, maxBytes]) => {
  const rt = globalThis.glassRuntime;
  const mark = (kind, extra) => JSON.stringify(Object.assign({ "$glass": kind }, extra || {}));
  if (!rt || typeof rt !== "object" || typeof rt.snapshot !== "function") return mark("missing");
  if (rt.protocol !== "glass.page/v1") return mark("protocol", { got: String(rt.protocol).slice(0, 80) });
  let s;
  try {
    const v = await rt.snapshot(options);
    s = typeof v === "string" ? v : JSON.stringify(v);
  } catch (e) {
    return mark("threw", { message: String(e && e.message ? e.message : e).slice(0, 500) });
  }
  if (typeof s !== "string") return mark("empty");
  if (s.length > maxBytes) return mark("toolarge", { size: s.length });
  return s;
}`

const readyScript = `async () => {
  const rt = globalThis.glassRuntime;
  if (!rt || typeof rt !== "object") return "";
  if (typeof rt.ready === "function") await rt.ready();
  return String(rt.protocol);
}`

// Page is one page of the app under test in its own browser context: the
// harness plays the agent runtime around the page's runtime.
type Page struct {
	pw       playwright.Page
	context  playwright.BrowserContext
	url      string
	settings settings
	protocol string

	// fail reports a harness error that is not a receipt (Snapshot's).
	fail func(error)

	crashed chan struct{}
	closed  chan struct{}
	once    struct{ crash, close sync.Once }

	mu            sync.Mutex
	pending       map[string]*pendingCall
	confirmations []ConfirmationRecord
	receipts      []*receipt.Receipt
	snapshots     []*receipt.Snapshot
	handoffs      []HandoffRecord
	navigations   int
}

type pendingCall struct {
	id       string
	action   string
	settings settings
}

// ConfirmationRecord is one confirmation request the host received and how
// it answered. Solicited is false when the request named no call the
// harness had in flight (a page asking on its own behalf): such requests
// are always denied.
type ConfirmationRecord struct {
	Request   ConfirmRequest
	Approved  bool
	Ticket    string
	Solicited bool
}

// OpenPage opens url in a fresh browser context of b and waits for the page
// runtime to be ready. It is the error-returning form of Open, for code
// that does not run inside a Ginkgo spec.
func OpenPage(b *Browser, url string, opts ...Option) (*Page, error) {
	if b == nil || b.browser == nil {
		return nil, errors.New("glasstest: open: no browser")
	}
	s := defaults().with(opts)
	ctx, err := b.browser.NewContext(playwright.BrowserNewContextOptions{})
	if err != nil {
		return nil, fmt.Errorf("glasstest: open %q: new context: %w", url, err)
	}
	p := &Page{
		context:  ctx,
		url:      url,
		settings: s,
		crashed:  make(chan struct{}),
		closed:   make(chan struct{}),
		pending:  map[string]*pendingCall{},
		fail:     func(error) {},
	}
	if err := p.install(); err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("glasstest: open %q: %w", url, err)
	}
	pg, err := ctx.NewPage()
	if err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("glasstest: open %q: new page: %w", url, err)
	}
	p.pw = pg
	pg.OnCrash(func(playwright.Page) { p.once.crash.Do(func() { close(p.crashed) }) })
	pg.OnClose(func(playwright.Page) { p.once.close.Do(func() { close(p.closed) }) })
	pg.OnFrameNavigated(func(f playwright.Frame) {
		if f.ParentFrame() == nil {
			p.mu.Lock()
			p.navigations++
			p.mu.Unlock()
		}
	})
	timeout := float64(s.openTimeout.Milliseconds())
	if _, err := pg.Goto(url, playwright.PageGotoOptions{Timeout: &timeout}); err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("glasstest: open %q: %w", url, err)
	}
	v, err := p.evaluate(s.openTimeout, readyScript, nil)
	if err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("glasstest: open %q: wait for the page runtime: %w", url, err)
	}
	p.protocol, _ = v.(string)
	return p, nil
}

func (p *Page) install() error {
	if err := p.context.ExposeBinding(hostBinding, p.onHostCall); err != nil {
		return fmt.Errorf("expose host channel: %w", err)
	}
	withConfirm := "true"
	if p.settings.policy.kind == policyNoChannel {
		withConfirm = "false"
	}
	script := fmt.Sprintf(hostScript, withConfirm)
	if err := p.context.AddInitScript(playwright.Script{Content: &script}); err != nil {
		return fmt.Errorf("install host channel: %w", err)
	}
	return nil
}

// Close closes the page's browser context.
func (p *Page) Close() error {
	if err := p.context.Close(); err != nil {
		return fmt.Errorf("glasstest: close %q: %w", p.url, err)
	}
	return nil
}

// Playwright returns the underlying Playwright page, for acting as the user
// or for assertions Glass does not cover.
func (p *Page) Playwright() playwright.Page { return p.pw }

// URL is the address the page was opened at.
func (p *Page) URL() string { return p.url }

// Receipts returns every receipt this page produced, in order.
func (p *Page) Receipts() []*receipt.Receipt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*receipt.Receipt(nil), p.receipts...)
}

// Confirmations returns every confirmation request the host received.
func (p *Page) Confirmations() []ConfirmationRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]ConfirmationRecord(nil), p.confirmations...)
}

func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

type hostMessage struct {
	Type    string          `json:"type"`
	Request json.RawMessage `json:"request"`
}

type confirmAnswer struct {
	Approved bool   `json:"approved"`
	Ticket   string `json:"ticket,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// onHostCall answers the runtime's requests on the host channel.
func (p *Page) onHostCall(_ *playwright.BindingSource, args ...any) any {
	answer := func(v any) any {
		b, _ := json.Marshal(v)
		return string(b)
	}
	if len(args) != 1 {
		return answer(confirmAnswer{Reason: "malformed host request"})
	}
	text, _ := args[0].(string)
	var msg hostMessage
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		return answer(confirmAnswer{Reason: "malformed host request"})
	}
	switch msg.Type {
	case "confirm":
		var req ConfirmRequest
		if err := json.Unmarshal(msg.Request, &req); err != nil {
			return answer(confirmAnswer{Reason: "malformed confirmation request"})
		}
		return answer(p.confirm(req))
	case "handoff":
		return answer(p.handoff(msg.Request))
	default:
		return answer(map[string]string{"status": "failed", "reason": "no hand-off handler"})
	}
}

func (p *Page) confirm(req ConfirmRequest) confirmAnswer {
	p.mu.Lock()
	call := p.pending[req.ExecutionID]
	if call != nil && call.action != req.Action {
		call = nil
	}
	p.mu.Unlock()
	rec := ConfirmationRecord{Request: req, Solicited: call != nil}
	var ans confirmAnswer
	switch {
	case call == nil:
		ans.Reason = "no call of the host is waiting for this confirmation"
	case call.settings.policy.kind == policyNoChannel:
		ans.Reason = "no confirmation channel"
	case call.settings.policy.kind == policyApprove:
		ans.Approved = true
	case call.settings.policy.kind == policyFunc:
		ans.Approved = call.settings.policy.fn(req)
	}
	if ans.Approved {
		ans.Ticket = newID("tk_")
	} else if ans.Reason == "" {
		ans.Reason = "denied by the user"
	}
	rec.Approved, rec.Ticket = ans.Approved, ans.Ticket
	p.mu.Lock()
	p.confirmations = append(p.confirmations, rec)
	p.mu.Unlock()
	return ans
}

// evaluate runs script with arg in the page, bounded by timeout and by the
// page's fate: a crash, a close or a navigation ends the wait at once.
func (p *Page) evaluate(timeout time.Duration, script string, arg any) (any, error) {
	type out struct {
		v   any
		err error
	}
	ch := make(chan out, 1)
	go func() {
		v, err := p.pw.Evaluate(script, arg)
		ch <- out{v, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case o := <-ch:
		return o.v, o.err
	case <-p.crashed:
		return nil, errPageCrashed
	case <-p.closed:
		return nil, errPageClosed
	case <-timer.C:
		return nil, fmt.Errorf("%w after %s", errCallTimeout, timeout)
	}
}

var (
	errPageCrashed = errors.New("the page crashed")
	errPageClosed  = errors.New("the page was closed")
	errCallTimeout = errors.New("no answer from the page")
)

// Do calls the declared action id with args as an agent would and returns
// the decoded receipt. It never fails the spec and never panics: harness
// failures (no runtime, a crash, a time-out, a receipt that is not JSON)
// come back as receipts with phase transport or browser_effect.
//
// args is nil (no arguments), a value marshalled to JSON, or JSON text
// (string, []byte or json.RawMessage) passed to the runtime unchanged, so
// that malformed input can be tested. A call of a folded row action — id
// "remove" with args {"record": "t9"} — is mapped to the declared action
// "remove@t9" with the remaining arguments.
func (p *Page) Do(id string, args any, opts ...Option) *receipt.Receipt {
	s := p.settings.with(opts)
	r := p.do(id, args, s)
	p.mu.Lock()
	p.receipts = append(p.receipts, r)
	p.mu.Unlock()
	return r
}

func (p *Page) do(id string, args any, s settings) *receipt.Receipt {
	argsJSON, err := encodeArgs(args)
	if err != nil {
		return harnessReceipt(id, "", receipt.CodeTransportFailed, err.Error())
	}
	id, argsJSON = p.fold(id, argsJSON, s)
	execID := newID("act_")
	p.mu.Lock()
	p.pending[execID] = &pendingCall{id: execID, action: id, settings: s}
	navBefore := p.navigations
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, execID)
		p.mu.Unlock()
	}()
	options := callOptions(execID, s)
	var r *receipt.Receipt
	if s.transport == TransportWebMCP {
		r = p.doWebMCP(id, argsJSON, execID, options, s, navBefore)
	} else {
		v, err := p.evaluate(s.timeout, bridgeScript, []any{"execute", id, argsJSON, options, MaxReceiptBytes})
		r = p.toReceipt(id, execID, v, err, navBefore)
	}
	if r.Code() == receipt.CodeActionNotFound && len(r.Result.Error.Available) == 0 {
		if snap, err := p.trySnapshot(s.timeout); err == nil {
			r.Result.Error.Available = availableIDs(snap)
		}
	}
	return r
}

func availableIDs(s *receipt.Snapshot) []string {
	var ids []string
	for _, a := range s.Actions.Items {
		if a.Available {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

func encodeArgs(args any) (string, error) {
	switch a := args.(type) {
	case nil:
		return "{}", nil
	case string:
		return a, nil
	case []byte:
		return string(a), nil
	case json.RawMessage:
		return string(a), nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("glasstest: encode arguments: %w", err)
	}
	return string(b), nil
}

// fold maps a folded row call (tool + "record") to the declared action.
func (p *Page) fold(id, argsJSON string, s settings) (string, string) {
	if strings.Contains(id, "@") || !strings.Contains(argsJSON, `"record"`) {
		return id, argsJSON
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(argsJSON), &m) != nil {
		return id, argsJSON
	}
	var record string
	if json.Unmarshal(m["record"], &record) != nil || record == "" {
		return id, argsJSON
	}
	snap, err := p.trySnapshot(s.timeout)
	if err != nil {
		return id, argsJSON
	}
	if _, ok := snap.Action(id); ok {
		return id, argsJSON
	}
	for _, a := range snap.Actions.Items {
		if a.Tool == id && a.Record == record {
			delete(m, "record")
			rest, _ := json.Marshal(m)
			return a.ID, string(rest)
		}
	}
	return id, argsJSON
}

type marker struct {
	Glass   string `json:"$glass"`
	Got     string `json:"got"`
	Message string `json:"message"`
	Size    int    `json:"size"`
}

func (p *Page) toReceipt(id, execID string, v any, err error, navBefore int) *receipt.Receipt {
	p.mu.Lock()
	navigated := p.navigations != navBefore
	p.mu.Unlock()
	if err != nil {
		switch {
		case errors.Is(err, errPageCrashed):
			return harnessReceipt(id, execID, receipt.CodePageCrashed, "the page crashed while the call was executing")
		case errors.Is(err, errPageClosed):
			return harnessReceipt(id, execID, receipt.CodePageClosed, "the page was closed while the call was executing")
		case navigated:
			return harnessReceipt(id, execID, receipt.CodePageNavigated, "the page navigated away while the call was executing")
		case errors.Is(err, errCallTimeout):
			return harnessReceipt(id, execID, receipt.CodeCallTimeout, "the page did not answer: "+err.Error())
		}
		return harnessReceipt(id, execID, receipt.CodeTransportFailed, "evaluate in the page: "+firstLine(err.Error()))
	}
	text, ok := v.(string)
	if !ok {
		return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, fmt.Sprintf("the runtime returned %T, want JSON text", v))
	}
	if strings.HasPrefix(text, `{"$glass":`) {
		var m marker
		_ = json.Unmarshal([]byte(text), &m)
		switch m.Glass {
		case "missing":
			return harnessReceipt(id, execID, receipt.CodeRuntimeMissing, "the page has no Glass runtime (globalThis.glassRuntime)")
		case "protocol":
			return harnessReceipt(id, execID, receipt.CodeProtocolMismatch, fmt.Sprintf("the page runtime speaks %q, want %q", m.Got, receipt.Protocol))
		case "threw":
			r := harnessReceipt(id, execID, receipt.CodeExecutionFailed, "the runtime threw: "+m.Message)
			r.Phase = receipt.PhaseDispatch
			return r
		case "toolarge":
			return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, fmt.Sprintf("the receipt is %d bytes, over the %d-byte bound", m.Size, MaxReceiptBytes))
		default:
			return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, "the runtime returned no receipt: "+m.Glass)
		}
	}
	r, err := receipt.Decode([]byte(text))
	if err != nil {
		return harnessReceipt(id, execID, receipt.CodeReceiptInvalid, err.Error())
	}
	return r
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
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
	v, err := p.evaluate(timeout, snapshotScript, []any{map[string]any{}, MaxReceiptBytes})
	if err != nil {
		return nil, fmt.Errorf("glasstest: snapshot %q: %w", p.url, err)
	}
	text, _ := v.(string)
	if strings.HasPrefix(text, `{"$glass":`) {
		var m marker
		_ = json.Unmarshal([]byte(text), &m)
		return nil, fmt.Errorf("glasstest: snapshot %q: %s", p.url, markerMessage(m))
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

func markerMessage(m marker) string {
	switch m.Glass {
	case "missing":
		return "the page has no Glass runtime (globalThis.glassRuntime)"
	case "protocol":
		return fmt.Sprintf("the page runtime speaks %q, want %q", m.Got, receipt.Protocol)
	case "threw":
		return "the runtime threw: " + m.Message
	case "toolarge":
		return fmt.Sprintf("the answer is %d bytes, over the %d-byte bound", m.Size, MaxReceiptBytes)
	}
	return "the runtime returned nothing usable: " + m.Glass
}
