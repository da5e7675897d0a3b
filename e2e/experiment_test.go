package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserExperiment pastes a sweep's definition, counts and starts it,
// watches the page fill in, switches the plotted metric, finds the A
// against B scatter, and downloads the LaTeX pivot table.
func TestBrowserExperiment(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	def := `{"name": "browser sweep", "strategy": "eapm",
 "workload": {"preset": "zhang2022-case1", "grid": {"instance": {"from": 0, "to": 2}}},
 "variants": ["online", "average"],
 "grid": {"gamma": [1.1, 1.3]}}`
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/experiments/new?strategy=eapm"),
		chromedp.Click(chromedp.CSS(`[data-testid=paste] summary`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-experiment-form]`)),
		chromedp.SetValue(chromedp.CSS(`#ex-def`), def),
		chromedp.Click(chromedp.CSS(`[data-testid=paste-count]`)),
	)
	if err != nil {
		t.Fatalf("count: %v", err)
	}
	waitUntil(t, ctx, "the count did not come back", func() (bool, string) {
		counted, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.pathname === '/experiments' && document.readyState === 'complete'`))
		return err == nil && counted, fmt.Sprint(err)
	})
	count, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=experiment-count] strong').textContent`))
	if err != nil || count != "12" {
		t.Fatalf("the form counts %q runs (%v), want 3 instances × 2 γ × 2 variants = 12", count, err)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=paste-start]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=experiment-info]`)),
	)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	// The page follows the runs and fills in as they end.
	waitUntil(t, ctx, "the experiment page did not reach done", func() (bool, string) {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid=experiment-info] .badge.done') && document.readyState === 'complete'`))
		return err == nil && done, fmt.Sprint(err)
	})
	waitPainted(t, ctx, `[data-kind=plot] canvas`, "the metric against a swept parameter")
	waitPainted(t, ctx, `[data-kind=plot][data-title$="(box plot)"] canvas`, "the box plot per cell")
	waitPainted(t, ctx, `[data-kind=parallel] canvas`, "the parallel coordinates of γ and the instance")
	waitAllDrawn(t, ctx, "the experiment's page, swapped in as its runs ended")
	shot(t, ctx, dir, "experiment.png")

	// Switch the plotted metric: the page reloads with it.
	other, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const s = document.querySelector('#ex-metric');
		const o = Array.from(s.options).find(o => o.value !== s.value);
		s.value = o.value;
		s.dispatchEvent(new Event('change', {bubbles: true}));
		return o.value;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, ctx, fmt.Sprintf("switching the metric to %s", other), func() (bool, string) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.search.includes('metric=`+other+`') && document.readyState === 'complete' && !!document.querySelector('[data-kind=plot]')`))
		return err == nil && ok, fmt.Sprint(err)
	})
	waitAllDrawn(t, ctx, "the done experiment's page, its charts from /api/experiments/:id/charts")
	if src, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-chart-src]').dataset.chartSrc`)); err != nil || !strings.HasPrefix(src, "/api/experiments/") {
		t.Errorf("a done experiment's charts come from %q (%v), want its own endpoint", src, err)
	}
	titles, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-kind=plot]')).map(e => e.dataset.title)`))
	if err != nil {
		t.Fatal(err)
	}
	var metricPlot, scatter bool
	for _, tt := range titles {
		metricPlot = metricPlot || strings.HasPrefix(tt, other+" vs ")
		scatter = scatter || strings.Contains(tt, "average against online")
	}
	if !metricPlot || !scatter {
		t.Errorf("plots %q: want %s against a swept parameter and the A-against-B scatter", titles, other)
	}
	// The LaTeX pivot table downloads.
	tex, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector('[data-testid=pivot-tex]').href).then(r => r.text())`,
		chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(tex, `\toprule`) || !strings.Contains(tex, `\bottomrule`) {
		t.Errorf("the LaTeX pivot (%v):\n%s", err, tex)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}
