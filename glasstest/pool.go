package glasstest

import (
	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/internal/pagepool"
)

// PagePool keeps the browser pages of closed Pages for the next OpenPage
// with Reuse(pool): instead of a new browser context and page (a new
// renderer process, about 400 ms of CPU on a small machine), the next
// open navigates a kept page to its address (about 160 ms). Between two
// owners the page goes to about:blank, and the context's cookies, the
// permissions it granted, the storage of the origin it showed (local and
// session storage, IndexedDB, caches, service workers), the HTTP cache
// when a response left data there (a response one load cached could tell
// the next what it fetched; scripts, styles, fonts and images the server
// lets the browser keep stay, as for a returning visitor) and window.name
// are cleared, so the next page loads as into a fresh context, except
// that history.length grows and kept scripts come from the cache.
//
// A page is kept only when nothing can have changed it beyond its
// document: a Page whose Playwright() was called or that had a hand-off,
// that navigated or left its origin, crashed or closed, whose call timed
// out or is still in flight, or that attached a frame or opened another
// page, is closed as without a pool; so is a Page opened with tracing on. The conformance suite opens its probes'
// pages with one pool per run. Safe for concurrent use.
type PagePool struct{ pool pagepool.Pool }

// NewPagePool returns an empty pool.
func NewPagePool() *PagePool { return &PagePool{} }

// Close closes every page the pool keeps; a Page closed later is closed
// as without a pool.
func (pl *PagePool) Close() error { return pl.pool.Close() }

// Reuse opens the page in a page of pool kept for the same browser and
// host channel, when there is one, and gives the page back to pool at
// Close (see PagePool). After Close, such a Page's Playwright page, and a
// hand-off's, may be the next Page's: do not keep them past Close.
func Reuse(pool *PagePool) PageOption {
	return pageOnly(func(s *settings) { s.pool = pool })
}

// poolKey is what a kept page must share with the page to open in it: the
// browser, and the host script installed in its context.
type poolKey struct {
	browser     *Browser
	withConfirm bool
	withHandoff bool
}

func keyOf(b *Browser, s settings) poolKey {
	return poolKey{browser: b, withConfirm: s.policy.kind != policyNoChannel, withHandoff: !s.noHandoff}
}

// pooled tells whether a page opened with s may come from, and go back
// to, s.pool.
func pooled(s settings) bool { return s.pool != nil && s.host == nil && !s.trace }

// recycle is Close for a page opened with a pool: it gives the page back
// to the pool, or closes its context when the page may have kept
// anything beyond its document.
func (p *Page) recycle() error {
	sl := p.slot
	sl.SetOwner(nil)
	// p is closed from here on: a call on it fails, it never reaches the
	// page's next owner.
	p.once.close.Do(func() { close(p.closed) })
	if !p.keepable() || !sl.Reset(p.url, forgetWindowName) || !p.settings.pool.pool.Put(keyOf(p.browser, p.settings), sl) {
		return sl.Context.Close()
	}
	return nil
}

func (p *Page) keepable() bool {
	if p.tainted.Load() || p.unhealthy.Load() || p.inflight.Load() > 0 {
		return false
	}
	p.mu.Lock()
	busy := p.navigations != p.loaded || p.navRequested || len(p.pending) > 0
	p.mu.Unlock()
	return !busy && p.slot.Sole(p.url)
}

// slotOwner is a Page as the owner of its slot.
type slotOwner Page

func (o *slotOwner) HostCall(src *playwright.BindingSource, args ...any) any {
	return (*Page)(o).onHostCall(src, args...)
}

func (o *slotOwner) Taint() { o.tainted.Store(true) }

func (o *slotOwner) Gone(crashed bool) {
	if crashed {
		o.once.crash.Do(func() { close(o.crashed) })
	} else {
		o.once.close.Do(func() { close(o.closed) })
	}
}

func (o *slotOwner) ConfirmApproved() bool { return (*Page)(o).approvedInFlight() }

// Navigation counts a navigation once the main frame commits the one it
// requested: a same-document URL change (pushState, a new fragment) makes
// no request and is no navigation away.
func (o *slotOwner) Navigation(committed bool) {
	o.mu.Lock()
	if !committed {
		o.navRequested = true
	} else if o.navRequested {
		o.navigations++
		o.navRequested = false
	}
	o.mu.Unlock()
}
