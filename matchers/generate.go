package matchers

// The matcher reference, docs/matchers.md, is generated from this
// package's doc comments (and matchers/golden's).
//go:generate go run ../docs/matchersdoc -root .. -o ../docs/matchers.md
