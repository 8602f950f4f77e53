package hostlog

import (
	"errors"
	"fmt"
	"maps"

	"github.com/glassworks/glass/receipt"
)

// Verify checks the confirmations r reports against what the host was
// asked and answered for execution exec — the execution the host issued
// for the call that returned r, never merely the id r claims. It returns
// nil when they agree, and otherwise every disagreement joined:
//
//   - an approval without a ticket, with a ticket the host never issued, or
//     with a ticket issued for another execution or action (a runtime that
//     approved its own call);
//   - one ticket claimed twice;
//   - a confirmation the host answered for this execution that the receipt
//     does not report, or reports as the opposite answer.
//
// A ticket is good for one execution, one action and one claim.
func (l *Log) Verify(exec string, r *receipt.Receipt) error {
	l.mu.Lock()
	records := append([]receipt.ConfirmationRecord(nil), l.confirmations...)
	tickets := maps.Clone(l.tickets)
	l.mu.Unlock()

	var errs []error
	seen := map[string]bool{}
	for i, c := range r.Confirmations {
		where := fmt.Sprintf("receipt %s: confirmations[%d] (%s)", exec, i, c.Action)
		if !c.Approved {
			continue
		}
		if c.Ticket == "" {
			errs = append(errs, fmt.Errorf("%s: approved without a host ticket", where))
			continue
		}
		if seen[c.Ticket] {
			errs = append(errs, fmt.Errorf("%s: ticket %q claimed twice", where, c.Ticket))
			continue
		}
		seen[c.Ticket] = true
		idx, ok := tickets[c.Ticket]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: ticket %q was not issued by the host", where, c.Ticket))
			continue
		}
		rec := records[idx]
		// A flow's step reports the step's action; the request named the
		// flow and the step.
		if rec.Request.ExecutionID != exec || (rec.Request.Action != c.Action && rec.Request.Step != c.Action) {
			errs = append(errs, fmt.Errorf("%s: ticket %q was issued for %s of execution %s", where, c.Ticket, rec.Request.Action, rec.Request.ExecutionID))
		}
	}
	// Every solicited answer for this execution must be reported as given.
	denied := 0
	for _, rec := range records {
		if !rec.Solicited || rec.Request.ExecutionID != exec {
			continue
		}
		if !rec.Approved {
			denied++
		} else if !seen[rec.Ticket] {
			errs = append(errs, fmt.Errorf("receipt %s: the host approved %s (ticket %q) but the receipt does not report it", exec, rec.Request.Action, rec.Ticket))
		}
	}
	if reported := countDenied(r); reported < denied {
		errs = append(errs, fmt.Errorf("receipt %s: the host denied %d confirmation(s) but the receipt reports %d denial(s)", exec, denied, reported))
	}
	return errors.Join(errs...)
}

func countDenied(r *receipt.Receipt) int {
	n := 0
	for _, c := range r.Confirmations {
		if !c.Approved {
			n++
		}
	}
	return n
}
