package critical

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// allMetrics every run reports; scheduleMetrics only a run with a
// complete schedule (not the paper's stop).
var (
	allMetrics = []string{"deadline", "deadline_over_heft", "deadline_over_critical_work", "meets_deadline", "processors", "processors_used", "critical_path_length", "lower_bound",
		"stopped", "variants_generated", "variants_kept", "variants_dropped", "variants_pruned", "works", "works_planned", "works_fallback",
		"collisions", "collisions_unresolved", "tree_nodes", "tree_cut", "dfs_paths", "wall_ms"}
	scheduleMetrics = []string{"makespan", "makespan_over_bound", "processor_load_mean", "processor_load_deadline", "cost"}
)

// hasMetric reports whether r has the metric.
func hasMetric(r *report.Report, name string) bool {
	for _, m := range r.Metrics {
		if m.Name == name {
			return true
		}
	}
	return false
}

func genWorkload(t testing.TB, params solvers.Params, seed int64) *solvers.Workload {
	t.Helper()
	w, err := New().Generate(context.Background(), PresetRandom, params, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func metric(t testing.TB, r *report.Report, name string) float64 {
	t.Helper()
	m, ok := r.Metric(name)
	if !ok {
		t.Fatalf("metric %s missing", name)
	}
	return m.Value
}

func TestRunEveryVariantOnRandom(t *testing.T) {
	s := New()
	w := genWorkload(t, nil, 7)
	if err := w.Preview.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(w.Preview.Graphs) != 1 || w.Preview.Graphs[0].Layout != "dag" || w.Preview.Table("Tasks") == nil {
		t.Fatal("preview lacks the DAG or the tasks table")
	}
	crit := 0
	for _, e := range w.Preview.Graphs[0].Edges {
		if e.Kind == "critical" {
			crit++
		}
	}
	if crit == 0 {
		t.Error("preview highlights no critical edge")
	}
	for _, v := range s.Variants {
		for _, c := range []string{CriterionLoad, CriterionMakespan, CriterionCost} {
			t.Run(v.Name+"/"+c, func(t *testing.T) {
				r, err := s.Run(context.Background(), w, v.Name, solvers.Params{"criterion": c}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.Validate(); err != nil {
					t.Fatal(err)
				}
				for _, m := range allMetrics {
					metric(t, r, m)
				}
				stopped := metric(t, r, "stopped") == 1
				for _, m := range scheduleMetrics {
					if hasMetric(r, m) == stopped {
						t.Errorf("metric %s present %v with stopped %v", m, hasMetric(r, m), stopped)
					}
				}
				if !stopped {
					if got := metric(t, r, "makespan_over_bound"); got < 1-1e-9 {
						t.Errorf("makespan over bound %v < 1", got)
					}
				}
				sched := "Schedule"
				if stopped {
					sched = "Partial plan"
				}
				for _, title := range []string{"Critical works", sched} {
					if r.Table(title) == nil {
						t.Errorf("table %q missing", title)
					}
				}
				if len(r.Gantts) == 0 || len(r.Gantts[0].Lanes) != int(metric(t, r, "processors_used")) || len(r.Gantts[0].Lanes) < 4 {
					t.Errorf("gantt lanes")
				}
				var layouts []string
				for _, g := range r.Graphs {
					layouts = append(layouts, g.Layout)
				}
				if !reflect.DeepEqual(layouts, []string{"dag", "tree"}) {
					t.Errorf("graphs %v", layouts)
				}
				if v.Name == VariantCritical || v.Name == VariantCriticalFallback {
					for _, title := range []string{"Variants", "Variants generated, kept and dropped", "Collisions"} {
						if r.Table(title) == nil {
							t.Errorf("table %q missing", title)
						}
					}
					gen, kept, dropped, pruned := metric(t, r, "variants_generated"), metric(t, r, "variants_kept"), metric(t, r, "variants_dropped"), metric(t, r, "variants_pruned")
					if gen != kept+dropped+pruned {
						t.Errorf("generated %v ≠ kept %v + dropped %v + pruned %v", gen, kept, dropped, pruned)
					}
					if (kept == 0) != stopped {
						t.Errorf("kept %v with stopped %v", kept, stopped)
					}
				} else if stopped || metric(t, r, "variants_generated") != 0 {
					t.Error("a baseline reports variants or a stop")
				}
			})
		}
	}
}

func TestSharedWorkflowsEveryVariant(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) != 5 {
		t.Fatalf("want the 5 shared workflows in testdata, got %d", len(files))
	}
	s := New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: filepath.Base(f), Data: data}})
		if err != nil {
			t.Fatal(err)
		}
		if w.Format != "wfformat" {
			t.Errorf("%s read as %s", f, w.Format)
		}
		if err := w.Preview.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, v := range s.Variants {
			r, err := s.Run(context.Background(), w, v.Name, nil, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", f, v.Name, err)
			}
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			if metric(t, r, "stopped") == 1 {
				t.Logf("%-50s %-15s stopped at work %v of %v", filepath.Base(f), v.Name, metric(t, r, "works_planned")+1, metric(t, r, "works"))
				continue
			}
			t.Logf("%-50s %-15s makespan %8.2f bound %8.2f deadline %8.2f load %.3f procs %v kept %v dropped %v coll %v tree %v wall %.1fms",
				filepath.Base(f), v.Name, metric(t, r, "makespan"), metric(t, r, "lower_bound"), metric(t, r, "deadline"),
				metric(t, r, "processor_load_deadline"), metric(t, r, "processors_used"), metric(t, r, "variants_kept"), metric(t, r, "variants_dropped"), metric(t, r, "collisions"),
				metric(t, r, "tree_nodes"), metric(t, r, "wall_ms"))
		}
	}
}

