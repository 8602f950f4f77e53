package matchers_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/gomega/format"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/surface"
)

// todoSnapshot is a snapshot of a Todo page with every shape a surface
// folds (testdata/surface/todo.snapshot.json).
func todoSnapshot(t *testing.T) *receipt.Snapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "surface", "todo.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := receipt.DecodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// baselineOf writes the surface of snap as a baseline in a fresh
// directory and returns its path.
func baselineOf(t *testing.T, snap *receipt.Snapshot) string {
	t.Helper()
	s, err := surface.FromSnapshot(snap)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "glass-surface.json")
	if err := surface.WriteFile(p, s); err != nil {
		t.Fatal(err)
	}
	return p
}

// page plays a page that can read its snapshot: a Snapshotter, as
// glasstest's *Page is.
type page struct {
	snap *receipt.Snapshot
	err  error
}

func (p page) TrySnapshot() (*receipt.Snapshot, error) { return p.snap, p.err }

func surfaceHeader() string {
	return "Expected\n" + format.Indent + `<*surface.Surface | 0x>: capability surface of page "todo" (/), 12 entries`
}

func TestMatchSurfaceSucceedsOnTheBaselineAndOnAdditions(t *testing.T) {
	snap := todoSnapshot(t)
	base := baselineOf(t, snap)
	for name, actual := range map[string]any{"a snapshot": snap, "a snapshot value": *snap, "a page": page{snap: snap}} {
		m := MatchSurface(base)
		if ok, err := m.Match(actual); !ok || err != nil {
			t.Errorf("%s: Match = %v, %v; want true\n%s", name, ok, err, m.FailureMessage(actual))
		}
	}
	b, _ := os.ReadFile(filepath.Join("testdata", "surface", "todo.snapshot.json"))
	if ok, err := MatchSurface(base).Match(b); !ok || err != nil {
		t.Errorf("snapshot JSON: Match = %v, %v", ok, err)
	}

	// A new action is additive: the baseline still stands, and Not()
	// says what was added.
	more := todoSnapshot(t)
	more.Actions.Items = append(more.Actions.Items, receipt.ActionInfo{ID: "archive", Description: "Archive the done tasks", Kind: receipt.KindFunction, Risk: receipt.RiskWrite, Available: true})
	m := MatchSurface(base)
	if ok, err := m.Match(more); !ok || err != nil {
		t.Fatalf("with a new action: Match = %v, %v; want true\n%s", ok, err, m.FailureMessage(more))
	}
	want := "Expected\n" + format.Indent + `<*surface.Surface | 0x>: capability surface of page "todo" (/), 13 entries` + "\nnot to match the capability surface " + base + ", but it does (0 breaking, 0 need review, 1 additive):\n" +
		format.Indent + "ADDITIVE      archive: new action (function, write)"
	if got := stable(m.NegatedFailureMessage(more)); got != want {
		t.Errorf("negated message:\n%s\nwant:\n%s", got, want)
	}
}

// TestMatchSurfaceFailsWithTheClassifiedDifferences: the message lists
// every difference as surface diff prints it, breaking first, additive
// ones too, and says how to accept the change.
func TestMatchSurfaceFailsWithTheClassifiedDifferences(t *testing.T) {
	base := baselineOf(t, todoSnapshot(t))
	changed := todoSnapshot(t)
	for i, a := range changed.Actions.Items {
		switch a.ID {
		case "login":
			changed.Actions.Items[i].Confirm = false
		case "filter":
			changed.Actions.Items[i].Description = "Show all, open or done tasks"
		}
	}
	changed.Actions.Items = append(changed.Actions.Items, receipt.ActionInfo{ID: "archive", Description: "Archive the done tasks", Kind: receipt.KindFunction, Risk: receipt.RiskWrite})
	m := MatchSurface(base)
	ok, err := m.Match(page{snap: changed})
	if ok || err != nil {
		t.Fatalf("Match = %v, %v; want false", ok, err)
	}
	want := "Expected\n" + format.Indent + `<*surface.Surface | 0x>: capability surface of page "todo" (/), 13 entries` + "\nto match the capability surface " + base + ", but 1 breaking, 1 needs review, 1 additive:\n" +
		format.Indent + "BREAKING      login: confirm changed from true to false: a call no longer asks the user\n" +
		format.Indent + `NEEDS REVIEW  filter: description changed from "Show some tasks" to "Show all, open or done tasks"` + "\n" +
		format.Indent + "ADDITIVE      archive: new action (function, write)\n" +
		"If the change is intended, accept it: run the test with GLASS_UPDATE_GOLDEN=1 (or glass-conformance surface diff --update), then review and commit " + base
	if got := stable(m.FailureMessage(nil)); got != want {
		t.Errorf("message:\n%s\nwant:\n%s", got, want)
	}
}

