package live_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/surface"
)

// compare is the report of the page against the baseline file.
func compare(baseline string, page *glasstest.Page) *surface.Report {
	GinkgoHelper()
	base, err := surface.Load(baseline)
	Expect(err).NotTo(HaveOccurred())
	snap, err := page.TrySnapshot()
	Expect(err).NotTo(HaveOccurred())
	live, err := surface.FromSnapshot(snap)
	Expect(err).NotTo(HaveOccurred())
	return surface.Compare(base, live)
}

// fixtures/pages/surface.html is a help desk; ?change=NAME changes one
// thing of what it declares. testdata/helpdesk.surface.json is its
// reviewed surface as it is (GLASS_UPDATE_GOLDEN=1 rewrites it).
var _ = Describe("The capability surface of the help desk page", func() {
	const baseline = "testdata/helpdesk.surface.json"
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(handler()) + "/surface.html"
	})

	It("is the reviewed baseline, row actions folded and record ids left out", func() {
		page := glasstest.Open(url)
		Expect(page).To(MatchSurface(baseline))
		Expect(compare(baseline, page).Differences).To(BeEmpty())
	})

	DescribeTable("a breaking change fails, naming the action and what changed",
		func(change, line string) {
			page := glasstest.Open(url + "?change=" + change)
			m := MatchSurface(baseline)
			Expect(m.Match(page)).To(BeFalse())
			Expect(m.FailureMessage(page)).To(ContainSubstring("\n    BREAKING      " + line + "\n"))
			rep := compare(baseline, page)
			Expect(rep.Breaking()).To(BeTrue())
			Expect(rep.Text()).To(Equal("  BREAKING      " + line + "\n\n1 breaking, 0 need review, 0 additive\n"))
		},
		Entry("a risk lowered", "risk-lowered", "close: risk lowered from dangerous to write: a call no longer asks the user"),
		Entry("a confirmation dropped", "confirm-dropped", "assign: confirm changed from true to false: a call no longer asks the user"),
		Entry("a parameter made required", "param-required", "reply: parameter tone is now required: a call without it is refused"),
		Entry("an enum narrowed", "enum-narrowed", `reply: parameter tone: lost the enum value "brief": a call with it is refused`),
		Entry("a maximum lowered", "max-lowered", "reply: parameter body: maxLength lowered from 2000 to 500: longer values are refused"),
		Entry("a sensitive parameter no longer sensitive", "not-sensitive", "login: parameter password is no longer sensitive: its value is shown in confirmation and hand-off requests"),
		Entry("a flow's steps reordered", "steps-reordered", "triage: the flow's steps changed order from [tag, route, notify] to [tag, notify, route]"),
		Entry("a flow's step lost", "step-lost", `triage: the flow lost the step "route": steps [tag, route, notify] are now [tag, notify]`),
		Entry("a hand-off automated", "handoff-automated", "verify-manager: kind changed from handoff to function: the user no longer performs it, the page runs it for the agent"),
		Entry("an action removed", "action-removed", "export: action removed: an agent that calls it fails"),
		Entry("a row tool removed", "tool-removed", "close: tool of the rows close@<record> removed: an agent that calls it fails"),
	)

	DescribeTable("a change that needs review fails the suite's match, and not the CLI gate",
		func(change, line string) {
			page := glasstest.Open(url + "?change=" + change)
			m := MatchSurface(baseline)
			Expect(m.Match(page)).To(BeFalse())
			Expect(m.FailureMessage(page)).To(ContainSubstring("\n    NEEDS REVIEW  " + line + "\n"))
			rep := compare(baseline, page)
			Expect(rep.Breaking()).To(BeFalse())
			Expect(rep.Text()).To(Equal("  NEEDS REVIEW  " + line + "\n\n0 breaking, 1 needs review, 0 additive\n"))
		},
		Entry("a risk raised", "risk-raised", "login: risk raised from write to dangerous: a call now asks the user"),
		Entry("a description changed", "description-changed", `reply: description changed from "Reply to the customer" to "Reply to the customer by email"`),
		Entry("a new optional parameter", "optional-param", "reply: new optional parameter cc"),
		Entry("a fidelity lowered", "fidelity-lowered", "refresh: fidelity lowered from high to low: the runtime now drives the control with less certainty that the app saw it"),
	)

	DescribeTable("an additive change passes, and is listed",
		func(change, line string) {
			page := glasstest.Open(url + "?change=" + change)
			Expect(page).To(MatchSurface(baseline))
			rep := compare(baseline, page)
			Expect(rep.Text()).To(Equal("  ADDITIVE      " + line + "\n\n0 breaking, 0 need review, 1 additive\n"))
			AddReportEntry("additive differences", rep.Text())
		},
		Entry("an action added", "action-added", "archive: new action (function, write)"),
		Entry("a row tool added", "tool-added", "star: new tool of the rows star@<record> (function, write)"),
	)
})

// testdata/steponly.html runs the stockroom runtime, which publishes
// stepOnly; ?change=now-step-only makes its draft action a step of the
// reorder flow only.
var _ = Describe("The capability surface of a page whose action becomes step-only", func() {
	const baseline = "testdata/purchasing.surface.json"
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(handler()) + "/steponly.html"
	})

	It("is the reviewed baseline", func() {
		Expect(glasstest.Open(url)).To(MatchSurface(baseline))
	})

	It("fails when an action an agent could call becomes step-only", func() {
		page := glasstest.Open(url + "?change=now-step-only")
		m := MatchSurface(baseline)
		Expect(m.Match(page)).To(BeFalse())
		const line = "draft: now step-only: an agent can no longer call it, only a flow can"
		Expect(m.FailureMessage(page)).To(ContainSubstring("\n    BREAKING      " + line + "\n"))
		Expect(compare(baseline, page).Text()).To(Equal("  BREAKING      " + line + "\n\n1 breaking, 0 need review, 0 additive\n"))
	})
})
