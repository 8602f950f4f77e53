package glasstest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The app behind a page may log what the page posted, a typed password
// included: the dev server output attached to a failing spec's report must
// not carry a sensitive value any call of the process used.
func TestDevServerOutputIsScrubbedOfSensitiveValues(t *testing.T) {
	const secret = "dev-server-s3cret"
	(&Page{}).noteSecrets(map[string]string{"pw": secret})

	ready := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer ready.Close()
	// The log lines come from a file, so the command itself names no secret.
	log := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(log, []byte("POST /login password="+secret+"\njson {\"pw\":\""+secret+"\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := StartServer("cat '"+log+"'; exec sleep 30", ready.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(d.Output(), secret) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if strings.Count(d.Output(), secret) < 2 {
		t.Fatalf("the server never logged the secret: %q", d.Output())
	}
	e := d.entry()
	if strings.Contains(e.Output, secret) || strings.Contains(e.String(), secret) {
		t.Errorf("the report entry carries the secret:\n%s", e.Output)
	}
	if strings.Count(e.Output, masked) != 2 {
		t.Errorf("want the secret replaced twice by %s:\n%s", masked, e.Output)
	}
}
