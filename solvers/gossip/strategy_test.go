package gossip

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

var simMetrics = []string{"utilization", "wait_mean", "wait_p95", "rejects_per_job", "messages_per_node_per_period",
	"bytes_per_node_per_period", "rounds_to_converge", "final_informed", "staleness_mean_s", "wall_ms"}

func genWorkload(t testing.TB, params solvers.Params, seed int64) *solvers.Workload {
	t.Helper()
	s := New()
	p, err := solvers.Resolve(s.Presets[0].Params, params)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Generate(context.Background(), PresetUmeda2006, p, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestStrategyRunEveryVariant(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "120", "sites": "6", "nat_fraction": "0.1", "duration_h": "4"}, 3)
	if err := w.Preview.Validate(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w.Summary, "120 nodes in 6 sites (12 behind NAT)") {
		t.Errorf("summary %q", w.Summary)
	}
	for _, v := range s.Variants {
		r, err := s.Run(context.Background(), w, v.Name, solvers.Params{"gantt_nodes": "20", "schedulers": "2"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		want := simMetrics
		if v.Name == VariantRumor {
			want = []string{"rounds_to_converge", "final_informed", "messages_per_node_per_period", "bytes_per_node_per_period", "wall_ms"}
			p := r.Plot("Fraction informed vs round")
			if p == nil || len(p.Lines) != 2 || !p.Lines[1].Dashed {
				t.Errorf("rumor plot with a dashed theory line missing")
			}
		} else {
			for _, title := range []string{"Utilization over time", "Messages per node per period", "Bytes per node per period", "Staleness of records"} {
				if r.Plot(title) == nil {
					t.Errorf("%s: plot %q missing", v.Name, title)
				}
			}
			if len(r.Gantts) != 1 || len(r.Gantts[0].Lanes) != 20 || len(r.Gantts[0].Bars) == 0 {
				t.Errorf("%s: gantt %d lanes", v.Name, len(r.Gantts[0].Lanes))
			}
			if u, _ := r.Metric("utilization"); u.Value <= 0.3 || u.Value > 1 {
				t.Errorf("%s: utilization %v", v.Name, u.Value)
			}
		}
		for _, m := range want {
			if _, ok := r.Metric(m); !ok {
				t.Errorf("%s: metric %s missing", v.Name, m)
			}
		}
	}
}

func TestStrategyDeterministic(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "80", "duration_h": "3", "nat_fraction": "0.2"}, 9)
	w2 := genWorkload(t, solvers.Params{"nodes": "80", "duration_h": "3", "nat_fraction": "0.2"}, 9)
	if !reflect.DeepEqual(w.Data, w2.Data) {
		t.Fatal("generation not deterministic")
	}
	for _, v := range []string{VariantGossip, VariantCentral, VariantRumor} {
		p := solvers.Params{"schedulers": "3", "churn_per_h": "0.1", "mode": ModePushPull}
		a, err := s.Run(context.Background(), w, v, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Run(context.Background(), w2, v, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		strip := func(r *report.Report) []report.Metric {
			var out []report.Metric
			for _, m := range r.Metrics {
				if m.Name != "wall_ms" {
					out = append(out, m)
				}
			}
			return out
		}
		if !reflect.DeepEqual(strip(a), strip(b)) || !reflect.DeepEqual(a.Series, b.Series) || !reflect.DeepEqual(a.Gantts, b.Gantts) {
			t.Errorf("%s: two runs differ", v)
		}
	}
}

func TestParseWorkloadRoundTripAndErrors(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "30", "duration_h": "1"}, 2)
	w2, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "g.json", Data: w.Data}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w.Data, w2.Data) {
		t.Error("native JSON does not round-trip")
	}
	cases := []struct{ name, data, field string }{
		{"syntax", `{"grid": {"nodes": 3,}`, "bad.json"},
		{"unknown field", `{"grid": {"nodes": 3, "sites": 1}, "duration_s": 10, "jobs": [], "colour": 1}`, "bad.json"},
		{"type", "{\"grid\": {\"nodes\": \"x\"}}", "bad.json grid.nodes"},
		{"no nodes", `{"grid": {"nodes": 0, "sites": 1}, "duration_s": 10}`, "bad.json grid.nodes"},
		{"sites", `{"grid": {"nodes": 3, "sites": 4}, "duration_s": 10}`, "bad.json grid.sites"},
		{"nat all", `{"grid": {"nodes": 3, "sites": 1, "nat_fraction": 0.9}, "duration_s": 10}`, "bad.json grid.nat_fraction"},
		{"duration", `{"grid": {"nodes": 3, "sites": 1}, "duration_s": 0}`, "bad.json duration_s"},
		{"run", `{"grid": {"nodes": 3, "sites": 1}, "duration_s": 10, "jobs": [{"submit": 1, "run": 5}, {"submit": 2, "run": -1}]}`, "bad.json jobs[1].run"},
		{"submit", `{"grid": {"nodes": 3, "sites": 1}, "duration_s": 10, "jobs": [{"submit": -1, "run": 5}]}`, "bad.json jobs[0].submit"},
		{"trailing", `{"grid": {"nodes": 3, "sites": 1}, "duration_s": 10} {}`, "bad.json"},
	}
	for _, c := range cases {
		_, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "bad.json", Data: []byte(c.data)}})
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%s: got %v (field %q), want Invalid on %q", c.name, err, errs.FieldOf(err), c.field)
		}
		if (c.name == "syntax" || c.name == "type" || c.name == "trailing") && !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%s: %v does not give the line", c.name, err)
		}
		if c.name == "unknown field" && !strings.Contains(err.Error(), "colour") {
			t.Errorf("unknown field: %v does not name it", err)
		}
	}
	if _, err := s.ParseWorkload(context.Background(), nil); !errs.Is(err, errs.Invalid) {
		t.Errorf("no files: %v", err)
	}
	if _, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "etc", Name: "x.csv", Data: []byte("1")}}); !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "etc" {
		t.Errorf("unknown field: %v", err)
	}
}

