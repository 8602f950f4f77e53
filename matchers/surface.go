package matchers

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/surface"
)

// Snapshotter is implemented by values that can read a page's snapshot
// now, such as glasstest's *Page, so that MatchSurface takes a page
// without this package importing the harness (or a browser). A page can
// change, so Eventually keeps polling a Snapshotter.
type Snapshotter interface {
	TrySnapshot() (*receipt.Snapshot, error)
}

// The golden workflow of matchers/golden: GLASS_UPDATE_GOLDEN=1, or its
// -glass.update flag when a test binary has it (this package registers
// no flag; see "Golden files and flags").
const (
	updateEnv  = "GLASS_UPDATE_GOLDEN"
	updateFlag = "glass.update"
)

func updatingGolden() bool {
	if ok, _ := strconv.ParseBool(os.Getenv(updateEnv)); ok {
		return true
	}
	f := flag.Lookup(updateFlag)
	if f == nil {
		return false
	}
	ok, _ := strconv.ParseBool(f.Value.String())
	return ok
}

// MatchSurface succeeds if the page's declared capability surface (package
// surface) matches the reviewed baseline at path, a surface file written
// by glass-conformance surface or by this matcher: no difference is
// breaking or needs review. Additive differences (a new action) pass, and
// are listed when the match fails for another. The failure message lists
// every difference, classified as glass-conformance surface diff prints
// it, each naming the action and what changed (docs/surface.md).
//
// It takes a page (a Snapshotter: glasstest's *Page), a *receipt.Snapshot
// or receipt.Snapshot, snapshot JSON as []byte, string or
// json.RawMessage, or a *surface.Surface. The path is relative to the
// test's package directory.
//
// With GLASS_UPDATE_GOLDEN=1 in the environment (or -glass.update, with
// matchers/golden imported) the baseline is (re)written from the page and
// the matcher succeeds: review the diff and commit the file. A missing
// baseline is a matcher error that says how to create it.
//
//	Expect(page).To(MatchSurface("testdata/glass-surface.json"))
func MatchSurface(path string) types.GomegaMatcher {
	return &matchSurface{path: path}
}

type matchSurface struct {
	path string
	live *surface.Surface
	rep  *surface.Report
}

func (m *matchSurface) Match(actual any) (bool, error) {
	live, err := surfaceOf(actual)
	if err != nil {
		return false, err
	}
	m.live, m.rep = live, nil
	if updatingGolden() {
		if err := os.MkdirAll(filepath.Dir(m.path), 0o755); err != nil {
			return false, fmt.Errorf("MatchSurface matcher: update %s: %w", m.path, err)
		}
		if err := surface.WriteFile(m.path, live); err != nil {
			return false, fmt.Errorf("MatchSurface matcher: update %s: %w", m.path, err)
		}
		return true, nil
	}
	base, err := surface.Load(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("MatchSurface matcher: baseline %s does not exist; create it from this page by running the test with %s=1 (or glass-conformance surface --url URL -o %s), then review and commit it", m.path, updateEnv, m.path)
	}
	if err != nil {
		return false, fmt.Errorf("MatchSurface matcher: %w", err)
	}
	m.rep = surface.Compare(base, live)
	return m.rep.Matches(), nil
}

// surfaceOf turns what MatchSurface was given into a surface.
func surfaceOf(actual any) (*surface.Surface, error) {
	var snap *receipt.Snapshot
	switch a := actual.(type) {
	case *surface.Surface:
		if a == nil {
			return nil, errors.New("MatchSurface matcher expects a page, a snapshot or a surface, got a nil *surface.Surface")
		}
		return a, nil
	case *receipt.Snapshot:
		snap = a
	case receipt.Snapshot:
		snap = &a
	case Snapshotter:
		s, err := a.TrySnapshot()
		if err != nil {
			return nil, fmt.Errorf("MatchSurface matcher: read the snapshot of the %T: %w", actual, err)
		}
		snap = s
	case []byte, json.RawMessage, string:
		var b []byte
		switch v := a.(type) {
		case []byte:
			b = v
		case json.RawMessage:
			b = v
		case string:
			b = []byte(v)
		}
		s, err := receipt.DecodeSnapshot(b)
		if err != nil {
			return nil, fmt.Errorf("MatchSurface matcher: %w", err)
		}
		snap = s
	default:
		return nil, fmt.Errorf("MatchSurface matcher expects a page (a Snapshotter such as *glasstest.Page), a snapshot (receipt.Snapshot, *receipt.Snapshot or snapshot JSON) or a *surface.Surface, got %T", actual)
	}
	if snap == nil {
		return nil, fmt.Errorf("MatchSurface matcher expects a snapshot, got a nil one from the %T", actual)
	}
	s, err := surface.FromSnapshot(snap)
	if err != nil {
		return nil, fmt.Errorf("MatchSurface matcher: %w", err)
	}
	return s, nil
}

// differences lists the report's lines, indented for a Gomega message.
func (m *matchSurface) differences() string {
	var b strings.Builder
	for _, d := range m.rep.Differences {
		fmt.Fprintf(&b, "\n%s%-12s  %s", format.Indent, d.Class.Label(), d)
	}
	return b.String()
}

func (m *matchSurface) FailureMessage(any) string {
	if m.rep == nil {
		return format.Message(m.live, "to match the capability surface "+m.path)
	}
	return format.Message(m.live, "to match the capability surface "+m.path+", but "+m.rep.Summary()+":"+m.differences()+
		"\nIf the change is intended, accept it: run the test with "+updateEnv+"=1 (or glass-conformance surface diff --update), then review and commit "+m.path)
}

func (m *matchSurface) NegatedFailureMessage(any) string {
	msg := "not to match the capability surface " + m.path + ", but it does"
	if m.rep != nil && len(m.rep.Differences) > 0 {
		msg += " (" + m.rep.Summary() + "):" + m.differences()
	}
	return format.Message(m.live, msg)
}

// MatchMayChangeInTheFuture tells Eventually whether polling actual again
// could change the outcome: true for a page (a Snapshotter), whose
// declarations can change; a snapshot or a surface cannot.
func (m *matchSurface) MatchMayChangeInTheFuture(actual any) bool {
	_, ok := actual.(Snapshotter)
	return ok
}
