package probe

import (
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/hostprobe"
)

// hostOptions are the page options the run was given (Config.PageOptions).
func (s *Session) hostOptions() []glasstest.PageOption {
	return append([]glasstest.PageOption{glasstest.Reuse(s.pool)}, s.cfg.PageOptions...)
}

// fixtureServer serves the fault fixtures on loopback for one run.
type fixtureServer struct {
	url string
	srv *http.Server
}

// fixtures starts the run's fixture server on first use.
func (s *Session) fixtures() (string, error) {
	v, err := s.memo("fixture-server", func() (any, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("serve the fault fixtures: %w", err)
		}
		srv := &http.Server{Handler: hostprobe.Handler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		return &fixtureServer{url: "http://" + ln.Addr().String(), srv: srv}, nil
	})
	if err != nil {
		return "", err
	}
	return v.(*fixtureServer).url, nil
}

// Close stops what the run started for its probes.
func (s *Session) Close() {
	s.closeSpare()
	s.closePool()
	s.mu.Lock()
	e := s.memos["fixture-server"]
	s.mu.Unlock()
	if e == nil {
		return
	}
	e.once.Do(func() {}) // wait for a start in progress
	if fs, ok := e.v.(*fixtureServer); ok {
		_ = fs.srv.Close()
	}
}

// OpenFixture opens a fault fixture page, bridge, with the run's host
// faults. The page is closed with the probe; its receipts are not the
// Page under test's and are not recorded in the run.
func (p *Probe) OpenFixture(name string, opts ...glasstest.PageOption) (*glasstest.Page, error) {
	base, err := p.s.fixtures()
	if err != nil {
		return nil, err
	}
	all := append([]glasstest.PageOption{glasstest.Timeout(p.s.cfg.CallTimeout)}, p.s.hostOptions()...)
	g, err := glasstest.OpenPage(p.s.browser, base+"/"+name, append(all, opts...)...)
	if err != nil {
		return nil, err
	}
	p.pages = append(p.pages, g)
	return g, nil
}
