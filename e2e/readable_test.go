package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserComparesAndGraphsReadably walks issue 22's compare and graph
// items on a real 103-task workflow (Montage): the compare page of
// critical-works, HEFT and list has one bar chart per ranked metric, the
// same task in the same colour in every Gantt panel, and a toggle that
// outlines the bars that moved and fades the others; the critical-works
// run page opens with its notes collapsed and a task graph whose shown
// labels never overlap, before and after zooming in past the label
// threshold; a DCOP pseudo-tree is drawn. Screenshots go where
// SCHEDLAB_SCREENSHOTS says (after-*.png).
func TestBrowserComparesAndGraphsReadably(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	wf, err := filepath.Abs("../solvers/critical/testdata/montage-chameleon-2mass-01d-001.json")
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=critical"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-wfformat`), []string{wf}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=all-variants]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-metrics]`)),
	)
	if err != nil {
		t.Fatalf("upload Montage and compare its variants: %v", err)
	}
	waitCompared(t, ctx, 6) // the metric column and the five variants (fastest-node, issue 45)
	runs := map[string]string{}
	links, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]string](`Array.from(document.querySelectorAll('[data-testid=compare-metrics] thead [data-testid=run-head]')).map(th => [th.dataset.variant, th.dataset.run])`))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		runs[l[0]] = l[1]
	}
	three := runs["critical-works"] + "," + runs["heft"] + "," + runs["list"]
	if strings.Count(three, ",") != 2 || strings.Contains(three, ",,") || strings.HasPrefix(three, ",") {
		t.Fatalf("runs by variant %v: want critical-works, heft and list", runs)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/compare?runs="+three)); err != nil {
		t.Fatal(err)
	}
	waitCompared(t, ctx, 4)
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "first Gantt panel")

	// 1. One ranked bar chart per ranked metric, its best bars those the
	// table marks (unranked results and costs are charted too, unranked).
	bars, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify((() => {
	  const ranked = Array.from(document.querySelectorAll('[data-testid=compare-metrics] tbody tr[data-metric][data-ranked]'));
	  const charts = Array.from(document.querySelectorAll('[data-testid=metric-bar][data-ranked]'));
	  const out = {ranked: ranked.map(tr => tr.dataset.metric), charts: charts.map(f => f.dataset.metric), mismatch: []};
	  for (const f of charts) {
	    const tr = document.querySelector('[data-testid=compare-metrics] tr[data-metric="' + f.dataset.metric + '"]');
	    const table = Array.from(tr.cells).slice(1).filter(td => !['na', 'apart'].includes(td.dataset.testid)).map(td => td.classList.contains('best'));
	    const c = echarts.getInstanceByDom(f.querySelector('[data-kind=bars]'));
	    const chart = c ? c.getOption().series[0].data.map(d => !!d.best) : null;
	    if (JSON.stringify(table) !== JSON.stringify(chart)) { out.mismatch.push(f.dataset.metric + ': table ' + JSON.stringify(table) + ', chart ' + JSON.stringify(chart)); }
	  }
	  return out;
	})())`))
	if err != nil {
		t.Fatalf("bar charts: %v", err)
	}
	var bc struct {
		Ranked, Charts, Mismatch []string
	}
	json.Unmarshal([]byte(bars), &bc)
	if len(bc.Ranked) < 3 || strings.Join(bc.Ranked, ",") != strings.Join(bc.Charts, ",") {
		t.Errorf("bar charts for %v, want one per ranked metric %v", bc.Charts, bc.Ranked)
	}
	for _, m := range bc.Mismatch {
		t.Errorf("bar chart best marks differ from the table's: %s", m)
	}
	waitPainted(t, ctx, `[data-kind=bars] canvas`, "metric bar chart")

	// 2. A task has one colour in every Gantt panel. The Gantt titles
	// differ where a run stopped (critical-works' "Partial plan"): the
	// group with the most panels is checked.
	const panelsJS = `Array.from(document.querySelectorAll('[data-testid=gantt-panels]')).reduce((a, b) => b.querySelectorAll('[data-kind=gantt]').length > a.querySelectorAll('[data-kind=gantt]').length ? b : a)`
	colours, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify((() => {
	  const group = `+panelsJS+`;
	  const seen = {}, bad = [], bars = [];
	  let panels = 0;
	  for (const el of group.querySelectorAll('[data-kind=gantt]')) {
	    panels++;
	    const rows = echarts.getInstanceByDom(el).getOption().series[0].data;
	    bars.push(rows.length);
	    for (const r of rows) {
	      const key = r[5] + '/' + r[6];
	      const colour = r[3];
	      if (key in seen && seen[key] !== colour) { bad.push(key); }
	      seen[key] = colour;
	    }
	  }
	  return {panels, bars, bad};
	})())`))
	if err != nil {
		t.Fatalf("panel colours: %v", err)
	}
	var pc struct {
		Panels int
		Bars   []int
		Bad    []string
	}
	json.Unmarshal([]byte(colours), &pc)
	if pc.Panels < 2 || len(pc.Bars) < 2 || pc.Bars[1] < 100 || len(pc.Bad) > 0 {
		t.Errorf("%d panels, %d bars; tasks whose colour changes between panels: %v", pc.Panels, pc.Bars, pc.Bad)
	}
	shot(t, ctx, dir, "after-critical-compare.png")

	// 3. Highlighting the bars that moved: outlined moved bars, faded
	// others. HEFT again (the same schedule: nothing moves) and list
	// (another schedule) against HEFT.
	heft2 := startRun(t, base, runs["heft"], "heft")
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/compare?runs="+runs["heft"]+","+heft2+","+runs["list"])); err != nil {
		t.Fatal(err)
	}
	waitCompared(t, ctx, 4)
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "first Gantt panel")
	if pc.Bars, err = chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(`+panelsJS+`.querySelectorAll('[data-kind=gantt]')).map(el => echarts.getInstanceByDom(el).getOption().series[0].data.length)`)); err != nil {
		t.Fatal(err)
	}
	pc.Panels = len(pc.Bars)
	if pc.Panels != 3 {
		t.Fatalf("HEFT, HEFT again and list: %d Gantt panels, want 3", pc.Panels)
	}
	countStyled := `JSON.stringify(Array.from(` + panelsJS + `.querySelectorAll('[data-kind=gantt]')).map(el => {
	  const list = echarts.getInstanceByDom(el).getZr().storage.getDisplayList(true);
	  let faded = 0, outlined = 0;
	  for (const d of list) {
	    if (d.type !== 'rect' || !d.style) { continue; }
	    if (d.style.opacity > 0.1 && d.style.opacity < 0.2) { faded++; }
	    if (d.style.stroke === '#111' && d.style.lineWidth === 2) { outlined++; }
	  }
	  return [faded, outlined];
	}))`
	styled := func() [][2]int {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](countStyled))
		if err != nil {
			t.Fatalf("bar styles: %v", err)
		}
		var v [][2]int
		json.Unmarshal([]byte(s), &v)
		return v
	}
	moved, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(`+panelsJS+`.querySelectorAll('[data-testid=moved-count]')).map(s => +s.dataset.moved)`))
	if err != nil || len(moved) != pc.Panels-1 {
		t.Fatalf("moved counts %v (%v), want one per panel after the first", moved, err)
	}
	none := fmt.Sprint(make([][2]int, pc.Panels))
	if before := styled(); fmt.Sprint(before) != none {
		t.Errorf("before the toggle: faded/outlined bars per panel %v, want none", before)
	}
	toggle := func() {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](panelsJS+`.querySelector('[data-testid=highlight-moved]').click() || true`))
		if err != nil {
			t.Fatal(err)
		}
	}
	toggle()
	var after [][2]int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if after = styled(); len(after) == pc.Panels && after[1][1] == moved[0] {
			break
		}
	}
	if len(after) != pc.Panels || after[0] != [2]int{0, 0} {
		t.Fatalf("after the toggle: %v, want the first panel (the reference) unchanged", after)
	}
	for i, m := range moved {
		got := after[i+1]
		if got[1] != m || got[0] != pc.Bars[i+1]-m {
			t.Errorf("panel %d after the toggle: %d faded, %d outlined; want %d outlined (moved) and the other %d faded", i+2, got[0], got[1], m, pc.Bars[i+1]-m)
		}
	}
	if fmt.Sprint(moved) != fmt.Sprintf("[0 %d]", pc.Bars[2]) {
		t.Errorf("moved bars %v: want none for HEFT run again, all %d for list", moved, pc.Bars[2])
	}
	shot(t, ctx, dir, "after-critical-compare-moved.png")
	toggle()
	time.Sleep(300 * time.Millisecond)
	if again := styled(); fmt.Sprint(again) != none {
		t.Errorf("after turning the toggle off: %v, want no bar faded or outlined", again)
	}

	// 4. The critical-works run: notes collapsed, graph labels apart.
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/runs/"+runs["critical-works"]),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)))
	if err != nil {
		t.Fatal(err)
	}
	collapsed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
	  const d = document.querySelector('[data-testid=report-notes]');
	  if (!d) { return 'no notes panel'; }
	  if (d.open) { return 'open'; }
	  const note = d.querySelector('p, li');
	  return note && note.checkVisibility() ? 'a note is visible' : 'collapsed';
	})()`))
	if err != nil || collapsed != "collapsed" {
		t.Errorf("run page notes: %s (%v), want collapsed", collapsed, err)
	}
	sel := `[data-kind=graph][data-title="Task graph"]`
	waitPainted(t, ctx, sel+` canvas`, "task graph")
	state, shown := graphLabels(t, ctx, sel)
	if state != "hover" {
		t.Errorf("Montage's task graph opens with labels %q, want hover (103 tasks do not fit their labels)", state)
	}
	if len(shown) < 3 {
		t.Errorf("%d labels shown, want at least the critical path's", len(shown))
	}
	assertApart(t, "at first", shown)
	shot(t, ctx, dir, "after-critical-run.png")

	zoomGraph(t, ctx, sel, "mBackground_ID0000095", func() bool { s, _ := graphLabels(t, ctx, sel); return s == "shown" })
	state, zoomed := graphLabels(t, ctx, sel)
	if state != "shown" || len(zoomed) <= len(shown) {
		t.Errorf("zoomed in: labels %q, %d shown (%d before), want shown and more of them", state, len(zoomed), len(shown))
	}
	assertApart(t, "zoomed in", zoomed)
	shot(t, ctx, dir, "after-critical-run-zoomed.png")

	// 5. A DCOP pseudo-tree.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=dcop"),
		chromedp.SetValue(chromedp.CSS(`#gen-namekata2008-jobs`), "20"),
		chromedp.Submit(chromedp.CSS(`[data-testid=preset-namekata2008]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
		chooseVariant("dpop-wd"),
		chromedp.SetValue(chromedp.CSS(`#nr-width_limit`), "3"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
	)
	if err != nil {
		t.Fatalf("dcop run: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=graph] canvas`, "pseudo-tree")
	_, tree := graphLabels(t, ctx, `[data-kind=graph]`)
	assertApart(t, "pseudo-tree", tree)
	shot(t, ctx, dir, "after-dcop-run.png")

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}

// labelBox is a shown label's text and its rectangle on the canvas.
type labelBox struct {
	Text       string
	X, Y, W, H float64
}

// graphLabels returns the graph's label state (its element's
// data-labels) and the labels drawn: every text element ECharts displays
// whose text is a node name or an edge label of the graph, with its
// bounding box in canvas pixels.
func graphLabels(t *testing.T, ctx context.Context, sel string) (string, []labelBox) {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`JSON.stringify((() => {
	  const el = document.querySelector(%q);
	  const c = echarts.getInstanceByDom(el);
	  const s = c.getOption().series[0];
	  const texts = new Set((s.data || []).map(d => String(d.name)).concat((s.links || []).map(l => l.text).filter(Boolean)));
	  const out = [];
	  for (const d of c.getZr().storage.getDisplayList(true)) {
	    const txt = d.style && d.style.text;
	    if (typeof txt !== 'string' || !texts.has(txt) || d.invisible) { continue; }
	    const r = d.getBoundingRect().clone();
	    const m = d.getComputedTransform();
	    if (m) { r.applyTransform(m); }
	    out.push({Text: txt, X: r.x, Y: r.y, W: r.width, H: r.height});
	  }
	  return {state: el.getAttribute('data-labels') || '', labels: out};
	})())`, sel)))
	if err != nil {
		t.Fatalf("graph labels: %v", err)
	}
	var v struct {
		State  string
		Labels []labelBox
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v.State, v.Labels
}

