package glasstest

import (
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// MaxReceiptDepth is the deepest nesting of objects and arrays the harness
// accepts in a receipt or snapshot (receipt.MaxReceiptDepth).
const MaxReceiptDepth = receipt.MaxReceiptDepth

// validateSnapshot checks a snapshot's JSON against the published JSON
// Schema of the contract (package schema).
var validateSnapshot = schema.ValidateSnapshot
