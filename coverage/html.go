package coverage

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/glassworks/glass/receipt"
)

//go:embed report.html.tmpl
var htmlSource string

// The template is parsed once; html/template escapes every page-provided
// text (page keys, titles, action names) and every spec name by context.
var htmlTemplate = template.Must(template.New("coverage").Parse(htmlSource))

// WriteHTML writes the HTML view of the report: one self-contained page
// (no script, no external asset) with the summary, the floors, and a table
// per page of every action against what the specs exercised, each cell
// naming the specs.
func (r *Report) WriteHTML(w io.Writer) error {
	if err := htmlTemplate.Execute(w, r.view()); err != nil {
		return fmt.Errorf("coverage: write the HTML view: %w", err)
	}
	return nil
}

type htmlView struct {
	Suite    string
	Filtered bool
	Measures []measureView
	Codes    Codes
	Floors   []floorView
	Pages    []pageView
}

type measureView struct {
	Name    Measure
	Label   string
	Covered int
	Of      int
	Percent float64
	Missing []string
}

type floorView struct {
	Measure Measure
	Min     string
	Got     string
	Met     bool
}

type pageView struct {
	Page        string
	Title       string
	Omitted     int
	MaxDeclared int
	Groups      []groupView
	Columns     []columnView
	Rows        []rowView
}

type groupView struct {
	Label string
	Span  int
}

type columnView struct {
	Key   string
	Label string
	Code  bool
}

type rowView struct {
	Name     string
	Declared bool
	Badges   []string
	Calls    int
	Cells    []cellView
}

type cellView struct {
	Key   string
	Class string
	Specs []string
}

// measureLabels say what each measure counts, in the summary table.
var measureLabels = map[Measure]string{
	MeasureActions:          "declared actions called (step-only ones: run as a step)",
	MeasureConfirm:          "actions asking confirmation, approved and denied",
	MeasureStepFailed:       "flows with a failed step",
	MeasureResumed:          "flows resumed",
	MeasureHandoffCompleted: "hand-offs completed",
	MeasureHandoffCancelled: "hand-offs cancelled",
	MeasureBothTransports:   "callable actions called over both transports",
}

// cellLabels are the column headings.
var cellLabels = map[Cell]string{
	CellCalled: "called", CellOK: "ok", CellBridge: "bridge", CellWebMCP: "WebMCP",
	CellApproved: "approved", CellDenied: "denied", CellNoChannel: "no channel",
	CellAsStep: "as a step", CellStepFailed: "step failed", CellResumed: "resumed",
	CellHandoffCompleted: "completed", CellHandoffCancelled: "cancelled", CellHandoffTimeout: "timed out", CellHandoffFailed: "failed",
}

// cellGroups are the column groups, in order; a group shows on a page
// when one of its cells applies to an action of the page or was exercised.
var cellGroups = []struct {
	label string
	cells []Cell
}{
	{"calls", []Cell{CellCalled, CellOK, CellBridge, CellWebMCP}},
	{"confirmation", []Cell{CellApproved, CellDenied, CellNoChannel}},
	{"flow", []Cell{CellAsStep, CellStepFailed, CellResumed}},
	{"hand-off", []Cell{CellHandoffCompleted, CellHandoffCancelled, CellHandoffTimeout, CellHandoffFailed}},
}

func (r *Report) view() htmlView {
	v := htmlView{Suite: r.Suite, Filtered: r.Filtered, Codes: r.Summary.Codes}
	for _, m := range Measures {
		f := r.Summary.Figure(m)
		mv := measureView{Name: m, Label: measureLabels[m], Covered: f.Covered, Of: f.Of, Percent: f.Percent()}
		for _, ref := range f.Missing {
			mv.Missing = append(mv.Missing, ref.String())
		}
		v.Measures = append(v.Measures, mv)
	}
	for _, f := range r.Floors {
		v.Floors = append(v.Floors, floorView{Measure: f.Measure, Min: pct(f.Min), Got: fmt.Sprintf("%d/%d = %s", f.Covered, f.Of, pct(f.Percent)), Met: f.Met})
	}
	for _, p := range r.Pages {
		v.Pages = append(v.Pages, pageOf(p))
	}
	return v
}

