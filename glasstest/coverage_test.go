package glasstest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// The fixture suite's spec names, as the coverage lists them.
const (
	fxApproves  = "Known calls on the Todo page approves a remove"
	fxDenies    = "Known calls on the Todo page denies a remove"
	fxNoChannel = "Known calls on the Todo page fails on purpose after a remove over WebMCP without a channel"
	fxAdds      = "Known calls on the Todo page adds over both transports and against a stale revision"
	fxEdit      = "Known calls on the Todo page fails a step of the edit flow and resumes it"
	fxCancels   = "Known calls on the Todo page cancels the identity hand-off"
	fxUnknown   = "Known calls on the Todo page calls an action the page does not declare"
)

// todoActions are the actions the Todo page declares, its rows folded into
// remove.
var todoActions = []string{
	"add", "clear-done", "clear-done.delete", "clear-done.show", "discard", "dismiss",
	"edit", "edit.cancel", "edit.open", "edit.priority", "edit.save", "edit.title",
	"export", "filter", "remove", "search", "sync", "toggle", "verify-identity",
}

// coverageRun is one run of testdata/coverage under the ginkgo CLI, with
// its coverage written to file.
type coverageRun struct {
	fixtureRun
	file string
}

func (r coverageRun) coverage() *coverage.Report {
	GinkgoHelper()
	b, err := os.ReadFile(r.file)
	Expect(err).NotTo(HaveOccurred(), "no coverage file; output:\n%s", r.output)
	Expect(schema.ValidateCoverage(b)).To(Succeed())
	rep, err := coverage.Decode(b)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

func buildCoverageSuite() string {
	GinkgoHelper()
	bin := filepath.Join(GinkgoT().TempDir(), "coverage.test")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, "./testdata/coverage").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s", out)
	return bin
}

func runCoverageSuite(bin string, env []string, flags ...string) coverageRun {
	GinkgoHelper()
	file := filepath.Join(GinkgoT().TempDir(), "out", "glass-coverage.json")
	run := runFixtureSuite(bin, append([]string{glasstest.EnvCoverageFile + "=" + file}, env...), flags...)
	return coverageRun{fixtureRun: run, file: file}
}

func todoAction(rep *coverage.Report, name string) coverage.Action {
	GinkgoHelper()
	Expect(rep.Pages).To(HaveLen(1))
	Expect(rep.Pages[0].Page).To(Equal("todo"))
	for _, a := range rep.Pages[0].Actions {
		if a.Name == name {
			return a
		}
	}
	Fail("no action " + name)
	return coverage.Action{}
}

