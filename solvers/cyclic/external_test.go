package cyclic

import (
	"context"
	"os"
	"strings"
	"testing"

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
