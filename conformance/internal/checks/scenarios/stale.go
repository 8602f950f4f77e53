package scenarios

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// urlProbeScript changes the page's URL with no call and no navigation:
// history.replaceState with one more query parameter, which fires no
// event a router listens to. The snapshot's page.url then differs.
const urlProbeScript = `() => {
  const u = new URL(location.href);
  u.searchParams.set("glassRevisionProbe", "1");
  history.replaceState(history.state, "", u.toString());
  return location.href;
}`

// StaleUnobserved (envelope.stale-revision): the page's model changes with no call of the runtime
// (its URL, through history.replaceState; nothing reads a snapshot in
// between), then an undeclared id is called with the revision the page
// had before: the page model differs from that revision's, so the call
// must fail STALE_REVISION. A runtime that compares with the revision it
// last computed, instead of observing the page when the call arrives,
// runs it (an outside audit's runtime: the user changed the filter
// himself). Judged only when the snapshot's page.url follows the URL.
func StaleUnobserved(p *probe.Probe) (probe.Outcome, string) {
	unknown, why := probe.PlanUnknown(p)
	if unknown == nil {
		return probe.Pass(), "a stale revision after a change no call made: " + why
	}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err), ""
	}
	defer pg.Close()
	before, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err), ""
	}
	if _, err := pg.Evaluate(urlProbeScript, nil); err != nil {
		return probe.Pass(), "a stale revision after a change no call made: the page's URL could not be changed (" + probe.FirstLine(err.Error()) + ")"
	}
	what := fmt.Sprintf("expectedRevision %d on a call of the undeclared id %s, after the page's URL changed with no call (history.replaceState)", before.Revision, unknown.Undeclared)
	r, err := pg.Raw(unknown.Undeclared, map[string]any{}, map[string]any{"executionId": "glass-probe-stale-unobserved", "expectedRevision": before.Revision}, before)
	if err != nil {
		return probe.Pass(), what + ": " + probe.FirstLine(err.Error())
	}
	after, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err), ""
	}
	switch {
	case after.Page.URL == before.Page.URL:
		return probe.Pass(), "a stale revision after a change no call made: the snapshot's page.url did not follow the page's URL, so the probe could not change the model without a call"
	case after.Revision == before.Revision:
		return probe.Pass(), "a stale revision after a change no call made: the snapshot's page.url changed, its revision did not (envelope.revision judges that)"
	}
	if r.Code() != receipt.CodeStaleRevision || r.FailurePhase() != receipt.PhasePreflight {
		return probe.Failf("%s: want STALE_REVISION at phase preflight (the page model differs from revision %d's, as the next snapshot shows at revision %d: the runtime must observe the page when the call arrives), %s", what, before.Revision, after.Revision, report.Got(r)).
			With(report.ReceiptEvidence("receipt", r)), ""
	}
	return probe.Pass(), ""
}

// unknownHandle is a resume handle no page gave (the resume probes of
// checks/stages use others).
const unknownHandle = "rs_91a55c0de0000000"

// StaleUnknownResume resumes, over the bridge, a handle the page never
// gave with a revision the page is not at: a resume is a call, guarded
// before stage 1, where its handle is looked up, so it must fail
// STALE_REVISION, not ACTION_NOT_FOUND. why says what was not probed.
func StaleUnknownResume(p *probe.Probe) (probe.Outcome, string) {
	if p.Transport != glasstest.TransportBridge {
		return probe.Pass(), "a stale revision on a resume: probed over the bridge only"
	}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err), ""
	}
	defer pg.Close()
	snap, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err), ""
	}
	// Far ahead: a page whose model moves by itself does not reach it.
	r := pg.Resume(unknownHandle, receipt.ActionInfo{}, glasstest.ExpectedRevision(snap.Revision+1000))
	if r.Code() != receipt.CodeStaleRevision || r.FailurePhase() != receipt.PhasePreflight {
		return probe.Failf("a stale expected revision (%d, the page at %d) on a resume of a handle the page never gave (%s): want STALE_REVISION at phase preflight (the guard comes before stage 1, where the handle is looked up), %s",
			snap.Revision+1000, snap.Revision, unknownHandle, report.Got(r)).With(report.ReceiptEvidence("receipt", r)), ""
	}
	return probe.Pass(), ""
}
