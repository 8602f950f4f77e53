package params

import (
	"encoding/json"

	"github.com/glassworks/glass/receipt"
)

// RowTakingArgs returns an available per-row action whose params require a
// member or forbid undeclared ones: one whose folded call shows whether
// the call's other members reach it as its arguments, and only them. One that
// asks first will do: the arguments are validated (stage 3) before the
// policy denies the call (stage 4).
func RowTakingArgs(s *receipt.Snapshot) (receipt.ActionInfo, bool) {
	for _, a := range s.Actions.Items {
		if a.Record == "" || a.Tool == "" || a.StepOnly || !a.Available {
			continue
		}
		var schema struct {
			Required             []string        `json:"required"`
			AdditionalProperties json.RawMessage `json:"additionalProperties"`
		}
		if json.Unmarshal(a.Params, &schema) != nil {
			continue
		}
		if len(schema.Required) > 0 || string(schema.AdditionalProperties) == "false" {
			return a, true
		}
	}
	return receipt.ActionInfo{}, false
}
