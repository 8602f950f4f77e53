package coverage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// Format is the value of Report.Format: the version of glass-coverage.json.
const Format = "glass-coverage/v1"

// Report is the coverage of a whole suite, every process merged: the
// content of glass-coverage.json.
type Report struct {
	Format string `json:"format"`
	// Suite is the suite's description (RunSpecs).
	Suite string `json:"suite,omitempty"`
	// Filtered is true when the run did not run every spec (a focus, a
	// skip, a label or version filter, a dry run): its figures cover part
	// of the suite, and the floors are not checked.
	Filtered bool    `json:"filtered,omitempty"`
	Summary  Summary `json:"summary"`
	// Floors are the floors the run was checked against, met or not.
	Floors []FloorResult `json:"floors,omitempty"`
	Pages  []Page        `json:"pages"`
}

// Summary gives every measure over the declared actions of every page.
type Summary struct {
	Actions          Figure `json:"actions"`
	Confirm          Figure `json:"confirm"`
	StepFailed       Figure `json:"step_failed"`
	Resumed          Figure `json:"resumed"`
	HandoffCompleted Figure `json:"handoff_completed"`
	HandoffCancelled Figure `json:"handoff_cancelled"`
	BothTransports   Figure `json:"both_transports"`
	Codes            Codes  `json:"codes"`
}

// Figure is one measure: Covered of Of declared actions, and the ones
// missing.
type Figure struct {
	Covered int   `json:"covered"`
	Of      int   `json:"of"`
	Missing []Ref `json:"missing,omitempty"`
}

// Percent is Covered out of Of in percent; 100 when Of is 0, since nothing
// was left to cover.
func (f Figure) Percent() float64 {
	if f.Of == 0 {
		return 100
	}
	return 100 * float64(f.Covered) / float64(f.Of)
}

// Ref names an action of a page.
type Ref struct {
	Page   string `json:"page"`
	Action string `json:"action"`
}

func (r Ref) String() string { return r.Page + ": " + r.Action }

// Codes counts the failure codes seen: Seen distinct (page, action, code)
// triples, on Actions actions, the codes themselves sorted.
type Codes struct {
	Seen    int            `json:"seen"`
	Actions int            `json:"actions"`
	Codes   []receipt.Code `json:"codes,omitempty"`
}

// Figure returns the summary's figure for m.
func (s Summary) Figure(m Measure) Figure {
	switch m {
	case MeasureActions:
		return s.Actions
	case MeasureConfirm:
		return s.Confirm
	case MeasureStepFailed:
		return s.StepFailed
	case MeasureResumed:
		return s.Resumed
	case MeasureHandoffCompleted:
		return s.HandoffCompleted
	case MeasureHandoffCancelled:
		return s.HandoffCancelled
	case MeasureBothTransports:
		return s.BothTransports
	}
	return Figure{}
}

func (s *Summary) figure(m Measure) *Figure {
	switch m {
	case MeasureActions:
		return &s.Actions
	case MeasureConfirm:
		return &s.Confirm
	case MeasureStepFailed:
		return &s.StepFailed
	case MeasureResumed:
		return &s.Resumed
	case MeasureHandoffCompleted:
		return &s.HandoffCompleted
	case MeasureHandoffCancelled:
		return &s.HandoffCancelled
	case MeasureBothTransports:
		return &s.BothTransports
	}
	return nil
}

// Applies reports whether measure m counts action a, and Covered whether a
// meets it.
func Applies(m Measure, a Action) bool {
	if !a.Declared {
		return false
	}
	switch m {
	case MeasureActions:
		return true
	case MeasureConfirm:
		// A step-only action is never called on its own: its flow asks.
		return a.Confirm && !a.StepOnly
	case MeasureStepFailed, MeasureResumed:
		return a.Kind == receipt.KindFlow
	case MeasureHandoffCompleted, MeasureHandoffCancelled:
		return a.Kind == receipt.KindHandoff
	case MeasureBothTransports:
		return !a.StepOnly
	}
	return false
}

// Covered reports whether action a meets measure m (whether or not m
// applies to it).
func Covered(m Measure, a Action) bool {
	switch m {
	case MeasureActions:
		if a.StepOnly {
			return a.Has(CellAsStep) || a.Has(CellCalled)
		}
		return a.Has(CellCalled)
	case MeasureConfirm:
		return a.Has(CellApproved) && (a.Has(CellDenied) || a.Has(CellNoChannel))
	case MeasureStepFailed:
		return a.Has(CellStepFailed)
	case MeasureResumed:
		return a.Has(CellResumed)
	case MeasureHandoffCompleted:
		return a.Has(CellHandoffCompleted)
	case MeasureHandoffCancelled:
		return a.Has(CellHandoffCancelled)
	case MeasureBothTransports:
		return a.Has(CellBridge) && a.Has(CellWebMCP)
	}
	return false
}

// New merges the observations of a suite — every page of every spec, from
// every process, in any order — into its report. The result does not
// depend on the order of the observations.
func New(suite string, filtered bool, obs ...Observation) *Report {
	pages := map[string]*Page{}
	for _, o := range obs {
		for _, p := range o.Pages {
			if cur, ok := pages[p.Page]; ok {
				mergePage(cur, p)
				continue
			}
			cp := Page{Page: p.Page, Title: p.Title, Omitted: p.Omitted}
			mergePage(&cp, p)
			pages[p.Page] = &cp
		}
	}
	r := &Report{Format: Format, Suite: suite, Filtered: filtered, Pages: []Page{}}
	for _, k := range slices.Sorted(maps.Keys(pages)) {
		p := pages[k]
		slices.SortFunc(p.Actions, func(a, b Action) int { return strings.Compare(a.Name, b.Name) })
		r.Pages = append(r.Pages, *p)
	}
	r.Summary = summarise(r.Pages)
	return r
}

