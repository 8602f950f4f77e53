package conformance

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/glassworks/glass/conformance/internal/checks"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/examples/todo/app"

	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

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

// TestOpenMutantsAreWritten keeps the list of open mutants honest: each
// names a mutant that exists.
func TestOpenMutantsAreWritten(t *testing.T) {
	for name := range mutants.Open {
		if !slices.ContainsFunc(mutants.Written(), func(m mutants.Mutant) bool { return m.Name == name }) {
			t.Errorf("mutants.Open names %q, which no mutant has", name)
		}
	}
}

func TestMutantsFindTheirTextExactlyOnce(t *testing.T) {
	names := map[string]bool{}
	for _, m := range mutants.Written() {
		if names[m.Name] {
			t.Errorf("mutant name %q is used twice", m.Name)
		}
		names[m.Name] = true
		src, err := m.Runtime()
		if err != nil {
			t.Error(err)
			continue
		}
		if bytes.Equal(src, m.Base().Source()) {
			t.Errorf("%s: the mutant runtime is its base runtime, unchanged", m.Name)
		}
		if !slices.Contains(mutants.Bases, m.Base()) {
			t.Errorf("%s: unknown base runtime %q", m.Name, m.Base())
		}
		if _, ok := RuleByID(m.Rule); !ok {
			t.Errorf("%s breaks %q, which is not a rule of the catalog", m.Name, m.Rule)
		}
		if m.Why == "" {
			t.Errorf("%s: no Why", m.Name)
		}
	}
	for _, m := range mutants.Host {
		if names[m.Name] {
			t.Errorf("mutant name %q is used twice", m.Name)
		}
		names[m.Name] = true
		if r, ok := RuleByID(m.Rule); !ok || r.Party != Host {
			t.Errorf("host mutant %s breaks %q, which is not a host rule of the catalog", m.Name, m.Rule)
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
	for _, m := range mutants.Written() {
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
	for _, id := range checks.CheckIDs() {
		found := false
		for _, m := range mutants.All {
			found = found || m.Rule == id
		}
		for _, m := range mutants.Host {
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
	t.Parallel() // with TestBothRuntimesConform's runs: each mostly waits on the browser
	rep, err := Run(Target{URL: serve(t, app.Handler()), Browser: browser(t)}, WithManifest(todoManifest(t)),
		WithTransports(glasstest.TransportBridge, glasstest.TransportWebMCP))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Verdict == Fail {
			t.Errorf("%s fails on the Todo example: %s\n%s", f.Rule.ID, f.Message, report.FailureText(f))
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
// other probe derives from the snapshot, so none can pass. Nor has a
// mutant of ready(): every probe waits for it before it reads the page, so
// a ready() that resolves before the page declared its model, or never,
// breaks every other probe by construction.
func sanityRule(rule string) string {
	switch rule {
	case "protocol.snapshot", "protocol.ready":
		return ""
	case "resolve.unknown-id", "resolve.no-dom-fallback":
		// resolve.unknown-id also calls a declared id in another letter
		// case, which a runtime that matches ids loosely resolves.
		return "args.malformed-json"
	case "protocol.no-throw":
		// A mutant of it rejects malformed arguments, the empty id (which
		// resolve.unknown-id calls) or an unknown handle: a denied call
		// is none of those.
		return "policy.denied"
	}
	// A webmcp rule is checked over WebMCP, and so is its sanity rule:
	// protocol.global, which there needs the runtime installed, its global
	// well-formed and the page's tools listed (a run over WebMCP checks no
	// rule of a page that lists none). A sanity rule that calls a tool
	// would not do: a mutant of webmcp.result breaks the result every call
	// over WebMCP is read from, on purpose; webmcp.tool-names, the sanity
	// rule before, left every mutant alone but calls every action to follow
	// the tools, about 4.5 s of CPU a row (a fifth of the matrix's rows of
	// webmcp rules cost as much as the rest of their run).
	if strings.HasPrefix(rule, "webmcp.") {
		return "protocol.global"
	}
	return "resolve.unknown-id"
}

// mutationWorkers is how many mutants the matrix runs at once. Each run
// has one check at a time and one probe computed ahead; with three runs
// the matrix alone keeps about 1.7 of two cores busy (313 s, 531 s of
// CPU), with two about 1.45 (436 s): in make test the matrix outlasts the
// packages beside it, and ends alone.
const mutationWorkers = 3

// matrixEntry is one row of the mutation matrix: a runtime mutant (a
// broken runtime in front of the proving page) or a host mutant (the
// reference runtime, with the host breaking one of its guarantees).
type matrixEntry struct {
	name, rule, why string
	// group is the matrix the entry is scored in: a base runtime, or
	// "host".
	group   string
	handler http.Handler
	// baseHandler serves the group's page unbroken, with its manifest.
	baseHandler http.Handler
	manifest    *Manifest
	opts        []Option
}

// hostGroup scores the host mutants, which break the harness, not a
// runtime: they run in front of the proving page.
const hostGroup = "host"

func runtimeEntry(t testing.TB, m mutants.Mutant) matrixEntry {
	src, err := m.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	return matrixEntry{name: m.Name, rule: m.Rule, why: m.Why, group: string(m.Base()), handler: m.Base().Page(src),
		baseHandler: m.Base().Page(m.Base().Source()),
		opts:        []Option{WithManifest(baseManifest(t, m.Base()))}}
}

func hostEntry(t testing.TB, m mutants.HostMutant) matrixEntry {
	man := baseManifest(t, mutants.Reference)
	return matrixEntry{name: m.Name, rule: m.Rule, why: m.Why, group: hostGroup, handler: mutants.ProvingPage(), baseHandler: mutants.ProvingPage(),
		manifest: man, opts: []Option{WithManifest(man), withPageOptions(brokenHost(t, m.Name))}}
}

// baseManifest is the conformance manifest of a base runtime's page.
func baseManifest(t testing.TB, b mutants.Base) *Manifest {
	t.Helper()
	m, err := ParseManifest(string(b)+" manifest", b.Manifest())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// matrixEntries lists every mutant, runtime and host, or only those
// GLASS_MUTANTS=name,name names (while working on one).
func matrixEntries(t testing.TB) []matrixEntry {
	var out []matrixEntry
	if only := os.Getenv("GLASS_MUTANTS"); only != "" {
		for _, name := range strings.Split(only, ",") {
			name = strings.TrimSpace(name)
			if m, ok := mutants.ByName(name); ok {
				out = append(out, runtimeEntry(t, m))
			} else if h, ok := mutants.HostByName(name); ok {
				out = append(out, hostEntry(t, h))
			} else {
				t.Fatalf("GLASS_MUTANTS: no mutant %q", name)
			}
		}
		return out
	}
	for _, m := range mutants.All {
		out = append(out, runtimeEntry(t, m))
	}
	for _, h := range mutants.Host {
		out = append(out, hostEntry(t, h))
	}
	return out
}

// baseNames lists the base runtimes, in the matrix's order.
func baseNames() []string {
	names := make([]string, len(mutants.Bases))
	for i, b := range mutants.Bases {
		names[i] = string(b)
	}
	return names
}

// matrixTransports is the transport a mutant's rule is checked over: the
// webmcp rules are probed in the webmcp pass, every other rule over the
// bridge.
func matrixTransports(rule string) Option {
	if strings.HasPrefix(rule, "webmcp.") {
		return WithTransports(glasstest.TransportWebMCP)
	}
	return WithTransports(glasstest.TransportBridge)
}

// TestMutationMatrix runs every mutant in front of the proving page,
// checking only the rule it breaks and a sanity rule, and prints the
// mutation matrix. It fails unless every mutant is caught by its rule, its
// sanity rule passes, and every check is proven by a mutant.
func TestMutationMatrix(t *testing.T) {
	b := browser(t)
	all := matrixEntries(t)
	rows := make([]matrixRow, len(all))
	urls := make([]string, len(all))
	// The rows share one pool of pages: a row's run is a few probes, and
	// most of its opens can then reuse a page another row closed (each
	// mutant is served from its own origin, whose storage is cleared).
	pool := glasstest.NewPagePool()
	defer pool.Close()
	// What each group's unbroken page changes by itself, watched once
	// (withSelfChanging).
	idle := map[string][]any{}
	var watches sync.WaitGroup
	var idleMu sync.Mutex
	started := map[string]bool{}
	for _, m := range all {
		if !started[m.group] {
			started[m.group] = true
			url := serve(t, m.baseHandler)
			watches.Go(func() {
				masks := idleChanges(t, url, WithManifest(m.manifest), withPool(pool))
				idleMu.Lock()
				defer idleMu.Unlock()
				idle[m.group] = masks
			})
		}
	}
	watches.Wait()
	runRow := func(m matrixEntry, url string) matrixRow {
		// One check at a time: a row's rule stops at its first violation,
		// and a probe computed ahead for a second check may not be needed
		// by then (10% less CPU over the matrix, the same wall time).
		opts := append([]Option{WithRules(m.rule, sanityRule(m.rule)), matrixTransports(m.rule), withPool(pool), WithParallel(1), withSelfChanging(idle[m.group])}, m.opts...)
		start := time.Now()
		rep, err := Run(Target{URL: url, Browser: b}, opts...)
		r := matrixRow{m: m, seconds: time.Since(start).Seconds()}
		if sanityRule(m.rule) == "" {
			r.sanity = "none"
		}
		if err != nil {
			r.message = "run failed: " + err.Error()
		}
		if rep != nil {
			for _, f := range rep.Findings {
				if f.Rule.ID == m.rule {
					r.verdict, r.message = f.Verdict, f.Message
				} else {
					r.sanity, r.sanityMessage = f.Verdict, f.Message
				}
			}
		}
		return r
	}
	// Mutants run side by side: each run mostly waits for the browser.
	sem := make(chan struct{}, mutationWorkers)
	var wg sync.WaitGroup
	for i, m := range all {
		urls[i] = serve(t, m.handler)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rows[i] = runRow(m, urls[i])
		}()
	}
	wg.Wait()
	// A row whose rule or sanity rule could not be probed at all (the
	// browser timed out on a loaded machine) proves nothing either way: it
	// runs once more, alone, and that run is the one reported. So does a
	// survivor: the rows ran side by side on a machine that may be loaded
	// by more than the matrix (a timing a check relies on can stretch
	// there), so a survivor's first run does not fail the matrix alone.
	// Its second run, with nothing of the matrix beside it, is the one
	// scored, and the matrix lists every row that was caught only then, with
	// what its first run said, so a check that catches its mutant only
	// sometimes stays in sight.
	var caughtOnRerun []string
	for i, r := range rows {
		couldNotRun := strings.HasPrefix(r.message, probe.CouldNotRun) || strings.HasPrefix(r.sanityMessage, probe.CouldNotRun)
		if !couldNotRun && r.caught() {
			continue
		}
		rows[i] = runRow(r.m, urls[i])
		rows[i].rerun = true
		if !couldNotRun && rows[i].caught() {
			first := fmt.Sprintf("%s (%s): first run: %s is %s, sanity rule %s is %s", r.m.name, r.m.rule, r.m.rule, r.verdict, sanityRule(r.m.rule), r.sanity)
			if why := strings.TrimSpace(r.message + " " + r.sanityMessage); why != "" {
				first += ": " + report.Clip(why, 200)
			}
			caughtOnRerun = append(caughtOnRerun, first)
		}
	}

	// One matrix per base runtime, then the host's; a score for each and
	// for all.
	var out bytes.Buffer
	killed := 0
	var unproven []string
	for _, group := range append(baseNames(), hostGroup) {
		var in []matrixRow
		for _, r := range rows {
			if r.m.group == group {
				in = append(in, r)
			}
		}
		if len(in) == 0 {
			continue
		}
		title := group + " runtime"
		if group == hostGroup {
			title = "host (the harness, in front of the proving page)"
		}
		fmt.Fprintf(&out, "\nmutants of the %s\n", title)
		tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "MUTANT\tRULE\tRULE VERDICT\tSANITY\tCAUGHT\tSECONDS\tWHY IT FAILED")
		caughtHere := 0
		for _, r := range in {
			caught := r.caught()
			if caught {
				caughtHere++
			} else {
				report := t.Errorf
				if why, ok := mutants.Unproven(r.m.name); ok {
					// A survivor that a check cannot tell apart on every
					// machine: listed below, and the score says it.
					report = t.Logf
					unproven = append(unproven, r.m.name+" ("+r.m.rule+"): "+why)
				}
				report("mutant %s (%s) survived: %s is %s (want fail), sanity rule %s is %s (want pass): %s; sanity: %s",
					r.m.name, r.m.group, r.m.rule, r.verdict, sanityRule(r.m.rule), r.sanity, r.message, r.sanityMessage)
			}
			name := r.m.name
			if r.rerun {
				name += " (re-run)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%t\t%.1f\t%s\n", name, r.m.rule, r.verdict, r.sanity, caught, r.seconds, report.Clip(r.message, 110))
		}
		tw.Flush()
		fmt.Fprintf(&out, "mutation score (%s): %d/%d mutants caught (%.0f%%)\n", group, caughtHere, len(in), 100*float64(caughtHere)/float64(len(in)))
		killed += caughtHere
	}
	score := 100 * float64(killed) / float64(len(rows))
	fmt.Fprintf(&out, "\nmutation score: %d/%d mutants caught (%.0f%%)\n", killed, len(rows), score)
	fmt.Fprint(&out, slowestRules(rows, func(r matrixRow) (string, float64) { return r.m.rule, r.seconds }))
	if len(caughtOnRerun) > 0 {
		fmt.Fprintf(&out, "\ncaught only when run again alone: %d mutants that survived their first run beside the others:\n  %s\n", len(caughtOnRerun), strings.Join(caughtOnRerun, "\n  "))
	}
	if len(unproven) > 0 {
		fmt.Fprintf(&out, "\nnot caught in this run: %d mutants whose survival does not fail the matrix (mutants.Unproven):\n  %s\n", len(unproven), strings.Join(unproven, "\n  "))
	}
	if len(mutants.Open) > 0 {
		fmt.Fprintf(&out, "\nopen: %d mutants written from their rules that no check catches yet (not run; fixtures/mutants.Open):\n", len(mutants.Open))
		for _, name := range slices.Sorted(maps.Keys(mutants.Open)) {
			fmt.Fprintf(&out, "  %s: %s\n", name, mutants.Open[name])
		}
	}
	// The matrix is the product of this test: print it even when the
	// test passes and -v is off.
	fmt.Fprint(os.Stdout, out.String())
}

// matrixRow is one row of the mutation matrix: how the run of a mutant
// went.
type matrixRow struct {
	m       matrixEntry
	verdict Verdict
	sanity  Verdict
	message string
	// sanityMessage says why the sanity rule did not pass.
	sanityMessage string
	rerun         bool
	// seconds is how long the run of the row took.
	seconds float64
}

// caught reports whether the row's rule failed the mutant while its
// sanity rule (if it has one) passed.
func (r matrixRow) caught() bool {
	return r.verdict == Fail && (r.sanity == Pass || r.sanity == "none")
}

// slowestRules names the rules whose mutants cost the matrix the most
// time, summed over their rows (each row's run time, so with mutants run
// side by side the sum exceeds the matrix's wall time): where a faster
// check pays off most.
func slowestRules[R any](rows []R, of func(R) (rule string, seconds float64)) string {
	total := map[string]float64{}
	count := map[string]int{}
	all := 0.0
	for _, r := range rows {
		rule, s := of(r)
		total[rule] += s
		count[rule]++
		all += s
	}
	rules := slices.Collect(maps.Keys(total))
	slices.SortFunc(rules, func(a, b string) int { return cmp.Compare(total[b], total[a]) })
	var out strings.Builder
	fmt.Fprintf(&out, "\nrun time of the matrix's rows: %.0f s in all; the slowest rules:\n", all)
	for _, rule := range rules[:min(len(rules), 8)] {
		fmt.Fprintf(&out, "  %-36s %3d mutants  %6.1f s\n", rule, count[rule], total[rule])
	}
	return out.String()
}
