package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTheReferenceExamplesCompile holds the examples of docs/matchers.md
// (the indented blocks of the matchers' doc comments) to code that
// compiles: each block becomes the body of a function over a page, a
// receipt, a resume handle and arguments, added to this package through
// go vet's -overlay (nothing is written into the tree), and go vet must
// accept it. A renamed matcher or a changed signature fails here instead
// of leaving the reference wrong.
func TestTheReferenceExamplesCompile(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(root, "docs", "matchers.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := indentedBlocks(string(md))
	if len(blocks) < 10 {
		t.Fatalf("found %d example blocks in docs/matchers.md, want the reference's examples", len(blocks))
	}
	src, lines := exampleSource(blocks)
	// An import block is held to the imports the examples compile with.
	for _, block := range blocks {
		if !strings.HasPrefix(block[0], "import") {
			continue
		}
		for _, l := range block[1:] {
			if l != ")" && !strings.Contains(src, "\t"+l+"\n") {
				t.Errorf("docs/matchers.md shows the import %s, which the compiled examples do not use", l)
			}
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "examples.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(root, "docs", "matchersdoc", "zz_reference_examples.go"): file,
	}})
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "-overlay", ov, "./docs/matchersdoc")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the examples of docs/matchers.md do not compile (%d lines):\n%s", lines, out)
	}
}

// indentedBlocks returns the tab-indented blocks of a generated reference.
func indentedBlocks(md string) [][]string {
	var blocks [][]string
	var cur []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "\t") {
			cur = append(cur, strings.TrimSpace(l))
			continue
		}
		if len(cur) > 0 {
			blocks = append(blocks, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		blocks = append(blocks, cur)
	}
	return blocks
}

var declared = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*:=`)

// exampleSource writes each block as a function body: statements stay
// statements, a bare matcher expression is assigned to _, and every
// variable a block declares is used.
func exampleSource(blocks [][]string) (string, int) {
	var b strings.Builder
	b.WriteString(`package main

import (
	"time"

	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	. "github.com/glassworks/glass/matchers/golden"
	"github.com/glassworks/glass/receipt"
)

var (
	_ = time.Millisecond
	_ = glasstest.Deny
	_ = receipt.Protocol
	_ = Equal
)
`)
	n := 0
	for i, block := range blocks {
		if strings.HasPrefix(block[0], "import") {
			continue
		}
		fmt.Fprintf(&b, "\nfunc referenceExample%d(page *glasstest.Page, r *receipt.Receipt, handle string, args map[string]any) {\n\t_, _, _, _ = page, r, handle, args\n\t{\n", i)
		var vars []string
		for _, l := range block {
			if l == "" || strings.HasPrefix(l, "//") {
				continue
			}
			n++
			switch m := declared.FindStringSubmatch(l); {
			case m != nil:
				vars = append(vars, m[1])
				b.WriteString("\t\t" + l + "\n")
			case strings.HasPrefix(l, "Expect("):
				b.WriteString("\t\t" + l + "\n")
			default:
				b.WriteString("\t\t_ = " + l + "\n")
			}
		}
		for _, v := range vars {
			b.WriteString("\t\t_ = " + v + "\n")
		}
		b.WriteString("\t}\n}\n")
	}
	return b.String(), n
}
