// Package expectwait holds the check of how long a runtime polls an
// expectation before it reports EXPECTATION_FAILED
// (verify.default-timeout): with the host's options.expectTimeoutMs, long
// and short, and without it, against the timeout the manifest says the
// expectation declares.
package expectwait
