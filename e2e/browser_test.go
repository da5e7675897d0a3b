package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"schedlab/handlers"
	"schedlab/runner"
	"schedlab/runner/runnertest"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// findChromium returns the path of Debian's chromium, or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// e2eParallel is how many browser tests run at once at least (each a tab
// of the shared browser and a server of its own: some 150 MB).
const e2eParallel = 6

// shared is the one headless Chromium every test of the package uses, in a
// browser context of its own (a tab with its own cookies), so the tests
// start no browser each and can run in parallel. TestMain starts it.
var shared struct {
	exe string
	ctx context.Context // a context with the browser started
}

// TestMain starts the shared browser. Without chromium it says so on a
// line that `go test ./...` shows without -v (the package reports "[no
// tests to run]"), or fails under SCHEDLAB_REQUIRE_BROWSER, which .ci/run
// sets.
func TestMain(m *testing.M) {
	flag.Parse()
	// The browser tests mostly wait (for a page, a run, a chart), so more
	// of them at once than go test's default of GOMAXPROCS finish the
	// package sooner, on a quiet machine and more so on a loaded one
	// (issue 41: at GOMAXPROCS 2 and load 38 the package took 12 min 47 s,
	// past go test's 10 min). An explicit -parallel is kept.
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet && runtime.GOMAXPROCS(0) < e2eParallel {
		flag.Set("test.parallel", strconv.Itoa(e2eParallel))
	}
	if testing.Short() {
		// The browser tests are the slow tier (minutes): go test -short
		// (the quick tier, .ci/run's first step) leaves them out, and
		// says so; go test ./... runs them.
		fmt.Fprintln(os.Stderr, "e2e: the browser tests are the slow tier, not run under -short")
		flag.Set("test.run", "^$")
		os.Exit(m.Run())
	}
	shared.exe = findChromium()
	if shared.exe == "" {
		if os.Getenv("SCHEDLAB_REQUIRE_BROWSER") != "" {
			fmt.Fprintln(os.Stderr, "e2e: chromium is not installed but SCHEDLAB_REQUIRE_BROWSER is set: apt-get install chromium")
			os.Exit(1)
		}
		// Only TestBrowserEnvironment runs (it reads the environment inside a
		// test, so go test's cache keys on it); the line go test prints for
		// the package then ends in "[no tests to run]", which a person sees
		// without -v.
		flag.Set("test.run", "^TestBrowserEnvironment$")
		code := m.Run()
		fmt.Println("\ntesting: warning: no tests to run")
		fmt.Fprintln(os.Stderr, "e2e: chromium is not installed (apt-get install chromium; .ci/run does): the browser tests did not run")
		os.Exit(code)
	}
	dir, err := os.MkdirTemp("", "schedlab-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(shared.exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1400, 1000),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		fmt.Fprintln(os.Stderr, "e2e: starting chromium:", err)
		os.Exit(1)
	}
	shared.ctx = bctx
	code := m.Run()
	cancelB()
	cancelA()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestBrowserEnvironment reads, inside a test, what decides whether the
// browser tests run (PATH, through the look-up, and
// SCHEDLAB_REQUIRE_BROWSER), so that go test's cache of this package keys
// on them: a result cached without chromium is never reused once it is
// installed or required.
func TestBrowserEnvironment(t *testing.T) {
	required := os.Getenv("SCHEDLAB_REQUIRE_BROWSER") != ""
	found := findChromium()
	switch {
	case found == "" && required:
		t.Fatal("chromium is not installed but SCHEDLAB_REQUIRE_BROWSER is set: apt-get install chromium")
	case found == "":
		t.Skip("chromium is not installed (apt-get install chromium; .ci/run does): the browser tests did not run")
	case found != shared.exe:
		t.Fatalf("chromium found at %s now, at %q when the package started", found, shared.exe)
	}
}

// chromium marks a browser test parallel and returns the browser's path.
func chromium(t *testing.T) string {
	t.Parallel()
	return shared.exe
}

// serve starts the whole application on a loopback port.
func serve(t *testing.T) string {
	t.Helper()
	base, start := serveHeld(t)
	start()
	return base
}

// serveHeld is serve with the runner held: runs are queued but none is
// executed until start is called (once; the cleanup calls it otherwise).
func serveHeld(t *testing.T) (base string, start func()) {
	t.Helper()
	return serveHeldWith(t, registry.All())
}

// serveHeldWith is serveHeld with the strategies given built (a test
// double beside the families, say).
func serveHeldWith(t *testing.T, strategies []*solvers.Strategy) (base string, start func()) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	rn := runner.New(st, runnertest.Lookup(strategies...), runner.Options{Workers: 2})
	var once sync.Once
	start = func() {
		once.Do(func() {
			if err := rn.Start(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	handlers.New(st, rn, strategies, handlers.Options{}).Routes(e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e}
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		start()
		sctx, c := context.WithTimeout(context.Background(), 5*time.Second)
		defer c()
		rn.Shutdown(sctx)
		cancel()
		st.Close()
	})
	return "http://" + ln.Addr().String(), start
}

// pixelsJS counts painted (non-white, non-transparent) pixels in the first
// canvas of the chart matching sel.
const pixelsJS = `(() => {
  const c = document.querySelector(%q);
  if (!c) { return -1; }
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i+3] > 0 && !(d[i] > 245 && d[i+1] > 245 && d[i+2] > 245)) { n++; }
  }
  return n;
})()`

func TestBrowserUploadRunReportCompare(t *testing.T) {
	exe := chromium(t)
	base := serve(t)
	dir := t.TempDir()

	// A small EAPM workload as the three-CSV file set a user would upload.
	files := map[string]string{
		"etc":   "etc.csv",
		"apc":   "apc.csv",
		"users": "users.csv",
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	paths := map[string]string{
		"etc":   write(files["etc"], "10,20,40\n30,15,25\n5,8,12\n"),
		"apc":   write(files["apc"], "100,60,30\n80,90,50\n120,70,40\n"),
		"users": write(files["users"], "type,tasks\n0,50\n2,120\n1,80\n0,30\n2,60\n"),
	}

	ctx, consoleErrors := browser(t, exe, dir)

	// 1. Upload the file set; the workload page shows the preview heat maps.
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/workloads?strategy=eapm"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.SetValue(chromedp.CSS(`#wl-name`), "browser test"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[name=etc]`), []string{paths["etc"]}),
		chromedp.SetUploadFiles(chromedp.CSS(`input[name=apc]`), []string{paths["apc"]}),
		chromedp.SetUploadFiles(chromedp.CSS(`input[name=users]`), []string{paths["users"]}),
		chromedp.Submit(chromedp.CSS(`[data-testid=upload-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=workload-info]`)),
	)
	workloadURL, _ := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	if !strings.Contains(workloadURL, "/workloads/") {
		t.Fatalf("after upload the browser is at %s, want a workload page", workloadURL)
	}
	waitPainted(t, ctx, `[data-kind=heatmap] canvas`, "ETC heat map")

	// 2. Start a run from the workload and wait for its report.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=run-this]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=new-run-form]`)),
		chooseVariant("online"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-run]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=report]`)),
	)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	runURL, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[data-testid=run-status]`)))
	if err != nil {
		t.Fatal(err)
	}
	if status != "done" {
		t.Fatalf("run status %q, want done", status)
	}
	waitPainted(t, ctx, `[data-kind=gantt] canvas`, "Gantt")
	waitPainted(t, ctx, `[data-kind=plot] canvas`, "plot")
	shot(t, ctx, dir, "run.png")

	// 3. A second run through the API, then both side by side.
	first := runURL[strings.LastIndex(runURL, "/")+1:]
	second := startRun(t, base, first, "greedy-min-energy")
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/compare?runs="+first+","+second),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-metrics]`)),
	)
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	best, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid=best]').length`))
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	if best == 0 {
		t.Error("compare page marks no best value")
	}
	waitPainted(t, ctx, `[data-kind=plot] canvas`, "overlaid plot")
	shot(t, ctx, dir, "compare.png")

	// 4. A long run (the seed experiment): the progress bar moves while the
	// page stays put, then the report appears by itself.
	code, body := post(t, base+"/api/reproduce/eapm", `{}`)
	if code != http.StatusCreated {
		t.Fatalf("reproduce: %d %s", code, body)
	}
	var repro struct {
		ID string `json:"id"`
	}
	json.Unmarshal(body, &repro)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/runs/"+repro.ID)); err != nil {
		t.Fatal(err)
	}
	moved := false
	waitUntil(t, ctx, "the seed experiment's report appears", func() (bool, string) {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			if (document.querySelector('[data-testid=report]')) { return 'report'; }
			const bar = document.querySelector('.progress > div');
			return bar ? bar.style.width : 'none';
		})()`))
		if err != nil {
			return false, err.Error() // the page is reloading
		}
		if state != "" && state != "0%" && state != "none" && state != "report" {
			moved = true
		}
		return state == "report", state
	})
	if !moved {
		t.Error("the progress bar never moved while the experiment ran")
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid=report-table][data-title="Table 1"]`))); err != nil {
		t.Fatalf("the report did not appear after the run: %v", err)
	}

	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors in the console: %q", errs)
	}
}

