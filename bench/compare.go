package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// todoTasks is how many tasks the Todo example starts with: each page
// serves that many deletions before a fresh one is opened (outside the
// timing).
const todoTasks = 12

// side is one way of deleting task id, timed.
type side struct {
	name string
	do   func(id string) (time.Duration, error)
	s    sample
}

// todoPages are the pages of one round of twelve deletions per side.
type todoPages struct {
	glass, traced, webmcp *glasstest.Page
	plain                 playwright.Page
	plainCtx              playwright.BrowserContext
}

func openTodo(b *glasstest.Browser, url string) (*todoPages, error) {
	var t todoPages
	var err error
	if t.glass, err = glasstest.OpenPage(b, url, glasstest.Approve()); err != nil {
		return nil, err
	}
	if t.traced, err = glasstest.OpenPage(b, url, glasstest.Approve(), glasstest.Trace(true)); err != nil {
		t.close()
		return nil, err
	}
	if t.webmcp, err = glasstest.OpenPage(b, url, glasstest.Approve(), glasstest.Via(glasstest.TransportWebMCP)); err != nil {
		t.close()
		return nil, err
	}
	if t.plainCtx, t.plain, err = openPlain(t.glass, url, "#tasks li"); err != nil {
		t.close()
		return nil, err
	}
	return &t, nil
}

func (t *todoPages) close() {
	for _, p := range []*glasstest.Page{t.glass, t.traced, t.webmcp} {
		if p != nil {
			_ = p.Close()
		}
	}
	if t.plainCtx != nil {
		_ = t.plainCtx.Close()
	}
}

// glassDelete is side A: one lifecycle call, checked to be the approved,
// verified deletion of exactly the task asked for.
func glassDelete(p **glasstest.Page) func(string) (time.Duration, error) {
	return func(id string) (time.Duration, error) {
		start := time.Now()
		r := (*p).Do("remove@"+id, nil)
		d := time.Since(start)
		return d, checkRemoved(r, id)
	}
}

func checkRemoved(r *receipt.Receipt, id string) error {
	c := r.Result.Changed
	switch {
	case !r.Result.OK:
		return fmt.Errorf("remove@%s failed: %s", id, r.GomegaString())
	case r.Result.Expect == "":
		return fmt.Errorf("remove@%s: no verified expectation: %s", id, r.GomegaString())
	case c == nil || c.Records == nil || !slices.Equal(c.Records.Removed, []string{id}):
		return fmt.Errorf("remove@%s: the diff does not show the removal: %s", id, r.GomegaString())
	case len(r.Confirmations) != 1 || !r.Confirmations[0].Approved:
		return fmt.Errorf("remove@%s: not one approved confirmation: %s", id, r.GomegaString())
	}
	return nil
}

// openPlain opens url in a context of its own of the browser p runs in,
// with nothing of Glass installed, as an app team's own suite would, and
// waits for the first row (rows). Its dialog handler accepts every
// confirm().
func openPlain(p *glasstest.Page, url, rows string) (playwright.BrowserContext, playwright.Page, error) {
	return openPlainIn(p.Playwright().Context().Browser(), url, rows)
}

// openPlainIn is openPlain in browser br.
func openPlainIn(br playwright.Browser, url, rows string) (playwright.BrowserContext, playwright.Page, error) {
	ctx, err := br.NewContext()
	if err != nil {
		return nil, nil, fmt.Errorf("plain context: %w", err)
	}
	pg, err := ctx.NewPage()
	if err == nil {
		pg.OnDialog(func(d playwright.Dialog) { _ = d.Accept() })
		_, err = pg.Goto(url)
	}
	if err == nil {
		err = pg.Locator(rows).First().WaitFor()
	}
	if err != nil {
		_ = ctx.Close()
		return nil, nil, fmt.Errorf("plain page: %w", err)
	}
	return ctx, pg, nil
}

// plainRemove is side B, as an app team writes it with playwright-go
// alone: click the row's Delete button, let the dialog handler accept the
// native confirm(), wait until the row is detached.
func plainRemove(p playwright.Page, list, attr, id string) (time.Duration, error) {
	start := time.Now()
	row := p.Locator(list + ` li[data-` + attr + `="` + id + `"]`)
	if err := row.Locator("button.remove").Click(); err != nil {
		return 0, fmt.Errorf("plain: click %s: %w", id, err)
	}
	if err := row.WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateDetached}); err != nil {
		return 0, fmt.Errorf("plain: wait for %s to go: %w", id, err)
	}
	return time.Since(start), nil
}

