// Package glasstest is the Glass harness for Ginkgo and Gomega: it drives a
// real Chromium through Playwright, calls the actions a page declares the
// way an agent would, plays the agent runtime (confirmations) and the user
// around the page runtime, and keeps the evidence when a spec fails.
//
// A complete suite, two files in one package:
//
//	// todo_suite_test.go
//	package todo_test
//
//	import (
//		"testing"
//
//		. "github.com/onsi/ginkgo/v2"
//		. "github.com/onsi/gomega"
//
//		"github.com/glassworks/glass/glasstest"
//	)
//
//	func TestTodo(t *testing.T) {
//		RegisterFailHandler(Fail)
//		RunSpecs(t, "Todo")
//	}
//
//	var _ = BeforeSuite(glasstest.WarmUp)
//
//	var _ = AfterSuite(func() {
//		Expect(glasstest.Stop()).To(Succeed())
//	})
//
//	// todo_test.go
//	package todo_test
//
//	import (
//		. "github.com/onsi/ginkgo/v2"
//		. "github.com/onsi/gomega"
//
//		"github.com/glassworks/glass/examples/todo/app"
//		"github.com/glassworks/glass/glasstest"
//		. "github.com/glassworks/glass/matchers"
//		"github.com/glassworks/glass/receipt"
//	)
//
//	var _ = Describe("Deleting a task", func() {
//		var page *glasstest.Page
//		BeforeEach(func() {
//			page = glasstest.Open(glasstest.Serve(app.Handler()), glasstest.Approve())
//		})
//
//		It("removes t9 once the user approves", func() {
//			r := page.Do("remove@t9", nil)
//			Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
//			Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11))))
//			Expect(page.Confirmations()).To(HaveLen(1))
//			Expect(page.VerifyConfirmations(r)).To(Succeed())
//		})
//
//		It("changes nothing when the user says no", func() {
//			Expect(page.Do("remove@t9", nil, glasstest.Deny())).To(FailAtPhase(receipt.PhasePolicy))
//		})
//	})
//
// Run it with go test, or with the Ginkgo CLI (go tool ginkgo, from the
// module's tool directive), in parallel too: ginkgo -p.
//
// # Boot once, isolate always
//
// Playwright and Chromium start once per test process, on the first Open
// (Shared) or earlier, in BeforeSuite, with WarmUp, so that no spec pays for
// it; AfterSuite's Stop ends them. Under ginkgo -p every process has
// its own. Each Open gets a fresh browser context, closed by DeferCleanup
// when the spec ends. When Glass launches Chromium, the flags of DefaultArgs
// (quiet on a closed network, WebMCP on; --no-sandbox as root) are always
// applied; a Playwright server applies them only when it runs with
// --unsafe, and a browser attached over CDP keeps the flags it was started
// with (see BrowserConfig).
//
// Instead of launching, Glass can use a remote browser: a Playwright server
// (BrowserConfig.Connect, $GLASS_BROWSER_WS; for example a grid, or
// `playwright run-server`) or a running Chromium's DevTools endpoint
// (BrowserConfig.ConnectOverCDP, $GLASS_CDP_URL). StartPlaywrightServer
// starts a server on loopback, and Configure points Shared at it — together
// the SynchronizedBeforeSuite pattern, one server for every process:
//
//	var _ = SynchronizedBeforeSuite(func() []byte {
//		srv, err := glasstest.StartPlaywrightServer()
//		Expect(err).NotTo(HaveOccurred())
//		DeferCleanup(srv.Stop)
//		return []byte(srv.WSEndpoint)
//	}, func(ws []byte) {
//		Expect(glasstest.Configure(glasstest.BrowserConfig{Connect: string(ws)})).To(Succeed())
//	})
//
// # The app under test
//
// Serve serves an http.Handler on a loopback port the OS picks. Start runs an
// external dev server (a shell command in its own process group), waits for
// its ready URL with a deadline, captures its output, attaches that output
// to the report of a failing spec, and stops the whole group on cleanup:
//
//	port, _ := glasstest.FreePort()
//	addr := fmt.Sprintf("127.0.0.1:%d", port)
//	srv := glasstest.Start("npm run dev -- --port "+strconv.Itoa(port), "http://"+addr+"/")
//	page := glasstest.Open(srv.URL)
//
// # Driving
//
// Page.Do calls one declared action and returns its receipt; Snapshot and
// Actions read the page model. Every call gets an execution id the harness
// issues; an answer that carries another (a replayed or foreign receipt)
// is refused as EXECUTION_MISMATCH at phase transport. Do folds a row call
// (id "remove" with {"record": "t9"} calls "remove@t9"), adds the available
// actions to an ACTION_NOT_FOUND receipt that lacks them (Page.Answer gives
// the runtime's own receipt, before the host judged or completed it),
// guards the call with
// ExpectedRevision, and bounds it with Timeout (DefaultTimeout, ten
// seconds, unless said otherwise). Options given to Open apply to every
// call of the page; options given to Do override them for that call. An
// Option works in both places; a PageOption (Trace, OpenTimeout, …) only in
// Open and a CallOption (ExpectedRevision, WithoutExecutionID) only in Do
// and Resume, so one given in the wrong place does not compile.
//
// # Confirmations
//
// The harness answers the runtime's confirmation requests with the policy
// of the page or the call: Approve, Deny (the default), ConfirmWith (a
// function that sees the request, sensitive values masked), or
// NoConfirmationChannel (no channel at all: the runtime must deny). Every
// request is recorded (Page.Confirmations). An answer is bound to the
// execution it was asked for: a request that names no call in flight, or
// another action, or that comes through the raw binding instead of
// glassHost, is recorded as unsolicited and denied; an approval carries a
// ticket only the host issues, and Page.VerifyConfirmations checks a
// receipt's confirmations against the host's record of the execution it
// issued for the call, so a runtime that approves its own call, or replays
// another call's approval, is caught. Requests are masked (every
// registered sensitive value, wherever it appears) before a ConfirmWith or
// HandoffWith function or the record sees them, and the record is bounded
// in count and size.
//
// # Faults
//
// Do never hangs and never panics. What goes wrong between the harness and
// the page comes back as a receipt that says where: RUNTIME_MISSING,
// PROTOCOL_MISMATCH, RECEIPT_INVALID (not JSON, not a receipt, over
// MaxReceiptBytes in bytes, nested beyond MaxReceiptDepth), CALL_TIMEOUT
// (a same-document URL change is no navigation away), TRANSPORT_FAILED
// (the runtime global was replaced after load) and EXECUTION_MISMATCH at
// phase transport; PAGE_CRASHED, PAGE_NAVIGATED and PAGE_CLOSED at phase
// browser_effect; a runtime that throws or rejects as EXECUTION_FAILED at
// phase dispatch. The fault pages of package fixtures/faults show each.
//
// # Evidence
//
// Open traces the context (DOM snapshots and network, no screencast). When
// a spec fails, its evidence — trace.zip, screenshot.png, receipts.json,
// snapshots.json, confirmations.json per page — is kept under
// glass-artifacts/<spec>/page<N>/ and attached to the spec's report as the
// "glass artifacts" entry, so it appears in Ginkgo's JSON report and as a
// JUnit property. Nothing is kept for a spec that passes. The sensitive
// values of the page's calls (Sensitive) are replaced by "[sensitive]" in
// every file kept — every entry of the trace too, where a page's writing
// and a hand-off handler's typing are recorded — in every spelling a page
// can give them: JSON, JavaScript and CSS escapes, percent-encoding, HTML
// character references, mixed character by character and nested, in any
// Unicode normalisation form. A value the page transforms otherwise
// (hashes, splits, base64-encodes, draws) is not recognised. No screenshot
// is taken of a page whose calls used a sensitive value: a page can show a
// value where no mask reaches (a placeholder, a closed shadow root, a frame
// of another origin, a canvas), and pixels cannot be scrubbed;
// Artifacts.Errors says it was not taken. The dev server output attached
// to a failing spec is scrubbed of them too. What Glass guarantees, and
// what not, is in SECURITY.md.
//
// # Environment
//
//	GLASS_CHROMIUM        the Chromium to launch (default: a headless shell, then a full Chromium; see FindChromium)
//	GLASS_HEADED          1 shows the browser window
//	GLASS_BROWSER_WS      connect to this Playwright server instead of launching
//	GLASS_CDP_URL         attach to this DevTools endpoint instead of launching
//	GLASS_ARTIFACTS       where failing specs leave their evidence (default glass-artifacts)
//	GLASS_KEEP_ARTIFACTS  1 keeps the evidence of passing specs too
//	GLASS_TRACE           0 turns the Playwright trace off
//	GLASS_COVERAGE        off records no capability coverage (docs/coverage.md)
//	GLASS_COVERAGE_FILE   where the suite's coverage goes (default glass-coverage.json next to it)
//	GLASS_COVERAGE_MIN    floors the suite's coverage must reach: 80, or measure=percent,…
package glasstest
