package coverage_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/receipt"
)

func TestTheHTMLViewIsSelfContainedAndEscapesPageText(t *testing.T) {
	evil := todoSnapshot(`<script>alert("id")</script>`)
	evil.Page.Title = `<img src=x onerror=alert(1)>`
	evil.Actions.Items = append(evil.Actions.Items, receipt.ActionInfo{ID: `"><b>bold</b>`, Kind: receipt.KindElement, Risk: receipt.RiskRead})
	obs := coverage.Observe(coverage.PageLog{
		URL:       "http://127.0.0.1:1/",
		Snapshots: []*receipt.Snapshot{evil},
		Calls:     []coverage.CallLog{{Receipt: ok(`"><b>bold</b>`), Spec: `spec <i>with</i> markup`, Snapshots: 1}},
	})
	rep := coverage.New(`suite </title><script>x()</script>`, false, obs)
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, raw := range []string{"<script", "<img", "<b>", "<i>"} {
		if strings.Contains(html, raw) {
			t.Errorf("the view carries %q raw", raw)
		}
	}
	for _, escaped := range []string{"&lt;script&gt;alert(&#34;id&#34;)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "spec &lt;i&gt;with&lt;/i&gt; markup"} {
		if !strings.Contains(html, escaped) {
			t.Errorf("the view lacks %q", escaped)
		}
	}
	// Self-contained: nothing is fetched (no script, link, image, font or
	// frame, no url() in the style).
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe|object|embed)\b|<[^>]*\s(src|href)=|url\(|@import|https?://`).FindString(html); m != "" {
		t.Errorf("the view reaches outside itself: %q", m)
	}
}

func TestTheHTMLViewMarksGapsAndShowsOnlyTheColumnsAPageNeeds(t *testing.T) {
	// A page with element actions only: no flow, no hand-off, nothing
	// that asks for confirmation.
	s := &receipt.Snapshot{Page: receipt.PageIdentity{ID: "plain"}}
	s.Actions.Items = []receipt.ActionInfo{{ID: "add", Kind: receipt.KindElement, Risk: receipt.RiskWrite}, {ID: "clear", Kind: receipt.KindElement, Risk: receipt.RiskWrite}}
	obs := coverage.Observe(coverage.PageLog{Snapshots: []*receipt.Snapshot{s}, Calls: []coverage.CallLog{{Receipt: ok("add"), Spec: "adds", Snapshots: 1, Transport: coverage.TransportBridge}}})
	var b bytes.Buffer
	if err := coverage.New("", false, obs).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, col := range []string{`data-col="called"`, `data-col="webmcp"`} {
		if !strings.Contains(html, col) {
			t.Errorf("no column %s", col)
		}
	}
	for _, col := range []string{`data-col="approved"`, `data-col="resumed"`, `data-col="handoff_completed"`} {
		if strings.Contains(html, col) {
			t.Errorf("a column %s on a page that cannot use it", col)
		}
	}
	if !regexp.MustCompile(`<tr data-action="clear">\s*<th[^>]*>.*?</th>\s*<td data-cell="called" class="gap">—</td>`).MatchString(html) {
		t.Errorf("clear, never called, is not a gap:\n%s", html)
	}
	if !regexp.MustCompile(`<td data-cell="called" class="hit"><details><summary>1 spec</summary><ul><li>adds</li></ul></details></td>`).MatchString(html) {
		t.Errorf("add's called cell does not name its spec:\n%s", html)
	}
}
