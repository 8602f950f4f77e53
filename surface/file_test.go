package surface_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/surface"
)

const minimal = `{
  "format": "glass.surface/v1",
  "protocol": "glass.page/v1",
  "page": {"id": "todo", "title": "Todo", "path": "/"},
  "actions": [
    {"name": "remove", "rows": "remove@<record>", "description": "Delete the task", "kind": "element", "risk": "dangerous", "confirm": true}
  ]
}`

// TestDecodeIsStrict: every mistake a hand edit or a newer writer can make
// is refused with the JSONPath of the value, and all of them are listed.
func TestDecodeIsStrict(t *testing.T) {
	for _, c := range []struct{ name, doc, err string }{
		{"unknown field", strings.Replace(minimal, `"confirm": true`, `"confirm": true, "riskk": "read"`, 1),
			`invalid surface: $.actions[0].riskk: unknown field (want one of name, description, kind, risk, confirm, rows, tool, stepOnly, steps, params, sensitive, fidelity, expect, idempotent)`},
		{"unknown top-level field", strings.Replace(minimal, `"protocol"`, `"extra": 1, "protocol"`, 1),
			`invalid surface: $.extra: unknown field (want one of format, protocol, page, actions, omitted)`},
		{"risk outside the contract", strings.Replace(minimal, `"dangerous"`, `"low"`, 1),
			`invalid surface: $.actions[0].risk: want one of read, write, dangerous, got "low"`},
		{"wrong types, all listed", strings.Replace(strings.Replace(minimal, `"confirm": true`, `"confirm": "yes"`, 1), `"title": "Todo"`, `"title": 7`, 1),
			`invalid surface: $.page.title: want string, got number; $.actions[0].confirm: want boolean, got string`},
		{"missing field", strings.Replace(minimal, `"kind": "element", `, ``, 1),
			`invalid surface: $.actions[0].kind: missing`},
		{"duplicate key", strings.Replace(minimal, `"risk": "dangerous"`, `"risk": "dangerous", "risk": "read"`, 1),
			`invalid surface: $.actions[0].risk: duplicate key`},
		{"duplicate name", strings.Replace(minimal, `"confirm": true}`, `"confirm": true}, {"name": "remove", "description": "", "kind": "function", "risk": "read", "confirm": false}`, 1),
			`invalid surface: $.actions[1].name: "remove" is also the name of $.actions[0]`},
		{"another format", strings.Replace(minimal, `glass.surface/v1`, `glass.surface/v2`, 1),
			`invalid surface: $.format: want "glass.surface/v1", got "glass.surface/v2"`},
		{"not JSON", `{"format": `, `invalid surface: $.format: not valid JSON: unexpected EOF`},
		{"two documents", minimal + ` {}`, `invalid surface: $: more than one JSON value`},
		{"not an object", `[]`, `invalid surface: $: want object, got array`},
		{"odd key", strings.Replace(minimal, `"protocol"`, `"a b": 1, "protocol"`, 1),
			`invalid surface: $["a b"]: unknown field (want one of format, protocol, page, actions, omitted)`},
		{"too deep", `{"format": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
			`invalid surface: $.format` + strings.Repeat("[0]", 63) + `: nested deeper than 64 levels`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := surface.Decode([]byte(c.doc))
			if err == nil {
				t.Fatalf("Decode = %+v, nil; want %s", s, c.err)
			}
			if err.Error() != c.err {
				t.Errorf("error:\n%s\nwant:\n%s", err, c.err)
			}
			if !errors.Is(err, surface.ErrInvalid) {
				t.Errorf("errors.Is(err, ErrInvalid) = false for %v", err)
			}
		})
	}
	if _, err := surface.Decode([]byte(minimal)); err != nil {
		t.Fatalf("the valid document: %v", err)
	}
}

// bounded runs f and fails the test when it has not returned within the
// deadline: ReadFile must never wait on what it was given.
func bounded(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("still reading after 10s")
		return nil
	}
}

func TestReadFileRefusesWhatIsNotARegularFileInOneLine(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(surface.MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := []struct{ name, path, err string }{
		{"a directory", dir, `surface: read "` + dir + `": not a regular file (a directory)`},
		{"a missing file", filepath.Join(dir, "none.json"), `surface: read "` + filepath.Join(dir, "none.json") + `": no such file or directory`},
		{"a file over the cap", big, `surface: read "` + big + `": file too large (over 8388608 bytes)`},
	}
	if fifo := filepath.Join(dir, "fifo"); haveFIFO(t, fifo) {
		cases = append(cases, struct{ name, path, err string }{"a FIFO nobody writes to", fifo, `surface: read "` + fifo + `": not a regular file (a named pipe)`})
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases = append(cases, struct{ name, path, err string }{"an endless device", "/dev/zero", `surface: read "/dev/zero": not a regular file (a device)`})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := bounded(t, func() error { _, err := surface.Load(c.path); return err })
			if err == nil || err.Error() != c.err {
				t.Errorf("Load = %v, want %s", err, c.err)
			}
			if strings.Contains(c.name, "missing") && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = false for %v", err)
			}
		})
	}
}

func TestLoadNamesTheFileOfAnInvalidSurface(t *testing.T) {
	p := filepath.Join(t.TempDir(), "glass-surface.json")
	if err := os.WriteFile(p, []byte(strings.Replace(minimal, `"dangerous"`, `"low"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := surface.Load(p)
	want := `surface: "` + p + `": invalid surface: $.actions[0].risk: want one of read, write, dangerous, got "low"`
	if err == nil || err.Error() != want || !errors.Is(err, surface.ErrInvalid) {
		t.Errorf("Load = %v, want %s", err, want)
	}
}

func TestWriteFileReplacesAFileAndRefusesAnythingElse(t *testing.T) {
	dir := t.TempDir()
	s, err := surface.Decode([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "glass-surface.json")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := surface.WriteFile(p, s); err != nil {
		t.Fatal(err)
	}
	back, err := surface.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if rep := surface.Compare(s, back); len(rep.Differences) != 0 {
		t.Errorf("the written file reads back with differences: %v", rep.Differences)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".glass-surface-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if err := surface.WriteFile(dir, s); err == nil || err.Error() != `surface: write "`+dir+`": not a regular file (a directory)` {
		t.Errorf("WriteFile over a directory = %v", err)
	}
	if fifo := filepath.Join(dir, "fifo"); haveFIFO(t, fifo) {
		err := bounded(t, func() error { return surface.WriteFile(fifo, s) })
		if err == nil || err.Error() != `surface: write "`+fifo+`": not a regular file (a named pipe)` {
			t.Errorf("WriteFile over a FIFO = %v", err)
		}
	}
	if err := surface.WriteFile(filepath.Join(dir, "no", "such", "dir.json"), s); err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WriteFile into a missing directory = %v, want fs.ErrNotExist", err)
	}
}
