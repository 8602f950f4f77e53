// Package keep says which responses of a fixture page the browser may
// keep: its scripts and style sheets, for an hour. None changes while its
// server runs (each mutant of the mutation matrix has a server, and so an
// origin, of its own), so a page load fetches only its document, which is
// never stored. A load of the proving page then costs about 15% less CPU
// (BENCHMARKS.md): the mutation matrix and the conformance suite's full
// runs load the fixture pages thousands of times.
package keep

import (
	"net/http"
	"strings"
)

// Asset lets the browser keep the response for an hour.
func Asset(w http.ResponseWriter) { w.Header().Set("Cache-Control", "max-age=3600") }

// Assets is Asset for a script or a style sheet (by r's path) and
// no-store for anything else.
func Assets(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, ".js") || strings.HasSuffix(r.URL.Path, ".css") {
		Asset(w)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
}
