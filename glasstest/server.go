package glasstest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/glassworks/glass/internal/scrub"
)

// DefaultReadyTimeout bounds the wait for an external dev server to answer
// at its ready URL; it is the default of Playwright Test's webServer.
const DefaultReadyTimeout = 60 * time.Second

// DefaultStopTimeout is how long Stop waits after SIGTERM before it kills
// the server's process group.
const DefaultStopTimeout = 5 * time.Second

// maxServerOutput bounds the output kept of a dev server: its tail is what
// explains a failure, and a chatty server must not eat the test's memory.
const maxServerOutput = 1 << 20

// ServerOption configures StartServer and Start.
type ServerOption func(*serverSettings)

type serverSettings struct {
	dir          string
	env          []string
	readyTimeout time.Duration
	stopTimeout  time.Duration
}

// Dir runs the command in dir. Default: the test's working directory.
func Dir(dir string) ServerOption { return func(s *serverSettings) { s.dir = dir } }

// Env adds KEY=VALUE pairs to the command's environment (which is the
// test's environment otherwise).
func Env(kv ...string) ServerOption {
	return func(s *serverSettings) { s.env = append(s.env, kv...) }
}

// ReadyTimeout bounds the wait for the ready URL. Default:
// DefaultReadyTimeout.
func ReadyTimeout(d time.Duration) ServerOption {
	return func(s *serverSettings) { s.readyTimeout = d }
}

// StopTimeout is how long Stop waits for the server to exit after SIGTERM
// before killing it. Default: DefaultStopTimeout.
func StopTimeout(d time.Duration) ServerOption {
	return func(s *serverSettings) { s.stopTimeout = d }
}

// DevServer is an app under test that Glass started as a subprocess, the
// Go counterpart of Playwright Test's webServer.
type DevServer struct {
	// Command is the shell command that was started.
	Command string
	// URL is the ready URL the server answered at.
	URL string

	cmd         *exec.Cmd
	out         *lockedBuffer
	done        chan struct{}
	err         error
	stopTimeout time.Duration
	stopOnce    sync.Once
	suiteLevel  bool
}

// StartServer runs command with `sh -c` in its own process group and waits
// until readyURL answers with a status a browser can work with (2xx, 3xx,
// 400–403, as Playwright Test's webServer), polling until the ready
// deadline. It captures stdout and stderr together. If the command exits
// first, or the deadline passes, it stops the command and returns an error
// with the tail of its output. It is the error-returning form of Start.
func StartServer(command, readyURL string, opts ...ServerOption) (*DevServer, error) {
	s := serverSettings{readyTimeout: DefaultReadyTimeout, stopTimeout: DefaultStopTimeout}
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	if command == "" {
		return nil, errors.New("glasstest: start: empty command")
	}
	shell := "sh"
	if runtime.GOOS == "windows" {
		shell = "cmd"
	}
	flag := "-c"
	if shell == "cmd" {
		flag = "/C"
	}
	cmd := exec.Command(shell, flag, command)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), s.env...)
	out := &lockedBuffer{max: maxServerOutput}
	cmd.Stdout, cmd.Stderr = out, out
	// A process that leaves the group (a daemonising server) may keep the
	// output pipe open; Wait must not wait for it after the command ended.
	cmd.WaitDelay = time.Second
	inOwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("glasstest: start %q: %w", command, err)
	}
	d := &DevServer{Command: command, URL: readyURL, cmd: cmd, out: out, done: make(chan struct{}), stopTimeout: s.stopTimeout}
	go func() {
		d.err = cmd.Wait()
		close(d.done)
	}()
	if err := d.waitReady(s.readyTimeout); err != nil {
		_ = d.Stop()
		return nil, fmt.Errorf("glasstest: start %q: %w; output:\n%s", command, err, tail(out.String(), 4000))
	}
	return d, nil
}

