package hostlog

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID is prefix and 12 random hex digits: an execution id, a part of
// the host channel's key.
func NewID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// NewTicket is a fresh, unguessable ticket: "tk_" and 128 hex digits, 131
// characters (glasstest/confirm_test.go asserts it). Long on purpose, as a
// signed token may be: a runtime must copy the ticket unchanged
// (CONTRACT.md policy.ticket), and one that bounds the strings it got
// from outside cuts it.
func NewTicket() string {
	var b [64]byte
	_, _ = rand.Read(b[:])
	return "tk_" + hex.EncodeToString(b[:])
}
