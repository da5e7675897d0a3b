package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserGossip walks the gossip family as a user would: a malformed
// grid is refused with the field named and nothing stored; a small
// umeda2006 grid is generated, run with gossip, drawn (utilization over
// time, staleness, jobs on nodes), and compared with rumor and central in
// one click.
func TestBrowserGossip(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	// 1. A grid with no nodes.
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"grid":{"nodes":0,"sites":1},"duration_s":3600,"jobs":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=gossip"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-file`), []string{bad}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
	)
	if err != nil {
		t.Fatalf("bad upload: %v", err)
	}
	msg := formError(t, ctx, "the bad grid's error")
	if !strings.Contains(msg, "nodes") {
		t.Errorf("bad grid: error %q, want one naming nodes", msg)
	}
	var list []struct{}
	getJSON(t, base+"/api/workloads", &list)
	if len(list) != 0 {
		t.Fatalf("a refused upload left %d workloads stored", len(list))
	}

	// 2. Generate a small grid: 100 nodes, two simulated hours.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=gossip"),
		chromedp.SetValue(chromedp.CSS(`#gen-umeda2006-nodes`), "100"),
		chromedp.SetValue(chromedp.CSS(`#gen-umeda2006-duration_h`), "2"),
		chromedp.Submit(chromedp.CSS(`[data-testid=preset-umeda2006]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
	)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}

	// 3. The run form shows each variant's own parameters: rumor's k and
	// mode only for rumor, central's central_info only for central.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
	)
	if err != nil {
		t.Fatalf("run form: %v", err)
	}
	shown := func(variant string) map[string]bool {
		t.Helper()
		if err := chromedp.Do(ctx, chooseVariant(variant)); err != nil {
			t.Fatal(err)
		}
		names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-param]')).filter(e => !e.hidden && !e.querySelector('input,select').disabled).map(e => e.dataset.param)`))
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	if r := shown("rumor"); !r["k"] || !r["mode"] || r["central_info"] || r["ttl_s"] {
		t.Errorf("rumor's form shows %v", r)
	}
	if c := shown("central"); !c["central_info"] || c["k"] || c["mode"] {
		t.Errorf("central's form shows %v", c)
	}

	// 4. Run gossip: the plots and the Gantt are drawn.
	err = chromedp.Do(ctx,
		chooseVariant("gossip"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=metric][data-name=utilization]`)),
	)
	if err != nil {
		t.Fatalf("run gossip: %v", err)
	}
	for _, title := range []string{"Utilization over time", "Staleness of records"} {
		waitPainted(t, ctx, `[data-kind=plot][data-title="`+title+`"] canvas`, title)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "jobs on nodes")
	shot(t, ctx, dir, "gossip-run.png")

	// 5. Every variant with the same parameters, side by side.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=all-variants]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-metrics]`)),
	)
	if err != nil {
		t.Fatalf("compare variants: %v", err)
	}
	waitCompared(t, ctx, 4)
	shot(t, ctx, dir, "gossip-compare.png")

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}