func pageOf(p Page) pageView {
	pv := pageView{Page: p.Page, Title: p.Title, Omitted: p.Omitted, MaxDeclared: MaxDeclared}
	var cells []Cell
	for _, g := range cellGroups {
		if !slices.ContainsFunc(g.cells, func(c Cell) bool { return groupShown(p, c) }) {
			continue
		}
		pv.Groups = append(pv.Groups, groupView{Label: g.label, Span: len(g.cells)})
		for _, c := range g.cells {
			cells = append(cells, c)
			pv.Columns = append(pv.Columns, columnView{Key: string(c), Label: cellLabels[c]})
		}
	}
	var codes []receipt.Code
	for _, a := range p.Actions {
		for _, c := range a.Codes {
			if !slices.Contains(codes, c.Code) {
				codes = append(codes, c.Code)
			}
		}
	}
	slices.Sort(codes)
	if len(codes) > 0 {
		pv.Groups = append(pv.Groups, groupView{Label: "failure codes", Span: len(codes)})
	}
	for _, c := range codes {
		pv.Columns = append(pv.Columns, columnView{Key: "code:" + string(c), Label: string(c), Code: true})
	}
	// Declared actions first, then those only a call named.
	actions := slices.Clone(p.Actions)
	slices.SortStableFunc(actions, func(a, b Action) int {
		switch {
		case a.Declared == b.Declared:
			return 0
		case a.Declared:
			return -1
		}
		return 1
	})
	for _, a := range actions {
		row := rowView{Name: a.Name, Declared: a.Declared, Badges: badges(a), Calls: a.Calls}
		for _, c := range cells {
			row.Cells = append(row.Cells, cellView{Key: string(c), Class: cellClass(a, c), Specs: a.Cells[c]})
		}
		for _, code := range codes {
			cv := cellView{Key: "code:" + string(code)}
			for _, cs := range a.Codes {
				if cs.Code == code {
					cv.Specs = union(cv.Specs, cs.Specs)
				}
			}
			if len(cv.Specs) > 0 {
				cv.Class = "hit"
			}
			row.Cells = append(row.Cells, cv)
		}
		pv.Rows = append(pv.Rows, row)
	}
	return pv
}

// groupShown: c was exercised on an action of p, or applies to one it
// declares (any action may run as a step: that alone shows no flow
// columns).
func groupShown(p Page, c Cell) bool {
	for _, a := range p.Actions {
		if a.Has(c) || expected(a, c) || (a.Declared && c != CellAsStep && applicable(a, c)) {
			return true
		}
	}
	return false
}

func badges(a Action) []string {
	var out []string
	for _, s := range []string{string(a.Kind), string(a.Risk)} {
		if s != "" {
			out = append(out, s)
		}
	}
	if a.Confirm && a.Risk != receipt.RiskDangerous {
		out = append(out, "confirm")
	}
	if a.Rows {
		out = append(out, "per row")
	}
	if a.StepOnly {
		out = append(out, "step-only")
	}
	if !a.Declared {
		out = append(out, "not declared")
	}
	return out
}

// cellClass says how a cell reads: hit (exercised), gap (a spec should
// have exercised it: a measure or the success path counts it), na (it
// cannot happen to this action), or plain.
func cellClass(a Action, c Cell) string {
	switch {
	case a.Has(c):
		return "hit"
	case expected(a, c):
		return "gap"
	case !applicable(a, c):
		return "na"
	}
	return ""
}

// expected: a declared action that lacks c misses something a measure
// counts, or its success path.
func expected(a Action, c Cell) bool {
	if !a.Declared {
		return false
	}
	switch c {
	case CellCalled, CellOK:
		return !a.StepOnly
	case CellAsStep:
		return a.StepOnly
	case CellApproved:
		return a.Confirm && !a.StepOnly
	case CellDenied:
		return a.Confirm && !a.StepOnly && !a.Has(CellNoChannel)
	case CellStepFailed, CellResumed:
		return a.Kind == receipt.KindFlow
	case CellHandoffCompleted, CellHandoffCancelled:
		return a.Kind == receipt.KindHandoff
	}
	return false
}

// applicable: c can happen to a declared action of a's kind.
func applicable(a Action, c Cell) bool {
	if !a.Declared {
		return true
	}
	switch c {
	case CellCalled, CellOK, CellBridge, CellWebMCP:
		return !a.StepOnly
	case CellApproved, CellDenied, CellNoChannel:
		return a.Confirm
	case CellStepFailed, CellResumed:
		return a.Kind == receipt.KindFlow
	case CellHandoffCompleted, CellHandoffCancelled, CellHandoffTimeout, CellHandoffFailed:
		return a.Kind == receipt.KindHandoff
	}
	return true
}
