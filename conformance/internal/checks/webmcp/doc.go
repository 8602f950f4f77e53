// Package webmcp checks the WebMCP rules (CONTRACT.md §6.4). Its checks
// look at the page's WebMCP tools directly — the registered list, raw tool
// calls and their results — rather than through the harness's webmcp
// transport, which already folds, maps and unwraps. They are probed in
// every pass of a run (the bridge pass too, so a default run checks them)
// and made once per run: a run over both transports reports the same
// verdict twice.
package webmcp
