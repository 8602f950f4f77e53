package glasstest_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/sdk"
)

var _ = Describe("Boot once, isolate always", func() {
	It("shares one browser per process and gives every page a fresh context, closed when the spec ends", func() {
		b, err := glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
		again, err := glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(BeIdenticalTo(b))
		Expect(b.Mode).To(Equal(glasstest.ModeLaunch))

		before := b.Contexts()
		// Registered before Open, so it runs after Open's cleanup.
		DeferCleanup(func() {
			Expect(b.Contexts()).To(Equal(before), "the spec's contexts are closed")
		})
		url := glasstest.Serve(harnessHandler())
		one := glasstest.Open(url)
		two := glasstest.Open(url)
		Expect(b.Contexts()).To(Equal(before + 2))

		_, err = one.Playwright().Evaluate(`() => { localStorage.setItem("k", "one"); document.cookie = "c=one"; }`)
		Expect(err).NotTo(HaveOccurred())
		Expect(two.Playwright().Evaluate(`() => [localStorage.getItem("k"), document.cookie]`)).To(Equal([]any{nil, ""}),
			"nothing leaks between contexts")
	})

	It("applies the default launch flags: WebMCP is on", func() {
		page := glasstest.Open(glasstest.Serve(harnessHandler()))
		Expect(page.Playwright().Evaluate(`typeof document.modelContext`)).To(Equal("object"))
	})

	It("refuses to reconfigure a running shared browser", func() {
		_, err := glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
		Expect(glasstest.Configure(glasstest.BrowserConfig{Connect: "ws://127.0.0.1:1/"})).
			To(MatchError("glasstest: configure: the shared browser is already running; call Stop first"))
	})

	It("reads the remote endpoints from the environment", func() {
		GinkgoT().Setenv(glasstest.EnvBrowserWS, "ws://grid.example:3000/")
		GinkgoT().Setenv(glasstest.EnvCDPURL, "http://127.0.0.1:9222")
		GinkgoT().Setenv(glasstest.EnvChromium, "/opt/chrome")
		GinkgoT().Setenv(glasstest.EnvHeaded, "1")
		Expect(glasstest.ConfigFromEnv()).To(Equal(glasstest.BrowserConfig{
			Connect: "ws://grid.example:3000/", ConnectOverCDP: "http://127.0.0.1:9222", Executable: "/opt/chrome", Headed: true,
		}))
	})

	It("fails fast, with the endpoint in the message, when a remote browser is unreachable", func() {
		start := time.Now()
		_, err := glasstest.Launch(glasstest.BrowserConfig{Connect: "ws://127.0.0.1:9/", ConnectTimeout: 2 * time.Second})
		Expect(err).To(MatchError(ContainSubstring(`glasstest: connect to the Playwright server "ws://127.0.0.1:9/"`)))
		_, err = glasstest.Launch(glasstest.BrowserConfig{ConnectOverCDP: "http://127.0.0.1:9", ConnectTimeout: 2 * time.Second})
		Expect(err).To(MatchError(ContainSubstring(`glasstest: connect over CDP to "http://127.0.0.1:9"`)))
		// Each Launch starts a Playwright driver, which on a loaded machine
		// takes seconds; the bound is only that neither waits forever.
		Expect(time.Since(start)).To(BeNumerically("<", 90*time.Second))
	})

	It("names the likely cause when the page loads the runtime but never calls define", func() {
		mux := http.NewServeMux()
		mux.Handle(sdk.Path, sdk.Handler())
		mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
			// The page's own script waits for data that arrived before it
			// set its hook: define is never called.
			_, _ = w.Write([]byte(`<!doctype html><title>never defined</title><script src="` + sdk.Path + `"></script><ul id="list"></ul>`))
		})
		b, err := glasstest.Shared()
		Expect(err).NotTo(HaveOccurred())
		_, err = glasstest.OpenPage(b, glasstest.Serve(mux), glasstest.OpenTimeout(time.Second))
		Expect(err).To(MatchError(ContainSubstring("wait for the page runtime: no answer from the page after 1s")))
		Expect(err).To(MatchError(ContainSubstring(`glassRuntime.ready() did not resolve: does the page call glassRuntime.define? (docs/troubleshooting.md, "A runtime that never becomes ready")`)))
	})
})

