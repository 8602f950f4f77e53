package glasstest_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/sdk"
)

// A card page: save posts the card to the server, which every later load
// shows, in the title, the text and an action's id; charge asks first and
// describes itself with the card the page last saved.
const cardPage = `<!doctype html><title>Card STORED</title>
<p>Saved card: STORED</p>
<script src="/glass-runtime.js"></script>
<script>
let card = "";
glassRuntime.define({
  page: () => ({ id: "card" }),
  actions: () => [
    { id: "save", kind: "function", params: { type: "object", required: ["card"], properties: { card: { type: "string", sensitive: true } } },
      run: async (a) => { card = a.card; await fetch("/store", { method: "POST", body: a.card }); } },
    { id: "charge", description: "Charge the card " + card, kind: "function", risk: "dangerous", run: () => 1 },
    { id: "use-card-STORED", kind: "function", run: () => 2 },
  ],
});
</script>`

func cardServer() string {
	var mu sync.Mutex
	stored := "none"
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("POST /store", func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 64)
		n, _ := r.Body.Read(b)
		mu.Lock()
		stored = string(b[:n])
		mu.Unlock()
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(strings.ReplaceAll(cardPage, "STORED", stored)))
	})
	return glasstest.Serve(mux)
}

var _ = Describe("Sensitive values of other calls", func() {
	const card = "4111111111111111"

	It("masks an earlier call's value in a later confirmation request of the page", func() {
		var seen []string
		page := glasstest.Open(cardServer(), glasstest.ConfirmWith(func(r glasstest.ConfirmRequest) bool {
			seen = append(seen, r.Description)
			return true
		}))
		Expect(page.Do("save", map[string]any{"card": glasstest.SensitiveRef("card")}, glasstest.Sensitive("card", card)).Result.OK).To(BeTrue())
		Expect(page.Do("charge", nil).Result.OK).To(BeTrue())
		Expect(seen).To(Equal([]string{"Charge the card [sensitive]"}))
		Expect(page.Confirmations()).To(HaveLen(1))
		Expect(page.Confirmations()[0].Request.Description).To(Equal("Charge the card [sensitive]"))
	})

	It("keeps a value another page's call used out of a page's evidence, and takes no screenshot of a page that shows it", func() {
		url := cardServer()
		first := glasstest.Open(url)
		Expect(first.Do("save", map[string]any{"card": glasstest.SensitiveRef("card")}, glasstest.Sensitive("card", card)).Result.OK).To(BeTrue())
		second := glasstest.Open(url, glasstest.Trace(true))
		Expect(second.Snapshot().Page.Title).To(ContainSubstring(card), "the page shows the card the first page saved")
		a, err := second.SaveArtifacts(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Trace).NotTo(BeEmpty())
		Expect(a.Screenshot).To(BeEmpty())
		Expect(a.Errors).To(ContainElement(ContainSubstring("the page shows a sensitive value a call of this process used")))
		spellings := scrub.New(card) // escaped, percent-encoded, as references
		for _, f := range a.Files() {
			b, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			Expect(spellings.Contains(b)).To(BeFalse(), f)
			if filepath.Base(f) == glasstest.TraceFile { // compressed: each entry is read
				for name, entry := range zipEntries(f) {
					Expect(spellings.Contains(entry)).To(BeFalse(), "the trace's entry %s holds the card", name)
				}
			}
		}
	})

	// A second security audit's pages showed the value where innerText
	// does not reach: an input's value, a textarea's, a closed shadow root.
	It("takes no screenshot of a page that shows the value in a form control or a closed shadow root", func() {
		first := glasstest.Open(cardServer())
		Expect(first.Do("save", map[string]any{"card": glasstest.SensitiveRef("card")}, glasstest.Sensitive("card", card)).Result.OK).To(BeTrue())
		for what, body := range map[string]string{
			"an input's value":     `<input id="c">` + `<script>document.getElementById("c").value = "` + card + `";</script>`,
			"a textarea's value":   `<textarea id="c"></textarea><script>document.getElementById("c").value = "` + card + `";</script>`,
			"a closed shadow root": `<div id="h"></div><script>document.getElementById("h").attachShadow({ mode: "closed" }).innerHTML = "<p>` + card + `</p>";</script>`,
		} {
			mux := http.NewServeMux()
			mux.Handle(sdk.Path, sdk.Handler())
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte(`<!doctype html><title>Shows</title><script src="/glass-runtime.js"></script>` + body + `<script>glassRuntime.define({ actions: () => [] });</script>`))
			})
			other := glasstest.Open(glasstest.Serve(mux))
			a, err := other.SaveArtifacts(GinkgoT().TempDir())
			Expect(err).NotTo(HaveOccurred())
			Expect(a.Screenshot).To(BeEmpty(), "the page shows the card in %s", what)
		}
	})

	It("still takes the screenshot of a page that shows no sensitive value", func() {
		first := glasstest.Open(cardServer())
		Expect(first.Do("save", map[string]any{"card": glasstest.SensitiveRef("card")}, glasstest.Sensitive("card", card)).Result.OK).To(BeTrue())
		other := glasstest.Open(glasstest.Serve(harnessHandler()))
		a, err := other.SaveArtifacts(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Screenshot).NotTo(BeEmpty())
	})
})