func mergePage(dst *Page, src Page) {
	// Of two titles the first by name: a page's title may change while it
	// runs, and the result must not depend on which process came first.
	if dst.Title == "" || (src.Title != "" && src.Title < dst.Title) {
		dst.Title = src.Title
	}
	dst.Omitted = max(dst.Omitted, src.Omitted)
	for _, a := range src.Actions {
		i := slices.IndexFunc(dst.Actions, func(b Action) bool { return b.Name == a.Name })
		if i < 0 {
			dst.Actions = append(dst.Actions, Action{Name: a.Name, Declared: a.Declared, Kind: a.Kind, Risk: a.Risk, StepOnly: a.StepOnly})
			i = len(dst.Actions) - 1
		}
		mergeAction(&dst.Actions[i], a)
	}
}

func mergeAction(dst *Action, src Action) {
	switch {
	case src.Declared && !dst.Declared:
		// What a page declared wins over what a call named.
		dst.Declared, dst.Kind, dst.Risk, dst.Confirm, dst.Rows, dst.StepOnly = true, src.Kind, src.Risk, src.Confirm, src.Rows, src.StepOnly
	case src.Declared:
		mergeDeclaration(dst, src)
	}
	dst.Calls += src.Calls
	for c, specs := range src.Cells {
		if dst.Cells == nil {
			dst.Cells = map[Cell][]string{}
		}
		dst.Cells[c] = union(dst.Cells[c], specs)
	}
	for _, cs := range src.Codes {
		i := slices.IndexFunc(dst.Codes, func(d CodeSeen) bool { return d.Code == cs.Code && d.Phase == cs.Phase })
		if i < 0 {
			dst.Codes = append(dst.Codes, CodeSeen{Code: cs.Code, Phase: cs.Phase})
			i = len(dst.Codes) - 1
		}
		dst.Codes[i].Specs = union(dst.Codes[i].Specs, cs.Specs)
	}
	slices.SortFunc(dst.Codes, func(a, b CodeSeen) int { return compareCode(codeKey{a.Code, a.Phase}, codeKey{b.Code, b.Phase}) })
}

func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func summarise(pages []Page) Summary {
	var s Summary
	codes := map[receipt.Code]bool{}
	for _, p := range pages {
		for _, a := range p.Actions {
			for _, m := range Measures {
				if !Applies(m, a) {
					continue
				}
				f := s.figure(m)
				f.Of++
				if Covered(m, a) {
					f.Covered++
				} else {
					f.Missing = append(f.Missing, Ref{Page: p.Page, Action: a.Name})
				}
			}
			seen := map[receipt.Code]bool{}
			for _, c := range a.Codes {
				seen[c.Code] = true
				codes[c.Code] = true
			}
			s.Codes.Seen += len(seen)
			if len(seen) > 0 {
				s.Codes.Actions++
			}
		}
	}
	s.Codes.Codes = slices.Sorted(maps.Keys(codes))
	return s
}

// JSON is the report as glass-coverage.json holds it: indented by two
// spaces, ending in a newline, with every character a terminal would act
// on escaped (receipt.PrintableJSON).
func (r *Report) JSON() ([]byte, error) {
	b, err := receipt.CanonicalJSON(r)
	if err != nil {
		return nil, fmt.Errorf("coverage: encode the report: %w", err)
	}
	return receipt.PrintableJSON(b), nil
}

// Decode reads a glass-coverage.json. Unknown fields, cells and measures
// are errors: the file is Glass's own.
func Decode(b []byte) (*Report, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("coverage: decode the report: %w", err)
	}
	if r.Format != Format {
		return nil, fmt.Errorf("coverage: decode the report: format %q, want %q", r.Format, Format)
	}
	return &r, nil
}

// Line is the one-line summary a suite prints, ending with where the HTML
// view is (htmlPath; left out when empty). Page text in it is shown as
// receipt.PrintableText shows it.
func (r *Report) Line(htmlPath string) string {
	s := r.Summary
	parts := []string{
		fmt.Sprintf("%d/%d actions called", s.Actions.Covered, s.Actions.Of),
		fmt.Sprintf("%d/%d asking confirmation approved and denied", s.Confirm.Covered, s.Confirm.Of),
		fmt.Sprintf("flows %d/%d failed a step, %d/%d resumed", s.StepFailed.Covered, s.StepFailed.Of, s.Resumed.Covered, s.Resumed.Of),
		fmt.Sprintf("hand-offs %d/%d completed, %d/%d cancelled", s.HandoffCompleted.Covered, s.HandoffCompleted.Of, s.HandoffCancelled.Covered, s.HandoffCancelled.Of),
		fmt.Sprintf("%s over %s", plural(s.Codes.Seen, "failure code"), plural(s.Codes.Actions, "action")),
		fmt.Sprintf("%d/%d over both transports", s.BothTransports.Covered, s.BothTransports.Of),
	}
	line := "glass coverage: " + strings.Join(parts, " · ")
	if r.Filtered {
		line += " (a filtered run)"
	}
	if htmlPath != "" {
		line += " — " + receipt.PrintableText(htmlPath)
	}
	return line
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
