package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// probeScript times the runtime's passes inside the page with
// performance.now: each figure is the median of five batches, each batch
// repeating the pass for at least minMs, so that the browser's coarse clock
// does not decide small figures. The diff compares the model before and
// after one real deletion (through the page's own button).
const probeScript = `async (minMs) => {
  const g = globalThis.__glassBench;
  if (!g || !g.takeModel || !g.diff) throw new Error("the page has no probe runtime");
  const time = (f) => {
    const per = [];
    for (let b = 0; b < 5; b++) {
      let n = 0, e;
      const s = performance.now();
      do { f(); n++; e = performance.now(); } while (e - s < minMs);
      per.push((e - s) / n);
    }
    per.sort((x, y) => x - y);
    return per[2];
  };
  const out = {};
  out.model = time(() => g.takeModel());
  const before = g.takeModel();
  const again = g.takeModel();
  out.fingerprint = g.sameModel ? time(() => g.sameModel(before, again)) : g.fingerprint ? time(() => g.fingerprint(before)) : 0;
  out.snapshot = time(() => glassRuntime.snapshot());
  out.tools = g.refreshTools ? time(() => g.refreshTools()) : 0;
  const confirm = window.confirm;
  window.confirm = () => true;
  document.querySelector("#records li button.remove").click();
  window.confirm = confirm;
  const after = g.takeModel();
  out.diff = time(() => g.diff(before, after));
  const d = g.diff(before, after);
  out.removed = d.records ? d.records.removed.length : 0;
  return JSON.stringify(out);
}`

type probe struct {
	Model       float64 `json:"model"`
	Fingerprint float64 `json:"fingerprint"`
	Snapshot    float64 `json:"snapshot"`
	Tools       float64 `json:"tools"`
	Diff        float64 `json:"diff"`
	Removed     int     `json:"removed"`
}

type scaleRow struct {
	n                     int
	a, b                  sample
	bytes                 []int
	probe                 probe
	recordReads, actReads int
}

func scaling(out io.Writer, b *glasstest.Browser, site string, c config) error {
	fmt.Fprintf(out, "\n2. Scaling on the records page (pages/records.html: N rows, a remove@<id> per row with confirmation and expectation; load average %s)\n", loadAvg())
	var rows []scaleRow
	for _, n := range c.sizes {
		r, err := scaleOne(b, site, n, c)
		if err != nil {
			return fmt.Errorf("%d records: %w", n, err)
		}
		rows = append(rows, r)
	}
	fmt.Fprintf(out, "   %7s %9s %9s %9s %6s %8s %8s %8s %8s %8s %8s %10s %7s\n",
		"records", "A median", "A p95", "B median", "A/B", "receipt", "model", "revision", "diff", "snapshot", "tools", "snap+diff", "reads")
	fmt.Fprintf(out, "   %7s %9s %9s %9s %6s %8s %8s %8s %8s %8s %8s %10s %7s\n",
		"", "ms", "ms", "ms", "", "bytes", "ms", "ms", "ms", "ms", "ms", "µs/record", "rec/act")
	for _, r := range rows {
		p := r.probe
		fmt.Fprintf(out, "   %7d %9s %9s %9s %6.2f %8d %8s %8s %8s %8s %8s %10.2f %3d/%-3d\n",
			r.n, fmtMS(r.a.median()), fmtMS(r.a.p95()), fmtMS(r.b.median()), r.a.median()/r.b.median(), medianInt(r.bytes),
			fmtMS(p.Model), fmtMS(p.Fingerprint), fmtMS(p.Diff), fmtMS(p.Snapshot), fmtMS(p.Tools),
			(p.Snapshot+p.Diff)*1000/float64(r.n), r.recordReads, r.actReads)
	}
	if len(rows) > 1 {
		lo, hi := rows[0], rows[len(rows)-1]
		fmt.Fprintf(out, "   A(%d)/A(%d) = %.2f (B: %.2f); receipt(%d)/receipt(%d) = %.3f; snapshot+diff(%d)/snapshot+diff(%d) = %.0f for %.0f× the records\n",
			hi.n, lo.n, hi.a.median()/lo.a.median(), hi.b.median()/lo.b.median(),
			hi.n, lo.n, float64(medianInt(hi.bytes))/float64(medianInt(lo.bytes)),
			hi.n, lo.n, (hi.probe.Snapshot+hi.probe.Diff)/(lo.probe.Snapshot+lo.probe.Diff), float64(hi.n)/float64(lo.n))
	}
	fmt.Fprintf(out, "   B: the same deletion in plain playwright-go (click, accept confirm(), wait detached), alternating with A.\n")
	fmt.Fprintf(out, "   model: one read of the page model (takeModel); revision: telling it from the last one observed; tools: one WebMCP tool refresh;\n")
	fmt.Fprintf(out, "   reads: how often one call read the page's records / actions. Load average %s\n", loadAvg())
	return nil
}

