package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/internal/initgen"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/internal/readlimit"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/surface"
)

type initFlags struct {
	url, dir, pkg string
	force         bool
}

// initCmd is glass-conformance init: the flags and the files; the
// generator is internal/initgen.
func initCmd(args []string, stdout, stderr io.Writer) (code int) {
	var f initFlags
	flags := flag.NewFlagSet("init", flag.ContinueOnError)
	flags.StringVar(&f.url, "url", "", "the live page to read (required)")
	flags.StringVar(&f.dir, "dir", "glass-acceptance", "write the suite, the manifest and its go.mod into `DIR`")
	flags.StringVar(&f.pkg, "package", "", "Go package `NAME` of the suite (default: from the directory name)")
	flags.BoolVar(&f.force, "force", false, "overwrite files init wrote before")
	if done, code := parseFlags(flags, args, stdout, stderr); done {
		return code
	}
	fail := func(format string, args ...any) int {
		return failLine(stderr, "glass-conformance: init: ", format, args...)
	}
	if f.url == "" {
		return fail("--url is required: the address of the live page to read")
	}
	if err := checkURL(f.url); err != nil {
		return fail("%v", err)
	}
	if f.dir == "" {
		return fail("--dir must not be empty")
	}
	pkg := f.pkg
	if pkg == "" {
		pkg = initgen.PackageFromDir(f.dir)
	} else if !initgen.ValidPackage(pkg) {
		return fail("--package %q: want a Go identifier such as acceptance", pkg)
	}
	_, statErr := os.Stat(f.dir)
	if err := checkDir(f.dir); err != nil {
		return fail("--dir %q: cannot write there: %v", f.dir, pathErr(err))
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// A run that fails leaves no empty directory behind.
		defer func() {
			if code != exitOK {
				_ = os.Remove(f.dir)
			}
		}()
	}
	// The suite joins a module that requires Glass already; elsewhere init
	// writes a module of its own, except over a go.mod of someone else's.
	enclosing, err := initgen.FindEnclosing(f.dir)
	if err != nil {
		return fail("--dir %q: %v", f.dir, pathErr(err))
	}
	ownModule := !enclosing.RequiresGlass
	if ownModule && enclosing.Path == filepath.Join(absDir(f.dir), initgen.GoModFile) {
		return fail("--dir %q holds a go.mod that does not require Glass: run go get %s there first, or choose another --dir", f.dir, initgen.GlassModule)
	}
	var paths []string
	for _, n := range []string{initgen.SuiteFile, initgen.ActionsFile, initgen.ManifestFile, initgen.SurfaceFile, initgen.GoModFile} {
		if n != initgen.GoModFile || ownModule {
			paths = append(paths, filepath.Join(f.dir, n))
		}
	}
	for _, p := range paths {
		_, err := os.Lstat(p)
		switch {
		case err == nil && !f.force:
			return fail("%s exists; pass --force to overwrite it", p)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return fail("%s: %v", p, pathErr(err))
		}
		// --force replaces files only: never a pipe, a device, a
		// directory or a file the kernel makes up (through a link too).
		if st, err := os.Stat(p); err == nil && readlimit.NotPlain(p, st) != "" {
			return fail("%s: not a regular file (%s)", p, readlimit.NotPlain(p, st))
		}
	}
	if err := reach(f.url); err != nil {
		return fail("%v", err)
	}

	// The driver is installed on first use; its download progress goes to
	// stderr so that a first run does not look hung.
	b, err := launch(stderr)
	if err != nil {
		return fail("%s", pagejs.FirstLine(err.Error()))
	}
	defer b.Close()
	fmt.Fprintf(stdout, "reading %s\n", initgen.ShellQuote(f.url))
	plan, err := initgen.Observe(b, f.url, stdout)
	if err != nil {
		return fail("%s", pagejs.FirstLine(err.Error()))
	}
	run := "go test ./..."
	if ownModule || enclosing.GinkgoTool {
		run = "go tool ginkgo"
	}
	files, err := initgen.Render(plan, initgen.Options{Package: pkg, RunCommand: run}, func(name string, data []byte) error {
		_, err := conformance.ParseManifest(name, data)
		return err
	})
	if err != nil {
		return fail("%v", err)
	}
	// The first baseline of the page's capability surface, as the page
	// declared it before init called anything.
	surf, err := surface.FromSnapshot(plan.Snapshot)
	if err != nil {
		return fail("capability surface: %s", oneLine(err))
	}
	surfJSON, err := surface.Marshal(surf)
	if err != nil {
		return fail("capability surface: %v", err)
	}
	contents := [][]byte{files.Suite, files.Actions, files.Manifest, surfJSON}
	var src initgen.Source
	if ownModule {
		src = initgen.FindSource()
		mod, err := initgen.GoMod(initgen.ModulePath(f.dir), src)
		if err != nil {
			return fail("write go.mod: %v", err)
		}
		contents = append(contents, mod)
	}
	for i, p := range paths {
		// --force loses nothing: a file it replaces with other contents
		// (a manifest with entries of your own, a reviewed surface) is
		// copied beside it first.
		kept, err := keepPrevious(p, contents[i])
		if err != nil {
			return fail("keep the previous %s: %v", p, pathErr(err))
		}
		if err := os.WriteFile(p, contents[i], 0o644); err != nil {
			if kept != "" {
				return fail("write %s: %v (the previous one is kept as %s)", p, pathErr(err), filepath.Base(kept))
			}
			return fail("write %s: %v", p, pathErr(err))
		}
		if kept != "" {
			fmt.Fprintf(stdout, "wrote %s (the previous one, which differed, is kept as %s)\n", receipt.PrintableText(p), receipt.PrintableText(filepath.Base(kept)))
		} else {
			fmt.Fprintf(stdout, "wrote %s\n", receipt.PrintableText(p))
		}
	}
	if ownModule {
		if code := tidy(f.dir, src, stdout, stderr); code != exitOK {
			return code
		}
	} else {
		fmt.Fprintf(stdout, "the suite joins the module of %s, which requires Glass\n", enclosing.Path)
	}

	all, pending := plan.SpecCount()
	fmt.Fprintf(stdout, "\n%d specs (%d pending) for %d declared actions. Run them with\n\n  cd %s && %s=%s %s\n\nand check the page against the contract, its findings and its capability surface (%s: review it and commit it) with\n\n  glass-conformance run --strict --url %s --manifest %s --surface %s\n",
		all, pending, plan.Declared, initgen.ShellQuote(f.dir), initgen.EnvURL, initgen.ShellQuote(f.url), run,
		initgen.SurfaceFile, initgen.ShellQuote(f.url), initgen.ShellQuote(paths[2]), initgen.ShellQuote(paths[3]))
	if note := plan.EmptyPageNote(); note != "" {
		fmt.Fprintf(stdout, "\nnote: %s\n", note)
	}
	printFindings(stdout, plan.Findings())
	printWarnings(stdout, plan.Warnings)
	return exitOK
}

