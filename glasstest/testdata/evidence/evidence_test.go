package evidence_test

import (
	"fmt"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/fixtures"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// FixtureSecret is the sensitive value of the sign-in spec; the harness's
// test looks for it in everything the run wrote.
const FixtureSecret = "fixtureSecret8472pw"

var _ = Describe("The Todo page", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})

	It("passes: removes t9 after approval", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Do("remove@t9", nil)).To(HaveChanged(Records(Removed("t9"), Total(12, 11))))
	})

	It("passes: a denial fails at policy", func() {
		page := glasstest.Open(url)
		Expect(page.Do("remove@t9", nil)).To(FailAtPhase(receipt.PhasePolicy))
	})

	It("passes: lists a remove action for every task", func() {
		page := glasstest.Open(url)
		Expect(page.Actions()).To(ContainElements(HaveField("ID", "remove@t1"), HaveField("ID", "remove@t12")))
	})

	It("passes: folds remove plus record", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Do("remove", map[string]any{"record": "t3"}).Result.Action.ID).To(Equal("remove@t3"))
	})

	It("fails on purpose: expects a denied call to succeed", func() {
		page := glasstest.Open(url)
		page.Snapshot()
		r := page.Do("remove@t9", nil)
		Expect(r.Result.OK).To(BeTrue(), "this spec fails on purpose")
	})

	It("fails on purpose: signs in with a sensitive password", func() {
		// A careless page that echoes the password into its DOM, title and
		// toasts; the spec plays the user typing it, as a hand-off handler
		// would, and fails on a receipt whose runtime error named it.
		base := glasstest.Serve(fixtures.Handler())
		page := glasstest.Open(base+"/sensitive.html", glasstest.Approve(), glasstest.Sensitive("pw", FixtureSecret))
		Expect(page.Playwright().Fill("#password", FixtureSecret)).To(Succeed())
		creds := map[string]any{"user": "ada", "password": glasstest.SensitiveRef("pw")}
		Expect(page.Do("login", creds)).To(BeOK())
		Expect(page.Do("login.broken", creds)).To(BeOK(), "this spec fails on purpose")
	})

	It("fails on purpose: with a dev server and two pages", func() {
		port, err := glasstest.FreePort()
		Expect(err).NotTo(HaveOccurred())
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		root := os.Getenv("GLASS_FIXTURE_MODULE_ROOT")
		if root == "" {
			root = "../../.."
		}
		srv := glasstest.Start("go run ./examples/todo -addr "+addr, "http://"+addr+"/", glasstest.Dir(root))
		first := glasstest.Open(srv.URL, glasstest.Approve())
		first.Do("remove@t1", nil)
		second := glasstest.Open(srv.URL)
		second.Do("remove@t2", nil)
		Fail("this spec fails on purpose")
	})
})
