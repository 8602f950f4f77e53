package probe

import (
	"fmt"
	"slices"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

// NoWebMCPTools is the reason every rule is not probed over the webmcp
// transport when the page registered no WebMCP tools: the browser has no
// document.modelContext, or the runtime registers none.
const NoWebMCPTools = "the page registers no WebMCP tools (no document.modelContext in this browser, or a runtime that registers none)"

// checkTransports learns, on the set-up page, whether each transport the
// run uses can reach the runtime; p is that page.
func (s *Session) checkTransports(p *glasstest.Page) {
	s.unavailable = map[glasstest.Transport]string{}
	if !slices.Contains(s.cfg.Transports, glasstest.TransportWebMCP) {
		return
	}
	tools, err := p.Tools()
	switch {
	case err != nil:
		s.unavailable[glasstest.TransportWebMCP] = fmt.Sprintf("the browser cannot list WebMCP tools (%s)", report.Clip(FirstLine(err.Error()), report.MaxMessageBytes))
	case len(tools) == 0:
		s.unavailable[glasstest.TransportWebMCP] = NoWebMCPTools
	}
}

// TransportUnavailable returns why t cannot be used, or "".
func (s *Session) TransportUnavailable(t glasstest.Transport) string {
	return s.unavailable[t]
}
