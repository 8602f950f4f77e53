package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/glassworks/glass/receipt"
)

func TestManifestParsesYAMLAndJSON(t *testing.T) {
	yaml := `
version: 1
args:
  add: {title: Buy milk, priority: high}
  remove: {}
skip: ["pay@*"]
expectationFailures:
  - action: remove@t9
    url: /?fault=delete-stale
    declaredTimeoutMs: 0
executionFailures:
  - action: remove@t9
    url: "?fault=delete-throws"
    args: null
flowFailures:
  - action: edit@t3
    step: 2
    args: {title: New}
handoffs:
  - action: verify
    outcome: cancelled
    url: http://127.0.0.1:8080/verify
  - action: verify
    outcome: completed
    user:
      - fill: "#code"
        value: "246810"
      - select: "#why"
        value: ""
      - click: "text=Verify"
capturingExpectations:
  - action: add
    args: {title: Counted}
  - action: clear-done
unchangedWrites:
  - action: save
`
	m, err := Parse("m.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{
		Version:             1,
		Args:                map[string]map[string]any{"add": {"title": "Buy milk", "priority": "high"}, "remove": {}},
		Skip:                []string{"pay@*"},
		ExpectationFailures: []Scenario{{Action: "remove@t9", URL: "/?fault=delete-stale", DeclaredTimeoutMs: new(int)}},
		ExecutionFailures:   []Scenario{{Action: "remove@t9", URL: "?fault=delete-throws", Args: map[string]any{}}},
		FlowFailures:        []Scenario{{Action: "edit@t3", Step: 2, Args: map[string]any{"title": "New"}}},
		Handoffs: []Scenario{{Action: "verify", Outcome: "cancelled", URL: "http://127.0.0.1:8080/verify"},
			{Action: "verify", Outcome: "completed", User: []UserStep{{Fill: "#code", Value: "246810"}, {Select: "#why"}, {Click: "text=Verify"}}}},
		CapturingExpectations: []Scenario{{Action: "add", Args: map[string]any{"title": "Counted"}}, {Action: "clear-done"}},
		UnchangedWrites:       []Scenario{{Action: "save"}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
	js := `{"version": 1, "args": {"add": {"title": "x", "n": 2}}, "expectationFailures": [{"action": "add"}]}`
	m, err = Parse("m.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if m.Args["add"]["n"] != 2 || m.ExpectationFailures[0].Action != "add" {
		t.Errorf("json manifest: %+v", m)
	}
	if a, ok := m.ArgsFor(receipt.ActionInfo{ID: "add@t1", Tool: "add"}); !ok || a["title"] != "x" {
		t.Errorf("argsFor a row action by its tool: %v %v", a, ok)
	}
	if m, err := Parse("empty.yaml", []byte("  \n")); err != nil || !reflect.DeepEqual(m, &Manifest{}) {
		t.Errorf("empty manifest: %+v, %v", m, err)
	}
	if !(&Manifest{Skip: []string{"pay@*"}}).Skips("pay@t1") || (&Manifest{Skip: []string{"pay@*"}}).Skips("remove@t1") {
		t.Error("skip globs")
	}
}

func TestManifestErrorsNameTheFieldAndLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"not a mapping", "- a\n- b\n", `manifest "m": invalid manifest: line 1: want a mapping of version, args`},
		{"unknown top field", "version: 1\nexpectation: []\n", `line 2: unknown field "expectation" (want one of version, args, skip`},
		{"bad version", "version: 2\n", `line 1: version: want 1, got "2"`},
		{"args not a mapping", "args: [1]\n", `line 1: args: want a mapping from action id to arguments, got a list`},
		{"args of an action not an object", "args:\n  add: 3\n", `line 2: args.add: want an object of arguments, got "3"`},
		{"skip not a list", "skip: pay\n", `line 1: skip: want a list of action ids or globs, got "pay"`},
		{"bad glob", "skip: [\"pay[\"]\n", `skip[0]: bad glob "pay["`},
		{"scenario without action", "expectationFailures:\n  - url: /x\n", `line 2: expectationFailures[0].action: required`},
		{"scenario with unknown field", "executionFailures:\n  - action: a\n    step: 2\n", `line 3: executionFailures[0]: unknown field "step" (want action, url, args)`},
		{"bad url", "expectationFailures:\n  - action: a\n    url: ftp://x/y\n", `line 3: expectationFailures[0].url: want a relative URL`},
		{"flow without step", "flowFailures:\n  - action: a\n", `flowFailures[0].step: required`},
		{"flow with step 0", "flowFailures:\n  - action: a\n    step: 0\n", `flowFailures[0].step: want a step number ≥ 1, got "0"`},
		{"handoff with bad outcome", "handoffs:\n  - action: a\n    outcome: maybe\n", `handoffs[0].outcome: want one of completed, cancelled, timeout, failed, got "maybe"`},
		{"capturing expectation with an outcome", "capturingExpectations:\n  - action: add\n    outcome: shown\n", `line 3: capturingExpectations[0]: unknown field "outcome" (want action, url, args)`},
		{"capturing expectations not a list", "capturingExpectations: add\n", `line 1: capturingExpectations: want a list of {action, url, args}, got "add"`},
		{"declared timeout outside expectationFailures", "executionFailures:\n  - action: a\n    declaredTimeoutMs: 0\n", `line 3: executionFailures[0]: unknown field "declaredTimeoutMs" (want action, url, args)`},
		{"negative declared timeout", "expectationFailures:\n  - action: a\n    declaredTimeoutMs: -1\n", `expectationFailures[0].declaredTimeoutMs: want milliseconds ≥ 0`},
		{"unchanged write with a step", "unchangedWrites:\n  - action: save\n    step: 1\n", `line 3: unchangedWrites[0]: unknown field "step" (want action, url, args)`},
		{"unchanged writes not a list", "unchangedWrites: save\n", `line 1: unchangedWrites: want a list of {action, url, args}, got "save"`},
		{"user steps outside handoffs", "reveals:\n  - action: a\n    outcome: shown\n    user: [{click: b}]\n", `line 4: reveals[0]: unknown field "user" (want action, url, args, outcome)`},
		{"user steps of a cancelled hand-off", "handoffs:\n  - action: a\n    outcome: cancelled\n    user: [{click: b}]\n", `line 4: handoffs[0].user: the user's steps need outcome completed, got "cancelled"`},
		{"no user steps", "handoffs:\n  - action: a\n    outcome: completed\n    user: []\n", `handoffs[0].user: want at least one step`},
		{"user step of two kinds", "handoffs:\n  - action: a\n    outcome: completed\n    user: [{click: b, fill: c, value: x}]\n", `handoffs[0].user[0]: want exactly one of click, fill and select, got 2`},
		{"user step of no kind", "handoffs:\n  - action: a\n    outcome: completed\n    user: [{value: x}]\n", `handoffs[0].user[0]: want exactly one of click, fill and select, got 0`},
		{"fill without a value", "handoffs:\n  - action: a\n    outcome: completed\n    user: [{fill: b}]\n", `handoffs[0].user[0].value: required with fill`},
		{"click with a value", "handoffs:\n  - action: a\n    outcome: completed\n    user: [{click: b, value: x}]\n", `handoffs[0].user[0].value: a click takes no value`},
		{"empty selector", "handoffs:\n  - action: a\n    outcome: completed\n    user: [{click: \" \"}]\n", `handoffs[0].user[0].click: want a selector`},
		{"unknown user step", "handoffs:\n  - action: a\n    outcome: completed\n    user: [{press: Enter}]\n", `unknown field "press"`},
		{"user steps not a list", "handoffs:\n  - action: a\n    outcome: completed\n    user: click\n", `handoffs[0].user: want a list`},
		{"field given twice", "skip: []\nskip: []\n", `skip: given twice`},
		{"two documents", "version: 1\nskip: [a]\n---\nskip: [b]\n", `manifest "m": invalid manifest: a manifest is one YAML document; a second begins at line 3 (merge them, or remove the "---")`},
		{"a broken second document", "version: 1\n---\nargs: [unclosed\n", `a manifest is one YAML document; the text has more after its first`},
		{"not YAML", "args: [unclosed\n", `manifest "m": invalid manifest: `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("m", []byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrManifest) {
				t.Errorf("error does not wrap ErrManifest: %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "absent.yaml")); err == nil || !strings.Contains(err.Error(), "cannot read it") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzParse: any input gives a manifest or one-line error wrapping
// ErrManifest, never a panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"version: 1\nargs:\n  add: {title: x}\nskip: [\"pay@*\"]\n",
		"expectationFailures:\n  - action: a\n    url: /?fault=x\n",
		`{"flowFailures": [{"action": "edit", "step": 2}], "handoffs": [{"action": "v", "outcome": "failed"}]}`,
		"handoffs:\n  - action: v\n    outcome: completed\n    user: [{fill: \"#c\", value: \"1\"}, {click: \"#go\"}]\n",
		"args: [unclosed", "- 1\n- 2", "", "version: 2", "args:\n  a: !!binary aGk=\n", "? [a]\n: b\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("fuzz", data)
		if err != nil {
			if !errors.Is(err, ErrManifest) {
				t.Errorf("error does not wrap ErrManifest: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			return
		}
		if m == nil {
			t.Fatal("nil manifest without an error")
		}
		if _, err := json.Marshal(m); err != nil {
			t.Errorf("a valid manifest does not marshal: %v", err)
		}
	})
}

func TestBaseline(t *testing.T) {
	b, err := ParseBaseline("known.txt", []byte("# known\npolicy.denied   # JIRA-1\n\nverify.expectation\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.IDs(), []string{"policy.denied", "verify.expectation"}) || b.Reasons["policy.denied"] != "JIRA-1" {
		t.Errorf("baseline = %+v", b)
	}
	for in, want := range map[string]string{
		"no.such-rule\n":                  `line 1: unknown rule id "no.such-rule"`,
		"policy.denied\npolicy.denied\n":  `line 2: "policy.denied" listed twice`,
		"policy.denied policy.no-channel": `want one rule id per line`,
	} {
		if _, err := ParseBaseline("b", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseBaseline(%q) = %v, want %q", in, err, want)
		}
	}
}

// TestOnlyRegularFilesOfBoundedSizeAreRead: a manifest or baseline path
// that names a device, a named pipe, a directory or a file over the bound
// is a wrapped error of one line, at once: never a hang, never a read
// without end.
func TestOnlyRegularFilesOfBoundedSizeAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "manifest.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		want       error
		says       string
	}{
		{"a device", "/dev/zero", ErrNotRegular, "not a regular file (a device)"},
		{"a named pipe", fifo, ErrNotRegular, "not a regular file (a named pipe)"},
		{"a directory", dir, ErrNotRegular, "not a regular file (a directory)"},
		{"a file over the bound", big, ErrTooLarge, "larger than 1048576 bytes"},
	} {
		for _, load := range []struct {
			what string
			fn   func(string) error
		}{
			{"manifest", func(p string) error { _, err := Load(p); return err }},
			{"expected failures", func(p string) error { _, err := LoadBaseline(p); return err }},
		} {
			t.Run(load.what+"/"+c.name, func(t *testing.T) {
				done := make(chan error, 1)
				go func() { done <- load.fn(c.path) }()
				var err error
				select {
				case err = <-done:
				case <-time.After(10 * time.Second):
					t.Fatalf("reading %s did not return", c.path)
				}
				want := fmt.Sprintf("%s %q: cannot read it: %s", load.what, c.path, c.says)
				if !errors.Is(err, c.want) || err.Error() != want {
					t.Errorf("error = %v, want %q wrapping %v", err, want, c.want)
				}
			})
		}
	}
}
