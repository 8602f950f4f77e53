package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/glassworks/glass/fixtures/mutants"
)

// probeSecret is the start of the sensitive values the probes pass
// (conformance's newSecret: a prefix, eight hex digits, two characters
// spelt differently in JSON, URLs and HTML, eight more): the part that is
// the same in every spelling.
var probeSecret = regexp.MustCompile(`GlassSecret-[0-9a-f]{8}`)

// TestSensitiveValuesStayOutOfEveryOutput runs the sensitive-value rules
// with every output on, against the reference runtime and against a mutant
// that echoes the probe's secret into its receipts, and reads everything
// the CLI wrote: stdout, stderr, the JUnit, JSON and HTML reports and the
// artifacts. The secret is in none of them — not even as the evidence of
// the leak, which shows where it leaked instead.
func TestSensitiveValuesStayOutOfEveryOutput(t *testing.T) {
	leaky, ok := mutants.ByName("receipt-not-scrubbed")
	if !ok {
		t.Fatal("no mutant receipt-not-scrubbed")
	}
	src, err := leaky.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		url  string
		exit int
	}{
		{"reference runtime", serve(t, mutants.ProvingPage()), 0},
		{"runtime that leaks the value", serve(t, mutants.WithRuntime(src, mutants.ProvingPage())), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			js := filepath.Join(dir, "out.json")
			r := runBinary(t, "run", "--url", tc.url, "--rules", "sensitive.never-echoed,args.sensitive-restored",
				"--junit", filepath.Join(dir, "out.xml"), "--json", js, "--html", filepath.Join(dir, "out.html"),
				"--artifacts", filepath.Join(dir, "artifacts"))
			if r.code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.exit, r.stdout, r.stderr)
			}
			if s := probeSecret.FindString(r.stdout + r.stderr); s != "" {
				t.Errorf("the terminal output shows the secret %s:\n%s%s", s, r.stdout, r.stderr)
			}
			files := eachFile(t, dir, func(name string, b []byte) {
				if s := probeSecret.Find(b); s != nil {
					t.Errorf("%s holds the secret %s", name, s)
				}
			})
			if files < 4 {
				t.Fatalf("%d files written; want at least the three reports and report.json", files)
			}

			// The rule was probed (a secret was passed), and for the leak
			// the evidence shows where the value went.
			rep := parseJSON(t, js)
			for _, f := range rep.Findings {
				if f.Rule.ID != "sensitive.never-echoed" {
					continue
				}
				if tc.exit == 0 && f.Verdict != "pass" {
					t.Errorf("sensitive.never-echoed: %s %s", f.Verdict, f.Message)
				}
				if tc.exit == 1 {
					shown := false
					for _, ev := range f.Evidence {
						shown = shown || strings.Contains(ev.Text, "[the probe's sensitive value]")
					}
					if f.Verdict != "fail" || !shown {
						t.Errorf("sensitive.never-echoed: %s %s, evidence %+v", f.Verdict, f.Message, f.Evidence)
					}
				}
			}
		})
	}
}
