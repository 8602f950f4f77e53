package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

//go:embed todo-manifest.yaml
var todoManifest []byte

// reachTimeout bounds the plain HTTP GET that checks the page is there
// before a browser is started.
const reachTimeout = 10 * time.Second

// runFlags are the flags of "run" (docs/cli.md).
type runFlags struct {
	url, manifest, transport     string
	junit, json, html, artifacts string
	rules, shard, baseline       string
	surface                      string
	strict, updateSurface        bool
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.StringVar(&f.url, "url", "", "page to check (default: serve the embedded Todo example on loopback)")
	fs.StringVar(&f.manifest, "manifest", "", "manifest `FILE` (YAML or JSON) naming what cannot be derived; see docs/manifest.md")
	fs.StringVar(&f.transport, "transport", "bridge", "how to reach the page runtime: bridge, webmcp or both")
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&f.json, "json", "", "write a JSON report to `FILE`")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report to `FILE`")
	fs.StringVar(&f.artifacts, "artifacts", "", "keep report.json and each violation's evidence under `DIR`")
	fs.StringVar(&f.rules, "rules", "", "check only these rules: comma-separated `IDS` or globs (policy.*)")
	fs.StringVar(&f.shard, "shard", "", "check only part `i/n` of the selected rules (1 ≤ i ≤ n)")
	fs.StringVar(&f.baseline, "expected-failures", "", "baseline `FILE` of known violations, one rule id per line")
	fs.StringVar(&f.surface, "surface", "", "compare the page's capability surface with the reviewed baseline `FILE` (glass-surface.json); a breaking difference fails the run")
	fs.BoolVar(&f.updateSurface, "update-surface", false, "write the page's capability surface to the --surface FILE instead, after printing what it accepts")
	fs.BoolVar(&f.strict, "strict", false, "fail (exit 1) on findings too: a call of an available action that failed or could not be made usable, or a run that probed no rule")
	if done, code := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	fail := func(format string, args ...any) int {
		return failLine(stderr, "glass-conformance: ", format, args...)
	}

	// Everything a person can get wrong is checked before a browser starts.
	transports, err := parseTransports(f.transport)
	if err != nil {
		return fail("%v", err)
	}
	opts := []conformance.Option{conformance.WithTransports(transports...)}
	if f.strict || (f.rules == "" && f.shard == "") {
		// Every available action is called once only where its failure
		// matters: a whole run, or one that fails on findings. A run of
		// a few rules makes only the calls those rules need (seconds,
		// not the whole exercise).
		opts = append(opts, conformance.WithCallFindings())
	}
	if f.rules != "" {
		opts = append(opts, conformance.WithRules(strings.Split(f.rules, ",")...))
	}
	if f.shard != "" {
		i, n, err := parseShard(f.shard)
		if err != nil {
			return fail("%v", err)
		}
		opts = append(opts, conformance.WithShard(i, n))
	}
	rules, err := conformance.Select(opts...)
	if err != nil {
		return fail("%v", err)
	}
	var manifest *conformance.Manifest
	if f.manifest != "" {
		if manifest, err = conformance.LoadManifest(f.manifest); err != nil {
			return fail("%v", err)
		}
	}
	var baseline *conformance.Baseline
	if f.baseline != "" {
		if baseline, err = conformance.LoadBaseline(f.baseline); err != nil {
			return fail("%v", err)
		}
	}
	gate, err := loadSurfaceGate(f.surface, f.updateSurface)
	if err != nil {
		return fail("%v", err)
	}
	outs, err := openOutputs(f)
	if err != nil {
		return fail("%v", err)
	}
	defer outs.abandon()

	pageURL := f.url
	if pageURL == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fail("serve the Todo example: %v", err)
		}
		srv := &http.Server{Handler: app.Handler()}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		pageURL = "http://" + ln.Addr().String() + "/"
		fmt.Fprintf(stdout, "serving the embedded Todo example at %s\n", pageURL)
		if manifest == nil {
			if manifest, err = conformance.ParseManifest("todo-manifest.yaml", todoManifest); err != nil {
				return fail("%v", err)
			}
		}
	} else {
		if err := checkURL(pageURL); err != nil {
			return fail("%v", err)
		}
		if err := reach(pageURL); err != nil {
			return fail("%v", err)
		}
	}
	if manifest != nil {
		opts = append(opts, conformance.WithManifest(manifest))
	}

	b, err := launch(stderr)
	if err != nil {
		return fail("%s", pagejs.FirstLine(err.Error()))
	}
	defer b.Close()

	prog := newProgress(stdout, len(rules)*len(transports))
	opts = append(opts, conformance.WithProgress(prog.event))
	rep, err := conformance.Run(conformance.Target{URL: pageURL, Browser: b}, opts...)
	prog.finish()
	if err != nil {
		return fail("%v", err)
	}
	rep.ApplyBaseline(baseline)

	if err := rep.WriteText(stdout); err != nil {
		return fail("%v", err)
	}
	if err := outs.write(func(flag string, w io.Writer) error { return writeReport(rep, flag, w) }); err != nil {
		return fail("%v", err)
	}
	if f.artifacts != "" {
		if err := rep.WriteArtifacts(f.artifacts); err != nil {
			return fail("%v", err)
		}
	}
	breaking := false
	if gate != nil {
		if breaking, err = gate.check(b, pageURL, f.artifacts, stdout, rep.Hide); err != nil {
			return fail("%v", err)
		}
	}
	switch {
	case !rep.Conforms():
		return exitViolations
	case breaking:
		return exitViolations
	case f.strict && !rep.ConformsStrictly():
		fmt.Fprintf(stdout, "--strict: the page conforms, but the run fails on its findings\n")
		return exitViolations
	}
	return exitOK
}

