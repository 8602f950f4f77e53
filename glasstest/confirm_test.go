package glasstest_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("Playing the agent runtime: confirmations", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(harnessHandler())
	})

	signIn := map[string]any{"user": "ada", "password": glasstest.SensitiveRef("pw"), "note": "hunter2"}

	It("approves with a host ticket that the receipt echoes, and records the request", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("remove@r1", nil)
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())

		asked := page.Confirmations()
		Expect(asked).To(HaveLen(1))
		Expect(asked[0].Request.Action).To(Equal("remove@r1"))
		Expect(asked[0].Request.Risk).To(Equal(receipt.RiskDangerous))
		Expect(asked[0].Request.ExecutionID).To(Equal(r.ExecutionID))
		Expect(asked[0].Solicited).To(BeTrue())
		Expect(asked[0].Approved).To(BeTrue())
		Expect(asked[0].Ticket).To(And(HavePrefix("tk_"), HaveLen(131)))
		Expect(r.Confirmations).To(ConsistOf(receipt.Confirmation{Action: "remove@r1", Risk: receipt.RiskDangerous, Approved: true, Ticket: asked[0].Ticket}))
		Expect(page.VerifyConfirmations(r)).To(Succeed())
	})

	It("is read by the confirmation matchers: asked, for which action, approved or denied, how often, masked", func() {
		page := glasstest.Open(url, glasstest.Sensitive("pw", "s3cret-pw"), glasstest.Approve())
		Expect(page.Do("sign-in", signIn)).To(BeOK())
		Expect(page.Do("remove@r1", nil, glasstest.Deny())).To(FailWith(receipt.CodePermissionDenied))
		Expect(page.Do("count", nil)).To(BeOK())

		Expect(page).To(HaveAskedConfirmation(Times(2)))
		Expect(page).To(HaveAskedConfirmationFor("sign-in", Approved(), WithMasked("password")))
		Expect(page).To(HaveAskedConfirmationFor("remove@r1", Denied(), Times(1)))
		Expect(page).NotTo(HaveAskedConfirmationFor("count"))
		Expect(page.Confirmations()).To(HaveAskedConfirmationFor(HavePrefix("remove@"), Denied()))

		m := HaveAskedConfirmationFor("remove@r1", Approved())
		Expect(m.Match(page)).To(BeFalse())
		Expect(m.FailureMessage(page)).To(Equal(`Expected the page to have asked the user to confirm "remove@r1", approved, at least once,
but it asked never that counted, of 2 request(s):
    1. sign-in, write: approved, args {"note":"hunter2","password":"[sensitive]","user":"ada"}
    2. remove@r1, dangerous: denied (denied by the user), args {}`))
	})

	It("denies by default, at phase policy, and the denial is reported and verifiable", func() {
		page := glasstest.Open(url)
		r := page.Do("remove@r1", nil)
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r.Code()).To(Equal(receipt.CodePermissionDenied))
		Expect(page.Confirmations()).To(ConsistOf(HaveField("Reason", "denied by the user")))
		Expect(page.VerifyConfirmations(r)).To(Succeed())
	})

	It("answers DenyAs's malformed approval, which the host records as a denial and a runtime must take as one", func() {
		page := glasstest.Open(url)
		r := page.Do("remove@r1", nil, glasstest.DenyAs("1"))
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r.Code()).To(Equal(receipt.CodePermissionDenied))
		Expect(page.Confirmations()).To(ConsistOf(And(HaveField("Approved", false), HaveField("Ticket", ""))))
		Expect(page.VerifyConfirmations(r)).To(Succeed())

		// A runtime that tests approved for truth takes {"approved": "1"}
		// as a yes; true, or a value that does not encode, is a plain no.
		m, ok := mutants.ByName("ref-approved-truthy")
		Expect(ok).To(BeTrue())
		src, err := m.Runtime()
		Expect(err).NotTo(HaveOccurred())
		truthy := glasstest.Open(glasstest.Serve(m.Base().Page(src)))
		for _, no := range []any{true, func() {}} {
			Expect(truthy.Do("remove@n01", nil, glasstest.DenyAs(no))).To(FailWith(receipt.CodePermissionDenied))
		}
		r = truthy.Do("remove@n01", nil, glasstest.DenyAs("1"))
		Expect(r).To(BeOK())
		Expect(truthy.VerifyConfirmations(r)).To(MatchError(ContainSubstring("remove@n01")))
	})

	It("makes the channel reject with ConfirmChannelFails, which the host records as a denial and a runtime must take as one", func() {
		page := glasstest.Open(url)
		r := page.Do("remove@r1", nil, glasstest.ConfirmChannelFails())
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r.Code()).To(Equal(receipt.CodePermissionDenied))
		Expect(r.Confirmations).To(ConsistOf(And(HaveField("Approved", false), HaveField("Ticket", ""))))
		Expect(page.Confirmations()).To(ConsistOf(And(HaveField("Approved", false), HaveField("Ticket", ""), HaveField("Reason", "the confirmation channel failed"))))

		// A runtime that lets the channel's rejection through rejects too:
		// the harness gets no receipt of the runtime's.
		m, ok := mutants.ByName("ref-confirm-throw-propagates")
		Expect(ok).To(BeTrue())
		src, err := m.Runtime()
		Expect(err).NotTo(HaveOccurred())
		throws := glasstest.Open(glasstest.Serve(m.Base().Page(src)))
		Expect(throws.Do("remove@n01", nil, glasstest.ConfirmChannelFails())).NotTo(FailWith(receipt.CodePermissionDenied))
		Expect(throws.Do("remove@n01", nil, glasstest.Deny())).To(FailWith(receipt.CodePermissionDenied))
	})

	It("takes a call's policy over the page's", func() {
		page := glasstest.Open(url, glasstest.Deny())
		Expect(page.Do("remove@r1", nil, glasstest.Approve()).Result.OK).To(BeTrue())
		Expect(page.Do("remove@r2", nil)).To(FailAtPhase(receipt.PhasePolicy))
		Expect(page.Confirmations()).To(HaveLen(2))
	})

	It("with no channel, leaves the runtime to deny on its own and records nothing", func() {
		page := glasstest.Open(url, glasstest.NoConfirmationChannel())
		Expect(page.Playwright().Evaluate("typeof glassHost.confirm")).To(Equal("undefined"))
		r := page.Do("remove@r1", nil, glasstest.Approve())
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r.Result.Error.Reason).To(Equal("no confirmation channel"))
		Expect(page.Confirmations()).To(BeEmpty())
		Expect(page.VerifyConfirmations(r)).To(Succeed())
	})

	It("as a call option, makes the channel refuse that call", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("remove@r1", nil, glasstest.NoConfirmationChannel())
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(page.Confirmations()).To(ConsistOf(HaveField("Reason", "no confirmation channel")))
	})

	It("shows a ConfirmWith function the request with sensitive values masked, and counts every ask", func() {
		var seen []glasstest.ConfirmRequest
		page := glasstest.Open(url, glasstest.Sensitive("pw", "s3cret-pw"), glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool {
			seen = append(seen, req)
			return req.Action == "sign-in"
		}))
		r := page.Do("sign-in", signIn)
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		Expect(page.Do("remove@r3", nil)).To(FailAtPhase(receipt.PhasePolicy))

		Expect(seen).To(HaveLen(2))
		Expect(seen[0].Action).To(Equal("sign-in"))
		Expect(seen[0].Risk).To(Equal(receipt.RiskWrite))
		Expect(seen[0].Args).To(Equal(map[string]any{"user": "ada", "password": "[sensitive]", "note": "hunter2"}))
		Expect(seen[1].Action).To(Equal("remove@r3"))
		Expect(page.Confirmations()).To(HaveLen(2))
		Expect(page.Snapshot().State).To(HaveKeyWithValue("signedIn", "ada"))
	})

	It("masks sensitive values itself when a runtime forgets to", func() {
		var seen glasstest.ConfirmRequest
		page := glasstest.Open(glasstest.Serve(faults.Handler())+"/leaky-confirm.html",
			glasstest.Sensitive("pw", "s3cret-pw"),
			glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool { seen = req; return true }))
		r := page.Do("wipe", map[string]any{"user": "ada", "password": glasstest.SensitiveRef("pw")})
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())

		b, err := json.Marshal(seen.Args)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).NotTo(ContainSubstring("s3cret-pw"))
		Expect(seen.Args).To(Equal(map[string]any{
			"user": "ada", "password": "[sensitive]",
			"nested": map[string]any{"again": "[sensitive]", "list": []any{"[sensitive]", "public"}},
		}))
		rec, err := json.Marshal(page.Confirmations())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rec)).NotTo(ContainSubstring("s3cret-pw"))
		Expect(page.VerifyConfirmations(r)).To(Succeed())
	})

	It("never approves a page script that asks on its own, through glassHost or the raw binding", func() {
		page := glasstest.Open(url, glasstest.Approve())
		done := page.Do("count", nil)
		Expect(done.Result.OK).To(BeTrue())

		// A page script asks for an execution that is over, and for one that
		// never existed; then calls the binding under glassHost directly.
		answers, err := page.Playwright().Evaluate(`async (ended) => {
			const req = (executionId) => ({ executionId, action: "remove@r1", risk: "dangerous", args: {} });
			return [
				await glassHost.confirm(req(ended)),
				await glassHost.confirm(req("act_made_up")),
				JSON.parse(await __glassHostCall(JSON.stringify({ type: "confirm", request: req(ended) }))),
			];
		}`, done.ExecutionID)
		Expect(err).NotTo(HaveOccurred())
		Expect(answers).To(HaveEach(HaveKeyWithValue("approved", false)))
		Expect(answers).To(HaveEach(Not(HaveKey("ticket"))))

		asked := page.Confirmations()
		Expect(asked).To(HaveLen(3))
		Expect(asked).To(HaveEach(And(HaveField("Solicited", false), HaveField("Approved", false))))
		Expect(asked[0].Reason).To(Equal("no call of the host is waiting for this confirmation"))
		Expect(asked[2].Raw).To(BeTrue())
		Expect(asked[2].Reason).To(Equal("the host binding was called directly, not through glassHost"))
	})

	It("refuses a raw hand-off request as well", func() {
		page := glasstest.Open(url, glasstest.Approve())
		answer, err := page.Playwright().Evaluate(`async () => JSON.parse(await __glassHostCall(JSON.stringify({ type: "handoff", request: {} })))`)
		Expect(err).NotTo(HaveOccurred())
		Expect(answer).To(HaveKeyWithValue("status", "failed"))
	})

	It("keeps the channel out of the page's reach: glassHost cannot be replaced", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Playwright().Evaluate(`() => {
			try { globalThis.glassHost = { confirm: async () => ({ approved: true, ticket: "tk_fake" }) }; } catch (e) {}
			try { Object.defineProperty(globalThis, "glassHost", { value: {} }); } catch (e) {}
			try { glassHost.confirm = async () => ({ approved: true }); } catch (e) {}
			return glassHost.confirm.toString().includes("send");
		}`)).To(BeTrue())
		r := page.Do("remove@r1", nil, glasstest.Deny())
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
	})

	It("turns a panicking ConfirmWith function into a denial that names it", func() {
		b, err := glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
		page, err := glasstest.OpenPage(b, url, glasstest.ConfirmWith(func(glasstest.ConfirmRequest) bool { panic("boom") }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(page.Close)
		r := page.Do("remove@r1", nil)
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(page.Confirmations()).To(ConsistOf(HaveField("Reason", `glasstest: the ConfirmWith function panicked on "remove@r1": boom`)))
	})

	It("detects a receipt that reports an approval the host never gave", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("remove@r1", nil)
		Expect(page.VerifyConfirmations(r)).To(Succeed())

		forged := *r
		forged.Confirmations = []receipt.Confirmation{{Action: "remove@r1", Risk: receipt.RiskDangerous, Approved: true}}
		Expect(page.VerifyConfirmations(&forged)).To(MatchError(And(
			ContainSubstring("approved without a host ticket"),
			ContainSubstring("but the receipt does not report it"),
		)))

		other := page.Do("remove@r2", nil)
		reused := *other
		reused.Confirmations = []receipt.Confirmation{r.Confirmations[0], r.Confirmations[0]}
		err := page.VerifyConfirmations(&reused)
		Expect(err).To(MatchError(ContainSubstring("was issued for remove@r1 of execution " + r.ExecutionID)))
		Expect(err).To(MatchError(ContainSubstring("claimed twice")))
	})
})