func (d *DevServer) waitReady(timeout time.Duration) error {
	client := &http.Client{
		Timeout: time.Second,
		// A redirect is an answer; following it could leave the server.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		resp, err := client.Get(d.URL)
		if err == nil {
			resp.Body.Close()
			if ready(resp.StatusCode) {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		last = err
		select {
		case <-d.done:
			return fmt.Errorf("the command exited before %q answered (%v)", d.URL, exitText(d.err))
		case <-deadline.C:
			return fmt.Errorf("%q did not answer within %s (last attempt: %v)", d.URL, timeout, last)
		case <-tick.C:
		}
	}
}

func ready(status int) bool {
	return status >= 200 && status < 400 || status >= 400 && status <= 403
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// Stop ends the server: SIGTERM to its process group, then SIGKILL after
// the stop timeout. Stopping an exited or stopped server does nothing. An
// exit caused by the stop is not an error.
func (d *DevServer) Stop() error {
	if d == nil {
		return nil
	}
	d.stopOnce.Do(func() {
		start := time.Now()
		terminateGroup(d.cmd)
		timer := time.NewTimer(d.stopTimeout)
		defer timer.Stop()
		select {
		case <-d.done:
		case <-timer.C:
		}
		// The leader may be gone while its group (go run's child, the
		// shell's server) is not: wait for the group too, then kill what
		// is left. The poll is bounded; it is a wait on processes, not a
		// sleep for time to pass.
		if !groupGone(d.cmd, d.stopTimeout-time.Since(start)) {
			killGroup(d.cmd)
			<-d.done
			groupGone(d.cmd, time.Second)
		}
		servers.remove(d)
	})
	return nil
}

// Output is everything the server printed so far (stdout and stderr
// interleaved), up to its last megabyte.
func (d *DevServer) Output() string { return d.out.String() }

// Exited reports whether the server's command has ended.
func (d *DevServer) Exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// Pid is the process id of the server's command (the shell).
func (d *DevServer) Pid() int { return d.cmd.Process.Pid }

// Start is StartServer for Ginkgo: a failure to start fails the node, and
// the server stops when the node that started it ends (DeferCleanup). When
// a spec fails, the server's output is attached to its report
// (AddReportEntry "glass dev server output"): by the cleanup of a spec that
// started it, and by the evidence of every failing spec that opened a page
// while a suite-level server (started in BeforeSuite) was running.
func Start(command, readyURL string, opts ...ServerOption) *DevServer {
	ginkgo.GinkgoHelper()
	d, err := StartServer(command, readyURL, opts...)
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	d.suiteLevel = ginkgo.CurrentSpecReport().LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes)
	servers.add(d)
	ginkgo.DeferCleanup(func() {
		if !d.suiteLevel && ginkgo.CurrentSpecReport().Failed() {
			d.report()
		}
		_ = d.Stop()
	})
	return d
}

// report attaches the tail of the output to the current spec's report.
func (d *DevServer) report() {
	ginkgo.AddReportEntry("glass dev server output", d.entry(), ginkgo.ReportEntryVisibilityFailureOrVerbose)
}

// reportedOutput bounds the tail of a server's output in a report entry.
const reportedOutput = 64 << 10

// entry is the report entry of the server: the tail of its output with the
// sensitive values of every call of the process removed (the app may log
// what a page sent it).
func (d *DevServer) entry() ServerOutput {
	return ServerOutput{
		Command: d.Command,
		URL:     d.URL,
		Exited:  d.Exited(),
		Output:  scrubbedTail(d.Output(), len(d.Output()) >= maxServerOutput, processSecretSet()),
	}
}

// scrubbedTail is the last reportedOutput bytes of out with every value of
// secrets replaced. The whole output is scrubbed before it is cut, and the
// line the cut falls in (or the one the output buffer already cut, when
// cut is set) is left out: what is left of a value cut in two is no
// spelling of it, and would show its end.
func scrubbedTail(out string, cut bool, secrets *scrub.Set) string {
	out = secrets.ReplaceString(out, masked)
	if len(out) > reportedOutput {
		out, cut = out[len(out)-reportedOutput:], true
	}
	if !cut {
		return out
	}
	if i := strings.IndexByte(out, '\n'); i >= 0 {
		return "…\n" + out[i+1:]
	}
	return "…"
}

// ServerOutput is the value of the "glass dev server output" report entry.
type ServerOutput struct {
	Command string `json:"command"`
	URL     string `json:"url"`
	Exited  bool   `json:"exited"`
	Output  string `json:"output"`
}

// String renders the entry for Ginkgo's console report.
func (o ServerOutput) String() string {
	return fmt.Sprintf("%s (%s, exited: %v)\n%s", o.Command, o.URL, o.Exited, o.Output)
}

// registry of running suite-level dev servers, for evidence of failing specs.
type serverRegistry struct {
	mu   sync.Mutex
	list []*DevServer
}

var servers serverRegistry

func (r *serverRegistry) add(d *DevServer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, d)
}

func (r *serverRegistry) remove(d *DevServer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.list {
		if x == d {
			r.list = append(r.list[:i], r.list[i+1:]...)
			return
		}
	}
}

func (r *serverRegistry) suiteLevel() []*DevServer {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*DevServer
	for _, d := range r.list {
		if d.suiteLevel {
			out = append(out, d)
		}
	}
	return out
}

// FreePort asks the OS for a free TCP port on 127.0.0.1, for a dev server
// that must be told its port up front. Another process may take the port
// before the server binds it; on loopback in a test run that is rare.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("glasstest: free port: %w", err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return strconv.Atoi(port)
}

// lockedBuffer collects a subprocess's output from several goroutines,
// keeping at most max bytes (its tail) when max > 0.
type lockedBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if l.max > 0 && len(l.b) > l.max {
		l.b = append([]byte(nil), l.b[len(l.b)-l.max:]...)
	}
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}
