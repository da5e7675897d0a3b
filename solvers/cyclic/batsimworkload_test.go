package cyclic

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/solvers"
)

func readBatsimTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../formats/testdata/batsim/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBatsimWorkloadRunsAsATrace: a Batsim workload uploaded with its
// platform runs under EASY with the schedule worked out by hand, and
// its Batsim _jobs.csv says so. four_jobs.json on 4 hosts of 1 Gflop/s:
// job 1 (2 hosts, delay 10, walltime 100) runs 0–10 on 0-1; job 2 (4
// hosts, 2e10 flops each: 20 s) waits, reserved at the shadow time job
// 1's walltime gives, 100; job 3 (2 hosts, delay 10, walltime 5) ends by
// then and is backfilled at 2 on 2-3, cut at its walltime at 7; job 4 (1
// host, composed: 2 × (1 s + 4e9 flops) = 10 s, no walltime: its runtime
// is its estimate) is backfilled at 7 on 2 and ends at 17; job 2 starts
// then, 17–37 on 0-3. Job 4 is marked COMPLETED_WALLTIME_REACHED: its
// requested time in the report is the runtime batch planned it with
// (package doc: a difference from Batsim, which would write -1 and
// success).
func TestBatsimWorkloadRunsAsATrace(t *testing.T) {
	s := New()
	files := []solvers.File{
		{Field: "batsim", Name: "four_jobs.json", Data: readBatsimTestdata(t, "four_jobs.json")},
		{Field: "platform", Name: "platform_4x1Gf.xml", Data: readBatsimTestdata(t, "platform_4x1Gf.xml")},
	}
	w, err := s.ParseWorkload(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if w.Format != FormatSWF || !strings.Contains(w.Summary, "Batsim workload: 4 jobs, 4 processors") {
		t.Fatalf("workload %s %q", w.Format, w.Summary)
	}
	rep, err := s.Run(context.Background(), w, VariantBatch, solvers.Params{"policy": "easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report.WriteBatsimFiles(rep, report.BatsimRunOf(rep), &out, nil); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{ // job_id, starting_time, finish_time, allocated_resources, final_state
		{"1", "0.000000", "10.000000", "0-1", "COMPLETED_SUCCESSFULLY"},
		{"2", "17.000000", "37.000000", "0-3", "COMPLETED_SUCCESSFULLY"},
		{"3", "2.000000", "7.000000", "2-3", "COMPLETED_WALLTIME_REACHED"},
		{"4", "7.000000", "17.000000", "2", "COMPLETED_WALLTIME_REACHED"},
	}
	if len(recs) != 5 {
		t.Fatalf("%d lines: %v", len(recs), recs)
	}
	for i, wnt := range want {
		r := recs[1+i]
		got := []string{r[0], r[8], r[10], r[14], r[7]}
		if strings.Join(got, "|") != strings.Join(wnt, "|") {
			t.Errorf("job %s: %v, want %v", wnt[0], got, wnt)
		}
	}
	// The same workload without its platform: the flops cannot be timed.
	if _, err := s.ParseWorkload(context.Background(), files[:1]); err == nil || !strings.Contains(err.Error(), "homogeneous20s") || !strings.Contains(err.Error(), "platform") {
		t.Errorf("without the platform: %v", err)
	}
	// A platform alone, or a workload found by its content on the command line.
	if _, err := s.ParseWorkload(context.Background(), files[1:]); err == nil || !strings.Contains(err.Error(), "Batsim workload") {
		t.Errorf("platform alone: %v", err)
	}
	cli := []solvers.File{{Name: "four_jobs.json", Data: files[0].Data}, {Name: "p.xml", Data: files[1].Data}}
	if w2, err := s.ParseWorkload(context.Background(), cli); err != nil || string(w2.Data) != string(w.Data) {
		t.Errorf("the command line's files: %v", err)
	}
}
