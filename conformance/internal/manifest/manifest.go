package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/glassworks/glass/receipt"
)

// Manifest names what the zero-config probes cannot derive from a page's
// own snapshot. Every field is optional; a run without a manifest probes
// what the snapshot allows and reports the rest as not probed, with the
// reason.
//
// A manifest is YAML or JSON (docs/manifest.md has the full reference):
//
//	version: 1                 # optional; 1 is the only version
//	args:                      # arguments for calls that must succeed,
//	  add:                     #   by action id, or by tool for row
//	    title: Buy milk        #   actions (remove for remove@t1…)
//	    priority: high
//	skip: ["pay@*"]            # action ids (globs) never executed on purpose
//	expectationFailures:       # calls whose expectation must not verify
//	  - action: remove@t9
//	    url: /?fault=delete-stale   # relative to the page under test
//	executionFailures:         # calls whose handler throws
//	  - action: remove@t9
//	    url: /?fault=delete-throws
//	flowFailures:              # flows that fail at a given step (1-based)
//	  - action: edit
//	    step: 4
//	    url: /?fault=save-fails-once
//	    args: {task: t3, title: New title}
//	    code: EXECUTION_FAILED # optional: the failed step's error code
//	    resume: true           # optional: resuming it then succeeds
//	handoffs:                  # hand-offs and how the user answers them
//	  - action: verify-identity
//	    outcome: cancelled     # completed, cancelled, timeout or failed
//	reveals:                   # element actions whose target must be revealed
//	  - action: peek
//	    outcome: shown         # shown (revealed, maybe re-rendered) or hidden
//
// ParseManifest and LoadManifest validate it and name the field of the
// first mistake with its line.
type Manifest struct {
	Version             int                       `json:"version,omitempty"`
	Args                map[string]map[string]any `json:"args,omitempty"`
	Skip                []string                  `json:"skip,omitempty"`
	ExpectationFailures []Scenario                `json:"expectationFailures,omitempty"`
	ExecutionFailures   []Scenario                `json:"executionFailures,omitempty"`
	FlowFailures        []Scenario                `json:"flowFailures,omitempty"`
	Handoffs            []Scenario                `json:"handoffs,omitempty"`
	// Reveals names element actions whose target is not visible until
	// the action's reveal ran: Outcome says whether the reveal shows it
	// (shown) or leaves it hidden (hidden).
	Reveals []Scenario `json:"reveals,omitempty"`
}

// Scenario is one call the manifest asks for: an action, the page it runs
// on, its arguments, and (for flows and hand-offs) the step that fails or
// the user's answer.
type Scenario struct {
	Action string `json:"action"`
	// URL is the page to call it on, relative to the page under test
	// ("/?fault=x", "?fault=x") or absolute. Default: the page under test.
	URL  string         `json:"url,omitempty"`
	Args map[string]any `json:"args,omitempty"`
	// Step is the 1-based step at which a flow fails (flowFailures only).
	Step int `json:"step,omitempty"`
	// Outcome is how the user answers a hand-off (handoffs), or whether
	// the reveal shows the target (reveals).
	Outcome string `json:"outcome,omitempty"`
	// Code is the error code the failed step reports (flowFailures only,
	// optional).
	Code receipt.Code `json:"code,omitempty"`
	// Resume says that resuming the failed flow succeeds (flowFailures
	// only, optional): the step fails once.
	Resume bool `json:"resume,omitempty"`
}

// The hand-off outcomes a manifest can ask for.
var HandoffOutcomes = []string{"completed", "cancelled", "timeout", "failed"}

// The outcomes of a reveal a manifest can name.
var RevealOutcomes = []string{"shown", "hidden"}

// ErrManifest wraps every manifest error.
var ErrManifest = errors.New("invalid manifest")

// Load reads and validates the manifest at file, a regular file of at
// most MaxFileSize bytes.
func Load(file string) (*Manifest, error) {
	b, err := readFile(file)
	if err != nil {
		return nil, fmt.Errorf("manifest %q: cannot read it: %w", file, err)
	}
	return Parse(file, b)
}

