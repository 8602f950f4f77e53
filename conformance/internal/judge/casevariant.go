package judge

import (
	"strings"
	"unicode"

	"github.com/glassworks/glass/receipt"
)

// CaseVariant is a declared, available id that an agent may call, with
// the case of its letters swapped, when that names no declared action; ""
// when no id has letters to swap.
func CaseVariant(s *receipt.Snapshot) string {
	for _, a := range s.Actions.Items {
		if !a.Available || a.StepOnly || a.Kind == receipt.KindHandoff {
			continue
		}
		v := strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, a.ID)
		if _, declared := s.Action(v); v != a.ID && !declared {
			return v
		}
	}
	return ""
}
