package scrub

import (
	"maps"
	"slices"
	"sync"
)

// Registry is a set of values that only grows, safe for concurrent use:
// glasstest keeps in one every sensitive value a call of the process used,
// for the evidence no single page owns. The zero Registry is empty.
type Registry struct {
	mu     sync.Mutex
	values map[string]bool
	set    *Set // built from values on first use after a change
}

// Add adds the values that are not empty.
func (r *Registry) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range values {
		if v != "" && !r.values[v] {
			if r.values == nil {
				r.values = map[string]bool{}
			}
			r.values[v] = true
			r.set = nil
		}
	}
}

// Values lists the values, in no order.
func (r *Registry) Values() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Collect(maps.Keys(r.values))
}

// Set is a Set of the values, built once for each state of the registry.
func (r *Registry) Set() *Set {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set == nil {
		r.set = New(slices.Collect(maps.Keys(r.values))...)
	}
	return r.set
}