// assertApart fails when two shown labels' rectangles intersect (by more
// than a pixel: boxes that touch are apart).
func assertApart(t *testing.T, when string, ls []labelBox) {
	t.Helper()
	n := 0
	for i, a := range ls {
		for _, b := range ls[i+1:] {
			if a.X+a.W-1 > b.X && b.X+b.W-1 > a.X && a.Y+a.H-1 > b.Y && b.Y+b.H-1 > a.Y {
				if n < 5 {
					t.Errorf("%s: labels %q %v and %q %v overlap", when, a.Text, a, b.Text, b)
				}
				n++
			}
		}
	}
	if n > 5 {
		t.Errorf("%s: %d overlapping label pairs in all", when, n)
	}
}

// zoomGraph turns the mouse wheel over the graph's node whose name starts
// with at (its centre when there is none) until done says so (at most 30
// notches).
func zoomGraph(t *testing.T, ctx context.Context, sel, at string, done func() bool) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(sel))); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30 && !done(); i++ {
		// At the node named at, else at the centre.
		xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		  const el = document.querySelector(%q);
		  const r = el.getBoundingClientRect();
		  const c = echarts.getInstanceByDom(el);
		  const n = (c.getOption().series[0].data || []).find(d => String(d.name).startsWith(%q));
		  const p = n ? c.convertToPixel({seriesIndex: 0}, [n.x, n.y]) : null;
		  return p ? [r.left + p[0], r.top + p[1]] : [r.left + r.width / 2, r.top + r.height / 2];
		})()`, sel, at)))
		if err != nil {
			t.Fatal(err)
		}
		// A real wheel notch at the graph's centre (Chrome wants deltaX
		// too, which cdproto drops when it is 0).
		err = chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseWheel, xy[0], xy[1], func(p *input.DispatchMouseEventParams) {
			p.DeltaX, p.DeltaY = 1e-9, -120
		}))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
	}
	if !done() {
		t.Fatalf("30 wheel notches did not zoom the graph far enough")
	}
}
