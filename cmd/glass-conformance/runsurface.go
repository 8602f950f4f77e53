package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/surface"
	"github.com/glassworks/glass/surface/report"
)

// surfaceGate is run's --surface FILE: the reviewed baseline, loaded before
// a browser starts, and after the run the live page's surface compared
// with it (or, with --update-surface, written over it).
type surfaceGate struct {
	file   string
	update bool
	old    *surface.Surface // nil: no baseline yet (only with update)
}

// loadSurfaceGate checks --surface and --update-surface: a baseline that
// cannot be read is a usage error, and so is a missing one unless
// --update-surface is to write it. A nil gate means no --surface.
func loadSurfaceGate(file string, update bool) (*surfaceGate, error) {
	if file == "" {
		if update {
			return nil, errors.New("--update-surface needs --surface FILE: the baseline to rewrite")
		}
		return nil, nil
	}
	g := &surfaceGate{file: file, update: update}
	old, err := surface.Load(file)
	switch {
	case errors.Is(err, fs.ErrNotExist) && update:
		if err := checkDir(filepath.Dir(file)); err != nil {
			return nil, fmt.Errorf("--surface %q: cannot write there: %v", file, pathErr(err))
		}
		return g, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--surface %q does not exist: record the baseline with --update-surface (or glass-conformance surface -o %s), review it and commit it", file, file)
	case err != nil:
		return nil, fmt.Errorf("--surface: %s", oneLine(err))
	}
	g.old = old
	return g, nil
}

// check records the live surface of pageURL and compares it with the
// baseline, printing the differences; with update it rewrites the
// baseline instead. Under artifacts (when not empty) it keeps the live
// surface and the comparison's reports in surface/. It returns whether a
// breaking difference fails the run, or a set-up error.
func (g *surfaceGate) check(b *glasstest.Browser, pageURL, artifacts string, stdout io.Writer, hide func(string) string) (breaking bool, err error) {
	live, err := liveSurfaceHidden(b, pageURL, hide)
	if err != nil {
		// The page's own text (a set-up error quotes what ready() threw)
		// can carry a secret the run's probes passed.
		return false, fmt.Errorf("capability surface: %s", hideText(hide, oneLine(err)))
	}
	name := receipt.PrintableText(g.file)
	var rep *surface.Report
	if g.old != nil {
		rep = surface.Compare(g.old, live)
	}
	if artifacts != "" && rep != nil {
		if err := writeSurfaceArtifacts(filepath.Join(artifacts, "surface"), g.file, live, rep); err != nil {
			return false, err
		}
	}
	if g.update {
		if rep != nil {
			fmt.Fprintf(stdout, "\ncapability surface: accepted, against the baseline %s held before:\n", name)
			if err := rep.WriteText(stdout); err != nil {
				return false, err
			}
		}
		if err := surface.WriteFile(g.file, live); err != nil {
			return false, fmt.Errorf("capability surface: %s", oneLine(err))
		}
		fmt.Fprintf(stdout, "capability surface: wrote the surface of page %s (%d entries) to %s; review it and commit it\n", quoted(live.Page.ID), len(live.Actions), name)
		return false, nil
	}
	fmt.Fprintf(stdout, "\ncapability surface against the baseline %s:\n", name)
	if err := rep.WriteText(stdout); err != nil {
		return false, err
	}
	if rep.Breaking() {
		fmt.Fprintf(stdout, "breaking changes: if they are intended, accept them with --update-surface and commit %s in the same change\n", name)
	}
	return rep.Breaking(), nil
}

// writeSurfaceArtifacts keeps, under dir, the live surface and the
// comparison as JSON, JUnit and HTML, as surface diff writes them.
func writeSurfaceArtifacts(dir, baseline string, live *surface.Surface, rep *surface.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("artifacts: %w", err)
	}
	livePath := filepath.Join(dir, "live.json")
	if err := surface.WriteFile(livePath, live); err != nil {
		return fmt.Errorf("artifacts: %s", oneLine(err))
	}
	names := report.Files{Baseline: baseline, Live: livePath}
	for file, write := range map[string]func(io.Writer, report.Files, *surface.Report) error{
		"report.json": report.WriteJSON, "junit.xml": report.WriteJUnit, "report.html": report.WriteHTML,
	} {
		f, err := os.Create(filepath.Join(dir, file))
		if err != nil {
			return fmt.Errorf("artifacts: %w", err)
		}
		err = write(f, names, rep)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("artifacts: %s: %w", file, err)
		}
	}
	return nil
}

// liveSurfaceHidden is liveSurface after a run: the page may show a value
// the run's probes passed it (a description that names the last search),
// so the snapshot goes through the run's hide before it becomes the
// surface Glass prints and keeps.
func liveSurfaceHidden(b *glasstest.Browser, pageURL string, hide func(string) string) (*surface.Surface, error) {
	page, err := glasstest.OpenPage(b, pageURL)
	if err != nil {
		return nil, err
	}
	defer page.Close()
	snap, err := page.TrySnapshot()
	if err != nil {
		return nil, err
	}
	if hide != nil {
		text, err := json.Marshal(snap)
		if err != nil {
			return nil, err
		}
		if snap, err = receipt.DecodeSnapshot([]byte(hide(string(text)))); err != nil {
			return nil, err
		}
	}
	return surface.FromSnapshot(snap)
}

// hideText is hide(t), or t when there is nothing to hide.
func hideText(hide func(string) string, t string) string {
	if hide == nil {
		return t
	}
	return hide(t)
}
