// Package params reads an action's declared params (a JSON Schema) to
// build the arguments the probes send: valid ones (ExampleArgs,
// Schema.Synthesize) and deliberately invalid ones (a wrong type, a value
// outside an enum).
package params
