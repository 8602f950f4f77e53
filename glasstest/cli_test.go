package glasstest_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// zipEntries reads every entry of the zip archive at path.
func zipEntries(path string) map[string][]byte {
	GinkgoHelper()
	zr, err := zip.OpenReader(path)
	Expect(err).NotTo(HaveOccurred())
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		Expect(err).NotTo(HaveOccurred())
		b, err := io.ReadAll(rc)
		rc.Close()
		Expect(err).NotTo(HaveOccurred())
		out[f.Name] = b
	}
	return out
}

// fixtureRun is one run of testdata/evidence under the ginkgo CLI.
type fixtureRun struct {
	dir    string
	output string
	exit   int
	report types.Report
	junit  reporters.JUnitTestSuites
}

// buildFixtureSuite compiles testdata/evidence once, so that the runs
// below do not each link a test binary.
func buildFixtureSuite() string {
	GinkgoHelper()
	bin := filepath.Join(GinkgoT().TempDir(), "evidence.test")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, "./testdata/evidence").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s", out)
	return bin
}

// runFixtureSuite runs the compiled evidence fixture suite with the ginkgo
// CLI of go.mod's tool directive, its reports and artifacts in a fresh
// directory.
func runFixtureSuite(bin string, env []string, flags ...string) fixtureRun {
	GinkgoHelper()
	run := fixtureRun{dir: GinkgoT().TempDir()}
	root, err := filepath.Abs("..")
	Expect(err).NotTo(HaveOccurred())
	args := append([]string{"tool", "ginkgo", "--no-color",
		"--output-dir=" + run.dir, "--json-report=report.json", "--junit-report=junit.xml",
	}, flags...)
	args = append(args, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "GLASS_ARTIFACTS="+filepath.Join(run.dir, "artifacts"), "GLASS_FIXTURE_MODULE_ROOT="+root)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	run.output = string(out)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		run.exit = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	b, err := os.ReadFile(filepath.Join(run.dir, "report.json"))
	Expect(err).NotTo(HaveOccurred(), "no JSON report; output:\n%s", run.output)
	var reports []types.Report
	Expect(json.Unmarshal(b, &reports)).To(Succeed())
	Expect(reports).To(HaveLen(1))
	run.report = reports[0]
	b, err = os.ReadFile(filepath.Join(run.dir, "junit.xml"))
	Expect(err).NotTo(HaveOccurred())
	Expect(xml.Unmarshal(b, &run.junit)).To(Succeed())
	return run
}

func (r fixtureRun) verdicts() map[string]string {
	out := map[string]string{}
	for _, s := range r.report.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt {
			out[s.FullText()] = s.State.String()
		}
	}
	return out
}

func (r fixtureRun) processes() map[int]bool {
	out := map[int]bool{}
	for _, s := range r.report.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt {
			out[s.ParallelProcess] = true
		}
	}
	return out
}

func (r fixtureRun) spec(text string) types.SpecReport {
	GinkgoHelper()
	for _, s := range r.report.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt && strings.Contains(s.FullText(), text) {
			return s
		}
	}
	Fail("no spec " + text)
	return types.SpecReport{}
}

func artifactsOf(s types.SpecReport) []glasstest.Artifacts {
	GinkgoHelper()
	var out []glasstest.Artifacts
	for _, e := range s.ReportEntries {
		if e.Name == glasstest.ArtifactsEntry {
			var a glasstest.Artifacts
			Expect(json.Unmarshal([]byte(e.Value.AsJSON), &a)).To(Succeed())
			out = append(out, a)
		}
	}
	return out
}