// Parse parses a YAML or JSON manifest; name is used in errors.
func Parse(name string, data []byte) (*Manifest, error) {
	m := &Manifest{}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) || strings.TrimSpace(string(data)) == "" {
			return m, nil
		}
		return nil, fmt.Errorf("manifest %q: %w: %s", name, ErrManifest, oneLine(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	if len(doc.Content) == 0 {
		return m, nil
	}
	p := &manifestParser{name: name}
	if err := p.top(doc.Content[0], m); err != nil {
		return nil, err
	}
	return m, nil
}

type manifestParser struct{ name string }

func (p *manifestParser) errorf(n *yaml.Node, field, format string, args ...any) error {
	where := ""
	if n != nil && n.Line > 0 {
		where = fmt.Sprintf("line %d: ", n.Line)
	}
	if field != "" {
		field += ": "
	}
	return fmt.Errorf("manifest %q: %w: %s%s%s", p.name, ErrManifest, where, field, oneLine(fmt.Sprintf(format, args...)))
}

// oneLine keeps an error to one line: YAML errors may span several.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

var topFields = []string{"version", "args", "skip", "expectationFailures", "executionFailures", "flowFailures", "handoffs", "reveals"}

func (p *manifestParser) top(n *yaml.Node, m *Manifest) error {
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, "", "want a mapping of %s", strings.Join(topFields, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return p.errorf(k, k.Value, "given twice")
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "version":
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				return p.errorf(v, "version", "want 1, got %s", show(v))
			}
			m.Version = 1
		case "args":
			m.Args, err = p.argsMap(v)
		case "skip":
			m.Skip, err = p.globs(v, "skip")
		case "expectationFailures":
			m.ExpectationFailures, err = p.scenarios(v, k.Value, false, nil)
		case "executionFailures":
			m.ExecutionFailures, err = p.scenarios(v, k.Value, false, nil)
		case "flowFailures":
			m.FlowFailures, err = p.scenarios(v, k.Value, true, nil)
		case "handoffs":
			m.Handoffs, err = p.scenarios(v, k.Value, false, HandoffOutcomes)
		case "reveals":
			m.Reveals, err = p.scenarios(v, k.Value, false, RevealOutcomes)
		default:
			return p.errorf(k, "", "unknown field %q (want one of %s)", k.Value, strings.Join(topFields, ", "))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func show(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

func (p *manifestParser) argsMap(n *yaml.Node) (map[string]map[string]any, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "args", "want a mapping from action id to arguments, got %s", show(n))
	}
	out := map[string]map[string]any{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := "args." + k.Value
		if k.Value == "" {
			return nil, p.errorf(k, "args", "empty action id")
		}
		a, err := p.object(v, field)
		if err != nil {
			return nil, err
		}
		out[k.Value] = a
	}
	return out, nil
}

// object decodes an arguments object; null is the empty object.
func (p *manifestParser) object(n *yaml.Node, field string) (map[string]any, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return map[string]any{}, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, field, "want an object of arguments, got %s", show(n))
	}
	var v map[string]any
	if err := n.Decode(&v); err != nil {
		return nil, p.errorf(n, field, "%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if _, err := json.Marshal(v); err != nil {
		return nil, p.errorf(n, field, "not representable as JSON: %v", err)
	}
	return v, nil
}

func (p *manifestParser) globs(n *yaml.Node, field string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, field, "want a list of action ids or globs, got %s", show(n))
	}
	var out []string
	for i, e := range n.Content {
		f := fmt.Sprintf("%s[%d]", field, i)
		if e.Kind != yaml.ScalarNode || e.Value == "" {
			return nil, p.errorf(e, f, "want an action id or glob, got %s", show(e))
		}
		if _, err := path.Match(e.Value, ""); err != nil {
			return nil, p.errorf(e, f, "bad glob %q: %v", e.Value, err)
		}
		out = append(out, e.Value)
	}
	return out, nil
}