// browser opens a tab of the shared Chromium in a browser context of its
// own (cookies and storage apart from the other tests); consoleErrors
// returns the JavaScript exceptions and console errors seen so far.
func browser(t *testing.T, _, _ string) (ctx context.Context, consoleErrors func() []string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(shared.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	ctx, cancelT := testContext(t, ctx)
	t.Cleanup(cancelT)

	var mu sync.Mutex
	var seen []string
	listenErr := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *cdpruntime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			seen = append(seen, msg)
		case *cdpruntime.EventConsoleAPICalled:
			if ev.Type == cdpruntime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				seen = append(seen, strings.Join(parts, " "))
			}
		}
	})
	if listenErr != nil {
		t.Fatalf("start chromium: %v", listenErr)
	}
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// reportMargin is what a test keeps of go test's -timeout to fail with its
// own message (what it waited for) instead of go test's panic.
const reportMargin = 20 * time.Second

// testContext bounds a browser test by go test's own deadline (-timeout,
// 10 min by default, less reportMargin), not by a duration of its own: on
// a loaded machine every step takes longer, and a fixed budget per tab or
// per wait failed tests that were only slow (issue 41). With -timeout 0
// nothing bounds it but the test's end.
func testContext(t *testing.T, parent context.Context) (context.Context, context.CancelFunc) {
	if d, ok := t.Deadline(); ok {
		return context.WithDeadline(parent, d.Add(-reportMargin))
	}
	return context.WithCancel(parent)
}

