package glasstest

import "github.com/glassworks/glass/receipt"

// Actions returns the actions the page declares as available now, from a
// fresh snapshot, in snapshot order. A failure to read the snapshot fails
// the spec (for a page opened with Open) and returns nil.
//
//	Expect(page.Actions()).To(ContainElement(HaveField("ID", "remove@t9")))
func (p *Page) Actions() []receipt.ActionInfo {
	as, err := p.TryActions()
	if err != nil {
		p.fail(err)
		return nil
	}
	return as
}

// TryActions is Actions' error-returning form.
func (p *Page) TryActions() ([]receipt.ActionInfo, error) {
	s, err := p.trySnapshot(p.settings.timeout)
	if err != nil {
		return nil, err
	}
	var out []receipt.ActionInfo
	for _, a := range s.Actions.Items {
		if a.Available {
			out = append(out, a)
		}
	}
	return out, nil
}

// Snapshots returns every snapshot this page read, in order: the spec's
// own and those the harness took (to fold a row call, to list the
// available actions of an ACTION_NOT_FOUND receipt).
func (p *Page) Snapshots() []*receipt.Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*receipt.Snapshot(nil), p.snapshots...)
}
