// Package matchers is the Gomega vocabulary for Glass receipts. Each
// matcher reads like a row of the seed's evidence table and fails with a
// message that names the part of the receipt that differed.
//
//	r := page.Do("remove@t9", nil)
//	Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
//	Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11)), Actions(Removed("remove@t9"))))
//	Expect(r).To(MatchGoldenReceipt("remove-t9-approved")) // package matchers/golden
//
//	denied := page.Do("remove@t9", nil, glasstest.Deny())
//	Expect(denied).To(FailWith(receipt.CodePermissionDenied))
//	Expect(denied).To(SatisfyAll(FailAtPhase(receipt.PhasePolicy), HaveNotStarted()))
//
// The vocabulary, by the evidence it reads:
//
//   - ok and expect: BeOK, SatisfyExpectation.
//   - changed: HaveChanged with Records (Added, Removed, Updated,
//     Reordered, Total), Actions (Added, Removed), State, Feedback (Added,
//     Removed) and NothingChanged; BeBounded for the bounds and omission
//     counts of its lists.
//   - fidelity, warning, data: HaveFidelity, HaveWarning, HaveData.
//   - the step ledger and resume handle of a flow: HaveSteps (StepOK,
//     StepFailed, StepPending, StepSkipped), BeResumable.
//   - failure position and retry safety: FailAtPhase, FailWith,
//     HaveNotStarted, HaveStarted, HaveUnknownStart, HaveRecoveryStrategy,
//     OfferActions.
//   - the whole receipt: NeverContain (sensitive values). Golden files
//     have their own package, matchers/golden (MatchGoldenReceipt,
//     GoldenDir, GoldenJSON), for the reason under "Golden files and
//     flags".
//   - the page's declared capability surface against a reviewed
//     baseline: MatchSurface, which takes a page or a snapshot rather
//     than a receipt (docs/surface.md).
//   - what the runtime asked the user: HaveAskedConfirmation and
//     HaveAskedConfirmationFor, narrowed by Approved, Denied, WithMasked
//     and Times, which take a page (a Confirmer), its host's records or a
//     receipt.
//
// # Inputs and arguments
//
// Every matcher but MatchSurface accepts a receipt.Receipt, a
// *receipt.Receipt (what glasstest's Page.Do returns), a Receipter, or
// receipt JSON as []byte, string or json.RawMessage, decoded with
// receipt.Decode; the confirmation matchers take a page or its host's
// records (page.Confirmations()) too. Anything else is
// a matcher error that names the matcher and the type it got. Arguments
// that name ids, keys, texts, codes or phases take a plain value or a
// Gomega matcher; codes, phases, fidelity levels and recovery strategies
// outside the contract are matcher errors, so a typo cannot make an
// assertion that never holds.
//
// Those values are constants of package receipt, named after the
// contract's words: receipt.CodeActionNotFound, receipt.CodeInvalidParams,
// receipt.CodePermissionDenied and every other code of CONTRACT.md §3
// (Code plus the code in camel case); receipt.PhasePolicy,
// receipt.PhasePreflight, receipt.PhaseTargetResolution,
// receipt.PhaseDispatch, receipt.PhaseBrowserEffect,
// receipt.PhaseVerification and receipt.PhaseTransport; receipt.FidelityHigh,
// FidelityAuto and FidelityLow; receipt.RecoveryNone, RecoveryReport and
// RecoveryRetrySafe. go doc github.com/glassworks/glass/receipt lists them.
//
// # Messages
//
// Failure messages are built with Gomega's format package: the receipt is
// rendered compactly by its GomegaString, followed by what was expected
// and the path and value of the part that differed (for example
// changed.records.removed, error.started, result.steps). Positive and
// negated messages are written separately.
//
// # Eventually
//
// A receipt is the record of a finished call, so a matcher tells
// Eventually and Consistently (MatchMayChangeInTheFuture) that a receipt
// value, pointer or JSON can never change and polling stops at once. A
// Receipter may return a newer receipt on each call and is polled; so is a
// function, as always with Gomega.
//
// # Writing a receipt matcher elsewhere
//
// ReceiptFor gives a matcher outside this package the same inputs and the
// same errors, and MayChange the same answer to
// MatchMayChangeInTheFuture, as the matchers here.
//
// # Golden files and flags
//
// MatchGoldenReceipt lives in package matchers/golden, which imports goldie
// for its diff; goldie registers the flags -update, -template and -clean on
// the default flag set. This package imports neither, so a test package
// that registers its own -update flag can import it. The golden package's
// files are updated with GLASS_UPDATE_GOLDEN=1 or the -glass.update flag,
// never with -update. Both packages can be dot-imported together:
//
//	import (
//		. "github.com/glassworks/glass/matchers"
//		. "github.com/glassworks/glass/matchers/golden"
//	)
package matchers