// TestMatchSurfaceFailsOnAChangeThatOnlyNeedsReview: a suite asserts the
// reviewed surface, so a change a person should look at fails it too.
func TestMatchSurfaceFailsOnAChangeThatOnlyNeedsReview(t *testing.T) {
	base := baselineOf(t, todoSnapshot(t))
	changed := todoSnapshot(t)
	changed.Page.Title = "Todos"
	m := MatchSurface(base)
	if ok, err := m.Match(changed); ok || err != nil {
		t.Fatalf("Match = %v, %v; want false", ok, err)
	}
	if msg := m.FailureMessage(nil); !strings.Contains(msg, "\n"+format.Indent+`NEEDS REVIEW  page: title changed from "Todo" to "Todos"`+"\n") {
		t.Errorf("message:\n%s", msg)
	}
}

func TestMatchSurfaceWritesTheBaselineWhenUpdating(t *testing.T) {
	t.Setenv("GLASS_UPDATE_GOLDEN", "1")
	p := filepath.Join(t.TempDir(), "testdata", "glass-surface.json")
	if ok, err := MatchSurface(p).Match(todoSnapshot(t)); !ok || err != nil {
		t.Fatalf("Match = %v, %v; want the baseline written", ok, err)
	}
	s, _ := surface.FromSnapshot(todoSnapshot(t))
	want, _ := surface.Marshal(s)
	if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the written baseline:\n%s\n%v\nwant:\n%s", got, err, want)
	}
}

func TestMatchSurfaceErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "glass-surface.json")
	invalid := filepath.Join(t.TempDir(), "glass-surface.json")
	if err := os.WriteFile(invalid, []byte(`{"format": "glass.surface/v1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	snap := todoSnapshot(t)
	const expects = "MatchSurface matcher expects a page (a Snapshotter such as *glasstest.Page), a snapshot (receipt.Snapshot, *receipt.Snapshot or snapshot JSON) or a *surface.Surface, got "
	runErrors(t, []errorCase{
		{"missing baseline", MatchSurface(missing), snap,
			"MatchSurface matcher: baseline " + missing + " does not exist; create it from this page by running the test with GLASS_UPDATE_GOLDEN=1 (or glass-conformance surface --url URL -o " + missing + "), then review and commit it"},
		{"invalid baseline", MatchSurface(invalid), snap,
			`MatchSurface matcher: surface: "` + invalid + `": invalid surface: $.protocol: missing; $.page: missing; $.actions: missing`},
		{"a directory as the baseline", MatchSurface(dir), snap,
			`MatchSurface matcher: surface: read "` + dir + `": not a regular file (a directory)`},
		{"a receipt", MatchSurface(missing), &receipt.Receipt{}, expects + "*receipt.Receipt"},
		{"nil", MatchSurface(missing), nil, expects + "<nil>"},
		{"a nil snapshot", MatchSurface(missing), (*receipt.Snapshot)(nil), "MatchSurface matcher expects a snapshot, got a nil one from the *receipt.Snapshot"},
		{"a page that cannot answer", MatchSurface(missing), page{err: errors.New("page crashed")}, "MatchSurface matcher: read the snapshot of the matchers_test.page: page crashed"},
		{"snapshot JSON of the wrong shape", MatchSurface(missing), `{"protocol": "glass.page/v1"}`,
			"MatchSurface matcher: invalid snapshot: $.revision: missing; $.page: missing; $.records: missing; $.actions: missing; $.state: missing; $.feedback: missing"},
	})
}

func TestMatchSurfacePollsOnlyAPage(t *testing.T) {
	m := MatchSurface("testdata/glass-surface.json")
	if !m.(interface{ MatchMayChangeInTheFuture(any) bool }).MatchMayChangeInTheFuture(page{}) {
		t.Error("a page can change its declarations: Eventually must keep polling it")
	}
	if m.(interface{ MatchMayChangeInTheFuture(any) bool }).MatchMayChangeInTheFuture(todoSnapshot(t)) {
		t.Error("a snapshot never changes: Eventually must stop at once")
	}
}
