package glasstest

import (
	"errors"
	"fmt"
	"time"

	"github.com/glassworks/glass/receipt"
	playwright "github.com/mxschmitt/playwright-go"
)

// Every call from Go into the page under test goes through this file: a
// page is not trusted, and a script that never settles, a getter that
// spins or a renderer that hangs must cost one bounded wait, never a hung
// suite. TestEveryCallIntoThePageIsBounded keeps it so: no other file of
// the module (tests aside) calls Playwright's Evaluate, EvaluateHandle,
// AriaSnapshot or WebMCP methods.

// The errors a bounded call ends with when the page did not answer. They
// are wrapped (errors.Is reaches them) in the errors of Evaluate,
// EvaluateWithin, EvaluateIsolated, AriaSnapshot, Tools and CallTool.
var (
	ErrPageCrashed   = errors.New("the page crashed")
	ErrPageClosed    = errors.New("the page was closed")
	ErrPageNavigated = errors.New("the page navigated away")
	ErrCallTimeout   = errors.New("no answer from the page")
)

// Evaluate runs script in the page with arg, as Playwright's
// Page.Evaluate does, bounded by the page's call timeout (Timeout,
// default DefaultTimeout) and by the page's fate: a crash or a close ends
// the wait at once. Past the bound the error wraps ErrCallTimeout; the
// script may still be running in the page.
func (p *Page) Evaluate(script string, arg any) (any, error) {
	return p.EvaluateWithin(p.settings.timeout, script, arg)
}

// EvaluateWithin is Evaluate with its own bound.
func (p *Page) EvaluateWithin(timeout time.Duration, script string, arg any) (any, error) {
	v, err := p.evaluate(timeout, script, arg)
	if err != nil {
		return nil, fmt.Errorf("glasstest: evaluate in %q: %w", p.url, err)
	}
	return v, nil
}

// AriaSnapshot returns the accessibility tree of the elements selector
// matches (Playwright's Locator.AriaSnapshot), bounded like Evaluate.
func (p *Page) AriaSnapshot(selector string) (string, error) {
	timeout := p.settings.timeout
	ms := float64(timeout.Milliseconds())
	v, err := p.bounded(timeout, func() (any, error) {
		return p.pw.Locator(selector).AriaSnapshot(playwright.LocatorAriaSnapshotOptions{Timeout: &ms})
	})
	if err != nil {
		return "", fmt.Errorf("glasstest: accessibility tree of %q in %q: %w", selector, p.url, err)
	}
	s, _ := v.(string)
	return s, nil
}

// EvaluateIsolated runs script, a function of no argument whose result is
// JSON, in a world of its own, within timeout: it reads the page's DOM but
// none of its JavaScript, so a page cannot replace the built-ins it calls.
func (p *Page) EvaluateIsolated(timeout time.Duration, script string) (any, error) {
	v, err := p.bounded(timeout, func() (any, error) { return p.slot.Isolated(script) })
	if err != nil {
		return nil, fmt.Errorf("glasstest: evaluate in %q: %w", p.url, err)
	}
	return v, nil
}

// Tools lists the WebMCP tools the page registered, bounded like Evaluate.
func (p *Page) Tools() ([]playwright.WebMCPTool, error) {
	v, err := p.bounded(p.settings.timeout, func() (any, error) { return p.pw.MainFrame().WebMCP().Tools() })
	if err != nil {
		return nil, fmt.Errorf("glasstest: list WebMCP tools of %q: %w", p.url, err)
	}
	tools, _ := v.([]playwright.WebMCPTool)
	return tools, nil
}

// CallTool calls the WebMCP tool name with input as it is, bounded like
// Evaluate, and returns the raw tool result: no folding, no options, no
// decoding. Do is the call an agent makes; CallTool is for looking at what
// a page's tools return.
func (p *Page) CallTool(name string, input map[string]any) (any, error) {
	return p.callTool(p.settings.timeout, name, input)
}

// callTool calls one WebMCP tool, bounded by timeout and by the page's
// fate, like evaluate.
// CallToolWithin is CallTool bounded by timeout instead of the page's.
func (p *Page) CallToolWithin(timeout time.Duration, name string, input map[string]any) (any, error) {
	return p.callTool(timeout, name, input)
}

func (p *Page) callTool(timeout time.Duration, name string, input map[string]any) (any, error) {
	ms := float64(timeout.Milliseconds())
	v, err := p.bounded(timeout, func() (any, error) {
		return p.pw.MainFrame().WebMCP().CallTool(name, receipt.PlainJSON(input), playwright.WebMCPCallToolOptions{Timeout: &ms})
	})
	if err != nil {
		return nil, fmt.Errorf("call WebMCP tool %q: %w", name, err)
	}
	return v, nil
}

// evaluate runs script with arg in the page, bounded by timeout and by the
// page's fate: a crash, a close or a navigation ends the wait at once.
func (p *Page) evaluate(timeout time.Duration, script string, arg any) (any, error) {
	return p.bounded(timeout, func() (any, error) { return p.pw.Evaluate(script, receipt.PlainJSON(arg)) })
}

// bounded runs one Playwright call on its own goroutine and waits for it,
// for timeout, or for the page to crash or close, whichever comes first.
func (p *Page) bounded(timeout time.Duration, call func() (any, error)) (any, error) {
	type out struct {
		v   any
		err error
	}
	// Counted before the closed check: recycle closes p, then reads it.
	p.inflight.Add(1)
	select {
	case <-p.closed:
		p.inflight.Add(-1)
		return nil, ErrPageClosed
	default:
	}
	ch := make(chan out, 1)
	go func() {
		defer p.inflight.Add(-1)
		// playwright-go panics on argument types it cannot serialise; a
		// panic on this goroutine would end the whole test binary.
		defer func() {
			if r := recover(); r != nil {
				ch <- out{nil, fmt.Errorf("playwright-go panicked: %v", r)}
			}
		}()
		v, err := call()
		ch <- out{v, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, p.fate(o.err)
		}
		return o.v, nil
	case <-p.crashed:
		return nil, ErrPageCrashed
	case <-p.closed:
		return nil, ErrPageClosed
	case <-timer.C:
		p.unhealthy.Store(true)
		return nil, fmt.Errorf("%w after %s", ErrCallTimeout, timeout)
	}
}

// forgetWindowName empties window.name, which outlives a navigation in
// the same tab, on a page at about:blank (a kept page, see PagePool): no
// page script runs there, and recycle's own timer bounds the call.
func forgetWindowName(pg playwright.Page) error {
	_, err := pg.Evaluate(`() => { window.name = "" }`)
	return err
}
