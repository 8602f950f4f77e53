package coverage

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// Floor requires a measure to reach Min percent of its declared actions.
type Floor struct {
	Measure Measure `json:"measure"`
	Min     float64 `json:"min"`
}

// FloorResult is a floor and what the run reached.
type FloorResult struct {
	Floor
	Covered int     `json:"covered"`
	Of      int     `json:"of"`
	Percent float64 `json:"percent"`
	Met     bool    `json:"met"`
}

// ParseFloors reads floors as GLASS_COVERAGE_MIN gives them: either one
// percentage, the floor of MeasureActions ("80", "80%"), or a
// comma-separated list of measure=percentage
// ("actions=100,confirm=100,step_failed=50"). An empty text is no floor.
// A percentage is a number from 0 to 100, with or without "%".
func ParseFloors(text string) ([]Floor, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if !strings.Contains(text, "=") {
		min, err := percent(text)
		if err != nil {
			return nil, fmt.Errorf("coverage: floor %q: %w", text, err)
		}
		return []Floor{{Measure: MeasureActions, Min: min}}, nil
	}
	var floors []Floor
	seen := map[Measure]bool{}
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		name, value, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("coverage: floor %q: want measure=percentage", item)
		}
		m := Measure(strings.TrimSpace(name))
		if !slices.Contains(Measures, m) {
			return nil, fmt.Errorf("coverage: floor %q: unknown measure %q (want %s)", item, m, list(Measures))
		}
		if seen[m] {
			return nil, fmt.Errorf("coverage: floor %q: measure %q is given twice", item, m)
		}
		seen[m] = true
		min, err := percent(value)
		if err != nil {
			return nil, fmt.Errorf("coverage: floor %q: %w", item, err)
		}
		floors = append(floors, Floor{Measure: m, Min: min})
	}
	return floors, nil
}

func percent(s string) (float64, error) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 || v > 100 || v != v {
		return 0, fmt.Errorf("%q is not a percentage from 0 to 100", s)
	}
	return v, nil
}

// ErrBelowFloor is wrapped by the error of Check when a floor is not met.
var ErrBelowFloor = errors.New("coverage below the floor")

// maxNamed bounds how many missing actions a floor's error names.
const maxNamed = 10

// Check compares the report with the floors, records every result in
// r.Floors, and returns an error wrapping ErrBelowFloor that names, for
// every floor not met, the figure reached and the actions missing. A floor
// is met when Covered/Of reaches its Min, and always when Of is 0.
func (r *Report) Check(floors []Floor) error {
	r.Floors = nil
	var lines []string
	for _, f := range floors {
		if _, err := f.Measure.MarshalText(); err != nil {
			return err
		}
		if f.Min < 0 || f.Min > 100 || f.Min != f.Min {
			return fmt.Errorf("coverage: floor of %s: %v is not a percentage from 0 to 100", f.Measure, f.Min)
		}
		fig := r.Summary.Figure(f.Measure)
		res := FloorResult{Floor: f, Covered: fig.Covered, Of: fig.Of, Percent: fig.Percent()}
		res.Met = fig.Of == 0 || float64(fig.Covered)*100 >= f.Min*float64(fig.Of)
		r.Floors = append(r.Floors, res)
		if res.Met {
			continue
		}
		names := make([]string, 0, maxNamed)
		for i, m := range fig.Missing {
			if i == maxNamed {
				names = append(names, fmt.Sprintf("and %d more", len(fig.Missing)-maxNamed))
				break
			}
			// Page text, shown on a terminal: escaped, never obeyed.
			names = append(names, receipt.PrintableText(m.String()))
		}
		lines = append(lines, fmt.Sprintf("%s %d/%d = %s, want at least %s: %s %s",
			f.Measure, fig.Covered, fig.Of, pct(res.Percent), pct(f.Min), missingWhat(f.Measure), strings.Join(names, ", ")))
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%w:\n  %s", ErrBelowFloor, strings.Join(lines, "\n  "))
}

// pct shows a percentage with at most one decimal, rounded down so that a
// figure just below a floor never reads as the floor: 75%, 66.6%.
func pct(v float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(math.Floor(v*10)/10, 'f', 1, 64), ".0") + "%"
}

func missingWhat(m Measure) string {
	switch m {
	case MeasureActions:
		return "not called:"
	case MeasureConfirm:
		return "without an approved and a denied call:"
	case MeasureStepFailed:
		return "no step failed:"
	case MeasureResumed:
		return "never resumed:"
	case MeasureHandoffCompleted:
		return "never completed:"
	case MeasureHandoffCancelled:
		return "never cancelled:"
	case MeasureBothTransports:
		return "not called over both transports:"
	}
	return "missing:"
}