var _ = Describe("Capability coverage of a suite of known calls", Ordered, Label("cli"), func() {
	// The fixture suite fails one spec on purpose, and its actions floor
	// is not met: both runs exit 1.
	floors := glasstest.EnvCoverageMin + "=confirm=30,actions=50"
	var serial, parallel coverageRun
	BeforeAll(func() {
		bin := buildCoverageSuite()
		serial = runCoverageSuite(bin, []string{floors})
		parallel = runCoverageSuite(bin, []string{floors}, "-p")
	})

	It("writes glass-coverage.json, valid against its schema, with the cells of every known call", func() {
		rep := serial.coverage()
		Expect(rep.Suite).To(Equal("glasstest coverage fixture suite"))
		Expect(rep.Filtered).To(BeFalse())
		var names []string
		for _, a := range rep.Pages[0].Actions {
			if a.Declared {
				names = append(names, a.Name)
			}
		}
		Expect(names).To(Equal(todoActions))

		remove := todoAction(rep, "remove")
		Expect(remove.Calls).To(Equal(3))
		Expect(remove.Cells).To(Equal(map[coverage.Cell][]string{
			coverage.CellCalled:    {fxApproves, fxDenies, fxNoChannel},
			coverage.CellOK:        {fxApproves},
			coverage.CellBridge:    {fxApproves, fxDenies},
			coverage.CellWebMCP:    {fxNoChannel},
			coverage.CellApproved:  {fxApproves},
			coverage.CellDenied:    {fxDenies},
			coverage.CellNoChannel: {fxNoChannel},
		}))
		Expect(remove.Codes).To(Equal([]coverage.CodeSeen{{Code: receipt.CodePermissionDenied, Phase: receipt.PhasePolicy, Specs: []string{fxDenies, fxNoChannel}}}))

		add := todoAction(rep, "add")
		Expect(add.Calls).To(Equal(3))
		Expect(add.Cells).To(Equal(map[coverage.Cell][]string{
			coverage.CellCalled: {fxAdds}, coverage.CellOK: {fxAdds}, coverage.CellBridge: {fxAdds}, coverage.CellWebMCP: {fxAdds},
		}))
		Expect(add.Codes).To(Equal([]coverage.CodeSeen{{Code: receipt.CodeStaleRevision, Phase: receipt.PhasePreflight, Specs: []string{fxAdds}}}))

		edit := todoAction(rep, "edit")
		Expect(edit.Calls).To(Equal(2), "the failed call and its resume")
		Expect(edit.Cells).To(Equal(map[coverage.Cell][]string{
			coverage.CellCalled: {fxEdit}, coverage.CellOK: {fxEdit}, coverage.CellBridge: {fxEdit},
			coverage.CellStepFailed: {fxEdit}, coverage.CellResumed: {fxEdit},
		}))
		for _, step := range []string{"edit.open", "edit.title", "edit.priority", "edit.save"} {
			Expect(todoAction(rep, step).Cells).To(Equal(map[coverage.Cell][]string{coverage.CellAsStep: {fxEdit}}), step)
		}

		verify := todoAction(rep, "verify-identity")
		Expect(verify.Cells).To(Equal(map[coverage.Cell][]string{
			coverage.CellCalled: {fxCancels}, coverage.CellBridge: {fxCancels}, coverage.CellHandoffCancelled: {fxCancels},
		}))

		archive := todoAction(rep, "archive")
		Expect(archive.Declared).To(BeFalse())
		Expect(archive.Codes).To(Equal([]coverage.CodeSeen{{Code: receipt.CodeActionNotFound, Phase: receipt.PhaseTargetResolution, Specs: []string{fxUnknown}}}))

		for _, name := range []string{"edit.cancel", "export", "filter", "toggle"} {
			Expect(todoAction(rep, name).Cells).To(BeEmpty(), name)
		}

		Expect(rep.Summary.Actions).To(HaveField("Covered", 4))
		Expect(rep.Summary.Actions).To(HaveField("Of", 19))
		Expect(rep.Summary.Confirm).To(Equal(coverage.Figure{Covered: 1, Of: 3, Missing: []coverage.Ref{{Page: "todo", Action: "clear-done"}, {Page: "todo", Action: "clear-done.delete"}}}))
		Expect(rep.Summary.StepFailed).To(Equal(coverage.Figure{Covered: 1, Of: 3, Missing: []coverage.Ref{{Page: "todo", Action: "clear-done"}, {Page: "todo", Action: "discard"}}}))
		Expect(rep.Summary.Resumed).To(Equal(coverage.Figure{Covered: 1, Of: 3, Missing: []coverage.Ref{{Page: "todo", Action: "clear-done"}, {Page: "todo", Action: "discard"}}}))
		Expect(rep.Summary.HandoffCompleted).To(Equal(coverage.Figure{Covered: 0, Of: 1, Missing: []coverage.Ref{{Page: "todo", Action: "verify-identity"}}}))
		Expect(rep.Summary.HandoffCancelled).To(Equal(coverage.Figure{Covered: 1, Of: 1}))
		Expect(rep.Summary.BothTransports).To(HaveField("Covered", 2))
		Expect(rep.Summary.Codes).To(Equal(coverage.Codes{Seen: 5, Actions: 5, Codes: []receipt.Code{
			receipt.CodeActionNotFound, receipt.CodeHandoffCancelled, receipt.CodePermissionDenied, receipt.CodeStaleRevision, receipt.CodeStepFailed,
		}}))
	})

	It("counts what a failing spec called", func() {
		Expect(serial.verdicts()).To(HaveKeyWithValue(fxNoChannel, "failed"))
		Expect(todoAction(serial.coverage(), "remove").Cells[coverage.CellNoChannel]).To(Equal([]string{fxNoChannel}))
	})

	It("gives the same file under ginkgo -p, merged from two processes that both ran specs", func() {
		Expect(parallel.report.SuiteConfig.ParallelTotal).To(Equal(2))
		Expect(parallel.processes()).To(HaveLen(2), "both processes ran specs")
		want, err := os.ReadFile(serial.file)
		Expect(err).NotTo(HaveOccurred())
		got, err := os.ReadFile(parallel.file)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))
	})

	It("prints one summary line that ends with where the HTML view is", func() {
		for _, run := range []coverageRun{serial, parallel} {
			html := strings.TrimSuffix(run.file, ".json") + ".html"
			line := "glass coverage: 4/19 actions called · 1/3 asking confirmation approved and denied · flows 1/3 failed a step, 1/3 resumed · hand-offs 0/1 completed, 1/1 cancelled · 5 failure codes over 5 actions · 2/18 over both transports — " + html
			Expect(strings.Count(run.output, "glass coverage: ")).To(Equal(1), run.output)
			Expect(run.output).To(ContainSubstring(line + "\n"))
			Expect(html).To(BeAnExistingFile())
		}
	})

	It("fails the suite below a floor, naming what is missing, and records every floor", func() {
		for _, run := range []coverageRun{serial, parallel} {
			Expect(run.exit).To(Equal(1))
			// Ginkgo indents the lines of a failure message.
			Expect(run.output).To(MatchRegexp(regexp.QuoteMeta("[FAILED] glasstest: capability coverage: coverage below the floor:") + `\n +` +
				regexp.QuoteMeta("actions 4/19 = 21%, want at least 50%: not called: todo: clear-done, todo: clear-done.delete, todo: clear-done.show, todo: discard, todo: dismiss, todo: edit.cancel, todo: edit.open, todo: edit.priority, todo: edit.save, todo: edit.title, and 5 more\n")))
			Expect(run.output).NotTo(ContainSubstring("confirm 1/3"), "a floor that is met is not named")
			var failed []string
			for _, s := range run.report.SpecReports {
				if s.State.Is(types.SpecStateFailureStates) {
					failed = append(failed, s.LeafNodeType.String()+" "+s.LeafNodeText)
				}
			}
			Expect(failed).To(ConsistOf("It fails on purpose after a remove over WebMCP without a channel", "ReportAfterSuite Glass capability coverage"))
		}
		Expect(serial.coverage().Floors).To(Equal([]coverage.FloorResult{
			{Floor: coverage.Floor{Measure: coverage.MeasureConfirm, Min: 30}, Covered: 1, Of: 3, Percent: 100.0 / 3, Met: true},
			{Floor: coverage.Floor{Measure: coverage.MeasureActions, Min: 50}, Covered: 4, Of: 19, Percent: 100.0 * 4 / 19, Met: false},
		}))
	})

	It("carries each page's coverage in a report entry that no console shows", func() {
		entries := 0
		for _, s := range serial.report.SpecReports {
			for _, e := range s.ReportEntries {
				if e.Name == glasstest.CoverageEntry {
					entries++
					Expect(e.Visibility).To(Equal(types.ReportEntryVisibilityNever))
					var o coverage.Observation
					Expect(json.Unmarshal([]byte(e.Value.AsJSON), &o)).To(Succeed())
					Expect(o.Pages).To(HaveLen(1))
				}
			}
		}
		Expect(entries).To(Equal(7), "one per page: each spec opens one")
		Expect(serial.output).NotTo(ContainSubstring(glasstest.CoverageEntry + "\n"))
	})

	It("opens in Chromium with a row for every declared action and the cells of the known calls", func() {
		b, err := glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
		html := strings.TrimSuffix(serial.file, ".json") + ".html"
		page, err := glasstest.OpenPage(b, "file://"+html, glasstest.Trace(false))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(page.Close)
		pw := page.Playwright()

		rows := pw.Locator(`section[data-page="todo"] tbody tr`)
		var names []string
		n, err := rows.Count()
		Expect(err).NotTo(HaveOccurred())
		for i := range n {
			name, err := rows.Nth(i).GetAttribute("data-action")
			Expect(err).NotTo(HaveOccurred())
			names = append(names, name)
		}
		Expect(names).To(Equal(append(append([]string(nil), todoActions...), "archive")), "declared actions by name, then the one only a call named")

		specs := func(action, cell string) []string {
			GinkgoHelper()
			texts, err := pw.Locator(`tr[data-action="` + action + `"] td[data-cell="` + cell + `"] li`).AllTextContents()
			Expect(err).NotTo(HaveOccurred())
			return texts
		}
		class := func(action, cell string) string {
			GinkgoHelper()
			c, err := pw.Locator(`tr[data-action="` + action + `"] td[data-cell="` + cell + `"]`).GetAttribute("class")
			Expect(err).NotTo(HaveOccurred())
			return c
		}
		Expect(specs("remove", "approved")).To(Equal([]string{fxApproves}))
		Expect(specs("remove", "denied")).To(Equal([]string{fxDenies}))
		Expect(specs("remove", "no_channel")).To(Equal([]string{fxNoChannel}))
		Expect(specs("remove", "called")).To(Equal([]string{fxApproves, fxDenies, fxNoChannel}))
		Expect(specs("remove", "code:PERMISSION_DENIED")).To(Equal([]string{fxDenies, fxNoChannel}))
		Expect(specs("add", "webmcp")).To(Equal([]string{fxAdds}))
		Expect(specs("add", "code:STALE_REVISION")).To(Equal([]string{fxAdds}))
		Expect(specs("edit", "step_failed")).To(Equal([]string{fxEdit}))
		Expect(specs("edit", "resumed")).To(Equal([]string{fxEdit}))
		Expect(specs("edit.save", "as_step")).To(Equal([]string{fxEdit}))
		Expect(specs("verify-identity", "handoff_cancelled")).To(Equal([]string{fxCancels}))
		Expect(specs("archive", "code:ACTION_NOT_FOUND")).To(Equal([]string{fxUnknown}))

		Expect(class("remove", "denied")).To(Equal("hit"))
		Expect(class("toggle", "called")).To(Equal("gap"), "never called")
		Expect(class("verify-identity", "handoff_completed")).To(Equal("gap"), "never completed")
		Expect(class("add", "approved")).To(Equal("na"), "add asks no confirmation")
		text, err := pw.Locator(`tr[data-action="toggle"] td[data-cell="called"]`).TextContent()
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("—"))
		summary, err := pw.Locator(`#summary tr[data-measure="actions"] td.missing`).TextContent()
		Expect(err).NotTo(HaveOccurred())
		Expect(summary).To(ContainSubstring("todo: edit.cancel"))

		// Open every cell, as a reader would, and keep a picture of it.
		opened, err := page.Evaluate(`() => { const all = document.querySelectorAll("section details"); all.forEach((d) => { d.open = true; }); return all.length; }`, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(opened).To(BeNumerically(">", 20))
		shot := filepath.Join(GinkgoT().TempDir(), "glass-coverage.png")
		_, err = pw.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(shot), FullPage: playwright.Bool(true)})
		Expect(err).NotTo(HaveOccurred())
		png, err := os.ReadFile(shot)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(png[:4])).To(Equal("\x89PNG"))
		Expect(len(png)).To(BeNumerically(">", 20_000), "a picture of a table, not a blank page")
		AddReportEntry("coverage screenshot", shot)
	})

	It("records and writes nothing with GLASS_COVERAGE=off", func() {
		off := runCoverageSuite(buildCoverageSuite(), []string{glasstest.EnvCoverage + "=off"}, "--focus=approves a remove")
		Expect(off.exit).To(Equal(0), off.output)
		Expect(off.file).NotTo(BeAnExistingFile())
		Expect(off.output).NotTo(ContainSubstring("glass coverage"))
		for _, s := range off.report.SpecReports {
			for _, e := range s.ReportEntries {
				Expect(e.Name).NotTo(Equal(glasstest.CoverageEntry))
			}
		}
	})
})

