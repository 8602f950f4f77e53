package devserver

import (
	"slices"
	"sync"
)

// Registry is a list of running servers, safe for concurrent use: the
// servers a test process started, for the evidence of its failures.
type Registry[T comparable] struct {
	mu   sync.Mutex
	list []T
}

// Add puts s on the list.
func (r *Registry[T]) Add(s T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, s)
}

// Remove takes s off the list, if it is there.
func (r *Registry[T]) Remove(s T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i := slices.Index(r.list, s); i >= 0 {
		r.list = slices.Delete(r.list, i, i+1)
	}
}

// All is a copy of the list, in the order the servers were added.
func (r *Registry[T]) All() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.list)
}
