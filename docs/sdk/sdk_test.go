// Package sdk serves the minimal page of docs/sdk-guide.md and holds it to
// the contract, so that the guide's example is a page that conforms.
package sdk

import (
	_ "embed"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/sdk"
)

//go:embed minimal.html
var minimal []byte

func serveMinimal(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET "+sdk.Path, sdk.Handler())
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(minimal)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func TestTheMinimalPageConforms(t *testing.T) {
	url := serveMinimal(t)
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	page, err := glasstest.OpenPage(b, url, glasstest.Approve())
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	if r := page.Do("add", map[string]string{"text": "Water the plants"}); !r.Result.OK || r.Result.Changed.Records.Total.To != 3 {
		t.Errorf("add: ok=%t, want a third note; receipt %+v", r.Result.OK, r.Result)
	}
	if r := page.Do("remove@n1", nil); !r.Result.OK || len(r.Confirmations) != 1 {
		t.Errorf("remove@n1: ok=%t with %d confirmations, want ok after one", r.Result.OK, len(r.Confirmations))
	}
	if r := page.Do("remove@n2", nil, glasstest.Deny()); r.Code() != receipt.CodePermissionDenied {
		t.Errorf("remove@n2 denied: code %q, want PERMISSION_DENIED", r.Code())
	}

	rep, err := conformance.Run(conformance.Target{URL: url, Browser: b},
		conformance.WithRules("policy.*", "resolve.unknown-id", "args.invalid-params", "verify.*"))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Conforms() || rep.Count(conformance.Pass) < 4 {
		var buf strings.Builder
		_ = rep.WriteText(&buf)
		t.Errorf("the minimal page does not conform (%d passed):\n%s", rep.Count(conformance.Pass), buf.String())
	}
}