// coverageReport is a suite's report as Ginkgo gives it to the
// ReportAfterSuite: one spec whose page removed t9 with the user's
// approval, its coverage entry as the value itself (viaJSON false) or as
// JSON, the way another process's entry arrives.
func coverageReport(viaJSON bool) types.Report {
	snap := &receipt.Snapshot{Page: receipt.PageIdentity{ID: "todo"}}
	snap.Actions.Items = []receipt.ActionInfo{
		{ID: "remove@t9", Kind: receipt.KindElement, Risk: receipt.RiskDangerous, Confirm: true, Tool: "remove", Record: "t9"},
		{ID: "add", Kind: receipt.KindElement, Risk: receipt.RiskWrite},
	}
	obs := coverage.Observe(coverage.PageLog{URL: "http://127.0.0.1:1/", Snapshots: []*receipt.Snapshot{snap}, Calls: []coverage.CallLog{{
		Receipt: &receipt.Receipt{Result: receipt.Result{OK: true, Action: receipt.Action{ID: "remove@t9"}}},
		Spec:    "removes t9", Transport: coverage.TransportBridge, Snapshots: 1, HostAnswers: []bool{true},
	}}})
	value := types.WrapEntryValue(obs)
	if viaJSON {
		b, err := json.Marshal(value)
		Expect(err).NotTo(HaveOccurred())
		value = types.ReportEntryValue{}
		Expect(json.Unmarshal(b, &value)).To(Succeed())
	}
	return types.Report{
		SuiteDescription: "Todo",
		SpecReports: []types.SpecReport{{
			LeafNodeType: types.NodeTypeIt, LeafNodeText: "removes t9",
			ReportEntries: []types.ReportEntry{{Name: glasstest.CoverageEntry, Visibility: types.ReportEntryVisibilityNever, Value: value}},
		}},
	}
}

