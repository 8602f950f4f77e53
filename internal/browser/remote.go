package browser

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/internal/proc"
)

// connect gets a browser from a Playwright server. The launch options go in
// the x-playwright-launch-options header, as Playwright's own clients send
// them; a server started without --unsafe drops executablePath and args
// and uses its own browser.
func connect(cfg Config) (*Browser, error) {
	pw, err := startDriver(cfg.Progress)
	if err != nil {
		return nil, err
	}
	launch := map[string]any{"headless": !cfg.Headed, "args": append(append([]string{}, DefaultArgs...), cfg.Args...)}
	if cfg.Executable != "" {
		launch["executablePath"] = cfg.Executable
	}
	lo, _ := json.Marshal(launch)
	headers := map[string]string{"x-playwright-launch-options": string(lo)}
	for k, v := range cfg.Headers {
		headers[k] = v
	}
	b, err := pw.Chromium.Connect(cfg.Connect, playwright.BrowserTypeConnectOptions{
		Headers: headers,
		Timeout: playwright.Float(float64(connectTimeout(cfg).Milliseconds())),
	})
	if err != nil {
		_ = pw.Stop()
		return nil, fmt.Errorf("glasstest: connect to the Playwright server %q: %w", cfg.Connect, err)
	}
	return &Browser{pw: pw, browser: b, Executable: cfg.Connect, Mode: ModeConnect}, nil
}

// connectOverCDP attaches to a running Chromium. Its launch flags are
// whatever it was started with; Glass cannot add DefaultArgs.
func connectOverCDP(cfg Config) (*Browser, error) {
	pw, err := startDriver(cfg.Progress)
	if err != nil {
		return nil, err
	}
	b, err := pw.Chromium.ConnectOverCDP(cfg.ConnectOverCDP, playwright.BrowserTypeConnectOverCDPOptions{
		Headers: cfg.Headers,
		Timeout: playwright.Float(float64(connectTimeout(cfg).Milliseconds())),
	})
	if err != nil {
		_ = pw.Stop()
		return nil, fmt.Errorf("glasstest: connect over CDP to %q: %w", cfg.ConnectOverCDP, err)
	}
	return &Browser{pw: pw, browser: b, Executable: cfg.ConnectOverCDP, Mode: ModeCDP}, nil
}

func connectTimeout(cfg Config) time.Duration {
	if cfg.ConnectTimeout > 0 {
		return cfg.ConnectTimeout
	}
	return DefaultConnectTimeout
}

// PlaywrightServer is a `playwright run-server` started by Glass on
// loopback: one endpoint that any number of test processes (or machines,
// behind a tunnel) connect to with Config.Connect.
type PlaywrightServer struct {
	// WSEndpoint is the address to connect to (ws://127.0.0.1:PORT/).
	WSEndpoint string

	cmd   *exec.Cmd
	stdin io.Closer
	done  chan struct{}
	out   *proc.Buffer
	once  sync.Once
	err   error
}

// DefaultServerStartTimeout bounds StartPlaywrightServer's wait for the
// server to print its endpoint.
const DefaultServerStartTimeout = 30 * time.Second

// StartPlaywrightServer starts the Playwright driver's `run-server` on
// 127.0.0.1 and an OS-picked port. The server runs with --unsafe so that
// clients may name the Chromium to launch (Config.Executable and
// Args); it listens on loopback only for that reason. Stop ends it.
func StartPlaywrightServer() (*PlaywrightServer, error) {
	d, err := playwright.NewDriver(driverOptions(nil))
	if err != nil {
		return nil, fmt.Errorf("glasstest: playwright server: %w", err)
	}
	if err := d.Install(); err != nil {
		return nil, fmt.Errorf("glasstest: playwright server: %w", err)
	}
	cmd := d.Command("run-server", "--host", "127.0.0.1", "--port", "0", "--unsafe")
	proc.InOwnGroup(cmd)
	// The browsers the server launches inherit its stderr; once the server
	// has exited, Wait must not wait for them to let go of it.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("glasstest: playwright server: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("glasstest: playwright server: %w", err)
	}
	out := &proc.Buffer{}
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("glasstest: start the playwright server: %w", err)
	}
	s := &PlaywrightServer{cmd: cmd, stdin: stdin, done: make(chan struct{}), out: out}
	endpoint := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			out.Write([]byte(line + "\n"))
			if rest, ok := strings.CutPrefix(line, "Listening on "); ok && !sent {
				endpoint <- strings.TrimSpace(rest)
				sent = true
			}
		}
	}()
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	timer := time.NewTimer(DefaultServerStartTimeout)
	defer timer.Stop()
	select {
	case ep := <-endpoint:
		s.WSEndpoint = ep
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("glasstest: the playwright server exited before listening: %v; output: %s", s.err, proc.Tail(out.String(), 2000))
	case <-timer.C:
		_ = s.Stop()
		return nil, fmt.Errorf("glasstest: the playwright server did not listen within %s; output: %s", DefaultServerStartTimeout, proc.Tail(out.String(), 2000))
	}
}

// serverStopGrace is how long Stop lets the server exit on SIGTERM. Once a
// browser has run in it, the server may take its time (its own fallback is
// thirty seconds); its clients have closed their browsers by then, so what
// is left is killed.
const serverStopGrace = 2 * time.Second

// Stop ends the server: it closes its stdin and sends it SIGTERM, and kills
// what is left of its process group (the server and any browser it
// launched) after serverStopGrace.
func (s *PlaywrightServer) Stop() error {
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		_ = s.stdin.Close()
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		timer := time.NewTimer(serverStopGrace)
		defer timer.Stop()
		select {
		case <-s.done:
		case <-timer.C:
			proc.KillGroup(s.cmd)
			<-s.done
		}
		if !proc.GroupGone(s.cmd, serverStopGrace) {
			proc.KillGroup(s.cmd)
			proc.GroupGone(s.cmd, time.Second)
		}
	})
	var ee *exec.ExitError
	if s.err != nil && !errors.As(s.err, &ee) {
		return fmt.Errorf("glasstest: stop the playwright server: %w", s.err)
	}
	return nil
}

// Output is what the server printed so far.
func (s *PlaywrightServer) Output() string { return s.out.String() }