var _ = Describe("The evidence fixture suite under the ginkgo CLI", Ordered, Label("cli"), func() {
	wantVerdicts := map[string]string{
		"The Todo page passes: removes t9 after approval":                    "passed",
		"The Todo page passes: a denial fails at policy":                     "passed",
		"The Todo page passes: lists a remove action for every task":         "passed",
		"The Todo page passes: folds remove plus record":                     "passed",
		"The Todo page fails on purpose: expects a denied call to succeed":   "failed",
		"The Todo page fails on purpose: with a dev server and two pages":    "failed",
		"The Todo page fails on purpose: signs in with a sensitive password": "failed",
	}
	var serial, parallel, shared fixtureRun
	BeforeAll(func() {
		bin := buildFixtureSuite()
		serial = runFixtureSuite(bin, nil)
		parallel = runFixtureSuite(bin, nil, "-p")
		shared = runFixtureSuite(bin, []string{"GLASS_FIXTURE_SHARED_SERVER=1"}, "-p")
	})

	It("fails the suite (exit 1) with exactly the specs that fail on purpose, serially", func() {
		Expect(serial.exit).To(Equal(1), serial.output)
		Expect(serial.verdicts()).To(Equal(wantVerdicts), serial.output)
	})

	It("gives the same verdicts with ginkgo -p, on two processes that each boot their own browser", func() {
		Expect(parallel.report.SuiteConfig.ParallelTotal).To(Equal(2))
		Expect(parallel.processes()).To(HaveLen(2), "both processes ran specs")
		Expect(parallel.exit).To(Equal(serial.exit))
		Expect(parallel.verdicts()).To(Equal(serial.verdicts()), parallel.output)
	})

	It("gives the same verdicts with ginkgo -p and one Playwright server shared through SynchronizedBeforeSuite", func() {
		Expect(shared.report.SuiteConfig.ParallelTotal).To(Equal(2))
		Expect(shared.exit).To(Equal(serial.exit))
		Expect(shared.verdicts()).To(Equal(serial.verdicts()), shared.output)
	})

	It("keeps a trace zip, a screenshot and the receipts of a failing spec, named in the JSON report", func() {
		for _, run := range []fixtureRun{serial, parallel, shared} {
			arts := artifactsOf(run.spec("expects a denied call to succeed"))
			Expect(arts).To(HaveLen(1))
			a := arts[0]
			Expect(a.Errors).To(BeEmpty())
			Expect(a.Dir).To(HavePrefix(filepath.Join(run.dir, "artifacts")))

			zr, err := zip.OpenReader(a.Trace)
			Expect(err).NotTo(HaveOccurred())
			var names []string
			for _, f := range zr.File {
				names = append(names, f.Name)
			}
			zr.Close()
			Expect(names).To(ContainElement("trace.trace"), "a Playwright trace")

			png, err := os.ReadFile(a.Screenshot)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(png[:4])).To(Equal("\x89PNG"))

			b, err := os.ReadFile(a.Receipts)
			Expect(err).NotTo(HaveOccurred())
			var rs []json.RawMessage
			Expect(json.Unmarshal(b, &rs)).To(Succeed())
			Expect(rs).To(HaveLen(1))
			r, err := receipt.Decode(rs[0])
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Code()).To(Equal(receipt.CodePermissionDenied))

			b, err = os.ReadFile(a.Snapshots)
			Expect(err).NotTo(HaveOccurred())
			Expect(bytes.Count(b, []byte(`"protocol": "glass.page/v1"`))).To(Equal(1), "the spec's one snapshot")
		}
	})

	It("keeps one directory per page of a failing spec and the dev server's output", func() {
		s := serial.spec("with a dev server and two pages")
		arts := artifactsOf(s)
		Expect(arts).To(HaveLen(2))
		var dirs []string
		for _, a := range arts {
			dirs = append(dirs, filepath.Base(a.Dir))
			Expect(a.Files()).To(HaveLen(5))
			for _, f := range a.Files() {
				Expect(f).To(BeAnExistingFile())
			}
		}
		Expect(dirs).To(ConsistOf("page1", "page2"))

		var out glasstest.ServerOutput
		found := false
		for _, e := range s.ReportEntries {
			if e.Name == "glass dev server output" {
				Expect(json.Unmarshal([]byte(e.Value.AsJSON), &out)).To(Succeed())
				found = true
			}
		}
		Expect(found).To(BeTrue())
		Expect(out.Output).To(MatchRegexp(`todo: serving http://127\.0\.0\.1:\d+/`))
		Expect(out.Exited).To(BeFalse(), "attached before the server is stopped")
	})

	It("names the evidence in the JUnit report as properties of the failing test case", func() {
		var props []string
		for _, suite := range serial.junit.TestSuites {
			for _, tc := range suite.TestCases {
				if !strings.Contains(tc.Name, "expects a denied call to succeed") {
					continue
				}
				Expect(tc.Failure).NotTo(BeNil())
				Expect(tc.Properties).NotTo(BeNil())
				for _, p := range tc.Properties.Properties {
					if p.Name == glasstest.ArtifactsEntry {
						props = append(props, p.Value)
					}
				}
			}
		}
		Expect(props).To(HaveLen(1))
		a := artifactsOf(serial.spec("expects a denied call to succeed"))[0]
		for _, f := range []string{a.Trace, a.Screenshot, a.Receipts, a.Snapshots} {
			Expect(props[0]).To(ContainSubstring(f))
		}
	})

	It("keeps nothing for the specs that passed", func() {
		for _, run := range []fixtureRun{serial, parallel, shared} {
			for text, verdict := range run.verdicts() {
				if verdict == "passed" {
					Expect(artifactsOf(run.spec(text))).To(BeEmpty(), text)
				}
			}
			entries, err := os.ReadDir(filepath.Join(run.dir, "artifacts"))
			Expect(err).NotTo(HaveOccurred())
			Expect(entries).To(HaveLen(3), "one directory per failing spec")
		}
	})

	It("keeps the sensitive value out of the output, the reports and every artifact, the trace included", func() {
		// The fixture's secret (testdata/evidence: FixtureSecret).
		const secret = "fixtureSecret8472pw"
		set := scrub.New(secret)
		for _, run := range []fixtureRun{serial, parallel, shared} {
			arts := artifactsOf(run.spec("signs in with a sensitive password"))
			Expect(arts).To(HaveLen(1))
			Expect(arts[0].Trace).NotTo(BeEmpty(), "the trace is kept, scrubbed")
			Expect(arts[0].Screenshot).To(BeEmpty(), "no screenshot of a page whose calls used a sensitive value")
			Expect(arts[0].Errors).To(ConsistOf(HavePrefix(glasstest.ScreenshotFile + ": not taken: ")))
			Expect(run.output).NotTo(ContainSubstring(secret))
			Expect(run.output).To(ContainSubstring("[sensitive]"), "the failure shows where the runtime masked it")
			files := 0
			Expect(filepath.WalkDir(run.dir, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				files++
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				Expect(string(b)).NotTo(ContainSubstring(secret), path)
				Expect(set.Contains(b)).To(BeFalse(), "%s holds the secret in some spelling", path)
				if filepath.Ext(path) != ".zip" {
					return nil
				}
				for name, b := range zipEntries(path) {
					Expect(string(b)).NotTo(ContainSubstring(secret), path+": "+name)
					Expect(set.Contains(b)).To(BeFalse(), "%s: %s holds the secret in some spelling", path, name)
				}
				return nil
			})).To(Succeed())
			Expect(files).To(BeNumerically(">=", 2+5*3-1), "the two reports and five files for each failing spec's page, but the screenshot of the sensitive one")
		}
	})
})
