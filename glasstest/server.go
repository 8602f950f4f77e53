package glasstest

import (
	"fmt"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/glassworks/glass/internal/devserver"
)

// The dev-server processes live in internal/devserver; here are their
// Ginkgo form (Start) and the report of a failing spec.

// DefaultReadyTimeout bounds the wait for an external dev server to answer
// at its ready URL; it is the default of Playwright Test's webServer.
const DefaultReadyTimeout = devserver.DefaultReadyTimeout

// DefaultStopTimeout is how long Stop waits after SIGTERM before it kills
// the server's process group.
const DefaultStopTimeout = devserver.DefaultStopTimeout

// ServerOption configures StartServer and Start.
type ServerOption = devserver.Option

// Dir runs the command in dir. Default: the test's working directory.
func Dir(dir string) ServerOption { return devserver.Dir(dir) }

// Env adds KEY=VALUE pairs to the command's environment (which is the
// test's environment otherwise).
func Env(kv ...string) ServerOption { return devserver.Env(kv...) }

// ReadyTimeout bounds the wait for the ready URL. Default:
// DefaultReadyTimeout.
func ReadyTimeout(d time.Duration) ServerOption { return devserver.ReadyTimeout(d) }

// StopTimeout is how long Stop waits for the server to exit after SIGTERM
// before killing it. Default: DefaultStopTimeout.
func StopTimeout(d time.Duration) ServerOption { return devserver.StopTimeout(d) }

// DevServer is an app under test that Glass started as a subprocess, the
// Go counterpart of Playwright Test's webServer.
type DevServer struct {
	// Command is the shell command that was started.
	Command string
	// URL is the ready URL the server answered at.
	URL string

	proc       *devserver.Server
	suiteLevel bool
}

// StartServer runs command with `sh -c` in its own process group and waits
// until readyURL answers with a status a browser can work with (2xx, 3xx,
// 400–403, as Playwright Test's webServer), polling until the ready
// deadline. It captures stdout and stderr together. If the command exits
// first, or the deadline passes, it stops the command and returns an error
// with the tail of its output. It is the error-returning form of Start.
func StartServer(command, readyURL string, opts ...ServerOption) (*DevServer, error) {
	s, err := devserver.Start(command, readyURL, opts...)
	if err != nil {
		return nil, err
	}
	return &DevServer{Command: s.Command, URL: s.URL, proc: s}, nil
}

// Stop ends the server: SIGTERM to its process group, then SIGKILL after
// the stop timeout. Stopping an exited or stopped server does nothing. An
// exit caused by the stop is not an error.
func (d *DevServer) Stop() error {
	if d == nil {
		return nil
	}
	err := d.proc.Stop()
	servers.Remove(d)
	return err
}

// Output is everything the server printed so far (stdout and stderr
// interleaved), up to its last megabyte.
func (d *DevServer) Output() string { return d.proc.Output() }

// Exited reports whether the server's command has ended.
func (d *DevServer) Exited() bool { return d.proc.Exited() }

// Pid is the process id of the server's command (the shell).
func (d *DevServer) Pid() int { return d.proc.Pid() }

// FreePort asks the OS for a free TCP port on 127.0.0.1, for a dev server
// that must be told its port up front. Another process may take the port
// before the server binds it; on loopback in a test run that is rare.
func FreePort() (int, error) { return devserver.FreePort() }

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
	servers.Add(d)
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
	ginkgo.AddReportEntry("glass dev server output", d.entry(), ginkgo.CurrentSpecReport().LeafNodeLocation, ginkgo.ReportEntryVisibilityFailureOrVerbose)
}

// entry is the report entry of the server: the tail of its output with the
// sensitive values of every call of the process removed (the app may log
// what a page sent it).
func (d *DevServer) entry() ServerOutput {
	return ServerOutput{
		Command: d.Command,
		URL:     d.URL,
		Exited:  d.Exited(),
		Output:  devserver.ScrubbedTail(d.Output(), len(d.Output()) >= devserver.MaxOutput, processSecrets.Set()),
	}
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

// servers are the running dev servers Start started, for the evidence of
// failing specs (the suite-level ones).
var servers devserver.Registry[*DevServer]
