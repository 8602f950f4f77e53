// Package browser gets the Chromium Glass drives: it finds or launches
// one, connects to a Playwright server or a DevTools endpoint, starts a
// Playwright server, and keeps the one browser of a test process.
// glasstest re-exports it (glasstest.Launch, glasstest.Shared,
// glasstest.BrowserConfig, …); its errors say "glasstest:" because that is
// the package a user called.
package browser

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// ErrNoBrowser is returned when no Chromium can be found or launched.
var ErrNoBrowser = errors.New("no Chromium found")

// DefaultArgs are the Chromium flags Glass always passes: they keep a
// browser quiet on a closed network and turn on WebMCP
// (document.modelContext). As root, --no-sandbox is added.
var DefaultArgs = []string{
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-default-apps",
	"--no-first-run",
	"--enable-features=WebMCP",
}

// Browser is one Playwright driver and one Chromium, shared by every page
// of a test process.
type Browser struct {
	pw      *playwright.Playwright
	browser playwright.Browser
	// Executable is the Chromium that was launched, or the endpoint
	// connected to.
	Executable string
	// Mode says how the browser was obtained: ModeLaunch, ModeConnect or
	// ModeCDP.
	Mode Mode
}

// Mode is how a Browser was obtained.
type Mode string

// The ways to get a browser: launch a local Chromium, connect to a
// Playwright server (BrowserType.Connect), or attach to a Chromium's
// DevTools endpoint (BrowserType.ConnectOverCDP).
const (
	ModeLaunch  Mode = "launch"
	ModeConnect Mode = "connect"
	ModeCDP     Mode = "cdp"
)

// The environment variables Shared reads (see ConfigFromEnv).
const (
	EnvChromium  = "GLASS_CHROMIUM"
	EnvHeaded    = "GLASS_HEADED"
	EnvBrowserWS = "GLASS_BROWSER_WS"
	EnvCDPURL    = "GLASS_CDP_URL"
)

// DefaultConnectTimeout bounds connecting to a remote browser (both
// Connect and ConnectOverCDP), so that an unreachable grid fails the
// suite instead of hanging it.
const DefaultConnectTimeout = 30 * time.Second

// Config says how to get a browser. The zero value launches a
// local headless Chromium found by FindChromium.
type Config struct {
	// Executable is the Chromium to launch. Default: FindChromium, or
	// FindHeadedChromium when Headed is set. With
	// Connect it is passed to the Playwright server as executablePath,
	// which a server honours only when started with --unsafe (as
	// StartPlaywrightServer does); default there: the server's own browser.
	Executable string
	// Headed shows the browser window. Default false (headless).
	Headed bool
	// Args are added to DefaultArgs. With Connect they are sent to the
	// server too (again honoured only by an --unsafe server).
	Args []string
	// Progress receives one line per set-up step (driver download). Default:
	// discarded.
	Progress io.Writer

	// Connect is the WebSocket endpoint of a Playwright server
	// (`playwright run-server`, BrowserType.launchServer, a browser grid):
	// the browser runs there instead of here. Default: launch locally.
	Connect string
	// ConnectOverCDP is the DevTools endpoint (http://host:port or
	// ws://…/devtools/browser/…) of a running Chromium to attach to. Glass
	// opens its own contexts there and closes only those. Ignored when
	// Connect is set.
	ConnectOverCDP string
	// Headers are sent with the connection request of Connect or
	// ConnectOverCDP (for example a grid's token).
	Headers map[string]string
	// ConnectTimeout bounds connecting. Default: DefaultConnectTimeout.
	ConnectTimeout time.Duration
}

// ConfigFromEnv is the configuration Shared uses unless Configure was
// called: $GLASS_CHROMIUM (the Chromium to launch), $GLASS_HEADED (show
// the window), $GLASS_BROWSER_WS (connect to this Playwright server
// instead of launching) and $GLASS_CDP_URL (attach to this DevTools
// endpoint instead of launching).
func ConfigFromEnv() Config {
	return Config{
		Executable:     os.Getenv(EnvChromium),
		Headed:         Truthy(os.Getenv(EnvHeaded)),
		Connect:        os.Getenv(EnvBrowserWS),
		ConnectOverCDP: os.Getenv(EnvCDPURL),
	}
}

// FindChromium looks for a Chromium to launch headless: $GLASS_CHROMIUM;
// then a headless shell: Playwright's (in its browser cache), or
// chromium-headless-shell, chrome-headless-shell or headless_shell on
// $PATH; then a full Chromium: Playwright's, or chromium,
// chromium-browser, google-chrome or google-chrome-stable on $PATH.
//
// The headless shell is the browser Playwright itself runs headless: a
// Chromium without a window's user interface, which opens a page for about
// half the CPU of a full Chromium in headless mode (Debian packages it as
// chromium-headless-shell). It cannot show a window: a headed run takes a
// full Chromium (FindHeadedChromium).
func FindChromium() (string, error) { return findChromium(false) }

