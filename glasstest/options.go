package glasstest

import (
	"encoding/json"
	"maps"
	"time"
)

// DefaultTimeout bounds one call (Do, Resume, Snapshot) from the harness's
// side: past it the harness gives up with a CALL_TIMEOUT receipt, phase
// transport. It is longer than the runtime's own waits (a two-second
// expectation and a one-second settle) so a slow but healthy page is not cut
// off.
const DefaultTimeout = 10 * time.Second

// DefaultOpenTimeout bounds Open: navigation plus waiting for the runtime.
const DefaultOpenTimeout = 15 * time.Second

// An Option configures a page or one call: given to Open, it applies to
// every call of the page; given to Do or Resume, to that call, over the
// page's. Options that make sense only for a page (Trace, OpenTimeout, …)
// are PageOptions, and those only for a call (ExpectedRevision, …)
// CallOptions, so that one given in the wrong place does not compile.
type Option func(*settings)

// A PageOption configures a page: Open and OpenPage take them. Every
// Option is one.
type PageOption interface{ applyPage(*settings) }

// A CallOption configures one call: Do and Resume take them. Every Option
// is one.
type CallOption interface{ applyCall(*settings) }

func (o Option) applyPage(s *settings) { o(s) }
func (o Option) applyCall(s *settings) { o(s) }

// pageOnly is a PageOption that is no CallOption.
type pageOnly func(*settings)

func (o pageOnly) applyPage(s *settings) { o(s) }

// callOnly is a CallOption that is no PageOption.
type callOnly func(*settings)

func (o callOnly) applyCall(s *settings) { o(s) }

type settings struct {
	// Evidence: page options only (see artifacts.go).
	trace         bool
	artifactsDir  string
	keepArtifacts bool
	spec          bool // opened by Open: its spec's output says when Glass cancels the page's confirm()

	policy           policy
	timeout          time.Duration
	timeoutSet       bool
	openTimeout      time.Duration
	expectTimeout    time.Duration
	expectedRevision *int64
	secrets          map[string]string
	transport        Transport
	handoff          func(*Handoff) HandoffOutcome
	handoffTimeout   time.Duration
	retry            string
	noExecutionID    bool
	// noHandoff installs no hand-off channel (NoHandoffChannel).
	noHandoff bool
	// host, when set, replaces the reference host: only in a test build
	// of the conformance suite's host mutants (host.go).
	host *host
	// pool keeps the page for reuse (Reuse).
	pool *PagePool
}

func defaults() settings {
	return settings{
		policy:      policy{kind: policyDeny},
		timeout:     DefaultTimeout,
		openTimeout: DefaultOpenTimeout,
		transport:   TransportBridge,
	}
}

// forPage is s with a page's options applied.
func (s settings) forPage(opts []PageOption) settings {
	s.secrets = maps.Clone(s.secrets)
	for _, o := range opts {
		if o != nil {
			o.applyPage(&s)
		}
	}
	return s
}

// forCall is s, a page's settings, with one call's options applied.
func (s settings) forCall(opts []CallOption) settings {
	s.secrets = maps.Clone(s.secrets)
	for _, o := range opts {
		if o != nil {
			o.applyCall(&s)
		}
	}
	return s
}

// Transport is how the harness reaches the page runtime.
type Transport string

// The transports: the runtime's global through page.Evaluate (the default),
// or the WebMCP tool the runtime registered, through Playwright's
// WebMCP().CallTool.
const (
	TransportBridge Transport = "bridge"
	TransportWebMCP Transport = "webmcp"
)

// Via selects the transport. Default: TransportBridge.
func Via(t Transport) Option { return func(s *settings) { s.transport = t } }

// Timeout bounds each call from the harness's side. Default: DefaultTimeout,
// or, for a call with a longer ExpectTimeout, that timeout plus
// DefaultTimeout (see ExpectTimeout).
func Timeout(d time.Duration) Option {
	return func(s *settings) { s.timeout, s.timeoutSet = d, true }
}

// OpenTimeout bounds Open. Default: DefaultOpenTimeout.
func OpenTimeout(d time.Duration) PageOption {
	return pageOnly(func(s *settings) { s.openTimeout = d })
}

