package page

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/conformance/internal/probe"
)

// globalWatch runs before any page script: the moment the runtime
// installs globalThis.glassRuntime with Object.defineProperty, it notes
// the global names there are and the script that is running; once that
// script has run (its load event, fired right after it executed), it
// notes the global names the rest of the script added.
const globalWatch = `(() => {
  const seen = { hooked: false, src: "", done: false, extra: [] };
  Object.defineProperty(globalThis, "__glassGlobalWatch", { value: seen, enumerable: false });
  const define = Object.defineProperty;
  Object.defineProperty = function (o, k, d) {
    const r = define.call(Object, o, k, d);
    if (o === globalThis && k === "glassRuntime" && !seen.hooked) {
      seen.hooked = true;
      Object.defineProperty = define;
      const at = new Set(Object.getOwnPropertyNames(globalThis));
      const cs = document.currentScript;
      if (cs && cs.src) {
        seen.src = cs.src;
        cs.addEventListener("load", () => {
          seen.extra = Object.getOwnPropertyNames(globalThis).filter((n) => !at.has(n));
          seen.done = true;
        }, { once: true });
      }
    }
    return r;
  };
})();`

type globalSeen struct {
	Hooked bool     `json:"hooked"`
	Src    string   `json:"src"`
	Done   bool     `json:"done"`
	Extra  []string `json:"extra"`
}

// secondGlobals watches a fresh page load: the globals the runtime's own
// script installs after glassRuntime (protocol.global: one global). It
// returns the names, the script, and why it could not judge ("" when it
// could).
func secondGlobals(p *probe.Probe) (names []string, src, why string, err error) {
	pg, err := p.Open("")
	if err != nil {
		return nil, "", "", err
	}
	pw := pg.Harness.Playwright()
	script := globalWatch
	if err := pw.Context().AddInitScript(playwright.Script{Content: &script}); err != nil {
		return nil, "", "", err
	}
	if err := pg.Reload(); err != nil {
		return nil, "", "", err
	}
	var seen globalSeen
	deadline := time.Now().Add(p.CallTimeout())
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		v, err := pg.Evaluate(`JSON.stringify({ w: globalThis.__glassGlobalWatch || null, complete: document.readyState === "complete" })`, nil)
		if err != nil {
			return nil, "", "", err
		}
		var st struct {
			W        *globalSeen `json:"w"`
			Complete bool        `json:"complete"`
		}
		text, _ := v.(string)
		_ = json.Unmarshal([]byte(text), &st)
		if st.W != nil {
			seen = *st.W
		}
		if seen.Done || st.Complete || time.Now().After(deadline) {
			break
		}
		<-tick.C
	}
	switch {
	case !seen.Hooked:
		return nil, "", "the runtime did not install glassRuntime with Object.defineProperty, so its script was not watched", nil
	case seen.Src == "":
		return nil, "", "the runtime installed glassRuntime from an inline script, whose end cannot be watched", nil
	case !seen.Done:
		return nil, seen.Src, fmt.Sprintf("the runtime's script %s did not finish loading within %s", seen.Src, p.CallTimeout()), nil
	}
	return seen.Extra, seen.Src, "", nil
}

// globalsProblem is the violation of protocol.global's "one global" the
// watch saw, or "".
func globalsProblem(names []string, src string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("the runtime's script %s installs the global%s %s besides globalThis.glassRuntime: a page runtime installs one global",
		src, map[bool]string{true: "s", false: ""}[len(names) > 1], strings.Join(names, ", "))
}
