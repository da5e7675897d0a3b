package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDCOP walks the DCOP family as a user would: a bad upload is
// refused with the field named and nothing stored; a generated namekata2008
// workload shows its constraint graph and exports to pyDCOP and FRODO; a
// dpop-wd run draws the schedule and the pseudo-tree and keeps the width
// within the limit the user typed.
func TestBrowserDCOP(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	// 1. A job on a resource that does not exist.
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"horizon":10,"resources":["R1"],"jobs":[{"id":"J1","resources":["R9"],"duration":2}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Navigate(base+"/workloads?strategy=dcop"),
		chromedp.SetUploadFiles(chromedp.CSS(`#wl-file`), []string{bad}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
	)
	if err != nil {
		t.Fatalf("bad upload: %v", err)
	}
	msg := formError(t, ctx, "the bad upload's error")
	if !strings.Contains(msg, "R9") {
		t.Errorf("the error %q does not name the unknown resource R9", msg)
	}
	var list []struct {
		ID string `json:"id"`
	}
	getJSON(t, base+"/api/workloads", &list)
	if len(list) != 0 {
		t.Fatalf("a refused upload left %d workloads stored", len(list))
	}

	// 2. Generate from the preset; the preview draws the constraint graph.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=dcop"),
		chromedp.SetValue(chromedp.CSS(`#gen-namekata2008-jobs`), "20"),
		chromedp.Submit(chromedp.CSS(`[data-testid=preset-namekata2008]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-table][data-title="Resources × jobs"]`)),
	)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	waitPainted(t, ctx, `[data-kind=graph] canvas`, "constraint graph")
	for name, want := range map[string]string{"pydcop": "variables:", "frodo": "<instance"} {
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=export-`+name+`]').href`))
		if err != nil {
			t.Fatalf("export-%s button: %v", name, err)
		}
		resp, err := http.Get(href)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("export %s: %d, body lacks %q", name, resp.StatusCode, want)
		}
	}

	// 3. Run dpop-wd with width_limit 3.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
		chooseVariant("dpop-wd"),
		chromedp.SetValue(chromedp.CSS(`#nr-width_limit`), "3"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-table][data-title="Before and after"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-table][data-title="Pseudo-tree nodes"]`)),
	)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	metric := func(name string) int {
		t.Helper()
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=metric][data-name=`+name+`] .value').firstChild.textContent`))
		if err != nil {
			t.Fatalf("metric %s: %v", name, err)
		}
		v, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			t.Fatalf("metric %s shows %q", name, text)
		}
		return v
	}
	if before, after := metric("width_before"), metric("width_after"); before <= 3 || after > 3 || after < 1 {
		t.Errorf("width before %d, after %d: want before > 3 (so WD has work) and after in 1..3", before, after)
	}
	if metric("back_edges_deleted") == 0 {
		t.Error("WD deleted no back edge")
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "schedule Gantt")
	waitPainted(t, ctx, `[data-kind=graph] canvas`, "pseudo-tree")
	shot(t, ctx, dir, "dcop-run.png")

	// 4. One click runs the other variants with the same parameters; the
	// compare page fills in by itself as they finish.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=all-variants]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-metrics]`)),
	)
	if err != nil {
		t.Fatalf("compare variants: %v", err)
	}
	waitCompared(t, ctx, 6) // metric + dpop, dpop-wd, dpop-split, dpop-split-wd, exact
	shot(t, ctx, dir, "dcop-compare.png")

	// 5. exact is centralized: messages, bytes and cycles are not
	// meaningful for it. Its cells read n/a with the reason, none is best,
	// and the makespan (every variant's) is shown for all five.
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[[][4]string](`(() => {
	  const heads = Array.from(document.querySelectorAll('[data-testid=compare-metrics] thead th a')).map(a => a.textContent.split(' · ').pop());
	  const out = [];
	  for (const name of ['messages', 'total_bytes', 'message_cycles', 'makespan']) {
	    const tr = document.querySelector('[data-testid=compare-metrics] tr[data-metric=' + name + ']');
	    Array.from(tr.cells).slice(1).forEach((td, i) => out.push([name, heads[i], td.textContent.trim(), (td.title || '') + (td.classList.contains('best') ? ' BEST' : '')]));
	  }
	  return out;
	})()`))
	if err != nil {
		t.Fatalf("compare cells: %v", err)
	}
	if len(cells) != 4*5 {
		t.Fatalf("%d cells of messages, total_bytes, message_cycles and makespan, want 4 × 5", len(cells))
	}
	for _, c := range cells {
		name, variant, text, title := c[0], c[1], c[2], c[3]
		na := name != "makespan" && variant == "exact"
		switch {
		case na && (text != "n/a" || !strings.Contains(title, "not meaningful for exact") || strings.Contains(title, "BEST")):
			t.Errorf("%s of exact: %q (title %q), want n/a, not meaningful for exact, not best", name, text, title)
		case !na && text == "n/a":
			t.Errorf("%s of %s shows n/a", name, variant)
		case name != "makespan" && strings.Contains(title, "BEST"):
			t.Errorf("%s of %s is marked best: a cost is not ranked", name, variant)
		}
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid=na-legend]').length`)); err != nil || n != 1 {
		t.Errorf("the page does not say what n/a means (%d, %v)", n, err)
	}

	// 6. The exact run's own page dims those metrics and says why.
	exact, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('[data-testid=compare-metrics] thead th a')).find(a => a.textContent.endsWith(' · exact')).getAttribute('href')`))
	if err != nil {
		t.Fatalf("the exact run's link: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+exact), chromedp.WaitVisible(chromedp.CSS(`[data-testid=metrics]`))); err != nil {
		t.Fatalf("exact's run page: %v", err)
	}
	dimmed, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid=metric][data-na]')).map(d => d.dataset.name)`))
	if err != nil {
		t.Fatal(err)
	}
	if d := strings.Join(dimmed, ","); !strings.Contains(d, "messages") || !strings.Contains(d, "total_bytes") || strings.Contains(d, "makespan") {
		t.Errorf("exact's run page dims %q, want messages and total_bytes, not makespan", d)
	}
	shot(t, ctx, dir, "after-dcop-exact-run.png")

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}
