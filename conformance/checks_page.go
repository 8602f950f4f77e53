package conformance

import "github.com/glassworks/glass/receipt"

// Checks of what the page declares: its snapshot and its runtime's global.

func checkKinds(p *probe) outcome {
	for _, a := range p.base().Actions.Items {
		switch a.Kind {
		case receipt.KindElement, receipt.KindFunction, receipt.KindFlow, receipt.KindHandoff:
		default:
			return failf("the snapshot gives %s the kind %q, want element, function, flow or handoff", a.ID, a.Kind).
				with(snapshotEvidence("snapshot", p.base()))
		}
	}
	if len(p.base().Actions.Items) == 0 {
		return notProbed("the page declares no action")
	}
	return pass()
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
	v, err := pg.g.Playwright().Evaluate(limitedSnapshotScript, 2)
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
