package glasstest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/hostile"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// fault is one way a page can misbehave, and what Glass must make of it.
type fault struct {
	page   string // under fixtures/faults
	action string
	args   any
	opts   []glasstest.PageOption
	// timeout is the call's bound; the call must return within it (plus
	// callSlack).
	timeout time.Duration
	// before runs before the call; during runs while it is in flight.
	before, during func(*glasstest.Page)
	code           receipt.Code
	phase          receipt.Phase
	message        string // a substring of the message that names the cause
	// then adds assertions of its own.
	then func(*glasstest.Page, *receipt.Receipt)
}

// callSlack is what a call may take past its bound on a loaded machine:
// the harness's own classification of a page's fate (pageEventGrace) and
// goroutine scheduling.
const callSlack = 2 * time.Second

// failedWith is what a page reported as its spec's failure (OnFail).
var failedWith atomic.Value

// requestSecret is the value the requests fault puts everywhere; what the
// spec's ConfirmWith and HandoffWith functions saw of its requests.
const requestSecret = "4711-pin-é"

var seenByUser, seenByHandler atomic.Value

// waitInFlight waits until the fault runtime has entered execute.
func waitInFlight(p *glasstest.Page) {
	Eventually(func() (any, error) {
		return p.Playwright().Evaluate("globalThis.glassFaultCalls || 0")
	}).Should(BeNumerically(">=", 1))
}

