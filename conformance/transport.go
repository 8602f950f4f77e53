package conformance

import "github.com/glassworks/glass/glasstest"

// WebMCPUnavailable is the reason every rule is not probed over the webmcp
// transport when this build's harness cannot call through WebMCP.
const WebMCPUnavailable = "the webmcp transport is not available in this build"

// webMCPSupported says whether glasstest in this build calls actions
// through Playwright's WebMCP().CallTool when given
// glasstest.Via(glasstest.TransportWebMCP). Until it does, a run over
// webmcp would silently go through the bridge and report bridge verdicts as
// webmcp ones, so every webmcp finding is NotProbed instead.
var webMCPSupported = false

// transportUnavailable returns why t cannot be used, or "".
func transportUnavailable(t glasstest.Transport) string {
	if t == glasstest.TransportWebMCP && !webMCPSupported {
		return WebMCPUnavailable
	}
	return ""
}
