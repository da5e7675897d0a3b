package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserAdversarySearch opens /adversary/new, starts a small search
// (list against heft on random graphs of 6 tasks, 12 candidates), follows
// its page as it refreshes until the search has ended, and sees a best
// score, A's and B's Gantt panels drawn, and no script error.
func TestBrowserAdversarySearch(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	ctx, consoleErrors := browser(t, exe, t.TempDir())
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/adversary/new"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=adversary-form]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-strategy]`), "critical"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-a]`), "list"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-b]`), "heft"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-metric]`), "makespan"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-preset]`), "random"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-preset_params]`), "tasks=6, layers=3"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-budget]`), "12"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-restarts]`), "3"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=adversary-seed]`), "2"),
		chromedp.Click(chromedp.CSS(`[data-testid=adversary-start]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=search-info]`)),
	)
	if err != nil {
		t.Fatalf("start the search from its form: %v", err)
	}
	var state string
	waitUntil(t, ctx, "the search's page refreshes until the search has ended", func() (bool, string) {
		var err error
		state, err = chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const s = document.querySelector('[data-testid=search]');
			return s ? s.getAttribute('data-status') : 'loading'; })()`))
		return err == nil && state != "running" && state != "loading", fmt.Sprint(state, " ", err)
	})
	if state != "done" {
		t.Fatalf("the search ended %s", state)
	}
	best, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=search-best]').getAttribute('data-best')`))
	if err != nil || best == "" {
		t.Fatalf("no best score on the ended search's page: %q, %v", best, err)
	}
	panels, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid=gantt-panel-run]').length`))
	if err != nil || panels != 2 {
		t.Errorf("%d Gantt panels (%v), want A's and B's", panels, err)
	}
	waitAllDrawn(t, ctx, "the search's page")
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("script errors: %v", errs)
	}
}
