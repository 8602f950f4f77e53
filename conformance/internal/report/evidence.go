package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// ReceiptEvidence is the receipt as evidence, in canonical JSON.
func ReceiptEvidence(label string, r *receipt.Receipt) Evidence {
	if r == nil {
		return Evidence{Label: label, Text: "<no receipt>"}
	}
	b, err := receipt.CanonicalJSON(r)
	if err != nil {
		return Evidence{Label: label, Text: r.GomegaString()}
	}
	return Evidence{Label: label, Text: Clip(strings.TrimSpace(string(b)), MaxEvidenceBytes)}
}

// SnapshotEvidence is a snapshot as evidence, bounded.
func SnapshotEvidence(label string, s *receipt.Snapshot) Evidence {
	b, err := receipt.CanonicalJSON(s)
	if err != nil {
		return Evidence{Label: label, Text: err.Error()}
	}
	return Evidence{Label: label, Text: Clip(strings.TrimSpace(string(b)), MaxEvidenceBytes)}
}

// TextEvidence is lines of text as evidence, bounded.
func TextEvidence(label string, lines ...string) Evidence {
	return Evidence{Label: label, Text: Clip(strings.Join(lines, "\n"), MaxEvidenceBytes)}
}

// Got describes how r ended, for "want X, got Y" sentences.
func Got(r *receipt.Receipt) string {
	if r == nil {
		return "no receipt"
	}
	if r.Result.OK {
		return "it succeeded"
	}
	if r.Code() == receipt.CodeActionNotFound {
		// Where a check wanted something else, the id was declared when
		// it planned the call: the common cause is a store the page's
		// loads share, another page's call having removed the record.
		return fmt.Sprintf("it failed with %s at phase %s (if the page's loads share one store, another page's calls may have removed what this one called: docs/runtime.md, \"Seeding data for tests\")", r.Code(), r.FailurePhase())
	}
	return fmt.Sprintf("it failed with %s at phase %s", r.Code(), r.FailurePhase())
}

// OutcomeCode is how r ended: "ok" or its failure code.
func OutcomeCode(r *receipt.Receipt) string {
	if r.Result.OK {
		return "ok"
	}
	return string(r.Code())
}

// ConfirmationEvidence is the confirmation requests a call made, as
// evidence.
func ConfirmationEvidence(cs []glasstest.ConfirmationRecord) Evidence {
	var lines []string
	for _, c := range cs {
		b, _ := json.Marshal(c.Request)
		lines = append(lines, fmt.Sprintf("approved=%t solicited=%t request=%s", c.Approved, c.Solicited, b))
	}
	return TextEvidence("confirmations the host was asked for", lines...)
}
