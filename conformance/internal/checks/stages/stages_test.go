package stages

import (
	"slices"
	"testing"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

func TestHandoffTargetsLeaveOutSkippedHandoffsUnlessTheManifestNamesThem(t *testing.T) {
	snap, err := receipt.DecodeSnapshot([]byte(`{"protocol":"glass.page/v1","revision":0,
		"page":{"id":"p","url":"http://127.0.0.1/","title":"p"},
		"records":{"total":0,"items":[],"omitted":0},
		"actions":{"items":[
			{"id":"sign","description":"Sign","kind":"handoff","risk":"dangerous","confirm":false,"params":{"type":"object","properties":{}},"available":true},
			{"id":"verify","description":"Verify","kind":"handoff","risk":"write","confirm":false,"params":{"type":"object","properties":{}},"available":true}],
			"omitted":0},
		"state":{},"feedback":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	targets := func(m *manifest.Manifest) (ids, why []string) {
		p := probe.Detached(snap, probe.Config{Manifest: m}).Probe(glasstest.TransportBridge)
		ts, why := handoffTargets(p)
		for _, h := range ts {
			ids = append(ids, h.action.ID)
		}
		return ids, why
	}
	if ids, _ := targets(&manifest.Manifest{}); !slices.Equal(ids, []string{"sign", "verify"}) {
		t.Errorf("without a manifest: %q, want both hand-offs", ids)
	}
	m, err := manifest.Parse("m.yaml", []byte("version: 1\nskip: [sign, verify]\nhandoffs:\n  - action: verify\n    outcome: completed\n"))
	if err != nil {
		t.Fatal(err)
	}
	ids, why := targets(m)
	if !slices.Equal(ids, []string{"verify"}) {
		t.Errorf("sign and verify skipped, verify named under handoffs: %q, want only the named verify", ids)
	}
	if !slices.Contains(why, "sign: skipped by the manifest") {
		t.Errorf("why = %q, want it to say sign was skipped", why)
	}
}