var faultKinds = map[string]fault{
	"the page has no runtime": {
		page: "runtime-missing.html", code: receipt.CodeRuntimeMissing, phase: receipt.PhaseTransport,
		message: "the page has no Glass runtime (globalThis.glassRuntime)",
	},
	"the runtime speaks another protocol version": {
		page: "protocol-mismatch.html", code: receipt.CodeProtocolMismatch, phase: receipt.PhaseTransport,
		message: `the page runtime speaks "glass.page/v0", want "glass.page/v1"`,
	},
	"the receipt says another protocol version": {
		page: "receipt-protocol.html", code: receipt.CodeProtocolMismatch, phase: receipt.PhaseTransport,
		message: `receipt of another protocol: the receipt says protocol "glass.page/v2", want "glass.page/v1"`,
	},
	"the runtime never answers": {
		page: "never-answers.html", timeout: 500 * time.Millisecond,
		code: receipt.CodeCallTimeout, phase: receipt.PhaseTransport,
		message: "the page did not answer: no answer from the page after 500ms",
		then: func(_ *glasstest.Page, r *receipt.Receipt) {
			Expect(r.Result.Error.Started).To(Equal(receipt.StartedUnknown))
		},
	},
	"the runtime throws synchronously": {
		page: "throws.html", code: receipt.CodeExecutionFailed, phase: receipt.PhaseDispatch,
		message: "the runtime threw synchronously: fault: execute threw synchronously",
	},
	"the runtime rejects asynchronously": {
		page: "rejects.html", code: receipt.CodeExecutionFailed, phase: receipt.PhaseDispatch,
		message: "the runtime's promise rejected: fault: execute rejected asynchronously",
	},
	"the receipt is not JSON": {
		page: "not-json.html", code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		message: `the receipt is not JSON`,
	},
	"the receipt is JSON but not a receipt": {
		page: "wrong-shape.html", code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		message: `not a receipt: $.result is missing (keys: "id", "status")`,
	},
	"the receipt does not match the JSON Schema": {
		page: "schema-violation.html", code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		message: `invalid receipt: $.result.error.started: want one of "no", "yes", "unknown", got "maybe"`,
		then: func(_ *glasstest.Page, r *receipt.Receipt) {
			Expect(r.Result.Error.Message).To(ContainSubstring("$.phase"))
		},
	},
	"the receipt is 50 MB": {
		page: "huge-receipt.html", code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		message: "over the 4194304-byte bound (MaxReceiptBytes)",
	},
	"the receipt nests 10,000 levels deep": {
		page: "deep-receipt.html", code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		message: "the answer nests deeper than 64 levels (MaxReceiptDepth)",
	},
	"the page crashes mid-call": {
		page: "crash.html",
		during: func(p *glasstest.Page) {
			waitInFlight(p)
			s, err := p.Playwright().Context().NewCDPSession(p.Playwright())
			Expect(err).NotTo(HaveOccurred())
			// Page.crash never answers: the renderer it would answer from
			// is gone. The session ends with the context.
			go func() { _, _ = s.Send("Page.crash", nil) }()
		},
		code: receipt.CodePageCrashed, phase: receipt.PhaseBrowserEffect,
		message: "the page crashed while the call was executing",
	},
	"the page navigates away mid-call": {
		page: "navigates-away.html", code: receipt.CodePageNavigated, phase: receipt.PhaseBrowserEffect,
		message: "the page navigated away while the call was executing",
	},
	"the page closes itself mid-call": {
		page: "closes-itself.html",
		before: func(p *glasstest.Page) {
			// Chromium lets a script close a window that has one history
			// entry (as a tab opened on that page would); a page opened by
			// Playwright has two (about:blank first).
			s, err := p.Playwright().Context().NewCDPSession(p.Playwright())
			Expect(err).NotTo(HaveOccurred())
			_, err = s.Send("Page.resetNavigationHistory", nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Playwright().Evaluate("history.length")).To(Equal(1))
		},
		code: receipt.CodePageClosed, phase: receipt.PhaseBrowserEffect,
		message: "the page was closed while the call was executing",
	},
	"the runtime global is replaced after load": {
		page: "replaced-runtime.html", action: "delete", opts: []glasstest.PageOption{glasstest.Approve()},
		before: func(p *glasstest.Page) {
			Expect(p.Do("swap", nil).Result.OK).To(BeTrue())
			Eventually(func() (any, error) {
				return p.Playwright().Evaluate("typeof glassRuntime.define")
			}).Should(Equal("undefined"))
		},
		code: receipt.CodeTransportFailed, phase: receipt.PhaseTransport,
		message: "the runtime global (globalThis.glassRuntime) was replaced after the page loaded",
	},
	"the runtime approves its own call": {
		page: "self-approval.html", action: "wipe", opts: []glasstest.PageOption{glasstest.Deny()},
		// The runtime claims success; the host's record and
		// VerifyConfirmations expose it.
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			asked := p.Confirmations()
			Expect(asked).To(HaveLen(4))
			for _, c := range asked {
				Expect(c.Approved).To(BeFalse(), "the host approved %+v", c)
				Expect(c.Ticket).To(BeEmpty())
			}
			Expect(asked[0].Solicited).To(BeTrue(), "the proper request, denied by the spec")
			Expect(asked[0].Reason).To(Equal("denied by the user"))
			Expect(asked[1].Raw).To(BeTrue(), "the raw binding call")
			Expect(asked[1].Solicited).To(BeFalse())
			Expect(asked[2].Request.ExecutionID).To(Equal("act_forged"))
			Expect(asked[2].Solicited).To(BeFalse())
			Expect(asked[2].Reason).To(Equal("no call of the host is waiting for this confirmation"))
			Expect(asked[3].Request.Action).To(Equal("act"), "its own execution, another action")
			Expect(asked[3].Solicited).To(BeFalse())

			err := p.VerifyConfirmations(r)
			Expect(err).To(MatchError(ContainSubstring(`ticket "tk_selfmade" was not issued by the host`)))
			Expect(err).To(MatchError(ContainSubstring("the host denied 1 confirmation(s) but the receipt reports 0 denial(s)")))
		},
	},
	"the arguments carry a prototype-pollution payload": {
		page: "prototype-pollution.html", action: "echo",
		args: `{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}`,
		code: receipt.CodeInvalidParams, phase: receipt.PhasePreflight,
		message: ": not a declared parameter",
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			Expect(r.Result.Error.Path).To(BeElementOf("/__proto__", "/constructor"))
			Expect(p.Playwright().Evaluate("({}).polluted === undefined && Object.prototype.polluted === undefined")).To(BeTrue())
			// Nested, where no schema looks: the runtime copies into
			// prototype-less objects, so nothing is polluted either.
			nested := p.Do("echo", `{"nested": {"__proto__": {"polluted": "yes"}}}`)
			Expect(nested.Result.OK).To(BeTrue(), "%s", nested.GomegaString())
			Expect(string(nested.Result.Data)).To(MatchJSON(`{"keys": ["nested"], "polluted": false}`))
			Expect(p.Playwright().Evaluate("({}).polluted === undefined")).To(BeTrue())
		},
	},
	"the snapshot fails with terminal escapes in its message": {
		page: "snapshot-fails.html",
		// The call itself succeeds; what the page breaks is its snapshot,
		// and readiness at ?ready=reject.
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			_, err := p.TrySnapshot()
			Expect(err).To(MatchError(ContainSubstring(`the runtime's snapshot failed: boom \x1b[2J\x1b[31mRED`)))
			Expect(hostile.Controls(err.Error())).To(BeEmpty(), "the error shows the page's text escaped")

			b, err := glasstest.Shared()
			Expect(err).NotTo(HaveOccurred())
			_, err = glasstest.OpenPage(b, p.URL()+"?ready=reject", glasstest.Timeout(5*time.Second))
			Expect(err).To(MatchError(ContainSubstring("wait for the page runtime")))
			Expect(err).To(MatchError(ContainSubstring(`boom \x1b[2J`)))
			Expect(hostile.Controls(err.Error())).To(BeEmpty(), "the error shows the page's text escaped")
		},
	},
	"a member of the runtime spins": {
		page: "spinning-member.html", timeout: 2 * time.Second,
		code: receipt.CodeCallTimeout, phase: receipt.PhaseTransport,
		message: "the page did not answer: no answer from the page after 2s",
		then: func(p *glasstest.Page, _ *receipt.Receipt) {
			// The page's thread still spins: a snapshot ends within its
			// bound too, and closing the page does not hang (the spec's
			// own close below).
			start := time.Now()
			_, err := p.EvaluateWithin(time.Second, "1", nil)
			Expect(err).To(MatchError(glasstest.ErrCallTimeout))
			Expect(time.Since(start)).To(BeNumerically("<", time.Second+callSlack))
			// So does a reading in a world of its own (the same thread).
			start = time.Now()
			_, err = p.EvaluateIsolated(time.Second, "() => 1")
			Expect(err).To(MatchError(glasstest.ErrCallTimeout))
			Expect(time.Since(start)).To(BeNumerically("<", time.Second+callSlack))
		},
	},
	"the runtime replays an approved receipt": {
		page: "replays-receipt.html", action: "wipe",
		before: func(p *glasstest.Page) {
			first := p.Do("wipe", nil, glasstest.Approve())
			Expect(first.Result.OK).To(BeTrue(), "%s", first.GomegaString())
			Expect(p.VerifyConfirmations(first)).To(Succeed())
		},
		code: receipt.CodeExecutionMismatch, phase: receipt.PhaseTransport,
		message: "the runtime answered with the receipt of execution",
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			first := p.Receipts()[0]
			Expect(r.ExecutionID).NotTo(Equal(first.ExecutionID), "the host's receipt is of the call it made")
			answer, ok := p.Answer(r)
			Expect(ok).To(BeTrue())
			Expect(answer.ExecutionID).To(Equal(first.ExecutionID), "the runtime's own answer is kept apart")
			err := p.VerifyConfirmations(r)
			Expect(err).To(MatchError(ContainSubstring("the host denied 1 confirmation(s) but the receipt reports 0 denial(s)")))
			err = p.VerifyConfirmations(answer)
			Expect(err).To(MatchError(ContainSubstring("was issued for wipe of execution " + first.ExecutionID)))
		},
	},
	"the runtime answers with a made-up execution id after a panicking ConfirmWith": {
		page: "forged-id-panic.html", action: "wipe",
		opts: []glasstest.PageOption{glasstest.ConfirmWith(func(glasstest.ConfirmRequest) bool { panic("boom") })},
		before: func(p *glasstest.Page) {
			glasstest.OnFail(p, func(err error) { failedWith.Store(err.Error()) })
		},
		code: receipt.CodeExecutionMismatch, phase: receipt.PhaseTransport,
		message: `the runtime answered with the receipt of execution "act_madeup"`,
		then: func(*glasstest.Page, *receipt.Receipt) {
			// The panic is found by the execution the host issued, not by
			// the id the receipt made up.
			Expect(failedWith.Load()).To(Equal(`glasstest: the ConfirmWith function panicked on "wipe": boom`))
		},
	},
	"the page reads the host script's signed messages and replays them": {
		page: "steals-nonce.html", action: "wipe", opts: []glasstest.PageOption{glasstest.Approve()},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, _ *receipt.Receipt) {
			Expect(p.Evaluate("globalThis.glassFaultSawMessage", nil)).To(BeTrue(), "the page read the host script's signed message")
			asked := p.Confirmations()
			Expect(asked).To(HaveLen(4))
			Expect(asked[0].Solicited).To(BeTrue())
			Expect(asked[0].Approved).To(BeTrue())
			for _, forged := range asked[1:] {
				Expect(forged.Raw).To(BeTrue(), "a replayed or re-signed message is recognised as the raw binding's")
				Expect(forged.Approved).To(BeFalse())
			}
			Expect(p.Evaluate("globalThis.glassFaultForged.map((a) => a.approved)", nil)).To(Equal([]any{false, false, false}))
		},
	},
	"the runtime changes the URL in place and never answers": {
		page: "changes-url.html", timeout: time.Second,
		code: receipt.CodeCallTimeout, phase: receipt.PhaseTransport,
		message: "the page did not answer: no answer from the page after 1s",
	},
	"the receipt is short in characters and huge in bytes": {
		page: "wide-receipt.html", code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		message: "over the 4194304-byte bound (MaxReceiptBytes)",
	},
	"the page replaces the built-ins that bound its texts": {
		page: "replaced-builtins.html", timeout: 30 * time.Second,
		code: receipt.CodeExecutionFailed, phase: receipt.PhaseDispatch,
		message: "the runtime threw synchronously: xxxx",
		then: func(_ *glasstest.Page, r *receipt.Receipt) {
			Expect(len(r.Result.Error.Message)).To(BeNumerically("<=", 1100), "the message is bounded in bytes")
		},
	},
	"the runtime floods the host with confirmation requests": {
		page: "floods-confirmations.html", action: "wipe", opts: []glasstest.PageOption{glasstest.Approve()},
		timeout: 60 * time.Second,
		code:    receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, _ *receipt.Receipt) {
			asked := p.Confirmations()
			Expect(len(asked)).To(BeNumerically("<=", 512), "the record is bounded")
			for _, c := range asked {
				b, err := json.Marshal(c.Request.Args)
				Expect(err).NotTo(HaveOccurred())
				Expect(len(b)).To(BeNumerically("<=", 16<<10), "a record's arguments are bounded")
			}
		},
	},
	"the page text carries markup and terminal escapes": {
		page: "markup-text.html", action: "fail",
		code: receipt.CodeExecutionFailed, phase: receipt.PhaseDispatch,
		message: "\x1b[31mRED\x1b[0m",
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			Expect(r.Result.Error.Message).To(ContainSubstring("<script>alert(1)</script>"))
			Expect(r.Result.Error.Message).To(ContainSubstring("\u202eRTL"), "the receipt keeps the page's text as data")
			Expect(hostile.Controls(r.GomegaString())).To(BeEmpty(), "a failure message shows the page's text escaped")
			p.Snapshot()
			a, err := p.SaveArtifacts(GinkgoT().TempDir())
			Expect(err).NotTo(HaveOccurred())
			for _, f := range []string{a.Receipts, a.Snapshots} {
				b, err := os.ReadFile(f)
				Expect(err).NotTo(HaveOccurred())
				Expect(bytes.ContainsAny(b, "\x1b\x07")).To(BeFalse(), "%s carries raw control characters", filepath.Base(f))
				Expect(hostile.Controls(string(b))).To(BeEmpty(), "%s carries characters a terminal acts on", filepath.Base(f))
				Expect(string(b)).To(ContainSubstring(`\u001b[31mRED\u001b[0m`))
				Expect(json.Valid(b)).To(BeTrue())
			}
		},
	},
	"the runtime puts a secret in every part of its requests to the host": {
		page: "leaks-into-requests.html", action: "wipe",
		opts: []glasstest.PageOption{
			glasstest.Sensitive("pin", requestSecret),
			glasstest.ConfirmWith(func(r glasstest.ConfirmRequest) bool { seenByUser.Store(fmt.Sprintf("%#v", r)); return true }),
			glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {
				seenByHandler.Store(fmt.Sprintf("%#v", h.Request))
				return glasstest.HandoffCompleted
			}),
		},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, _ *receipt.Receipt) {
			secret := scrub.New(requestSecret)
			records, err := json.Marshal([]any{p.Confirmations(), p.Handoffs()})
			Expect(err).NotTo(HaveOccurred())
			for what, text := range map[string]string{
				"the ConfirmWith function": fmt.Sprint(seenByUser.Load()),
				"the HandoffWith function": fmt.Sprint(seenByHandler.Load()),
				"the host's records":       string(records),
			} {
				Expect(text).NotTo(BeEmpty(), "%s saw nothing", what)
				Expect(secret.ContainsString(text)).To(BeFalse(), "%s saw the value: %s", what, text)
				Expect(text).NotTo(ContainSubstring(requestSecret), what)
				Expect(text).To(ContainSubstring("[sensitive]"), "%s shows where the value was", what)
			}
			Expect(p.Confirmations()[0].SensitiveMasked).To(BeTrue(), "the record says the host had to mask")
		},
	},
	"the page's text forges lines of the terminal report": {
		page: "forges-report.html",
		code: receipt.CodeExecutionFailed, phase: receipt.PhaseDispatch,
		message: "the runtime threw synchronously: boom",
		then: func(_ *glasstest.Page, r *receipt.Receipt) {
			// The receipt keeps the page's text as data; printed, its line
			// breaks are escapes (the CLI's report: cmd/glass-conformance,
			// TestPageTextNeverForgesALineOfTheReport).
			Expect(r.Result.Error.Message).To(ContainSubstring("\n  PASS        policy.denied"))
			Expect(r.GomegaString()).NotTo(ContainSubstring("\n"))
		},
	},
	"the runtime repeats a sensitive value until Glass cuts a copy": {
		page: "leaks-cut-copy.html", args: leakArgs,
		opts: []glasstest.PageOption{glasstest.Sensitive("pw", leakSecret), glasstest.Trace(true)},
		code: receipt.CodeReceiptInvalid, phase: receipt.PhaseTransport,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			// The refusal quotes 40 characters of the code: "x", two
			// copies and the first nine characters of a third.
			cut := string([]rune(leakSecret)[:9])
			Expect(r.Result.Error.Message).To(ContainSubstring(cut+"…"), "the receipt the spec holds quotes the cut copy")
			files := expectEvidenceFreeOf(p, []string{leakSecret}, cut)
			Expect(string(files[glasstest.ReceiptsFile])).To(ContainSubstring(`[sensitive][sensitive][sensitive]…`))
		},
	},
	"the runtime echoes a sensitive value JSON-escaped in its receipt and its snapshot": {
		page: "leaks-json-escaped.html", args: leakArgs,
		opts: []glasstest.PageOption{glasstest.Sensitive("pw", leakSecret), glasstest.Trace(true)},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			nested := strings.ReplaceAll(jsonEscapedLeak, `\`, `\\`)
			Expect(string(r.Result.Data)).To(ContainSubstring(jsonEscapedLeak), "the receipt the spec holds keeps the page's JSON as sent")
			Expect(string(r.Result.Data)).To(ContainSubstring(nested))
			Expect(p.Snapshot().State).To(HaveKeyWithValue("typed", leakSecret))
			files := expectEvidenceFreeOf(p, []string{leakSecret}, leakSecret, jsonEscapedLeak, nested, `s3cret pw!&ü\"x`)
			Expect(string(files[glasstest.ReceiptsFile])).To(ContainSubstring(`"echo": "[sensitive]"`))
			Expect(string(files[glasstest.SnapshotsFile])).To(ContainSubstring(`"typed": "[sensitive]"`))
		},
	},
	"the page sends a sensitive value percent-encoded in its requests and its DOM": {
		page: "leaks-percent-encoded.html", args: leakArgs,
		opts: []glasstest.PageOption{glasstest.Sensitive("pw", leakSecret), glasstest.Trace(true)},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			Expect(p.Playwright().Locator("a").AllTextContents()).To(Equal(percentLeaks[:5]), "the page wrote every form")
			files := expectEvidenceFreeOf(p, []string{leakSecret}, percentLeaks...)
			Expect(string(files[glasstest.TraceFile+": trace.network"])).To(ContainSubstring("/leak?component=[sensitive]&query=[sensitive]&path=[sensitive]&lower=[sensitive]&twice=[sensitive]"), "the requests were recorded, scrubbed")
			Expect(string(files[glasstest.TraceFile+": trace.trace"])).To(ContainSubstring("[sensitive]"), "the DOM was recorded, scrubbed")
		},
	},
	"the page writes a sensitive value as HTML character references": {
		page: "leaks-html-entities.html", args: leakArgs,
		opts: []glasstest.PageOption{glasstest.Sensitive("pw", leakSecret), glasstest.Trace(true)},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			Expect(p.Playwright().Locator("[data-echo]").GetAttribute("data-echo")).To(Equal(htmlEntitiesLeak), "the page wrote the references")
			files := expectEvidenceFreeOf(p, []string{leakSecret}, htmlEntitiesLeak, "&#115;&#x33;&#X63;")
			body := false
			for name, b := range files {
				body = body || strings.Contains(name, "resources/") && string(b) == "<p>[sensitive]</p>"
			}
			Expect(body).To(BeTrue(), "the request body was recorded, scrubbed")
		},
	},
	"the runtime echoes sensitive values in another normalisation form": {
		page: "leaks-normalised.html",
		args: map[string]any{"password": glasstest.SensitiveRef("pw"), "code": glasstest.SensitiveRef("code")},
		opts: []glasstest.PageOption{glasstest.Sensitive("pw", nfcSecret), glasstest.Sensitive("code", compatSecret), glasstest.Trace(true)},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			Expect(string(r.Result.Data)).To(ContainSubstring(normalisedLeaks[0]), "the page echoed the NFD form")
			Expect(string(r.Result.Data)).To(ContainSubstring(normalisedLeaks[2]), "the page echoed the NFKC form")
			p.Snapshot()
			files := expectEvidenceFreeOf(p, []string{nfcSecret, compatSecret}, normalisedLeaks...)
			Expect(string(files[glasstest.ReceiptsFile])).To(ContainSubstring(`"nfd": "[sensitive]"`))
		},
	},
	"the page shows a sensitive value where no mask of the screenshot reaches": {
		page: "leaks-on-screen.html", args: leakArgs,
		opts: []glasstest.PageOption{glasstest.Sensitive("pw", leakSecret), glasstest.Trace(true)},
		code: receipt.CodeNone, phase: receipt.PhaseNone,
		then: func(p *glasstest.Page, r *receipt.Receipt) {
			Expect(p.Playwright().Locator("input").GetAttribute("placeholder")).To(Equal(leakSecret), "the page shows the value")
			Eventually(func() (string, error) {
				return p.Playwright().FrameLocator("iframe[srcdoc]").Locator("p").TextContent()
			}).Should(Equal(leakSecret))
			files := expectEvidenceFreeOf(p, []string{leakSecret}, leakSecret, cssLeak, cssLeakJSON, `s3cret p","w!&ü`)
			Expect(string(files[glasstest.TraceFile+": trace.trace"])).To(ContainSubstring(`["P",{},"[sensitive]"]`), "the paragraph of two text nodes was recorded, scrubbed")
		},
	},
}

