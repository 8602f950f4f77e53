package glasstest_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
)

// storeEverything leaves a value in every store a page can reach that
// outlives its document in a tab; readEverything lists what it finds.
const storeEverything = `async () => {
	localStorage.setItem("left", "1");
	sessionStorage.setItem("left", "1");
	document.cookie = "left=1; path=/";
	window.name = "left";
	await fetch("/cacheable.txt");
	await new Promise((resolve, reject) => {
		const open = indexedDB.open("left", 1);
		open.onupgradeneeded = () => open.result.createObjectStore("s");
		open.onsuccess = () => { open.result.close(); resolve(); };
		open.onerror = () => reject(open.error);
	});
	return "stored";
}`

const readEverything = `async () => {
	const found = [];
	if (localStorage.length) found.push("localStorage");
	if (sessionStorage.length) found.push("sessionStorage");
	if (document.cookie) found.push("cookie " + document.cookie);
	if (window.name) found.push("window.name " + window.name);
	const dbs = await indexedDB.databases();
	if (dbs.length) found.push("indexedDB " + dbs.map(d => d.name).join(","));
	const cached = await fetch("/cacheable.txt", { cache: "only-if-cached", mode: "same-origin" }).catch(() => null);
	if (cached && cached.ok) found.push("HTTP cache");
	return found.join("; ");
}`

var _ = Describe("A page pool (Reuse)", func() {
	var (
		url  string
		pool *glasstest.PagePool
		b    *glasstest.Browser
	)
	BeforeEach(func() {
		url = glasstest.Serve(harnessHandler())
		pool = glasstest.NewPagePool()
		DeferCleanup(func() { Expect(pool.Close()).To(Succeed()) })
		var err error
		b, err = glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
	})
	open := func(opts ...glasstest.PageOption) *glasstest.Page {
		GinkgoHelper()
		p, err := glasstest.OpenPage(b, url, append(opts, glasstest.Reuse(pool))...)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		return p
	}

	It("opens the next page in the same browser page, with nothing the last owner stored", func() {
		first := open(glasstest.Approve())
		Expect(first.Evaluate(storeEverything, nil)).To(Equal("stored"))
		Expect(first.Evaluate(readEverything, nil)).To(SatisfyAll(ContainSubstring("indexedDB left"), ContainSubstring("HTTP cache")))
		Expect(first.Close()).To(Succeed())

		next := open(glasstest.Approve())
		Expect(glasstest.BrowserPage(next)).To(BeIdenticalTo(glasstest.BrowserPage(first)))
		Expect(next.Evaluate(readEverything, nil)).To(BeEmpty())

		// The host channel answers for the new owner only.
		r := next.Do("remove@r1", nil)
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		Expect(next.Confirmations()).To(HaveLen(1))
		Expect(first.Confirmations()).To(BeEmpty())

		// The closed owner reaches nothing, and never the new owner's page.
		_, err := first.Evaluate(`() => 1`, nil)
		Expect(errors.Is(err, glasstest.ErrPageClosed)).To(BeTrue(), "%v", err)
	})

	It("leaves in the HTTP cache a script the server lets the browser keep, when nothing else was kept", func() {
		// transferSize is 0 for a response the cache answered.
		const loadKept = `async () => {
			await new Promise((resolve, reject) => {
				const s = document.createElement("script");
				s.src = "/kept.js";
				s.onload = resolve;
				s.onerror = reject;
				document.head.append(s);
			});
			const e = performance.getEntriesByName(new URL("/kept.js", location.href).href).pop();
			return e ? e.transferSize : -1;
		}`
		first := open(glasstest.Approve())
		Expect(first.Evaluate(loadKept, nil)).To(BeNumerically(">", 0))
		Expect(first.Close()).To(Succeed())

		next := open(glasstest.Approve())
		Expect(glasstest.BrowserPage(next)).To(BeIdenticalTo(glasstest.BrowserPage(first)))
		Expect(next.Evaluate(loadKept, nil)).To(BeNumerically("==", 0))
		Expect(next.Evaluate(storeEverything, nil)).To(Equal("stored"))
		Expect(next.Close()).To(Succeed())

		// A fetch the cache keeps (storeEverything's): the whole HTTP cache
		// goes, the script too.
		last := open(glasstest.Approve())
		Expect(glasstest.BrowserPage(last)).To(BeIdenticalTo(glasstest.BrowserPage(first)))
		Expect(last.Evaluate(readEverything, nil)).To(BeEmpty())
		Expect(last.Evaluate(loadKept, nil)).To(BeNumerically(">", 0))
	})

	It("keeps no page that was handed out, navigated, attached a frame, or has another host script", func() {
		handedOut := open()
		_ = handedOut.Playwright()
		Expect(handedOut.Close()).To(Succeed())
		Expect(glasstest.BrowserPage(handedOut).IsClosed()).To(BeTrue())

		navigated := open()
		_, err := navigated.Evaluate(`() => { location.href = location.href + "?again"; return 1 }`, nil)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() bool { return glasstest.BrowserPage(navigated).URL() != url }).Should(BeTrue())
		Eventually(func() int { return glasstest.Navigations(navigated) }).Should(Equal(2))
		Expect(navigated.Close()).To(Succeed())
		Expect(glasstest.BrowserPage(navigated).IsClosed()).To(BeTrue())

		framed := open()
		_, err = framed.Evaluate(`() => { const f = document.createElement("iframe"); document.body.append(f); f.remove(); return 1 }`, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(framed.Close()).To(Succeed())
		Expect(glasstest.BrowserPage(framed).IsClosed()).To(BeTrue())

		kept := open()
		Expect(kept.Close()).To(Succeed())
		other := open(glasstest.NoConfirmationChannel())
		Expect(glasstest.BrowserPage(other)).NotTo(BeIdenticalTo(glasstest.BrowserPage(kept)))
		noHandoff := open(glasstest.NoHandoffChannel())
		Expect(glasstest.BrowserPage(noHandoff)).NotTo(BeIdenticalTo(glasstest.BrowserPage(kept)))
		again := open()
		Expect(glasstest.BrowserPage(again)).To(BeIdenticalTo(glasstest.BrowserPage(kept)))
	})

	It("closes the pages it keeps when it closes", func() {
		p := open()
		Expect(p.Close()).To(Succeed())
		Expect(glasstest.BrowserPage(p).IsClosed()).To(BeFalse())
		Expect(pool.Close()).To(Succeed())
		Expect(glasstest.BrowserPage(p).IsClosed()).To(BeTrue())
	})
})
