package receipt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrInvalid is wrapped by every decoding error, so callers can tell a
// receipt of the wrong shape from other failures with errors.Is.
var ErrInvalid = errors.New("invalid receipt")

// Problem is one way a document breaks the shape of the contract.
type Problem struct {
	// Path is the JSONPath of the offending value: "$" for the document,
	// "$.result.changed.records.removed[0]" for a list entry.
	Path string
	// Message says what is wrong, as "want X, got Y" where it can.
	Message string
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// Problems is a list of problems, printed as "path: message; …" with at
// most ten listed, so one broken document gives one readable line.
type Problems []Problem

const maxListedProblems = 10

func (ps Problems) String() string {
	var b strings.Builder
	for i, p := range ps {
		if i == maxListedProblems {
			fmt.Fprintf(&b, "; and %d more", len(ps)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// InvalidError is the error Decode and DecodeSnapshot return for a document
// of the wrong shape. errors.Is(err, ErrInvalid) holds for it.
type InvalidError struct {
	// Document is "receipt" or "snapshot".
	Document string
	// Problems lists what is wrong, in document order.
	Problems Problems
}

func (e *InvalidError) Error() string {
	return "invalid " + e.Document + ": " + e.Problems.String()
}

// Is makes errors.Is(err, ErrInvalid) true for every decoding error.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// Decode parses one receipt. It accepts the canonical nested form and seed
// 004's flat form (CONTRACT.md, "Two wire forms"), rejects JSON of any other
// shape with an *InvalidError naming the path of every offending value, and
// keeps unknown top-level and result fields in Extra.
func Decode(b []byte) (*Receipt, error) {
	d := &decoder{doc: "receipt"}
	top := d.root(b)
	if top == nil {
		return nil, d.err()
	}
	var r *Receipt
	if isFlat(top.m) {
		r = d.flat(top)
	} else {
		r = d.canonical(top)
	}
	if len(d.problems) > 0 {
		return nil, d.err()
	}
	return r, nil
}

// isFlat tells seed 004's flat form from the canonical one: it has no
// result, and it has the flat form's status or kind.
func isFlat(m map[string]json.RawMessage) bool {
	_, result := m["result"]
	_, status := m["status"]
	_, kind := m["kind"]
	return !result && (status || kind)
}

// DecodeSnapshot parses one snapshot, rejecting JSON of the wrong shape
// with an *InvalidError naming the path of every offending value, and keeps
// unknown top-level fields in Extra.
func DecodeSnapshot(b []byte) (*Snapshot, error) {
	d := &decoder{doc: "snapshot"}
	top := d.root(b)
	if top == nil {
		return nil, d.err()
	}
	s := d.snapshot(top)
	if len(d.problems) > 0 {
		return nil, d.err()
	}
	return s, nil
}

// UnmarshalJSON decodes a receipt with Decode's checks, so json.Unmarshal
// is as strict as Decode and keeps extension fields too.
func (r *Receipt) UnmarshalJSON(b []byte) error {
	got, err := Decode(b)
	if err != nil {
		return err
	}
	*r = *got
	return nil
}

// UnmarshalJSON decodes a snapshot with DecodeSnapshot's checks.
func (s *Snapshot) UnmarshalJSON(b []byte) error {
	got, err := DecodeSnapshot(b)
	if err != nil {
		return err
	}
	*s = *got
	return nil
}

// ---- the walker

// decoder walks a document one level at a time over json.RawMessage, so
// that every value is checked where it sits and unknown fields keep their
// exact bytes. encoding/json alone would match field names without regard
// to case and report a type error without the index of the list entry.
type decoder struct {
	doc      string
	problems []Problem
}

func (d *decoder) fail(path, format string, args ...any) {
	d.problems = append(d.problems, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (d *decoder) err() error {
	return &InvalidError{Document: d.doc, Problems: d.problems}
}

func (d *decoder) root(b []byte) *object {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		d.fail("$", "empty input, want a JSON object")
		return nil
	}
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			d.fail("$", "not valid JSON: %s (at byte %d)", se.Error(), se.Offset)
		} else {
			d.fail("$", "not valid JSON: %v", err)
		}
		return nil
	}
	return d.object("$", b)
}

// jsonType names the type of a JSON value the way JSON Schema does.
func jsonType(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func (d *decoder) typeIs(path string, raw json.RawMessage, want string) bool {
	if got := jsonType(raw); got != want {
		d.fail(path, "want %s, got %s", want, got)
		return false
	}
	return true
}

// object is one JSON object being decoded: the fields taken so far, so the
// rest can be refused (closed objects) or kept (extension points).
type object struct {
	d    *decoder
	path string
	m    map[string]json.RawMessage
	used map[string]bool
}

func (d *decoder) object(path string, raw json.RawMessage) *object {
	if !d.typeIs(path, raw, "object") {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		d.fail(path, "want object: %v", err)
		return nil
	}
	return &object{d: d, path: path, m: m, used: map[string]bool{}}
}

func (o *object) has(key string) bool {
	_, ok := o.m[key]
	return ok
}

// take returns the field key, if present, and its path.
func (o *object) take(key string) (json.RawMessage, string, bool) {
	o.used[key] = true
	raw, ok := o.m[key]
	return raw, child(o.path, key), ok
}

// need is take for a required field.
func (o *object) need(key string) (json.RawMessage, string, bool) {
	raw, path, ok := o.take(key)
	if !ok {
		o.d.fail(path, "missing")
	}
	return raw, path, ok
}

func (o *object) unknown() []string {
	var keys []string
	for k := range o.m {
		if !o.used[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// closed refuses the fields nobody took: only the top level of a receipt,
// of its result and of a snapshot (and an action descriptor) take
// extension fields.
func (o *object) closed() {
	for _, k := range o.unknown() {
		o.d.fail(child(o.path, k), "unknown field")
	}
}

// rest returns the fields nobody took, for Extra; nil when there are none.
func (o *object) rest() map[string]json.RawMessage {
	keys := o.unknown()
	if len(keys) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(keys))
	for _, k := range keys {
		out[k] = compact(o.m[k])
	}
	return out
}

// compact copies a raw value without insignificant whitespace, so that a
// value kept verbatim compares equal after a round trip through Marshal.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return slices.Clone(raw)
	}
	return json.RawMessage(b.Bytes())
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func child(path, key string) string {
	if identifier.MatchString(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// ---- scalars

type textRule struct {
	min, max int // characters; max 0 means unbounded
}

var (
	anyText = textRule{}
	idText  = textRule{min: 1}
	bounded = textRule{max: MaxTextChars}
)

func (d *decoder) str(path string, raw json.RawMessage, rule textRule) (string, bool) {
	if !d.typeIs(path, raw, "string") {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		d.fail(path, "want string: %v", err)
		return "", false
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n < rule.min:
		d.fail(path, "want at least %d character, got %d", rule.min, n)
		return "", false
	case rule.max > 0 && n > rule.max:
		d.fail(path, "want at most %d characters, got %d", rule.max, n)
		return "", false
	}
	return s, true
}

func (d *decoder) boolean(path string, raw json.RawMessage) (bool, bool) {
	if !d.typeIs(path, raw, "boolean") {
		return false, false
	}
	return bytes.Equal(bytes.TrimSpace(raw), []byte("true")), true
}

// count decodes a non-negative integer no larger than MaxInteger. Like JSON
// Schema it takes any number with a zero fractional part (3, 3.0, 3e0).
func (d *decoder) count(path string, raw json.RawMessage) (int64, bool) {
	if got := jsonType(raw); got != "number" {
		d.fail(path, "want integer, got %s", got)
		return 0, false
	}
	text := string(bytes.TrimSpace(raw))
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		r, ok := new(big.Rat).SetString(text)
		if !ok || !r.IsInt() {
			d.fail(path, "want integer, got number")
			return 0, false
		}
		if r.Sign() < 0 {
			d.fail(path, "want at least 0, got %s", text)
			return 0, false
		}
		if !r.Num().IsInt64() || r.Num().Int64() > MaxInteger {
			d.fail(path, "want at most %d, got %s", int64(MaxInteger), text)
			return 0, false
		}
		n = r.Num().Int64()
	}
	if n < 0 {
		d.fail(path, "want at least 0, got %s", text)
		return 0, false
	}
	if n > MaxInteger {
		d.fail(path, "want at most %d, got %s", int64(MaxInteger), text)
		return 0, false
	}
	return n, true
}

// signedInteger checks a number with a zero fractional part, of any sign.
func (d *decoder) signedInteger(path string, raw json.RawMessage) bool {
	if got := jsonType(raw); got != "number" {
		d.fail(path, "want integer, got %s", got)
		return false
	}
	r, ok := new(big.Rat).SetString(string(bytes.TrimSpace(raw)))
	if !ok || !r.IsInt() {
		d.fail(path, "want integer, got number")
		return false
	}
	return true
}

func (d *decoder) integer(path string, raw json.RawMessage) (int, bool) {
	n, ok := d.count(path, raw)
	return int(n), ok
}

func enumOf[T ~string](d *decoder, path string, raw json.RawMessage, all []T) (T, bool) {
	var zero T
	s, ok := d.str(path, raw, anyText)
	if !ok {
		return zero, false
	}
	if !slices.Contains(all, T(s)) {
		quoted := make([]string, len(all))
		for i, v := range all {
			quoted[i] = strconv.Quote(string(v))
		}
		d.fail(path, "want one of %s, got %q", strings.Join(quoted, ", "), s)
		return zero, false
	}
	return T(s), true
}

// executionID checks the length only: ExecutionIDPattern is what a runtime
// assigns and accepts from a host (rule envelope.execution-id), but a
// golden file's placeholder ("<execution-id>") must still decode.
func (d *decoder) executionID(path string, raw json.RawMessage) (string, bool) {
	return d.str(path, raw, textRule{min: 1, max: maxExecutionIDChars})
}

func (d *decoder) protocol(path string, raw json.RawMessage) (string, bool) {
	s, ok := d.str(path, raw, anyText)
	if ok && s != Protocol {
		d.fail(path, "want %q, got %q", Protocol, excerpt(s))
		return "", false
	}
	return s, ok
}

func (d *decoder) strList(path string, raw json.RawMessage, max int, rule textRule) ([]string, bool) {
	items, ok := d.array(path, raw, max)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	all := true
	for i, it := range items {
		s, ok := d.str(index(path, i), it, rule)
		all = all && ok
		out = append(out, s)
	}
	return out, all
}

func (d *decoder) array(path string, raw json.RawMessage, max int) ([]json.RawMessage, bool) {
	if !d.typeIs(path, raw, "array") {
		return nil, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		d.fail(path, "want array: %v", err)
		return nil, false
	}
	if max > 0 && len(items) > max {
		d.fail(path, "want at most %d entries, got %d", max, len(items))
		return nil, false
	}
	return items, true
}

// anyObject decodes an object of free shape (record fields, state views)
// the way encoding/json does — numbers become float64 — except that a
// number no float64 holds stays a json.Number instead of failing: the
// schema allows it, so the decoder must too.
func (d *decoder) anyObject(path string, raw json.RawMessage) (map[string]any, bool) {
	if !d.typeIs(path, raw, "object") {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		d.fail(path, "want object: %v", err)
		return nil, false
	}
	for k, v := range m {
		m[k] = floats(v)
	}
	return m, true
}

func floats(v any) any {
	switch v := v.(type) {
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v
	case map[string]any:
		for k, x := range v {
			v[k] = floats(x)
		}
	case []any:
		for i, x := range v {
			v[i] = floats(x)
		}
	}
	return v
}

func excerpt(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "…"
}
