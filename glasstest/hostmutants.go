//go:build glasshostfaults

package glasstest

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

// BreakHost returns an option that makes the pages it opens break one of
// the host's guarantees: the host mutant called name (fixtures/mutants,
// Host). The conformance suite's mutation matrix proves each host check
// with one. It exists only in a build with -tags glasshostfaults.
func BreakHost(name string) (Option, error) {
	h := reference
	switch name {
	case "host-fold-first-row":
		// Any record runs the tool's first row.
		h.foldRow = func(snap *receipt.Snapshot, tool, _ string, args map[string]json.RawMessage) (string, string, bool) {
			for _, a := range snap.Actions.Items {
				if a.Tool == tool && a.Record != "" {
					return foldRow(snap, tool, a.Record, args)
				}
			}
			return "", "", false
		}
	case "host-fold-args-dropped":
		// The row action runs, without the call's other arguments.
		h.foldRow = func(snap *receipt.Snapshot, tool, record string, _ map[string]json.RawMessage) (string, string, bool) {
			return foldRow(snap, tool, record, map[string]json.RawMessage{})
		}
	case "host-channels-late":
		// glassHost arrives after the page's scripts ran.
		h.beforeScripts = func(*Page) error { return nil }
		h.afterLoad = func(p *Page) error {
			_, err := p.evaluate(p.settings.openTimeout, p.hostScript(), nil)
			return err
		}
	case "host-approves-forged":
		// A request for an execution the host has not in flight is put to
		// the policy of any call that is.
		h.bind = func(p *Page, req ConfirmRequest, raw bool) *pendingCall {
			if call := bindConfirmation(p, req, raw); call != nil || raw {
				return call
			}
			for _, c := range p.pending {
				return c
			}
			return nil
		}
	case "host-throw-as-transport":
		h.failure = func(p *Page, f callFailure) *receipt.Receipt {
			if m, ok := pagejs.AsMarker(f.v); ok && f.err == nil && (m.Glass == "threw" || m.Glass == "rejected") {
				return harnessReceipt(f.id, f.execID, receipt.CodeTransportFailed, m.Text())
			}
			return failureReceipt(p, f)
		}
	case "host-timeout-as-execution":
		h.failure = func(p *Page, f callFailure) *receipt.Receipt {
			if errors.Is(f.err, ErrCallTimeout) {
				return harnessReceipt(f.id, f.execID, receipt.CodeExecutionFailed, "the handler did not finish")
			}
			return failureReceipt(p, f)
		}
	case "host-fate-ignored":
		// A crash, a close and a navigation are any failed evaluation.
		h.failure = func(p *Page, f callFailure) *receipt.Receipt {
			if f.err != nil {
				return harnessReceipt(f.id, f.execID, receipt.CodeTransportFailed, "evaluate in the page: "+pagejs.FirstLine(f.err.Error()))
			}
			return failureReceipt(p, f)
		}
	default:
		return nil, fmt.Errorf("glasstest: no host mutant %q", name)
	}
	return func(s *settings) { s.host = &h }, nil
}