// pollEvery is how often waitUntil looks again: not a deadline, the
// interval of a readiness check.
const pollEvery = 100 * time.Millisecond

// waitUntil looks at ready until it says so, however long that takes on
// this machine, bounded only by ctx (testContext): what it waits for
// decides how long. On the deadline it fails the test with what, and the
// last state ready reported.
func waitUntil(t *testing.T, ctx context.Context, what string, ready func() (bool, string)) {
	t.Helper()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		ok, state := ready()
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: still not ready when the test's time ran out (%v); last state: %s", what, ctx.Err(), state)
		case <-tick.C:
		}
	}
}

// formError waits for the error of a refused form, on the page that
// answers its submission, and returns its text. Read at once, the query
// may run on the form's page while it is replaced and find no node ("No
// node with given id found", seen in CI), so it polls until the answer
// page has loaded and shows an error.
func formError(t *testing.T, ctx context.Context, what string) string {
	t.Helper()
	var msg string
	waitUntil(t, ctx, what, func() (bool, string) {
		var err error
		msg, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState === 'complete' ? ((document.querySelector('[data-testid=form-error]') || {}).textContent || '') : ''`))
		return err == nil && msg != "", fmt.Sprint(msg, err)
	})
	return msg
}

// waitCompared waits until the compare page has every run finished and
// checks that its metrics table has want header cells (metric + runs).
func waitCompared(t *testing.T, ctx context.Context, want int) {
	t.Helper()
	var state string
	waitUntil(t, ctx, "the compare page waits for its runs", func() (bool, string) {
		var err error
		state, err = chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			if (document.readyState !== 'complete' || !document.querySelector('[data-testid=compare-metrics]')) { return 'loading'; }
			if (document.querySelector('[data-testid=compare-status]')) { return 'waiting'; }
			return String(document.querySelectorAll('[data-testid=compare-metrics] thead th').length);
		})()`))
		return err == nil && state != "waiting" && state != "loading", fmt.Sprint(state, " ", err)
	})
	if state != strconv.Itoa(want) {
		t.Errorf("compare page has %s header cells, want %d", state, want)
	}
}

