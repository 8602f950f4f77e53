package manifest

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/catalog"
)

// Baseline is a list of rules known to fail (--expected-failures): one rule
// id per line, "#" starts a comment, blank lines are ignored.
//
//	# known violations of our app, tracked in JIRA-123
//	policy.no-channel     # the SDK asks the page itself
//	changed.write-warning
type Baseline struct {
	Name string
	// Reasons maps each listed rule id to its comment (may be empty).
	Reasons map[string]string
	order   []string
}

// IDs lists the baseline's rule ids in file order.
func (b *Baseline) IDs() []string { return append([]string(nil), b.order...) }

// LoadBaseline reads and validates the baseline at file, a regular file
// of at most MaxFileSize bytes.
func LoadBaseline(file string) (*Baseline, error) {
	data, err := readFile(file)
	if err != nil {
		return nil, fmt.Errorf("expected failures %q: cannot read it: %w", file, err)
	}
	return ParseBaseline(file, data)
}

// ParseBaseline parses a baseline; every id must name a rule of the
// catalog, so a renamed rule cannot hide in a stale baseline.
func ParseBaseline(name string, data []byte) (*Baseline, error) {
	b := &Baseline{Name: name, Reasons: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text, comment, _ := strings.Cut(sc.Text(), "#")
		id := strings.TrimSpace(text)
		if id == "" {
			continue
		}
		if strings.ContainsAny(id, " \t") {
			return nil, fmt.Errorf("expected failures %q: line %d: want one rule id per line, got %q", name, line, id)
		}
		if _, ok := catalog.ByID(id); !ok {
			return nil, fmt.Errorf("expected failures %q: line %d: unknown rule id %q (see glass-conformance rules)", name, line, id)
		}
		if _, dup := b.Reasons[id]; dup {
			return nil, fmt.Errorf("expected failures %q: line %d: %q listed twice", name, line, id)
		}
		b.Reasons[id] = strings.TrimSpace(comment)
		b.order = append(b.order, id)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("expected failures %q: %w", name, err)
	}
	return b, nil
}