// FindHeadedChromium looks for a Chromium that can show a window, as
// FindChromium does but passing over the headless shells. Launch uses it
// when Config.Headed is set.
func FindHeadedChromium() (string, error) { return findChromium(true) }

// headlessShells and fullChromiums are the names FindChromium looks for on
// $PATH, in order.
var (
	headlessShells = []string{"chromium-headless-shell", "chrome-headless-shell", "headless_shell"}
	fullChromiums  = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
)

func findChromium(headed bool) (string, error) {
	if p := os.Getenv(EnvChromium); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("glasstest: GLASS_CHROMIUM=%q is not an executable file: %w", p, ErrNoBrowser)
		}
		return p, nil
	}
	if !headed {
		if p := playwrightCache(playwrightShells); p != "" {
			return p, nil
		}
		if p := onPath(headlessShells); p != "" {
			return p, nil
		}
	}
	if p := playwrightCache(playwrightChromiums); p != "" {
		return p, nil
	}
	if p := onPath(fullChromiums); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("glasstest: %w; install one (Debian/Ubuntu: apt-get install -y chromium; or Playwright's: npx playwright install chromium) or set GLASS_CHROMIUM=/path/to/chrome", ErrNoBrowser)
}

func onPath(names []string) string {
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// playwrightShells and playwrightChromiums are where Playwright's browser
// cache keeps its headless shell and its Chromium (the layouts of several
// Playwright versions).
var (
	playwrightShells = []string{
		filepath.Join("chromium_headless_shell-*", "chrome-headless-shell-linux*", "chrome-headless-shell"),
		filepath.Join("chromium_headless_shell-*", "chrome-linux*", "headless_shell"),
	}
	playwrightChromiums = []string{filepath.Join("chromium-*", "chrome-linux*", "chrome")}
)

// playwrightCache returns the newest browser of Playwright's cache
// ($PLAYWRIGHT_BROWSERS_PATH, default ~/.cache/ms-playwright) that one of
// the patterns matches.
func playwrightCache(patterns []string) string {
	dir := os.Getenv("PLAYWRIGHT_BROWSERS_PATH")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache", "ms-playwright")
	}
	var matches []string
	for _, pattern := range patterns {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		matches = append(matches, m...)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(matches)))
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && !st.IsDir() {
			return m
		}
	}
	return ""
}

// driverOptions makes playwright-go use the machine's Node.js when there is
// one, so that no Node.js is downloaded.
func driverOptions(progress io.Writer) *playwright.RunOptions {
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") == "" {
		if node, err := exec.LookPath("node"); err == nil {
			os.Setenv("PLAYWRIGHT_NODEJS_PATH", node)
		}
	}
	if progress == nil {
		progress = io.Discard
	}
	return &playwright.RunOptions{
		SkipInstallBrowsers: true,
		Verbose:             false,
		Stdout:              progress,
		Stderr:              progress,
		// Playwright's own logger only reports, once the driver runs,
		// errors a page can provoke at will (a binding it calls after its
		// page closed, a hundred thousand times): never on the output.
		Logger: slog.New(slog.DiscardHandler),
	}
}

// InstallDriver downloads the Playwright driver when it is missing or of
// another version; it does nothing when the driver is up to date.
//
// A download is announced on progress, one line per step, so that a first
// run does not look hung; an up-to-date driver prints nothing.
func InstallDriver(progress io.Writer) error {
	opts := driverOptions(progress)
	opts.Verbose = true
	opts.Logger = newProgressLogger(opts.Stderr)
	if err := playwright.Install(opts); err != nil {
		return fmt.Errorf("glasstest: install the Playwright driver: %w", err)
	}
	return nil
}

func startDriver(progress io.Writer) (*playwright.Playwright, error) {
	pw, err := playwright.Run(driverOptions(progress))
	if err == nil {
		return pw, nil
	}
	if ierr := InstallDriver(progress); ierr != nil {
		return nil, ierr
	}
	pw, err = playwright.Run(driverOptions(progress))
	if err != nil {
		return nil, fmt.Errorf("glasstest: start the Playwright driver: %w", err)
	}
	return pw, nil
}

