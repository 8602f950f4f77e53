package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/glasstest"
)

// typicalTitle is the task both sides of the typical spec add.
const typicalTitle = "Renew the library card"

// The parts of a typical spec, timed on their own: the open (a fresh
// context and page, the navigation, and for Glass the runtime's ready()),
// the addition, the deletion (each with its assertions), the close.
const (
	partOpen = iota
	partAdd
	partDelete
	partClose
	parts
)

var partNames = [parts]string{"open", "add", "delete", "close"}

// timeline is the time each part of one typical spec took.
type timeline [parts]time.Duration

// mark ends part i, which began at *from, and starts the next.
func (t *timeline) mark(i int, from *time.Time) {
	now := time.Now()
	t[i] = now.Sub(*from)
	*from = now
}

func (t timeline) total() time.Duration {
	var d time.Duration
	for _, x := range t {
		d += x
	}
	return d
}

// typicalSpec measures a whole acceptance spec as an app team writes one:
// open the Todo example in a fresh browser context, add a task, delete
// another, assert what changed, close. A is the spec with Glass (two
// page.Do calls, the confirmation approved, both expectations verified,
// the diffs asserted); B the same steps in plain playwright-go (fill the
// form and submit, wait for the new row; click a row's Delete, accept the
// native confirm(), wait until the row is detached; count the rows). The
// sides alternate, after a warm-up; each iteration of each side is one
// spec from a fresh context to its close.
func typicalSpec(out io.Writer, b *glasstest.Browser, url string, c config) error {
	fmt.Fprintf(out, "\n   a typical spec (fresh context, add a task, delete one, assertions, close), %d each, interleaved:\n", c.specs)
	first, err := glasstest.OpenPage(b, url)
	if err != nil {
		return err
	}
	br := first.Playwright().Context().Browser()
	_ = first.Close()
	// The parts of each side, in the order of sides.
	var split [3][parts]sample
	timed := func(i int, spec func() (timeline, error)) func(string) (time.Duration, error) {
		return func(string) (time.Duration, error) {
			t, err := spec()
			for k, d := range t {
				split[i][k].add(d)
			}
			return t.total(), err
		}
	}
	sides := []*side{
		{name: "A  with Glass: Open, Do(add), Do(remove@t1), assertions (tracing on, the Open default)",
			do: timed(0, func() (timeline, error) { return glassTypical(b, url, true) })},
		{name: "A  the same, tracing off (GLASS_TRACE=0)",
			do: timed(1, func() (timeline, error) { return glassTypical(b, url, false) })},
		{name: "B  plain playwright-go: fill and submit, click Delete and accept, wait, count",
			do: timed(2, func() (timeline, error) { return plainTypical(br, url) })},
	}
	warm := max(2, c.specs/10)
	for i := 0; i < warm+c.specs; i++ {
		for j := range sides {
			s := sides[(i+j)%len(sides)]
			d, err := s.do("")
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if i >= warm {
				s.s.add(d)
			}
		}
	}
	for _, s := range sides {
		fmt.Fprintf(out, "   %-86s %6s ms %6s ms (median, p95)\n", s.name, fmtMS(s.s.median()), fmtMS(s.s.p95()))
	}
	// Every side ran warm+c.specs times: its parts' first warm samples
	// are the warm-up's.
	fmt.Fprintf(out, "   where the time goes, medians in ms (%s):\n", strings.Join(partNames[:], ", "))
	for i, label := range []string{"A", "A, tracing off", "B"} {
		var cols []string
		for k := range parts {
			cols = append(cols, fmtMS(split[i][k][warm:].median()))
		}
		fmt.Fprintf(out, "     %-15s %s\n", label, strings.Join(cols, "  "))
	}
	a, aOff, plain := sides[0].s, sides[1].s, sides[2].s
	fmt.Fprintf(out, "   typical spec A/B %.2f (tracing on; median of per-iteration ratios %.2f); tracing off %.2f\n",
		a.median()/plain.median(), pairRatio(a, plain), aOff.median()/plain.median())
	return nil
}

// glassTypical is side A of the typical spec.
func glassTypical(b *glasstest.Browser, url string, trace bool) (t timeline, err error) {
	at := time.Now()
	p, err := glasstest.OpenPage(b, url, glasstest.Approve(), glasstest.Trace(trace))
	if err != nil {
		return t, err
	}
	defer p.Close()
	t.mark(partOpen, &at)
	added := p.Do("add", map[string]string{"title": typicalTitle, "priority": "high"})
	c := added.Result.Changed
	switch {
	case !added.Result.OK || added.Result.Expect == "":
		return t, fmt.Errorf("add: not a verified success: %s", added.GomegaString())
	case c == nil || c.Records == nil || len(c.Records.Added) != 1 || c.Records.Total == nil || c.Records.Total.To != c.Records.Total.From+1:
		return t, fmt.Errorf("add: the diff does not show one added task: %s", added.GomegaString())
	}
	t.mark(partAdd, &at)
	if err := checkRemoved(p.Do("remove@t1", nil), "t1"); err != nil {
		return t, err
	}
	t.mark(partDelete, &at)
	if err := p.Close(); err != nil {
		return t, err
	}
	t.mark(partClose, &at)
	return t, nil
}

// plainTypical is side B of the typical spec: the same steps and checks in
// plain playwright-go, in a context of its own.
func plainTypical(br playwright.Browser, url string) (t timeline, err error) {
	at := time.Now()
	ctx, p, err := openPlainIn(br, url, "#tasks li")
	if err != nil {
		return t, err
	}
	defer ctx.Close()
	rows := p.Locator("#tasks li")
	before, err := rows.Count()
	if err != nil {
		return t, err
	}
	t.mark(partOpen, &at)
	if err := p.Locator("#new-title").Fill(typicalTitle); err != nil {
		return t, err
	}
	if _, err := p.Locator("#new-priority").SelectOption(playwright.SelectOptionValues{Values: &[]string{"high"}}); err != nil {
		return t, err
	}
	if err := p.Locator("#add-button").Click(); err != nil {
		return t, err
	}
	if err := rows.Filter(playwright.LocatorFilterOptions{HasText: typicalTitle}).WaitFor(); err != nil {
		return t, fmt.Errorf("plain: wait for the new task: %w", err)
	}
	t.mark(partAdd, &at)
	if _, err := plainRemove(p, "#tasks", "task", "t1"); err != nil {
		return t, err
	}
	texts, err := rows.AllTextContents()
	if err != nil {
		return t, err
	}
	if len(texts) != before || !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, typicalTitle) }) {
		return t, fmt.Errorf("plain: %d rows after adding one and deleting one (want %d, with %q)", len(texts), before, typicalTitle)
	}
	t.mark(partDelete, &at)
	if err := ctx.Close(); err != nil {
		return t, err
	}
	t.mark(partClose, &at)
	return t, nil
}
