package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLabelsAndRunFilters labels a run from its page (a name, two
// tags, markdown notes), follows a tag to the runs that carry it, then
// filters /runs by a metric range and sorts by it, as a user would.
func TestBrowserLabelsAndRunFilters(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	status, b := post(t, base+"/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":1},"seed":1}`)
	if status != 201 {
		t.Fatalf("generate: %d %s", status, b)
	}
	var ws []struct{ ID string }
	getJSON(t, base+"/api/workloads", &ws)
	if len(ws) == 0 {
		t.Fatal("no workload")
	}
	var ids []string
	for _, v := range []string{"online", "average", "greedy-min-energy"} {
		_, b := post(t, base+"/api/runs", fmt.Sprintf(`{"workload_id":%q,"variant":%q}`, ws[0].ID, v))
		id := between(string(b), `"id":"`, `"`)
		if id == "" {
			t.Fatalf("start %s: %s", v, b)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		waitDone(t, base, id)
	}

	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/runs/"+ids[1]),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=labels]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=labels-edit] summary`)),
		chromedp.SetValue(chromedp.CSS(`#lb-name`), "baseline for the paper"),
		chromedp.SetValue(chromedp.CSS(`#lb-tags`), "baseline, fig3"),
		chromedp.SetValue(chromedp.CSS(`#lb-notes`), "Average **mapping**, see [the seed](https://example.org/seed).\n\n<script>alert(1)</script>"),
		chromedp.Click(chromedp.CSS(`[data-testid=labels-save]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=labels-notes] strong`)),
	)
	if err != nil {
		t.Fatalf("labels: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('[data-testid=labels-name]').textContent.trim(),
		Array.from(document.querySelectorAll('[data-testid=labels-tags] [data-testid=tag]')).map(a => a.textContent).join(' '),
		String(document.querySelectorAll('[data-testid=labels-notes] script').length)]`))
	if err != nil || len(got) != 3 || got[0] != "baseline for the paper" || got[1] != "baseline fig3" || got[2] != "0" {
		t.Fatalf("the labels panel shows %q (%v): want the name, both tags, and no script element", got, err)
	}
	shot(t, ctx, dir, "run-labels.png")

	// The tag links the runs that carry it: this one only.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=labels-tags] a[href*=fig3]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=runs-filter]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid=runs-table] tbody tr')).map(r => r.textContent)`))
	if err != nil || len(rows) != 1 || !strings.Contains(rows[0], ids[1]) {
		t.Fatalf("runs tagged fig3: %q (%v), want run %s only", rows, err, ids[1])
	}

	// Sort all three by the objective, highest first, through the form.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/runs"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=runs-filter]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=runs-filter] input[name=metric]`), "objective"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=runs-filter] select[name=sort]`), "metric-desc"),
		chromedp.Click(chromedp.CSS(`[data-testid=runs-filter-apply]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The list before the click had a table too: wait for the sorted page
	// (an evaluation during the navigation fails; try again).
	waitUntil(t, ctx, "the sorted list loads", func() (bool, string) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.search.includes('sort=metric-desc') && document.readyState === 'complete' && !!document.querySelector('[data-testid=runs-table]')`))
		return err == nil && ok, fmt.Sprint(err)
	})
	var objective []float64
	for _, id := range ids {
		var rep struct {
			Metrics []struct {
				Name  string
				Value float64
			}
		}
		getJSON(t, base+"/api/runs/"+id+"/report", &rep)
		for _, m := range rep.Metrics {
			if m.Name == "objective" {
				objective = append(objective, m.Value)
			}
		}
	}
	// The click submits the filter form: WaitVisible may have seen the
	// table of the page before, so wait for the sorted page's rows.
	var order []string
	waitUntil(t, ctx, "the sorted list's 3 rows", func() (bool, string) {
		order, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`document.readyState === 'complete' && location.search.includes('sort=metric-desc') ? Array.from(document.querySelectorAll('[data-testid=runs-table] tbody tr')).map(r => r.textContent) : []`))
		return err == nil && len(order) == 3, fmt.Sprint(order, err)
	})
	if err != nil || len(order) != 3 {
		t.Fatalf("sorted list %q (%v)", order, err)
	}
	best := 0
	for i := range objective {
		if objective[i] > objective[best] {
			best = i
		}
	}
	if !strings.Contains(order[0], ids[best]) {
		t.Errorf("highest objective first: the first row is %q, want run %s (objectives %v)", order[0], ids[best], objective)
	}
	shot(t, ctx, dir, "runs-sorted.png")
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}

// between returns the text of s between the first before and the next after.
func between(s, before, after string) string {
	_, rest, ok := strings.Cut(s, before)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, after)
	return v
}
