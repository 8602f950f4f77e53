package probe

import (
	"strings"

	playwright "github.com/mxschmitt/playwright-go"
)

// neverReadyCause is openCause's text for a page whose ready() never
// resolved.
const neverReadyCause = "the page's Glass runtime never became ready (glassRuntime.ready() did not resolve; does the page call glassRuntime.define?)"

// NeverReady says why the page's runtime, whose global the page installs,
// never became ready, or "": that is the runtime's violation of
// protocol.ready, not a set-up error. That rule fails, and every other
// rule, whose probes wait for ready() first, is not probed.
func (s *Session) NeverReady() string { return s.neverReady }

// runtimeInstalled opens the page without waiting for ready() and reports
// whether it installs globalThis.glassRuntime with a ready function.
func (s *Session) runtimeInstalled() bool {
	ctx, err := s.browser.NewContext()
	if err != nil {
		return false
	}
	defer ctx.Close()
	pg, err := ctx.NewPage()
	if err != nil {
		return false
	}
	timeout := float64(s.cfg.CallTimeout.Milliseconds())
	if timeout <= 0 {
		timeout = 10000
	}
	if _, err := pg.Goto(s.url, playwright.PageGotoOptions{Timeout: &timeout}); err != nil {
		return false
	}
	// WaitForFunction is bounded by its own timeout on Playwright's side,
	// so a page that spins cannot hold the probe.
	_, err = pg.WaitForFunction(`() => { const rt = globalThis.glassRuntime; return !!rt && typeof rt === "object" && typeof rt.ready === "function"; }`, nil, playwright.PageWaitForFunctionOptions{Timeout: &timeout})
	return err == nil
}

// neverReadyAfter reports whether the set-up failure cause is a ready()
// that never resolved on a page that installs the runtime's global.
func (s *Session) neverReadyAfter(cause string) bool {
	return strings.HasPrefix(cause, "the page's Glass runtime never became ready") && s.runtimeInstalled()
}
