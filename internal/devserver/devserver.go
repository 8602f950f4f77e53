// Package devserver runs the app under test as a subprocess — the Go
// counterpart of Playwright Test's webServer: a shell command in its own
// process group, a ready URL polled until it answers, its output kept,
// and a stop that leaves no process behind. glasstest's StartServer and
// Start wrap it (Start adds Ginkgo's clean-up and the failure report).
package devserver

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

	"github.com/glassworks/glass/internal/proc"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// DefaultReadyTimeout bounds the wait for an external dev server to answer
// at its ready URL; it is the default of Playwright Test's webServer.
const DefaultReadyTimeout = 60 * time.Second

// DefaultStopTimeout is how long Stop waits after SIGTERM before it kills
// the server's process group.
const DefaultStopTimeout = 5 * time.Second

// MaxOutput bounds the output kept of a dev server: its tail is what
// explains a failure, and a chatty server must not eat the test's memory.
const MaxOutput = 1 << 20

// Option configures Start.
type Option func(*settings)

type settings struct {
	dir          string
	env          []string
	readyTimeout time.Duration
	stopTimeout  time.Duration
}

// Dir runs the command in dir. Default: the test's working directory.
func Dir(dir string) Option { return func(s *settings) { s.dir = dir } }

// Env adds KEY=VALUE pairs to the command's environment (which is the
// test's environment otherwise).
func Env(kv ...string) Option {
	return func(s *settings) { s.env = append(s.env, kv...) }
}

// ReadyTimeout bounds the wait for the ready URL. Default:
// DefaultReadyTimeout.
func ReadyTimeout(d time.Duration) Option {
	return func(s *settings) { s.readyTimeout = d }
}

// StopTimeout is how long Stop waits for the server to exit after SIGTERM
// before killing it. Default: DefaultStopTimeout.
func StopTimeout(d time.Duration) Option {
	return func(s *settings) { s.stopTimeout = d }
}

// Server is an app under test that Glass started as a subprocess.
type Server struct {
	// Command is the shell command that was started.
	Command string
	// URL is the ready URL the server answered at.
	URL string

	cmd         *exec.Cmd
	out         *proc.Buffer
	done        chan struct{}
	err         error
	stopTimeout time.Duration
	stopOnce    sync.Once
}

// Start runs command with `sh -c` in its own process group and waits
// until readyURL answers with a status a browser can work with (2xx, 3xx,
// 400–403, as Playwright Test's webServer), polling until the ready
// deadline. It captures stdout and stderr together. If the command exits
// first, or the deadline passes, it stops the command and returns an error
// with the tail of its output.
func Start(command, readyURL string, opts ...Option) (*Server, error) {
	s := settings{readyTimeout: DefaultReadyTimeout, stopTimeout: DefaultStopTimeout}
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
	out := &proc.Buffer{Max: MaxOutput}
	cmd.Stdout, cmd.Stderr = out, out
	// A process that leaves the group (a daemonising server) may keep the
	// output pipe open; Wait must not wait for it after the command ended.
	cmd.WaitDelay = time.Second
	proc.InOwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("glasstest: start %q: %w", command, err)
	}
	d := &Server{Command: command, URL: readyURL, cmd: cmd, out: out, done: make(chan struct{}), stopTimeout: s.stopTimeout}
	go func() {
		d.err = cmd.Wait()
		close(d.done)
	}()
	if err := d.waitReady(s.readyTimeout); err != nil {
		_ = d.Stop()
		return nil, fmt.Errorf("glasstest: start %q: %w; output:\n%s", command, err, proc.Tail(out.String(), 4000))
	}
	return d, nil
}

func (d *Server) waitReady(timeout time.Duration) error {
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
func (d *Server) Stop() error {
	if d == nil {
		return nil
	}
	d.stopOnce.Do(func() {
		start := time.Now()
		proc.TerminateGroup(d.cmd)
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
		if !proc.GroupGone(d.cmd, d.stopTimeout-time.Since(start)) {
			proc.KillGroup(d.cmd)
			<-d.done
			proc.GroupGone(d.cmd, time.Second)
		}
	})
	return nil
}

// Output is everything the server printed so far (stdout and stderr
// interleaved), up to its last megabyte.
func (d *Server) Output() string { return d.out.String() }

// Exited reports whether the server's command has ended.
func (d *Server) Exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// Pid is the process id of the server's command (the shell).
func (d *Server) Pid() int { return d.cmd.Process.Pid }

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

// ReportedOutput bounds the tail of a server's output in a report entry.
const ReportedOutput = 64 << 10

// ScrubbedTail is the last ReportedOutput bytes of out with every value of
// secrets replaced, as a terminal shows it without acting on it
// (receipt.PrintableText: the app may log what a page sent it, escape
// sequences included). The whole output is scrubbed before it is cut, and
// the line the cut falls in (or the one the output buffer already cut,
// when cut is set) is left out: what is left of a value cut in two is no
// spelling of it, and would show its end.
func ScrubbedTail(out string, cut bool, secrets *scrub.Set) string {
	out = secrets.ReplaceString(out, receipt.Masked)
	if len(out) > ReportedOutput {
		out, cut = out[len(out)-ReportedOutput:], true
	}
	if !cut {
		return receipt.PrintableText(out)
	}
	if i := strings.IndexByte(out, '\n'); i >= 0 {
		return "…\n" + receipt.PrintableText(out[i+1:])
	}
	return "…"
}