func TestParamsValidated(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "20", "duration_h": "1"}, 2)
	for _, c := range []struct{ k, v string }{{"fanout", "0"}, {"mode", "pull"}, {"period_s", "x"}, {"bogus", "1"}, {"rescale_nodes", "-3"}} {
		_, err := s.Run(context.Background(), w, VariantGossip, solvers.Params{c.k: c.v}, nil)
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.k {
			t.Errorf("%s=%s: %v", c.k, c.v, err)
		}
	}
	if _, err := s.Run(context.Background(), w, "nope", nil, nil); !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "variant" {
		t.Errorf("variant: %v", err)
	}
	// more sites than nodes: the grid has min(sites, nodes) sites (so an
	// experiment can sweep nodes from 10 with the default 20 sites)
	if w5, err := s.Generate(context.Background(), PresetUmeda2006, solvers.Params{"nodes": "5", "sites": "9", "nat_fraction": "0", "load": "1", "job_min_s": "1800", "job_max_s": "3600", "duration_h": "1"}, 1); err != nil {
		t.Errorf("sites > nodes: %v", err)
	} else if in, err := loadWorkload(w5); err != nil || in.Grid.Sites != 5 {
		t.Errorf("sites > nodes: %v sites, %v", in.Grid.Sites, err)
	}
	if _, err := s.Generate(context.Background(), PresetUmeda2006, solvers.Params{"nodes": "5", "sites": "1", "nat_fraction": "0", "load": "1", "job_min_s": "3600", "job_max_s": "1800", "duration_h": "1"}, 1); errs.FieldOf(err) != "job_min_s" {
		t.Errorf("job_min_s > job_max_s: %v", err)
	}
	if _, err := s.Generate(context.Background(), "nope", nil, 1); errs.FieldOf(err) != "preset" {
		t.Errorf("preset: %v", err)
	}
	big := genWorkload(t, solvers.Params{"nodes": "30000", "duration_h": "0.01", "load": "0.01"}, 1)
	if _, err := s.Run(context.Background(), big, VariantGossip, solvers.Params{"memory_mb": "1024"}, nil); !errs.Is(err, errs.TooLarge) || errs.FieldOf(err) != "nodes" {
		t.Errorf("memory guard: %v", err)
	}
	if _, err := s.Run(context.Background(), w, VariantGossip, solvers.Params{"schedulers": "21"}, nil); errs.FieldOf(err) != "schedulers" {
		t.Errorf("too many schedulers: %v", err)
	}
}

func TestRunHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := genWorkload(t, solvers.Params{"nodes": "200", "duration_h": "24"}, 2)
	if _, err := New().Run(ctx, w, VariantGossip, nil, nil); err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestRescaleKeepsOfferedLoad(t *testing.T) {
	in := genInstance(t, 100, 0, 0.8, 5, 4)
	out := in.rescale(400)
	var w1, w2 float64
	for i := range in.Jobs {
		w1 += in.Jobs[i].Run
		w2 += out.Jobs[i].Run
	}
	l1 := w1 / (100 * in.DurationS)
	l2 := w2 / (400 * out.DurationS)
	if d := l1 - l2; d > 1e-9 || d < -1e-9 || out.Grid.Nodes != 400 {
		t.Errorf("load %v → %v", l1, l2)
	}
}

func TestSWFUpload(t *testing.T) {
	data, err := os.ReadFile("../formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseJSON(w.Data)
	if err != nil {
		t.Fatal(err)
	}
	if in.Trace == nil || in.Trace.Procs != 100 || in.Grid.Nodes != 100 || in.Trace.Jobs+in.Trace.Skipped != 2000 {
		t.Fatalf("trace %+v nodes %d", in.Trace, in.Grid.Nodes)
	}
	// the offered load on the grid equals the trace's own
	var work float64
	for _, j := range in.Jobs {
		work += j.Run
	}
	last := in.Jobs[len(in.Jobs)-1].Submit
	if got := work / (float64(in.Grid.Nodes) * last); got < in.Trace.Load*0.99 || got > in.Trace.Load*1.01 {
		t.Errorf("offered load %v, trace's %v", got, in.Trace.Load)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), w, VariantGossip, solvers.Params{"rescale_nodes": "300"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if gz, err := os.ReadFile("../formats/testdata/swf/NASA-iPSC-1993-3.1-cln.swf.gz"); err == nil {
		w, err := s.ParseWorkload(context.Background(), []solvers.File{{Name: "nasa.swf.gz", Data: gz}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(w.Summary, "128 nodes") {
			t.Errorf("NASA summary %q", w.Summary)
		}
	}
	_, err = s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "bad.swf", Data: []byte("; Version: 2\n1 0 0 10 1\n")}})
	if !errs.Is(err, errs.Invalid) || !strings.Contains(errs.FieldOf(err)+err.Error(), "bad.swf") {
		t.Errorf("bad swf: %v", err)
	}
	_, err = s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "empty.swf", Data: []byte("; Version: 2\n1 0 0 -1 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n")}})
	if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "empty.swf" {
		t.Errorf("no usable job: %v", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"grid": {"nodes": 3, "sites": 1}, "duration_s": 100, "jobs": [{"submit": 1, "run": 5}]}`))
	f.Add([]byte(`{"grid": {"nodes": 5, "sites": 2, "nat_fraction": 0.4, "access_ms": [0, 1]}, "duration_s": 1e3, "load": 1, "jobs": []}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseJSON(data)
		if err != nil {
			if errs.KindOf(err) != errs.Invalid && errs.KindOf(err) != errs.TooLarge {
				t.Fatalf("error without a kind: %v", err)
			}
			return
		}
		if in.Grid.Nodes > 2000 || len(in.Jobs) > 2000 {
			return
		}
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseJSON(b)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if !reflect.DeepEqual(in, again) {
			t.Fatalf("round trip differs")
		}
		nt := in.Grid.Build()
		if len(nt.reach) == 0 {
			t.Fatal("no reachable node")
		}
	})
}