// Launch starts the Playwright driver and gets a Chromium as cfg says:
// it launches a local one, or connects to a Playwright server
// (cfg.Connect), or attaches to a DevTools endpoint (cfg.ConnectOverCDP).
func Launch(cfg Config) (*Browser, error) {
	switch {
	case cfg.Connect != "":
		return connect(cfg)
	case cfg.ConnectOverCDP != "":
		return connectOverCDP(cfg)
	}
	exe := cfg.Executable
	if exe == "" {
		var err error
		if exe, err = findChromium(cfg.Headed); err != nil {
			return nil, err
		}
	} else if st, err := os.Stat(exe); err != nil || st.IsDir() {
		// Said before the driver starts, in one line, as FindChromium says
		// it of GLASS_CHROMIUM (which ConfigFromEnv copies here).
		what := fmt.Sprintf("the Chromium %q", exe)
		if exe == os.Getenv(EnvChromium) {
			what = fmt.Sprintf("GLASS_CHROMIUM=%q", exe)
		}
		return nil, fmt.Errorf("glasstest: %s is not an executable file: %w", what, ErrNoBrowser)
	}
	pw, err := startDriver(cfg.Progress)
	if err != nil {
		return nil, err
	}
	b, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(exe),
		Headless:       playwright.Bool(!cfg.Headed),
		Args:           launchArgs(cfg),
	})
	if err != nil {
		_ = pw.Stop()
		return nil, fmt.Errorf("glasstest: launch %q: %w", exe, err)
	}
	return &Browser{pw: pw, browser: b, Executable: exe, Mode: ModeLaunch}, nil
}

func launchArgs(cfg Config) []string {
	args := append([]string{}, DefaultArgs...)
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	return append(args, cfg.Args...)
}

// Close closes the browser and stops the driver.
func (b *Browser) Close() error {
	if b == nil {
		return nil
	}
	var errs []error
	if b.browser != nil {
		if err := b.browser.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if b.pw != nil {
		if err := b.pw.Stop(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("glasstest: close browser: %w", err)
	}
	return nil
}

var shared struct {
	mu      sync.Mutex
	browser *Browser
	config  *Config
}

// Configure sets the configuration Shared uses instead of ConfigFromEnv.
// Call it before the first Shared, typically in the all-process function
// of SynchronizedBeforeSuite with an endpoint that process 1 started:
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
// It fails when the shared browser is already running with another
// configuration; Stop first to switch.
func Configure(cfg Config) error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser != nil {
		return errors.New("glasstest: configure: the shared browser is already running; call Stop first")
	}
	shared.config = &cfg
	return nil
}

// Shared returns the browser of this test process, getting it on first use
// with the configuration of Configure, or else ConfigFromEnv. Every later
// call returns the same browser; Stop closes it. Under `ginkgo -p` each
// process has its own.
func Shared() (*Browser, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser != nil {
		return shared.browser, nil
	}
	cfg := ConfigFromEnv()
	if shared.config != nil {
		cfg = *shared.config
	}
	b, err := Launch(cfg)
	if err != nil {
		return nil, err
	}
	shared.browser = b
	return b, nil
}

// Warm opens and closes one blank page, which starts the browser's first
// renderer process.
func (b *Browser) Warm() error {
	ctx, err := b.browser.NewContext()
	if err != nil {
		return fmt.Errorf("glasstest: warm up: %w", err)
	}
	defer ctx.Close()
	if _, err := ctx.NewPage(); err != nil {
		return fmt.Errorf("glasstest: warm up: %w", err)
	}
	return nil
}

// Stop closes the shared browser, if one was started. Call it from
// AfterSuite; a later Shared gets a new one.
func Stop() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	b := shared.browser
	shared.browser = nil
	return b.Close()
}

// NewContext opens a fresh browser context in b, in which Glass opens
// one page.
func (b *Browser) NewContext() (playwright.BrowserContext, error) {
	if !Started(b) {
		return nil, errors.New("glasstest: no browser")
	}
	return b.browser.NewContext(playwright.BrowserNewContextOptions{})
}

// Started reports whether b holds a browser (Launch made it), which a zero
// Browser does not. A function, not a method, so that it is no part of
// glasstest.Browser.
func Started(b *Browser) bool { return b != nil && b.browser != nil }

// Contexts is the number of browser contexts open in b, for specs that
// check that nothing was left behind. A browser attached over CDP counts
// its default context too.
func (b *Browser) Contexts() int {
	if b == nil || b.browser == nil {
		return 0
	}
	return len(b.browser.Contexts())
}

// Connected reports whether b's browser is still connected.
func (b *Browser) Connected() bool {
	return b != nil && b.browser != nil && b.browser.IsConnected()
}

// Truthy and Falsy read an environment variable's switch: 1, true, yes,
// on; 0, false, no, off (any case).
func Truthy(s string) bool {
	switch strings.ToLower(s) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func Falsy(s string) bool {
	switch strings.ToLower(s) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}
