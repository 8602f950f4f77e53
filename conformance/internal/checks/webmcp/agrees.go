package webmcp

import (
	"fmt"
	"maps"
	"slices"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/receipt"
)

// agreesSecretName names the value the placeholder call restores.
const agreesSecretName = "glass-agrees"

// placeholderCall is a call of the exercise, one that asks for no
// confirmation, with its first string argument given as a sensitive-value
// placeholder and the value in options.secrets ($glass.secrets over
// WebMCP, CONTRACT.md §6.4): both transports must restore it alike. ok is
// false when no call of the plan has such an argument.
func placeholderCall(plan []probe.Planned) (id string, args, options map[string]any, ok bool) {
	for _, pl := range plan {
		if pl.Secret != "" || probe.NeedsConfirmation(pl.Action) || pl.Action.Tool != "" {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(pl.Args)) {
			if v, isString := pl.Args[k].(string); isString && v != "" {
				args = maps.Clone(pl.Args)
				args[k] = map[string]any{"$sensitive": agreesSecretName}
				return pl.Action.ID, args, map[string]any{"secrets": map[string]any{agreesSecretName: v}}, true
			}
		}
	}
	return "", nil, nil, false
}

// rawOnFresh makes a raw call on a fresh page of pr, options given with an
// executionId of the probe's own.
func rawOnFresh(pr *probe.Probe, id string, args, options map[string]any) (*receipt.Receipt, error) {
	pg, err := pr.Open("")
	if err != nil {
		return nil, err
	}
	defer pg.Close()
	o := maps.Clone(options)
	o["executionId"] = fmt.Sprintf("glass-probe-agrees-%s", pr.Transport)
	return pg.Raw(id, args, o, nil)
}
