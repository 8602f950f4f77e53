package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
)

// The reviewed capability surface: what the Todo page lets an agent do,
// and how (docs/surface.md). A change that lowers a risk, drops a
// confirmation or narrows a parameter fails here; accept an intended one
// with GLASS_UPDATE_GOLDEN=1 and commit the baseline with it.
var _ = Describe("The Todo page's capability surface", func() {
	It("is the reviewed baseline", func() {
		page := glasstest.Open(glasstest.Serve(app.Handler()))
		Expect(page).To(MatchSurface("testdata/glass-surface.json"))
	})
})
