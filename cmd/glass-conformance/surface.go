package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/internal/readlimit"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/surface"
	"github.com/glassworks/glass/surface/report"
)

const surfaceUsage = `usage:
  glass-conformance surface [--url URL] [-o FILE] [--update]
      record the page's declared capability surface (default: the embedded
      Todo example) to FILE (default glass-surface.json; - for stdout).
      An existing FILE is rewritten only with --update, after the
      differences it accepts are printed.
  glass-conformance surface diff [--json FILE] [--junit FILE] [--html FILE] [--update] OLD NEW
      compare the surface file NEW with the baseline OLD and print every
      difference, classified breaking, needs review or additive. Exit 1
      when one is breaking; with --update, OLD is rewritten from NEW and
      the exit is 0.

docs/surface.md explains every class; docs/cli.md has the reference.
`

// surfaceCmd is "surface" and "surface diff" (docs/cli.md).
func surfaceCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "diff" {
		return surfaceDiffCmd(args[1:], stdout, stderr)
	}
	var o recordFlags
	if done, code := parseSurfaceFlags(o.set(), args, 0, stdout, stderr); done {
		return code
	}
	url, out, update := o.url, o.out, o.update
	fail := func(format string, args ...any) int {
		return failLine(stderr, "glass-conformance surface: ", format, args...)
	}

	// Everything a person can get wrong is checked before a browser starts.
	var old *surface.Surface
	if out != "-" {
		st, err := os.Stat(out)
		switch {
		case err == nil && readlimit.NotPlain(out, st) != "":
			return fail("-o %q: not a regular file (%s)", out, readlimit.NotPlain(out, st))
		case err == nil && !update:
			return fail("%q exists: compare the page with it (record to another file, then glass-conformance surface diff %s NEW), or pass --update to rewrite it", out, out)
		case err == nil:
			if old, err = surface.Load(out); err != nil {
				fmt.Fprintf(stderr, "glass-conformance surface: replacing %s, which cannot be read: %s\n", receipt.PrintableText(out), oneLine(err))
			}
		case !errors.Is(err, fs.ErrNotExist):
			return fail("-o %q: %v", out, pathErr(err))
		}
		if err := checkDir(filepath.Dir(out)); err != nil {
			return fail("-o %q: cannot write there: %v", out, pathErr(err))
		}
	}
	pageURL := url
	if pageURL == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fail("serve the Todo example: %v", err)
		}
		srv := &http.Server{Handler: app.Handler()}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		pageURL = "http://" + ln.Addr().String() + "/"
		fmt.Fprintf(stderr, "serving the embedded Todo example at %s\n", pageURL)
	} else {
		if err := checkURL(pageURL); err != nil {
			return fail("%v", err)
		}
		if err := reach(pageURL); err != nil {
			return fail("%v", err)
		}
	}

	b, err := launch(stderr)
	if err != nil {
		return fail("%s", pagejs.FirstLine(err.Error()))
	}
	defer b.Close()
	live, err := liveSurface(b, pageURL)
	if err != nil {
		return fail("%s", oneLine(err))
	}

	if out == "-" {
		data, err := surface.Marshal(live)
		if err != nil {
			return fail("%v", err)
		}
		if _, err := stdout.Write(data); err != nil {
			return fail("%v", err)
		}
		return exitOK
	}
	if old != nil {
		rep := surface.Compare(old, live)
		fmt.Fprintf(stdout, "accepted, against the surface %s held before:\n", receipt.PrintableText(out))
		if err := rep.WriteText(stdout); err != nil {
			return fail("%v", err)
		}
	}
	if err := surface.WriteFile(out, live); err != nil {
		return fail("%s", oneLine(err))
	}
	fmt.Fprintf(stdout, "wrote the surface of page %s (%d entries) to %s\n", quoted(live.Page.ID), len(live.Actions), receipt.PrintableText(out))
	return exitOK
}

// liveSurface opens pageURL in a fresh context of b, reads its snapshot
// and returns its declared capability surface. It is the one call a
// command needs to record a live page's surface (run --surface, init).
func liveSurface(b *glasstest.Browser, pageURL string) (*surface.Surface, error) {
	return liveSurfaceHidden(b, pageURL, nil)
}

