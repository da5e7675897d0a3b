package e2e

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedlab/runner/runnertest"
	"schedlab/solvers"
	"schedlab/solvers/registry"
)

// TestBrowserLublinTraceReadsPlainly uploads a trace made like the
// Lublin-Feitelson model logs (testdata/lublin-like.swf: MaxNodes but no
// MaxProcs or Computer, -1 requested processors in every record) and
// reads what a new user read wrongly (issue 42): the workload page's
// notes are "how to read this workload", its Trace table says what the
// header does not give instead of an empty cell and a 0; a batch run's
// notes say which field the job sizes came from, and, open, do not say
// their first sentence twice; its Gantt's CSV names its columns.
func TestBrowserLublinTraceReadsPlainly(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	ctx, consoleErrors := browser(t, exe, t.TempDir())
	trace, err := filepath.Abs("testdata/lublin-like.swf")
	if err != nil {
		t.Fatal(err)
	}

	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=cyclic"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.SetValue(chromedp.CSS(`#wl-name`), "lublin-like"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[name=swf]`), []string{trace}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
	)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	heading, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[data-testid=report-notes] summary strong`)))
	if err != nil || heading != "How to read this workload" {
		t.Errorf("the workload page's notes are headed %q (%v), want %q", heading, err, "How to read this workload")
	}
	var cells map[string]string
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(Object.fromEntries(Array.from(
		document.querySelectorAll('[data-testid=report-table][data-title=Trace] tbody tr')).map(tr => [tr.cells[0].innerText, tr.cells[1].innerText])))`))
	if err != nil || json.Unmarshal([]byte(s), &cells) != nil {
		t.Fatalf("Trace table: %v %s", err, s)
	}
	for _, f := range []string{"Computer", "MaxProcs"} {
		if cells[f] != "not in the header" {
			t.Errorf("Trace table: %s is %q, want %q (the header has none)", f, cells[f], "not in the header")
		}
	}
	if cells["MaxNodes"] != "256" {
		t.Errorf("Trace table: MaxNodes is %q, want 256", cells["MaxNodes"])
	}
	for f, v := range cells {
		if strings.TrimSpace(v) == "" || v == "0" {
			t.Errorf("Trace table: %s reads %q, like a value that failed to parse", f, v)
		}
	}
	summary, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[data-testid=workload-info]`)))
	if strings.Contains(summary, "SWF trace :") {
		t.Errorf("the summary names an empty computer: %q", summary)
	}

	// A batch run (EASY, the default policy) on it.
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	workload := loc[strings.LastIndex(loc, "/")+1:]
	code, b := post(t, base+"/api/runs", `{"workload_id":"`+workload+`","strategy":"cyclic","variant":"batch"}`)
	var run struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &run); code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, b)
	}
	waitDone(t, base, run.ID)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/runs/"+run.ID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-notes]`))); err != nil {
		t.Fatal(err)
	}
	// Closed, the summary starts the first note; open, the note is read
	// once, in full.
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelectorAll('[data-testid=report-note]')[0].textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first, "Machine: 256 processors") {
		t.Fatalf("the run's first note is %q, want the machine's", first)
	}
	start := first[:len("Machine: 256 processors")]
	closed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=report-notes]').innerText`))
	if err != nil || strings.Count(closed, start) != 1 {
		t.Errorf("closed, the notes read %q (%v): want %q once, in the summary", closed, err, start)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-testid=report-notes] summary`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-note]`))); err != nil {
		t.Fatal(err)
	}
	open, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=report-notes]').innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(open, start); n != 1 {
		t.Errorf("open, the notes say %q %d times: %q", start, n, open)
	}
	if !strings.Contains(open, "Job size from the allocated processors field (SWF field 5): the requested processors field (8) is -1 in every record.") {
		t.Errorf("the notes do not say which field the job sizes came from: %q", open)
	}
	if strings.Contains(open, "fell back to the other field") {
		t.Errorf("the notes still say a field fell back without naming it: %q", open)
	}

	// The Gantt's CSV names its columns, in the chart's time unit.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`[data-kind=gantt]`))); err != nil {
		t.Fatal(err)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "Gantt")
	csv, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.schedlabChart.csv(document.querySelector('[data-kind=gantt]'))`))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) < 3 {
		t.Fatalf("Gantt CSV: %q", csv)
	}
	head := strings.Split(lines[1], ",")
	want := []string{"lane", "job", "start (", "end (", "length (", "kind", "group"}
	if len(head) != len(want) {
		t.Fatalf("Gantt CSV columns %q, want %q", head, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(head[i], w) {
			t.Errorf("Gantt CSV column %d is %q, want %q…", i+1, head[i], w)
		}
	}
	unit, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=time-frame]').dataset.unit`))
	if unit == "" || !strings.HasPrefix(head[2], "start ("+unit+" since ") {
		t.Errorf("Gantt CSV start column %q is not in the chart's unit %q with its origin", head[2], unit)
	}
	row := strings.Split(lines[2], ",")
	if len(row) != len(want) || row[0] == "" || row[5] != "job" {
		t.Errorf("Gantt CSV row %q: want a lane's name, the job, its times, kind job", lines[2])
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestBrowserRunPageSaysWhenAQueuedRunStarted opens a run's page while
// the run is queued and watches it start: once the page says "running",
// it says when the run started, as the API does (issue 42: the badge
// moved to "running" and the bar to 94 % under "started —").
func TestBrowserRunPageSaysWhenAQueuedRunStarted(t *testing.T) {
	exe := chromium(t)
	test := runnertest.New("test")
	base, start := serveHeldWith(t, append([]*solvers.Strategy{test.Strategy}, registry.All()...))
	ctx, consoleErrors := browser(t, exe, t.TempDir())

	code, b := post(t, base+"/api/workloads/generate", `{"strategy":"test","preset":"tiny","seed":1}`)
	var w struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &w); code != http.StatusCreated {
		t.Fatalf("generate: %d %s", code, b)
	}
	// The wait variant runs until canceled (at most a minute).
	code, b = post(t, base+"/api/runs", `{"workload_id":"`+w.ID+`","strategy":"test","variant":"wait","params":{"wait_ms":"60000"}}`)
	var run struct {
		ID        string  `json:"id"`
		Status    string  `json:"status"`
		StartedAt *string `json:"started_at"`
	}
	if json.Unmarshal(b, &run); code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, b)
	}
	t.Cleanup(func() { post(t, base+"/api/runs/"+run.ID+"/cancel", ``) })
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/runs/"+run.ID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=run-info]`))); err != nil {
		t.Fatal(err)
	}
	// The run's start is the value beside the term "started".
	const startedJS = `(() => { const dt = Array.from(document.querySelectorAll('[data-testid=run-info] dt')).find(e => e.textContent === 'started');
	  return dt ? dt.nextElementSibling.textContent : null; })()`
	status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[data-testid=run-status]`)))
	started, _ := chromedp.Run(ctx, chromedp.Evaluate[string](startedJS))
	if status != "queued" || started != "—" {
		t.Fatalf("before the runner starts the page says %q, started %q: want queued, —", status, started)
	}
	start()
	// Wait for the page to say running (its badge, moved by the page's
	// script or drawn by the server), then read its start.
	// The page may reload meanwhile: a read that fails is tried again.
	const read = `(() => { const s = document.querySelector('[data-testid=run-status]');
	  return document.readyState === 'complete' && s && s.textContent === 'running' ? ` + startedJS + ` : ''; })()`
	started = ""
	for deadline := time.Now().Add(30 * time.Second); started == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the page never says running")
		}
		started, _ = chromedp.Run(ctx, chromedp.Evaluate[string](read))
	}
	getJSON(t, base+"/api/runs/"+run.ID, &run)
	if run.Status != "running" || run.StartedAt == nil {
		t.Fatalf("the API says %s, started_at %v: want a running run with its start", run.Status, run.StartedAt)
	}
	if started == "—" || started == "" {
		t.Errorf("the page says running but started %q while the API has started_at %s", started, *run.StartedAt)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
