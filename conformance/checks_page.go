package conformance

import (
	"fmt"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of what the page declares: its snapshot and its runtime's global.

// snapshotRule is the rule a snapshot that does not decode breaks.
const snapshotRule = "protocol.snapshot"

// checkSnapshotValid: the run's first snapshot decoded strictly (a run
// whose snapshot does not decode fails this rule before any check runs),
// and so does one of a fresh page.
func checkSnapshotValid(p *probe) outcome {
	pg, err := p.open("")
	if err != nil {
		return broken(err)
	}
	if _, err := pg.g.TrySnapshot(); err != nil {
		return failf("snapshot() of a fresh page: %s", firstLine(err.Error()))
	}
	return pass()
}

// checkKinds: every action has one of the four kinds, and a call of every
// kind the page declares passes the gates of stages 1 to 5: malformed
// arguments fail INVALID_ARGS, and a denied confirmation fails
// PERMISSION_DENIED, whatever the kind.
func checkKinds(p *probe) outcome {
	for _, a := range p.base().Actions.Items {
		switch a.Kind {
		case receipt.KindElement, receipt.KindFunction, receipt.KindFlow, receipt.KindHandoff:
		default:
			return failf("the snapshot gives %s the kind %q, want element, function, flow or handoff", a.ID, a.Kind).
				with(snapshotEvidence("snapshot", p.base()))
		}
	}
	type gate struct {
		what string
		id   string
		args any
		want receipt.Code
	}
	var gates []gate
	malformed, denied := map[receipt.Kind]bool{}, map[receipt.Kind]bool{}
	for _, a := range p.candidates() {
		if !malformed[a.Kind] {
			malformed[a.Kind] = true
			gates = append(gates, gate{fmt.Sprintf("malformed arguments to %s (kind %s)", a.ID, a.Kind), a.ID, `{"unterminated`, receipt.CodeInvalidArgs})
		}
		if needsConfirmation(a) && !denied[a.Kind] {
			if args, err := p.validArgs(a, ""); err == nil {
				denied[a.Kind] = true
				gates = append(gates, gate{fmt.Sprintf("a denied call of %s (kind %s)", a.ID, a.Kind), a.ID, args, receipt.CodePermissionDenied})
			}
		}
	}
	if len(gates) == 0 {
		return notProbed("the page declares no available action")
	}
	pg, err := p.open("", glasstest.Deny())
	if err != nil {
		return broken(err)
	}
	var judged []string
	for _, g := range gates {
		if _, raw := g.args.(string); raw && p.transport == glasstest.TransportWebMCP {
			continue
		}
		r := pg.do(g.id, g.args)
		if r.Code() != g.want {
			return failf("%s: want %s, %s", g.what, g.want, got(r)).with(receiptEvidence("receipt", r))
		}
		judged = append(judged, g.what)
	}
	return pass().with(textEvidence("gates judged", judged...))
}

// globalFacts is what the setup learnt about the runtime's global.
type globalFacts struct {
	Present   bool              `json:"present"`
	Protocol  string            `json:"protocol"`
	Runtime   string            `json:"runtime"`
	Frozen    bool              `json:"frozen"`
	Writable  bool              `json:"writable"`
	Functions map[string]string `json:"functions"`
}

const identifyScript = `() => {
  const rt = globalThis.glassRuntime;
  if (!rt || typeof rt !== "object") return JSON.stringify({ present: false });
  const d = Object.getOwnPropertyDescriptor(globalThis, "glassRuntime") || {};
  const functions = {};
  for (const m of ["ready", "snapshot", "execute", "resume"]) functions[m] = typeof rt[m];
  return JSON.stringify({ present: true, protocol: String(rt.protocol).slice(0, 80), runtime: String(rt.runtime || "").slice(0, 80),
    frozen: Object.isFrozen(rt), writable: d.writable !== false && !d.get, functions: functions });
}`

func checkGlobal(p *probe) outcome {
	g := p.s.global
	switch {
	case !g.Frozen:
		return failf("globalThis.glassRuntime is not frozen: a page script could replace its methods")
	case g.Writable:
		return failf("globalThis.glassRuntime is writable: a page script could replace the runtime")
	}
	for _, m := range []string{"ready", "snapshot", "execute", "resume"} {
		if g.Functions[m] != "function" {
			return failf("glassRuntime.%s is a %s, want a function", m, g.Functions[m])
		}
	}
	return pass()
}

const limitedSnapshotScript = `async (limit) => {
  const v = await globalThis.glassRuntime.snapshot({ limit: limit });
  return typeof v === "string" ? v : JSON.stringify(v);
}`

// checkSnapshotBounded asks for a snapshot limited to two records and two
// actions, and checks the bounded lists and their counts.
func checkSnapshotBounded(p *probe) outcome {
	base := p.base()
	if base.Records.Total < 3 && len(base.Actions.Items) < 3 {
		return notProbed("the page has fewer than three records and three actions, too few to see a limit of two")
	}
	for _, s := range []*receipt.Snapshot{base} {
		if len(s.Records.Items) > 500 || len(s.Actions.Items) > 500 {
			return failf("the snapshot lists %d records and %d actions, over the bound of 500", len(s.Records.Items), len(s.Actions.Items))
		}
	}
	pg, err := p.open("")
	if err != nil {
		return broken(err)
	}
	// The counts to expect come from the same page: an app may seed each
	// page load differently.
	full, err := pg.g.TrySnapshot()
	if err != nil {
		return broken(err)
	}
	v, err := pg.g.Evaluate(limitedSnapshotScript, 2)
	if err != nil {
		return failf("snapshot({limit: 2}) failed: %s", firstLine(err.Error()))
	}
	text, _ := v.(string)
	s, err := receipt.DecodeSnapshot([]byte(text))
	if err != nil {
		return failf("snapshot({limit: 2}) is not a snapshot: %v", err)
	}
	ev := snapshotEvidence("snapshot({limit: 2})", s)
	total, actions := full.Records.Total, len(full.Actions.Items)+full.Actions.Omitted
	switch {
	case len(s.Records.Items) > 2:
		return failf("snapshot({limit: 2}) lists %d records", len(s.Records.Items)).with(ev)
	case s.Records.Total != total:
		return failf("snapshot({limit: 2}) gives records.total %d, want the full count %d", s.Records.Total, total).with(ev)
	case len(s.Records.Items)+s.Records.Omitted != total:
		return failf("snapshot({limit: 2}) lists %d records and counts %d omitted, want %d in all", len(s.Records.Items), s.Records.Omitted, total).with(ev)
	case len(s.Actions.Items) > 2:
		return failf("snapshot({limit: 2}) lists %d actions", len(s.Actions.Items)).with(ev)
	case len(s.Actions.Items)+s.Actions.Omitted != actions:
		return failf("snapshot({limit: 2}) lists %d actions and counts %d omitted, want %d in all", len(s.Actions.Items), s.Actions.Omitted, actions).with(ev)
	}
	return pass()
}
