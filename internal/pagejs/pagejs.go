// Package pagejs holds the scripts the harness runs in the page under
// test, and reads what they answer when the page side went wrong.
package pagejs

import (
	"crypto/hmac"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/glassworks/glass/receipt"
)

// Binding is the name of the host channel's binding, the one the host
// script calls.
const Binding = "__glassHostCall"

// hostScript installs the host channels before any page script runs. The
// property is neither writable nor configurable, so a page script cannot
// swap the channel for its own; an answer also carries a ticket that only
// the host can issue. Every message is signed with a per-page key kept in
// this closure (HMAC-SHA256, computed with what the script took before
// any page script ran), so a page script that calls the raw binding
// instead of glassHost is recognised (and never approved). The key never
// leaves the closure: Playwright's binding layer passes each message
// through the page's own JSON.stringify, so a page script may read a
// message, but it cannot sign one of its own, and the host accepts each
// signature once (Channel).
// runtimeReplaced pins the runtime global the first time the harness looks
// at it and afterwards tells whether a page script has swapped it.
//
// js/host.js is the script; GLASS_KEY, GLASS_WITH_CONFIRM and GLASS_WITH_HANDOFF are filled
// in for each page (HostScript), and it calls the binding by the name
// Binding gives it.
//
//go:embed js/host.js
var hostScript string

// HostScript is the host script of a page whose messages are signed with
// key (see Channel), with or without the confirmation channel and the
// hand-off channel.
func HostScript(key string, withConfirm, withHandoff bool) string {
	return strings.NewReplacer("GLASS_KEY", strconv.Quote(key), "GLASS_WITH_CONFIRM", strconv.FormatBool(withConfirm),
		"GLASS_WITH_HANDOFF", strconv.FormatBool(withHandoff)).Replace(hostScript)
}

// HostMessage is a message of the host script on the binding: a
// confirmation or hand-off request, signed.
type HostMessage struct {
	Type    string          `json:"type"`
	Request json.RawMessage `json:"request"`
	// Doc names the document the host script runs in, Seq numbers its
	// messages, MAC signs Doc, Seq, Type and Request.
	Doc string `json:"doc"`
	Seq int64  `json:"seq"`
	MAC string `json:"mac"`
}

// MaxHostMessages is how many signed messages a page's Channel accepts:
// more than the host records (512 confirmation and 512 hand-off
// requests), so that the record, not the channel, says it is full.
const MaxHostMessages = 4096

// Channel tells the host script's messages on one page from a page
// script's: a message is the host script's when it is signed with the
// page's key and its signature was not accepted before. Safe for
// concurrent use.
type Channel struct {
	mu   sync.Mutex
	seen map[string]bool
}