// TestEveryScheduleValid is the must-hold property: on many random DAGs
// (random shapes, processors, criteria, tree bounds) every variant's
// schedule keeps precedence with transfers, has no overlap and is not
// below the lower bound.
func TestEveryScheduleValid(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	complete := 0 // stopped runs, counted so the test sees both outcomes
	defer func() {
		if complete == 0 {
			t.Error("no run stopped: the stop is not exercised")
		}
	}()
	crits := []string{CriterionLoad, CriterionMakespan, CriterionCost}
	for i := range 300 {
		c := GenConfig{Tasks: 1 + rng.Intn(40), Density: rng.Float64(), VolMin: 0, VolMax: float64(1 + rng.Intn(100)),
			TransferMin: 0, TransferMax: float64(rng.Intn(80)), Processors: 1 + rng.Intn(5), PerfMin: 0.5, PerfMax: 0.5 + 4*rng.Float64()}
		c.Layers = 1 + rng.Intn(c.Tasks)
		g, err := Generate(c, rng)
		if err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 { // heterogeneous times matrix
			g.Times = make([][]float64, len(g.Tasks))
			for v := range g.Times {
				for range g.Processors {
					g.Times[v] = append(g.Times[v], float64(rng.Intn(30)))
				}
			}
		}
		cfg := DefaultRunConfig()
		cfg.Criterion = crits[i%3]
		cfg.TreeMaxNodes = 1 + rng.Intn(200)
		cfg.TreeMaxDepth = rng.Intn(6)
		cfg.DeadlineFactor = 1 + rng.Float64()
		cfg.CollisionProcessors = []string{CollisionNew, CollisionIdle}[i%2]
		for _, v := range []string{VariantCritical, VariantCriticalFallback, VariantHEFT, VariantList} {
			o, err := Solve(context.Background(), g, v, cfg, nil)
			if err != nil {
				t.Fatalf("instance %d %s: %v", i, v, err)
			}
			if !o.Complete {
				if v != VariantCritical || !o.Plan.Stopped {
					t.Fatalf("instance %d %s: no schedule without the paper's stop", i, v)
				}
				complete++
				continue
			}
			if err := CheckSchedule(o.D, o.Sched); err != nil {
				t.Fatalf("instance %d %s: %v", i, v, err)
			}
			lb := o.Bounds.Lower // over the processors used, scale-out's copies included
			if ms := o.Sched.Makespan(); ms < lb-1e-9*max(1, ms) {
				t.Fatalf("instance %d %s: makespan %v below the lower bound %v", i, v, ms, lb)
			}
			if v == VariantCritical && ms(o) > o.Deadline+tol(o.Deadline) {
				t.Fatalf("instance %d: the paper's variant ends at %v after its time frame %v", i, ms(o), o.Deadline)
			}
			if err := runReport(o).Validate(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	s := New()
	w1 := genWorkload(t, solvers.Params{"tasks": "60"}, 3)
	w2 := genWorkload(t, solvers.Params{"tasks": "60"}, 3)
	if string(w1.Data) != string(w2.Data) {
		t.Fatal("generation not deterministic")
	}
	for _, v := range s.Variants {
		r1, err := s.Run(context.Background(), w1, v.Name, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		r2, _ := s.Run(context.Background(), w2, v.Name, nil, nil)
		r1.Metrics = dropWall(r1.Metrics)
		r2.Metrics = dropWall(r2.Metrics)
		if !reflect.DeepEqual(r1, r2) {
			t.Errorf("%s: two runs differ", v.Name)
		}
	}
}

func dropWall(ms []report.Metric) []report.Metric {
	var out []report.Metric
	for _, m := range ms {
		if m.Name != "wall_ms" {
			out = append(out, m)
		}
	}
	return out
}

func TestNativeJSONRoundTrip(t *testing.T) {
	g := topcuoglu2002()
	data, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	w, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "t.json", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Format != "json" || string(w.Data) != string(data) {
		t.Errorf("round trip changed the data:\n%s\n%s", data, w.Data)
	}
	r, err := New().Run(context.Background(), w, VariantHEFT, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ms := metric(t, r, "makespan"); ms != 80 {
		t.Errorf("HEFT through the strategy: %v, want 80", ms)
	}
}

func TestBadInputs(t *testing.T) {
	ok := `{"tasks":[{"id":"a","volume":1},{"id":"b","volume":2}],"edges":[{"from":"a","to":"b","transfer":1}],"processors":[{"id":"P1","performance":1}]}`
	cases := []struct{ name, from, to, field string }{
		{"cycle", `"edges":[{"from":"a","to":"b","transfer":1}]`, `"edges":[{"from":"a","to":"b","transfer":1},{"from":"b","to":"a"}]`, "g.json edges"},
		{"self loop", `"edges":[{"from":"a","to":"b","transfer":1}]`, `"edges":[{"from":"a","to":"a"}]`, "g.json edges[0]"},
		{"unknown from", `"from":"a"`, `"from":"zz"`, "g.json edges[0].from"},
		{"unknown to", `"to":"b"`, `"to":"zz"`, "g.json edges[0].to"},
		{"negative volume", `"volume":2`, `"volume":-2`, "g.json tasks[1].volume"},
		{"negative transfer", `"transfer":1`, `"transfer":-1`, "g.json edges[0].transfer"},
		{"zero performance", `"performance":1`, `"performance":0`, "g.json processors[0].performance"},
		{"duplicate task", `{"id":"b","volume":2}`, `{"id":"a","volume":2}`, "g.json tasks[1].id"},
		{"no processors", `[{"id":"P1","performance":1}]`, `[]`, "g.json processors"},
		{"unknown field", `"volume":1}`, `"volume":1,"x":2}`, "g.json"},
		{"missing volume", `{"id":"a","volume":1}`, `{"id":"a"}`, "g.json tasks[0].volume"},
		{"times shape", `"processors"`, `"times":[[1]],"processors"`, "g.json times"},
		{"wrong type", `"volume":1`, `"volume":"x"`, "g.json tasks.volume"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(ok, c.from, c.to, 1)
			if src == ok {
				t.Fatal("edit did not apply")
			}
			_, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "g.json", Data: []byte(src)}})
			if err == nil {
				t.Fatal("accepted")
			}
			if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.field {
				t.Errorf("kind %v field %q, want Invalid %q: %v", errs.KindOf(err), errs.FieldOf(err), c.field, err)
			}
		})
	}
	if _, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "g.json", Data: []byte(ok)}}); err != nil {
		t.Fatal(err)
	}
	// WfFormat of an unsupported version through the strategy.
	_, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "wfformat", Name: "w.json", Data: []byte(`{"schemaVersion":"1.3","workflow":{}}`)}})
	if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "w.json schemaVersion" {
		t.Errorf("old WfFormat: %v (field %q)", err, errs.FieldOf(err))
	}
	// Parameters.
	w := genWorkload(t, nil, 1)
	for _, p := range []solvers.Params{{"criterion": "speed"}, {"bandwidth": "0"}, {"tree_max_nodes": "0"}, {"nope": "1"}} {
		if _, err := New().Run(context.Background(), w, "", p, nil); !errs.Is(err, errs.Invalid) {
			t.Errorf("params %v: %v", p, err)
		}
	}
	if _, err := New().Run(context.Background(), w, "dfs", nil, nil); !errs.Is(err, errs.Invalid) {
		t.Errorf("unknown variant: %v", err)
	}
	if _, err := New().Generate(context.Background(), PresetRandom, solvers.Params{"tasks": "20000", "layers": "2", "density": "1"}, 1); !errs.Is(err, errs.TooLarge) || errs.FieldOf(err) != "density" {
		t.Errorf("huge generation: %v", err)
	}
	if _, err := New().Generate(context.Background(), PresetRandom, solvers.Params{"vol_min": "5", "vol_max": "1"}, 1); !errs.Is(err, errs.Invalid) {
		t.Errorf("vol_min > vol_max: %v", err)
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := genWorkload(t, solvers.Params{"tasks": "200", "layers": "20"}, 1)
	if _, err := New().Run(ctx, w, VariantCritical, nil, nil); err == nil {
		t.Error("canceled run succeeded")
	}
}