var _ = Describe("The end of a suite's capability coverage", func() {
	var dir, file string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		file = filepath.Join(dir, "cov", "glass-coverage.json")
		GinkgoT().Setenv(glasstest.EnvCoverageFile, file)
		GinkgoT().Setenv(glasstest.EnvCoverage, "")
		GinkgoT().Setenv(glasstest.EnvCoverageMin, "")
	})

	It("writes the same report from an entry of this process and from one that came as JSON", func() {
		var out bytes.Buffer
		Expect(glasstest.FinishCoverage(coverageReport(false), &out)).To(Succeed())
		direct, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(glasstest.FinishCoverage(coverageReport(true), &out)).To(Succeed())
		viaJSON, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(viaJSON)).To(Equal(string(direct)))
		Expect(out.String()).To(Equal(strings.Repeat("glass coverage: 1/2 actions called · 0/1 asking confirmation approved and denied · flows 0/0 failed a step, 0/0 resumed · hand-offs 0/0 completed, 0/0 cancelled · 0 failure codes over 0 actions · 0/2 over both transports — "+filepath.Join(dir, "cov", "glass-coverage.html")+"\n", 2)))
	})

	It("masks a value a call used after the page that showed it closed", func() {
		// A page masks what it saw with the values known when it closes: a
		// spec that ran later may use, as a sensitive value, what that page
		// showed (its id, its title, an action's id).
		const late = "late-Tr0ub4dor-9Qz"
		r := coverageReport(false)
		obs := r.SpecReports[0].ReportEntries[0].Value.GetRawValue().(coverage.Observation)
		obs = obs.MapText(func(s string) string { return strings.ReplaceAll(s, "todo", "todo-"+late) })
		r.SpecReports[0].ReportEntries[0].Value = types.WrapEntryValue(obs)
		glasstest.UsedSensitive(late)
		Expect(glasstest.FinishCoverage(r, &bytes.Buffer{})).To(Succeed())
		for _, f := range []string{file, strings.TrimSuffix(file, ".json") + ".html"} {
			b, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(b)).NotTo(ContainSubstring(late), f)
			Expect(string(b)).To(ContainSubstring("todo-[sensitive]"), f)
		}
	})

	It("names a malformed floor in one error, and still writes the report", func() {
		GinkgoT().Setenv(glasstest.EnvCoverageMin, "actoins=80")
		err := glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{})
		Expect(err).To(MatchError(`glasstest: GLASS_COVERAGE_MIN="actoins=80": coverage: floor "actoins=80": unknown measure "actoins" (want actions, confirm, step_failed, resumed, handoff_completed, handoff_cancelled, both_transports)`))
		Expect(file).To(BeAnExistingFile())
	})

	It("names a GLASS_COVERAGE that is neither on nor off", func() {
		GinkgoT().Setenv(glasstest.EnvCoverage, "maybe")
		Expect(glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{})).To(MatchError(`glasstest: GLASS_COVERAGE="maybe": want on or off`))
	})

	It("names a file it cannot write in one error, and prints no summary", func() {
		blocker := filepath.Join(dir, "a-file")
		Expect(os.WriteFile(blocker, nil, 0o644)).To(Succeed())
		bad := filepath.Join(blocker, "glass-coverage.json")
		GinkgoT().Setenv(glasstest.EnvCoverageFile, bad)
		var out bytes.Buffer
		err := glasstest.FinishCoverage(coverageReport(false), &out)
		Expect(err).To(MatchError(MatchRegexp(`^glasstest: write coverage "` + regexp.QuoteMeta(bad) + `": mkdir ` + regexp.QuoteMeta(blocker) + `: not a directory$`)))
		Expect(errors.Is(err, syscall.ENOTDIR)).To(BeTrue(), "the cause is wrapped")
		Expect(out.String()).To(BeEmpty())
	})

	It("combines the floors of the environment and of ConfigureCoverage, and checks none in a filtered run", func() {
		GinkgoT().Setenv(glasstest.EnvCoverageMin, "actions=50")
		err := glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{}, glasstest.CoverageMin(coverage.MeasureConfirm, 100))
		Expect(err).To(MatchError("glasstest: capability coverage: coverage below the floor:\n  confirm 0/1 = 0%, want at least 100%: without an approved and a denied call: todo: remove"))
		Expect(err).To(MatchError(coverage.ErrBelowFloor))

		filtered := coverageReport(false)
		filtered.SuiteConfig.FocusStrings = []string{"removes"}
		var out bytes.Buffer
		Expect(glasstest.FinishCoverage(filtered, &out, glasstest.CoverageMin(coverage.MeasureConfirm, 100))).To(Succeed())
		Expect(out.String()).To(ContainSubstring("(a filtered run) — "))
		b, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		rep, err := coverage.Decode(b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Filtered).To(BeTrue())
		Expect(rep.Floors).To(BeEmpty())
	})

	It("refuses a CoverageMin that is no percentage", func() {
		Expect(glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{}, glasstest.CoverageMin(coverage.MeasureActions, 120))).
			To(MatchError("glasstest: CoverageMin(actions, 120): want a percentage from 0 to 100"))
		Expect(glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{}, glasstest.CoverageMin("lines", 50))).
			To(MatchError(`glasstest: CoverageMin: coverage: unknown measure "lines" (want actions, confirm, step_failed, resumed, handoff_completed, handoff_cancelled, both_transports)`))
	})

	It("writes where CoverageFile says unless GLASS_COVERAGE_FILE does, and nothing with CoverageOff", func() {
		other := filepath.Join(dir, "other.json")
		Expect(glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{}, glasstest.CoverageFile(other))).To(Succeed())
		Expect(file).To(BeAnExistingFile(), "the environment wins")
		Expect(other).NotTo(BeAnExistingFile())

		GinkgoT().Setenv(glasstest.EnvCoverageFile, "")
		Expect(glasstest.FinishCoverage(coverageReport(false), &bytes.Buffer{}, glasstest.CoverageFile(other))).To(Succeed())
		Expect(other).To(BeAnExistingFile())
		Expect(filepath.Join(dir, "other.html")).To(BeAnExistingFile())

		var out bytes.Buffer
		Expect(os.Remove(other)).To(Succeed())
		Expect(glasstest.FinishCoverage(coverageReport(false), &out, glasstest.CoverageFile(other), glasstest.CoverageOff())).To(Succeed())
		Expect(other).NotTo(BeAnExistingFile())
		Expect(out.String()).To(BeEmpty())
	})

	It("writes nothing for a suite that opened no page", func() {
		var out bytes.Buffer
		Expect(glasstest.FinishCoverage(types.Report{SuiteDescription: "no pages"}, &out)).To(Succeed())
		Expect(file).NotTo(BeAnExistingFile())
		Expect(out.String()).To(BeEmpty())
	})
})

