// Package pagepool keeps browser pages for reuse: glasstest.PagePool. A
// Slot is a browser context and its one page, with the host channel's
// binding and the page's event handlers installed once; they act for the
// Owner of the slot now, and for none between two owners. A Pool keeps
// slots whose owners closed them, once Reset cleared what their page
// could have stored.
package pagepool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/internal/pagejs"
)

// Owner is what a slot's page reports to, and the host channel answers
// for: a glasstest page.
type Owner interface {
	HostCall(src *playwright.BindingSource, args ...any) any
	// Gone: the page crashed, or closed.
	Gone(crashed bool)
	// Taint: the page attached a frame, or its context opened another
	// page: what they stored is not Reset's to clear.
	Taint()
	// Navigation: the main frame requested a navigation (committed
	// false), or committed one.
	Navigation(committed bool)
	// ConfirmApproved: the host approved the confirmation of a call still
	// in flight (a native confirm the page opens now is then accepted).
	ConfirmApproved() bool
	// ConfirmCancelled: the page's own confirm(message) was cancelled
	// (TellCancelled).
	ConfirmCancelled(message string)
}

// Slot is a browser context and its one page.
type Slot struct {
	Context playwright.BrowserContext
	Page    playwright.Page
	// Nonce is the key the host script signs its messages with, installed
	// in the context once; every owner of the slot uses it.
	Nonce string
	// cdp is the page's DevTools session, opened at its first use under
	// cdpMu, which no event handler takes: playwright-go runs the
	// handlers on the loop that reads the session's answer.
	cdpMu sync.Mutex
	cdp   playwright.CDPSession

	mu    sync.Mutex
	owner Owner
	dead  bool
	// kept: a response the HTTP cache may answer again without the
	// server (Keeps) reached the page since the last Reset.
	kept bool
}

// New makes owner the owner of a slot over ctx and exposes the host
// channel's binding in ctx.
func New(ctx playwright.BrowserContext, binding, nonce string, owner Owner) (*Slot, error) {
	s := &Slot{Context: ctx, Nonce: nonce, owner: owner}
	if err := ctx.ExposeBinding(binding, s.hostCall); err != nil {
		return nil, fmt.Errorf("expose host channel: %w", err)
	}
	return s, nil
}

// Owner is the slot's owner now (nil between two owners).
func (s *Slot) Owner() Owner {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.owner
}

// SetOwner hands the slot to o (nil: to nobody).
func (s *Slot) SetOwner(o Owner) {
	s.mu.Lock()
	s.owner = o
	s.mu.Unlock()
}

// hostCall answers the host channel for the owner; between two owners a
// request is refused.
func (s *Slot) hostCall(src *playwright.BindingSource, args ...any) any {
	if o := s.Owner(); o != nil {
		return o.HostCall(src, args...)
	}
	b, _ := json.Marshal(pagejs.ConfirmAnswer{Reason: "the page has no owner"})
	return string(b)
}

// Attach creates the slot's page (after the tracing started, when it
// does) and installs its event handlers.
func (s *Slot) Attach() (playwright.Page, error) {
	pg, err := s.Context.NewPage()
	if err != nil {
		return nil, err
	}
	s.Page = pg
	gone := func(crashed bool) func(playwright.Page) {
		return func(playwright.Page) {
			s.mu.Lock()
			s.dead = true
			o := s.owner
			s.mu.Unlock()
			if o != nil {
				o.Gone(crashed)
			}
		}
	}
	taint := func() {
		if o := s.Owner(); o != nil {
			o.Taint()
		}
	}
	pg.OnFrameAttached(func(playwright.Frame) { taint() })
	s.Context.OnPage(func(playwright.Page) { taint() })
	pg.OnCrash(gone(true))
	pg.OnClose(gone(false))
	pg.OnRequest(func(r playwright.Request) {
		if o := s.Owner(); o != nil && r.IsNavigationRequest() && r.Frame() == pg.MainFrame() {
			o.Navigation(false)
		}
	})
	// Every response of the context (its workers' too, a service
	// worker's fetches among them).
	s.Context.OnResponse(func(r playwright.Response) {
		if Keeps(r.Request().ResourceType(), r.Status(), r.Headers()) {
			s.mu.Lock()
			s.kept = true
			s.mu.Unlock()
		}
	})
	pg.OnFrameNavigated(func(f playwright.Frame) {
		if o := s.Owner(); o != nil && f.ParentFrame() == nil {
			o.Navigation(true)
		}
	})
	// The page's own dialogs are answered as the user the host stands for
	// would, so that none blocks the page: a confirm is accepted only while
	// a call is in flight whose confirmation the host approved (the user
	// approved the operation, and the page asks again), and dismissed
	// otherwise, as Playwright does when no one answers; an alert is
	// closed, a prompt cancelled, leaving the page allowed.
	pg.OnDialog(func(d playwright.Dialog) {
		switch o := s.Owner(); d.Type() {
		case "alert", "beforeunload":
			_ = d.Accept()
		case "confirm":
			if o != nil && o.ConfirmApproved() {
				_ = d.Accept()
				return
			}
			// Recorded before the page goes on: the call's receipt comes
			// after it.
			if o != nil {
				o.ConfirmCancelled(d.Message())
			}
			_ = d.Dismiss()
		default:
			_ = d.Dismiss()
		}
	})
	return pg, nil
}

