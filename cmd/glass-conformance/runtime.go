package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/glassworks/glass"
	"github.com/glassworks/glass/internal/readlimit"
	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/sdk"
)

// runtimeCmd writes the reference page runtime this binary embeds, so that
// an app that installed the CLI with go install gets the runtime of the
// same release without cloning the repository.
func runtimeCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runtime", flag.ContinueOnError)
	esm := fs.Bool("esm", false, "write the ES module (one file: the classic script and its exports) instead of the classic script")
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	if done, code := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	src := sdk.Runtime()
	if *esm {
		src = sdk.BundledESM()
	}
	if *out == "" {
		if _, err := stdout.Write(src); err != nil {
			return failLine(stderr, "glass-conformance runtime: ", "%v", err)
		}
		return exitOK
	}
	if st, err := os.Stat(*out); err == nil && readlimit.NotPlain(*out, st) != "" {
		return failLine(stderr, "glass-conformance runtime: ", "-o %q: not a regular file (%s)", *out, readlimit.NotPlain(*out, st))
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		return failLine(stderr, "glass-conformance runtime: ", "write %q: %v", *out, err)
	}
	return exitOK
}

// versionCmd prints the versions of the three parts of a release — the
// CLI, the Go library, the runtime it embeds — and the protocol they
// speak. The runtime's is read from the embedded source, so it says what
// runtime writes.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if done, code := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	fmt.Fprintf(stdout, "glass-conformance %s\nlibrary github.com/glassworks/glass %s\nruntime %s\nprotocol %s\n",
		version, glass.Version, sdk.RuntimeName(), receipt.Protocol)
	return exitOK
}
