package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"schedlab/report"
	"schedlab/service"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// gossipDay200 is the definition: a day of gossip on 100,000
// nodes, 200 replicates, every value within its limit: about 77 MB a
// workload by the estimate (56 MB measured), 15 GB in all.
const gossipDay200 = `{"name": "gossip day", "strategy": "gossip", "variants": ["gossip"],
 "workload": {"preset": "umeda2006", "grid": {"nodes": [100000], "duration_h": [12]}},
 "replicates": 200, "seed": 1}`

// fileBytes is the database file's size as SQLite counts it (page_count
// × page_size).
func fileBytes(t testing.TB, a *app) int64 {
	t.Helper()
	n, err := a.store.FileBytes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (a *app) countExperiments(t testing.TB) int {
	t.Helper()
	list, _, err := a.store.ListExperimentsPage(context.Background(), store.ExperimentFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

func TestAnExperimentOverItsBudgetIsRefusedBeforeAnythingIsGenerated(t *testing.T) {
	a := newApp(t, "", 0)
	before := fileBytes(t, a)
	start := time.Now()
	status, body := a.postJSON(t, "/api/experiments", gossipDay200)
	took := time.Since(start)
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %s", status, body)
	}
	var e apiError
	json.Unmarshal(body, &e)
	for _, want := range []string{"200 generated workloads", "over the budget of 2 GiB of generated workloads per experiment", "duration_h"} {
		if !strings.Contains(e.Error, want) {
			t.Errorf("error %q does not say %q", e.Error, want)
		}
	}
	if n := a.countWorkloads(t); n != 0 {
		t.Errorf("%d workloads stored by a refused experiment", n)
	}
	if n := a.countExperiments(t); n != 0 {
		t.Errorf("%d experiments stored", n)
	}
	if n := a.countRuns(t); n != 0 {
		t.Errorf("%d runs stored", n)
	}
	if after := fileBytes(t, a); after != before {
		t.Errorf("the database file went from %d to %d bytes", before, after)
	}
	t.Logf("refused in %v", took)
	// The form says the same.
	form := "definition=" + urlEscape(gossipDay200) + "&action=start"
	status, page := a.do(t, http.MethodPost, "/experiments", "application/x-www-form-urlencoded", strings.NewReader(form))
	if status != http.StatusBadRequest || !strings.Contains(string(page), "per experiment") {
		t.Errorf("form: %d, page without the budget", status)
	}
}

func urlEscape(s string) string {
	r := strings.NewReplacer("%", "%25", "&", "%26", "+", "%2B", "=", "%3D", "\n", "%0A", " ", "+")
	return r.Replace(s)
}

func TestBudgetsPerExperimentAndPerUserCountWorkloadsAndBytes(t *testing.T) {
	// eapm case 2 with n=2000 users is about 160 kB by its estimate.
	def := func(instances string) string {
		return `{"name": "case 2", "strategy": "eapm", "variants": ["online", "greedy-min-energy"],
 "workload": {"preset": "zhang2022-case2", "grid": {"n": [2000], "instance": ` + instances + `}}, "replicates": 1}`
	}
	a := newAppOpt(t, "", Options{Budget: service.Budget{ExperimentWorkloads: 3, UserBytes: 500_000}}, registry.All())
	status, body := a.postJSON(t, "/api/experiments", def(`[0, 1, 2, 3]`))
	if status != http.StatusBadRequest || !strings.Contains(string(body), "4 workloads, over the budget of 3 generated workloads per experiment") {
		t.Fatalf("4 workloads: %d %s", status, body)
	}
	status, body = a.postJSON(t, "/api/experiments", def(`[0, 1]`))
	if status != http.StatusCreated {
		t.Fatalf("2 workloads: %d %s", status, body)
	}
	// Two more would pass the experiment's budget, not the user's: the
	// first experiment's two still count (stored or to be generated).
	status, body = a.postJSON(t, "/api/experiments", def(`[2, 3]`))
	if status != http.StatusBadRequest || !strings.Contains(string(body), "per user") || !strings.Contains(string(body), "2 workloads") {
		t.Fatalf("over the user's bytes: %d %s", status, body)
	}
	if n := a.countExperiments(t); n != 1 {
		t.Errorf("%d experiments stored, want the first", n)
	}
}

// gatedToy is the toy family whose generator counts its calls and waits
// for gate, so a test can see where and when workloads are generated.
func gatedToy(calls *atomic.Int64, gate <-chan struct{}) *solvers.Strategy {
	def := &solvers.Def[toyConfig, *toyConfig]{
		Name:        "toy",
		Info:        solvers.Info{Title: "Toy family", Summary: "A family added by a test."},
		VariantList: []solvers.Variant{{Name: "one"}, {Name: "two"}},
		Config:      func() toyConfig { return toyConfig{Scale: 2} },
		Run: func(ctx context.Context, w *solvers.Workload, variant string, cfg toyConfig, progress solvers.Progress) (*report.Report, error) {
			var in struct{ Size int }
			if err := json.Unmarshal(w.Data, &in); err != nil {
				return nil, err
			}
			return &report.Report{Metrics: []report.Metric{{Name: "size", Value: float64(in.Size)}}}, nil
		},
		PresetList: []solvers.PresetDef{solvers.NewPreset("tiny", "A tiny instance.", func() toyPreset { return toyPreset{Size: 3} },
			func(ctx context.Context, cfg toyPreset, seed int64) (*solvers.Workload, error) {
				calls.Add(1)
				select {
				case <-gate:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				b, _ := json.Marshal(map[string]int{"size": cfg.Size, "seed": int(seed)})
				return &solvers.Workload{Name: "toy", Format: "preset", Summary: "toy instance", Data: b,
					Preview: &report.Report{Metrics: []report.Metric{{Name: "size", Value: float64(cfg.Size)}}}}, nil
			},
			func(cfg toyPreset) solvers.Estimate { return solvers.Estimate{Bytes: 200, Field: "size"} })},
	}
	return def.Strategy()
}

func TestExperimentWorkloadsAreGeneratedByTheirRunsOncePerCellAndReplicate(t *testing.T) {
	var calls atomic.Int64
	gate := make(chan struct{})
	a := newAppWith(t, "", 0, []*solvers.Strategy{gatedToy(&calls, gate)})
	// 2 sizes × 3 replicates: 6 workloads, each shared by its 2 variants.
	status, body := a.postJSON(t, "/api/experiments", `{"name": "toy sweep", "strategy": "toy",
 "workload": {"preset": "tiny", "grid": {"size": [4, 5]}}, "replicates": 3, "seed": 10}`)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	var e apiExperiment
	json.Unmarshal(body, &e)
	if e.RunsTotal != 12 {
		t.Fatalf("%d runs", e.RunsTotal)
	}
	// The request returned while every generator still waits: nothing was
	// generated in it. The workloads are stored as recipes, with no data.
	ws, err := a.store.ListWorkloads(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 6 {
		t.Fatalf("%d workloads, want 6 (one per size and replicate)", len(ws))
	}
	for _, w := range ws {
		if w.Bytes != 0 || w.SHA256 != "" || !strings.Contains(w.Summary, "to be generated") {
			t.Fatalf("workload before its runs: %+v", w)
		}
	}
	// Its data cannot be downloaded yet; its page says what it is.
	if status, body := a.do(t, http.MethodGet, "/api/workloads/"+ws[0].ID+"/data", "", nil); status != http.StatusConflict ||
		!strings.Contains(string(body), "not generated yet") {
		t.Errorf("data of a workload to be generated: %d %s", status, body)
	}
	if status, body := a.do(t, http.MethodGet, "/workloads/"+ws[0].ID, "", nil); status != http.StatusOK ||
		!strings.Contains(string(body), "to be generated") {
		t.Errorf("page of a workload to be generated: %d", status)
	}
	close(gate)
	deadline := time.Now().Add(30 * time.Second)
	for e.Status == "running" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		_, body = a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
		json.Unmarshal(body, &e)
	}
	if e.Status != "done" || e.RunsDone != 12 {
		t.Fatalf("experiment: %+v", e)
	}
	if n := calls.Load(); n != 6 {
		t.Errorf("%d generations, want 6: the variants of a cell and replicate share one", n)
	}
	ws, _ = a.store.ListWorkloads(context.Background(), "", 0)
	seeds := map[string]bool{}
	for _, w := range ws {
		full, err := a.store.GetWorkload(context.Background(), w.ID)
		if err != nil {
			t.Fatal(err)
		}
		if full.SHA256 == "" || full.Bytes != len(full.Data) || full.Summary != "toy instance" || len(full.Preview) == 0 {
			t.Errorf("workload after its runs: %+v", full)
		}
		seeds[string(full.Data)] = true
	}
	if len(seeds) != 6 {
		t.Errorf("%d distinct workloads generated, want 6", len(seeds))
	}
	// Each run used its cell's size.
	rows, err := a.server.experimentResults(context.Background(), e.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range rows {
		if r.Metric != "size" {
			continue
		}
		checked++
		if want := map[string]float64{"4": 4, "5": 5}[r.Params["workload.size"]]; r.Mean == nil || *r.Mean != want {
			t.Errorf("row %+v: the runs did not get their cell's workload (size %v)", r, want)
		}
	}
	if checked != 4 {
		t.Errorf("%d rows of size, want 2 sizes × 2 variants", checked)
	}
}

func TestConcurrentExperimentPostsNeverMeetALockedDatabase(t *testing.T) {
	a := newApp(t, "", 0)
	// Each: 2 variants × 10 γ × 100 instances = 2,000 runs and 100
	// workloads, stored in one transaction while the runner claims and
	// stores runs of the others.
	def := `{"name": "γ sweep", "strategy": "eapm", "variants": ["online", "greedy-min-energy"],
 "workload": {"preset": "zhang2022-case1", "grid": {"instance": {"from": 0, "to": 99}}},
 "grid": {"gamma": [1.1, 1.15, 1.2, 1.25, 1.3, 1.35, 1.4, 1.45, 1.5, 1.55]}, "replicates": 1}`
	const posts = 4
	var wg sync.WaitGroup
	statuses := make([]int, posts)
	bodies := make([][]byte, posts)
	for i := range posts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], bodies[i] = a.postJSON(t, "/api/experiments", def)
		}()
	}
	wg.Wait()
	for i := range posts {
		if statuses[i] != http.StatusCreated {
			t.Errorf("post %d: %d %s", i, statuses[i], bodies[i])
		}
	}
	if n := a.countExperiments(t); n != posts {
		t.Errorf("%d experiments stored, want %d", n, posts)
	}
}

func TestAGenerateOverTheRequestsTimeIsA413NamingItsParameter(t *testing.T) {
	var calls atomic.Int64
	gate := make(chan struct{}) // never opened: the generator works until stopped
	a := newAppOpt(t, "", Options{GenerateTimeout: 200 * time.Millisecond}, []*solvers.Strategy{gatedToy(&calls, gate)})
	status, body := a.postJSON(t, "/api/workloads/generate", `{"strategy":"toy","preset":"tiny","params":{"size":9}}`)
	var e apiError
	json.Unmarshal(body, &e)
	if status != http.StatusRequestEntityTooLarge || e.Field != "size" || !strings.Contains(e.Error, "200ms a request may spend generating in the server") ||
		!strings.Contains(e.Error, "experiment") {
		t.Fatalf("%d %s", status, body)
	}
	if n := a.countWorkloads(t); n != 0 || calls.Load() != 1 {
		t.Errorf("%d workloads stored, %d generations", n, calls.Load())
	}
}
