// Package hostprobe holds the pages the conformance suite's host rules
// probe Glass's own harness with: a page with no runtime, runtimes of
// another protocol, that never answer, answer something other than a
// receipt, throw or reject, crash, close or navigate away mid-call, approve
// their own call, and a page whose first script inspects glassHost. They
// are part of the product (a run judges the host it runs on), so they live
// here and not among the test fixtures; fixtures/faults serves them too,
// beside its own fault pages, so that the harness's fault specs reach them
// at the same URLs.
//
// Most pages use fault-runtime.js, a minimal runtime written only to be
// broken. Each page says in a comment what it does and what the host must
// report.
package hostprobe

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
)

//go:embed *.html *.js
var files embed.FS

// FS is the file system of the probe pages and the fault runtime.
func FS() fs.FS { return files }

// Handler serves the probe pages at /NAME.html and the fault runtime at
// /fault-runtime.js. Nothing is cached, so a probe always gets the page as
// embedded.
func Handler() http.Handler {
	static := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if path.Ext(r.URL.Path) == ".js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		static.ServeHTTP(w, r)
	})
}
