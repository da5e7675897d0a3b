package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserNoResultIsAFailure runs an experiment mixing a variant that
// stops (critical-works at a deadline of 0.01 × HEFT's makespan, far below
// the critical work: the paper's stop, no schedule) with two that
// schedule (heft, list), and finds the stopped runs counted failed for
// makespan in every view: the results API, the header, the pivot, the
// paired view, the pairwise table, the performance profile (drawn, with
// critical-works never within τ), the experiment's run list and /runs
// with the reason, and the compare page (issue 38 items 3 and 4). The page opens on makespan, the
// family's primary result (issue 42 item 6).
func TestBrowserNoResultIsAFailure(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	def := `{"name": "stops and schedules", "strategy": "critical",
 "workload": {"preset": "random", "grid": {"tasks": [12]}},
 "variants": ["critical-works", "heft", "list"],
 "grid": {"deadline_factor": [0.01, 0.02]}, "replicates": 2}`
	status, body := post(t, base+"/api/experiments", def)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	var e struct {
		ID     string
		Status string
		Done   int `json:"runs_done"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		getJSON(t, base+"/api/experiments/"+e.ID, &e)
		if e.Status != "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the experiment did not end: %+v", e)
		}
	}
	if e.Done != 12 {
		t.Fatalf("%d of 12 runs done: the stops end done, without a schedule", e.Done)
	}

	// The results API: critical-works has n 0 and failed 2 per cell.
	var res struct {
		Rows []struct {
			Variant, Metric string
			RN              int `json:"n"`
			RFailed         int `json:"failed"`
			RNoResult       int `json:"no_result"`
		}
	}
	getJSON(t, base+"/api/experiments/"+e.ID+"/results", &res)
	cells := 0
	for _, r := range res.Rows {
		if r.Metric != "makespan" {
			continue
		}
		want := [3]int{2, 0, 0}
		if r.Variant == "critical-works" {
			want = [3]int{0, 2, 2}
		}
		if got := [3]int{r.RN, r.RFailed, r.RNoResult}; got != want {
			t.Errorf("results API, %s makespan: n, failed, no_result = %v, want %v", r.Variant, got, want)
		}
		cells++
	}
	if cells != 6 {
		t.Errorf("results API: %d makespan rows, want 2 cells × 3 variants", cells)
	}

	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/experiments/"+e.ID+"?a=critical-works&b=heft"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=experiment-info]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	text := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
	if m := text(`document.querySelector('#ex-metric').value`); m != "makespan" {
		t.Errorf("the page opens on %q, want the family's primary result makespan", m)
	}
	if h := text(`(document.querySelector('[data-testid=experiment-no-result]') || {}).textContent || ''`); !strings.Contains(h, "4 runs ended done without makespan") {
		t.Errorf("header: %q, want the 4 stopped runs counted failed for makespan", h)
	}
	if h := text(`document.querySelector('[data-testid=experiment-metric-counts]').textContent`); !strings.Contains(h, "8 gave it, 4 failed") {
		t.Errorf("header counts for makespan: %q", h)
	}
	if n := text(`String(document.querySelectorAll('[data-testid=pivot] td.failed, table td.failed[data-failed]').length)`); n == "0" {
		t.Error("the pivot marks no failed cell")
	}
	if a := text(`document.querySelector('[data-testid=paired-a-failed]').textContent`); a != "4" {
		t.Errorf("paired view: critical-works failed on %s instances, want 4", a)
	}
	pw := text(`Array.from(document.querySelectorAll('[data-testid=pairwise-row]')).map(r => r.dataset.a + '/' + r.dataset.b + ':' + r.querySelector('[data-testid=pairwise-failed]').textContent).join(';')`)
	if !strings.Contains(pw, "critical-works/heft:4, 0, 0") || !strings.Contains(pw, "critical-works/list:4, 0, 0") {
		t.Errorf("pairwise table failures: %q", pw)
	}
	waitPainted(t, ctx, `[data-kind=plot][data-title="makespan: performance profile"] canvas`, "the performance profile of makespan")
	if c := text(`(document.querySelector('[data-testid=profile-caption]') || document.body).textContent`); strings.Contains(c, "not ranked") {
		t.Errorf("the profile says makespan is not ranked: %q", c)
	}
	reasons := text(`Array.from(document.querySelectorAll('[data-testid=no-result-run]')).map(li => li.textContent).join('\n')`)
	if strings.Count(reasons, "STOPPED") != 4 || !strings.Contains(reasons, "no makespan") {
		t.Errorf("run list: the stopped runs and their reasons:\n%s", reasons)
	}
	rows := text(`Array.from(document.querySelectorAll('[data-testid=run-no-result]')).length + ''`)
	if rows == "0" {
		t.Error("the run list's table marks no run done without makespan")
	}
	waitAllDrawn(t, ctx, "the experiment's page")
	shot(t, ctx, dir, "noresult-experiment.png")

	// The compare page of one instance's three runs (cell and replicate),
	// found in the run list: the stopped run's makespan reads "no result"
	// with the reason.
	ids := text(`(() => {
	  const rows = Array.from(document.querySelectorAll('[data-testid=run-row]'));
	  const key = r => r.children[3].textContent + '|' + r.children[4].textContent;
	  const stop = rows.find(r => r.children[2].textContent === 'critical-works');
	  return rows.filter(r => key(r) === key(stop)).map(r => r.querySelector('a').textContent).join(',');
	})()`)
	if strings.Count(ids, ",") != 2 {
		t.Fatalf("the runs of one instance: %q, want three", ids)
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/compare?runs="+ids),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=no-result]`)),
	)
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	if title := text(`document.querySelector('[data-testid=no-result]').title`); !strings.HasPrefix(title, "no makespan: STOPPED") {
		t.Errorf("compare: the stopped run's makespan says %q", title)
	}
	// The run list (/runs) marks the four stopped runs, with the reason.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/runs"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=run-no-result]`)),
	)
	if err != nil {
		t.Fatalf("/runs: %v", err)
	}
	marks := text(`Array.from(document.querySelectorAll('[data-testid=run-no-result]')).map(e => e.textContent).join('\n')`)
	if strings.Count(marks, "no result: no makespan") != 4 || strings.Count(marks, "STOPPED") != 4 {
		t.Errorf("/runs marks:\n%s\nwant the 4 stopped runs, with the reason", marks)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}