func FuzzParseJSON(f *testing.F) {
	data, _ := topcuoglu2002().MarshalJSON()
	f.Add(data)
	f.Add([]byte(`{"tasks":[{"id":"a","volume":1}],"edges":[],"processors":[{"id":"P","performance":2}]}`))
	f.Add([]byte(`{"tasks":[{"id":"a","volume":1},{"id":"b","volume":1}],"edges":[{"from":"a","to":"b","bytes":1e6}],"processors":[{"id":"P","performance":2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseJSON(data)
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("kind %v: %v", k, err)
			}
			return
		}
		if len(g.Tasks) > 60 || len(g.Processors) > 8 {
			return
		}
		cfg := DefaultRunConfig()
		cfg.TreeMaxNodes = 50
		for _, v := range []string{VariantCritical, VariantHEFT, VariantList} {
			o, err := Solve(context.Background(), g, v, cfg, nil)
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			if err := runReport(o).Validate(); err != nil {
				t.Fatal(err)
			}
		}
		out, err := g.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseJSON(out); err != nil {
			t.Fatalf("canonical JSON does not parse back: %v\n%s", err, out)
		}
	})
}

func ExampleHEFT() {
	d := Prepare(topcuoglu2002(), 10)
	fmt.Println(HEFT(d).Makespan())
	// Output: 80
}

func TestTreeMemoryGuard(t *testing.T) {
	c := DefaultGenConfig()
	c.Tasks, c.Layers = 200, 200
	g, err := Generate(c, rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultRunConfig()
	cfg.TreeMaxNodes = 1_000_000
	_, err = Solve(context.Background(), g, VariantCritical, cfg, nil)
	if !errs.Is(err, errs.TooLarge) || errs.FieldOf(err) != "tree_max_nodes" {
		t.Errorf("got %v, want TooLarge on tree_max_nodes", err)
	}
}

// FuzzParseWorkloadWfFormat feeds WfFormat documents through the strategy:
// an error is Invalid or TooLarge, and an accepted workflow runs with every
// variant to a valid report.
func FuzzParseWorkloadWfFormat(f *testing.F) {
	f.Add([]byte(`{"name":"w","schemaVersion":"1.5","workflow":{"specification":{"tasks":[{"name":"a","id":"a","parents":[],"children":["b"],"outputFiles":["x"]},{"name":"b","id":"b","parents":["a"],"children":[],"inputFiles":["x"]}],"files":[{"id":"x","sizeInBytes":2000000}]},"execution":{"makespanInSeconds":3,"executedAt":"t","tasks":[{"id":"a","runtimeInSeconds":1},{"id":"b","runtimeInSeconds":2}]}}}`))
	f.Add([]byte(`{"schemaVersion":"1.4","workflow":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "wfformat", Name: "w.json", Data: data}})
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("kind %v: %v", k, err)
			}
			return
		}
		if err := w.Preview.Validate(); err != nil {
			t.Fatal(err)
		}
		g, err := ParseJSON(w.Data)
		if err != nil {
			t.Fatalf("canonical data does not parse: %v", err)
		}
		if len(g.Tasks) > 60 {
			return
		}
		for _, v := range []string{VariantCritical, VariantHEFT, VariantList} {
			r, err := New().Run(context.Background(), w, v, nil, nil)
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func ms(o *Outcome) float64 { return o.Sched.Makespan() }
