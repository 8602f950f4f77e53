package evidence

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

const masked = receipt.Masked

// writeZip writes a zip archive of the given entries, in order.
func writeZip(t *testing.T, path string, entries [][2]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e[0], Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, e[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func readZip(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

func sha1Hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Playwright names a trace's resources for the SHA-1 of their content: a
// request body that held a PIN, scrubbed but still named for its old hash,
// would give the PIN away to ten thousand guesses. The resource is renamed
// for what is kept, and the references follow.
func TestScrubTraceRenamesTheResourcesItScrubs(t *testing.T) {
	const secret = "4096 73"
	body := `{"pin":"4096%2073"}`
	other := "<html>no secret here</html>"
	old, keep := sha1Hex(body), sha1Hex(other)
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "raw.zip"), filepath.Join(dir, "trace.zip")
	writeZip(t, src, [][2]string{
		{"trace.trace", `{"type":"frame-snapshot","html":["INPUT",{"value":"4096\u002073"}],"sha1":"` + old + `.txt"}`},
		{"trace.network", `{"postData":{"_file":"resources/` + old + `.txt"},"content":{"_file":"resources/` + keep + `.html"}}`},
		{"resources/" + old + ".txt", body},
		{"resources/" + keep + ".html", other},
	})

	set := scrub.New(secret)
	if err := ScrubTrace(src, dst, set); err != nil {
		t.Fatal(err)
	}
	entries := readZip(t, dst)
	renamed := sha1Hex(`{"pin":"` + masked + `"}`)
	if got := string(entries["resources/"+renamed+".txt"]); got != `{"pin":"`+masked+`"}` {
		t.Errorf("the scrubbed resource under its new name = %q (entries: %v)", got, slices.Sorted(maps.Keys(entries)))
	}
	if string(entries["resources/"+keep+".html"]) != other {
		t.Error("a resource without a secret was changed or renamed")
	}
	for name, b := range entries {
		if set.Contains(b) || bytes.Contains(b, []byte("4096%2073")) || bytes.Contains(b, []byte(`4096\u002073`)) {
			t.Errorf("%s holds the secret: %s", name, b)
		}
		if strings.Contains(name, old) || bytes.Contains(b, []byte(old)) {
			t.Errorf("%s still names the old hash", name)
		}
	}
	for _, name := range []string{"trace.trace", "trace.network"} {
		if !bytes.Contains(entries[name], []byte(renamed)) {
			t.Errorf("%s does not name the renamed resource: %s", name, entries[name])
		}
	}
}

// An entry named with a secret cannot be rewritten without breaking what
// names it: the trace is not written at all.
func TestScrubTraceRefusesAnEntryNamedWithASecret(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "raw.zip"), filepath.Join(dir, "trace.zip")
	writeZip(t, src, [][2]string{{"trace.trace", "{}"}, {"resources/s%33cret.txt", "x"}})
	err := ScrubTrace(src, dst, scrub.New("s3cret"))
	if !errors.Is(err, ErrTraceEntryName) {
		t.Fatalf("ScrubTrace = %v, want %v", err, ErrTraceEntryName)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("the trace was written: %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".scrub-*"))
	if len(matches) > 0 {
		t.Errorf("temporary files left behind: %v", matches)
	}
}

// A trace that is not a zip archive cannot be rewritten: an error, and no
// file.
func TestScrubTraceOfABrokenArchive(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "raw.zip"), filepath.Join(dir, "trace.zip")
	if err := os.WriteFile(src, []byte("PK\x03\x04 not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ScrubTrace(src, dst, scrub.New("s3cret")); err == nil {
		t.Fatal("ScrubTrace of a broken archive succeeded")
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("the trace was written: %v", err)
	}
}

func TestSpecDirNameIsFileSafeAndUnique(t *testing.T) {
	a := SpecDirName(`The "Todo" page: removes <t9>/../x`, "a_test.go:10", 1, 1)
	b := SpecDirName(`The "Todo" page: removes <t9>/../x`, "a_test.go:10", 2, 1)
	c := SpecDirName(`The "Todo" page: removes <t9>/../x`, "a_test.go:10", 1, 2)
	if a == b || a == c {
		t.Errorf("two attempts or processes share a name: %q %q %q", a, b, c)
	}
	if !strings.HasPrefix(a, "the-todo-page-removes-t9-x-") || strings.ContainsAny(a, `/\:<>"`) {
		t.Errorf("SpecDirName = %q", a)
	}
}