var _ = Describe("A page's coverage", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(harnessHandler())
		GinkgoT().Setenv(glasstest.EnvCoverage, "on")
	})

	// Each spec checks, after Open's cleanup (a cleanup registered before
	// Open runs after it), what the page read and what the spec carries.
	after := func(page **glasstest.Page, snapshots int, entry bool) {
		DeferCleanup(func() {
			Expect((*page).Snapshots()).To(HaveLen(snapshots))
			found := false
			for _, e := range CurrentSpecReport().ReportEntries {
				found = found || e.Name == glasstest.CoverageEntry
			}
			Expect(found).To(Equal(entry))
		})
	}

	It("takes one snapshot when the page closes, and carries what it saw", func() {
		var page *glasstest.Page
		after(&page, 1, true)
		page = glasstest.Open(url)
		Expect(page.Do("count", nil)).NotTo(BeNil())
		Expect(page.Snapshots()).To(BeEmpty(), "a call reads nothing for coverage")
	})

	It("reads nothing more from the page and carries nothing with GLASS_COVERAGE=off", func() {
		GinkgoT().Setenv(glasstest.EnvCoverage, "off")
		var page *glasstest.Page
		after(&page, 0, false)
		page = glasstest.Open(url)
		Expect(page.Do("count", nil)).NotTo(BeNil())
	})

	It("masks the page's sensitive values in what it carries", func() {
		// The runtime never saw the value (no call passed it), so the
		// snapshot's title carries it as the page wrote it.
		const secret = "cov-s3cret-4421"
		DeferCleanup(func() {
			found := false
			for _, e := range CurrentSpecReport().ReportEntries {
				if e.Name == glasstest.CoverageEntry {
					found = true
					b, err := json.Marshal(e.Value.GetRawValue())
					Expect(err).NotTo(HaveOccurred())
					Expect(string(b)).NotTo(ContainSubstring(secret))
					Expect(string(b)).To(ContainSubstring(`"title":"Harness [sensitive]"`))
				}
			}
			Expect(found).To(BeTrue())
		})
		page := glasstest.Open(url, glasstest.Sensitive("pw", secret))
		_, err := page.Evaluate(`(t) => { document.title = t; }`, "Harness "+secret)
		Expect(err).NotTo(HaveOccurred())
	})

	It("gives up the closing snapshot of a page that stopped answering within its bound", func() {
		base := glasstest.Serve(faults.Handler())
		var start time.Time
		DeferCleanup(func() {
			Expect(time.Since(start)).To(BeNumerically("<", 3*time.Second+callSlack), "the closing snapshot is bounded by three seconds")
		})
		page := glasstest.Open(base + "/spinning-member.html")
		DeferCleanup(func() { start = time.Now() })
		Expect(page.Do("act", nil, glasstest.Timeout(500*time.Millisecond)).Code()).To(Equal(receipt.CodeCallTimeout))
	})
})