// Accept reports whether m is the host script's, signed with key; each
// signature is accepted once.
func (c *Channel) Accept(m HostMessage, key string) bool {
	if m.Doc == "" || m.Seq <= 0 || len(m.MAC) != 64 {
		return false
	}
	h := hmac.New(sha256.New, []byte(key))
	text := m.Doc + "\n" + strconv.FormatInt(m.Seq, 10) + "\n" + m.Type + "\n" + string(m.Request)
	var b [2]byte
	for _, u := range utf16.Encode([]rune(text)) {
		binary.BigEndian.PutUint16(b[:], u)
		h.Write(b[:])
	}
	want := hex.EncodeToString(h.Sum(nil))
	if !hmac.Equal([]byte(want), []byte(m.MAC)) {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen[m.MAC] || len(c.seen) >= MaxHostMessages {
		return false
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[m.MAC] = true
	return true
}

// ConfirmAnswer is the host's answer to a confirmation request.
type ConfirmAnswer struct {
	Approved bool   `json:"approved"`
	Ticket   string `json:"ticket,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Fail makes the page's confirmation channel reject instead of
	// answering (glasstest.ConfirmChannelFails).
	Fail bool `json:"fail,omitempty"`
	// As, set on a denial, is the JSON sent as its approved member
	// instead of false: a malformed answer, which the contract says is a
	// denial too (glasstest.DenyAs).
	As json.RawMessage `json:"-"`
}

// MarshalJSON writes the answer, a denial's approved member as As when set.
func (a ConfirmAnswer) MarshalJSON() ([]byte, error) {
	type plain ConfirmAnswer
	if a.Approved || len(a.As) == 0 {
		return json.Marshal(plain(a))
	}
	return json.Marshal(struct {
		Approved json.RawMessage `json:"approved"`
		Reason   string          `json:"reason,omitempty"`
	}{a.As, a.Reason})
}

// Bridge calls execute (or resume) on the runtime's global and returns
// the receipt as JSON text, or a {"$glass": …} marker naming what went
// wrong on the page side. A synchronous throw and an asynchronous
// rejection are told apart, and nothing the page hands back (a getter, an
// error whose toString throws) can make the script itself fail.
//
//go:embed js/bridge.js
var Bridge string

// Snapshot reads the runtime's snapshot as JSON text, or a {"$glass": …}
// marker, as Bridge does.
//
//go:embed js/snapshot.js
var Snapshot string

// Ready waits for the runtime and pins it (see hostScript).
//
//go:embed js/ready.js
var Ready string

// Marker is what the bridge script returns instead of a receipt when the
// page side went wrong. It arrives as an object while a receipt always
// arrives as text, so a runtime cannot pass one off as the other.
type Marker struct {
	Glass   string
	Got     string
	Message string
	Size    int
}

// AsMarker reads v as a marker.
func AsMarker(v any) (Marker, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Marker{}, false
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	var size int
	switch n := m["size"].(type) {
	case int:
		size = n
	case int64:
		size = int(n)
	case float64:
		size = int(n)
	}
	// The page bounds these texts with built-ins it can replace: bound
	// them again here.
	clip := receipt.Clip
	return Marker{Glass: clip(str("$glass"), 40), Got: clip(str("got"), 80), Message: clip(str("message"), receipt.MaxTextChars), Size: size}, str("$glass") != ""
}

// Text says what went wrong, in a line for a receipt's message.
func (m Marker) Text() string {
	switch m.Glass {
	case "missing":
		return "the page has no Glass runtime (globalThis.glassRuntime)"
	case "protocol":
		return fmt.Sprintf("the page runtime speaks %q, want %q", m.Got, receipt.Protocol)
	case "threw":
		return "the runtime threw synchronously: " + m.Message
	case "rejected":
		return "the runtime's promise rejected: " + m.Message
	case "snapshotfailed":
		return "the runtime's snapshot failed: " + m.Message
	case "replaced":
		return "the runtime global (globalThis.glassRuntime) was replaced after the page loaded"
	case "inspect":
		return "the runtime global cannot be inspected: " + m.Message
	case "unserializable":
		return "the runtime's answer cannot be serialised to JSON: " + m.Message
	case "empty":
		return "the runtime answered with nothing (undefined)"
	case "toolarge":
		return fmt.Sprintf("the answer is %d bytes, over the %d-byte bound (MaxReceiptBytes)", m.Size, receipt.MaxReceiptBytes)
	}
	return "the runtime returned nothing usable: " + m.Glass
}

// printableError is an error whose text carries page-provided text (a
// message the runtime threw, a Playwright error quoting the page), shown
// as receipt.PrintableText shows it so that printing the error cannot
// recolour or rewrite a terminal; errors.Is and errors.As still reach the
// cause.
type printableError struct {
	err  error
	text string
}

func (e *printableError) Error() string { return e.text }
func (e *printableError) Unwrap() error { return e.err }

// Printable is err, shown as receipt.PrintableText shows its text.
func Printable(err error) error {
	if err == nil {
		return nil
	}
	s := err.Error()
	if t := receipt.PrintableText(s); t != s {
		return &printableError{err: err, text: t}
	}
	return err
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
