package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"schedlab/report"

	"github.com/chromedp/chromedp"
)

// chartAxes lists every chart of the page with its kind, title and the
// names of its x axes, read from the drawn ECharts instances.
const chartAxesJS = `(() => Array.from(document.querySelectorAll('[data-testid=chart]')).map(el => {
  const c = echarts.getInstanceByDom(el);
  const o = c ? c.getOption() : {};
  return {kind: el.dataset.kind, title: el.dataset.title, x: (o.xAxis || []).map(a => a.name || '')};
}))()`

type chartAxes struct {
	Kind  string   `json:"kind"`
	Title string   `json:"title"`
	X     []string `json:"x"`
}

// ganttTipJS shows the tooltip of the first bar of the first Gantt as a
// user's hover does (ECharts' showTip) and returns its text once drawn.
const ganttTipJS = `(() => {
  const el = document.querySelector('[data-kind=gantt]');
  const c = echarts.getInstanceByDom(el);
  c.dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 0});
  const tip = Array.from(el.querySelectorAll('div')).map(d => d.innerText || '').find(t => t.includes('duration:'));
  return tip || '';
})()`

// humanTipJS calls the first Gantt's own tooltip formatter on a bar of
// %v display units (from 0) and returns the duration it writes.
const humanTipJS = `(() => {
  const el = document.querySelector('[data-kind=gantt]');
  const o = echarts.getInstanceByDom(el).getOption();
  const s = o.series[0].tooltip.formatter({marker: '', value: [0, 0, %v, 0, 0, 0, 0]});
  return s.split('duration: ')[1].split('<br>')[0];
})()`

// oneTimeFrame checks what a run page shows of its times: the frame stated
// once (statement), every time axis (the Gantt's, each listed plot's)
// named after it ("time since … (unit)"), no other chart with a time axis
// in another unit, and the first bar's tooltip giving its duration for
// people. It returns the tooltip's text.
func oneTimeFrame(t *testing.T, ctx context.Context, statement, axis string, timePlots []string) string {
	t.Helper()
	waitAllDrawn(t, ctx, "the page stating "+statement) // a chart not yet drawn has no axes to read
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid=time-frame]')).map(e => e.innerText)`))
	if err != nil || len(got) != 1 || got[0] != statement+"." {
		t.Errorf("time frame stated %q (%v), want once %q", got, err, statement+".")
	}
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartAxes](chartAxesJS))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]string{}
	unit := regexp.MustCompile(`\(([^)]*)\)$`)
	want := unit.FindStringSubmatch(axis)[1]
	for _, c := range charts {
		if len(c.X) == 0 {
			continue
		}
		named[c.Kind+":"+c.Title] = c.X[0]
		if strings.HasPrefix(c.X[0], "time") {
			if m := unit.FindStringSubmatch(c.X[0]); m == nil || m[1] != want {
				t.Errorf("%s %q: time axis %q is not in %s", c.Kind, c.Title, c.X[0], want)
			}
		}
	}
	gantts := 0
	for _, c := range charts {
		if c.Kind == "gantt" {
			gantts++
			if len(c.X) == 0 || c.X[0] != axis {
				t.Errorf("Gantt %q: axes %q, want %q", c.Title, c.X, axis)
			}
		}
	}
	if gantts == 0 {
		t.Error("no Gantt drawn")
	}
	for _, p := range timePlots {
		if x := named["plot:"+p]; x != axis {
			t.Errorf("plot %q: x axis %q, want %q", p, x, axis)
		}
	}
	var tip string
	waitUntil(t, ctx, "the first Gantt bar's tooltip", func() (bool, string) {
		if tip, err = chromedp.Run(ctx, chromedp.Evaluate[string](ganttTipJS)); err != nil {
			t.Fatal(err)
		}
		return tip != "", "no tooltip"
	})
	human := regexp.MustCompile(`duration: \d+(\.\d)? (d|h|min|s|ms)( \d+ (h|min|s))?(\n|$)`)
	if !human.MatchString(tip) {
		t.Errorf("the first bar's tooltip %q gives no duration for people", tip)
	}
	return tip
}

