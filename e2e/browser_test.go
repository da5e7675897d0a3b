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
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
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
func serveHeldWith(t *testing.T, strategies []solvers.Strategy) (base string, start func()) {
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
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			if (document.querySelector('[data-testid=report]')) { return 'report'; }
			const bar = document.querySelector('.progress > div');
			return bar ? bar.style.width : 'none';
		})()`))
		if err != nil {
			continue // the page is reloading
		}
		if state == "report" {
			break
		}
		if state != "" && state != "0%" && state != "none" {
			moved = true
		}
	}
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
	ctx, cancelT := context.WithTimeout(ctx, 150*time.Second)
	t.Cleanup(cancelT)

	var mu sync.Mutex
	var seen []string
	listenErr := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			seen = append(seen, msg)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
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

// waitCompared waits until the compare page has every run finished and
// checks that its metrics table has want header cells (metric + runs).
func waitCompared(t *testing.T, ctx context.Context, want int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			if (document.readyState !== 'complete' || !document.querySelector('[data-testid=compare-metrics]')) { return 'loading'; }
			if (document.querySelector('[data-testid=compare-status]')) { return 'waiting'; }
			return String(document.querySelectorAll('[data-testid=compare-metrics] thead th').length);
		})()`))
		if err == nil && state != "waiting" && state != "loading" {
			if state != strconv.Itoa(want) {
				t.Errorf("compare page has %s header cells, want %d", state, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the compare page still waits: %s %v", state, err)
		}
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
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		getJSON(t, base+"/api/runs/"+run.ID, &run)
		if run.Status == "done" {
			return run.ID
		}
		if run.Status != "queued" && run.Status != "running" {
			t.Fatalf("run %s ended %s", run.ID, run.Status)
		}
	}
	t.Fatalf("run %s did not finish", run.ID)
	return ""
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
	var n int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var err error
		if n, err = chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(pixelsJS, sel))); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n > 500 {
			return
		}
	}
	t.Fatalf("%s did not render: %d painted pixels in %s", what, n, sel)
}

// waitAllDrawn waits until every chart of the page has an ECharts
// instance with a canvas: each fetched its data and was drawn.
func waitAllDrawn(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	const js = `(() => { const all = Array.from(document.querySelectorAll('[data-testid=chart]'));
	  return JSON.stringify([all.length, all.filter(el => window.echarts && echarts.getInstanceByDom(el) && el.querySelector('canvas')).length]); })()`
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var err error
		if got, err = chromedp.Run(ctx, chromedp.Evaluate[string](js)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var n [2]int
		if json.Unmarshal([]byte(got), &n) == nil && n[0] > 0 && n[0] == n[1] {
			return
		}
	}
	t.Fatalf("%s: [charts, drawn] = %s, want every chart drawn", what, got)
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
