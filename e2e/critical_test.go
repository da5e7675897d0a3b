package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCritical uploads a real Pegasus workflow (WfFormat), sees its
// DAG with the longest path, refuses a cyclic graph, runs critical works
// and compares it with HEFT and list in one click.
func TestBrowserCritical(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	// 1. A cycle is refused with the field named; nothing is stored.
	cyclic := filepath.Join(dir, "cyclic.json")
	os.WriteFile(cyclic, []byte(`{"tasks":[{"id":"a","volume":1},{"id":"b","volume":2}],
		"edges":[{"from":"a","to":"b","transfer":1},{"from":"b","to":"a","transfer":1}],
		"processors":[{"id":"P1","performance":1}]}`), 0o644)
	err := chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=critical"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-file`), []string{cyclic}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	msg := formError(t, ctx, "the cyclic graph's error")
	if !strings.Contains(strings.ToLower(msg), "cycle") {
		t.Errorf("cyclic graph: error %q, want one saying cycle", msg)
	}
	var list []struct{}
	getJSON(t, base+"/api/workloads", &list)
	if len(list) != 0 {
		t.Fatalf("a refused upload left %d workloads", len(list))
	}

	// 2. The real workflow: its DAG is drawn.
	wf, err := filepath.Abs("../solvers/critical/testdata/epigenomics-chameleon-hep-1seq-100k-001.json")
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=critical"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-wfformat`), []string{wf}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
	)
	if err != nil {
		t.Fatalf("upload workflow: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=graph] canvas`, "task graph preview")

	// 3. Every variant in one click; the compare page fills in.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=all-variants]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-metrics]`)),
	)
	if err != nil {
		t.Fatalf("compare variants: %v", err)
	}
	waitCompared(t, ctx, 6) // the metric column and the five variants (fastest-node is the fifth, issue 45)
	// The makespan is ranked when the variants had the same processors;
	// a variant that scaled the platform out is not ranked against the
	// others, and the page says so (issue 30).
	best, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-metric=makespan] [data-testid=best]').length`))
	notes, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('[data-testid=compare-note]')).map(e => e.textContent).join(' ')`))
	procsDiffer := strings.Contains(notes, "Not ranked: processors differ (")
	if best == 0 && !procsDiffer || best > 0 && procsDiffer {
		t.Errorf("%d best makespans, notes %q: want a best on equal processors, none where processors differ", best, notes)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "stacked Gantt")
	shot(t, ctx, dir, "critical-compare.png")

	// 4. The critical-works run itself: Gantt, DAG, tree, ranked works.
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('[data-testid=compare-metrics] thead a')).find(a => a.textContent.includes('critical-works')).href`))
	if err != nil {
		t.Fatalf("no link to the critical-works run: %v", err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(href),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-table][data-title="Critical works"]`)),
	)
	if err != nil {
		t.Fatalf("critical-works report: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "schedule")
	waitPainted(t, ctx, `[data-kind=graph] canvas`, "task graph")
	shot(t, ctx, dir, "critical-run.png")

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}