// TestBrowserOneTimeFramePerPage opens a batch run of a real trace and a
// gossip run, and checks that each page speaks of time in one frame:
// stated once, the Gantt's axis and the time plots' axes named after it,
// the note giving the Gantt window in it, tooltips giving durations as
// people write them (the same text as report.HumanDuration); two batch
// runs compared share the frame.
func TestBrowserOneTimeFramePerPage(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	// 1. A batch run of the KTH trace: trace seconds from 0 to ~10^7,
	// shown as hours since the first submission.
	kth, err := filepath.Abs("../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=cyclic"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-swf`), []string{kth}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
		chooseVariant("batch"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=metric][data-name=bsld_mean]`)),
	)
	if err != nil {
		t.Fatalf("batch run of the KTH trace: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=gantt][data-title="Processors"] canvas`, "processors Gantt")
	waitPainted(t, ctx, `[data-kind=plot][data-title="Processors in use"] canvas`, "processors in use")
	const batchAxis = "time since the first submission (h)"
	oneTimeFrame(t, ctx, "Times: hours since the first submission", batchAxis, []string{"Processors in use"})
	notes, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('[data-testid=report-note]')).map(e => e.textContent).join('\n')`))
	if err != nil || !strings.Contains(notes, "The Gantt shows the window from 0 h to 48 h after the first submission") {
		t.Errorf("the notes do not give the Gantt window in hours: %q (%v)", notes, err)
	}
	// The page's tooltip writes durations as report.HumanDuration does.
	for _, sec := range []float64{0.25, 4.54, 42.4, 59.6, 200, 3599.6, 11*3600 + 47*60 + 10, 2*86400 + 3*3600 + 100} {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(humanTipJS, sec/3600)))
		if err != nil {
			t.Fatal(err)
		}
		if want := report.HumanDuration(sec); got != want {
			t.Errorf("tooltip duration of %v s: %q, Go writes %q", sec, got, want)
		}
	}
	shot(t, ctx, dir, "timeframe-batch-run.png")
	batchURL, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	batchID := batchURL[strings.LastIndex(batchURL, "/")+1:]

	// 2. Compared with a second batch run of the trace: one frame, stated
	// once, every Gantt panel on it.
	other := startRun(t, base, batchID, "batch")
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/compare?runs="+batchID+","+other),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=gantt-panels]`)))
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	waitCompared(t, ctx, 3)
	oneTimeFrame(t, ctx, "Times: hours since the first submission", batchAxis, []string{"Processors in use"})
	shot(t, ctx, dir, "timeframe-batch-compare.png")

	// 3. A gossip run of 4 simulated hours: seconds from the start of the
	// simulation, shown in hours in the Gantt and in every plot over time.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=gossip"),
		chromedp.SetValue(chromedp.CSS(`#gen-umeda2006-nodes`), "100"),
		chromedp.SetValue(chromedp.CSS(`#gen-umeda2006-duration_h`), "4"),
		chromedp.Submit(chromedp.CSS(`[data-testid=preset-umeda2006]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
		chooseVariant("gossip"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=metric][data-name=utilization]`)),
	)
	if err != nil {
		t.Fatalf("gossip run: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "jobs on nodes")
	waitPainted(t, ctx, `[data-kind=plot][data-title="Utilization over time"] canvas`, "utilization over time")
	tip := oneTimeFrame(t, ctx, "Times: hours since the start of the simulation", "time since the start of the simulation (h)",
		[]string{"Utilization over time", "Messages per node per period", "Bytes per node per period", "Staleness of records", "Table coverage"})
	if regexp.MustCompile(`start: \d{4,}`).MatchString(tip) {
		t.Errorf("the tooltip gives a start in seconds in a page in hours: %q", tip)
	}
	shot(t, ctx, dir, "timeframe-gossip-run.png")

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}
