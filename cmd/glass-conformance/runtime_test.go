package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass"
	"github.com/glassworks/glass/sdk"
)

func TestRuntimeWritesTheEmbeddedRuntime(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"runtime"}, &out, &errOut); code != exitOK || !bytes.Equal(out.Bytes(), sdk.Runtime()) {
		t.Errorf("runtime: exit %d, %d bytes (want the %d of the classic script); stderr %q", code, out.Len(), len(sdk.Runtime()), errOut.String())
	}
	file := filepath.Join(t.TempDir(), "glass-runtime.mjs")
	out.Reset()
	if code := run([]string{"runtime", "--esm", "-o", file}, &out, &errOut); code != exitOK || out.Len() != 0 {
		t.Fatalf("runtime --esm -o: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, sdk.BundledESM()) {
		t.Errorf("runtime --esm wrote %d bytes, not the bundled ES module", len(got))
	}
}

func TestRuntimeRefusesBadInputInOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"runtime", "--bogus"},
		{"runtime", "extra"},
		{"runtime", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "glass-runtime.js")},
		{"runtime", "-o"},
		{"version", "--json"},
	} {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		if code != exitUsage || out.Len() != 0 || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out.String(), errOut.String())
		}
	}
}

func TestVersionPrintsEveryPartOfTheRelease(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != exitOK {
		t.Fatalf("version: exit %d, stderr %q", code, errOut.String())
	}
	// Written out, because docs/cli.md quotes these lines: a release that
	// changes glass.Version changes them here and there.
	want := strings.Join([]string{
		"glass-conformance 0.3.0",
		"library github.com/glassworks/glass 0.3.0",
		"runtime glass-reference/0.3.0",
		"protocol glass.page/v1",
	}, "\n") + "\n"
	if glass.Version != "0.3.0" {
		t.Fatalf("glass.Version is %q: update the lines of this test and of docs/cli.md", glass.Version)
	}
	if out.String() != want {
		t.Errorf("version printed\n%s\nwant\n%s", out.String(), want)
	}
}
