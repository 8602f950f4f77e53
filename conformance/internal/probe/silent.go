package probe

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A page cannot hang the suite (SECURITY.md). Once silentCalls calls of a
// run over one transport all ended at the host's call bound
// (CALL_TIMEOUT), with no answer from the runtime before them, the run
// takes the runtime as one that never answers: the rules not yet checked
// are not probed (engine.Check), and the calls of the probes already
// running are bounded at silentTimeout, long enough for a runtime that
// does answer to be seen answering. A runtime that answers some calls and
// stalls on others is not silent: once a call of an action ended at the
// bound, each later call of that action is bounded at stallTimeout,
// unless the probe sets a bound of its own (a hand-off's, a long
// expectation's), so such a runtime costs a run a bound per action that
// stalls, not one per call, and the actions that answer keep theirs.
const (
	silentCalls   = 6                      // not a contract bound
	silentTimeout = 250 * time.Millisecond // not a contract bound
	stallTimeout  = 1 * time.Second        // not a contract bound
)

// Silent says why the runtime is taken as never answering over p's
// transport, or "" while it has answered a call or too few calls ended at
// the bound to tell.
func (p *Probe) Silent() string {
	n := 0
	for _, sn := range p.SeenReceipts() {
		switch {
		case sn.ByRuntime:
			return ""
		case sn.Receipt != nil && sn.Receipt.Code() == receipt.CodeCallTimeout:
			n++
		}
	}
	if n < silentCalls {
		return ""
	}
	return fmt.Sprintf("the runtime answered none of the run's %d calls over this transport within the call bound of %v (each ended CALL_TIMEOUT)", n, p.CallTimeout())
}

// noteStall records that a call of id ended at the call bound.
func (s *Session) noteStall(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stalled == nil {
		s.stalled = map[string]bool{}
	}
	s.stalled[id] = true
}

// Stalled says which actions had a call end at the call bound, so that
// later calls of them were bounded shorter (a report note); "" when none,
// or when the runtime is taken as silent (Silent says why).
func (p *Probe) Stalled() string {
	p.s.mu.Lock()
	ids := slices.Sorted(maps.Keys(p.s.stalled))
	p.s.mu.Unlock()
	if len(ids) == 0 || p.Silent() != "" || p.CallTimeout() <= stallTimeout {
		return ""
	}
	shown := ids[:min(len(ids), 5)]
	more := ""
	if len(ids) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(ids)-len(shown))
	}
	return fmt.Sprintf("a call of %s%s ended CALL_TIMEOUT at the call bound of %v: each later call of those actions that set no bound of its own was bounded at %v", strings.Join(quoteAll(shown), ", "), more, p.CallTimeout(), stallTimeout)
}

// A page whose loads stop finishing cannot make a run cost the open bound
// (glasstest.DefaultOpenTimeout, 15 s) per probe either: once
// openStallsMax opens in a row ended at their bound (the load, or
// ready(), never finished), each later open is bounded at
// stalledOpenTimeout until one opens (a page that loads gets its bound
// back). A probe whose page did not open fails, as at the full bound.
const (
	openStallsMax      = 2               // not a contract bound
	stalledOpenTimeout = 3 * time.Second // not a contract bound
)

// openOptions are the options that bound an open of the run: none until
// openStallsMax opens ended at their bound.
func (s *Session) openOptions() []glasstest.PageOption {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.openStalls >= openStallsMax {
		s.shortened = true
		return []glasstest.PageOption{glasstest.OpenTimeout(stalledOpenTimeout)}
	}
	return nil
}

// noteOpen counts the opens in a row that ended at their bound (err nil:
// an open that succeeded, which ends the row) and every such open.
func (s *Session) noteOpen(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.openStalls = 0
		return
	}
	if errors.Is(err, glasstest.ErrCallTimeout) || errors.Is(err, playwright.ErrTimeout) {
		s.openStalls++
		s.openStalled++
	}
}

// OpenStalled says, for a report note, that opens of the run ended at
// their bound and later ones were bounded shorter; "" when fewer did.
func (p *Probe) OpenStalled() string {
	p.s.mu.Lock()
	n, shortened := p.s.openStalled, p.s.shortened
	p.s.mu.Unlock()
	if !shortened {
		return ""
	}
	return fmt.Sprintf("%d page loads of the run did not finish (the load, or the runtime's ready()) within the open bound: after %d in a row, each later load was bounded at %v until one finished, and each probe whose page did not load failed (the probe could not run)", n, openStallsMax, stalledOpenTimeout)
}

func quoteAll(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprintf("%q", id)
	}
	return out
}

// callOptions are opts with the call bound of id (callBound) when it is
// shorter than the run's: before opts when the action stalled, so that a
// bound the probe sets wins; after them when the runtime is silent.
func (p *Probe) callOptions(id string, opts []glasstest.CallOption) []glasstest.CallOption {
	switch b := p.callBound(id); {
	case b == silentTimeout:
		return append(opts[:len(opts):len(opts)], glasstest.Timeout(b))
	case b < p.CallTimeout():
		return append([]glasstest.CallOption{glasstest.Timeout(b)}, opts...)
	}
	return opts
}

func (p *Probe) callBound(id string) time.Duration {
	p.s.mu.Lock()
	stalled := p.s.stalled[id]
	p.s.mu.Unlock()
	switch {
	case p.Silent() != "":
		return silentTimeout
	case stalled && p.CallTimeout() > stallTimeout:
		return stallTimeout
	}
	return p.CallTimeout()
}
