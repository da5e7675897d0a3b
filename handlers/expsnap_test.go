package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/experiments"
	"schedlab/report"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
	"schedlab/views"
)

// newIdleApp serves the application over a fresh database with a runner
// that is never started: runs change only as the test changes them in
// the store (claims, starts, ends, cancels), as workers would.
func newIdleApp(t *testing.T) *app {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	strategies := registry.All()
	lookup := func(name string) (*solvers.Strategy, bool) {
		for _, s := range strategies {
			if s.Info.Name == name {
				return s, true
			}
		}
		return nil, false
	}
	if _, err := st.SetMetricNeeds(context.Background(), runner.MetricNeeds(strategies)); err != nil {
		t.Fatal(err)
	}
	rn := runner.New(st, lookup, runner.Options{Workers: 1})
	e := echo.New()
	server := New(st, rn, strategies, Options{})
	server.Routes(e)
	srv := httptest.NewServer(e)
	t.Cleanup(func() {
		srv.Close()
		st.Close()
	})
	return &app{Server: srv, store: st, runner: rn, server: server}
}

// TestExperimentSnapshotFollowsChanges: an experiment's page built from
// its snapshot brought up to date run change by run change (claims,
// workers starting, ends done, done without a result, failed, out of
// position order, a cancel and a resume) is the page built from a full
// read of its runs, byte for byte, for several queries; and the
// snapshot's Cite builds and workloads, workers and metric declarations
// are what the store's own queries of the whole experiment give.
func TestExperimentSnapshotFollowsChanges(t *testing.T) {
	a := newIdleApp(t)
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{}`)}
	if err := a.store.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	variants := []string{"online", "greedy-min-energy"}
	gammas := []string{"1.1", "1.2", "1.3"}
	def := `{"name":"follow","strategy":"eapm","workload":{"ids":["` + w.ID + `"]},"variants":["online","greedy-min-energy"],` +
		`"grid":{"gamma":["1.1","1.2","1.3"]},"replicates":3}`
	var runs []*runtypes.Run
	var cells []store.ExperimentCell
	for rep := range 3 {
		for _, g := range gammas {
			for _, v := range variants {
				runs = append(runs, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "eapm", Variant: v,
					Params: map[string]string{"gamma": g}})
				cells = append(cells, store.ExperimentCell{Cell: json.RawMessage(`{"gamma":"` + g + `"}`), Replicate: rep})
			}
		}
	}
	e := &store.Experiment{Name: "follow", Strategy: "eapm", Definition: json.RawMessage(def)}
	if err := a.store.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	queries := []string{"", "?metric=objective&x=gamma", "?metric=ratio&x=gamma", "?metric=objective&status=failed",
		"?metric=objective&variant=online&runs_from=2"}
	fullReads := 0
	// compare renders every query from the kept snapshot brought up to
	// date, then from a full read, and checks the snapshot against the
	// store's queries of the whole experiment.
	compare := func(step string, incremental bool) {
		t.Helper()
		var kept []string
		for _, q := range queries {
			status, body := a.do(t, http.MethodGet, "/experiments/"+e.ID+q, "", nil)
			if status != http.StatusOK {
				t.Fatalf("%s: %s: %d %.300s", step, q, status, body)
			}
			kept = append(kept, withCharts(t, a, body))
		}
		_, results := a.do(t, http.MethodGet, "/api/experiments/"+e.ID+"/results", "", nil)
		a.server.snaps.mu.Lock()
		sn := a.server.snaps.snaps[e.ID]
		a.server.snaps.mu.Unlock()
		if sn.delta != incremental {
			t.Fatalf("%s: snapshot brought up to date %v, want %v", step, sn.delta, incremental)
		}
		checkSnapshot(t, step, a, e.ID, sn)
		a.server.snaps.mu.Lock()
		clear(a.server.snaps.snaps)
		a.server.snaps.mu.Unlock()
		fullReads++
		for i, q := range queries {
			_, body := a.do(t, http.MethodGet, "/experiments/"+e.ID+q, "", nil)
			if full := withCharts(t, a, body); full != kept[i] {
				t.Errorf("%s: %s: the page from the kept snapshot differs from the page from a full read:\n%s", step, q, firstDiff(kept[i], full))
			}
		}
		if _, full := a.do(t, http.MethodGet, "/api/experiments/"+e.ID+"/results", "", nil); string(full) != string(results) {
			t.Errorf("%s: results differ:\n%s", step, firstDiff(string(results), string(full)))
		}
	}
	end := func(endings ...store.Ending) {
		t.Helper()
		for i, err := range a.store.End(ctx, endings) {
			if err != nil {
				t.Fatalf("ending %s: %v", endings[i].ID, err)
			}
		}
	}
	rep := func(objective float64, ratioBetter report.Direction, stopped bool) json.RawMessage {
		ms := []report.Metric{{Name: "ratio", Value: objective / 10, Better: ratioBetter}, {Name: "energy", Value: objective * 3, Better: report.Lower}}
		var notes []string
		if stopped {
			notes = []string{report.StopPrefix + ": no machine left"}
		} else {
			ms = append(ms, report.Metric{Name: "objective", Value: objective, Better: report.Lower})
		}
		b, err := json.Marshal(report.Report{Metrics: ms, Notes: notes})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b1 := runtypes.Build{Version: "v1", Commit: "aaaaaaa"}
	b2 := runtypes.Build{Version: "v2", Commit: "bbbbbbb", Modified: "true"}

	compare("created", false)
	claimed, err := a.store.ClaimUpTo(ctx, 6)
	if err != nil || len(claimed) != 6 {
		t.Fatalf("claimed %d: %v", len(claimed), err)
	}
	compare("6 claimed", true)
	for i, r := range claimed[:4] {
		if err := a.store.SetProgressBy(ctx, r.ID, fmt.Sprintf("host:%d", i%2), time.Now(), 1, 2, ""); err != nil {
			t.Fatal(err)
		}
	}
	compare("4 started", true)
	// Out of position order: the later run of each variant ends first,
	// declaring ratio higher-is-better; the earlier then says lower.
	end(store.Ending{ID: claimed[3].ID, Worker: "host:1", Build: b2, Status: runtypes.StatusDone, Report: rep(7, report.Higher, false)},
		store.Ending{ID: claimed[2].ID, Worker: "host:0", Build: b1, Status: runtypes.StatusDone, Report: rep(5, report.Higher, true)})
	compare("2 done, one without a result", true)
	end(store.Ending{ID: claimed[0].ID, Worker: "host:0", Build: b1, Status: runtypes.StatusDone, Report: rep(3, report.Lower, false)},
		store.Ending{ID: claimed[1].ID, Worker: "host:2", Build: b1, Status: runtypes.StatusFailed, Error: "no schedule"})
	compare("earlier done, one failed", true)
	end(store.Ending{ID: claimed[5].ID, Worker: "host:3", Build: b2, Status: runtypes.StatusDone, Report: rep(4, report.Lower, false)})
	compare("one more done", true)
	if _, err := a.store.CancelExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	end(store.Ending{ID: claimed[4].ID, Status: runtypes.StatusCanceled, Error: runtypes.MsgCanceled})
	compare("canceled", true)
	if _, err := a.store.ResumeExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	compare("resumed", true)
	rest, err := a.store.ClaimUpTo(ctx, 20)
	if err != nil || len(rest) != 13 {
		t.Fatalf("claimed %d: %v", len(rest), err)
	}
	for k := len(rest) - 1; k >= 0; k-- {
		r := rest[k]
		if k%4 == 0 {
			compare(fmt.Sprintf("ending, %d left", k+1), true)
		}
		end(store.Ending{ID: r.ID, Worker: fmt.Sprintf("host:%d", k%3), Build: []runtypes.Build{b1, b2}[k%2], Status: runtypes.StatusDone,
			Report: rep(float64(k), []report.Direction{report.Lower, report.Higher}[k%2], k%5 == 1)})
	}
	compare("all ended", true)
	if fullReads != 13 {
		t.Errorf("%d comparisons", fullReads)
	}
}

// checkSnapshot checks what snapshot sn of experiment id counts against
// the store's queries of the whole experiment: the builds and workloads
// of its Cite block, its workers, its metrics' declarations.
func checkSnapshot(t *testing.T, step string, a *app, id string, sn *expSnap) {
	t.Helper()
	ctx := context.Background()
	builds, workloads, more, err := a.store.ExperimentCitation(ctx, id, maxCitedWorkloads)
	if err != nil {
		t.Fatal(err)
	}
	if len(builds) == 0 {
		builds = nil
	}
	if !reflect.DeepEqual(builds, nilIfEmpty(sn.builds)) || !reflect.DeepEqual(workloads, sn.workloads) || more != sn.more {
		t.Errorf("%s: cite %v %v %d, the store says %v %v %d", step, sn.builds, sn.workloads, sn.more, builds, workloads, more)
	}
	byWorker, err := a.store.ExperimentWorkers(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	workers := []views.WorkerCount{}
	for name, n := range byWorker {
		workers = append(workers, views.WorkerCount{Name: name, Runs: n})
	}
	sortWorkers(workers)
	if !reflect.DeepEqual(workers, sn.workers) {
		t.Errorf("%s: workers %v, the store says %v", step, sn.workers, workers)
	}
	raws, err := a.store.ExperimentMetricDecls(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	lists := [][]report.Metric{sn.family}
	for _, raw := range raws {
		var ms []report.Metric
		if err := json.Unmarshal(raw, &ms); err != nil {
			t.Fatal(err)
		}
		lists = append(lists, ms)
	}
	if want := experiments.Infos(lists...); !reflect.DeepEqual(want, sn.infos) {
		t.Errorf("%s: declarations %v, the store says %v", step, sn.infos, want)
	}
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// chartSrc is where a page's chart reads its data.
var chartSrc = regexp.MustCompile(`data-chart-src="([^"]+)"`)

