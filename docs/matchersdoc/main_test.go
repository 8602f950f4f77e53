package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheReferenceIsCurrent fails when a doc comment of the matchers
// changed and docs/matchers.md was not regenerated.
func TestTheReferenceIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := render(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "docs", "matchers.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("docs/matchers.md is stale: run go generate ./matchers")
	}
	for _, name := range []string{"### HaveChanged", "### SatisfyExpectation", "### FailAtPhase", "### MatchGoldenReceipt"} {
		if !strings.Contains(string(want), name) {
			t.Errorf("the reference lacks %s", name)
		}
	}
}
