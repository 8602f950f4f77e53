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
}

// BrowserConfig says how to get a browser. The zero value launches a
// local headless Chromium found by FindChromium.
type BrowserConfig struct {
	// Executable is the Chromium to launch. Default: FindChromium.
	Executable string
	// Headed shows the browser window. Default false (headless).
	Headed bool
	// Args are added to DefaultArgs.
	Args []string
	// Progress receives one line per set-up step (driver download). Default:
	// discarded.
	Progress io.Writer
}

// FindChromium looks for a Chromium to launch: $GLASS_CHROMIUM, then
// Playwright's own browser cache, then chromium, chromium-browser,
// google-chrome and google-chrome-stable on $PATH.
func FindChromium() (string, error) {
	if p := os.Getenv("GLASS_CHROMIUM"); p != "" {
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
	return "", fmt.Errorf("glasstest: %w; install one (Debian/Ubuntu: apt-get install -y chromium) or set GLASS_CHROMIUM=/path/to/chrome", ErrNoBrowser)
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
func InstallDriver(progress io.Writer) error {
	if err := playwright.Install(driverOptions(progress)); err != nil {
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

// Launch starts the Playwright driver and a Chromium.
func Launch(cfg BrowserConfig) (*Browser, error) {
	exe := cfg.Executable
	if exe == "" {
		var err error
		if exe, err = FindChromium(); err != nil {
			return nil, err
		}
	}
	pw, err := startDriver(cfg.Progress)
	if err != nil {
		return nil, err
	}
	args := append([]string{}, DefaultArgs...)
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	args = append(args, cfg.Args...)
	b, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(exe),
		Headless:       playwright.Bool(!cfg.Headed),
		Args:           args,
	})
	if err != nil {
		_ = pw.Stop()
		return nil, fmt.Errorf("glasstest: launch %q: %w", exe, err)
	}
	return &Browser{pw: pw, browser: b, Executable: exe}, nil
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
}

// Shared returns the browser of this test process, launching it on first
// use with the configuration from the environment ($GLASS_CHROMIUM,
// $GLASS_HEADED). Every later call returns the same browser; Stop closes it.
func Shared() (*Browser, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser != nil {
		return shared.browser, nil
	}
	cfg := BrowserConfig{Headed: truthy(os.Getenv("GLASS_HEADED"))}
	b, err := Launch(cfg)
	if err != nil {
		return nil, err
	}
	shared.browser = b
	return b, nil
}

// Stop closes the shared browser, if one was started. Call it from
// AfterSuite; a later Shared launches a new one.
func Stop() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	b := shared.browser
	shared.browser = nil
	return b.Close()
}

func truthy(s string) bool {
	switch strings.ToLower(s) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
