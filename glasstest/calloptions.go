package glasstest

// callOptions is the options object the harness passes to the runtime's
// execute and resume (or, over WebMCP, in the reserved `$glass` input
// property): the call's execution id and what the settings ask for.
func callOptions(execID string, s settings) map[string]any {
	options := map[string]any{}
	if !s.noExecutionID {
		options["executionId"] = execID
	}
	if s.expectedRevision != nil {
		options["expectedRevision"] = *s.expectedRevision
	}
	if len(s.secrets) > 0 {
		// playwright-go serialises map[string]any only (a map[string]string
		// makes it panic), so the secrets are copied into one.
		secrets := make(map[string]any, len(s.secrets))
		for k, v := range s.secrets {
			secrets[k] = v
		}
		options["secrets"] = secrets
	}
	if s.expectTimeout > 0 {
		options["expectTimeoutMs"] = s.expectTimeout.Milliseconds()
	}
	if s.handoffTimeout > 0 {
		options["handoffTimeoutMs"] = s.handoffTimeout.Milliseconds()
	}
	if s.retry != "" {
		options["retry"] = s.retry
	}
	return options
}

// SafeRetry selects seed 004's explicit safe-retry policy for a call: a
// failure that provably did not start, of an action the page declares
// idempotent, then carries recoveryStrategy retry_safe. The harness itself
// never retries. Default: no retry policy (strategies none and report only).
func SafeRetry() Option { return func(s *settings) { s.retry = "safe" } }
