package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// innerScrollJS lists the elements that scroll vertically inside a box of
// their own (a result a printout or a full-page screenshot would miss).
const innerScrollJS = `Array.from(document.querySelectorAll('body *')).filter(el => {
  const s = getComputedStyle(el);
  return (s.overflowY === 'auto' || s.overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 2 && el.clientHeight > 0;
}).map(el => el.tagName + '.' + el.className + ' ' + (el.dataset.testid || ''))`

// exportsJS reads, for the first chart of the page, its SVG (drawn again
// by ECharts' SVG renderer) and its CSV, and counts the charts and their
// download links.
const exportsJS = `(() => {
  const charts = document.querySelectorAll('[data-testid=chart]');
  const bars = document.querySelectorAll('[data-testid=chart-exports]');
  const el = charts[0];
  return JSON.stringify({charts: charts.length, bars: bars.length,
    svg: el ? window.schedlabChart.svg(el) : '', csv: el ? window.schedlabChart.csv(el) : '',
    title: el ? el.dataset.title : '', kind: el ? el.dataset.kind : ''});
})()`

// TestBrowserChartsExportAndPagesGrow: on a DCOP run page and on a
// compare page, every chart has PNG, SVG and CSV downloads; the SVG is
// vector (an <svg> with paths, not an embedded bitmap) and the CSV holds
// the chart's data under its title; no result sits in an inner scroll box;
// a reproduction's Claims table comes before its charts; the DCOP
// pseudo-tree has a visible key of its edge kinds.
func TestBrowserChartsExportAndPagesGrow(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	ctx, consoleErrors := browser(t, exe, t.TempDir())

	code, b := post(t, base+"/api/workloads/generate", `{"strategy":"dcop","preset":"namekata2008","params":{"jobs":"8"},"seed":1}`)
	if code != 201 {
		t.Fatalf("generate: %d %s", code, b)
	}
	var w struct {
		ID string `json:"id"`
	}
	json.Unmarshal(b, &w)
	code, b = post(t, base+"/api/runs", `{"workload_id":"`+w.ID+`","strategy":"dcop","variant":"dpop"}`)
	var r struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &r); code != 201 {
		t.Fatalf("start: %d %s", code, b)
	}
	run := startRun(t, base, r.ID, "dpop") // waits for it; a second run to compare
	pages := []string{"/runs/" + run, "/compare?runs=" + r.ID + "," + run}
	for _, p := range pages {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+p), chromedp.WaitVisible(chromedp.CSS(`[data-testid=chart-exports]`))); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		waitPainted(t, ctx, `[data-testid=chart] canvas`, p+" first chart")
		waitAllDrawn(t, ctx, p)
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](exportsJS))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Charts, Bars    int
			SVG, CSV, Title string
			Kind            string
		}
		json.Unmarshal([]byte(s), &got)
		if got.Charts == 0 || got.Bars != got.Charts {
			t.Errorf("%s: %d charts, %d download bars", p, got.Charts, got.Bars)
		}
		if !strings.HasPrefix(got.SVG, "<svg") || !strings.Contains(got.SVG, "<path") || strings.Contains(got.SVG, "<image") {
			t.Errorf("%s: chart %q as SVG is not vector: %.200s", p, got.Title, got.SVG)
		}
		lines := strings.Split(strings.TrimSpace(got.CSV), "\n")
		head := "series,name"
		if got.Kind == "gantt" { // one row per bar, its columns named (issue 42)
			head = "lane,job,start ("
		}
		if len(lines) < 3 || lines[0] != "# "+got.Title || !strings.HasPrefix(lines[1], head) {
			t.Errorf("%s: chart %q as CSV: %.300q", p, got.Title, got.CSV)
		}
		boxes, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](innerScrollJS))
		if err != nil || len(boxes) != 0 {
			t.Errorf("%s: results inside inner scroll boxes: %v %v", p, boxes, err)
		}
	}
	// The pseudo-tree's edge kinds have a key under the chart.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/runs/"+run)); err != nil {
		t.Fatal(err)
	}
	kinds, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid=edge-key] li')).filter(li => li.offsetHeight > 0).map(li => li.dataset.kind)`))
	if err != nil || len(kinds) < 2 || kinds[0] != "tree" {
		t.Errorf("the pseudo-tree's key shows edge kinds %v (%v), want tree and the others it has", kinds, err)
	}

	// A reproduction: the Claims table first, every row on the page.
	code, b = post(t, base+"/api/reproduce/eapm", `{"params":{"instances":"1"}}`)
	var rep struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &rep); code != 201 {
		t.Fatalf("reproduce: %d %s", code, b)
	}
	waitDone(t, base, rep.ID)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/runs/"+rep.ID), chromedp.WaitVisible(chromedp.CSS(`[data-title=Claims]`))); err != nil {
		t.Fatal(err)
	}
	order, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid=report-table], [data-testid=chart]')).map(e => e.dataset.testid + ':' + (e.dataset.title || ''))`))
	if err != nil || len(order) < 2 || order[0] != "report-table:Claims" {
		t.Errorf("the reproduction's first table or chart is %v (%v), want the Claims table", order, err)
	}
	boxes, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](innerScrollJS))
	if err != nil || len(boxes) != 0 {
		t.Errorf("reproduction: results inside inner scroll boxes: %v %v", boxes, err)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// waitDone waits until run id is done.
func waitDone(t *testing.T, base, id string) {
	t.Helper()
	var run struct {
		Status string `json:"status"`
	}
	for deadline := time.Now().Add(100 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		getJSON(t, base+"/api/runs/"+id, &run)
		switch run.Status {
		case "done":
			return
		case "queued", "running":
		default:
			t.Fatalf("run %s ended %s", id, run.Status)
		}
	}
	t.Fatalf("run %s did not finish", id)
}
