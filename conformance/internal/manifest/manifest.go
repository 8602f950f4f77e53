package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"path"
	"reflect"
	"regexp"
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
//	  - action: verify-identity
//	    outcome: completed
//	    user:                  # optional, with completed: the user's step,
//	      - fill: "#code"      #   done on the page before the answer
//	        value: "246810"
//	      - click: "#verify"
//	reveals:                   # element actions whose target must be revealed
//	  - action: peek
//	    outcome: shown         # shown (revealed, maybe re-rendered) or hidden
//	capturingExpectations:     # actions whose expectation captures the
//	  - action: add            #   page's state when it is built
//
// Parse and Load validate it and name the field of the
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
	// CapturingExpectations names calls of actions whose expectation
	// captures the page's state when it is built ("one task fewer than
	// now"): built at any other time than after stage 5 and before stage
	// 6 (for a flow, before its first step), it does not come true.
	CapturingExpectations []Scenario `json:"capturingExpectations,omitempty"`
	// UnchangedWrites names calls of write actions that succeed without
	// changing the page model (a save of what is already saved): no
	// snapshot tells that a failure of one is not the handler's.
	UnchangedWrites []Scenario `json:"unchangedWrites,omitempty"`
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
	// DeclaredTimeoutMs is the timeout the action's expectation declares,
	// 0 when it declares none (expectationFailures only, optional): no
	// snapshot tells it, and without options.expectTimeoutMs the runtime
	// must poll that long, or 2 seconds for 0, before EXPECTATION_FAILED.
	DeclaredTimeoutMs *int `json:"declaredTimeoutMs,omitempty"`
	// User is what the user does on the page during a hand-off before the
	// host answers completed (handoffs with outcome completed only,
	// optional): the hand-off must then succeed.
	User []UserStep `json:"user,omitempty"`
}

// UserStep is one thing the user does during a hand-off: click an
// element, fill a field, or choose an option of a select, each element
// named by a CSS selector (Playwright's, which may also be text=…).
type UserStep struct {
	Click  string `json:"click,omitempty"`
	Fill   string `json:"fill,omitempty"`
	Select string `json:"select,omitempty"`
	// Value is the text filled in, or the option's value chosen.
	Value string `json:"value,omitempty"`
}

