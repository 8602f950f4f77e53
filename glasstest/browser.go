package glasstest

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

// BrowserConfig says how to get a browser. The zero value launches a
// local headless Chromium found by FindChromium.
type BrowserConfig struct {
	// Executable is the Chromium to launch. Default: FindChromium. With
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
func ConfigFromEnv() BrowserConfig {
	return BrowserConfig{
		Executable:     os.Getenv(EnvChromium),
		Headed:         truthy(os.Getenv(EnvHeaded)),
		Connect:        os.Getenv(EnvBrowserWS),
		ConnectOverCDP: os.Getenv(EnvCDPURL),
	}
}

// FindChromium looks for a Chromium to launch: $GLASS_CHROMIUM, then
// Playwright's own browser cache, then chromium, chromium-browser,
// google-chrome and google-chrome-stable on $PATH.
func FindChromium() (string, error) {
	if p := os.Getenv(EnvChromium); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("glasstest: GLASS_CHROMIUM=%q is not an executable file: %w", p, ErrNoBrowser)
		}
		return p, nil
	}
	if p := playwrightCacheChromium(); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("glasstest: %w; install one (Debian/Ubuntu: apt-get install -y chromium; or Playwright's: npx playwright install chromium) or set GLASS_CHROMIUM=/path/to/chrome", ErrNoBrowser)
}

func playwrightCacheChromium() string {
	dir := os.Getenv("PLAYWRIGHT_BROWSERS_PATH")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache", "ms-playwright")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "chromium-*", "chrome-linux*", "chrome"))
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
		Logger:              slog.New(slog.NewTextHandler(progress, nil)),
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
func Launch(cfg BrowserConfig) (*Browser, error) {
	switch {
	case cfg.Connect != "":
		return connect(cfg)
	case cfg.ConnectOverCDP != "":
		return connectOverCDP(cfg)
	}
	exe := cfg.Executable
	if exe == "" {
		var err error
		if exe, err = FindChromium(); err != nil {
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

func launchArgs(cfg BrowserConfig) []string {
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
	config  *BrowserConfig
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
func Configure(cfg BrowserConfig) error {
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

// Stop closes the shared browser, if one was started. Call it from
// AfterSuite; a later Shared gets a new one.
func Stop() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	b := shared.browser
	shared.browser = nil
	return b.Close()
}

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

func truthy(s string) bool {
	switch strings.ToLower(s) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