// openOutputs opens the run's report files and checks its artifacts
// directory before the run, so that an unwritable path is a usage error,
// not a lost report after a long run.
func openOutputs(f runFlags) (*reportFiles, error) {
	o, err := openReports([2]string{"--junit", f.junit}, [2]string{"--json", f.json}, [2]string{"--html", f.html})
	if err != nil {
		return nil, err
	}
	if f.artifacts != "" {
		if err := checkDir(f.artifacts); err != nil {
			o.abandon()
			return nil, fmt.Errorf("--artifacts %q: cannot write there: %v", f.artifacts, pathErr(err))
		}
	}
	return o, nil
}

func checkDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	probe, err := os.CreateTemp(dir, ".glass-write-check-*")
	if err != nil {
		return err
	}
	name := probe.Name()
	probe.Close()
	return os.Remove(name)
}

func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeReport renders rep into the report file of flag.
func writeReport(rep *conformance.Report, flag string, w io.Writer) error {
	switch flag {
	case "--junit":
		return rep.WriteJUnit(w)
	case "--json":
		return rep.WriteJSON(w)
	}
	return rep.WriteHTML(w)
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("--url %q: %v", s, errors.Unwrap(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("--url %q: want an http or https URL", s)
	}
	for _, r := range s {
		if receipt.PrintableText(string(r)) != string(r) {
			return fmt.Errorf("--url %q: holds U+%04X, which does not print as itself: percent-encode it", s, r)
		}
	}
	return nil
}

// reach makes sure, with a plain HTTP GET bounded by reachTimeout, that the
// URL answers with an HTML page, so that a typo or a stopped server is one
// clear line instead of a browser error.
func reach(pageURL string) error {
	ctx, cancel := context.WithTimeout(context.Background(), reachTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, pageURL, nil)
	if err != nil {
		return fmt.Errorf("--url %q: %v", pageURL, err)
	}
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("cannot reach %s: no answer within %s", pageURL, reachTimeout)
		}
		return fmt.Errorf("cannot reach %s: %v", pageURL, err)
	}
	defer resp.Body.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(resp.Body, head)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("%s answered %s, want a page (2xx)", pageURL, resp.Status)
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(head[:n])
	}
	mt, _, _ := mime.ParseMediaType(ct)
	if mt != "text/html" && mt != "application/xhtml+xml" {
		return fmt.Errorf("%s is not an HTML page (Content-Type %q)", pageURL, ct)
	}
	return nil
}

// progress shows the run as it goes: a counter rewritten in place with \r
// on a terminal; elsewhere (a CI log) a line for each rule that does not
// pass or is not probed as it finishes (a FAIL is seen before the run
// ends) and a count every tenth rule and at the last, so that a log says
// the run is alive without listing each rule twice (the results follow).
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	total int
	shown bool
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, tty: isTerminal(w), total: total}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) event(ev conformance.ProgressEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	name := ev.Rule.ID
	if ev.Transport != glasstest.TransportBridge {
		name += " [" + string(ev.Transport) + "]"
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s", ev.Done, p.total, name)
		p.shown = true
		return
	}
	if ev.Finding == nil {
		return
	}
	switch label := ev.Finding.Label(); {
	case label != "PASS" && label != "NOT PROBED":
		fmt.Fprintf(p.w, "[%d/%d] %-10s %s\n", ev.Done, p.total, label, name)
	case ev.Done%10 == 0 || ev.Done == p.total:
		fmt.Fprintf(p.w, "[%d/%d] checked\n", ev.Done, p.total)
	}
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