// cancelledMessageBytes bounds the page's message TellCancelled quotes.
const cancelledMessageBytes = 200

// TellCancelled writes to w, when tell, the line that says the page's own
// confirm(message) was cancelled and why: a spec whose call did nothing
// because of it then says so (docs/troubleshooting.md). The message is
// Go-quoted and cut to about 200 bytes.
func TellCancelled(tell bool, w io.Writer, message string) {
	if !tell {
		return
	}
	if len(message) > cancelledMessageBytes {
		cut := cancelledMessageBytes
		for cut > 0 && !utf8.RuneStart(message[cut]) {
			cut--
		}
		message = message[:cut] + "…"
	}
	_, _ = fmt.Fprintf(w, "glass: the page's confirm(%s) was cancelled: no call in flight had its confirmation approved by the host. An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)\n", strconv.Quote(message))
}

// Sole tells whether the slot's page is alive, alone in its context,
// without frames of its own, and still on address's origin.
func (s *Slot) Sole(address string) bool {
	s.mu.Lock()
	dead := s.dead
	s.mu.Unlock()
	return !dead && len(s.Page.Frames()) == 1 && len(s.Context.Pages()) == 1 && sameOrigin(s.Page.URL(), address)
}

func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && ua.Host == ub.Host
}

// Dead tells whether the slot's page crashed or closed.
func (s *Slot) Dead() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead
}

// ResetTimeout bounds Reset.
const ResetTimeout = 3 * time.Second

// Reset takes the page to about:blank and clears what the page at address
// could have stored: the context's cookies and permissions, every storage
// of address's origin (local and session storage, IndexedDB, caches,
// service workers), the HTTP cache when a response left data there
// (Keeps), and window.name (forget, which runs a script in the page at
// about:blank). False when a step failed or Reset took longer
// than ResetTimeout: the caller closes the context, which ends a step
// still waiting.
func (s *Slot) Reset(address string, forget func(playwright.Page) error) bool {
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	done := make(chan bool, 1)
	go func() {
		defer func() {
			if recover() != nil {
				done <- false
			}
		}()
		done <- s.clear(u.Scheme+"://"+u.Host, forget) == nil
	}()
	timer := time.NewTimer(ResetTimeout)
	defer timer.Stop()
	select {
	case ok := <-done:
		return ok
	case <-timer.C:
		return false
	}
}

func (s *Slot) clear(origin string, forget func(playwright.Page) error) error {
	ms := float64(ResetTimeout.Milliseconds())
	if _, err := s.Page.Goto("about:blank", playwright.PageGotoOptions{Timeout: &ms}); err != nil {
		return err
	}
	cdp, err := s.session()
	if err != nil {
		return err
	}
	if _, err := cdp.Send("Storage.clearDataForOrigin", map[string]any{"origin": origin, "storageTypes": "all"}); err != nil {
		return err
	}
	// The HTTP cache is no storage type of the origin's: a response one
	// load cached would otherwise answer the next load's request. It is
	// cleared when a page's response left something there the cache may
	// answer again (Keeps): clearing it costs every next load its
	// scripts' compiled code too (about 15% of a load's CPU).
	s.mu.Lock()
	kept := s.kept
	s.kept = false
	s.mu.Unlock()
	if kept {
		if _, err := cdp.Send("Network.clearBrowserCache", nil); err != nil {
			return err
		}
	}
	return errors.Join(s.Context.ClearCookies(), s.Context.ClearPermissions(), forget(s.Page))
}

