// Package host checks the host rules. The host is Glass's own harness
// (glasstest), the agent runtime around the page in every run; its verdicts
// are only as good as the host is. Most host rules are about how the host
// meets a page that misbehaves, which the page under test does not (one
// hopes), so those checks run the host against Glass's own fault fixtures
// (internal/hostprobe), served on loopback for the run: they judge the host
// that produced the run's verdicts, not the page. host.folded-rows is
// checked against the page under test itself, which declares the rows.
//
// The fault fixtures' runtime registers no WebMCP tools and is reached over
// the bridge; the host rules that need a fixture runtime to answer a call
// are therefore probed in the bridge pass only.
package host
