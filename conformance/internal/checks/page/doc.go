// Package page holds the checks of what the page declares and of its
// runtime's global: the global itself, ready, the snapshot and its bounds,
// the kinds of actions, no-throw, fidelity assignment, normalised arguments
// and how often a handler ran.
package page
