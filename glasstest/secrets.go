package glasstest

import (
	"maps"
	"slices"

	"github.com/glassworks/glass/internal/scrub"
)

// The evidence of a page must not carry the sensitive values its calls
// used (Sensitive): the runtime keeps them out of receipts and the host out
// of confirmation records, but a page may echo a value in any spelling, and
// a Playwright trace records what a hand-off handler typed (Fill's value,
// the input's value in DOM snapshots, request bodies). SaveArtifacts
// therefore writes every file it keeps through package internal/scrub,
// which finds a value in every spelling a page can give it — JSON,
// JavaScript and CSS escapes, percent-encoding, HTML references, nested,
// in any Unicode normalisation form — and replaces it with "[sensitive]".
// A screenshot is pixels, which no scrubbing reaches: SaveArtifacts takes
// none of a page whose calls used a sensitive value, nor of one whose text
// shows one any call of the process used (evidence.ErrScreenshotWithheld,
// ErrScreenshotShowsSecret); files are scrubbed of all of them.
// What the package cannot see — a value the page hashed, split,
// base64-encoded or drew — it cannot remove. The output of a dev server
// attached to a failing spec's report is scrubbed the same way, of every
// value any call of the process used.

// processSecrets holds every sensitive value a call of this process used,
// for the evidence no single page owns: a dev server's output, which may
// log what a page posted to it.
var processSecrets scrub.Registry

// noteSecrets remembers the sensitive values of a call for the evidence.
func (p *Page) noteSecrets(secrets map[string]string) {
	processSecrets.Add(slices.Collect(maps.Values(secrets))...)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.secretValues == nil {
		p.secretValues = map[string]bool{}
	}
	for _, v := range secrets {
		if v != "" {
			p.secretValues[v] = true
		}
	}
}

// secretSet is the set the page's evidence is scrubbed of: the sensitive
// values its calls used, those given to it as page options, and every one
// any other call of the process used (a page may show what another page
// posted); own says whether the page had any of its own.
func (p *Page) secretSet() (set *scrub.Set, own bool) {
	p.mu.Lock()
	values := append(slices.Collect(maps.Values(p.settings.secrets)), slices.Collect(maps.Keys(p.secretValues))...)
	p.mu.Unlock()
	own = slices.ContainsFunc(values, func(v string) bool { return v != "" })
	return scrub.New(append(values, processSecrets.Values()...)...), own
}
