package surface_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
	"github.com/glassworks/glass/surface"
)

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func snapshot(t *testing.T, path string) *receipt.Snapshot {
	t.Helper()
	s, err := receipt.DecodeSnapshot(read(t, path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// updating is the golden workflow of the repository: GLASS_UPDATE_GOLDEN=1
// rewrites the expected files from what the code produces.
func updating() bool {
	ok, _ := strconv.ParseBool(os.Getenv("GLASS_UPDATE_GOLDEN"))
	return ok
}

// TestFromSnapshotFoldsRowsAndKeepsWhatIsDeclared reads a snapshot with
// every shape the surface handles — rows folded by the tool the runtime
// publishes and by id shape, a row family beside a plain action of its
// name (open.rows), a row that asks less than its siblings, a flow whose
// step names the row's record, a sanitised tool name, a step-only action,
// an enum of the record ids, sensitive parameters, x-idempotent, a
// volatile URL — and compares its surface with the reviewed file.
func TestFromSnapshotFoldsRowsAndKeepsWhatIsDeclared(t *testing.T) {
	s, err := surface.FromSnapshot(snapshot(t, "testdata/snapshots/todo.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := surface.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	const want = "testdata/snapshots/todo.surface.json"
	if updating() {
		if err := os.WriteFile(want, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if w := read(t, want); !bytes.Equal(got, w) {
		t.Errorf("the surface of testdata/snapshots/todo.json differs from %s (GLASS_UPDATE_GOLDEN=1 rewrites it):\n%s", want, got)
	}
	if err := schema.ValidateSurface(got); err != nil {
		t.Errorf("the surface the package writes does not validate: %v", err)
	}

	// The points the file shows, said once more so that a careless update
	// of the file cannot hide them.
	remove, _ := s.Action("remove")
	if remove.Risk != receipt.RiskWrite || remove.Confirm || remove.Fidelity != receipt.FidelityLow {
		t.Errorf("remove folds to risk %s, confirm %v, fidelity %s; want the weakest row's: write, false, low", remove.Risk, remove.Confirm, remove.Fidelity)
	}
	if _, ok := s.Action("open.rows"); !ok {
		t.Error("the rows open@t1, open@t2 beside the action open are not folded into open.rows")
	}
	if star, _ := s.Action("star"); star.Rows != "star@<record>" {
		t.Errorf("star@t1, star@t2 (no tool, no record published) fold to %+v, want the tool star", star)
	}
	if purge, _ := s.Action("purge"); strings.Join(purge.Steps, ",") != "search,remove@<record>" {
		t.Errorf("purge's steps are %q, want the row's record left out", purge.Steps)
	}
	if toggle, _ := s.Action("toggle"); toggle.Params["properties"].(map[string]any)["task"].(map[string]any)["x-glass-enum"] != surface.RecordIDsEnum {
		t.Errorf("toggle's task enum of the record ids is not marked record-ids: %v", toggle.Params)
	}
	if login, _ := s.Action("login"); strings.Join(login.Sensitive, ",") != "otp,password" {
		t.Errorf("login's sensitive parameters are %q, want otp,password", login.Sensitive)
	}
	if s.Page != (surface.Page{ID: "todo", Title: "Todo", Path: "/"}) {
		t.Errorf("page = %+v, want the id, the title and the path, no loopback host", s.Page)
	}
}

// TestFromSnapshotIsStableAcrossRecordOrderAndVolatileParts: the same page
// read twice, with its records listed in another order, another port,
// query and revision, gives the same bytes.
func TestFromSnapshotIsStableAcrossRecordOrderAndVolatileParts(t *testing.T) {
	a := snapshot(t, "testdata/snapshots/todo.json")
	b := snapshot(t, "testdata/snapshots/todo.json")
	b.Page.URL = "http://localhost:9999/?fault=none"
	b.Revision = 99
	items := b.Records.Items
	items[0], items[2] = items[2], items[0]
	sa, _ := surface.FromSnapshot(a)
	sb, _ := surface.FromSnapshot(b)
	ja, _ := surface.Marshal(sa)
	jb, _ := surface.Marshal(sb)
	if !bytes.Equal(ja, jb) {
		t.Errorf("two reads of one page differ:\n%s\n---\n%s", ja, jb)
	}
}

func TestPageIdentityDropsWhatChangesFromRunToRun(t *testing.T) {
	for url, want := range map[string]surface.Page{
		"http://127.0.0.1:41234/?tasks=3#x":         {ID: "p", Title: "T", Path: "/"},
		"https://Shop.Example.com:8443/orders?id=7": {ID: "p", Title: "T", Host: "shop.example.com", Path: "/orders"},
		"http://[::1]:8080/admin/":                  {ID: "p", Title: "T", Path: "/admin/"},
		"http://app.localhost:3000":                 {ID: "p", Title: "T", Path: "/"},
		"about:blank":                               {ID: "p", Title: "T"},
		"":                                          {ID: "p", Title: "T"},
	} {
		snap := &receipt.Snapshot{Protocol: receipt.Protocol, Page: receipt.PageIdentity{ID: "p", Title: "T", URL: url}}
		s, err := surface.FromSnapshot(snap)
		if err != nil {
			t.Fatal(err)
		}
		if s.Page != want {
			t.Errorf("page of %q = %+v, want %+v", url, s.Page, want)
		}
	}
}

func TestFromSnapshotRefusesNoSnapshotAndCollidingNames(t *testing.T) {
	if _, err := surface.FromSnapshot(nil); !errors.Is(err, surface.ErrSnapshot) {
		t.Errorf("FromSnapshot(nil) = %v, want ErrSnapshot", err)
	}
	// A runtime that names a row family's tool after a plain action: the
	// two cannot share an entry.
	snap := &receipt.Snapshot{Protocol: receipt.Protocol, Actions: receipt.SnapshotActions{Items: []receipt.ActionInfo{
		{ID: "remove", Kind: receipt.KindFunction, Risk: receipt.RiskWrite},
		{ID: "remove@t1", Kind: receipt.KindElement, Risk: receipt.RiskDangerous, Tool: "remove", Record: "t1"},
	}}}
	_, err := surface.FromSnapshot(snap)
	if want := `surface: cannot read the surface of the snapshot: action "remove@t1" and another entry are both named "remove"`; err == nil || err.Error() != want {
		t.Errorf("FromSnapshot = %v, want %s", err, want)
	}
}

// TestMarshalThenDecodeGivesTheSameSurface: what the package writes, it
// reads back strictly, unchanged, for every surface of the diff cases.
func TestMarshalThenDecodeGivesTheSameSurface(t *testing.T) {
	files, _ := filepath.Glob("testdata/diff/*.json")
	for _, f := range files {
		for _, side := range []string{"baseline", "live"} {
			s := caseSurface(t, f, side)
			b, err := surface.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.ValidateSurface(b); err != nil {
				t.Errorf("%s %s: the surface the package writes does not validate: %v", f, side, err)
			}
			back, err := surface.Decode(b)
			if err != nil {
				t.Fatalf("%s %s: %v", f, side, err)
			}
			again, _ := surface.Marshal(back)
			if !bytes.Equal(b, again) {
				t.Errorf("%s %s: marshal, decode, marshal changed the file:\n%s\n---\n%s", f, side, b, again)
			}
			if rep := surface.Compare(s, back); len(rep.Differences) != 0 {
				t.Errorf("%s %s: the decoded surface differs from the written one: %v", f, side, rep.Differences)
			}
		}
	}
}