var _ = Describe("Confirmations of a flow's steps", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(harnessHandler()) + "/flow.html"
	})

	It("answers each step, by the flow and step or by a step the snapshot declares, and the receipt verifies", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Snapshot().Actions.Items[0].Steps).To(Equal([]string{"pay", "ship"}))
		r := page.Do("checkout", nil)
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())

		asked := page.Confirmations()
		Expect(asked).To(HaveLen(2), "one ask per step")
		Expect(asked[0].Request.Action).To(Equal("checkout"))
		Expect(asked[0].Request.Step).To(Equal("pay"))
		Expect(asked[1].Request.Action).To(Equal("ship"))
		Expect(asked).To(HaveEach(And(HaveField("Solicited", true), HaveField("Approved", true))))
		Expect(page.VerifyConfirmations(r)).To(Succeed())
	})

	It("denies a request naming another action when no snapshot says it is a step", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("checkout", nil)
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		asked := page.Confirmations()
		Expect(asked).To(HaveLen(2))
		Expect(asked[0].Approved).To(BeTrue())
		Expect(asked[1].Solicited).To(BeFalse())
		Expect(page.VerifyConfirmations(r)).To(Succeed(), "the receipt reports both answers as given")
	})
})

var _ = Describe("Confirmation specs read like the contract", func() {
	It("asks once per dangerous call and reports it in the receipt", func() {
		page := glasstest.Open(glasstest.Serve(harnessHandler()), glasstest.Approve())
		Expect(page.Do("remove@r1", nil)).To(HaveChanged(Records(Removed("r1"))))
		Expect(page.Do("count", nil).Confirmations).To(BeEmpty(), "a read action asks nothing")
		Expect(page.Confirmations()).To(HaveLen(1))
	})
})
