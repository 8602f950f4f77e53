package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// theUser plays the user of the identity hand-off: they read the code from
// their authenticator app and type it, with real input.
func theUser(code string) glasstest.Option {
	return glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {
		Expect(h.Page().GetByLabel("Code from your authenticator app").Fill(code)).To(Succeed())
		Expect(h.Page().GetByRole("button", playwright.PageGetByRoleOptions{Name: "Verify"}).Click()).To(Succeed())
		// Like a person, they read the page's answer (its server's) before
		// they say they are done.
		answer := h.Page().Locator("#toasts").GetByText(regexp.MustCompile("Identity verified|That code is not valid")).First()
		Expect(answer.WaitFor()).To(Succeed())
		return glasstest.HandoffCompleted
	})
}

func exportData(r *receipt.Receipt) map[string]any {
	GinkgoHelper()
	var v map[string]any
	Expect(json.Unmarshal(r.Result.Data, &v)).To(Succeed())
	return v
}

var _ = Describe("Every execution mode on the Todo page", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})
	// open gives the page's expectations ten seconds instead of the
	// contract's two: the app's writes go through its server, and CI
	// machines are busy. Specs about an expectation that fails set a short
	// one per call. When the spec ends, every receipt the page produced
	// must validate against the contract's JSON Schema.
	open := func(url string, opts ...glasstest.PageOption) *glasstest.Page {
		GinkgoHelper()
		page := glasstest.Open(url, append([]glasstest.PageOption{glasstest.ExpectTimeout(10 * time.Second)}, opts...)...)
		DeferCleanup(func() {
			for _, r := range page.Receipts() {
				b, err := receipt.CanonicalJSON(r)
				Expect(err).NotTo(HaveOccurred())
				Expect(schema.ValidateReceipt(b)).To(Succeed(), "the receipt of %s", r.Result.Action.ID)
			}
		})
		return page
	}

	Describe("an element action: add a task", func() {
		It("adds it through the app's own write path", func() {
			page := open(url)
			r := page.Do("add", map[string]string{"title": "Pick up the dry cleaning", "priority": "high"})
			Expect(r).To(SatisfyExpectation("The new task is in the list"))
			Expect(r).To(HaveChanged(Records(Added("t13"), Total(12, 13)), Actions(Added("remove@t13"))))
			Expect(r.Result.Changed.Feedback.Added).To(Equal([]receipt.Feedback{{Kind: "success", Text: "Added “Pick up the dry cleaning”"}}))
			t13 := page.Snapshot().Records.Items[12]
			Expect(t13.Fields).To(Equal(map[string]any{"title": "Pick up the dry cleaning", "done": false, "priority": "high"}))
		})

		It("fills in the default priority", func() {
			page := open(url)
			Expect(page.Do("add", map[string]string{"title": "Call mum"}).Result.OK).To(BeTrue())
			Expect(page.Snapshot().Records.Items[12].Fields["priority"]).To(Equal("normal"))
		})

		DescribeTable("refuses a task the contract rejects, before anything runs",
			func(args string, path string) {
				page := open(url)
				r := page.Do("add", args)
				Expect(r).To(FailAtPhase(receipt.PhasePreflight))
				Expect(r.Code()).To(Equal(receipt.CodeInvalidParams))
				Expect(r.Result.Error.Path).To(Equal(path))
				Expect(page.Snapshot().Records.Total).To(Equal(12))
			},
			Entry("no title", `{"priority": "high"}`, "/title"),
			Entry("an empty title", `{"title": ""}`, "/title"),
			Entry("a priority outside low|normal|high", `{"title": "x", "priority": "urgent"}`, "/priority"),
		)
	})

	Describe("an element action on a native control: toggle done", func() {
		It("checks the row's checkbox, revealing a row below the fold first", func() {
			page := open(url)
			r := page.Do("toggle", map[string]string{"task": "t9"})
			Expect(r).To(SatisfyExpectation("The task's done mark flipped"))
			Expect(r.Result.Changed.Records.Updated).To(Equal([]receipt.UpdatedRecord{{ID: "t9", Fields: []string{"done"}}}))
			Expect(r.Result.Changed.Feedback.Added).To(Equal([]receipt.Feedback{{Kind: "success", Text: "Completed “Weekly report”"}}))
			Expect(page.Playwright().Locator(`li[data-task="t9"] input.toggle`).IsChecked()).To(BeTrue())
			Expect(page.Do("toggle", map[string]string{"task": "t9"})).To(SatisfyExpectation())
			Expect(page.Snapshot().Records.Items[8].Fields["done"]).To(BeFalse())
		})
	})

	Describe("a flow: edit through the dialog", func() {
		It("opens the dialog, fills it and saves, as one operation with one diff", func() {
			page := open(url)
			r := page.Do("edit", map[string]string{"task": "t2", "title": "Call the electrician", "priority": "high"})
			Expect(r).To(SatisfyExpectation("The task has the new title"))
			Expect(r.Result.Steps).To(Equal([]receipt.Step{
				{Index: 0, ID: "edit.open", Outcome: receipt.StepOK},
				{Index: 1, ID: "edit.title", Outcome: receipt.StepOK},
				{Index: 2, ID: "edit.priority", Outcome: receipt.StepOK},
				{Index: 3, ID: "edit.save", Outcome: receipt.StepOK},
			}))
			Expect(r.Result.Changed.Records.Updated).To(Equal([]receipt.UpdatedRecord{{ID: "t2", Fields: []string{"title", "priority"}}}))
			Expect(r.Result.Changed.Feedback.Added).To(Equal([]receipt.Feedback{{Kind: "success", Text: "Saved “Call the electrician”"}}))
		})

		It("its steps are actions of their own: open, type, choose, cancel, and nothing is saved", func() {
			page := open(url)
			Expect(page.Do("edit.open", map[string]string{"task": "t2"})).To(BeOK())
			Expect(page.Do("edit.title", map[string]string{"value": "Call the electrician"})).To(BeOK())
			Expect(page.Do("edit.priority", map[string]string{"value": "high"})).To(BeOK())
			Expect(page.Do("edit.cancel", nil)).To(BeOK())
			Expect(page.Snapshot().Records.Items[1].Fields).NotTo(HaveKeyWithValue("title", "Call the electrician"))
		})

		It("the dialog's buttons are unavailable while it is closed", func() {
			page := open(url)
			r := page.Do("edit.save", nil)
			Expect(r).To(FailAtPhase(receipt.PhaseTargetResolution))
			Expect(r.Result.Error.Reason).To(Equal(`the dialog "Edit task" is closed`))
		})

		It("a save that fails stops the flow with a resume handle; resume saves without reopening the dialog", func() {
			page := open(url + "/?fault=save-fails-once")
			r := page.Do("edit", map[string]string{"task": "t2", "title": "Call the electrician"})
			Expect(r).To(SatisfyAll(FailWith(receipt.CodeStepFailed), BeResumable()))
			Expect(r).To(HaveSteps(StepOK("edit.open"), StepOK("edit.title"), StepOK("edit.priority"), StepFailed("edit.save", receipt.CodeExecutionFailed)))
			Expect(r.Result.Error.Message).To(HaveSuffix("the handler threw: the server did not answer"))

			resumed := page.Resume(r.Result.Resume)
			Expect(resumed).To(SatisfyExpectation("The task has the new title"))
			Expect(resumed).To(HaveSteps(StepSkipped("edit.open"), StepSkipped("edit.title"), StepSkipped("edit.priority"), StepOK("edit.save")))
			Expect(resumed).To(HaveChanged(Records(Updated("t2", "title"))))
		})
	})

	Describe("a hand-off and a function action: verify identity, then export", func() {
		It("export needs the identity check first", func() {
			page := open(url)
			r := page.Do("export", nil)
			Expect(r).To(FailAtPhase(receipt.PhaseTargetResolution))
			Expect(r.Result.Error.Reason).To(Equal("verify your identity first (verify-identity)"))
		})

		It("the user verifies, and export returns a bounded business result", func() {
			page := open(url, theUser(app.IdentityCode))
			v := page.Do("verify-identity", nil)
			Expect(v).To(SatisfyExpectation("The identity is verified"))
			Expect(v.Result.Changed.State.Changed).To(Equal([]string{"identity"}))
			Expect(page.Confirmations()).To(BeEmpty())

			r := page.Do("export", nil)
			Expect(r.Result.OK).To(BeTrue())
			Expect(r.Result.Warning).To(BeEmpty(), "a read gets no warning")
			data := exportData(r)
			Expect(data).To(HaveKeyWithValue("reference", "exp-1"))
			Expect(data).To(HaveKeyWithValue("count", 12.0))
			Expect(data["tasks"]).To(HaveLen(12))
		})

		It("a long export is cut, with a marker that says how much was left out", func() {
			page := open(url+"/?tasks=30", theUser(app.IdentityCode))
			Expect(page.Do("verify-identity", nil).Result.OK).To(BeTrue())
			tasks := exportData(page.Do("export", nil))["tasks"].([]any)
			Expect(tasks).To(HaveLen(21))
			Expect(tasks[20]).To(Equal("[10 more items]"))
		})

		It("a wrong code is not verified: HANDOFF_FAILED", func() {
			page := open(url, theUser("000000"))
			r := page.Do("verify-identity", nil, glasstest.ExpectTimeout(300*time.Millisecond))
			Expect(r).To(FailAtPhase(receipt.PhaseDispatch))
			Expect(r.Code()).To(Equal(receipt.CodeHandoffFailed))
			Expect(r.Result.Changed.Feedback.Added).To(Equal([]receipt.Feedback{{Kind: "error", Text: "That code is not valid"}}))
		})

		It("the user cancels: HANDOFF_CANCELLED", func() {
			page := open(url, glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome {
				return glasstest.HandoffCancelled
			}))
			Expect(page.Do("verify-identity", nil).Code()).To(Equal(receipt.CodeHandoffCancelled))
		})
	})

	Describe("a state view: the filter", func() {
		It("reports the filter change and makes hidden rows' actions unavailable, with the reason", func() {
			page := open(url, glasstest.Approve())
			Expect(page.Do("toggle", map[string]string{"task": "t3"}).Result.OK).To(BeTrue())
			r := page.Do("filter", map[string]string{"value": "done"})
			Expect(r.Result.OK).To(BeTrue())
			Expect(r.Result.Changed.State.Changed).To(Equal([]string{"filter"}))
			Expect(page.Snapshot().State).To(Equal(map[string]any{"filter": "done", "identity": "unverified"}))

			hidden := page.Do("remove@t9", nil)
			Expect(hidden).To(FailAtPhase(receipt.PhaseTargetResolution))
			Expect(hidden.Code()).To(Equal(receipt.CodeActionUnavailable))
			Expect(hidden.Result.Error.Reason).To(Equal("hidden by the filter “done”; show all tasks first"))
			Expect(page.Do("remove@t3", nil)).To(HaveChanged(Records(Removed("t3"), Total(12, 11))))
		})
	})

	Describe("toasts as feedback", func() {
		It("keeps the page's toasts in the snapshot, newest last", func() {
			page := open(url, glasstest.Approve())
			page.Do("add", map[string]string{"title": "Book flights"})
			page.Do("remove@t1", nil)
			Expect(page.Snapshot().Feedback).To(Equal([]receipt.Feedback{
				{Kind: "success", Text: "Added “Book flights”"},
				{Kind: "success", Text: "Deleted “Buy groceries”"},
			}))
		})
	})

	Describe("WebMCP", func() {
		It("publishes every action as a tool, with the rows' deletes folded into one", func() {
			page := open(url)
			tools, err := page.Tools()
			Expect(err).NotTo(HaveOccurred())
			names := map[string]bool{}
			for _, t := range tools {
				names[t.Name] = true
			}
			Expect(names).To(Equal(map[string]bool{
				"remove": true, "add": true, "toggle": true, "edit": true, "edit.open": true, "edit.title": true,
				"edit.priority": true, "edit.save": true, "edit.cancel": true, "filter": true, "export": true, "verify-identity": true,
				"search": true, "sync": true, "dismiss": true, "clear-done": true, "clear-done.delete": true, "discard": true,
			}))
		})

		It("the seed's walkthrough through the folded tool gives the golden receipt", func() {
			page := open(url, glasstest.Approve())
			r := page.Do("remove", map[string]string{"record": "t9"}, glasstest.Via(glasstest.TransportWebMCP))
			got, err := receipt.CanonicalJSON(receipt.Normalize(r))
			Expect(err).NotTo(HaveOccurred())
			want, err := os.ReadFile("testdata/remove-t9-approved.golden.json")
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.TrimSpace(string(got))).To(Equal(strings.TrimSpace(string(want))))
		})
	})
})
