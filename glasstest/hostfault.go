package glasstest

import (
	"slices"

	"github.com/glassworks/glass/internal/hostfault"
)

// The host mutants of the conformance suite reach the harness through the
// internal package hostfault; no exported API of glasstest can break the
// host.
func init() {
	hostfault.Option = func(f hostfault.Fault) any {
		return Option(func(s *settings) { s.faults = append(slices.Clone(s.faults), f) })
	}
}

// broken reports whether the settings ask the host to break f.
func (s settings) broken(f hostfault.Fault) bool { return slices.Contains(s.faults, f) }
