package cyclic

import (
	"context"
	"os"
	"strings"
	"testing"

	"schedlab/compare"
	"schedlab/solvers"
	"schedlab/solvers/batsim"
	"schedlab/solvers/batsim/batsimtest"
)

func TestMain(m *testing.M) {
	batsimtest.Main() // the test binary as a fake decision process, when asked
	os.Exit(m.Run())
}

// TestExternalVariantRunsLikeBatchAndABadOneFailsOnlyItsRun: registered
// decision processes are variants external:NAME; the fake FCFS's report
// is the built-in fcfs's (same metrics, same per-job table); one that
// crashes mid-run fails its run naming the message, and the next run of
// the good one still works.
func TestExternalVariantRunsLikeBatchAndABadOneFailsOnlyItsRun(t *testing.T) {
	s := WithSchedulers([]batsim.Scheduler{
		{Name: "fake", Command: batsimtest.Command(batsimtest.FCFS, 0)},
		{Name: "crashy", Command: batsimtest.Command(batsimtest.Crash, 40)},
	})
	var names []string
	for _, v := range s.Variants() {
		names = append(names, v.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "batch external:fake external:crashy") {
		t.Fatalf("variants %v lack the registered schedulers after batch", names)
	}
	data, err := os.ReadFile(kth2000)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Run(context.Background(), w, VariantBatch, solvers.Params{"policy": "fcfs"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), w, "external:crashy", solvers.Params{}, nil); err == nil ||
		!strings.Contains(err.Error(), "external scheduler crashy") || !strings.Contains(err.Error(), "no reply to message 40") ||
		!strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("crashing decision process: error %v", err)
	}
	got, err := s.Run(context.Background(), w, "external:fake", solvers.Params{"gantt_span_h": "12"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	metric := func(r *solvers.Report, name string) float64 {
		for _, m := range r.Metrics {
			if m.Name == name {
				return m.Value
			}
		}
		t.Fatalf("no metric %s", name)
		return 0
	}
	for _, m := range []string{"wait_mean", "wait_p95", "bsld_mean", "utilization", "makespan", "jobs"} {
		if g, w := metric(got, m), metric(want, m); g != w {
			t.Errorf("%s: external fcfs %v, built-in fcfs %v", m, g, w)
		}
	}
	gr, err := got.Tables[0].AllRows()
	if err != nil {
		t.Fatal(err)
	}
	wr, err := want.Tables[0].AllRows()
	if err != nil {
		t.Fatal(err)
	}
	for i := range wr {
		for k := range wr[i] {
			if gr[i][k] != wr[i][k] {
				t.Fatalf("per-job row %d column %s: %v, built-in %v", i, got.Tables[0].Columns[k], gr[i][k], wr[i][k])
			}
		}
	}
	// Not on a slot domain.
	dom, err := s.Generate(context.Background(), PresetToporkov2014, solvers.Params{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), dom, "external:fake", solvers.Params{}, nil); err == nil || !strings.Contains(err.Error(), "SWF trace") {
		t.Fatalf("external variant on a slot domain: %v", err)
	}
}

// TestExternalAndBuiltInBatchAreRankedTogether: a built-in batch run made
// where no decision process is registered (a worker) and an external
// run of the same policy on the same trace measure utilization through one
// simulator: a compare ranks it for both, neither is set apart as
// "measured differently" (issue 42 item 1).
func TestExternalAndBuiltInBatchAreRankedTogether(t *testing.T) {
	ext := WithSchedulers([]batsim.Scheduler{{Name: "fake", Command: batsimtest.Command(batsimtest.FCFS, 0)}})
	plain := New()
	data, err := os.ReadFile(kth2000)
	if err != nil {
		t.Fatal(err)
	}
	w, err := plain.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	built, err := plain.Run(context.Background(), w, VariantBatch, solvers.Params{"policy": "fcfs"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byExt, err := ext.Run(context.Background(), w, "external:fake", solvers.Params{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := []compare.Run{{ID: "a", Strategy: "cyclic", WorkloadID: "w", Variant: VariantBatch, Params: map[string]string{"policy": "fcfs"}},
		{ID: "b", Strategy: "cyclic", WorkloadID: "w", Variant: "external:fake", Params: map[string]string{}}}
	res := compare.Join(runs, []*solvers.Report{built, byExt})
	found := false
	for _, m := range res.Metrics {
		if m.Name != "utilization" {
			continue
		}
		found = true
		if !m.Ranked || m.Apart[0] || m.Apart[1] || m.NA[0] || m.NA[1] {
			t.Fatalf("utilization: ranked %v, apart %v, n/a %v: want both runs ranked together", m.Ranked, m.Apart, m.NA)
		}
	}
	if !found {
		t.Fatal("no utilization in the compare")
	}
	drawn := false
	for _, b := range res.Bars {
		drawn = drawn || b.Metric == "utilization" && !b.Omit[0] && !b.Omit[1]
	}
	if !drawn {
		t.Fatal("utilization has no bar chart with both runs")
	}
}
