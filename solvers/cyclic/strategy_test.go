package cyclic

import (
	"context"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/claims"
)

func genWorkload(t *testing.T, params solvers.Params) *solvers.Workload {
	t.Helper()
	w, err := New().Generate(context.Background(), PresetToporkov2014, params, 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Fatalf("preview: %v", err)
	}
	return w
}

var runMetrics = []string{"n_alternatives", "start", "runtime", "finish", "cost", "processor_time", "failure_rate", "owners_income", "utilization", "jobs_planned", "jobs_postponed", "planned_start", "actual_start", "planned_runtime", "actual_runtime", "actual_processor_time", "start_plus_processor_time", "nodes", "wall_ms"}

func TestRunEveryVariant(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "12", "jobs": "8"})
	sawAlt := false
	for _, v := range s.VariantsFor(w.Format) {
		for _, shift := range []string{"false", "true"} {
			for _, strat := range Strategies() {
				p := solvers.Params{"cycles": "15", "shift": shift, "strategy": strat, "k": "3", "gantt_cycle": "2"}
				r, err := s.Run(context.Background(), w, v.Name, p, nil)
				if err != nil {
					t.Fatalf("%s shift=%s %s: %v", v.Name, shift, strat, err)
				}
				if err := r.Validate(); err != nil {
					t.Fatalf("%s shift=%s %s: %v", v.Name, shift, strat, err)
				}
				var names []string
				for _, m := range r.Metrics {
					names = append(names, m.Name)
				}
				if !reflect.DeepEqual(names, runMetrics) {
					t.Errorf("metrics %v", names)
				}
				wantG := 1
				if shift == "true" {
					wantG = 2
				}
				if len(r.Gantts) != wantG {
					t.Errorf("%s shift=%s: %d gantts", v.Name, shift, len(r.Gantts))
				}
				kinds := map[report.BarKind]bool{}
				for _, b := range r.Gantts[0].Bars {
					kinds[b.Kind] = true
				}
				if !kinds["local"] || !kinds[""] {
					t.Errorf("%s: gantt bar kinds %v", v.Name, kinds)
				}
				sawAlt = sawAlt || kinds["alt"]
			}
		}
	}
	if !sawAlt {
		t.Error("no unchosen alternative drawn (Kind alt) in any run")
	}
}

func TestRunDeterministic(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "10", "jobs": "6"})
	p := solvers.Params{"cycles": "30", "shift": "true", "k": "2"}
	a, err := s.Run(context.Background(), w, VariantFair, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Run(context.Background(), w, VariantFair, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Metrics, b.Metrics = a.Metrics[:len(a.Metrics)-1], b.Metrics[:len(b.Metrics)-1] // wall_ms
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs with the same seed differ")
	}
}

func TestRunBadParams(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "6", "jobs": "3"})
	for _, c := range []struct {
		p     solvers.Params
		field string
	}{
		{solvers.Params{"strategy": "fastest"}, "strategy"},
		{solvers.Params{"cycles": "5", "gantt_cycle": "6"}, "gantt_cycle"},
		{solvers.Params{"k": "0"}, "k"},
		{solvers.Params{"shift": "maybe"}, "shift"},
	} {
		_, err := s.Run(context.Background(), w, VariantCSS, c.p, nil)
		if errs.KindOf(err) != errs.Invalid {
			t.Errorf("%v: err %v", c.p, err)
		}
	}
	if _, err := s.Run(context.Background(), w, "nope", nil, nil); errs.KindOf(err) != errs.Invalid {
		t.Errorf("unknown variant: %v", err)
	}
	if _, err := s.Generate(context.Background(), "nope", nil, 1); errs.KindOf(err) != errs.Invalid {
		t.Errorf("unknown preset: %v", err)
	}
	if _, err := s.Generate(context.Background(), PresetToporkov2014, solvers.Params{"perf_min": "5", "perf_max": "3"}, 1); errs.KindOf(err) != errs.Invalid {
		t.Errorf("perf_max < perf_min: %v", err)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	a := genWorkload(t, nil)
	b := genWorkload(t, nil)
	if string(a.Data) != string(b.Data) {
		t.Error("Generate differs for one seed")
	}
	in, err := ParseJSON(a.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Nodes) != 24 || len(in.Jobs) != 20 || in.Interval != 600 {
		t.Errorf("toporkov2014 defaults: %d nodes, %d jobs, T %d", len(in.Nodes), len(in.Jobs), in.Interval)
	}
}

// smallReproduceParams are those of the small reproduce that
// TestReproduceSmall, TestPinnedReproduce and the conformance suite check:
// smallReproduce runs it once for the three (it is deterministic: its
// report is pinned), which none of them may change.
var (
	smallReproduceParams = solvers.Params{"cycles": "10", "flow_cycles": "10"}
	smallReproduce       = sync.OnceValues(func() (*report.Report, error) {
		return New().Reproduce(context.Background(), smallReproduceParams, nil)
	})
)