var _ = Describe("Which Chromium is launched", func() {
	// fakeBrowsers puts empty executables of the given names on a PATH of
	// their own, with an empty Playwright cache and no GLASS_CHROMIUM.
	fakeBrowsers := func(names ...string) string {
		dir := GinkgoT().TempDir()
		for _, name := range names {
			Expect(os.WriteFile(filepath.Join(dir, name), nil, 0o755)).To(Succeed())
		}
		GinkgoT().Setenv("PATH", dir)
		GinkgoT().Setenv("PLAYWRIGHT_BROWSERS_PATH", GinkgoT().TempDir())
		GinkgoT().Setenv(glasstest.EnvChromium, "")
		return dir
	}

	It("prefers a headless shell for a headless run, and a full Chromium for a headed one", func() {
		dir := fakeBrowsers("chromium", "chromium-headless-shell")
		Expect(glasstest.FindChromium()).To(Equal(filepath.Join(dir, "chromium-headless-shell")))
		Expect(glasstest.FindHeadedChromium()).To(Equal(filepath.Join(dir, "chromium")))
	})

	It("takes a full Chromium headless when there is no headless shell", func() {
		dir := fakeBrowsers("google-chrome")
		Expect(glasstest.FindChromium()).To(Equal(filepath.Join(dir, "google-chrome")))
	})

	It("says what to install when only a headless shell is there and the run is headed", func() {
		fakeBrowsers("chromium-headless-shell")
		_, err := glasstest.FindHeadedChromium()
		Expect(err).To(MatchError(glasstest.ErrNoBrowser))
		_, err = glasstest.Launch(glasstest.BrowserConfig{Headed: true})
		Expect(err).To(MatchError(ContainSubstring("apt-get install -y chromium")))
	})

	It("launches what GLASS_CHROMIUM names, whichever the run", func() {
		fakeBrowsers("chromium-headless-shell")
		GinkgoT().Setenv(glasstest.EnvChromium, "/bin/true")
		Expect(glasstest.FindChromium()).To(Equal("/bin/true"))
		Expect(glasstest.FindHeadedChromium()).To(Equal("/bin/true"))
	})

	It("finds Playwright's own headless shell in its browser cache before one on PATH", func() {
		fakeBrowsers("chromium-headless-shell")
		cache := GinkgoT().TempDir()
		GinkgoT().Setenv("PLAYWRIGHT_BROWSERS_PATH", cache)
		shell := filepath.Join(cache, "chromium_headless_shell-1200", "chrome-headless-shell-linux64", "chrome-headless-shell")
		Expect(os.MkdirAll(filepath.Dir(shell), 0o755)).To(Succeed())
		Expect(os.WriteFile(shell, nil, 0o755)).To(Succeed())
		Expect(glasstest.FindChromium()).To(Equal(shell))
	})
})

var _ = Describe("A remote browser instead of launching", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})

	drive := func(b *glasstest.Browser) {
		GinkgoHelper()
		page, err := glasstest.OpenPage(b, url, glasstest.Approve(), glasstest.Trace(true))
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Do("remove@t9", nil)).To(HaveChanged(Records(Removed("t9"), Total(12, 11))))
		Expect(page.Actions()).To(ContainElement(HaveField("ID", "remove@t8")))
		Expect(page.Actions()).NotTo(ContainElement(HaveField("ID", "remove@t9")))
		a, err := page.SaveArtifacts(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Errors).To(BeEmpty(), "the trace and screenshot come over the connection too")
		Expect(a.Trace).To(BeAnExistingFile())
		Expect(page.Close()).To(Succeed())
	}

	It("connects to a Playwright server (playwright run-server), by option and by $GLASS_BROWSER_WS", func() {
		srv, err := glasstest.StartPlaywrightServer()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		Expect(srv.WSEndpoint).To(MatchRegexp(`^ws://127\.0\.0\.1:\d+/$`))
		exe, err := glasstest.FindChromium()
		Expect(err).NotTo(HaveOccurred())

		b, err := glasstest.Launch(glasstest.BrowserConfig{Connect: srv.WSEndpoint, Executable: exe})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Mode).To(Equal(glasstest.ModeConnect))
		Expect(b.Executable).To(Equal(srv.WSEndpoint))
		drive(b)
		page, err := glasstest.OpenPage(b, url)
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Playwright().Evaluate(`typeof document.modelContext`)).To(Equal("object"), "DefaultArgs reach the server")
		Expect(b.Close()).To(Succeed())

		GinkgoT().Setenv(glasstest.EnvBrowserWS, srv.WSEndpoint)
		GinkgoT().Setenv(glasstest.EnvChromium, exe)
		b, err = glasstest.Launch(glasstest.ConfigFromEnv())
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Mode).To(Equal(glasstest.ModeConnect))
		drive(b)
		Expect(b.Close()).To(Succeed())

		Expect(srv.Stop()).To(Succeed())
		Expect(srv.Output()).To(ContainSubstring("Listening on " + srv.WSEndpoint))
	})

	It("attaches to a Chromium's DevTools endpoint, by option and by $GLASS_CDP_URL, and leaves that browser running", func() {
		exe, err := glasstest.FindChromium()
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithCancel(context.Background())
		args := append([]string{"--headless", "--remote-debugging-port=0", "--user-data-dir=" + GinkgoT().TempDir()}, glasstest.DefaultArgs...)
		if os.Geteuid() == 0 {
			args = append(args, "--no-sandbox")
		}
		cmd := exec.CommandContext(ctx, exe, append(args, "about:blank")...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		stderr, err := cmd.StderrPipe()
		Expect(err).NotTo(HaveOccurred())
		Expect(cmd.Start()).To(Succeed())
		exited := make(chan struct{})
		DeferCleanup(func() {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cancel()
			<-exited
		})
		endpoint := make(chan string, 1)
		go func() {
			re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				if m := re.FindStringSubmatch(sc.Text()); m != nil {
					endpoint <- m[1]
				}
			}
			_ = cmd.Wait()
			close(exited)
		}()
		var ws string
		Eventually(endpoint).WithTimeout(30 * time.Second).Should(Receive(&ws))

		b, err := glasstest.Launch(glasstest.BrowserConfig{ConnectOverCDP: ws})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Mode).To(Equal(glasstest.ModeCDP))
		drive(b)
		Expect(b.Close()).To(Succeed())
		Consistently(exited).WithTimeout(500*time.Millisecond).ShouldNot(BeClosed(), "Glass closed a browser it did not launch")

		GinkgoT().Setenv(glasstest.EnvCDPURL, ws)
		b, err = glasstest.Launch(glasstest.ConfigFromEnv())
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Mode).To(Equal(glasstest.ModeCDP))
		drive(b)
		Expect(b.Close()).To(Succeed())
		Consistently(exited).WithTimeout(500 * time.Millisecond).ShouldNot(BeClosed())
	})
})
