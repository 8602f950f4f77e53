package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/glassworks/glass"
	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

const (
	exitOK         = 0
	exitViolations = 1
	exitUsage      = 2
)

const usage = `usage: glass-conformance <command> [flags]

commands:
  run      check a page against the contract (default: the embedded Todo example)
  rules    print the rule catalog (--json for JSON)
  init     read a live page and write a starter Ginkgo suite and manifest
  surface  record a page's capability surface; surface diff compares two
  setup    install the Playwright driver if missing and find a Chromium
  runtime  write the page runtime this binary embeds (--esm: as an ES module)
  version  print the versions of the CLI, the library and the runtime, and the protocol

Run "glass-conformance run -h" for the flags of run; docs/cli.md has the
full reference. Exit status: 0 the page conforms, 1 a rule is violated,
2 usage or set-up error.
`

// version is the Glass release this binary belongs to: the one version of
// the module, which the embedded runtime carries too.
const version = glass.Version

func run(args []string, stdout, stderr io.Writer) (code int) {
	// A bug must not print a stack trace at a CI gate: one line, exit 2.
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "glass-conformance: internal error: %v\n", v)
			code = exitUsage
		}
	}()
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
	case "init":
		return initCmd(args[1:], stdout, stderr)
	case "surface":
		return surfaceCmd(args[1:], stdout, stderr)
	case "runtime":
		return runtimeCmd(args[1:], stdout, stderr)
	case "version":
		return versionCmd(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "glass-conformance: unknown command %q (want run, rules, init, surface, setup, runtime or version)\n", args[0])
	return exitUsage
}

// launch gets the browser of run and init as the test suites get theirs
// (glasstest.ConfigFromEnv): GLASS_CHROMIUM, GLASS_HEADED, and
// GLASS_BROWSER_WS or GLASS_CDP_URL for a browser elsewhere. The driver's
// download progress goes to stderr, so that a first run does not look hung.
func launch(stderr io.Writer) (*glasstest.Browser, error) {
	cfg := glasstest.ConfigFromEnv()
	cfg.Progress = stderr
	return glasstest.Launch(cfg)
}

// maxErrorLine bounds a usage or set-up error's line (not a contract bound).
const maxErrorLine = 2000

// failLine prints one line of a usage or set-up error and returns exit
// code 2. The message may quote the page (a set-up error names what its
// runtime threw, a server's status line), so it is shown as
// receipt.PrintableText shows page text, a newline in it is shown as \n,
// and the line, its prefix, the mark of a cut and its newline included,
// is at most maxErrorLine bytes: the error stays one short line.
func failLine(stderr io.Writer, prefix, format string, args ...any) int {
	msg := strings.ReplaceAll(receipt.PrintableText(fmt.Sprintf(format, args...)), "\n", `\n`)
	budget := max(maxErrorLine-len(prefix)-len("…")-len("\n"), 0)
	fmt.Fprintf(stderr, "%s%s\n", prefix, receipt.Clip(msg, budget))
	return exitUsage
}

// parseFlags parses a subcommand's flags; -h prints them to stdout, once.
// A bad flag is one line on stderr, not the whole list: the flag package's
// own output is discarded and its error reported here.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (done bool, code int) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, "usage: glass-conformance %s [flags]\n\nflags:\n", fs.Name())
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return true, exitOK
	case err != nil:
		// The flag package names a bad flag as it was typed: the line is
		// escaped and bounded like every other.
		return true, failLine(stderr, "glass-conformance "+fs.Name()+": ", "%v (glass-conformance %s -h lists the flags)", err, fs.Name())
	case fs.NArg() > 0:
		return true, failLine(stderr, "glass-conformance: ", "unexpected argument %q", fs.Arg(0))
	}
	return false, 0
}

func rulesCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the catalog as JSON")
	if done, code := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	type rule struct {
		conformance.Rule
		Checked bool `json:"checked"`
	}
	var rules []rule
	for _, r := range conformance.Catalog {
		rules = append(rules, rule{r, conformance.Checked(r.ID)})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rules); err != nil {
			fmt.Fprintf(stderr, "glass-conformance: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	for _, r := range rules {
		check := ""
		if !r.Checked {
			check = " (" + conformance.NoCheckYet + ")"
		}
		fmt.Fprintf(stdout, "%-36s %-18s %s%s\n", r.ID, r.Phase, r.Must, check)
	}
	return exitOK
}

func setupCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	if done, code := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if err := glasstest.InstallDriver(stderr); err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", pagejs.FirstLine(err.Error()))
		return exitUsage
	}
	// The browser a run would launch: a headed run (GLASS_HEADED) passes
	// over headless shells.
	find := glasstest.FindChromium
	if glasstest.ConfigFromEnv().Headed {
		find = glasstest.FindHeadedChromium
	}
	exe, err := find()
	if err != nil {
		fmt.Fprintf(stderr, "glass-conformance: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "glass-conformance: Playwright driver ready; browser %s\n", exe)
	return exitOK
}