var _ = Describe("Faults: Glass never hangs, never panics, and says where", func() {
	var base string
	BeforeEach(func() {
		base = glasstest.Serve(faults.Handler())
	})

	It("has a page for every fault kind and says how many kinds there are", func() {
		// Pages other specs use: where navigates-away goes, and the
		// runtimes of the driving and confirmation specs.
		// inspects-host.html is the conformance suite's (host.channels-first).
		used := map[string]bool{"elsewhere.html": true, "terse-not-found.html": true, "leaky-confirm.html": true, "inspects-host.html": true}
		for _, f := range faultKinds {
			used[f.page] = true
		}
		for _, p := range faults.Pages() {
			Expect(used).To(HaveKey(p), "fault page %s has no spec", p)
		}
		AddReportEntry("fault kinds", len(faultKinds))
		GinkgoWriter.Printf("fault kinds: %d\n", len(faultKinds))
		Expect(len(faultKinds)).To(BeNumerically(">=", 18))
	})

	// In name order, so that every run registers the specs alike.
	for _, name := range slices.Sorted(maps.Keys(faultKinds)) {
		f := faultKinds[name]
		It(name, func() {
			b, err := glasstest.Shared()
			Expect(err).NotTo(HaveOccurred())
			contexts := b.Contexts()
			goroutines := runtime.NumGoroutine()

			page := glasstest.Open(base+"/"+f.page, f.opts...)
			if f.before != nil {
				f.before(page)
			}
			timeout := f.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			if f.during != nil {
				go func() {
					defer GinkgoRecover()
					f.during(page)
				}()
			}
			action := f.action
			if action == "" {
				action = "act"
			}
			start := time.Now()
			r := page.Do(action, f.args, glasstest.Timeout(timeout))
			took := time.Since(start)

			Expect(took).To(BeNumerically("<", timeout+callSlack), "the call took %s, bound %s", took, timeout)
			Expect(r.Code()).To(Equal(f.code), "%s", r.GomegaString())
			Expect(r.FailurePhase()).To(Equal(f.phase))
			if f.code != receipt.CodeNone {
				Expect(r.Result.Error.Message).To(ContainSubstring(f.message))
				Expect(r.Result.Error.Code.Phase()).To(Equal(f.phase), "the code's phase and the envelope's agree")
			}
			if f.then != nil {
				f.then(page, r)
			}

			Expect(page.Close()).To(Succeed())
			Eventually(b.Contexts).Should(Equal(contexts), "browser contexts left open")
			Eventually(runtime.NumGoroutine).WithTimeout(10*time.Second).Should(BeNumerically("<=", goroutines), "goroutines left behind")
			Expect(b.Connected()).To(BeTrue(), "the browser survives the fault")
		})
	}
})
