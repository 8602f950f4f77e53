package receipt

// The bounds of the contract (CONTRACT.md, "Bounds"). The decoder and the
// JSON Schema enforce the ones that are about shape; the conformance rules
// check the rest (data, omission counts). A runtime may use smaller bounds.
const (
	// MaxChangedEntries is the most entries any one list of changed may
	// hold; the rest is counted in the matching omitted field.
	MaxChangedEntries = 20
	// MaxSnapshotItems is the most records and the most actions a snapshot
	// lists; the rest is counted in omitted.
	MaxSnapshotItems = 500
	// MaxAvailable is the most action ids an ACTION_NOT_FOUND failure lists.
	MaxAvailable = 50
	// MaxSnapshotViews is the most views a snapshot's state lists.
	MaxSnapshotViews = 50
	// MaxSnapshotFeedback is how many messages a snapshot's feedback
	// lists: the last ones.
	MaxSnapshotFeedback = 50
	// MaxTextChars is the most characters (Unicode code points) of a
	// failure's message, reason and path, of a warning, of expect and of a
	// feedback text in changed. Runtimes should stay near 200.
	MaxTextChars = 1000
	// MaxInteger is the largest revision, count or index: the largest
	// integer a JavaScript number holds exactly.
	MaxInteger = 1<<53 - 1

	// MaxDataEntries is the most values an array, or keys an object, of
	// result.data keeps before a marker says how many were left out.
	MaxDataEntries = 20
	// MaxDataDepth is the deepest nesting of result.data; deeper values are
	// replaced by a marker.
	MaxDataDepth = 4
	// MaxDataChars is the longest string of result.data before it is cut
	// with a marker.
	MaxDataChars = 500

	// MaxToolDescriptionChars is the longest description of a WebMCP tool:
	// the action's, bounded (CONTRACT.md §6.4).
	MaxToolDescriptionChars = 500
)

// MaxReceiptBytes is the Glass harness's bound on a whole receipt or
// snapshot, in bytes of its JSON text (CONTRACT.md: "the host's bound");
// a bigger answer is refused as RECEIPT_INVALID.
const MaxReceiptBytes = 4 << 20

// MaxReceiptDepth is the deepest nesting of objects and arrays the harness
// accepts in a receipt or snapshot (DecodeAnswer, CheckDepth). The
// contract's own bounds keep a receipt a handful of levels deep; a receipt
// nested thousands of levels is refused before it is decoded.
const MaxReceiptDepth = 64

// maxExecutionIDChars bounds an executionId in a decoded receipt.
const maxExecutionIDChars = 64

// ExecutionIDPattern is the form of an executionId: what a host may pass
// in options.executionId and what a runtime assigns.
const ExecutionIDPattern = `^[A-Za-z0-9_.:-]{1,64}$`