// String says the step in a few words, for a finding.
func (u UserStep) String() string {
	switch {
	case u.Click != "":
		return "click " + u.Click
	case u.Fill != "":
		return fmt.Sprintf("fill %s with %q", u.Fill, u.Value)
	}
	return fmt.Sprintf("select %q in %s", u.Value, u.Select)
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

// Parse parses a YAML or JSON manifest; name is used in errors. It reads
// the text in three steps: the YAML's shape is checked against the
// document's Go types (shape), the text is decoded into them with unknown
// fields refused (yaml's KnownFields), and the values are checked
// (Validate). Every error names the field of the first mistake and its
// line.
func Parse(name string, data []byte) (*Manifest, error) {
	var root yaml.Node
	first := yaml.NewDecoder(bytes.NewReader(data))
	if err := first.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) || strings.TrimSpace(string(data)) == "" {
			return &Manifest{}, nil
		}
		return nil, fmt.Errorf("manifest %q: %w: %s", name, ErrManifest, oneLine(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	// A manifest is one document: a second (after "---") would be left
	// unread, and what it says not done.
	// (An empty one, a "---" at the end, says nothing.)
	for {
		var next yaml.Node
		err := first.Decode(&next)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("manifest %q: %w: a manifest is one YAML document; the text has more after its first (%s)", name, ErrManifest, oneLine(strings.TrimPrefix(err.Error(), "yaml: ")))
		}
		if len(next.Content) == 0 || next.Content[0].Tag == "!!null" {
			continue
		}
		return nil, fmt.Errorf("manifest %q: %w: a manifest is one YAML document; a second begins at line %d (merge them, or remove the \"---\")", name, ErrManifest, next.Line)
	}
	if len(root.Content) == 0 {
		return &Manifest{}, nil
	}
	src := &source{name: name, nodes: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}}
	if err := src.shape(root.Content[0], reflect.TypeFor[document](), ""); err != nil {
		return nil, err
	}
	var doc document
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, src.errorf(root.Content[0], "", "%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return doc.validate(src)
}

// document is a manifest as its text says it, before Validate: a pointer
// is a field the text gives (so that a zero can be told from an absent
// field).
type document struct {
	Version               *int                      `yaml:"version"`
	Args                  map[string]map[string]any `yaml:"args"`
	Skip                  []string                  `yaml:"skip"`
	ExpectationFailures   []scenarioDoc             `yaml:"expectationFailures"`
	ExecutionFailures     []scenarioDoc             `yaml:"executionFailures"`
	FlowFailures          []scenarioDoc             `yaml:"flowFailures"`
	Handoffs              []scenarioDoc             `yaml:"handoffs"`
	Reveals               []scenarioDoc             `yaml:"reveals"`
	CapturingExpectations []scenarioDoc             `yaml:"capturingExpectations"`
	UnchangedWrites       []scenarioDoc             `yaml:"unchangedWrites"`
}

// scenarioDoc is one entry of a list of scenarios; which fields a list
// allows is Validate's to say.
type scenarioDoc struct {
	Action  *string        `yaml:"action"`
	URL     *string        `yaml:"url"`
	Args    map[string]any `yaml:"args"`
	Step    *int           `yaml:"step"`
	Outcome *string        `yaml:"outcome"`
	Code    *string        `yaml:"code"`
	Resume  *bool          `yaml:"resume"`
	// DeclaredTimeoutMs is allowed under expectationFailures only.
	DeclaredTimeoutMs *int `yaml:"declaredTimeoutMs"`
	// User is allowed under handoffs only.
	User []userStepDoc `yaml:"user"`
}

// userStepDoc is one of a hand-off's user steps: one of click, fill and
// select, with value for fill and select.
type userStepDoc struct {
	Click  *string `yaml:"click"`
	Fill   *string `yaml:"fill"`
	Select *string `yaml:"select"`
	Value  *string `yaml:"value"`
}

// source is the text a manifest came from: its name, and its nodes by
// field path ("flowFailures[0].step"), for the line of a mistake.
type source struct {
	name  string
	nodes map[string]*yaml.Node // values
	keys  map[string]*yaml.Node // the keys that name them
}

func (s *source) errorf(n *yaml.Node, field, format string, args ...any) error {
	where := ""
	if n != nil && n.Line > 0 {
		where = fmt.Sprintf("line %d: ", n.Line)
	}
	if field != "" {
		field += ": "
	}
	return fmt.Errorf("manifest %q: %w: %s%s%s", s.name, ErrManifest, where, field, oneLine(fmt.Sprintf(format, args...)))
}

// oneLine keeps an error to one line: YAML errors may span several.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// wants says, by field path (list indices written []), what a field must
// be, for a mistake of shape; a field not listed says it by its Go type.
var wants = map[string]string{
	"":                      "a mapping of " + strings.Join(fieldNames(reflect.TypeFor[document]()), ", "),
	"version":               "1",
	"args":                  "a mapping from action id to arguments",
	"args.*":                "an object of arguments",
	"skip":                  "a list of action ids or globs",
	"skip[]":                "an action id or glob",
	"*[]":                   "a mapping with action, url, args",
	"*":                     "a list of {action, url, args}",
	"*[].action":            "an action id",
	"*[].url":               "a URL",
	"*[].args":              "an object of arguments",
	"*[].step":              "a step number ≥ 1",
	"*[].resume":            "true or false",
	"*[].code":              "a failure code (INVALID_PARAMS, EXECUTION_FAILED, …)",
	"*[].outcome":           "one of the outcomes",
	"*[].declaredTimeoutMs": "milliseconds ≥ 0 (0: the expectation declares no timeout)",
}

// want is what the field at path must be.
func want(path string, t reflect.Type) string {
	generic := indexRE.ReplaceAllString(path, "[]")
	for _, k := range []string{generic, listRE.ReplaceAllString(generic, "*$1"), argRE.ReplaceAllString(generic, "args.*")} {
		if w, ok := wants[k]; ok {
			return w
		}
	}
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	case reflect.Int:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return "a string"
}

var (
	indexRE = regexp.MustCompile(`\[\d+\]`)
	listRE  = regexp.MustCompile(`^(?:expectationFailures|executionFailures|flowFailures|handoffs|reveals|capturingExpectations|unchangedWrites)((?:\[\])?(?:\.\w+)?)$`)
	argRE   = regexp.MustCompile(`^args\.[^.]+$`)
)

// shape checks that node n can be decoded into a value of type t —
// mappings where t is a struct or a map, lists where it is a slice, a
// scalar of the right kind elsewhere, no key given twice, no field a
// struct does not have — and records every node by its path.
func (s *source) shape(n *yaml.Node, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s.nodes[path] = n
	if n.Kind == yaml.AliasNode {
		// The decoder resolves aliases, and bounds how far.
		return nil
	}
	bad := func() error { return s.errorf(n, path, "want %s, got %s", want(path, t), show(n)) }
	switch t.Kind() {
	case reflect.Interface:
		return nil
	case reflect.Struct, reflect.Map:
		if n.Kind != yaml.MappingNode {
			if t.Kind() == reflect.Map && n.Tag == "!!null" {
				return nil
			}
			return bad()
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			field := join(path, k.Value)
			if seen[k.Value] {
				return s.errorf(k, field, "given twice")
			}
			seen[k.Value] = true
			s.keys[field] = k
			var vt reflect.Type
			if t.Kind() == reflect.Map {
				vt = t.Elem()
			} else {
				f, ok := structField(t, k.Value)
				if !ok {
					prefix := "want"
					if path == "" {
						prefix = "want one of"
					}
					return s.errorf(k, path, "unknown field %q (%s %s)", k.Value, prefix, strings.Join(fieldNames(t), ", "))
				}
				vt = f.Type
			}
			if err := s.shape(v, vt, field); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return bad()
		}
		for i, e := range n.Content {
			if err := s.shape(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		if n.Kind != yaml.ScalarNode {
			return bad()
		}
		var v any
		switch t.Kind() {
		case reflect.Int:
			v = new(int)
		case reflect.Bool:
			v = new(bool)
		default:
			v = new(string)
		}
		if n.Decode(v) != nil {
			return bad()
		}
	}
	return nil
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// structField is t's field whose yaml tag is name.
func structField(t reflect.Type, name string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// fieldNames lists the yaml names of t's fields, in order.
func fieldNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		out = append(out, name)
	}
	return out
}

func show(n *yaml.Node) string {
	if n == nil {
		return "an alias"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// validate checks the values of a document whose shape is right, and
// makes the manifest.
func (d *document) validate(s *source) (*Manifest, error) {
	m := &Manifest{}
	if d.Version != nil {
		if n := s.nodes["version"]; *d.Version != 1 || n.Value != "1" {
			return nil, s.errorf(n, "version", "want 1, got %s", show(n))
		}
		m.Version = 1
	}
	if s.nodes["args"] != nil {
		m.Args = map[string]map[string]any{}
	}
	for _, id := range slices.Sorted(maps.Keys(d.Args)) {
		field := "args." + id
		if id == "" {
			return nil, s.errorf(s.keys[field], "args", "empty action id")
		}
		a, err := s.object(d.Args[id], field)
		if err != nil {
			return nil, err
		}
		m.Args[id] = a
	}
	for i, g := range d.Skip {
		field := fmt.Sprintf("skip[%d]", i)
		if g == "" {
			return nil, s.errorf(s.nodes[field], field, "want an action id or glob, got %s", show(s.nodes[field]))
		}
		if _, err := path.Match(g, ""); err != nil {
			return nil, s.errorf(s.nodes[field], field, "bad glob %q: %v", g, err)
		}
	}
	m.Skip = d.Skip
	var err error
	for _, l := range []struct {
		field    string
		list     []scenarioDoc
		into     *[]Scenario
		flow     bool
		outcomes []string
	}{
		{"expectationFailures", d.ExpectationFailures, &m.ExpectationFailures, false, nil},
		{"executionFailures", d.ExecutionFailures, &m.ExecutionFailures, false, nil},
		{"flowFailures", d.FlowFailures, &m.FlowFailures, true, nil},
		{"handoffs", d.Handoffs, &m.Handoffs, false, HandoffOutcomes},
		{"reveals", d.Reveals, &m.Reveals, false, RevealOutcomes},
		{"capturingExpectations", d.CapturingExpectations, &m.CapturingExpectations, false, nil},
		{"unchangedWrites", d.UnchangedWrites, &m.UnchangedWrites, false, nil},
	} {
		if *l.into, err = s.scenarios(l.list, l.field, l.flow, l.outcomes); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// object is an arguments object: null is the empty object, and every
// value must be one JSON can hold.
func (s *source) object(v map[string]any, field string) (map[string]any, error) {
	if v == nil {
		return map[string]any{}, nil
	}
	if _, err := json.Marshal(v); err != nil {
		return nil, s.errorf(s.nodes[field], field, "not representable as JSON: %v", err)
	}
	return v, nil
}

// scenarios checks a list of scenarios: flow allows step, code and
// resume; outcomes, when given, makes outcome required and one of them.
func (s *source) scenarios(list []scenarioDoc, field string, flow bool, outcomes []string) ([]Scenario, error) {
	allowed := []string{"action", "url", "args"}
	if flow {
		allowed = append(allowed, "step", "code", "resume")
	}
	if outcomes != nil {
		allowed = append(allowed, "outcome")
	}
	if field == "expectationFailures" {
		allowed = append(allowed, "declaredTimeoutMs")
	}
	if field == "handoffs" {
		allowed = append(allowed, "user")
	}
	var out []Scenario
	for i, e := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		item := s.nodes[f]
		for _, k := range fieldNames(reflect.TypeFor[scenarioDoc]()) {
			if key := s.keys[f+"."+k]; key != nil && !slices.Contains(allowed, k) {
				return nil, s.errorf(key, f, "unknown field %q (want %s)", k, strings.Join(allowed, ", "))
			}
		}
		var sc Scenario
		if e.Action != nil {
			if strings.TrimSpace(*e.Action) == "" {
				n := s.nodes[f+".action"]
				return nil, s.errorf(n, f+".action", "want an action id, got %s", show(n))
			}
			sc.Action = *e.Action
		}
		if e.URL != nil {
			if err := checkScenarioURL(*e.URL); err != nil {
				return nil, s.errorf(s.nodes[f+".url"], f+".url", "%v", err)
			}
			sc.URL = *e.URL
		}
		if s.nodes[f+".args"] != nil {
			a, err := s.object(e.Args, f+".args")
			if err != nil {
				return nil, err
			}
			sc.Args = a
		}
		if e.Step != nil {
			if *e.Step < 1 {
				n := s.nodes[f+".step"]
				return nil, s.errorf(n, f+".step", "want a step number ≥ 1, got %s", show(n))
			}
			sc.Step = *e.Step
		}
		if e.Outcome != nil {
			if !slices.Contains(outcomes, *e.Outcome) {
				n := s.nodes[f+".outcome"]
				return nil, s.errorf(n, f+".outcome", "want one of %s, got %s", strings.Join(outcomes, ", "), show(n))
			}
			sc.Outcome = *e.Outcome
		}
		if e.Code != nil {
			if !receipt.Code(*e.Code).Known() {
				n := s.nodes[f+".code"]
				return nil, s.errorf(n, f+".code", "want a failure code (INVALID_PARAMS, EXECUTION_FAILED, …), got %s", show(n))
			}
			sc.Code = receipt.Code(*e.Code)
		}
		if e.Resume != nil {
			sc.Resume = *e.Resume
		}
		if e.DeclaredTimeoutMs != nil {
			if *e.DeclaredTimeoutMs < 0 {
				n := s.nodes[f+".declaredTimeoutMs"]
				return nil, s.errorf(n, f+".declaredTimeoutMs", "want milliseconds ≥ 0 (0: the expectation declares no timeout), got %s", show(n))
			}
			ms := *e.DeclaredTimeoutMs
			sc.DeclaredTimeoutMs = &ms
		}
		if sc.Action == "" {
			return nil, s.errorf(item, f+".action", "required")
		}
		if flow && sc.Step == 0 {
			return nil, s.errorf(item, f+".step", "required")
		}
		if outcomes != nil && sc.Outcome == "" {
			return nil, s.errorf(item, f+".outcome", "required")
		}
		if s.nodes[f+".user"] != nil {
			if sc.Outcome != "completed" {
				return nil, s.errorf(s.keys[f+".user"], f+".user", "the user's steps need outcome completed, got %q", sc.Outcome)
			}
			steps, err := s.userSteps(e.User, f+".user")
			if err != nil {
				return nil, err
			}
			sc.User = steps
		}
		out = append(out, sc)
	}
	return out, nil
}

// maxUserSteps bounds a hand-off's user steps.
const maxUserSteps = 20 // not a contract bound

// userSteps checks a hand-off's user steps: each one of click, fill and
// select with a selector, and value exactly with fill and select.
func (s *source) userSteps(list []userStepDoc, field string) ([]UserStep, error) {
	if len(list) == 0 {
		return nil, s.errorf(s.nodes[field], field, "want at least one step (click, fill or select), got none")
	}
	if len(list) > maxUserSteps {
		return nil, s.errorf(s.nodes[field], field, "want at most %d steps, got %d", maxUserSteps, len(list))
	}
	var out []UserStep
	for i, d := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		var kinds []string
		var u UserStep
		for _, k := range []struct {
			name string
			v    *string
			into *string
		}{{"click", d.Click, &u.Click}, {"fill", d.Fill, &u.Fill}, {"select", d.Select, &u.Select}} {
			if k.v == nil {
				continue
			}
			kinds = append(kinds, k.name)
			if strings.TrimSpace(*k.v) == "" {
				n := s.nodes[f+"."+k.name]
				return nil, s.errorf(n, f+"."+k.name, "want a selector, got %s", show(n))
			}
			*k.into = *k.v
		}
		if len(kinds) != 1 {
			return nil, s.errorf(s.nodes[f], f, "want exactly one of click, fill and select, got %d", len(kinds))
		}
		switch {
		case kinds[0] == "click" && d.Value != nil:
			return nil, s.errorf(s.keys[f+".value"], f+".value", "a click takes no value")
		case kinds[0] != "click" && d.Value == nil:
			return nil, s.errorf(s.nodes[f], f+".value", "required with %s", kinds[0])
		case d.Value != nil:
			u.Value = *d.Value
		}
		out = append(out, u)
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
