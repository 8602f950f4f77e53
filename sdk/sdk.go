// Package sdk is the Glass reference page runtime: the JavaScript a web
// app includes so that its pages declare what an AI agent may do on them
// and answer every call with a receipt (CONTRACT.md; docs/runtime.md is
// the declaration reference).
//
// It comes in two forms from one source, with no build step:
//
//   - glass-runtime.js, a classic script that installs the global
//     glassRuntime (<script src="/glass-runtime.js">);
//   - glass-runtime.mjs, an ES module that loads the classic script and
//     exports the same object (import { glassRuntime } from
//     "/glass-runtime.mjs").
//
// glass-runtime.d.ts declares both for TypeScript: what a page passes to
// define, the snapshot and the receipt (the last two generated from the
// JSON Schemas in schema/, and held to them by a test). The directory is
// also an npm package (package.json) that a front-end team installs from
// a path or a tarball; tsc, pinned by package-lock.json, type-checks the
// examples/ pages in go test.
//
// A Go server serves the two forms with Handler.
package sdk

import (
	"bytes"
	_ "embed"
	"net/http"
	"regexp"
)

var (
	//go:embed glass-runtime.js
	runtimeJS []byte
	//go:embed glass-runtime.mjs
	esmJS []byte
	//go:embed glass-runtime.d.ts
	typesTS []byte
)

// The paths Handler serves the two forms at. The ES module imports the
// classic script by the relative name "./glass-runtime.js", so the two are
// always served side by side.
const (
	Path    = "/glass-runtime.js"
	ESMPath = "/glass-runtime.mjs"
)

// Runtime returns the classic script. The slice is a copy: a caller that
// edits it (a mutant, a probe build) changes nothing for the others.
func Runtime() []byte { return bytes.Clone(runtimeJS) }

// ESM returns the ES module form: a few lines that load the classic
// script and export the global it installs.
func ESM() []byte { return bytes.Clone(esmJS) }

var runtimeName = regexp.MustCompile(`const RUNTIME = "([^"]+)";`)

// esmExports is what turns the classic script into an ES module: the
// same two exports glass-runtime.mjs makes.
const esmExports = `
export const glassRuntime = globalThis.glassRuntime;
export default glassRuntime;
`

// BundledESM returns the ES module as one file: the classic script
// followed by the exports of glass-runtime.mjs, for a page that copies a
// single file (glass-conformance runtime --esm writes it). It is the same
// source; only the wrapper's import is replaced by the script itself.
func BundledESM() []byte {
	out := bytes.Clone(runtimeJS)
	return append(out, esmExports...)
}

// Types returns the TypeScript declarations of both forms.
func Types() []byte { return bytes.Clone(typesTS) }

// RuntimeName is the name and version the runtime reports in its global
// and in every snapshot ("glass-reference/0.3.0"), read from the embedded
// source so that it says what is served.
func RuntimeName() string {
	m := runtimeName.FindSubmatch(runtimeJS)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// Handler serves the classic script at Path and the ES module at ESMPath,
// uncached, so that a page always gets the runtime this binary embeds.
// Any other path is 404.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		switch r.URL.Path {
		case Path:
			body = runtimeJS
		case ESMPath:
			body = esmJS
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
}