func TestReproduceSmall(t *testing.T) {
	r, err := smallReproduce()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for _, tb := range r.Tables {
		titles[tb.Title] = true
	}
	for _, p := range r.Series {
		titles[p.Title] = true
	}
	for _, want := range []string{"Table 1", "Table 2", "Fig 3", "Table 3", "Fig 4", "Fig 5", "Fig 6", "Fig 7", "Fig 8"} {
		if !titles[want] {
			t.Errorf("no %q in %v", want, titles)
		}
	}
	if r.Tables[0].Title != claims.Title || !reflect.DeepEqual(r.Tables[0].Columns, []string{"claim", "paper", "ours", "verdict", "evidence"}) {
		t.Fatalf("first table %q %v, want the Claims table", r.Tables[0].Title, r.Tables[0].Columns)
	}
	covered := map[string]bool{}
	for _, row := range r.Tables[0].Rows {
		switch row[3] {
		case Holds, Partly, DoesNotHold, NotMeasured, report.Unverifiable, report.Inconclusive:
		default:
			t.Errorf("claim %q: verdict %q", row[0], row[3])
		}
		claim := row[0].(string)
		for _, k := range []string{"Table 1", "Table 2", "Table 3", "Fig 3", "Fig 4", "Fig 5", "Fig 6", "Fig 7", "Fig 8", "Conclusion"} {
			if len(claim) >= len(k) && claim[:len(k)] == k {
				covered[k] = true
			}
		}
	}
	if len(covered) != 10 {
		t.Errorf("Claims cover %v", covered)
	}
	t1 := r.Tables[1]
	want := []string{"criterion", "n_alternatives", "paper_n_alternatives", "start", "paper_start", "runtime", "paper_runtime", "finish", "paper_finish", "cost", "paper_cost"}
	if t1.Title != "Table 1" || !reflect.DeepEqual(t1.Columns, want) || len(t1.Rows) != 5 {
		t.Errorf("Table 1: %v, %d rows", t1.Columns, len(t1.Rows))
	}
	if len(r.Series[0].Lines) != 3 || len(r.Series[0].Lines[0].Points) != 7 {
		t.Errorf("Fig 3 shape: %+v", r.Series[0])
	}
	for _, p := range r.Series {
		switch p.Title {
		case "Fig 4":
			if len(p.Lines) != 2 || len(p.Lines[0].Points) != 11 {
				t.Errorf("Fig 4: %d lines of %d points, want 2 of 11", len(p.Lines), len(p.Lines[0].Points))
			}
		case "Fig 5", "Fig 6", "Fig 7", "Fig 8":
			if len(p.Lines) != 4 || len(p.Lines[0].Points) != 8 {
				t.Errorf("%s: %d lines of %d points, want 4 methods of 8 node counts", p.Title, len(p.Lines), len(p.Lines[0].Points))
			}
		}
	}
	for _, tb := range r.Tables {
		if tb.Title != "Table 3" {
			continue
		}
		if !reflect.DeepEqual(tb.Columns[:5], []string{"method", "planned_runtime", "actual_runtime", "planned_start", "actual_start"}) || len(tb.Rows) != 3 {
			t.Fatalf("Table 3: %v, %d rows", tb.Columns, len(tb.Rows))
		}
		for _, row := range tb.Rows {
			plan, act := row[3].(float64), row[4].(float64)
			if row[0] == "backfill" && act >= plan || row[0] != "backfill" && act != plan {
				t.Errorf("Table 3 %s: planned start %v, actual %v (backfill re-plans earlier; css and fair keep their starts)", row[0], plan, act)
			}
			if rt := row[2].(float64) / row[1].(float64); rt > 0.8 {
				t.Errorf("Table 3 %s: actual/planned runtime %v with early completion", row[0], rt)
			}
		}
	}
}

// owner_price (Table 2's parameter) prices the node of median performance
// in every cycle: the run is the reproduce's Table 2 run on that instance,
// its owner_* metrics are that node's, and profit = price × load time.
func TestOwnerPrice(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "12", "jobs": "8"})
	in, err := loadWorkload(w)
	if err != nil {
		t.Fatal(err)
	}
	var loads []float64
	for _, price := range []string{"1", "30"} {
		r, err := s.Run(context.Background(), w, VariantFair, solvers.Params{"cycles": "40", "owner_price": price, "carry": "false"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		p, load, util, profit := metricOf(t, r, "owner_price"), metricOf(t, r, "owner_load_time"), metricOf(t, r, "owner_utilization"), metricOf(t, r, "owner_profit")
		if p != map[string]float64{"1": 1, "30": 30}[price] || load <= 0 && price == "1" {
			t.Fatalf("owner_price %s: price %v, load %v", price, p, load)
		}
		if math.Abs(profit-p*load) > 1e-6*max(1, profit) || math.Abs(util-load/float64(in.Interval)) > 1e-12 {
			t.Errorf("owner_price %s: profit %v, utilization %v for load %v", price, profit, util, load)
		}
		owner := table2Node(in)
		if m := metricOf(t, r, "owner_market_price"); m != in.Generator.basePrice(in.Nodes[owner].Perf) {
			t.Errorf("owner_market_price %v", m)
		}
		// the same as the reproduce's way: RunConfig on the repriced instance
		cp, o := withOwnerPrice(in, p)
		if o != owner || in.Nodes[owner].Price == p {
			t.Fatalf("withOwnerPrice changed its input or another node")
		}
		res, err := RunConfig(context.Background(), cp, SimConfig{Variant: VariantFair, Strategy: StratRuntime, K: 1, Cycles: 40, GanttCycle: 1, Seed: in.Generator.Seed, Independent: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := ownerOf(cp, res, owner).load; got != load {
			t.Errorf("owner_price %s: load %v, the reproduce's way %v", price, load, got)
		}
		loads = append(loads, load)
	}
	if loads[1] >= loads[0] {
		t.Errorf("a node 30× dearer kept its load: %v", loads)
	}
	// a trace has no owners' nodes: a clear error naming the field
	tw, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: readKTH(t)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), tw, VariantFair, solvers.Params{"owner_price": "5"}, nil); errs.FieldOf(err) != "owner_price" {
		t.Errorf("owner_price on a trace: %v", err)
	}
	// no owner_* metrics without it
	r, err := s.Run(context.Background(), w, VariantFair, solvers.Params{"cycles": "5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Metrics {
		if strings.HasPrefix(m.Name, "owner_") {
			t.Errorf("metric %s without owner_price", m.Name)
		}
	}
}
