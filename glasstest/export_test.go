package glasstest

import playwright "github.com/mxschmitt/playwright-go"

// OnFail replaces what a page does when it fails its spec (Open's is
// Ginkgo's Fail), so that a spec can see the failure a page reports.
func OnFail(p *Page, fn func(error)) { p.fail = fn }

// BrowserPage is p's Playwright page, without marking it as handed out
// (Playwright keeps such a page out of its pool).
func BrowserPage(p *Page) playwright.Page { return p.pw }

// Navigations is how many documents p has navigated to since it opened.
func Navigations(p *Page) int { return p.navigationCount() }
