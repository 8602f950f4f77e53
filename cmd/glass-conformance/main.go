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
	"os/signal"
	"syscall"
)

func main() {
	exitOnSignal()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// exitOnSignal ends the command on SIGINT, SIGTERM or SIGHUP as the signal
// would, with 128 plus its number, once the report files it created and
// has not written are removed (abandonUnwritten). The browser and its
// driver end with the process, as they would without the handler.
func exitOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-ch
		abandonUnwritten()
		code := 128 + 2
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}
