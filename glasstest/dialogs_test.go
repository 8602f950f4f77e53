package glasstest_test

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/sdk"
)

// A list whose buttons ask with the page's own dialogs, as many apps'
// do: delete asks window.confirm, note shows an alert, rename asks
// window.prompt. The runtime presses the buttons (no run function).
const dialogPage = `<!doctype html><title>Dialogs</title>
<ul id="list"><li id="n1">one <button id="del-n1">Delete</button></li><li id="n2">two <button id="del-n2">Delete</button></li></ul>
<button id="note">Note</button> <button id="rename">Rename</button> <p id="name">list</p>
<script src="/glass-runtime.js"></script>
<script>
for (const id of ["n1", "n2"]) {
  document.getElementById("del-" + id).addEventListener("click", () => {
    if (confirm("Delete " + id + "?")) document.getElementById(id).remove();
  });
}
document.getElementById("note").addEventListener("click", () => { alert("noted"); document.title = "noted"; });
document.getElementById("rename").addEventListener("click", () => {
  const v = prompt("New name?");
  document.getElementById("name").textContent = v === null ? "kept" : v;
});
glassRuntime.define({
  page: () => ({ id: "dialogs", title: document.title }),
  records: () => [...document.querySelectorAll("#list li")].map((li) => ({ id: li.id })),
  state: () => ({ name: document.getElementById("name").textContent }),
  actions: () => [
    ...[...document.querySelectorAll("#list li")].map((li) => ({
      id: "delete@" + li.id, kind: "element", risk: "dangerous", target: "#del-" + li.id,
      expect: { description: "The row is gone", check: () => !document.getElementById(li.id) },
    })),
    { id: "clear", kind: "element", risk: "write", target: "#del-n2" },
    { id: "note", kind: "element", risk: "write", target: "#note" },
    { id: "rename", kind: "element", risk: "write", target: "#rename" },
  ],
});
</script>`

func dialogServer() string {
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(dialogPage))
	})
	return glasstest.Serve(mux)
}

var _ = Describe("The page's own dialogs", func() {
	It("accepts a confirm the page opens during a call whose confirmation the host approved", func() {
		page := glasstest.Open(dialogServer(), glasstest.Approve())
		r := page.Do("delete@n1", nil)
		Expect(r.Result.OK).To(BeTrue(), "%s", r)
		Expect(page.Snapshot().Records.Items).To(HaveLen(1))
	})

	It("dismisses it when the host denied the call, or was not asked", func() {
		page := glasstest.Open(dialogServer(), glasstest.Deny())
		Expect(page.Do("delete@n1", nil).Code()).To(BeEquivalentTo("PERMISSION_DENIED"))
		r := page.Do("clear", nil) // a write: the host is not asked, so the page's confirm is cancelled
		Expect(r.Result.OK).To(BeTrue(), "%s", r)
		Expect(page.Snapshot().Records.Items).To(HaveLen(2))
		Expect(page.CancelledConfirms()).To(Equal([]string{"Delete n2?"}))
		// The spec's output says so, and what to declare instead.
		Eventually(func() string { return CurrentSpecReport().CapturedGinkgoWriterOutput }).WithTimeout(5 * time.Second).Should(
			ContainSubstring(`glass: the page's confirm("Delete n2?") was cancelled: no call in flight had its confirmation approved by the host. An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)`))
	})

	It("says nothing of a confirm it accepted", func() {
		page := glasstest.Open(dialogServer(), glasstest.Approve())
		Expect(page.Do("delete@n1", nil).Result.OK).To(BeTrue())
		Expect(CurrentSpecReport().CapturedGinkgoWriterOutput).NotTo(ContainSubstring("was cancelled"))
		Expect(page.CancelledConfirms()).To(BeEmpty())
	})

	It("closes an alert and cancels a prompt, so no call waits on a dialog", func() {
		page := glasstest.Open(dialogServer())
		Expect(page.Do("note", nil).Result.OK).To(BeTrue())
		Expect(page.Snapshot().Page.Title).To(Equal("noted"))
		Expect(page.Do("rename", nil).Result.OK).To(BeTrue())
		Expect(page.Snapshot().State).To(HaveKeyWithValue("name", "kept"))
	})
})
