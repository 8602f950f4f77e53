package glasstest

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/glassworks/glass/internal/hostlog"

	playwright "github.com/mxschmitt/playwright-go"
)

// Handoff is one hand-off in progress. The handler plays the user: it acts
// on Page with real Playwright input (Fill, Click) and returns an outcome.
type Handoff struct {
	Request HandoffRequest

	page    playwright.Page
	expired chan struct{}
}

// Page is the page the user is asked to act on.
func (h *Handoff) Page() playwright.Page { return h.page }

// Timeout is how long the runtime waits for the user.
func (h *Handoff) Timeout() time.Duration {
	return time.Duration(h.Request.TimeoutMs) * time.Millisecond
}

// Expired is closed once the runtime's time for this hand-off has passed.
// A handler that lets the step time out waits on it and returns
// HandoffTimedOut.
func (h *Handoff) Expired() <-chan struct{} { return h.expired }

// HandoffWith plays the user for every hand-off of the page (or, as a call
// option, of one call): fn performs the step, cancels it, or lets it time
// out. Default: no handler, and the host answers every hand-off with
// failed. An outcome other than the four is answered as it is, which a
// runtime must take as failed (handoff.outcome).
//
// fn follows the rule of ConfirmWith's function: a panic in it — a failed
// Gomega assertion included, with no `defer GinkgoRecover()` needed — is
// answered to the runtime as HandoffFailed and fails the spec when the
// call returns.
func HandoffWith(fn func(*Handoff) HandoffOutcome) Option {
	return func(s *settings) { s.handoff = fn }
}

// NoHandoffChannel installs no hand-off channel at all (glassHost has no
// handoff member); the contract says a runtime must then fail a hand-off
// HANDOFF_FAILED at phase dispatch (handoff.outcome). A page option only:
// the channel is installed with the page.
func NoHandoffChannel() PageOption { return pageOnly(func(s *settings) { s.noHandoff = true }) }

// HandoffTimeout overrides how long the runtime waits for the user (the
// action declares its own, else the runtime's default of 60 s). Keep it
// below the call's Timeout.
func HandoffTimeout(d time.Duration) Option { return func(s *settings) { s.handoffTimeout = d } }

// Handoffs returns every hand-off request the host received, in order.
func (p *Page) Handoffs() []HandoffRecord { return p.hostLog.Handoffs() }

type handoffAnswer struct {
	Status HandoffOutcome `json:"status"`
	Reason string         `json:"reason,omitempty"`
}

// handoff answers the runtime's hand-off request with the handler of the
// call it belongs to. It runs on its own goroutine (playwright-go calls
// bindings that way), so the handler may drive the page while the call
// waits.
func (p *Page) handoff(raw json.RawMessage) handoffAnswer {
	var req HandoffRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return handoffAnswer{Status: HandoffFailed, Reason: "malformed hand-off request"}
	}
	p.mu.Lock()
	call := p.pending[req.ExecutionID]
	secrets := p.secretsFor(call)
	p.mu.Unlock()
	// The handler and the record see the request masked, like a
	// confirmation request: a runtime that forgets to mask a sensitive
	// value cannot leak it into the spec's handler or the evidence.
	req, hid := hostlog.MaskHandoffRequest(req, secrets)
	rec := HandoffRecord{Request: req, Solicited: call != nil, SensitiveMasked: hid}
	var ans handoffAnswer
	switch {
	case p.hostLog.HandoffsFull():
		return handoffAnswer{Status: HandoffFailed, Reason: fmt.Sprintf("the host records at most %d hand-off requests of a page", hostlog.MaxRecords)}
	case call == nil:
		ans = handoffAnswer{Status: HandoffFailed, Reason: "no call of the host is waiting for this hand-off"}
	case call.settings.handoff == nil:
		ans = handoffAnswer{Status: HandoffFailed, Reason: "no hand-off handler"}
	default:
		ans = p.runHandoff(call.id, call.settings.handoff, req)
	}
	rec.Outcome, rec.Reason = ans.Status, ans.Reason
	p.hostLog.AddHandoff(rec)
	return ans
}

func (p *Page) runHandoff(execID string, fn func(*Handoff) HandoffOutcome, req HandoffRequest) handoffAnswer {
	p.tainted.Store(true) // the handler gets the Playwright page
	h := &Handoff{Request: req, page: p.pw, expired: make(chan struct{})}
	var once sync.Once
	expire := func() { once.Do(func() { close(h.expired) }) }
	timer := time.AfterFunc(h.Timeout(), expire)
	defer timer.Stop()
	go func() {
		select {
		case <-p.closed:
			expire()
		case <-p.crashed:
			expire()
		case <-h.expired:
		}
	}()
	var out HandoffOutcome
	err := p.runCallback(execID, "HandoffWith", req.Action, func() { out = fn(h) })
	if err != nil {
		expire()
		return handoffAnswer{Status: HandoffFailed, Reason: err.Error()}
	}
	switch out {
	case HandoffCompleted, HandoffCancelled, HandoffTimedOut, HandoffFailed:
	default:
		// Another status is the runtime's to take as failed (CONTRACT.md
		// §6.3): the host passes it on as the handler gave it.
		expire()
		return handoffAnswer{Status: out, Reason: fmt.Sprintf("the hand-off handler answered %q", string(out))}
	}
	expire()
	ans := handoffAnswer{Status: out}
	switch out {
	case HandoffCancelled:
		ans.Reason = "cancelled by the user"
	case HandoffTimedOut:
		ans.Reason = "the user did not finish in time"
	case HandoffFailed:
		ans.Reason = "the user could not complete the step"
	}
	return ans
}