// scenarios parses a list of scenarios; flow allows step, code and resume,
// and outcomes, when given, makes outcome required and one of them.
func (p *manifestParser) scenarios(n *yaml.Node, field string, flow bool, outcomes []string) ([]Scenario, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, field, "want a list of {action, url, args}, got %s", show(n))
	}
	allowed := []string{"action", "url", "args"}
	if flow {
		allowed = append(allowed, "step", "code", "resume")
	}
	if outcomes != nil {
		allowed = append(allowed, "outcome")
	}
	var out []Scenario
	for i, e := range n.Content {
		f := fmt.Sprintf("%s[%d]", field, i)
		if e.Kind != yaml.MappingNode {
			return nil, p.errorf(e, f, "want a mapping with %s, got %s", strings.Join(allowed, ", "), show(e))
		}
		var s Scenario
		seen := map[string]bool{}
		for j := 0; j+1 < len(e.Content); j += 2 {
			k, v := e.Content[j], e.Content[j+1]
			kf := f + "." + k.Value
			if seen[k.Value] {
				return nil, p.errorf(k, kf, "given twice")
			}
			seen[k.Value] = true
			switch {
			case k.Value == "action":
				if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
					return nil, p.errorf(v, kf, "want an action id, got %s", show(v))
				}
				s.Action = v.Value
			case k.Value == "url":
				if v.Kind != yaml.ScalarNode {
					return nil, p.errorf(v, kf, "want a URL, got %s", show(v))
				}
				if err := checkScenarioURL(v.Value); err != nil {
					return nil, p.errorf(v, kf, "%v", err)
				}
				s.URL = v.Value
			case k.Value == "args":
				a, err := p.object(v, kf)
				if err != nil {
					return nil, err
				}
				s.Args = a
			case k.Value == "step" && flow:
				var step int
				if v.Kind != yaml.ScalarNode || v.Decode(&step) != nil || step < 1 {
					return nil, p.errorf(v, kf, "want a step number ≥ 1, got %s", show(v))
				}
				s.Step = step
			case k.Value == "outcome" && outcomes != nil:
				if v.Kind != yaml.ScalarNode || !slices.Contains(outcomes, v.Value) {
					return nil, p.errorf(v, kf, "want one of %s, got %s", strings.Join(outcomes, ", "), show(v))
				}
				s.Outcome = v.Value
			case k.Value == "code" && flow:
				if v.Kind != yaml.ScalarNode || !receipt.Code(v.Value).Known() {
					return nil, p.errorf(v, kf, "want a failure code (INVALID_PARAMS, EXECUTION_FAILED, …), got %s", show(v))
				}
				s.Code = receipt.Code(v.Value)
			case k.Value == "resume" && flow:
				if v.Kind != yaml.ScalarNode || v.Decode(&s.Resume) != nil {
					return nil, p.errorf(v, kf, "want true or false, got %s", show(v))
				}
			default:
				return nil, p.errorf(k, f, "unknown field %q (want %s)", k.Value, strings.Join(allowed, ", "))
			}
		}
		if s.Action == "" {
			return nil, p.errorf(e, f+".action", "required")
		}
		if flow && s.Step == 0 {
			return nil, p.errorf(e, f+".step", "required")
		}
		if outcomes != nil && s.Outcome == "" {
			return nil, p.errorf(e, f+".outcome", "required")
		}
		out = append(out, s)
	}
	return out, nil
}

// checkScenarioURL accepts a reference relative to the page under test or
// an absolute http(s) URL.
func checkScenarioURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("bad URL %q: %v", s, errors.Unwrap(err))
	}
	if u.Scheme == "" && u.Host == "" {
		return nil
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	return fmt.Errorf("want a relative URL (\"/?fault=x\") or an http(s) URL, got %q", s)
}

// ArgsFor returns the manifest's arguments for a: by action id, then by
// tool for a row action.
func (m *Manifest) ArgsFor(a receipt.ActionInfo) (map[string]any, bool) {
	if m == nil {
		return nil, false
	}
	if v, ok := m.Args[a.ID]; ok {
		return v, true
	}
	if a.Tool != "" {
		if v, ok := m.Args[a.Tool]; ok {
			return v, true
		}
	}
	return nil, false
}

// Skips reports whether the manifest forbids executing id on purpose.
func (m *Manifest) Skips(id string) bool {
	if m == nil {
		return false
	}
	for _, g := range m.Skip {
		if ok, _ := path.Match(g, id); ok {
			return true
		}
	}
	return false
}
