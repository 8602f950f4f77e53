package tutorial

import (
	"github.com/glassworks/glass/conformance"
)

// Step 7: the contract's own rules, as specs of this suite (here only the
// policy rules, to keep the tutorial quick; without WithRules, all of them).
var _ = conformance.Register(func() conformance.Target {
	return conformance.Target{URL: appURL + "/"}
}, conformance.WithRules("policy.*"))
