// Package hostlog is the host's record of what a page asked it over the
// host channel (CONTRACT.md §6.5): every confirmation request and how it
// was answered, the tickets of its approvals, and every hand-off request;
// and the messages of the page's own confirm() dialogs the host cancelled.
// It masks the sensitive values a request carries, bounds what it keeps
// of the page's texts, and checks a receipt's confirmations against the
// record. The harness (glasstest) owns the calls in flight and the spec's
// policies; this package holds no Playwright and no Ginkgo.
package hostlog

import (
	"sync"

	"github.com/glassworks/glass/receipt"
)

// MaxRecords bounds how many confirmation requests, how many hand-off
// requests and how many cancelled dialogs the host records for one page: a page that floods the host is
// refused once the record is full, so nothing it sends grows the host's
// memory without bound.
const MaxRecords = 512

// Log is one page's record. Its methods are safe for concurrent use: the
// page's bindings run on goroutines of their own.
type Log struct {
	mu            sync.Mutex
	confirmations []receipt.ConfirmationRecord
	// tickets maps an approval's ticket to its index in confirmations.
	tickets  map[string]int
	handoffs []receipt.HandoffRecord
	// cancelled holds the messages of the page's own confirm() dialogs the
	// host cancelled (AddCancelled).
	cancelled []string
}

// ConfirmationsFull reports whether the log holds MaxRecords confirmation
// requests already.
func (l *Log) ConfirmationsFull() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.confirmations) >= MaxRecords
}

// HandoffsFull reports whether the log holds MaxRecords hand-off requests
// already.
func (l *Log) HandoffsFull() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.handoffs) >= MaxRecords
}

// AddConfirmation records one answered confirmation request, its request
// bounded (BoundConfirmRequest), and its ticket when it was approved. It
// reports false, recording nothing, when the log is full (requests racing
// past ConfirmationsFull): the caller must then not hand out the ticket,
// which no record would back.
func (l *Log) AddConfirmation(rec receipt.ConfirmationRecord) bool {
	rec.Request = BoundConfirmRequest(rec.Request)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.confirmations) >= MaxRecords {
		return false
	}
	l.confirmations = append(l.confirmations, rec)
	if rec.Ticket != "" {
		if l.tickets == nil {
			l.tickets = map[string]int{}
		}
		l.tickets[rec.Ticket] = len(l.confirmations) - 1
	}
	return true
}

// AddHandoff records one answered hand-off request, its request bounded;
// a full log keeps MaxRecords.
func (l *Log) AddHandoff(rec receipt.HandoffRecord) {
	rec.Request = BoundHandoffRequest(rec.Request)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.handoffs) >= MaxRecords {
		return
	}
	l.handoffs = append(l.handoffs, rec)
}

// Confirmations returns a copy of every confirmation record, in order.
func (l *Log) Confirmations() []receipt.ConfirmationRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]receipt.ConfirmationRecord(nil), l.confirmations...)
}

// Handoffs returns a copy of every hand-off record, in order.
func (l *Log) Handoffs() []receipt.HandoffRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]receipt.HandoffRecord(nil), l.handoffs...)
}

// AddCancelled records the message of a confirm() dialog of the page's own
// that the host cancelled, cut to MaxCancelledBytes; a full log keeps
// MaxRecords.
func (l *Log) AddCancelled(message string) {
	message = receipt.Clip(message, MaxCancelledBytes)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.cancelled) < MaxRecords {
		l.cancelled = append(l.cancelled, message)
	}
}

// MaxCancelledBytes bounds each message AddCancelled keeps.
const MaxCancelledBytes = 200

// Cancelled returns a copy of the messages AddCancelled recorded, in order.
func (l *Log) Cancelled() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.cancelled...)
}
