// Package schema publishes the JSON Schemas (draft 2020-12) of the Glass
// contract — receipt.schema.json and snapshot.schema.json, in this folder —
// and of the capability surface files Glass writes (surface.schema.json)
// and the capability coverage glasstest writes (coverage.schema.json),
// and validates documents against them.
//
// The schemas check shape: types, required fields, enums, bounds, and the
// consistency of ok with error. Behaviour (that a denied call left the page
// untouched, that a phase matches its code) is for the conformance rules
// of CONTRACT.md. receipt.Decode enforces the same shape as the schemas;
// the schema is what a runtime written in another language checks its
// output against.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/glassworks/glass/receipt"
)

// The published documents, byte for byte as they are in the repository.
var (
	//go:embed receipt.schema.json
	ReceiptJSON []byte
	//go:embed snapshot.schema.json
	SnapshotJSON []byte
	//go:embed surface.schema.json
	SurfaceJSON []byte
	//go:embed coverage.schema.json
	CoverageJSON []byte
)

// The $id of each schema.
const (
	ReceiptID  = "https://github.com/glassworks/glass/schema/receipt.schema.json"
	SnapshotID = "https://github.com/glassworks/glass/schema/snapshot.schema.json"
	SurfaceID  = "https://github.com/glassworks/glass/schema/surface.schema.json"
	CoverageID = "https://github.com/glassworks/glass/schema/coverage.schema.json"
)

// Error is the error a Validate function returns for a document that does
// not validate. errors.Is(err, receipt.ErrInvalid) holds for it, as it does
// for the decoder's errors.
type Error struct {
	// Schema is the file name of the schema: receipt.schema.json,
	// snapshot.schema.json, surface.schema.json or coverage.schema.json.
	Schema string
	// Problems lists every violation, sorted by path, with the JSONPath of
	// the offending value ("$.result.error.code").
	Problems receipt.Problems
}

// printer renders the messages of errors this package does not rephrase.
var printer = message.NewPrinter(language.English)

func (e *Error) Error() string {
	return "schema: " + e.Schema + ": " + e.Problems.String()
}

// Is makes errors.Is(err, receipt.ErrInvalid) hold.
func (e *Error) Is(target error) bool { return target == receipt.ErrInvalid }

// ValidateReceipt validates one receipt, in the canonical or the flat form,
// against receipt.schema.json.
func ValidateReceipt(b []byte) error { return validate(receiptSchema, b) }

// ValidateSnapshot validates one snapshot against snapshot.schema.json.
func ValidateSnapshot(b []byte) error { return validate(snapshotSchema, b) }

// ValidateSurface validates one capability surface file (package surface)
// against surface.schema.json.
func ValidateSurface(b []byte) error { return validate(surfaceSchema, b) }

// ValidateCoverage validates a glass-coverage.json against
// coverage.schema.json.
func ValidateCoverage(b []byte) error { return validate(coverageSchema, b) }

type compiled struct {
	name   string
	id     string
	source []byte
	once   sync.Once
	doc    any
	schema *jsonschema.Schema
	err    error
}

var (
	receiptSchema  = &compiled{name: "receipt.schema.json", id: ReceiptID, source: ReceiptJSON}
	snapshotSchema = &compiled{name: "snapshot.schema.json", id: SnapshotID, source: SnapshotJSON}
	surfaceSchema  = &compiled{name: "surface.schema.json", id: SurfaceID, source: SurfaceJSON}
	coverageSchema = &compiled{name: "coverage.schema.json", id: CoverageID, source: CoverageJSON}
)

func (c *compiled) load() error {
	c.once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.source))
		if err != nil {
			c.err = fmt.Errorf("schema: %s: %w", c.name, err)
			return
		}
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft2020)
		if err := comp.AddResource(c.id, doc); err != nil {
			c.err = fmt.Errorf("schema: %s: %w", c.name, err)
			return
		}
		c.doc = doc
		c.schema, c.err = comp.Compile(c.id)
		if c.err != nil {
			c.err = fmt.Errorf("schema: %s: %w", c.name, c.err)
		}
	})
	return c.err
}