func scaleOne(b *glasstest.Browser, site string, n int, c config) (scaleRow, error) {
	row := scaleRow{n: n}
	// The probe: the runtime's passes timed in the page, and how often one
	// call reads the model.
	p, err := glasstest.OpenPage(b, fmt.Sprintf("%s/probe/records.html?n=%d", site, n), glasstest.Approve(), glasstest.OpenTimeout(2*time.Minute))
	if err != nil {
		return row, err
	}
	minMs := 20
	v, err := p.Playwright().Evaluate(probeScript, minMs)
	if err != nil {
		p.Close()
		return row, fmt.Errorf("probe: %w", err)
	}
	if err := json.Unmarshal([]byte(v.(string)), &row.probe); err != nil {
		p.Close()
		return row, fmt.Errorf("probe: %w", err)
	}
	if row.probe.Removed != 1 {
		p.Close()
		return row, fmt.Errorf("probe: the diff of one deletion lists %d removals", row.probe.Removed)
	}
	reads := func() (int, int) {
		v, err := p.Playwright().Evaluate("() => [benchPage.records, benchPage.actions]")
		if err != nil {
			return -1, -1
		}
		l, _ := v.([]any)
		if len(l) != 2 {
			return -1, -1
		}
		return int(num(l[0])), int(num(l[1]))
	}
	// Let the tool refresh that the deletion above scheduled run first.
	if _, err := p.Playwright().Evaluate("() => new Promise((r) => setTimeout(r, 0))"); err != nil {
		p.Close()
		return row, err
	}
	r0, a0 := reads()
	r := p.Do("remove@r2", nil)
	r1, a1 := reads()
	p.Close()
	if err := checkRemoved(r, "r2"); err != nil {
		return row, err
	}
	row.recordReads, row.actReads = r1-r0, a1-a0

	// A and B, alternating: one warm-up deletion per fresh page, then up to
	// a tenth of the records removed per page, so that a page keeps about n
	// records throughout.
	perPage := max(1, n/10)
	var glass *glasstest.Page
	var plain playwright.Page
	var plainCtx playwright.BrowserContext
	closeAll := func() {
		if glass != nil {
			glass.Close()
		}
		if plainCtx != nil {
			plainCtx.Close()
		}
	}
	defer closeAll()
	url := fmt.Sprintf("%s/records.html?n=%d", site, n)
	next, used := 0, perPage
	for i := 0; len(row.a) < c.scaleIter; i++ {
		if used == perPage {
			closeAll()
			if glass, err = glasstest.OpenPage(b, url, glasstest.Approve(), glasstest.OpenTimeout(2*time.Minute)); err != nil {
				return row, err
			}
			if plainCtx, plain, err = openPlain(glass, url, "#records li"); err != nil {
				return row, err
			}
			next, used = 1, 0
			if err := checkRemoved(glass.Do("remove@r1", nil), "r1"); err != nil {
				return row, err
			}
			if _, err := plainRemove(plain, "#records", "record", "r1"); err != nil {
				return row, err
			}
		}
		next++
		used++
		id := fmt.Sprintf("r%d", next)
		var r *receipt.Receipt
		a := func() error {
			start := time.Now()
			r = glass.Do("remove@"+id, nil)
			row.a.add(time.Since(start))
			return checkRemoved(r, id)
		}
		pb := func() error {
			d, err := plainRemove(plain, "#records", "record", id)
			row.b.add(d)
			return err
		}
		first, second := a, pb
		if i%2 == 1 {
			first, second = pb, a
		}
		if err := first(); err != nil {
			return row, err
		}
		if err := second(); err != nil {
			return row, err
		}
		js, err := receipt.CanonicalJSON(r)
		if err != nil {
			return row, err
		}
		row.bytes = append(row.bytes, len(js))
	}
	return row, nil
}

func medianInt(xs []int) int {
	s := make(sample, len(xs))
	for i, x := range xs {
		s[i] = float64(x)
	}
	return int(s.median())
}
