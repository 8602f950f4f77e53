// Command glass-conformance checks a page's receipts against the Glass
// contract, rule by rule.
//
//	glass-conformance run                       # the embedded Todo example
//	glass-conformance run --url URL             # your app
//	glass-conformance run --url URL --junit out.xml --manifest glass.yaml
//	glass-conformance rules [--json]            # the rule catalog
//	glass-conformance init --url URL            # a starter suite and manifest
//
// docs/cli.md is the full reference. Exit status: 0 the page conforms, 1 a
// rule is violated, 2 usage or set-up error.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
