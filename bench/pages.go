package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"net/http"

	"github.com/glassworks/glass/sdk"
)

//go:embed pages/records.html
var recordsHTML []byte

// probeAnchor is where the probe build of the runtime hands its internals
// to the benchmark: right before the protocol object. It must occur
// exactly once in the runtime.
const probeAnchor = "  const api = {\n    protocol: PROTOCOL,"

// probeHook exposes the runtime's model, revision check, diff and tool
// passes on globalThis.__glassBench, so that the page can time each with
// performance.now. A function the runtime does not have is null (the
// revision check was a hash of the model's JSON text, fingerprint, before
// it became an in-place comparison, sameModel).
const probeHook = `  globalThis.__glassBench = Object.freeze({
    takeModel: typeof takeModel === "function" ? takeModel : null,
    fingerprint: typeof fingerprint === "function" ? fingerprint : null,
    sameModel: typeof sameModel === "function" ? sameModel : null,
    diff: typeof diff === "function" ? diff : null,
    refreshTools: typeof refreshTools === "function" ? refreshTools : null,
  });
`

// probeRuntime is the reference runtime with probeHook inserted: the same
// code, plus one global that only the probe pages have. The protocol and
// every receipt are untouched.
func probeRuntime() ([]byte, error) {
	src := sdk.Runtime()
	if n := bytes.Count(src, []byte(probeAnchor)); n != 1 {
		return nil, fmt.Errorf("the probe anchor %q occurs %d times in the runtime, want once: update bench/pages.go", probeAnchor, n)
	}
	return bytes.Replace(src, []byte(probeAnchor), []byte(probeHook+probeAnchor), 1), nil
}

// handler serves the records page twice: at /records.html with the
// reference runtime and at /probe/records.html with the probe build.
func handler() (http.Handler, error) {
	probe, err := probeRuntime()
	if err != nil {
		return nil, err
	}
	page := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(recordsHTML)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+sdk.Path, sdk.Handler())
	mux.HandleFunc("GET /records.html", page)
	mux.HandleFunc("GET /probe/records.html", page)
	mux.HandleFunc("GET /probe/glass-runtime.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(probe)
	})
	return mux, nil
}
