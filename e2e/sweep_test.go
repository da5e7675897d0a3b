package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSweepFormDefinesAndWatchesAnExperiment defines a sweep
// through the form alone (the family, two variants ticked, a list of γ, a
// range of instances, replicates), reads the run count and the JSON the
// fields make before starting, downloads the definition, starts it with
// the runner held, sees the page without results, lets the runs go and
// watches the chart appear without a reload, then downloads a chart's SVG
// and the LaTeX
// pivot table.
func TestBrowserSweepFormDefinesAndWatchesAnExperiment(t *testing.T) {
	exe := chromium(t)
	base, start := serveHeld(t)
	dir := t.TempDir()
	ctx, consoleErrors := browser(t, exe, dir)

	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/experiments/new?strategy=dcop"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=sweep-family]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=sweep-family]`), "eapm"),
	)
	if err != nil {
		t.Fatalf("choose the family: %v", err)
	}
	waitUntil(t, ctx, "the form did not switch to eapm", func() (bool, string) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.search.includes('strategy=eapm') && document.readyState === 'complete' && !!document.querySelector('[data-testid=sweep-form] input[name="strategy"][value=eapm]')`))
		return err == nil && ok, fmt.Sprint(err)
	})
	instance := `input[name="wgrid.zhang2022-case1.instance"]`
	fill, cancel := context.WithCancel(ctx) // bounded by the test's own deadline (testContext)
	defer cancel()
	err = chromedp.Do(fill,
		chromedp.Clear(chromedp.CSS(`#sw-name`)),
		chromedp.SendKeys(chromedp.CSS(`#sw-name`), "form sweep"),
		chromedp.Click(chromedp.CSS(`input[name=workload_kind][value=preset]`)),
		chromedp.SetValue(chromedp.CSS(`#sw-preset`), "zhang2022-case1"),
	)
	if err == nil {
		_, err = chromedp.Run(fill, chromedp.Evaluate[bool](`document.querySelector('#sw-preset').dispatchEvent(new Event('change', {bubbles: true}))`))
	}
	if err != nil {
		t.Fatalf("choose the preset: %v", err)
	}
	err = chromedp.Do(fill,
		chromedp.SendKeys(chromedp.CSS(instance), "0..2"),
		chromedp.Click(chromedp.CSS(`input[name=variants][value=online]`)),
		chromedp.Click(chromedp.CSS(`input[name=variants][value=average]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="grid.gamma"]`), "1.1, 1.3"),
		chromedp.Clear(chromedp.CSS(`#sw-replicates`)),
		chromedp.SendKeys(chromedp.CSS(`#sw-replicates`), "2"),
	)
	if err != nil {
		t.Fatalf("fill in the form: %v", err)
	}
	// The count comes from the server (POST /experiments/preview) as the
	// user types: wait for the one of the last field's change.
	waitUntil(t, ctx, "the form did not count 3 instances × 2 γ × 2 variants × 2 replicates = 24 runs before starting", func() (bool, string) {
		count, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-testid=experiment-count] strong') || {}).textContent || document.querySelector('[data-testid=experiment-count]').textContent`))
		return err == nil && count == "24", fmt.Sprintf("%q %v", count, err)
	})
	shot(t, ctx, dir, "sweep-form.png")
	// The definition the fields make, downloaded from the JSON view.
	file, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const href = document.querySelector('[data-testid=sweep-json-download]').href;
		const prefix = 'data:application/json;charset=utf-8,';
		return href.startsWith(prefix) ? decodeURIComponent(href.slice(prefix.length)) : 'not a JSON file: ' + href.slice(0, 40);
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	var def struct {
		Name     string `json:"name"`
		Strategy string `json:"strategy"`
		Workload struct {
			Preset string                     `json:"preset"`
			Grid   map[string]json.RawMessage `json:"grid"`
		} `json:"workload"`
		Variants   []string             `json:"variants"`
		Grid       map[string][]float64 `json:"grid"`
		Replicates int                  `json:"replicates"`
	}
	if err := json.Unmarshal([]byte(file), &def); err != nil {
		t.Fatalf("the downloaded definition is not JSON (%v):\n%s", err, file)
	}
	if def.Name != "form sweep" || def.Strategy != "eapm" || def.Workload.Preset != "zhang2022-case1" ||
		strings.Join(def.Variants, ",") != "online,average" || len(def.Grid["gamma"]) != 2 || def.Grid["gamma"][1] != 1.3 ||
		def.Replicates != 2 || compact(def.Workload.Grid["instance"]) != `{"from":0,"to":2}` {
		t.Errorf("downloaded definition:\n%s", file)
	}
	name, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=sweep-json-download]').download`))
	if name != "form-sweep.json" {
		t.Errorf("the definition downloads as %q, want form-sweep.json", name)
	}

	// Start it: the runner is held, so the page first shows no result.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=start-experiment]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=experiment-info]`)),
	)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	plots, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.sweepPageMark = 42; document.querySelectorAll('[data-kind=plot]').length`))
	if err != nil || plots != 0 {
		t.Fatalf("%d plots (%v) before any run ended", plots, err)
	}
	start()
	waitUntil(t, ctx, "the page did not fill in", func() (bool, string) {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid=experiment-info] .badge.done') && !!document.querySelector('[data-kind=plot] canvas')`))
		return err == nil && done, fmt.Sprint(err)
	})
	waitPainted(t, ctx, `[data-kind=plot] canvas`, "the metric against a swept parameter, swapped in")
	mark, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.sweepPageMark || 0`))
	if err != nil || mark != 42 {
		t.Fatalf("the page was reloaded (mark %d, %v): it should fill in without one", mark, err)
	}
	metrics, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#ex-metric option').length`))
	if err != nil || metrics < 2 {
		t.Errorf("%d metric choices (%v) once the runs ended", metrics, err)
	}
	progress, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=experiment-progress]').textContent`))
	if !strings.HasPrefix(progress, "24 done") {
		t.Errorf("progress reads %q, want 24 done", progress)
	}
	// The SVG of the chart swapped in, downloaded by its button: the file
	// handed to the browser is vector (paths, no embedded bitmap), named
	// after the chart.
	svgJS := `new Promise(resolve => {
	  const plot = document.querySelector('[data-kind=plot][data-testid=chart]');
	  const bar = plot && plot.nextElementSibling;
	  const button = bar && bar.querySelector('[data-testid=chart-svg]');
	  if (!button) { resolve(JSON.stringify({error: 'no SVG button under the plot'})); return; }
	  const create = URL.createObjectURL;
	  URL.createObjectURL = blob => {
	    URL.createObjectURL = create;
	    blob.text().then(text => setTimeout(() => resolve(JSON.stringify({type: blob.type, text: text,
	      name: (document.querySelector('a[download$=".svg"]') || {}).download || ''})), 0));
	    return create(blob);
	  };
	  // No timer of its own: the promise waits for the download, bounded
	  // by the test's deadline (a 5 s timer failed at load 38).
	  button.click();
	})`
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](svgJS, chromedp.EvalAwaitPromise))
	var svg struct{ Type, Text, Name, Error string }
	if err != nil || json.Unmarshal([]byte(raw), &svg) != nil || svg.Error != "" {
		t.Errorf("the chart's SVG download (%v): %s", err, raw)
	} else if svg.Type != "image/svg+xml" || !strings.HasPrefix(svg.Text, "<svg") || !strings.Contains(svg.Text, "<path") ||
		strings.Contains(svg.Text, "<image") || !strings.HasSuffix(svg.Name, ".svg") {
		t.Errorf("the chart's SVG download is not a vector file: %s %q %.200s", svg.Type, svg.Name, svg.Text)
	}
	tex, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector('[data-testid=pivot-tex]').href).then(r => r.text())`,
		chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(tex, `\toprule`) || !strings.Contains(tex, `\bottomrule`) || !strings.Contains(tex, "online") {
		t.Errorf("the LaTeX pivot (%v):\n%s", err, tex)
	}
	shot(t, ctx, dir, "sweep.png")
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}

func compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
