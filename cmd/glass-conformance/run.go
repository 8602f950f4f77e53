package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
)

const (
	exitOK         = 0
	exitViolations = 1
	exitUsage      = 2
)

const usage = `usage: glass-conformance <command> [flags]

commands:
  run      check a page against the contract (default: the embedded Todo example)
  rules    print the rule catalog
  setup    install the Playwright driver if missing and find a Chromium
  version  print the version
`

// version is the Glass release this binary belongs to.
const version = "0.1.0"

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "rules":
		return rulesCmd(args[1:], stdout, stderr)
	case "setup":
		return setupCmd(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "glass-conformance %s (protocol glass.page/v1)\n", version)
		return exitOK
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "glass-conformance: unknown command %q (want run, rules or version)\n", args[0])
	return exitUsage
}

func rulesCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	for _, r := range conformance.Catalog {
		fmt.Fprintf(stdout, "%-24s %-18s %s\n", r.ID, r.Phase, r.Must)
	}
	return exitOK
}

func setupCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if err := glasstest.InstallDriver(stderr); err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", firstLine(err.Error()))
		return exitUsage
	}
	exe, err := glasstest.FindChromium()
	if err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "glass-conformance: Playwright driver ready; browser %s\n", exe)
	return exitOK
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("url", "", "page to check (default: serve the embedded Todo example on loopback)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "glass-conformance: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	pageURL := *target
	if pageURL == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintf(stderr, "glass-conformance: serve the Todo example: %v\n", err)
			return exitUsage
		}
		srv := &http.Server{Handler: app.Handler()}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		pageURL = "http://" + ln.Addr().String() + "/"
		fmt.Fprintf(stdout, "serving the Todo example at %s\n", pageURL)
	} else if err := checkURL(pageURL); err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", err)
		return exitUsage
	}

	b, err := glasstest.Launch(glasstest.BrowserConfig{Progress: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", firstLine(err.Error()))
		return exitUsage
	}
	defer b.Close()

	rep, err := conformance.Run(conformance.Target{URL: pageURL, Browser: b})
	if err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", firstLine(err.Error()))
		return exitUsage
	}
	for _, f := range rep.Findings {
		line := fmt.Sprintf("%-10s %-24s %s", strings.ToUpper(string(f.Verdict)), f.Rule.ID, f.Rule.Phase)
		if f.Message != "" {
			line += " — " + f.Message
		}
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintf(stdout, "%d rules: %d passed, %d failed, %d not probed\n",
		len(rep.Findings), rep.Count(conformance.Pass), rep.Count(conformance.Fail), rep.Count(conformance.NotProbed))
	if rep.Count(conformance.Fail) > 0 {
		return exitViolations
	}
	return exitOK
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("--url %q: %w", s, errors.Unwrap(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("--url %q: want an http or https URL", s)
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
