package snippets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type step struct {
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

// TestTheCoverageFragmentUsesTheActionsInputs: the workflow fragment of
// docs/coverage.md passes the action only inputs it declares, the coverage
// files among them, and action.yml uploads them whatever the steps before
// did.
func TestTheCoverageFragmentUsesTheActionsInputs(t *testing.T) {
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
		Runs   struct {
			Steps []step `yaml:"steps"`
		} `yaml:"runs"`
	}
	read(t, filepath.Join("..", "..", "action.yml"), &action)
	var frag struct {
		Jobs map[string]struct {
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	read(t, "ci-coverage.yml", &frag)

	used := false
	for _, j := range frag.Jobs {
		for _, s := range j.Steps {
			if !strings.HasPrefix(s.Uses, "glassworks/glass@") {
				continue
			}
			for k := range s.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("the fragment passes %s, which action.yml does not declare", k)
				}
			}
			used = s.With["coverage"] != ""
		}
	}
	if !used {
		t.Error("the fragment hands the action no coverage files")
	}
	uploads := false
	for _, s := range action.Runs.Steps {
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") && strings.Contains(s.With["path"], "inputs.coverage") {
			uploads = strings.HasPrefix(s.If, "always()") && strings.Contains(s.If, "inputs.coverage")
		}
	}
	if !uploads {
		t.Error("action.yml does not upload inputs.coverage with actions/upload-artifact, if: always() and the input is set")
	}
}

func read(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
