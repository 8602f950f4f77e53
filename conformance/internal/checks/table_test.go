package checks

import (
	"testing"

	"github.com/glassworks/glass/conformance/internal/catalog"
)

func TestEveryCheckNamesARule(t *testing.T) {
	for _, id := range CheckIDs() {
		if _, ok := catalog.ByID(id); !ok {
			t.Errorf("check %q names no rule of the catalog", id)
		}
	}
}
