package keep

import (
	"net/http/httptest"
	"testing"
)

func TestAssetsKeepsScriptsAndStylesOnly(t *testing.T) {
	for path, want := range map[string]string{
		"/glass-runtime.js": "max-age=3600",
		"/app.css":          "max-age=3600",
		"/":                 "no-store",
		"/index.html":       "no-store",
		"/api/items":        "no-store",
		"/page.js.map":      "no-store",
	} {
		w := httptest.NewRecorder()
		Assets(w, httptest.NewRequest("GET", path, nil))
		if got := w.Header().Get("Cache-Control"); got != want {
			t.Errorf("%s: Cache-Control %q, want %q", path, got, want)
		}
	}
}
