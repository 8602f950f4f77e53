package params

import (
	"fmt"

	"github.com/glassworks/glass/receipt"
)

// ExampleArgs returns arguments that the declared params of a accept, built
// the way the checks build them without a manifest: the first enum value,
// the default, or the smallest value of the declared type within its
// bounds; required properties only. It returns an error naming what it
// cannot build (a pattern, a format, a composed schema): those arguments
// must come from a person, in the manifest's args. glass-conformance init
// uses it to write starter calls.
func ExampleArgs(a receipt.ActionInfo) (map[string]any, error) {
	s, err := ParseSchema(a.Params)
	if err != nil {
		return nil, fmt.Errorf("conformance: %s: %w", a.ID, err)
	}
	if len(s.Types()) > 0 && !s.HasType("object") {
		return nil, fmt.Errorf("conformance: params of %s is not an object schema", a.ID)
	}
	v, err := s.Synthesize("", "")
	if err != nil {
		return nil, fmt.Errorf("conformance: %s: %w", a.ID, err)
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}