// session is the slot's DevTools session, opened at its first use.
func (s *Slot) session() (playwright.CDPSession, error) {
	s.cdpMu.Lock()
	defer s.cdpMu.Unlock()
	if s.cdp == nil {
		cdp, err := s.Context.NewCDPSession(s.Page)
		if err != nil {
			return nil, err
		}
		s.cdp = cdp
	}
	return s.cdp, nil
}

// Isolated evaluates fn, the text of a function of no argument whose
// result is JSON, in a world of its own in the page's main frame: it reads
// the page's DOM, but none of the page's JavaScript (a page cannot
// replace the built-ins it calls). Unbounded: the caller bounds it.
func (s *Slot) Isolated(fn string) (any, error) {
	cdp, err := s.session()
	if err != nil {
		return nil, err
	}
	var frame struct {
		FrameTree struct {
			Frame struct {
				ID string `json:"id"`
			} `json:"frame"`
		} `json:"frameTree"`
	}
	if err := send(cdp, "Page.getFrameTree", nil, &frame); err != nil {
		return nil, err
	}
	var ctx struct {
		ID int `json:"executionContextId"`
	}
	if err := send(cdp, "Page.createIsolatedWorld", map[string]any{"frameId": frame.FrameTree.Frame.ID, "worldName": "glass-witness"}, &ctx); err != nil {
		return nil, err
	}
	var out struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := send(cdp, "Runtime.evaluate", map[string]any{"expression": "(" + fn + ")()", "contextId": ctx.ID, "returnByValue": true}, &out); err != nil {
		return nil, err
	}
	if out.Exception != nil {
		return nil, fmt.Errorf("isolated evaluate: %s %s", out.Exception.Text, out.Exception.Exception.Description)
	}
	return out.Result.Value, nil
}

// send sends a DevTools command and decodes its answer into out.
func send(cdp playwright.CDPSession, method string, params map[string]any, out any) error {
	res, err := cdp.Send(method, params)
	if err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// Keeps tells whether the HTTP cache may keep a response, of a request of
// resourceType (Playwright's names) answered with status, for a later
// load: without no-store, a permanent redirect or a 300 or 410 (which a
// browser keeps with no header saying so), and any response whose headers
// (lower-case names) give a freshness or a validator, but for a script, a
// style sheet, a font or an image. Those are what a returning visitor's
// browser keeps too, and a page's state is seldom in them (a script a
// server writes for each request, with a freshness, would carry one
// probe's data into the next: docs/conformance.md); a document, a fetch
// or an XHR the cache answered again would.
func Keeps(resourceType string, status int, headers map[string]string) bool {
	cc, ok := headers["cache-control"]
	if strings.Contains(strings.ToLower(cc), "no-store") {
		return false
	}
	switch status {
	case 300, 301, 308, 410:
		return true
	}
	switch resourceType {
	case "script", "stylesheet", "font", "image":
		return false
	}
	if ok {
		return true
	}
	for _, h := range []string{"expires", "last-modified", "etag"} {
		if _, ok := headers[h]; ok {
			return true
		}
	}
	return false
}

// Pool keeps slots by key. Safe for concurrent use.
type Pool struct {
	mu     sync.Mutex
	idle   map[any][]*Slot
	closed bool
}

// Take returns a kept slot for key, or nil.
// A kept page whose renderer died while it waited is closed, not taken.
func (p *Pool) Take(key any) *Slot {
	p.mu.Lock()
	defer p.mu.Unlock()
	for slots := p.idle[key]; len(slots) > 0; slots = p.idle[key] {
		s := slots[len(slots)-1]
		p.idle[key] = slots[:len(slots)-1]
		if !s.Dead() {
			return s
		}
		go s.Context.Close()
	}
	return nil
}

// Put keeps s for key; false when the pool is closed (the caller closes
// the slot's context).
func (p *Pool) Put(key any, s *Slot) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	if p.idle == nil {
		p.idle = map[any][]*Slot{}
	}
	p.idle[key] = append(p.idle[key], s)
	return true
}

// Close closes every context the pool keeps; a slot put later is not
// kept.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	var errs []error
	for _, slots := range idle {
		for _, s := range slots {
			errs = append(errs, s.Context.Close())
		}
	}
	return errors.Join(errs...)
}