func surfaceDiffCmd(args []string, stdout, stderr io.Writer) int {
	var o diffFlags
	files, done, code := parseSurfaceArgs(o.set(), args, stdout, stderr)
	if done {
		return code
	}
	update := o.update
	fail := func(format string, args ...any) int {
		return failLine(stderr, "glass-conformance surface diff: ", format, args...)
	}
	if len(files) != 2 {
		return fail("want two surface files, OLD (the baseline) and NEW, got %d argument(s)", len(files))
	}
	oldFile, newFile := files[0], files[1]
	old, err := surface.Load(oldFile)
	if errors.Is(err, fs.ErrNotExist) {
		return fail("baseline %q does not exist: record it with glass-conformance surface --url URL -o %s, review it and commit it", oldFile, oldFile)
	}
	if err != nil {
		return fail("%s", oneLine(err))
	}
	cur, err := surface.Load(newFile)
	if err != nil {
		return fail("%s", oneLine(err))
	}
	outs, err := openReports([2]string{"--json", o.json}, [2]string{"--junit", o.junit}, [2]string{"--html", o.html})
	if err != nil {
		return fail("%v", err)
	}
	defer outs.abandon()

	rep := surface.Compare(old, cur)
	fmt.Fprintf(stdout, "capability surface %s against the baseline %s:\n", receipt.PrintableText(newFile), receipt.PrintableText(oldFile))
	if err := rep.WriteText(stdout); err != nil {
		return fail("%v", err)
	}
	names := report.Files{Baseline: oldFile, Live: newFile}
	if err := outs.write(func(flag string, w io.Writer) error {
		switch flag {
		case "--json":
			return report.WriteJSON(w, names, rep)
		case "--junit":
			return report.WriteJUnit(w, names, rep)
		default:
			return report.WriteHTML(w, names, rep)
		}
	}); err != nil {
		return fail("%v", err)
	}
	if update {
		if err := surface.WriteFile(oldFile, cur); err != nil {
			return fail("%s", oneLine(err))
		}
		fmt.Fprintf(stdout, "accepted: %s now holds the surface of %s; commit it with the change\n", receipt.PrintableText(oldFile), receipt.PrintableText(newFile))
		return exitOK
	}
	if rep.Breaking() {
		fmt.Fprintf(stdout, "breaking changes: if they are intended, accept them with glass-conformance surface diff --update %s %s and commit %s in the same change\n", receipt.PrintableText(oldFile), receipt.PrintableText(newFile), receipt.PrintableText(oldFile))
		return exitViolations
	}
	return exitOK
}

// parseSurfaceArgs parses flags wherever they are among the arguments
// ("surface diff OLD NEW --update" as well as "--update OLD NEW") and
// returns the others in order.
func parseSurfaceArgs(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (positional []string, done bool, code int) {
	for {
		if done, code := parseSurfaceFlags(fs, args, -1, stdout, stderr); done {
			return nil, true, code
		}
		if fs.NArg() == 0 {
			return positional, false, 0
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// parseSurfaceFlags is parseFlags for the surface commands: -h prints
// both forms with their flags, a bad flag is one line. maxArgs is how many
// arguments may follow the flags (-1: any).
func parseSurfaceFlags(fs *flag.FlagSet, args []string, maxArgs int, stdout, stderr io.Writer) (done bool, code int) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, surfaceUsage)
		for _, f := range []*flag.FlagSet{new(recordFlags).set(), new(diffFlags).set()} {
			fmt.Fprintf(stdout, "\nflags of %s:\n", f.Name())
			f.SetOutput(stdout)
			f.PrintDefaults()
		}
		return true, exitOK
	case err != nil:
		return true, failLine(stderr, "glass-conformance "+fs.Name()+": ", "%v (glass-conformance surface -h lists the flags)", err)
	case maxArgs >= 0 && fs.NArg() > maxArgs:
		return true, failLine(stderr, "glass-conformance "+fs.Name()+": ", "unexpected argument %q", fs.Arg(0))
	}
	return false, 0
}

// recordFlags are the flags of "surface".
type recordFlags struct {
	url, out string
	update   bool
}

func (o *recordFlags) set() *flag.FlagSet {
	fs := flag.NewFlagSet("surface", flag.ContinueOnError)
	fs.StringVar(&o.url, "url", "", "page `URL` to record (default: serve the embedded Todo example on loopback)")
	fs.StringVar(&o.out, "o", "glass-surface.json", "write the surface to `FILE` (- for stdout)")
	fs.BoolVar(&o.update, "update", false, "rewrite FILE when it exists, after printing what changes")
	return fs
}

// diffFlags are the flags of "surface diff".
type diffFlags struct {
	json, junit, html string
	update            bool
}

func (o *diffFlags) set() *flag.FlagSet {
	fs := flag.NewFlagSet("surface diff", flag.ContinueOnError)
	fs.StringVar(&o.json, "json", "", "write a JSON report to `FILE`")
	fs.StringVar(&o.junit, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&o.html, "html", "", "write a self-contained HTML report to `FILE`")
	fs.BoolVar(&o.update, "update", false, "accept the differences: rewrite OLD from NEW, and exit 0")
	return fs
}

// oneLine is an error's text on one line, without the package prefix a
// command's own prefix makes redundant.
func oneLine(err error) string { return strings.TrimPrefix(pagejs.FirstLine(err.Error()), "surface: ") }

func quoted(s string) string {
	return `"` + receipt.PrintableLine(s) + `"`
}