// printWarnings ends init with the runtime's warnings about the page's
// declarations: a risk or kind it does not know, an expect that is not
// one. Each is a declaration that does not do what its author meant.
func printWarnings(w io.Writer, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintf(w, "\nthe page's runtime warns about %d of its declarations (docs/runtime.md, \"Mistakes the runtime reports\"):\n", len(warnings))
	for _, s := range warnings {
		fmt.Fprintf(w, "  %s\n", receipt.PrintableLine(s))
	}
}

// tidy completes the module init wrote: the go.sum, and the requirements
// of the suite's imports and of the ginkgo tool. It says where Glass comes
// from; a failure is one line and exit 2, with the files left in place.
func tidy(dir string, src initgen.Source, stdout, stderr io.Writer) int {
	if src.Replace == "" && src.Problem != "" {
		fmt.Fprintf(stderr, "glass-conformance: init: %s; the go.mod requires %s %s, which is not published: in %s, run go mod edit -replace %s=PATH (PATH: your clone of Glass), then go mod tidy\n",
			src.Problem, initgen.GlassModule, src.Version, dir, initgen.GlassModule)
		return exitUsage
	}
	if src.Replace != "" {
		fmt.Fprintf(stdout, "go.mod: Glass from the checkout this glass-conformance was built from, %s (a replace directive)\n", src.Replace)
	} else {
		fmt.Fprintf(stdout, "go.mod: Glass %s, as this glass-conformance was installed\n", src.Version)
	}
	if err := initgen.SeedGoSum(dir, src); err != nil {
		return failLine(stderr, "glass-conformance: init: ", "write go.sum: %v", pathErr(err))
	}
	if err := initgen.Tidy(dir, initgen.TidyTimeout); err != nil {
		return failLine(stderr, "glass-conformance: init: ", "the suite is written, but %v; run go mod tidy in %s once that is fixed", err, dir)
	}
	fmt.Fprintf(stdout, "go mod tidy: done\n")
	return exitOK
}

// printFindings ends init with what a person must decide: every call that
// should have worked and did not. The specs for them are pending.
func printFindings(w io.Writer, findings []initgen.Finding) {
	if len(findings) == 0 {
		fmt.Fprintf(w, "\nfindings: none: every call of an available action succeeded\n")
		return
	}
	fmt.Fprintf(w, "\nfindings: %d; their specs expect success and are pending (PIt) until you decide:\n", len(findings))
	for _, f := range findings {
		fmt.Fprintf(w, "  %s\n", receipt.PrintableLine(f.String()))
	}
}

func absDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	return abs
}

// keepPrevious copies the file at p, when there is one whose contents
// differ from next, to the first free name of p.orig, p.orig2, … (created
// exclusively, with the file's permissions), and returns that name; ""
// when nothing needed keeping. p itself is then written over as before:
// through a symbolic link, keeping its mode.
func keepPrevious(p string, next []byte) (string, error) {
	old, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if bytes.Equal(old, next) {
		return "", nil
	}
	perm := fs.FileMode(0o600)
	if fi, err := os.Stat(p); err == nil {
		perm = fi.Mode().Perm()
	}
	for n := 1; n <= 100; n++ {
		to := p + ".orig"
		if n > 1 {
			to += strconv.Itoa(n)
		}
		f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(old)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(to)
			return "", werr
		}
		return to, nil
	}
	return "", fmt.Errorf("%s.orig to %s.orig100 exist already: remove the ones you no longer need", p, p)
}
