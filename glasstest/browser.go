package glasstest

import (
	"io"

	"github.com/glassworks/glass/internal/browser"
)

// The browser set-up lives in internal/browser; these are its names for a
// user of glasstest.

// ErrNoBrowser is returned when no Chromium can be found or launched.
var ErrNoBrowser = browser.ErrNoBrowser

// DefaultArgs are the Chromium flags Glass always passes: they keep a
// browser quiet on a closed network and turn on WebMCP
// (document.modelContext). As root, --no-sandbox is added. Add flags with
// BrowserConfig.Args.
var DefaultArgs = browser.DefaultArgs

// Browser is one Playwright driver and one Chromium, shared by every page
// of a test process. Its fields say which Chromium (Executable) and how it
// was obtained (Mode); its methods are Close, Contexts, Connected and
// NewContext.
type Browser = browser.Browser

// Mode is how a Browser was obtained.
type Mode = browser.Mode

// The ways to get a browser: launch a local Chromium, connect to a
// Playwright server (BrowserType.Connect), or attach to a Chromium's
// DevTools endpoint (BrowserType.ConnectOverCDP).
const (
	ModeLaunch  = browser.ModeLaunch
	ModeConnect = browser.ModeConnect
	ModeCDP     = browser.ModeCDP
)

// The environment variables Shared reads (see ConfigFromEnv).
const (
	EnvChromium  = browser.EnvChromium
	EnvHeaded    = browser.EnvHeaded
	EnvBrowserWS = browser.EnvBrowserWS
	EnvCDPURL    = browser.EnvCDPURL
)

// DefaultConnectTimeout bounds connecting to a remote browser (both
// Connect and ConnectOverCDP), so that an unreachable grid fails the
// suite instead of hanging it.
const DefaultConnectTimeout = browser.DefaultConnectTimeout

// BrowserConfig says how to get a browser: launch a local Chromium
// (Executable, Headed, Args), connect to a Playwright server (Connect) or
// attach to a DevTools endpoint (ConnectOverCDP), with Headers and a
// ConnectTimeout for the last two. The zero value launches a local
// headless Chromium found by FindChromium. Each field documents its
// default.
type BrowserConfig = browser.Config

// ConfigFromEnv is the configuration Shared uses unless Configure was
// called: $GLASS_CHROMIUM (the Chromium to launch), $GLASS_HEADED (show
// the window), $GLASS_BROWSER_WS (connect to this Playwright server
// instead of launching) and $GLASS_CDP_URL (attach to this DevTools
// endpoint instead of launching).
func ConfigFromEnv() BrowserConfig { return browser.ConfigFromEnv() }

// FindChromium looks for a Chromium to launch headless: $GLASS_CHROMIUM;
// then a headless shell: Playwright's (in its browser cache), or
// chromium-headless-shell, chrome-headless-shell or headless_shell on
// $PATH; then a full Chromium: Playwright's, or chromium,
// chromium-browser, google-chrome or google-chrome-stable on $PATH.
//
// The headless shell is the browser Playwright itself runs headless: a
// Chromium without a window's user interface, which opens a page for about
// half the CPU of a full Chromium in headless mode. It cannot show a
// window: a headed run takes a full Chromium (FindHeadedChromium).
func FindChromium() (string, error) { return browser.FindChromium() }

// FindHeadedChromium looks for a Chromium that can show a window, as
// FindChromium does but passing over the headless shells. Launch uses it
// when BrowserConfig.Headed is set.
func FindHeadedChromium() (string, error) { return browser.FindHeadedChromium() }

// InstallDriver downloads the Playwright driver when it is missing or of
// another version; it does nothing when the driver is up to date. A
// download is announced on progress, one line per step, so that a first
// run does not look hung.
func InstallDriver(progress io.Writer) error { return browser.InstallDriver(progress) }

// Launch starts the Playwright driver and gets a Chromium as cfg says:
// it launches a local one, or connects to a Playwright server
// (cfg.Connect), or attaches to a DevTools endpoint (cfg.ConnectOverCDP).
func Launch(cfg BrowserConfig) (*Browser, error) { return browser.Launch(cfg) }

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
func Configure(cfg BrowserConfig) error { return browser.Configure(cfg) }

// Shared returns the browser of this test process, getting it on first use
// with the configuration of Configure, or else ConfigFromEnv. Every later
// call returns the same browser; Stop closes it. Under `ginkgo -p` each
// process has its own.
func Shared() (*Browser, error) { return browser.Shared() }

// Stop closes the shared browser, if one was started. Call it from
// AfterSuite; a later Shared gets a new one.
func Stop() error { return browser.Stop() }

// PlaywrightServer is a `playwright run-server` started by Glass on
// loopback: one endpoint (its WSEndpoint field) that any number of test
// processes connect to with BrowserConfig.Connect. Stop ends it; Output is
// what it printed.
type PlaywrightServer = browser.PlaywrightServer

// DefaultServerStartTimeout bounds StartPlaywrightServer's wait for the
// server to print its endpoint.
const DefaultServerStartTimeout = browser.DefaultServerStartTimeout

// StartPlaywrightServer starts the Playwright driver's `run-server` on
// 127.0.0.1 and an OS-picked port. The server runs with --unsafe so that
// clients may name the Chromium to launch (BrowserConfig.Executable and
// Args); it listens on loopback only for that reason. Stop ends it.
func StartPlaywrightServer() (*PlaywrightServer, error) { return browser.StartPlaywrightServer() }