func plainDelete(p *playwright.Page) func(string) (time.Duration, error) {
	return func(id string) (time.Duration, error) { return plainRemove(*p, "#tasks", "task", id) }
}

// roundTrip is C: one bare Evaluate, the floor of any call into the page.
func roundTrip(p **glasstest.Page) func(string) (time.Duration, error) {
	return func(string) (time.Duration, error) {
		start := time.Now()
		v, err := (*p).Playwright().Evaluate("1")
		d := time.Since(start)
		if err != nil {
			return 0, err
		}
		if n, ok := v.(int); !ok || n != 1 {
			return 0, fmt.Errorf("evaluate 1 returned %v", v)
		}
		return d, nil
	}
}

// frameInterval is the median time between two animation frames of p.
func frameInterval(p playwright.Page) (float64, error) {
	v, err := p.Evaluate(`() => new Promise((resolve) => {
		const t = [];
		const f = (now) => { t.push(now); if (t.length < 61) requestAnimationFrame(f); else resolve(t); };
		requestAnimationFrame(f);
	})`)
	if err != nil {
		return 0, err
	}
	ts, ok := v.([]any)
	if !ok || len(ts) < 2 {
		return 0, errors.New("no frames")
	}
	var s sample
	for i := 1; i < len(ts); i++ {
		s = append(s, num(ts[i])-num(ts[i-1]))
	}
	return s.median(), nil
}

func num(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return 0
}

func compare(out io.Writer, b *glasstest.Browser, url string, c config) error {
	fmt.Fprintf(out, "\n1. One deletion on the Todo example (%d interleaved iterations after %d warm-up; load average %s)\n", c.iterations, c.warmup, loadAvg())
	var pages *todoPages
	defer func() {
		if pages != nil {
			pages.close()
		}
	}()
	var glass, traced, webmcp *glasstest.Page
	var plain playwright.Page
	sides := []*side{
		{name: "A", do: glassDelete(&glass)},
		{name: "B", do: plainDelete(&plain)},
		{name: "A traced", do: glassDelete(&traced)},
		{name: "A over WebMCP", do: glassDelete(&webmcp)},
		{name: "C", do: roundTrip(&glass)},
	}
	var frame float64
	total := c.warmup + c.iterations
	for i := 0; i < total; i++ {
		k := i % todoTasks
		if k == 0 {
			if pages != nil {
				pages.close()
			}
			var err error
			if pages, err = openTodo(b, url); err != nil {
				return err
			}
			glass, traced, webmcp, plain = pages.glass, pages.traced, pages.webmcp, pages.plain
			if frame == 0 {
				if frame, err = frameInterval(plain); err != nil {
					return err
				}
			}
		}
		id := fmt.Sprintf("t%d", k+1)
		// The order rotates, so that no side always runs first after a
		// page opened or right after another's deletion.
		for j := range sides {
			s := sides[(i+j)%len(sides)]
			d, err := s.do(id)
			if err != nil {
				return err
			}
			if i >= c.warmup {
				s.s.add(d)
			}
		}
	}
	a, bb, at, aw, cc := sides[0].s, sides[1].s, sides[2].s, sides[3].s, sides[4].s
	fmt.Fprintf(out, "   %-66s %9s %9s %9s\n", "", "median", "p95", "mean")
	row := func(name string, s sample) {
		fmt.Fprintf(out, "   %-66s %6s ms %6s ms %6s ms\n", name, fmtMS(s.median()), fmtMS(s.p95()), fmtMS(s.mean()))
	}
	row(`A  page.Do("remove@tN"): approved, verified, diffed`, a)
	row("B  playwright-go: click, accept confirm(), wait detached", bb)
	row("C  one bare page.Evaluate round trip", cc)
	row("A with tracing on (what Open does by default)", at)
	row("A over WebMCP (Via(TransportWebMCP): a snapshot, then the tool)", aw)
	fmt.Fprintf(out, "   A/B  %.2f (medians; median of per-iteration ratios %.2f)\n", a.median()/bb.median(), pairRatio(a, bb))
	fmt.Fprintf(out, "   A/C  %.1f\n", a.median()/cc.median())
	fmt.Fprintf(out, "   frame interval %.1f ms; A - 2·C = %.1f ms = %.2f frames (A's round trips: the execute call and the confirmation)\n",
		frame, a.median()-2*cc.median(), (a.median()-2*cc.median())/frame)
	fmt.Fprintf(out, "   tracing adds %.1f ms to a call (A traced - A, medians)\n", at.median()-a.median())
	fmt.Fprintf(out, "   load average %s\n", loadAvg())
	return nil
}
