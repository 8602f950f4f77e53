// Package secrets holds the secrets a conformance run's probes pass for
// sensitive parameters, and hides them in the run's findings.
package secrets

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/internal/scrub"
)

// The probes pass a fresh secret (New) for every sensitive parameter
// they fill. A conforming runtime never echoes it; a leaking one puts it in
// a receipt, a snapshot or a confirmation request, and that is the
// evidence of sensitive.never-echoed. The finding still never carries the
// value itself: every place it appears in a message or in evidence reads
// Leaked instead, so that nothing Glass writes — terminal, JUnit,
// JSON, HTML, artifacts, Ginkgo failures — holds a sensitive value, even a
// probe's.

// Leaked stands for a probe's secret in findings. It differs from the
// runtime's own mask, "[sensitive]", so the evidence shows where the value
// leaked.
const Leaked = "[the probe's sensitive value]"

// Set is the secrets a run's probes have passed.
type Set struct {
	mu  sync.Mutex
	set map[string]bool
}

// Fresh returns a new secret and remembers it, and its random part on its
// own, and each half of its random digits: a page that shows the value
// without its constant prefix, or its digits apart, still shows nothing
// Glass writes.
func (s *Set) Fresh() string {
	v := New()
	// Its random part too, and its random digits without the middle
	// between them (a page that drops the two characters whose spellings
	// differ shows all of its randomness).
	random := strings.TrimPrefix(v, Prefix)
	// And each half of them: a page that writes the halves apart, in
	// the other order or with other characters between them ("x_y", as
	// a WebMCP tool name) shows 64 random bits all the same.
	first, second, _ := strings.Cut(random, Middle)
	s.Remember(v, random, first+second, first, second)
	return v
}

// Remember adds values to the secrets the run's findings never show.
func (s *Set) Remember(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil {
		s.set = map[string]bool{}
	}
	for _, v := range values {
		s.set[v] = true
	}
}

// Hide replaces every remembered secret in the finding's message and
// evidence.
func (s *Set) Hide(f report.Finding) report.Finding {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.set) == 0 {
		return f
	}
	var values []string
	for v := range s.set {
		values = append(values, v, scrub.Reverse(v))
	}
	// In every spelling: a leaking runtime may have written the value
	// percent-encoded, escaped or as character references; and, since the
	// probe chose the value (ASCII letters, digits and a dash), in any case
	// of its letters (fullwidth and mathematical capitals too) and
	// reversed; and what a cut left of one next to the cut mark.
	set := scrub.NewAnyCase(values...)
	replace := func(t string) string { return set.ReplaceString(unescapeHTMLInJSON(t), Leaked) }
	f.Message = replace(f.Message)
	if f.Evidence != nil {
		ev := make([]report.Evidence, len(f.Evidence))
		for i, e := range f.Evidence {
			ev[i] = report.Evidence{Label: replace(e.Label), Text: replace(e.Text)}
		}
		f.Evidence = ev
	}
	return f
}

// New returns a value no page contains by chance, long enough for
// any minLength a password field declares and short enough for most
// maxLengths. Its middle, Middle, is spelt differently
// percent-encoded, as HTML references and in JSON as Go writes it, so a
// page that shows the value in one of those spellings shows whether the
// runtime masks it there too (sensitive.never-echoed).
func New() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return Prefix + h[:8] + Middle + h[8:]
}

// Middle is the part of every probe's secret whose spellings differ
// from it: a less-than sign and an ampersand (%3C%26, &lt;&amp;,
// \u003c\u0026). ASCII, so that its case and its bytes reversed are
// what Session.Hide folds and reverses. Written into HTML as it is, it
// starts neither a tag (< is followed by &) nor a character reference
// (no reference is named by hex digits alone).
const Middle = "<&"

// Prefix starts every probe's secret; the random part after it is a
// secret too.
const Prefix = "GlassSecret-"

// Short returns a new secret of three letters, and remembers it: Q and two
// drawn from letters that are no hexadecimal digits (so that no id or hash
// of the page spells it).
func (s *Set) Short() string {
	const letters = "jkqvwxz"
	var b [2]byte
	_, _ = rand.Read(b[:])
	v := "Q" + string(letters[int(b[0])%len(letters)]) + string(letters[int(b[1])%len(letters)])
	s.Remember(v)
	return v
}

// unescapeHTMLInJSON writes back the characters Go's JSON encoder escapes
// for HTML — \u0026, \u003c, \u003e, in any case of their hex — as &, <
// and >, which JSON text holds as they are. A message that quotes the
// page's text through json.Marshal would otherwise add a level of
// escaping to a value the page spelt with character references (&amp;lt;
// becomes \u0026amp;lt;), one the scrubber does not undo. A backslash
// escaped itself (\\u0026, the text \u0026) is left alone.
func unescapeHTMLInJSON(t string) string {
	if !strings.Contains(t, `\u00`) && !strings.Contains(t, `\U00`) {
		return t
	}
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '\\' && i+5 < len(t) && (t[i+1] == 'u' || t[i+1] == 'U') {
			switch strings.ToLower(t[i+2 : i+6]) {
			case "0026":
				b.WriteByte('&')
				i += 5
				continue
			case "003c":
				b.WriteByte('<')
				i += 5
				continue
			case "003e":
				b.WriteByte('>')
				i += 5
				continue
			}
		}
		b.WriteByte(t[i])
		if t[i] == '\\' && i+1 < len(t) {
			i++ // an escaped character: \\ is a backslash, not the start of an escape
			b.WriteByte(t[i])
		}
	}
	return b.String()
}
