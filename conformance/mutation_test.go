package conformance

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/fixtures"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

func provingManifest(t testing.TB) *Manifest {
	t.Helper()
	m, err := ParseManifest("proving-manifest.yaml", mutants.ProvingManifest())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func todoManifest(t testing.TB) *Manifest {
	t.Helper()
	m, err := LoadManifest(filepath.Join("..", "cmd", "glass-conformance", "todo-manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func serve(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func browser(t testing.TB) *glasstest.Browser {
	t.Helper()
	b, err := glasstest.Shared()
	if err != nil {
		t.Fatalf("no browser: %v", err)
	}
	return b
}

func TestMutantsFindTheirTextExactlyOnce(t *testing.T) {
	names := map[string]bool{}
	for _, m := range mutants.All {
		if names[m.Name] {
			t.Errorf("mutant name %q is used twice", m.Name)
		}
		names[m.Name] = true
		src, err := m.Runtime()
		if err != nil {
			t.Error(err)
			continue
		}
		if bytes.Equal(src, fixtures.Runtime()) {
			t.Errorf("%s: the mutant runtime is the reference runtime", m.Name)
		}
		if _, ok := RuleByID(m.Rule); !ok {
			t.Errorf("%s breaks %q, which is not a rule of the catalog", m.Name, m.Rule)
		}
		if m.Why == "" {
			t.Errorf("%s: no Why", m.Name)
		}
	}
	if _, err := (mutants.Mutant{Name: "absent", Find: "no such text in the runtime"}).Runtime(); err == nil {
		t.Error("a mutant whose find text is absent applied without error")
	}
}

// TestMutantsAreValidJavaScript parses every mutant runtime with Node.js:
// a mutant that does not parse breaks every rule at once and proves
// nothing about its own.
func TestMutantsAreValidJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to parse the mutants (and by Playwright): %v", err)
	}
	dir := t.TempDir()
	var files []string
	for _, m := range mutants.All {
		src, err := m.Runtime()
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, m.Name+".js")
		if err := os.WriteFile(f, src, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	const parse = `const vm = require("vm"), fs = require("fs");
for (const f of process.argv.slice(1)) {
  try { new vm.Script(fs.readFileSync(f, "utf8"), { filename: f }); } catch (e) { console.log(f + ": " + e.message); }
}`
	out, err := exec.Command(node, append([]string{"-e", parse}, files...)...).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("mutants that do not parse: %v\n%s", err, out)
	}
}

func TestEveryCheckHasAMutant(t *testing.T) {
	for _, id := range CheckIDs() {
		found := false
		for _, m := range mutants.All {
			found = found || m.Rule == id
		}
		if !found {
			t.Errorf("check %s has no mutant in fixtures/mutants: nothing proves it can fail", id)
		}
	}
}

// TestTodoExampleConforms runs the whole suite against the Todo example
// on the reference runtime, over both transports: no rule may fail. (The
// proving page's reference run is the package's Ginkgo suite, where every
// checked rule must pass.)
func TestTodoExampleConforms(t *testing.T) {
	rep, err := Run(Target{URL: serve(t, app.Handler()), Browser: browser(t)}, WithManifest(todoManifest(t)),
		WithTransports(glasstest.TransportBridge, glasstest.TransportWebMCP))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Verdict == Fail {
			t.Errorf("%s fails on the Todo example: %s\n%s", f.Rule.ID, f.Message, evidenceText(f))
		}
	}
	logReport(t, rep)
}

func logReport(t *testing.T, rep *Report) {
	var b strings.Builder
	_ = rep.WriteText(&b)
	t.Log(b.String())
}

// sanityRule is a rule each mutant must still pass, so that a mutant that
// breaks the runtime as a whole (a syntax error, a crash) does not count
// as caught by the rule it names. A mutant of the snapshot has none: every
// other probe derives from the snapshot, so none can pass.
func sanityRule(rule string) string {
	switch rule {
	case snapshotRule:
		return ""
	case "resolve.unknown-id":
		return "args.malformed-json"
	}
	return "resolve.unknown-id"
}

// mutationWorkers is how many mutants the matrix runs at once.
const mutationWorkers = 4

// TestMutationMatrix runs every mutant in front of the proving page,
// checking only the rule it breaks and a sanity rule, and prints the
// mutation matrix. It fails unless every mutant is caught by its rule, its
// sanity rule passes, and every check is proven by a mutant.
func TestMutationMatrix(t *testing.T) {
	b := browser(t)
	manifest := provingManifest(t)
	type row struct {
		m       mutants.Mutant
		verdict Verdict
		sanity  Verdict
		message string
	}
	// GLASS_MUTANTS=name,name runs only those mutants (while working on one).
	all := mutants.All
	if only := os.Getenv("GLASS_MUTANTS"); only != "" {
		all = nil
		for _, name := range strings.Split(only, ",") {
			m, ok := mutants.ByName(strings.TrimSpace(name))
			if !ok {
				t.Fatalf("GLASS_MUTANTS: no mutant %q", name)
			}
			all = append(all, m)
		}
	}
	rows := make([]row, len(all))
	// Mutants run side by side: each run mostly waits for the browser.
	sem := make(chan struct{}, mutationWorkers)
	var wg sync.WaitGroup
	for i, m := range all {
		src, err := m.Runtime()
		if err != nil {
			t.Fatal(err)
		}
		url := serve(t, mutants.WithRuntime(src, mutants.ProvingPage()))
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rep, err := Run(Target{URL: url, Browser: b}, WithManifest(manifest), WithRules(m.Rule, sanityRule(m.Rule)))
			r := row{m: m}
			if sanityRule(m.Rule) == "" {
				r.sanity = "none"
			}
			if err != nil {
				r.message = "run failed: " + err.Error()
			}
			if rep != nil {
				for _, f := range rep.Findings {
					if f.Rule.ID == m.Rule {
						r.verdict, r.message = f.Verdict, f.Message
					} else {
						r.sanity = f.Verdict
					}
				}
			}
			rows[i] = r
		}()
	}
	wg.Wait()

	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MUTANT\tRULE\tRULE VERDICT\tSANITY\tCAUGHT\tWHY IT FAILED")
	killed := 0
	for _, r := range rows {
		caught := r.verdict == Fail && (r.sanity == Pass || r.sanity == "none")
		if caught {
			killed++
		} else {
			t.Errorf("mutant %s survived: %s is %s (want fail), sanity rule %s is %s (want pass): %s",
				r.m.Name, r.m.Rule, r.verdict, sanityRule(r.m.Rule), r.sanity, r.message)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%t\t%s\n", r.m.Name, r.m.Rule, r.verdict, r.sanity, caught, clip(r.message, 110))
	}
	tw.Flush()
	score := 100 * float64(killed) / float64(len(rows))
	fmt.Fprintf(&out, "mutation score: %d/%d mutants caught (%.0f%%)\n", killed, len(rows), score)
	// The matrix is the product of this test: print it even when the
	// test passes and -v is off.
	fmt.Fprint(os.Stdout, out.String())
}
