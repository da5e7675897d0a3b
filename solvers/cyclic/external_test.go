package cyclic

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"

	"schedlab/compare"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/batch"
	"schedlab/solvers/batsim"
	"schedlab/solvers/batsim/batsimtest"
	"schedlab/solvers/formats"
)

func TestMain(m *testing.M) {
	batsimtest.Main() // the test binary as a fake decision process, when asked
	os.Exit(m.Run())
}

// kthWorkload is the first n jobs of KTH SP2 (at most 2,000) as s reads
// them, and the file's bytes: its header and those jobs' lines.
func kthWorkload(t *testing.T, s *solvers.Strategy, n int) (*solvers.Workload, []byte) {
	t.Helper()
	all, err := os.ReadFile(kth2000)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, line := range bytes.SplitAfter(all, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte(";")) && len(bytes.TrimSpace(line)) > 0 {
			if n == 0 {
				break
			}
			n--
		}
		data = append(data, line...)
	}
	w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	return w, data
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
	for _, v := range s.Variants {
		names = append(names, v.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "batch external:fake external:crashy") {
		t.Fatalf("variants %v lack the registered schedulers after batch", names)
	}
	w, _ := kthWorkload(t, s, 400)
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
	metric := func(r *report.Report, name string) float64 {
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
	w, _ := kthWorkload(t, plain, 400)
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
	res := compare.Join(runs, []*report.Report{built, byExt})
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

// TestExternalRunWithRejectedAndKilledJobsHasBatsimFiles: an external run
// whose decision process rejects jobs and kills one writes Batsim's
// _jobs.csv with every trace job (the first 400 of KTH SP2): the rejected ones REJECTED with empty
// times (left out of the report's metrics, counted in jobs_rejected),
// the killed one COMPLETED_KILLED ending at its kill, before its
// runtime was over; _schedule.csv counts them as Batsim does.
func TestExternalRunWithRejectedAndKilledJobsHasBatsimFiles(t *testing.T) {
	s := WithSchedulers([]batsim.Scheduler{{Name: "rk", Command: batsimtest.Command(batsimtest.Reject, 5)}})
	w, data := kthWorkload(t, s, 400)
	rep, err := s.Run(context.Background(), w, "external:rk", solvers.Params{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatal(err)
	}
	metric := map[string]float64{}
	for _, m := range rep.Metrics {
		metric[m.Name] = m.Value
	}
	var jobsCSV, schedCSV bytes.Buffer
	if err := report.WriteBatsimFiles(rep, report.BatsimRunOf(rep), &jobsCSV, &schedCSV); err != nil {
		t.Fatalf("Batsim files of a run with rejected and killed jobs: %v", err)
	}
	rows, err := csv.NewReader(&jobsCSV).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	rows = rows[1:]
	trace, err := formats.ReadSWF("kth.swf", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(trace.Jobs) || len(rows) != 400 {
		t.Fatalf("_jobs.csv has %d jobs, the trace %d", len(rows), len(trace.Jobs))
	}
	rejected, killed, runtimes := 0, 0, map[string]float64{}
	for _, j := range trace.Jobs {
		runtimes[strconv.Itoa(j.ID)] = j.Run
	}
	for _, r := range rows {
		n, _ := strconv.Atoi(r[col["job_id"]])
		switch r[col["final_state"]] {
		case report.BatsimRejected:
			rejected++
			if n%7 != 0 || r[col["starting_time"]] != "" || r[col["success"]] != "0" {
				t.Errorf("rejected row %v: the fake rejects multiples of 7, and Batsim writes no times", r)
			}
		case report.BatsimKilled:
			killed++
			exec, _ := strconv.ParseFloat(r[col["execution_time"]], 64)
			if exec >= runtimes[r[col["job_id"]]] {
				t.Errorf("killed job %s ran %v s, its whole runtime %v: it should end at its kill", r[0], exec, runtimes[r[0]])
			}
		default:
			if n%7 == 0 {
				t.Errorf("job %d ran; the fake rejects it", n)
			}
		}
		if r[col["workload_name"]] != "w0" || r[col["profile"]] != "p"+r[col["job_id"]] {
			t.Errorf("job %s: workload %q profile %q, want w0 and the process's profile p%s", r[0], r[col["workload_name"]], r[col["profile"]], r[0])
		}
	}
	if rejected == 0 || float64(rejected) != metric["jobs_rejected"] || killed != 1 {
		t.Fatalf("%d rejected (metric %v), %d killed: want the metric's count and one kill", rejected, metric["jobs_rejected"], killed)
	}
	if float64(len(trace.Jobs)-rejected) != metric["jobs"] {
		t.Errorf("metric jobs %v, want the %d jobs not rejected", metric["jobs"], len(trace.Jobs)-rejected)
	}
	sched := strings.Split(strings.TrimSpace(schedCSV.String()), "\n")
	keys, vals := strings.Split(sched[0], ","), strings.Split(sched[1], ",")
	got := map[string]string{}
	for i, k := range keys {
		got[k] = vals[i]
	}
	if got["nb_jobs"] != strconv.Itoa(len(trace.Jobs)) || got["nb_jobs_rejected"] != strconv.Itoa(rejected) || got["nb_jobs_finished"] != strconv.Itoa(len(trace.Jobs)-rejected) {
		t.Errorf("_schedule.csv counts: %v", got)
	}
}

// TestExternalBatsimTableOfKillAndRequeue: the kill-and-requeue schedule
// worked by hand in package batsim (TestKillAndRequeueSchedule), with a
// power model of 200 W computing, as _jobs.csv lines: w0!1 killed at 3
// after 3 s on 2 hosts (1,200 J), w0!2 on 0-3 from 3 to 8 (4,000 J), job
// 99 rejected, then the registered jobs under their own workloads: dyn!x
// (workload dyn, job x, profile d7) and w0!1#1 (workload w0, job 1#1)
// with the metadata the process set.
func TestExternalBatsimTableOfKillAndRequeue(t *testing.T) {
	jobs := []batch.Job{{ID: 1, Submit: 0, Size: 2, Estimate: 20, Run: 10}, {ID: 2, Submit: 0, Size: 4, Estimate: 5, Run: 5}, {ID: 99, Submit: 100, Size: 1, Estimate: 1, Run: 1}}
	out := &batsim.Outcome{
		Result:   &batch.Result{Placements: []batch.Placement{{Start: 0, End: 3, Procs: []int{0, 1}}, {Start: 3, End: 8, Procs: []int{0, 1, 2, 3}}, {}}},
		States:   []string{report.BatsimKilled, report.BatsimWalltime, report.BatsimRejected},
		Metadata: []string{"", "", ""},
		IDs:      []string{"w0!1", "w0!2", "w0!99"},
		Profiles: []string{"p1", "p2", "p99"},
		Dynamic: []batsim.DynamicJob{
			{ID: "dyn!x", Profile: "d7", Submit: 0, Size: 1, Walltime: -1, Placement: batch.Placement{Start: 8, End: 15, Procs: []int{0}}, State: report.BatsimSuccess},
			{ID: "w0!1#1", Profile: "p1", Submit: 3, Size: 2, Walltime: 20, Placement: batch.Placement{Start: 8, End: 18, Procs: []int{1, 2}}, State: report.BatsimSuccess, Metadata: "requeued from w0!1"},
		},
	}
	rep := &report.Report{Tables: []report.Table{externalBatsimTable(jobs, out, &batsim.Power{ComputeW: 200})}}
	var b bytes.Buffer
	if err := report.WriteBatsimFiles(rep, report.BatsimRun{Machines: 4}, &b, nil); err != nil {
		t.Fatal(err)
	}
	want := "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time," +
		"execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata\n" +
		`1,w0,p1,0.000000,2,20.000000,0,COMPLETED_KILLED,0.000000,3.000000,3.000000,0.000000,3.000000,1.000000,0-1,1200.000000,""` + "\n" +
		`2,w0,p2,0.000000,4,5.000000,0,COMPLETED_WALLTIME_REACHED,3.000000,5.000000,8.000000,3.000000,8.000000,1.600000,0-3,4000.000000,""` + "\n" +
		`99,w0,p99,100.000000,1,1.000000,0,REJECTED,,,,,,,,,""` + "\n" +
		`x,dyn,d7,0.000000,1,-1.000000,1,COMPLETED_SUCCESSFULLY,8.000000,7.000000,15.000000,8.000000,15.000000,2.142857,0,1400.000000,""` + "\n" +
		`1#1,w0,p1,3.000000,2,20.000000,1,COMPLETED_SUCCESSFULLY,8.000000,10.000000,18.000000,5.000000,15.000000,1.500000,1-2,4000.000000,"requeued from w0!1"` + "\n"
	if b.String() != want {
		t.Errorf("_jobs.csv:\n%s\nworked out by hand:\n%s", b.String(), want)
	}
}
