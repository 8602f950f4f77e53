package pagejs

import "encoding/json"

// MaxWarnings is how many of a runtime's warnings about the page's
// declarations Glass reads, and MaxWarningBytes how long their JSON may
// be; a warning is cut to MaxWarningRunes characters.
const (
	MaxWarnings     = 50 // not a contract bound: Glass's own, for a runtime's warnings
	MaxWarningBytes = 64 << 10
	MaxWarningRunes = 300
)

// WarningsScript answers the runtime's warnings about the page's
// declarations (glassRuntime.warnings(), which the reference runtime has:
// docs/runtime.md, "Mistakes the runtime reports") as JSON text, or ""
// when the runtime has none or the text is over max.bytes: the first
// max.count warnings, each cut to max.runes (a page that replaced what
// this uses gets its text refused in Go, DecodeWarnings).
const WarningsScript = `(max) => {
  try {
    const g = globalThis.glassRuntime;
    if (!g || typeof g.warnings !== "function") return "";
    const w = g.warnings();
    if (!Array.isArray(w)) return "";
    const t = JSON.stringify(w.slice(0, max.count).map((x) => String(x).slice(0, max.runes)));
    return typeof t === "string" && t.length <= max.bytes ? t : "";
  } catch (e) {
    return "";
  }
}`

// WarningsArg is WarningsScript's argument.
var WarningsArg = map[string]int{"count": MaxWarnings, "runes": MaxWarningRunes, "bytes": MaxWarningBytes}

// DecodeWarnings reads what WarningsScript answered: at most MaxWarnings
// strings, each cut to MaxWarningRunes characters; nil for anything else.
// The page is not trusted: the text is checked again here, and printing a
// warning is the caller's (receipt.PrintableText).
func DecodeWarnings(v any) []string {
	text, _ := v.(string)
	if text == "" || len(text) > MaxWarningBytes {
		return nil
	}
	var list []string
	if json.Unmarshal([]byte(text), &list) != nil {
		return nil
	}
	if len(list) > MaxWarnings {
		list = list[:MaxWarnings]
	}
	for i, w := range list {
		if r := []rune(w); len(r) > MaxWarningRunes {
			list[i] = string(r[:MaxWarningRunes]) + "…"
		}
	}
	return list
}
