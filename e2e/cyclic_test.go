package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCyclic walks the cyclic family's planning half as a user
// would: a job with an unknown criterion is refused with the field named
// and nothing stored; a toporkov2014 domain is generated and previewed
// (node timeline with the owners' local jobs); fair-share with shift draws
// the chosen cycle before and after the shift; css and fair are compared.
func TestBrowserCyclic(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	// 1. A job whose criterion is not one of start, runtime, finish, cost.
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"interval":600,
		"nodes":[{"id":"n1","performance":4,"price":4}],
		"jobs":[{"id":"j1","nodes":1,"volume":100,"min_performance":2,"max_price":1000,"criterion":"speed"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=cyclic"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-file`), []string{bad}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
	)
	if err != nil {
		t.Fatalf("bad upload: %v", err)
	}
	msg := formError(t, ctx, "the bad job's error")
	if !strings.Contains(msg, "jobs[0]") {
		t.Errorf("bad job: error %q, want one naming jobs[0]", msg)
	}
	var list []struct{}
	getJSON(t, base+"/api/workloads", &list)
	if len(list) != 0 {
		t.Fatalf("a refused upload left %d workloads stored", len(list))
	}

	// 2. Generate the seed's domain; the preview draws the node timeline.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=cyclic"),
		chromedp.SetValue(chromedp.CSS(`#gen-toporkov2014-nodes`), "12"),
		chromedp.Submit(chromedp.CSS(`[data-testid=preset-toporkov2014]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
	)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "node timeline")

	// 3. Fair-share with shift over 50 cycles: the cycle before and after.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
		chooseVariant("fair"),
		chromedp.SetValue(chromedp.CSS(`#nr-cycles`), "50"),
		chromedp.SetValue(chromedp.CSS(`#nr-shift`), "true"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=metric][data-name=processor_time]`)),
	)
	if err != nil {
		t.Fatalf("run fair: %v", err)
	}
	for _, title := range []string{"Cycle 1 before shift", "Cycle 1 after shift"} {
		waitPainted(t, ctx, `[data-kind=gantt][data-title="`+title+`"] canvas`, title)
	}
	shot(t, ctx, dir, "cyclic-run.png")

	// 4. Every slot variant with the same parameters, side by side.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=all-variants]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-metrics]`)),
	)
	if err != nil {
		t.Fatalf("compare variants: %v", err)
	}
	waitCompared(t, ctx, 1+cyclicSlotVariants)
	shot(t, ctx, dir, "cyclic-compare.png")

	// 5. A real trace: a malformed line is refused by number; the KTH
	// trace runs as a batch simulation on its 100 processors.
	badSWF := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(badSWF, []byte("; MaxProcs: 8\n1 0 5 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n2 3 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=cyclic"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-swf`), []string{badSWF}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
	)
	if err != nil {
		t.Fatalf("bad trace: %v", err)
	}
	msg = formError(t, ctx, "the bad trace's error")
	if !strings.Contains(msg, "line 3") {
		t.Errorf("bad trace: error %q, want one naming line 3", msg)
	}
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
		chromedp.SetValue(chromedp.CSS(`#nr-policy`), "conservative"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=metric][data-name=bsld_mean]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-table][data-title="Jobs (Batsim columns)"]`)),
	)
	if err != nil {
		t.Fatalf("batch run of the KTH trace: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=gantt][data-title="Processors"] canvas`, "processors Gantt")
	waitPainted(t, ctx, `[data-kind=plot][data-title="Processors in use"] canvas`, "processors in use")
	shot(t, ctx, dir, "cyclic-batch.png")

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}

// cyclicSlotVariants is the number of cyclic variants that run on a slot
// workload (css, fair, backfill, combined: every variant but batch, which needs an
// SWF trace).
const cyclicSlotVariants = 4
