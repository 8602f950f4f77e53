package hostlog

import (
	"encoding/json"
	"fmt"

	"github.com/glassworks/glass/receipt"
)

// maxRecordedArgs bounds, in bytes of JSON, the arguments a record keeps;
// maxIDChars bounds an execution id the page sent.
const (
	maxRecordedArgs = 16 << 10
	maxIDChars      = 80
)

// BoundConfirmRequest keeps what the host records of a request small: the
// page chooses its texts and arguments, and may send megabytes.
func BoundConfirmRequest(req receipt.ConfirmRequest) receipt.ConfirmRequest {
	req.ExecutionID = receipt.Clip(req.ExecutionID, maxIDChars)
	req.Action = receipt.Clip(req.Action, receipt.MaxTextChars)
	req.Step = receipt.Clip(req.Step, receipt.MaxTextChars)
	req.Description = receipt.Clip(req.Description, receipt.MaxTextChars)
	req.Args = boundArgs(req.Args)
	return req
}

// BoundHandoffRequest is BoundConfirmRequest for a hand-off request.
func BoundHandoffRequest(req receipt.HandoffRequest) receipt.HandoffRequest {
	req.ExecutionID = receipt.Clip(req.ExecutionID, maxIDChars)
	req.Action = receipt.Clip(req.Action, receipt.MaxTextChars)
	req.Description = receipt.Clip(req.Description, receipt.MaxTextChars)
	req.Instructions = receipt.Clip(req.Instructions, receipt.MaxTextChars)
	req.Args = boundArgs(req.Args)
	return req
}

func boundArgs(args map[string]any) map[string]any {
	if b, err := json.Marshal(args); err == nil && len(b) > maxRecordedArgs {
		return map[string]any{"[omitted]": fmt.Sprintf("arguments of %d bytes", len(b))}
	}
	return args
}
