package dcop

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

var allMetrics = []string{"makespan", "optimal_makespan", "optimal_proven", "accuracy", "width_before", "width_after",
	"max_util_entries_before", "max_util_entries_after", "max_util_bytes_before", "max_util_bytes_after", "entry_bytes",
	"back_edges_deleted", "edges_cut", "message_cycles", "messages", "total_bytes", "wall_ms",
	"paper_mb_before", "paper_mb_after", "message_cycles_full"}

func genWorkload(t *testing.T, jobs int, seed int64) *solvers.Workload {
	t.Helper()
	w, err := New().Generate(context.Background(), PresetNamekata2008, solvers.Params{"jobs": itoa(jobs)}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// checkGantt fails unless every bar is inside [0, horizon) and no two bars
// of different jobs overlap on one lane.
func checkGantt(t *testing.T, g report.Gantt, horizon int, wantJobs int) {
	t.Helper()
	jobs := map[string]bool{}
	for i, a := range g.Bars {
		jobs[a.Group] = true
		if a.Start < 0 || a.End > float64(horizon) || a.End <= a.Start {
			t.Errorf("bar %d (%s) [%v, %v) outside [0, %d)", i, a.Label, a.Start, a.End, horizon)
		}
		for j := i + 1; j < len(g.Bars); j++ {
			b := g.Bars[j]
			if a.Lane == b.Lane && a.Group != b.Group && a.Start < b.End && b.Start < a.End {
				t.Errorf("bars %s [%v,%v) and %s [%v,%v) overlap on lane %s", a.Label, a.Start, a.End, b.Label, b.Start, b.End, g.Lanes[a.Lane])
			}
		}
	}
	if len(jobs) != wantJobs {
		t.Errorf("gantt shows %d jobs, want %d", len(jobs), wantJobs)
	}
}

func TestStrategyRunEveryVariant(t *testing.T) {
	s := New()
	w := genWorkload(t, 10, 7)
	if !strings.HasPrefix(w.Summary, "10 jobs, 15 resources, horizon 20") {
		t.Errorf("summary %q", w.Summary)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(w.Preview.Graphs) != 1 || w.Preview.Graphs[0].Layout != "force" || w.Preview.Table("Resources × jobs") == nil {
		t.Errorf("preview lacks the constraint graph or the resources × jobs table")
	}
	for _, v := range s.Variants {
		t.Run(v.Name, func(t *testing.T) {
			r, err := s.Run(context.Background(), w, v.Name, solvers.Params{"width_limit": "2"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, m := range allMetrics {
				if _, ok := r.Metric(m); !ok {
					t.Errorf("metric %s missing", m)
				}
			}
			ms, _ := r.Metric("makespan")
			opt, _ := r.Metric("optimal_makespan")
			acc, _ := r.Metric("accuracy")
			if ms.Value < 1 || opt.Value < 1 || opt.Value > ms.Value || acc.Value <= 0 || acc.Value > 1 {
				t.Errorf("makespan %v optimal %v accuracy %v", ms.Value, opt.Value, acc.Value)
			}
			if v.Name == VariantDPOP && ms.Value != opt.Value {
				t.Errorf("full DPOP makespan %v ≠ optimum %v", ms.Value, opt.Value)
			}
			if v.Name == VariantWD {
				if wa, _ := r.Metric("width_after"); wa.Value > 2 {
					t.Errorf("width after WD %v > 2", wa.Value)
				}
			}
			if len(r.Gantts) != 1 || r.Gantts[0].Title != "Schedule" {
				t.Fatalf("want one Gantt titled Schedule, got %d", len(r.Gantts))
			}
			checkGantt(t, r.Gantts[0], 20, 10)
			end := 0.0
			for _, b := range r.Gantts[0].Bars {
				end = max(end, b.End)
			}
			if end != ms.Value {
				t.Errorf("gantt ends at %v, makespan %v", end, ms.Value)
			}
			if len(r.Graphs) != 1 || r.Graphs[0].Layout != "tree" {
				t.Fatalf("want one tree-layout graph")
			}
			for _, e := range r.Graphs[0].Edges {
				if e.Kind != "tree" && e.Kind != "back" && e.Kind != "deleted" {
					t.Errorf("edge kind %q", e.Kind)
				}
			}
			nodes := r.Table("Pseudo-tree nodes")
			if nodes == nil || !reflect.DeepEqual(nodes.Columns, []string{"node", "parent", "separator", "sep_size", "util_entries", "util_bytes"}) || len(nodes.Rows) != 10 {
				t.Errorf("per-node table %+v", nodes)
			}
			if r.Table("Before and after") == nil {
				t.Errorf("before/after table missing")
			}
		})
	}
}

func TestStrategyLoneJobGantt(t *testing.T) {
	w, err := New().ParseWorkload(context.Background(), []solvers.File{{Name: "one.json", Data: []byte(`{"horizon":10,"resources":["A","B"],"jobs":[{"id":"J","resources":["A","B"],"duration":3}]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New().Run(context.Background(), w, VariantDPOP, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := r.Metric("makespan"); ms.Value != 3 {
		t.Errorf("makespan %v, want 3", ms.Value)
	}
	want := []report.Bar{{Lane: 0, Start: 0, End: 3, Label: "J", Group: "J", Kind: "job"}, {Lane: 1, Start: 0, End: 3, Label: "J", Group: "J", Kind: "job"}}
	if !reflect.DeepEqual(r.Gantts[0].Bars, want) {
		t.Errorf("bars %+v", r.Gantts[0].Bars)
	}
}

func TestStrategyDeterministic(t *testing.T) {
	w := genWorkload(t, 20, 3)
	p := solvers.Params{"wd_rule": RuleBalanced, "width_limit": "3"}
	a, err := New().Run(context.Background(), w, VariantWD, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New().Run(context.Background(), w, VariantWD, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Gantts, b.Gantts) || !reflect.DeepEqual(a.Tables, b.Tables) {
		t.Error("two runs differ")
	}
}

func TestStrategyBadParams(t *testing.T) {
	s := New()
	w := genWorkload(t, 8, 1)
	cases := []struct {
		variant string
		p       solvers.Params
		field   string
	}{
		{VariantWD, solvers.Params{"width_limit": "0"}, "width_limit"},
		{VariantWD, solvers.Params{"wd_rule": "nope"}, "wd_rule"},
		{VariantDPOP, solvers.Params{"objective": "speed"}, "objective"},
		{VariantDPOP, solvers.Params{"memory_mb": "-1"}, "memory_mb"},
		{VariantExact, solvers.Params{"time_limit_s": "x"}, "time_limit_s"},
		{VariantExact, solvers.Params{"objective": "value"}, "objective"},
		{VariantDPOP, solvers.Params{"bogus": "1"}, "bogus"},
		{"nope", nil, "variant"},
	}
	for _, c := range cases {
		_, err := s.Run(context.Background(), w, c.variant, c.p, nil)
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%s %v: err %v (field %q), want invalid %s", c.variant, c.p, err, errs.FieldOf(err), c.field)
		}
	}
	for name, v := range map[string]string{"jobs": "0", "dur_max": "x", "horizon": "-3"} {
		_, err := s.Generate(context.Background(), PresetNamekata2008, solvers.Params{name: v}, 1)
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != name {
			t.Errorf("generate %s=%s: %v", name, v, err)
		}
	}
	if _, err := s.Generate(context.Background(), "nope", nil, 1); errs.FieldOf(err) != "preset" {
		t.Errorf("unknown preset: %v", err)
	}
	_, err := s.ParseWorkload(context.Background(), []solvers.File{{Name: "w.json", Data: []byte(`{"horizon":5,"resources":["A"],"jobs":[{"id":"J","resources":["B"],"duration":1}]}`)}})
	if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "w.json jobs[0].resources" {
		t.Errorf("unknown resource: %v", err)
	}
}

func TestStrategyMemoryGuardAndCancel(t *testing.T) {
	w := genWorkload(t, 30, 2)
	_, err := New().Run(context.Background(), w, VariantDPOP, solvers.Params{"memory_mb": "1"}, nil)
	if !errs.Is(err, errs.TooLarge) {
		t.Errorf("full DPOP on 30 jobs with 1 MB: %v, want too large", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = New().Run(ctx, w, VariantWD, solvers.Params{"wd_rule": RuleBalanced}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("canceled run: %v", err)
	}
}

func TestValueObjective(t *testing.T) {
	w := genWorkload(t, 8, 5)
	r, err := New().Run(context.Background(), w, VariantWD, solvers.Params{"objective": "value", "width_limit": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if v, ok := r.Metric("value"); !ok || v.Value <= 0 {
		t.Errorf("value %v", v)
	}
	checkGantt(t, r.Gantts[0], 20, len(r.Gantts[0].Bars)/2)
}

func TestReproduceOneInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 4 instances with DPOP and the exact solver")
	}
	r, err := New().Reproduce(context.Background(), solvers.Params{"instances": "1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	t1 := r.Table("Table 1")
	t2 := r.Table("Table 2")
	for _, tb := range []*report.Table{t1, t2} {
		if tb == nil || len(tb.Rows) != 4 {
			t.Fatalf("table %+v", tb)
		}
		for _, c := range []string{"before_mb", "after_mb", "before_mb_actual", "after_mb_actual", "width_before", "width_before_min", "width_before_median", "width_before_max", "width_after", "width_after_min", "width_after_median", "width_after_max"} {
			if !slices.Contains(tb.Columns, c) {
				t.Errorf("%s lacks column %s", tb.Title, c)
			}
		}
	}
	// The seed's accounting: width w at d = 20 is 20^w × 4 B in MiB.
	col := func(tb *report.Table, c string) int { return slices.Index(tb.Columns, c) }
	for _, row := range t1.Rows {
		w := row[col(t1, "width_before_min")].(float64)
		if row[col(t1, "width_before_max")].(float64) == w && math.Abs(row[col(t1, "before_mb")].(float64)-PaperMB(int(w), 20)) > 1e-9*PaperMB(int(w), 20) {
			t.Errorf("before_mb %v for width %v", row[col(t1, "before_mb")], w)
		}
	}
	if got := t1.Rows[0][col(t1, "paper_width_before")].(float64); math.Abs(got-6.20) > 0.01 {
		t.Errorf("implied width of 4.4e2 MB %v, want 6.20", got)
	}
	acc := r.Table("Accuracy")
	if acc == nil || len(acc.Rows) != 4*(len(reproRules)+3) {
		t.Fatalf("Accuracy: %+v", acc)
	}
	claims := r.Table("Claims")
	if claims == nil || !reflect.DeepEqual(claims.Columns, []string{"claim", "paper", "ours", "verdict", "evidence"}) || len(claims.Rows) < 16+10 {
		t.Fatalf("Claims: %+v", claims)
	}
	for _, row := range claims.Rows {
		if v := row[3].(string); v != Holds && v != Partly && v != DoesNotHold && v != NotMeasured && v != report.Unverifiable && v != report.Inconclusive {
			t.Errorf("claim %v: verdict %q", row[0], v)
		}
	}
	if len(r.Series) != 4 || !r.Plot("UTIL size vs jobs").YLog || r.Plot("Accuracy vs deleted edges").Kind != "scatter" {
		t.Errorf("plots %d", len(r.Series))
	}
	t.Logf("notes: %s", strings.Join(r.Notes, "\n"))
	for _, tb := range r.Tables {
		t.Logf("%s %v %v", tb.Title, tb.Columns, tb.Rows)
	}
}
