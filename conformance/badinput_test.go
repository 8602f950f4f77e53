package conformance

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRunRefusesPagesItCannotCheckWithOneLine: the library's bad input —
// a URL that is not one, a host nothing answers on, a response that is not
// a page, a page without a runtime — is a wrapped error of one line, never
// a panic, a hang or a report.
func TestRunRefusesPagesItCannotCheckWithOneLine(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	serve := func(contentType, body string, status int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/"
	}
	for _, tc := range []struct {
		name, url string
		want      error
		says      string
	}{
		{"no URL", "", ErrUsage, "no URL to check"},
		{"malformed URL", "::not a url", ErrSetup, "::not a url"},
		{"unreachable host", closed, ErrSetup, closed},
		{"JSON instead of a page", serve("application/json", `{"hello":"world"}`, 200), ErrSetup, "no Glass runtime"},
		{"404", serve("text/html", "<p>gone</p>", 404), ErrSetup, "no Glass runtime"},
		{"page without a runtime", serve("text/html", "<!doctype html><title>Plain</title><p>x</p>", 200), ErrSetup, "no Glass runtime"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			rep, err := Run(Target{URL: tc.url}, WithCallTimeout(5*time.Second))
			if took := time.Since(start); took > 2*time.Minute {
				t.Errorf("took %s", took)
			}
			if rep != nil || !errors.Is(err, tc.want) {
				t.Fatalf("Run = %v, %v; want no report and an error wrapping %v", rep, err, tc.want)
			}
			t.Log(err)
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, tc.says) {
				t.Errorf("error %q: want one line that says %q", msg, tc.says)
			}
		})
	}
}

// TestBadOptionsAreWrappedUsageErrors: the options a caller can get wrong
// are refused with ErrUsage and one line, before any browser is involved.
func TestBadOptionsAreWrappedUsageErrors(t *testing.T) {
	for name, err := range map[string]error{
		"shard 0/2":         firstErr(Select(WithShard(0, 2))),
		"shard 3/2":         firstErr(Select(WithShard(3, 2))),
		"shard of 0":        firstErr(Select(WithShard(1, 0))),
		"unknown rule":      firstErr(Select(WithRules("no.such-rule"))),
		"empty glob":        firstErr(Select(WithRules("nothing.*"))),
		"unknown transport": firstErr(Select(WithTransports("carrier-pigeon"))),
		"no transport":      firstErr(Select(WithTransports())),
		"zero timeout":      firstErr(Select(WithCallTimeout(0))),
		"parallel 0":        firstErr(Select(WithParallel(0))),
	} {
		if !errors.Is(err, ErrUsage) {
			t.Errorf("%s: %v, want ErrUsage", name, err)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q spans lines", name, err)
		}
	}
}

func firstErr(_ []Rule, err error) error { return err }
