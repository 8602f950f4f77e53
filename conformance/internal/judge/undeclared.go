package judge

import (
	"fmt"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// UndeclaredID is an action id the page does not declare.
func UndeclaredID(s *receipt.Snapshot) string {
	id := "glass-probe.no-such-action"
	for n := 2; ; n++ {
		if _, declared := s.Action(id); !declared {
			return id
		}
		id = fmt.Sprintf("glass-probe.no-such-action-%d", n)
	}
}

// UnknownRecord is the record the probes name in a folded tool's call
// when they want an undeclared row action.
const UnknownRecord = "glass-probe-no-such-row"

// FoldedTool is a tool that folds the page's row actions, and the id a
// call of it with UnknownRecord names; ok is false when the page declares
// no row actions.
func FoldedTool(s *receipt.Snapshot) (tool, undeclared string, ok bool) {
	for _, a := range s.Actions.Items {
		if a.Tool == "" || a.Record == "" || a.StepOnly {
			continue
		}
		name, _, _ := strings.Cut(a.ID, "@")
		id := name + "@" + UnknownRecord
		if _, declared := s.Action(id); !declared {
			return a.Tool, id, true
		}
	}
	return "", "", false
}
