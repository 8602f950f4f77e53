package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/orders/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
)

// The reviewed capability surface of the Orders page (docs/surface.md):
// refund@<order> stays a dangerous flow that asks the user, pay@<order>
// stays a hand-off the user performs. Accept an intended change with
// GLASS_UPDATE_GOLDEN=1 and commit the baseline with it.
var _ = Describe("The Orders page's capability surface", func() {
	It("is the reviewed baseline", func() {
		page := glasstest.Open(glasstest.Serve(app.Handler()))
		Expect(page).To(MatchSurface("testdata/glass-surface.json"))
	})
})
