package initgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// GlassModule is the module path of Glass.
const GlassModule = "github.com/glassworks/glass"

// GlassGo is the go directive of Glass's go.mod: a module that requires
// Glass needs at least this Go (TestGlassGoIsGoMods keeps them equal).
const GlassGo = "1.26"

// ginkgoTool is the tool directive that makes go tool ginkgo work.
const ginkgoTool = "github.com/onsi/ginkgo/v2/ginkgo"

// TidyTimeout bounds the go mod tidy init runs: the first one downloads
// Glass's dependencies, which takes a while on a slow line but never this
// long.
const TidyTimeout = 5 * time.Minute

// Source is where the Glass the generated module requires comes from.
type Source struct {
	// Version is the version of Glass to require: the version this binary
	// was installed at, or v0.0.0 for a binary built from a checkout.
	Version string
	// Replace is the checkout the binary was built from, for a replace
	// directive; "" for none.
	Replace string
	// Problem says why a binary built from a checkout has no Replace:
	// without one the suite's go.mod requires a version nobody publishes.
	Problem string
}

// FindSource reads this binary's build information. A binary installed
// from the module proxy (go install …@v0.9.0) has that version and a
// checksum: the generated go.mod requires the same version. One built from
// a checkout (go install ./cmd/glass-conformance, make install) has the
// version "(devel)" or one stamped from version control, and no checksum:
// its checkout is where its source files were compiled from, which
// runtime.Caller reports when the build did not use -trimpath, and the
// generated go.mod replaces Glass with it once that directory is seen to
// hold Glass's go.mod.
func FindSource() Source {
	info, ok := debug.ReadBuildInfo()
	if ok && info.Main.Path == GlassModule && info.Main.Sum != "" && semver.IsValid(info.Main.Version) {
		return Source{Version: info.Main.Version}
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return Source{Version: "v0.0.0", Problem: "this glass-conformance was built with -trimpath, so the checkout it was built from is unknown"}
	}
	return checkoutSource(filepath.Dir(filepath.Dir(filepath.Dir(file))))
}

// checkoutSource is the Source of a binary built from the checkout at
// root, once root is seen to hold Glass's go.mod.
func checkoutSource(root string) Source {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || modfile.ModulePath(data) != GlassModule {
		return Source{Version: "v0.0.0", Problem: fmt.Sprintf("this glass-conformance was built from %s, which no longer holds Glass's go.mod", root)}
	}
	return Source{Version: "v0.0.0", Replace: root}
}

// GoMod returns the go.mod of the generated module: the module path, the
// Go version Glass needs, Glass required (and replaced by its checkout
// when src names one), and Ginkgo's CLI as a tool so that go tool ginkgo
// works.
func GoMod(modulePath string, src Source) ([]byte, error) {
	f := &modfile.File{Syntax: &modfile.FileSyntax{}}
	f.AddComment("// The module of the acceptance suite, written by glass-conformance init.")
	if err := f.AddModuleStmt(modulePath); err != nil {
		return nil, err
	}
	if err := f.AddGoStmt(GlassGo); err != nil {
		return nil, err
	}
	if err := f.AddRequire(GlassModule, src.Version); err != nil {
		return nil, err
	}
	if src.Replace != "" {
		if err := f.AddReplace(GlassModule, "", src.Replace, ""); err != nil {
			return nil, err
		}
	}
	if err := f.AddTool(ginkgoTool); err != nil {
		return nil, err
	}
	f.Cleanup()
	return f.Format()
}

// ModulePath makes a module path of the directory's base name.
func ModulePath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	name := strings.ToLower(filepath.Base(abs))
	if module.CheckImportPath(name) != nil || name == "std" || name == "cmd" {
		return "acceptance"
	}
	return name
}

// Enclosing is the go.mod above or in a directory.
type Enclosing struct {
	Path          string // the go.mod file; "" when there is none
	Module        string // its module path
	RequiresGlass bool   // it requires Glass, or is Glass
	GinkgoTool    bool   // it has the tool directive of Ginkgo's CLI
}

// FindEnclosing looks for the go.mod that governs dir.
func FindEnclosing(dir string) (Enclosing, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Enclosing{}, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(p)
		if err == nil {
			// Parse reads tool directives, which ParseLax skips.
			f, err := modfile.Parse(p, data, nil)
			if err != nil {
				return Enclosing{}, fmt.Errorf("%s: %w", p, err)
			}
			e := Enclosing{Path: p}
			if f.Module != nil {
				e.Module = f.Module.Mod.Path
			}
			e.RequiresGlass = e.Module == GlassModule
			for _, r := range f.Require {
				e.RequiresGlass = e.RequiresGlass || r.Mod.Path == GlassModule
			}
			for _, t := range f.Tool {
				e.GinkgoTool = e.GinkgoTool || t.Path == ginkgoTool
			}
			return e, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return Enclosing{}, err
		}
		if filepath.Dir(d) == d {
			return Enclosing{}, nil
		}
	}
}

// SeedGoSum copies the checkout's go.sum next to a new go.mod that
// replaces Glass with it: the checksums of Glass's own dependencies, so
// that go mod tidy needs no checksum database for them.
func SeedGoSum(dir string, src Source) error {
	if src.Replace == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(src.Replace, "go.sum"))
	if err != nil {
		return nil // a checkout without go.sum: tidy fetches the sums
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), data, 0o644)
}

// Tidy runs go mod tidy in dir, bounded by timeout, outside any go.work
// above it. The error is one line: the go command's last line of output.
func Tidy(dir string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("go mod tidy did not finish in %s", timeout)
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("go mod tidy: the go command is not on PATH")
	}
	return fmt.Errorf("go mod tidy: %s", lastLine(out.String(), err))
}

func lastLine(out string, err error) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

// PackageFromDir makes a package name of the directory's base name.
func PackageFromDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case r == '-' || r == '_' || r == '.' || r == ' ':
			if b.Len() > 0 {
				b.WriteRune('_')
			}
		}
	}
	name := strings.Trim(b.String(), "_")
	if !ValidPackage(name) {
		return "acceptance"
	}
	return name
}

// ValidPackage reports whether name can name a Go package.
func ValidPackage(name string) bool {
	return token.IsIdentifier(name) && !token.IsKeyword(name) && name != "_"
}

// ShellQuote quotes s for a POSIX shell (bash, zsh) when it holds anything
// but characters no shell treats specially: a URL's ? and & are globs and
// job control to zsh.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