// ExpectTimeout overrides the expectation timeout the runtime uses (the
// contract's default is two seconds). Useful to make a spec about
// EXPECTATION_FAILED fast, or to give a slow page time. Unless Timeout is
// given too, the call's own bound grows with it, to d plus DefaultTimeout,
// so that an expectation that never holds ends the call
// EXPECTATION_FAILED, not CALL_TIMEOUT.
func ExpectTimeout(d time.Duration) Option { return func(s *settings) { s.expectTimeout = d } }

// callBound bounds a call (Do, Resume) from the harness's side: Timeout,
// or, when none was given and the expectation timeout leaves the runtime
// too little of the default, the expectation timeout plus DefaultTimeout.
func (s settings) callBound() time.Duration {
	if !s.timeoutSet && s.expectTimeout+DefaultTimeout > s.timeout {
		return s.expectTimeout + DefaultTimeout
	}
	return s.timeout
}

// ExpectedRevision makes the call fail with STALE_REVISION, phase preflight,
// when the page's revision is not rev (seed 004's guarded call).
func ExpectedRevision(rev int64) CallOption {
	return callOnly(func(s *settings) { s.expectedRevision = &rev })
}

// Sensitive registers a sensitive value. Arguments refer to it with the
// placeholder {"$sensitive": name} (see SensitiveRef); the runtime restores
// the value before validation and must never echo it.
func Sensitive(name, value string) Option {
	return func(s *settings) {
		if s.secrets == nil {
			s.secrets = map[string]string{}
		}
		s.secrets[name] = value
	}
}

// SensitiveRef is the argument placeholder for the sensitive value name.
func SensitiveRef(name string) map[string]string { return map[string]string{"$sensitive": name} }

type policyKind int

const (
	policyDeny policyKind = iota
	policyApprove
	policyNoChannel
	policyFunc
	policyFail
)

type policy struct {
	kind policyKind
	fn   func(ConfirmRequest) bool
	as   json.RawMessage // DenyAs's approved member
}

// WithoutExecutionID makes the call pass the runtime no executionId, so
// that the runtime assigns its own (CONTRACT.md §2.10): the conformance
// suite's probe of envelope.execution-id. Without an id of its own to
// bind them to, the host denies every confirmation and hand-off the call
// asks for, and cannot refuse a receipt of another execution. Default: the
// harness issues an id for every call.
func WithoutExecutionID() CallOption { return callOnly(func(s *settings) { s.noExecutionID = true }) }

// Approve answers every confirmation with yes.
func Approve() Option { return func(s *settings) { s.policy = policy{kind: policyApprove} } }

// Deny answers every confirmation with no. It is the default.
func Deny() Option { return func(s *settings) { s.policy = policy{kind: policyDeny} } }

// DenyAs answers every confirmation with {"approved": value}, which for
// any value but the boolean true is a malformed answer: the contract says
// a runtime takes it as a denial (policy.ticket), and so does the host, which
// issues no ticket. DenyAs("1") catches a runtime that tests approved for
// truth or with ==. A value that is true or does not encode is a Deny.
func DenyAs(value any) Option {
	raw, err := json.Marshal(value)
	if err != nil || string(raw) == "true" {
		raw = nil
	}
	return func(s *settings) { s.policy = policy{kind: policyDeny, as: raw} }
}

// NoConfirmationChannel installs no confirmation channel at all; the
// contract says the runtime must then deny. As a call option it makes the
// channel refuse to answer for that call.
func NoConfirmationChannel() Option {
	return func(s *settings) { s.policy = policy{kind: policyNoChannel} }
}

// ConfirmChannelFails makes the confirmation channel reject instead of
// answering: the contract says a runtime takes that as a denial.
func ConfirmChannelFails() Option { return func(s *settings) { s.policy = policy{kind: policyFail} } }

// ConfirmWith answers each confirmation with fn's verdict. A panic in fn —
// a failed Gomega assertion included, with no `defer GinkgoRecover()`
// needed — is a denial, and fails the spec when the call returns (the
// rule of every callback of the harness, HandoffWith's too).
func ConfirmWith(fn func(ConfirmRequest) bool) Option {
	return func(s *settings) { s.policy = policy{kind: policyFunc, fn: fn} }
}