// startRun starts a run on the workload of run `of` through the JSON API and
// waits for it to finish.
func startRun(t *testing.T, base, of, variant string) string {
	t.Helper()
	var prev struct {
		WorkloadID string `json:"workload_id"`
	}
	getJSON(t, base+"/api/runs/"+of, &prev)
	body := fmt.Sprintf(`{"workload_id":%q,"variant":%q}`, prev.WorkloadID, variant)
	resp, err := http.Post(base+"/api/runs", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var run struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&run); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/runs: %d %v", resp.StatusCode, err)
	}
	ctx, cancel := testContext(t, context.Background())
	defer cancel()
	waitUntil(t, ctx, "run "+run.ID+" finishes", func() (bool, string) {
		getJSON(t, base+"/api/runs/"+run.ID, &run)
		if run.Status != "done" && run.Status != "queued" && run.Status != "running" {
			t.Fatalf("run %s ended %s", run.ID, run.Status)
		}
		return run.Status == "done", run.Status
	})
	return run.ID
}

func post(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// waitPainted waits until the canvas matching sel has painted pixels
// (ECharts animates, so the first frames may be empty).
func waitPainted(t *testing.T, ctx context.Context, sel, what string) {
	t.Helper()
	waitUntil(t, ctx, what+" renders", func() (bool, string) {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(pixelsJS, sel)))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return n > 500, fmt.Sprintf("%d painted pixels in %s", n, sel)
	})
}

// waitAllDrawn waits until every chart of the page has an ECharts
// instance with a canvas: each fetched its data and was drawn.
func waitAllDrawn(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	const js = `(() => { const all = Array.from(document.querySelectorAll('[data-testid=chart]'));
	  return JSON.stringify([all.length, all.filter(el => window.echarts && echarts.getInstanceByDom(el) && el.querySelector('canvas')).length]); })()`
	waitUntil(t, ctx, what+": every chart drawn", func() (bool, string) {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var n [2]int
		return json.Unmarshal([]byte(got), &n) == nil && n[0] > 0 && n[0] == n[1], "[charts, drawn] = " + got
	})
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if out := os.Getenv("SCHEDLAB_SCREENSHOTS"); out != "" {
		p = filepath.Join(out, name)
	}
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// chooseVariant picks a variant on the run form as a user does: the change
// event makes the form show that variant's parameters (and enable them).
func chooseVariant(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
			const s = document.querySelector('#nr-variant');
			s.value = %q;
			s.dispatchEvent(new Event('change', {bubbles: true}));
			return s.value === %q;
		})()`, name, name)))
		return err
	})
}