// withCharts is page with each chart's data in place of its address
// (a running experiment's charts are kept under a key drawn per view).
func withCharts(t *testing.T, a *app, page []byte) string {
	t.Helper()
	return chartSrc.ReplaceAllStringFunc(string(page), func(m string) string {
		src := chartSrc.FindStringSubmatch(m)[1]
		status, data := a.do(t, http.MethodGet, src, "", nil)
		if status != http.StatusOK {
			t.Fatalf("%s: %d", src, status)
		}
		return "data=" + string(data)
	})
}

// firstDiff shows where two pages first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("at %d:\nkept: %.400s\nfull: %.400s", i, a[from:], b[from:])
}

// TestNoResultCountsFailedEverywhere: a done critical-works run that
// stopped (no makespan, issue 38) is failed in the experiment's API
// (runs_failed, runs_done), in the /experiments list and on the
// experiment's page, as its run list marks it "no result": the counts
// agree with the run pages' reading.
func TestNoResultCountsFailedEverywhere(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := t.Context()
	a.runner.Shutdown(ctx) // the runs end as written here
	w := &runtypes.Workload{Strategy: "critical", Name: "w", Data: []byte(`{}`)}
	if err := a.store.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	var runs []*runtypes.Run
	var cells []store.ExperimentCell
	for i := range 4 {
		runs = append(runs, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "critical", Variant: "critical-works"})
		cells = append(cells, store.ExperimentCell{Cell: json.RawMessage(`{}`), Replicate: i})
	}
	e := &store.Experiment{Name: "stops", Strategy: "critical",
		Definition: json.RawMessage(`{"name":"stops","strategy":"critical","workload":{"ids":["` + w.ID + `"]},"variants":["critical-works"],"replicates":4}`)}
	if err := a.store.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.ClaimUpTo(ctx, 4); err != nil {
		t.Fatal(err)
	}
	full := `{"metrics":[{"name":"makespan","value":10},{"name":"makespan_over_bound","value":1.2},{"name":"processor_load_mean","value":0.5},` +
		`{"name":"processor_load_deadline","value":0.4},{"name":"cost","value":7},{"name":"meets_deadline","value":1}]}`
	stopped := `{"metrics":[{"name":"critical_path_length","value":4,"kind":"info"}],"notes":["STOPPED: at work 3 of 9 every variant hit a failure case"]}`
	for i, rep := range []string{full, stopped, full, ""} {
		status := runtypes.StatusDone
		if rep == "" {
			status = runtypes.StatusFailed
		}
		if err := a.store.Finish(ctx, runs[i].ID, status, json.RawMessage(rep), "boom", ""); err != nil {
			t.Fatal(err)
		}
	}
	// The run pages' reading: the stopped run is marked no result.
	_, list := a.do(t, http.MethodGet, "/runs?strategy=critical", "", nil)
	if n := strings.Count(string(list), `data-testid="run-no-result"`); n != 1 {
		t.Fatalf("/runs marks %d runs no result, want 1", n)
	}
	var api apiExperiment
	_, body := a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
	if err := json.Unmarshal(body, &api); err != nil {
		t.Fatal(err)
	}
	if api.RunsDone != 2 || api.RunsFailed != 2 || api.RunsTotal != 4 {
		t.Errorf("API: %d done, %d failed of %d; want 2 done (with a result), 2 failed (one stopped, one failed) of 4", api.RunsDone, api.RunsFailed, api.RunsTotal)
	}
	_, page := a.do(t, http.MethodGet, "/experiments", "", nil)
	if !strings.Contains(string(page), "<td>4</td><td>2</td><td>2</td>") {
		t.Errorf("/experiments does not count 4 runs, 2 done, 2 failed:\n%s", page)
	}
	_, page = a.do(t, http.MethodGet, "/experiments/"+e.ID, "", nil)
	if !strings.Contains(string(page), "2 done, 2 failed, of 4") {
		t.Errorf("the experiment's page does not say 2 done, 2 failed, of 4")
	}
}

