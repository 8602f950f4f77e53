package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The GitHub Action and its example workflow cannot run here; this test
// holds them to what can be checked without GitHub: valid YAML of the
// expected shape, every file they name exists, every expression names a
// declared input or step, and every flag they pass to glass-conformance is
// one it has.

type actionFile struct {
	Name        string                       `yaml:"name"`
	Description string                       `yaml:"description"`
	Branding    map[string]string            `yaml:"branding"`
	Inputs      map[string]actionInput       `yaml:"inputs"`
	Outputs     map[string]map[string]string `yaml:"outputs"`
	Runs        struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description string  `yaml:"description"`
	Required    bool    `yaml:"required"`
	Default     *string `yaml:"default"`
}

type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
}

type workflowFile struct {
	Name string         `yaml:"name"`
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		RunsOn         string       `yaml:"runs-on"`
		TimeoutMinutes int          `yaml:"timeout-minutes"`
		Steps          []actionStep `yaml:"steps"`
	} `yaml:"jobs"`
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

var (
	actionPathRef = regexp.MustCompile(`\$\{\{ *github\.action_path *\}\}/([A-Za-z0-9_./-]+)`)
	relativeRef   = regexp.MustCompile(`(?:^|\s)\./([A-Za-z0-9_./-]+)`)
	inputRef      = regexp.MustCompile(`inputs\.([A-Za-z0-9_-]+)`)
	stepRef       = regexp.MustCompile(`steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)
	outputWrite   = regexp.MustCompile(`echo "([A-Za-z0-9_-]+)=.*>> "\$GITHUB_OUTPUT"`)
	runFlag       = regexp.MustCompile(`(--[a-z-]+)`)
	helpFlag      = regexp.MustCompile(`(?m)^\s+-([a-z-]+)`)
)

// mustExist fails unless path, relative to the repository root, exists.
func mustExist(t *testing.T, root, from, path string) {
	t.Helper()
	path = strings.TrimSuffix(path, "/")
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil {
		t.Errorf("%s names %s, which does not exist", from, path)
	}
}

var expression = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// bashSyntax checks a run script with bash -n, its ${{ }} expressions
// replaced by a word.
func bashSyntax(t *testing.T, where, script string) {
	t.Helper()
	if script == "" {
		return
	}
	cmd := exec.Command("bash", "-n", "-c", expression.ReplaceAllString(script, "/expr"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: bash -n: %v\n%s", where, err, out)
	}
}

func TestActionAndExampleWorkflow(t *testing.T) {
	root := repoRoot(t)
	var action actionFile
	readYAML(t, filepath.Join(root, "action.yml"), &action)

	if action.Name == "" || action.Description == "" {
		t.Error("action.yml needs a name and a description (the Marketplace shows them)")
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", action.Runs.Using)
	}
	for _, in := range []string{"url", "manifest", "transport", "args"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml lacks the input %q", in)
		}
	}
	if !action.Inputs["url"].Required {
		t.Error("the url input must be required")
	}

	// Flags run accepts, from its own help.
	help := runBinary(t, "run", "-h")
	known := map[string]bool{}
	for _, m := range helpFlag.FindAllStringSubmatch(help.stdout, -1) {
		known["--"+m[1]] = true
	}
	if !known["--junit"] || !known["--url"] {
		t.Fatalf("could not read run's flags from its help:\n%s", help.stdout)
	}

	ids := map[string]map[string]bool{} // step id → outputs it writes
	var uploads, runs bool
	for i, s := range action.Runs.Steps {
		where := "action.yml step " + s.Name
		if s.Name == "" {
			t.Errorf("action.yml step %d has no name", i)
		}
		if (s.Run == "") == (s.Uses == "") {
			t.Errorf("%s: want exactly one of run and uses", where)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("%s: a composite action's run step needs a shell", where)
		}
		bashSyntax(t, where, s.Run)
		if s.ID != "" {
			ids[s.ID] = map[string]bool{}
			for _, m := range outputWrite.FindAllStringSubmatch(s.Run, -1) {
				ids[s.ID][m[1]] = true
			}
		}
		all := s.Run + " " + s.WorkingDirectory + " " + s.If
		for _, v := range s.With {
			all += " " + v
		}
		for _, v := range s.Env {
			all += " " + v
		}
		for _, m := range actionPathRef.FindAllStringSubmatch(all, -1) {
			mustExist(t, root, where, m[1])
		}
		for _, m := range relativeRef.FindAllStringSubmatch(s.Run, -1) {
			mustExist(t, root, where, m[1])
		}
		for _, m := range inputRef.FindAllStringSubmatch(all, -1) {
			if _, ok := action.Inputs[m[1]]; !ok {
				t.Errorf("%s uses inputs.%s, which is not declared", where, m[1])
			}
		}
		for _, m := range stepRef.FindAllStringSubmatch(all, -1) {
			if !ids[m[1]][m[2]] {
				t.Errorf("%s uses steps.%s.outputs.%s, which no earlier step writes", where, m[1], m[2])
			}
		}
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			uploads = s.If == "always()"
		}
		if strings.Contains(s.Run, `glass-conformance" run`) {
			runs = true
			for _, f := range runFlag.FindAllString(s.Run, -1) {
				if !known[f] {
					t.Errorf("%s passes %s, which glass-conformance run does not have", where, f)
				}
			}
			for _, want := range []string{"--junit", "--html", "--artifacts"} {
				if !strings.Contains(s.Run, want) {
					t.Errorf("%s does not pass %s", where, want)
				}
			}
		}
	}
	if !runs {
		t.Error("no step of action.yml runs glass-conformance run")
	}
	if !uploads {
		t.Error("action.yml must upload the reports with actions/upload-artifact, if: always()")
	}
	last := action.Runs.Steps[len(action.Runs.Steps)-1]
	if !strings.Contains(last.Run, "exit 1") {
		t.Error("the last step of action.yml must fail the job on a violation")
	}
	for name, out := range action.Outputs {
		for _, m := range stepRef.FindAllStringSubmatch(out["value"], -1) {
			if !ids[m[1]][m[2]] {
				t.Errorf("output %s uses steps.%s.outputs.%s, which no step writes", name, m[1], m[2])
			}
		}
	}

	var wf workflowFile
	path := filepath.Join(root, ".github", "workflows", "conformance-example.yml")
	readYAML(t, path, &wf)
	if len(wf.Jobs) == 0 {
		t.Fatal("the example workflow has no job")
	}
	var usesAction bool
	for job, j := range wf.Jobs {
		for _, s := range j.Steps {
			where := "job " + job + " step " + s.Name
			bashSyntax(t, where, s.Run)
			for _, m := range relativeRef.FindAllStringSubmatch(s.Run, -1) {
				mustExist(t, root, where, m[1])
			}
			if s.Uses == "./" {
				usesAction = true
				mustExist(t, root, where, "action.yml")
				var with []string
				for k := range s.With {
					with = append(with, k)
				}
				sort.Strings(with)
				for _, k := range with {
					if _, ok := action.Inputs[k]; !ok {
						t.Errorf("%s passes %s, which the action does not declare", where, k)
					}
				}
				if s.With["manifest"] != "" {
					mustExist(t, root, where, s.With["manifest"])
				}
				if s.With["url"] == "" {
					t.Errorf("%s passes no url", where)
				}
			}
			if s.With["go-version-file"] != "" {
				mustExist(t, root, where, s.With["go-version-file"])
			}
		}
	}
	if !usesAction {
		t.Error("the example workflow does not use the action (uses: ./)")
	}

	// The fragment docs/ci.md shows, as another repository would use it.
	var frag workflowFile
	readYAML(t, filepath.Join(root, "docs", "snippets", "ci-baseline.yml"), &frag)
	var used bool
	for _, j := range frag.Jobs {
		for _, s := range j.Steps {
			if !strings.HasPrefix(s.Uses, "glassworks/glass@") {
				continue
			}
			used = true
			for k, v := range s.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("docs/snippets/ci-baseline.yml passes %s, which the action does not declare", k)
				}
				if k == "args" {
					for _, f := range runFlag.FindAllString(v, -1) {
						if !known[f] {
							t.Errorf("docs/snippets/ci-baseline.yml passes %s, which run does not have", f)
						}
					}
				}
			}
		}
	}
	if !used {
		t.Error("docs/snippets/ci-baseline.yml does not use the action")
	}
}
