package glasstest

// OnFail replaces what a page does when it fails its spec (Open's is
// Ginkgo's Fail), so that a spec can see the failure a page reports.
func OnFail(p *Page, fn func(error)) { p.fail = fn }