func validate(c *compiled, b []byte) error {
	if err := c.load(); err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.TrimSpace(b)))
	if err != nil {
		return &Error{Schema: c.name, Problems: []receipt.Problem{{Path: "$", Message: "not valid JSON: " + err.Error()}}}
	}
	err = c.schema.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("schema: %s: %w", c.name, err)
	}
	var problems []receipt.Problem
	c.leaves(ve, inst, &problems)
	slices.SortStableFunc(problems, func(a, b receipt.Problem) int { return strings.Compare(a.Path, b.Path) })
	problems = slices.Compact(problems)
	return &Error{Schema: c.name, Problems: problems}
}

// leaves collects the innermost errors: the ones that say what is wrong
// where, rather than which branch of the schema noticed it.
func (c *compiled) leaves(e *jsonschema.ValidationError, inst any, out *[]receipt.Problem) {
	if len(e.Causes) > 0 {
		for _, cause := range e.Causes {
			c.leaves(cause, inst, out)
		}
		return
	}
	path := jsonPath(inst, e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, receipt.Problem{Path: appendKey(path, m), Message: "missing"})
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			*out = append(*out, receipt.Problem{Path: appendKey(path, m), Message: "missing beside " + k.Prop})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = append(*out, receipt.Problem{Path: appendKey(path, p), Message: "unknown field"})
		}
	default:
		*out = append(*out, receipt.Problem{Path: path, Message: c.message(e)})
	}
}

func (c *compiled) message(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return fmt.Sprintf("want %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		if len(k.Want) > 8 {
			return fmt.Sprintf("want one of the %d values the schema lists, got %s", len(k.Want), show(k.Got))
		}
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = show(w)
		}
		return fmt.Sprintf("want one of %s, got %s", strings.Join(want, ", "), show(k.Got))
	case *kind.Const:
		return fmt.Sprintf("want %s, got %s", show(k.Want), show(k.Got))
	case *kind.MinLength:
		return fmt.Sprintf("want at least %d character, got %d", k.Want, k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("want at most %d characters, got %d", k.Want, k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("want at most %d entries, got %d", k.Want, k.Got)
	case *kind.Minimum:
		return fmt.Sprintf("want at least %s, got %s", k.Want.RatString(), ratText(k.Got))
	case *kind.Maximum:
		return fmt.Sprintf("want at most %s, got %s", k.Want.RatString(), ratText(k.Got))
	case *kind.FalseSchema:
		return c.forbidden(e.SchemaURL)
	}
	return e.ErrorKind.LocalizedString(printer)
}

// forbidden explains a property the schema sets to false: the "then" that
// forbids it says why in its $comment.
func (c *compiled) forbidden(schemaURL string) string {
	_, frag, _ := strings.Cut(schemaURL, "#")
	tokens := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	// …/then/properties/<name>: the comment sits on "then".
	if n := len(tokens); n >= 3 && tokens[n-2] == "properties" {
		if then, ok := lookup(c.doc, tokens[:n-2]).(map[string]any); ok {
			if s, ok := then["$comment"].(string); ok {
				return s
			}
		}
	}
	return "not allowed here"
}

func lookup(doc any, tokens []string) any {
	for _, t := range tokens {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		switch v := doc.(type) {
		case map[string]any:
			doc = v[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}

func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(3)
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 60
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// jsonPath turns an instance location into the JSONPath the decoder uses:
// $.result.changed.records.removed[0].
func jsonPath(inst any, tokens []string) string {
	path := "$"
	for _, t := range tokens {
		if arr, ok := inst.([]any); ok {
			path += "[" + t + "]"
			if i, err := strconv.Atoi(t); err == nil && i >= 0 && i < len(arr) {
				inst = arr[i]
			} else {
				inst = nil
			}
			continue
		}
		path = appendKey(path, t)
		if m, ok := inst.(map[string]any); ok {
			inst = m[t]
		} else {
			inst = nil
		}
	}
	return path
}

func appendKey(path, key string) string {
	if isIdentifier(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
