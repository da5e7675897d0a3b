package report

import (
	"bytes"
	"strings"
	"testing"

	"schedlab/errs"
)

// batsimReport is a report with a Batsim jobs table of three jobs on 4
// machines, worked by hand: job 1 on 0-1 from 0 to 10 (asked 20), job 2
// on 2 from 5 to 8 (asked 3: its walltime), job 3 on 0-3 from 10 to 12.
func batsimReport() *Report {
	cols := []string{"job_id", "submission_time", "requested_number_of_resources", "requested_time",
		"starting_time", "execution_time", "finish_time", "waiting_time", "turnaround_time", "stretch", "allocated_resources"}
	return &Report{
		Metrics: []Metric{{Name: "processors", Value: 4}, {Name: "wall_ms", Value: 1500}},
		Tables: []Table{{Title: "other", Columns: []string{"x"}}, {Title: BatsimJobsTable, Columns: cols, Rows: [][]any{
			{1, 0.0, 2, 20.0, 0.0, 10.0, 10.0, 0.0, 10.0, 1.0, "0-1"},
			{2, 5.0, 1, 3.0, 5.0, 3.0, 8.0, 0.0, 3.0, 1.0, "2"},
			{3, 6.0, 4, 100.0, 10.0, 2.0, 12.0, 4.0, 6.0, 3.0, "0-3"},
		}}},
	}
}

func TestBatsimFilesByHand(t *testing.T) {
	rep := batsimReport()
	var jobs, sched bytes.Buffer
	if err := WriteBatsimFiles(rep, BatsimRunOf(rep), &jobs, &sched); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(batsimJobColumns, ",") + "\n" +
		`1,w0,delay,0.000000,2,20.000000,1,COMPLETED_SUCCESSFULLY,0.000000,10.000000,10.000000,0.000000,10.000000,1.000000,0-1,-1.000000,""` + "\n" +
		`2,w0,delay,5.000000,1,3.000000,0,COMPLETED_WALLTIME_REACHED,5.000000,3.000000,8.000000,0.000000,3.000000,1.000000,2,-1.000000,""` + "\n" +
		`3,w0,delay,6.000000,4,100.000000,1,COMPLETED_SUCCESSFULLY,10.000000,2.000000,12.000000,4.000000,6.000000,3.000000,0-3,-1.000000,""` + "\n"
	if jobs.String() != want {
		t.Errorf("_jobs.csv:\n%s\nwant:\n%s", jobs.String(), want)
	}
	lines := strings.Split(strings.TrimSpace(sched.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("_schedule.csv: %q", sched.String())
	}
	keys, vals := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	got := map[string]string{}
	for i, k := range keys {
		got[k] = vals[i]
	}
	// Computing: 10×2 + 3×1 + 2×4 = 31. Idle, per machine from 0 to its
	// last end: m0 12−12, m1 12−12, m2 12−5, m3 12−2 → 17.
	for k, v := range map[string]string{
		"batsim_version": "schedlab", "makespan": "12.000000", "mean_waiting_time": "1.333333",
		"max_waiting_time": "4.000000", "max_slowdown": "3.000000", "mean_slowdown": "1.666667",
		"mean_turnaround_time": "6.333333", "max_turnaround_time": "10.000000",
		"nb_jobs": "3", "nb_jobs_finished": "3", "nb_jobs_success": "2", "nb_jobs_killed": "1", "nb_jobs_rejected": "0",
		"success_rate": "0.666667", "nb_computing_machines": "4", "time_computing": "31.000000", "time_idle": "17.000000",
		"simulation_time": "1.500000", "consumed_joules": "0.000000", "time_unavailable": "0.000000",
	} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if strings.Join(keys, ",") != "batsim_version,consumed_joules,makespan,max_slowdown,max_turnaround_time,max_waiting_time,mean_slowdown,mean_turnaround_time,mean_waiting_time,nb_computing_machines,nb_grouped_switches,nb_jobs,nb_jobs_finished,nb_jobs_killed,nb_jobs_rejected,nb_jobs_success,nb_machine_switches,scheduling_time,simulation_time,success_rate,time_computing,time_idle,time_sleeping,time_switching_off,time_switching_on,time_unavailable" {
		t.Errorf("schedule columns %s", lines[0])
	}
}

// A table that gives Batsim's own columns has them written: a rejected
// job with empty times, a profile, energy, metadata with a quote.
func TestBatsimFilesGivenColumns(t *testing.T) {
	rep := &Report{Tables: []Table{{Title: BatsimJobsTable,
		Columns: []string{"job_id", "submission_time", "requested_number_of_resources", "requested_time", "starting_time", "finish_time", "allocated_resources", "final_state", "profile", "consumed_energy", "metadata"},
		Rows: [][]any{
			{"a,b", 0.0, 1, 5.0, 0.0, 0.0, "", "REJECTED", "p1", 0.0, ""},
			{"c", 1.0, 1, 5.0, 1.0, 3.0, "3", "COMPLETED_KILLED", "p2", 12.5, `say "hi"`},
		}}}}
	var jobs, sched bytes.Buffer
	if err := WriteBatsimFiles(rep, BatsimRun{Workload: "mine", Version: "v"}, &jobs, &sched); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(jobs.String(), "\n")
	if lines[1] != `"a,b",mine,p1,0.000000,1,5.000000,0,REJECTED,,,,,,,,,""` ||
		lines[2] != `c,mine,p2,1.000000,1,5.000000,0,COMPLETED_KILLED,1.000000,2.000000,3.000000,0.000000,2.000000,1.000000,3,12.500000,"say ""hi"""` {
		t.Errorf("rows:\n%s", jobs.String())
	}
	if !strings.Contains(sched.String(), "\nv,") || !strings.Contains(sched.String(), ",2,1,1,1,0,") {
		t.Errorf("schedule: %s", sched.String()) // nb_jobs 2, finished 1, killed 1, rejected 1, success 0
	}
}

func TestBatsimTableRefusals(t *testing.T) {
	if _, err := BatsimTable(&Report{Tables: []Table{{Title: "Plan"}}}); errs.KindOf(err) != errs.NotFound {
		t.Errorf("no jobs table: %v", err)
	}
	rep := batsimReport()
	rep.Metrics = append(rep.Metrics, Metric{Name: "jobs_rejected", Value: 2})
	if _, err := BatsimTable(rep); errs.KindOf(err) != errs.Conflict || !strings.Contains(err.Error(), "rejected 2 jobs") {
		t.Errorf("rejected: %v", err)
	}
	rep = batsimReport()
	rep.Notes = []string{`Scheduled by the decision process "x" through Batsim's protocol (9 request-reply round trips): ... 0 jobs rejected (left out of the metrics), 3 killed.`}
	if _, err := BatsimTable(rep); errs.KindOf(err) != errs.Conflict || !strings.Contains(err.Error(), "killed 3 jobs") {
		t.Errorf("killed: %v", err)
	}
	rep.Notes = []string{`... 0 jobs rejected (left out of the metrics), 0 killed.`}
	if i, err := BatsimTable(rep); err != nil || i != 1 {
		t.Errorf("none killed: %d %v", i, err)
	}
	rep = batsimReport()
	rep.Tables[1].Rows[1][10] = "2-x"
	if err := WriteBatsimFiles(rep, BatsimRunOf(rep), &bytes.Buffer{}, nil); err == nil || !strings.Contains(err.Error(), "job 2: allocated_resources") {
		t.Errorf("bad interval set: %v", err)
	}
}
