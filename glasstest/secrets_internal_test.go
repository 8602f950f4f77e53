package glasstest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/internal/devserver"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
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
	if strings.Count(e.Output, receipt.Masked) != 3 {
		t.Errorf("want the secret replaced three times by %s:\n%s", receipt.Masked, e.Output)
	}
}

// A tail cut inside a value would show its end, which is no spelling of
// the value: the cut line is left out.
func TestScrubbedTailLeavesOutTheLineItCuts(t *testing.T) {
	const secret = "tail-s3cret-value"
	set := scrub.New(secret)
	// The cut, devserver.ReportedOutput bytes from the end, falls inside the value.
	end := "\n" + strings.Repeat("x", devserver.ReportedOutput-8) + "\nlast line\n"
	out := "first line\nthe value " + secret + end
	got := devserver.ScrubbedTail(out, false, set)
	if strings.Contains(got, secret[len(secret)-5:]) || strings.Contains(got, "the value") {
		t.Errorf("the tail keeps the cut line: %q", got[:40])
	}
	if !strings.HasPrefix(got, "…\n") || !strings.HasSuffix(got, "\nlast line\n") {
		t.Errorf("tail = %q…%q", got[:10], got[len(got)-12:])
	}

	// The output buffer cut it already: the first line goes.
	if got := devserver.ScrubbedTail("3cret-value\nnext\n", true, set); got != "…\nnext\n" {
		t.Errorf("tail of a cut buffer = %q", got)
	}
	// Short and whole: kept whole, scrubbed.
	if got := devserver.ScrubbedTail("a "+secret+"\n", false, set); got != "a "+receipt.Masked+"\n" {
		t.Errorf("tail = %q", got)
	}
	// What the app logged is shown, never obeyed by a terminal (a third
	// security audit's dev server echoed escape sequences and carriage
	// returns a page sent it).
	if got := devserver.ScrubbedTail("log: \x1b[2J\x1b]0;title\x07 back\rover\ttab\n", false, set); got != `log: \x1b[2J\x1b]0;title\x07 back\x0dover`+"\ttab\n" {
		t.Errorf("tail = %q", got)
	}
}
