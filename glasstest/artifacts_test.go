package glasstest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("Evidence", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(harnessHandler())
	})

	It("keeps the evidence of a passing spec when asked, under the chosen directory", func() {
		dir := GinkgoT().TempDir()
		// Registered before Open, so it runs after Open's cleanup.
		DeferCleanup(func() {
			traces, err := filepath.Glob(filepath.Join(dir, "*", "page1", glasstest.TraceFile))
			Expect(err).NotTo(HaveOccurred())
			Expect(traces).To(HaveLen(1))
			for _, f := range []string{glasstest.ScreenshotFile, glasstest.ReceiptsFile, glasstest.SnapshotsFile, glasstest.ConfirmationsFile} {
				Expect(filepath.Join(filepath.Dir(traces[0]), f)).To(BeAnExistingFile())
			}
			Expect(filepath.Base(filepath.Dir(filepath.Dir(traces[0])))).To(MatchRegexp(`^evidence-keeps-the-evidence-of-a-passing-spec-when-asked-und-[0-9a-f]{8}$`))
		})
		page := glasstest.Open(url, glasstest.ArtifactsDir(dir), glasstest.KeepArtifacts())
		page.Do("count", nil)
	})

	It("takes the directory and the keep flag from the environment", func() {
		dir := GinkgoT().TempDir()
		GinkgoT().Setenv(glasstest.EnvArtifacts, dir)
		GinkgoT().Setenv(glasstest.EnvKeepArtifacts, "1")
		DeferCleanup(func() {
			entries, err := os.ReadDir(dir)
			Expect(err).NotTo(HaveOccurred())
			Expect(entries).To(HaveLen(1))
		})
		glasstest.Open(url).Do("count", nil)
	})

	It("keeps nothing for a passing spec by default", func() {
		dir := GinkgoT().TempDir()
		DeferCleanup(func() {
			entries, err := os.ReadDir(dir)
			Expect(err).NotTo(HaveOccurred())
			Expect(entries).To(BeEmpty())
		})
		glasstest.Open(url, glasstest.ArtifactsDir(dir)).Do("count", nil)
	})

	It("records no trace when $GLASS_TRACE is off, and says nothing is missing", func() {
		GinkgoT().Setenv(glasstest.EnvTrace, "0")
		page := glasstest.Open(url)
		page.Do("count", nil)
		a, err := page.SaveArtifacts(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Trace).To(BeEmpty())
		Expect(a.Errors).To(BeEmpty())
		Expect(a.Files()).To(HaveLen(4))
	})

	It("leaves no directory of a trace behind when the trace is not saved", func() {
		tracing := func() []string {
			dirs, err := filepath.Glob(filepath.Join(os.TempDir(), "playwright-tracing-*"))
			Expect(err).NotTo(HaveOccurred())
			return dirs
		}
		before := tracing()
		page := glasstest.Open(url, glasstest.Trace(true))
		page.Do("count", nil)
		Expect(len(tracing())).To(BeNumerically(">", len(before)), "Playwright makes its directory in the test's own temporary directory")
		Expect(page.Close()).To(Succeed())
		Expect(tracing()).To(Equal(before))
	})

	It("saves what it can of a crashed page, within its bound", func() {
		page := glasstest.Open(glasstest.Serve(faults.Handler())+"/crash.html", glasstest.Trace(true))
		page.Snapshot()
		go func() {
			defer GinkgoRecover()
			waitInFlight(page)
			s, err := page.Playwright().Context().NewCDPSession(page.Playwright())
			Expect(err).NotTo(HaveOccurred())
			_, _ = s.Send("Page.crash", nil)
		}()
		Expect(page.Do("act", nil).Code()).To(Equal(receipt.CodePageCrashed))

		start := time.Now()
		a, err := page.SaveArtifacts(GinkgoT().TempDir())
		Expect(time.Since(start)).To(BeNumerically("<", 25*time.Second))
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Receipts).To(BeAnExistingFile())
		Expect(a.Snapshots).To(BeAnExistingFile())
		Expect(a.Screenshot).To(BeEmpty())
		Expect(a.Errors).To(ContainElement(HavePrefix(glasstest.ScreenshotFile + ": ")))
	})

	It("keeps the sensitive values of the page's calls out of every file, the trace included, and takes no screenshot", func() {
		const secret = "s3cret pw&ü\"x"
		page := glasstest.Open(url, glasstest.Approve(), glasstest.Trace(true))
		// The spec plays the user and types the secret, as a hand-off
		// handler would; the page also shows it.
		_, err := page.Playwright().Evaluate(`(s) => {
			document.body.insertAdjacentHTML("beforeend", "<input id=typed><p id=shown></p>");
			document.getElementById("shown").textContent = "you typed " + s;
		}`, secret)
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Playwright().Fill("#typed", secret)).To(Succeed())
		r := page.Do("sign-in", map[string]any{"user": "ada", "password": glasstest.SensitiveRef("pw")}, glasstest.Sensitive("pw", secret))
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		page.Snapshot()

		forms := []string{secret, `s3cret pw&ü\"x`, `s3cret pw\u0026ü\"x`, `s3cret pw&\u00fc\"x`, "s3cret+pw%26%C3%BC%22x", "s3cret%20pw"}
		files := expectEvidenceFreeOf(page, []string{secret}, forms...)
		masked := false
		for name, b := range files {
			masked = masked || strings.HasPrefix(name, glasstest.TraceFile) && bytes.Contains(b, []byte("[sensitive]"))
		}
		Expect(masked).To(BeTrue(), "the trace recorded the typing, scrubbed")
	})

	It("returns a wrapped error when the directory cannot be written", func() {
		page := glasstest.Open(url)
		file := filepath.Join(GinkgoT().TempDir(), "a-file")
		Expect(os.WriteFile(file, nil, 0o644)).To(Succeed())
		_, err := page.SaveArtifacts(filepath.Join(file, "sub"))
		Expect(err).To(MatchError(HavePrefix("glasstest: save artifacts: mkdir ")))
	})

	It("stops the trace once; a second save still writes the rest", func() {
		page := glasstest.Open(url)
		page.Do("count", nil)
		first, err := page.SaveArtifacts(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(first.Trace).To(BeAnExistingFile())
		second, err := page.SaveArtifacts(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(second.Trace).To(BeEmpty())
		Expect(second.Receipts).To(BeAnExistingFile())
	})
})