// TestExperimentSnapshotUnderConcurrentViews: pages viewed from several
// goroutines while runs end (each view may bring the snapshot up to date,
// or wait for another's) all answer 200, and once the runs have ended the
// kept snapshot gives the page a full read gives (run with -race).
func TestExperimentSnapshotUnderConcurrentViews(t *testing.T) {
	a := newIdleApp(t)
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{}`)}
	if err := a.store.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	e := &store.Experiment{Name: "busy", Strategy: "eapm", Definition: json.RawMessage(`{"name":"busy","strategy":"eapm","workload":{"ids":["` +
		w.ID + `"]},"variants":["online"],"grid":{"gamma":["1.1","1.2"]},"replicates":30}`)}
	const n = 60
	err := a.store.FillExperimentStatus(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online"}, n,
		func(i int) store.ExperimentCell {
			return store.ExperimentCell{Cell: json.RawMessage(`{"gamma":"1.` + fmt.Sprint(1+i%2) + `"}`), Replicate: i / 2}
		},
		func(int) []store.Metric { return nil },
		func(int) string { return runtypes.StatusRunning })
	if err != nil {
		t.Fatal(err)
	}
	ids, _, err := a.store.ExperimentRunList(ctx, e.ID, store.ExperimentRunFilter{Limit: n})
	if err != nil || len(ids) != n {
		t.Fatalf("%d runs, %v", len(ids), err)
	}
	page := "/experiments/" + e.ID + "?metric=objective&x=gamma"
	stop := make(chan struct{})
	fails := make(chan string, 8)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Get(a.URL + page + "&g=" + fmt.Sprint(g))
				if err != nil {
					fails <- err.Error()
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					fails <- fmt.Sprintf("view %d: %d", g, resp.StatusCode)
					return
				}
			}
		}()
	}
	for i, r := range ids {
		rep := fmt.Sprintf(`{"metrics":[{"name":"objective","value":%d,"better":"lower"}]}`, i)
		if err := a.store.End(ctx, []store.Ending{{ID: r.RunID, Worker: fmt.Sprint("host:", i%3), Status: runtypes.StatusDone,
			Report: json.RawMessage(rep)}})[0]; err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(fails)
	for f := range fails {
		t.Error(f)
	}
	_, kept := a.do(t, http.MethodGet, page, "", nil)
	a.server.snaps.mu.Lock()
	clear(a.server.snaps.snaps)
	a.server.snaps.mu.Unlock()
	_, full := a.do(t, http.MethodGet, page, "", nil)
	if k, f := withCharts(t, a, kept), withCharts(t, a, full); k != f {
		t.Errorf("after concurrent views, the kept snapshot's page differs from a full read's:\n%s", firstDiff(k, f))
	}
}
