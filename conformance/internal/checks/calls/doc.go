// Package calls holds the checks built on the calls the probes make:
// refusals (calls a conforming runtime refuses before stage 6, made between
// two witnesses of the page), the exercise's successful calls and what
// their receipts claim, and the audits
// that judge every receipt of the run.
package calls
