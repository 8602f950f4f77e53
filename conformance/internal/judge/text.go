package judge

import (
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/report"
)

// FirstDifference names the first line where two texts differ.
func FirstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d was %q, is %q", i+1, report.Clip(strings.TrimSpace(x), 120), report.Clip(strings.TrimSpace(y), 120))
		}
	}
	return "identical"
}
