package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCompareNamesWhatDiffers compares FCFS, EASY and conservative
// batch simulations of one SWF trace (KTH SP2) and checks that the policy,
// the one thing that differs, names every run: the table's columns, the
// legend of the merged plot, the x axis of every bar chart and the Gantt
// panel titles; and that "What differs" lists the policy first, before
// the metrics, the shared fields folded away.
func TestBrowserCompareNamesWhatDiffers(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	kth, err := filepath.Abs("../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=cyclic"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-swf`), []string{kth}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
	)
	if err != nil {
		t.Fatalf("upload the KTH trace: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	workload := strings.TrimPrefix(loc[strings.LastIndex(loc, "/workloads/"):], "/workloads/")
	workload, _, _ = strings.Cut(workload, "?")

	policies := []string{"fcfs", "easy", "conservative"}
	var ids []string
	for _, p := range policies {
		status, b := post(t, base+"/api/runs", fmt.Sprintf(`{"workload_id":%q,"variant":"batch","params":{"policy":%q}}`, workload, p))
		var run struct{ ID string }
		if err := json.Unmarshal(b, &run); err != nil || status != http.StatusCreated {
			t.Fatalf("start %s: %d %s", p, status, b)
		}
		ids = append(ids, run.ID)
	}
	for _, id := range ids {
		waitDone(t, base, id)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/compare?runs="+strings.Join(ids, ","))); err != nil {
		t.Fatal(err)
	}
	waitCompared(t, ctx, 4)
	waitPainted(t, ctx, `[data-kind=bars] canvas`, "a metric bar chart")
	shot(t, ctx, dir, "compare-differs.png")

	var page struct {
		Columns, Legend, GanttTitles, Differ []string
		Bars                                 [][]string
		DiffersFirst, EqualFolded            bool
		Heads                                []string
	}
	js := `JSON.stringify((() => {
	  const q = s => Array.from(document.querySelectorAll(s));
	  const plot = document.querySelector('[data-kind=plot][data-title="Processors in use"]');
	  const differs = document.querySelector('[data-testid=compare-differs]');
	  const metrics = document.querySelector('[data-testid=compare-metrics]');
	  return {
	    columns: q('[data-testid=compare-metrics] [data-testid=run-label]').map(e => e.textContent.trim()),
	    heads: q('[data-testid=compare-metrics] thead th a').map(a => a.textContent.trim()),
	    legend: plot ? echarts.getInstanceByDom(plot).getOption().series.map(s => s.name) : [],
	    ganttTitles: q('[data-testid=gantt-panel-run]').map(e => e.firstChild.textContent.trim()),
	    bars: q('[data-testid=metric-bar] [data-kind=bars]').map(el => echarts.getInstanceByDom(el).getOption().xAxis[0].data),
	    differ: q('[data-testid=compare-differs] tbody tr').map(tr => tr.dataset.field),
	    differsFirst: !!differs && !!metrics && !!(differs.compareDocumentPosition(metrics) & Node.DOCUMENT_POSITION_FOLLOWING),
	    equalFolded: !!document.querySelector('details[data-testid=compare-equal]:not([open]) dt[data-field=workload]') &&
	      !!document.querySelector('details[data-testid=compare-equal] dt[data-field=variant]'),
	  };
	})())`
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil {
		t.Fatal(err)
	}
	want := []string{"policy=fcfs", "policy=easy", "policy=conservative"}
	if strings.Join(page.Columns, "|") != strings.Join(want, "|") {
		t.Errorf("columns %q, want %q", page.Columns, want)
	}
	for i, h := range page.Heads {
		if !strings.HasPrefix(h, ids[i]+" · ") {
			t.Errorf("column %d head %q: the run's id is no longer beside its label", i, h)
		}
	}
	same := func(what string, got []string) {
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s %q, want %q", what, got, want)
		}
	}
	// The merged plot has several lines per run, each "label · line".
	var legendRuns []string
	for _, name := range page.Legend {
		run, _, _ := strings.Cut(name, " · ")
		if !slices.Contains(legendRuns, run) {
			legendRuns = append(legendRuns, run)
		}
	}
	same("runs in the legend of Processors in use", legendRuns)
	if len(page.GanttTitles) != 3 {
		t.Errorf("%d Gantt panel titles, want 3", len(page.GanttTitles))
	} else {
		same("Gantt panel titles", page.GanttTitles)
	}
	if len(page.Bars) == 0 {
		t.Error("no bar chart")
	}
	for i, b := range page.Bars {
		same(fmt.Sprintf("bar chart %d's runs", i), b)
	}
	if len(page.Differ) == 0 || page.Differ[0] != "policy" || !page.DiffersFirst {
		t.Errorf("what differs %q (before the metrics: %v), want policy first", page.Differ, page.DiffersFirst)
	}
	if !page.EqualFolded {
		t.Error("the shared workload and variant are not folded away")
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
