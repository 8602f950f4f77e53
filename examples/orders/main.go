// Command orders serves the Orders example on loopback.
//
//	go run ./examples/orders -addr 127.0.0.1:8081
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/glassworks/glass/examples/orders/app"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("orders", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8081", "address to listen on (host:port; port 0 picks a free one)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "orders: listen %q: %v\n", *addr, err)
		return 2
	}
	fmt.Fprintf(stdout, "orders: serving http://%s/\n", ln.Addr())
	if err := http.Serve(ln, app.Handler()); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "orders: %v\n", err)
		return 1
	}
	return 0
}
