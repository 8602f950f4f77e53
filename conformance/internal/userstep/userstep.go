// Package userstep does the steps a manifest names for the user of a
// hand-off (click, fill, select), bounded: during the hand-off (the
// probes of handoff.outcome) or by hand with no call in flight
// (envelope.revision's, ByHand).
package userstep

import (
	"fmt"
	"strings"
	"time"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	playwright "github.com/mxschmitt/playwright-go"
)

// stepTimeout bounds each step ByHand does.
const stepTimeout = 5 * time.Second

// byUser is what changed in a page model before and after the user's steps, done with no
// call in flight; nil when a step could not be done.
type byUser struct {
	diff                []string
	steps               string
	revBefore, revAfter int64
}

// RevisionByHand judges envelope.revision on a change no call made: the
// revision grows whenever the page model differs from the one last
// observed, whoever changed it. For each hand-off the manifest names with
// the user's steps, a fresh page's snapshot is read, the steps are done
// there by hand (no call in flight), and once the page is quiet the
// snapshot is read again: a model that changed under a revision that did
// not grow fails (an outside audit's runtime moved its revision only
// during calls). A step the page does not allow outside its hand-off
// leaves the entry unjudged. It returns the violation, or nil with what
// was judged.
func RevisionByHand(p *probe.Probe) (*probe.Outcome, []string) {
	var judged []string
	for _, h := range p.Manifest().Handoffs {
		if len(h.User) == 0 {
			continue
		}
		v, err := p.Memo(fmt.Sprintf("%s|revision-user|%s|%s|%v", p.Transport, h.Action, h.URL, h.User), func() (any, error) {
			q := p.Sibling(p.Transport)
			defer q.Close()
			pg, err := q.Open(h.URL)
			if err != nil {
				return nil, err
			}
			before, err := pg.Snapshot()
			if err != nil {
				return nil, err
			}
			var names []string
			for _, u := range h.User {
				if Do(pg.Harness.Playwright(), u, stepTimeout) != nil {
					return (*byUser)(nil), nil
				}
				names = append(names, u.String())
			}
			// A step that submitted a form or followed a link left the
			// page: nothing to compare.
			if pg.WaitQuiet() != nil {
				return (*byUser)(nil), nil
			}
			after, err := pg.Snapshot()
			if err != nil || after.Page.ID != before.Page.ID || after.Page.URL != before.Page.URL {
				return (*byUser)(nil), nil
			}
			var diff []string
			for _, d := range judge.ModelDiff(before, after) {
				if !strings.HasPrefix(d, "revision ") {
					diff = append(diff, d)
				}
			}
			return &byUser{diff: diff, steps: strings.Join(names, ", "), revBefore: before.Revision, revAfter: after.Revision}, nil
		})
		if err != nil {
			o := probe.Broken(err)
			return &o, nil
		}
		u, _ := v.(*byUser)
		if u == nil || len(u.diff) == 0 {
			continue
		}
		if u.revAfter <= u.revBefore {
			o := probe.Failf("the user's steps of %s (%s), done with no call in flight, changed the page model (%s), but the snapshot's revision stayed at %d → %d: the revision grows whenever the model differs from the one last observed, whoever changed it",
				h.Action, u.steps, u.diff[0], u.revBefore, u.revAfter).With(report.TextEvidence("what changed", u.diff...))
			return &o, nil
		}
		judged = append(judged, fmt.Sprintf("the user's steps of %s, with no call in flight: revision %d → %d", h.Action, u.revBefore, u.revAfter))
	}
	return nil, judged
}

// Do does one of the manifest's user steps on pg within timeout.
func Do(pg playwright.Page, u manifest.UserStep, timeout time.Duration) error {
	ms := playwright.Float(float64(timeout.Milliseconds()))
	switch {
	case u.Click != "":
		return pg.Locator(u.Click).First().Click(playwright.LocatorClickOptions{Timeout: ms})
	case u.Fill != "":
		return pg.Locator(u.Fill).First().Fill(u.Value, playwright.LocatorFillOptions{Timeout: ms})
	default:
		_, err := pg.Locator(u.Select).First().SelectOption(playwright.SelectOptionValues{Values: &[]string{u.Value}}, playwright.LocatorSelectOptionOptions{Timeout: ms})
		return err
	}
}