func FuzzSWF(f *testing.F) {
	f.Add([]byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n2 5 0 20 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := FromSWF(context.Background(), "f.swf", data, 0)
		if err != nil {
			if errs.KindOf(err) != errs.Invalid && errs.KindOf(err) != errs.TooLarge {
				t.Fatalf("error without a kind: %v", err)
			}
			return
		}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

// smallReproduceParams are those of the reproduce TestReproduceSmall and
// the conformance suite check; smallReproduce runs it once for both, which
// neither may change.
var (
	smallReproduceParams = solvers.Params{"duration_h": "1", "warmup_h": "0.3", "reps": "2", "rumor_reps": "2", "max_nodes": "30", "fig9_nodes": "10"}
	smallReproduce       = sync.OnceValues(func() (*report.Report, error) {
		return New().Reproduce(context.Background(), smallReproduceParams, nil)
	})
)

func TestReproduceSmall(t *testing.T) {
	s := New()
	p := smallReproduceParams
	r, err := smallReproduce()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Fig 6", "Fig 7", "Fig 8", "Fig 9", "Table 1"} {
		if r.Table(title) == nil || r.Plot(title) == nil {
			t.Errorf("%s missing", title)
		}
	}
	t1 := r.Table("Table 1")
	if len(t1.Rows) != 4 || t1.Rows[0][2] != 0.939 || t1.Rows[1][2] != 0.941 || t1.Rows[2][2] != 0.967 || t1.Rows[3][2] != 0.970 || t1.Columns[2] != "paper_utilization" {
		t.Errorf("Table 1 %+v", t1)
	}
	rows := r.Table("Fig 7").Rows
	for _, row := range rows {
		if f := row[2].(float64); f < 0.95 {
			t.Errorf("Fig 7: final informed %v at NAT %v (the seed: drops only a little)", f, row[0])
		}
		if f, nat := row[4].(float64), row[0].(float64); f > 1-nat+0.0011 { // + the origin, which may be a NAT node
			t.Errorf("Fig 7: pure push informed %v with NAT %v: NAT nodes were contacted", f, nat)
		}
	}
	if first, last := rows[0][1].(float64), rows[len(rows)-1][1].(float64); !(last > first) {
		t.Errorf("Fig 7: rounds at NAT 0.9 (%v) not above NAT 0 (%v)", last, first)
	}
	if n := r.Notes[len(r.Notes)-1]; !strings.HasPrefix(n, "Table 1: ours") {
		t.Errorf("Table 1 comparison note missing: %q", n)
	}
	if r.Table("Seed setting") == nil {
		t.Error("Seed setting table missing")
	}
	again, err := s.Reproduce(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Tables, again.Tables) || !reflect.DeepEqual(r.Series, again.Series) {
		t.Error("two reproduces with the same seed differ")
	}
	if _, err := s.Reproduce(context.Background(), solvers.Params{"fig9_nodes": "a,b"}, nil); errs.FieldOf(err) != "fig9_nodes" {
		t.Errorf("fig9_nodes: %v", err)
	}
}

func TestGanttLanesChosenByTheUser(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "300", "duration_h": "3"}, 4)
	r, err := s.Run(context.Background(), w, VariantGossip, solvers.Params{"gantt_lanes": "290-299, 5, 7-8, 5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g := r.Gantts[0]
	if len(g.Lanes) != 13 || !strings.HasPrefix(g.Lanes[0], "node 290") || !strings.HasPrefix(g.Lanes[10], "node 5") || !strings.HasPrefix(g.Lanes[12], "node 8") {
		t.Fatalf("lanes %v", g.Lanes)
	}
	if len(g.Bars) == 0 {
		t.Error("no bars on the chosen lanes")
	}
	for _, b := range g.Bars {
		if b.Lane < 0 || b.Lane >= len(g.Lanes) {
			t.Fatalf("bar on lane %d of %d", b.Lane, len(g.Lanes))
		}
	}
	r2, err := s.Run(context.Background(), w, VariantCentral, solvers.Params{"gantt_lanes": "random", "gantt_nodes": "40"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r2.Gantts[0].Lanes); n != 40 {
		t.Errorf("random sample: %d lanes", n)
	}
	for _, bad := range []string{"300", "a-b", "9-3", "-1", "0-1000", ","} {
		if _, err := s.Run(context.Background(), w, VariantGossip, solvers.Params{"gantt_lanes": bad}, nil); !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "gantt_lanes" {
			t.Errorf("gantt_lanes=%q: %v", bad, err)
		}
	}
}

func FuzzGanttLanes(f *testing.F) {
	for _, s := range []string{"", "random", "0-19,500", "3,3,2-4", "9-3", "a", "0-999999999"} {
		f.Add(s, 1000, 50)
	}
	f.Fuzz(func(t *testing.T, v string, n, size int) {
		if n < 1 || n > 5000 || size < 0 || size > 1000 {
			return
		}
		lanes, err := ganttLanes(v, n, size, 1)
		if err != nil {
			if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "gantt_lanes" {
				t.Fatalf("%q: %v", v, err)
			}
			return
		}
		seen := map[int]bool{}
		for _, i := range lanes {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("%q: lane %d (n %d, dup %v)", v, i, n, seen[i])
			}
			seen[i] = true
		}
		if len(lanes) > maxLanes {
			t.Fatalf("%q: %d lanes", v, len(lanes))
		}
	})
}
