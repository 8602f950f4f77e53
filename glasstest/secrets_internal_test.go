package glasstest

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/internal/scrub"
)

// The app behind a page may log what the page posted, a typed password
// included, in whatever encoding the request had: the dev server output
// attached to a failing spec's report must not carry a sensitive value any
// call of the process used.
func TestDevServerOutputIsScrubbedOfSensitiveValues(t *testing.T) {
	const secret = "dev-server s3cret!"
	(&Page{}).noteSecrets(map[string]string{"pw": secret})

	ready := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer ready.Close()
	// The log lines come from a file, so the command itself names no
	// secret: as typed, as a form body and as JSON with an escape.
	log := filepath.Join(t.TempDir(), "log")
	lines := "POST /login password=dev-server+s3cret%21\njson {\"pw\":\"dev-server s\\u0033cret!\"}\nplain " + secret + "\n"
	if err := os.WriteFile(log, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := StartServer("cat '"+log+"'; exec sleep 30", ready.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(d.Output(), "plain") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(d.Output(), secret) {
		t.Fatalf("the server never logged the secret: %q", d.Output())
	}
	e := d.entry()
	for _, form := range []string{secret, "dev-server+s3cret%21", `s\u0033cret`} {
		if strings.Contains(e.Output, form) || strings.Contains(e.String(), form) {
			t.Errorf("the report entry carries %q:\n%s", form, e.Output)
		}
	}
	if strings.Count(e.Output, masked) != 3 {
		t.Errorf("want the secret replaced three times by %s:\n%s", masked, e.Output)
	}
}

// A tail cut inside a value would show its end, which is no spelling of
// the value: the cut line is left out.
func TestScrubbedTailLeavesOutTheLineItCuts(t *testing.T) {
	const secret = "tail-s3cret-value"
	set := scrub.New(secret)
	// The cut, reportedOutput bytes from the end, falls inside the value.
	end := "\n" + strings.Repeat("x", reportedOutput-8) + "\nlast line\n"
	out := "first line\nthe value " + secret + end
	got := scrubbedTail(out, false, set)
	if strings.Contains(got, secret[len(secret)-5:]) || strings.Contains(got, "the value") {
		t.Errorf("the tail keeps the cut line: %q", got[:40])
	}
	if !strings.HasPrefix(got, "…\n") || !strings.HasSuffix(got, "\nlast line\n") {
		t.Errorf("tail = %q…%q", got[:10], got[len(got)-12:])
	}

	// The output buffer cut it already: the first line goes.
	if got := scrubbedTail("3cret-value\nnext\n", true, set); got != "…\nnext\n" {
		t.Errorf("tail of a cut buffer = %q", got)
	}
	// Short and whole: kept whole, scrubbed.
	if got := scrubbedTail("a "+secret+"\n", false, set); got != "a "+masked+"\n" {
		t.Errorf("tail = %q", got)
	}
}

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
	if err := scrubTrace(src, dst, set); err != nil {
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
	err := scrubTrace(src, dst, scrub.New("s3cret"))
	if !errors.Is(err, errTraceEntryName) {
		t.Fatalf("scrubTrace = %v, want %v", err, errTraceEntryName)
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
	if err := scrubTrace(src, dst, scrub.New("s3cret")); err == nil {
		t.Fatal("scrubTrace of a broken archive succeeded")
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("the trace was written: %v", err)
	}
}
