package probe

import (
	"crypto/rand"
	"strings"
	"sync"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/internal/scrub"
)

// The probes pass a fresh secret (newSecret) for every sensitive parameter
// they fill. A conforming runtime never echoes it; a leaking one puts it in
// a receipt, a snapshot or a confirmation request, and that is the
// evidence of sensitive.never-echoed. The finding still never carries the
// value itself: every place it appears in a message or in evidence reads
// leakedSecret instead, so that nothing Glass writes — terminal, JUnit,
// JSON, HTML, artifacts, Ginkgo failures — holds a sensitive value, even a
// probe's.

// leakedSecret stands for a probe's secret in findings. It differs from the
// runtime's own mask, "[sensitive]", so the evidence shows where the value
// leaked.
const leakedSecret = "[the probe's sensitive value]"

// secretSet is the secrets a run's probes have passed.
type secretSet struct {
	mu  sync.Mutex
	set map[string]bool
}

// fresh returns a new secret and remembers it, and its random part on its
// own: a page that shows the value without its constant prefix still
// shows nothing Glass writes.
func (s *secretSet) fresh() string {
	v := newSecret()
	s.remember(v, strings.TrimPrefix(v, secretPrefix))
	return v
}

// FreshSecret returns a new secret for a probe's sensitive argument, one
// that the run's findings never show (see Session.Hide).
func (p *Probe) FreshSecret() string { return p.s.secrets.fresh() }

// FreshAccentedSecret returns a new secret that ends in a space, the
// ligature fi (U+FB01) and a letter with a diaeresis (U+00EB), so that its
// four normalisation forms differ (NFD decomposes the ë, NFKC and NFKD the
// ligature too) and so do its percent-encodings (a space is %20 or +); its
// ASCII part is a secret too.
func (p *Probe) FreshAccentedSecret() string {
	v := p.s.secrets.fresh() + " \ufb01\u00eb"
	p.s.secrets.remember(v)
	return v
}

// FreshShortSecret returns a new secret of three letters: Q and two drawn
// from letters that are no hexadecimal digits (so that no id or hash of
// the page spells it).
func (p *Probe) FreshShortSecret() string {
	const letters = "jkqvwxz"
	var b [2]byte
	_, _ = rand.Read(b[:])
	v := "Q" + string(letters[int(b[0])%len(letters)]) + string(letters[int(b[1])%len(letters)])
	p.s.secrets.remember(v)
	return v
}

// remember adds values to the secrets the run's findings never show.
func (s *secretSet) remember(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil {
		s.set = map[string]bool{}
	}
	for _, v := range values {
		s.set[v] = true
	}
}

// hide replaces every remembered secret in the finding's message and
// evidence.
func (s *secretSet) hide(f report.Finding) report.Finding {
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
	// reversed.
	set := scrub.NewAnyCase(values...)
	replace := func(t string) string { return set.ReplaceString(t, leakedSecret) }
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
