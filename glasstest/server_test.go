package glasstest_test

import (
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
)

// listening reports whether something accepts connections at addr.
func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// groupAlive reports whether any process of the group pgid is alive.
func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

var _ = Describe("The app under test", func() {
	It("Serve serves a handler on a loopback port the OS picked", func() {
		url := glasstest.Serve(harnessHandler())
		Expect(url).To(MatchRegexp(`^http://127\.0\.0\.1:\d+$`))
		resp, err := http.Get(url + "/")
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
	})

	Describe("Start, an external dev server", func() {
		var addr string
		BeforeEach(func() {
			port, err := glasstest.FreePort()
			Expect(err).NotTo(HaveOccurred())
			addr = fmt.Sprintf("127.0.0.1:%d", port)
		})

		It("waits until the server answers, drives it, captures its output and stops its whole process group on cleanup", func() {
			var srv *glasstest.DevServer
			// Registered first, so it runs after Start's own cleanup.
			DeferCleanup(func() {
				Expect(srv.Exited()).To(BeTrue())
				Expect(listening(addr)).To(BeFalse(), "the server still listens")
				Eventually(func() bool { return groupAlive(srv.Pid()) }).Should(BeFalse(), "go run's child outlived the stop")
			})
			// go run starts a child binary: stopping only the shell (or only
			// go) would leave the server running.
			srv = glasstest.Start("go run ./examples/todo -addr "+addr, "http://"+addr+"/", glasstest.Dir(".."))
			Expect(srv.URL).To(Equal("http://" + addr + "/"))
			Expect(srv.Output()).To(ContainSubstring("todo: serving http://" + addr + "/"))

			page := glasstest.Open(srv.URL, glasstest.Approve())
			Expect(page.Do("remove@t9", nil)).To(HaveChanged(Records(Removed("t9"))))
		})

		It("gives up at the ready deadline with the output so far, and stops the command", func() {
			start := time.Now()
			srv, err := glasstest.StartServer("echo preparing; echo still preparing >&2; exec sleep 30", "http://"+addr+"/",
				glasstest.ReadyTimeout(time.Second))
			Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second))
			Expect(srv).To(BeNil())
			Expect(err).To(MatchError(And(
				ContainSubstring(`did not answer within 1s`),
				ContainSubstring("preparing\nstill preparing"),
			)))
		})

		It("says so at once when the command exits before it is ready", func() {
			start := time.Now()
			_, err := glasstest.StartServer("echo cannot bind; exit 3", "http://"+addr+"/")
			Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second), "not the 60 s ready deadline")
			Expect(err).To(MatchError(And(
				ContainSubstring("the command exited before"),
				ContainSubstring("exit status 3"),
				ContainSubstring("cannot bind"),
			)))
		})

		It("treats a 404 as not ready and a 401 as ready, as Playwright's webServer does", func() {
			mux := http.NewServeMux()
			status := http.StatusNotFound
			ready := make(chan struct{})
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-ready:
					w.WriteHeader(http.StatusUnauthorized)
				default:
					w.WriteHeader(status)
				}
			})
			ln, err := net.Listen("tcp", addr)
			Expect(err).NotTo(HaveOccurred())
			s := &http.Server{Handler: mux}
			go func() { _ = s.Serve(ln) }()
			DeferCleanup(s.Close)

			_, err = glasstest.StartServer("exec sleep 30", "http://"+addr+"/", glasstest.ReadyTimeout(2*time.Second))
			Expect(err).To(MatchError(ContainSubstring("status 404")))

			close(ready)
			srv, err := glasstest.StartServer("exec sleep 30", "http://"+addr+"/", glasstest.ReadyTimeout(5*time.Second))
			Expect(err).NotTo(HaveOccurred())
			Expect(srv.Stop()).To(Succeed())
			Expect(srv.Exited()).To(BeTrue())
		})

		It("kills a server that ignores SIGTERM after the stop timeout", func() {
			// The ready URL is served by the spec; the command only refuses
			// to die.
			mux := http.NewServeMux()
			mux.HandleFunc("/", func(http.ResponseWriter, *http.Request) {})
			ln, err := net.Listen("tcp", addr)
			Expect(err).NotTo(HaveOccurred())
			s := &http.Server{Handler: mux}
			go func() { _ = s.Serve(ln) }()
			DeferCleanup(s.Close)
			srv, err := glasstest.StartServer(`trap "" TERM; while true; do sleep 0.1; done`, "http://"+addr+"/",
				glasstest.StopTimeout(300*time.Millisecond))
			Expect(err).NotTo(HaveOccurred())
			start := time.Now()
			Expect(srv.Stop()).To(Succeed())
			Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
			Expect(srv.Exited()).To(BeTrue())
			Eventually(func() bool { return groupAlive(srv.Pid()) }).Should(BeFalse())
		})

		It("refuses an empty command", func() {
			_, err := glasstest.StartServer("", "http://"+addr+"/")
			Expect(err).To(MatchError("glasstest: start: empty command"))
		})
	})
})
