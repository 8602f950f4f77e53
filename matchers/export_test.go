package matchers

import "github.com/onsi/gomega/types"

// BeBoundedAt is BeBounded for another bound, so that a test can show the
// matcher judges against the bound it holds.
func BeBoundedAt(n int) types.GomegaMatcher { return &beBounded{bound: n} }
