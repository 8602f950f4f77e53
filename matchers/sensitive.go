package matchers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// redacted replaces a sensitive value wherever NeverContain shows the
// receipt, so that a failing test does not copy the secret into CI logs.
const redacted = "<redacted>"

// NeverContain succeeds if a value never appears anywhere in the receipt:
// not in a key, a string or a number, at any depth, including fields the
// Go model does not know when the receipt is given as JSON. A string or a
// number is searched for as a substring of every key, string and number;
// a Gomega matcher is applied to every key, string and number (numbers as
// their JSON text). JSON is searched even where receipt.Decode would
// refuse it. A failure lists where the value appears and shows the
// receipt with the value redacted, never the value itself.
//
//	Expect(page.Do("sign-in", args, glasstest.Sensitive("password", "hunter2"))).To(NeverContain("hunter2"))
func NeverContain(value any) types.GomegaMatcher {
	m := &neverContain{}
	switch v := value.(type) {
	case types.GomegaMatcher:
		m.m = v
	case string:
		m.needle = v
		if v == "" {
			m.err = fmt.Errorf("the empty string is in every text: give a value to search for")
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		m.needle = fmt.Sprint(v)
	case float32:
		m.needle = strconv.FormatFloat(float64(v), 'f', -1, 32)
	case float64:
		m.needle = strconv.FormatFloat(v, 'f', -1, 64)
	default:
		m.err = fmt.Errorf("want a string, a number or a Gomega matcher, got %T", value)
	}
	return m
}

type neverContain struct {
	final
	needle string
	m      types.GomegaMatcher
	err    error

	got   *receipt.Receipt
	hits  []string
	texts map[string]bool // the whole texts a matcher matched, to redact
}

func (m *neverContain) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("NeverContain matcher: %w", m.err)
	}
	s, err := loadLenient("NeverContain", actual)
	if err != nil {
		return false, err
	}
	m.got, m.hits, m.texts = s.r, nil, map[string]bool{}
	tree, err := jsonTree(s)
	if err != nil {
		return false, fmt.Errorf("NeverContain matcher: %w", err)
	}
	if err := m.walk("$", tree); err != nil {
		return false, fmt.Errorf("NeverContain matcher: %w", err)
	}
	return len(m.hits) == 0, nil
}

// jsonTree is the receipt as generic JSON: the bytes the page sent when
// the matcher was given JSON, else the model re-encoded, with the unknown
// fields the model keeps in Extra put back.
func jsonTree(s subject) (any, error) {
	raw := s.raw
	if raw == nil {
		b, err := json.Marshal(s.r)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	if s.raw == nil {
		if err := restoreExtra(tree, s.r); err != nil {
			return nil, err
		}
	}
	return tree, nil
}

func restoreExtra(tree any, r *receipt.Receipt) error {
	env, _ := tree.(map[string]any)
	if env == nil {
		return nil
	}
	if err := putExtra(env, r.Extra); err != nil {
		return err
	}
	if res, _ := env["result"].(map[string]any); res != nil {
		return putExtra(res, r.Result.Extra)
	}
	return nil
}

func putExtra(into map[string]any, extra map[string]json.RawMessage) error {
	for k, raw := range extra {
		if _, known := into[k]; known {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("extension field %s: %w", receipt.Quote(k), err)
		}
		into[k] = v
	}
	return nil
}

// found reports whether text contains the value, remembering the texts a
// matcher matched so that they can be redacted.
func (m *neverContain) found(text string) (bool, error) {
	if m.m == nil {
		return strings.Contains(text, m.needle), nil
	}
	ok, err := m.m.Match(text)
	if err != nil {
		return false, fmt.Errorf("%s: %w", matcherName(m.m), err)
	}
	if ok {
		m.texts[text] = true
	}
	return ok, nil
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (m *neverContain) walk(path string, v any) error {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			hit, err := m.found(k)
			if err != nil {
				return err
			}
			if hit {
				// The key itself is the secret: name its object, not it.
				m.hits = append(m.hits, "a key of "+path)
				if err := m.walk(path+"["+redacted+"]", x[k]); err != nil {
					return err
				}
				continue
			}
			child := path + "." + k
			if !identifier.MatchString(k) {
				child = path + "[" + strconv.Quote(k) + "]"
			}
			if err := m.walk(child, x[k]); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := m.walk(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	case string:
		return m.hit(path, x)
	case json.Number:
		return m.hit(path, x.String())
	}
	return nil
}

func (m *neverContain) hit(path, text string) error {
	ok, err := m.found(text)
	if ok {
		m.hits = append(m.hits, path)
	}
	return err
}

// shown is the receipt as a failure message shows it: the found value
// replaced by a placeholder in every string of the model.
func (m *neverContain) shown() *receipt.Receipt {
	if len(m.hits) == 0 {
		return m.got
	}
	b, err := json.Marshal(m.got)
	if err != nil {
		return &receipt.Receipt{Result: receipt.Result{Action: receipt.Action{ID: redacted}}}
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		return &receipt.Receipt{Result: receipt.Result{Action: receipt.Action{ID: redacted}}}
	}
	tree = m.redact(tree)
	b, err = json.Marshal(tree)
	var r *receipt.Receipt
	if err == nil {
		r, err = lenient(b)
	}
	if err != nil {
		// Redaction broke a field the model checks, such as the phase;
		// show less rather than the secret.
		return &receipt.Receipt{Result: receipt.Result{Action: receipt.Action{ID: redacted}}}
	}
	return r
}

func (m *neverContain) redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[m.redactText(k)] = m.redact(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = m.redact(e)
		}
		return x
	case string:
		return m.redactText(x)
	}
	return v
}

func (m *neverContain) redactText(s string) string {
	if m.m == nil {
		return strings.ReplaceAll(s, m.needle, redacted)
	}
	if m.texts[s] {
		return redacted
	}
	return s
}

func (m *neverContain) what() string {
	if m.m == nil {
		return "the sensitive value"
	}
	return "a value matching " + matcherName(m.m)
}

func (m *neverContain) FailureMessage(any) string {
	return format.Message(m.shown(), "never to contain "+m.what()+", but it appears at:\n"+bullets(m.hits))
}

func (m *neverContain) NegatedFailureMessage(any) string {
	return format.Message(m.got, "to contain "+m.what()+", but it appears nowhere")
}
