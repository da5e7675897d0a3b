package batch

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"schedlab/report"
)

// batsimJobsHeader is Batsim 4.2.1's _jobs.csv header (src/export.cpp,
// JobsTracer::initialize), spelled out here rather than read from the
// code under test.
const batsimJobsHeader = "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata"

// TestBatsimJobsCSVOfKTHEasy: the _jobs.csv of an EASY run on the whole
// KTH trace, written from the report as stored (JSON and back, as the
// server reads it) and from the report in memory (the command line), has
// Batsim's header and, job by job, the starts, ends and allocations of
// the simulation and of the report's table; the _schedule.csv agrees
// with the report's metrics.
func TestBatsimJobsCSVOfKTHEasy(t *testing.T) {
	sj, err := FromSWF(readTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(t.Context(), sj.Jobs, sj.Procs, EASY, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := BuildReport(sj.Jobs, res, ReportOptions{}, sj.Skipped)
	var stored bytes.Buffer
	if err := rep.WriteJSON(&stored, false); err != nil {
		t.Fatal(err)
	}
	back, err := report.DecodeReport(stored.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*report.Report{"in memory": rep, "stored": back} {
		var jobs, sched bytes.Buffer
		if err := report.WriteBatsimFiles(r, report.BatsimRunOf(r), &jobs, &sched); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		recs, err := csv.NewReader(&jobs).ReadAll()
		if err != nil {
			t.Fatalf("%s: the _jobs.csv does not read as CSV: %v", name, err)
		}
		if got := strings.Join(recs[0], ","); got != batsimJobsHeader {
			t.Fatalf("%s: header %s", name, got)
		}
		if len(recs) != 1+len(sj.Jobs) {
			t.Fatalf("%s: %d lines for %d jobs", name, len(recs), len(sj.Jobs))
		}
		col := map[string]int{}
		for i, c := range recs[0] {
			col[c] = i
		}
		table := r.Tables[0]
		if table.Title != report.BatsimJobsTable {
			t.Fatalf("first table %q", table.Title)
		}
		rows, err := table.AllRows()
		if err != nil {
			t.Fatal(err)
		}
		walltime := 0
		for i, j := range sj.Jobs {
			rec, pl := recs[1+i], res.Placements[i]
			f := func(c string) float64 {
				v, err := strconv.ParseFloat(rec[col[c]], 64)
				if err != nil {
					t.Fatalf("%s: job %d: %s %q", name, j.ID, c, rec[col[c]])
				}
				return v
			}
			if rec[col["job_id"]] != strconv.Itoa(j.ID) || f("starting_time") != pl.Start || f("finish_time") != pl.End ||
				rec[col["allocated_resources"]] != Intervals(pl.Procs) {
				t.Fatalf("%s: job %d: CSV %v, simulation start %g end %g procs %v", name, j.ID, rec, pl.Start, pl.End, pl.Procs)
			}
			// And the report's own table, cell by cell.
			row := rows[i]
			num := func(k int) float64 { v, _ := row[k].(float64); return v }
			if num(4) != f("starting_time") || num(6) != f("finish_time") || row[10] != rec[col["allocated_resources"]] {
				t.Fatalf("%s: job %d: CSV %v, report row %v", name, j.ID, rec, row)
			}
			if rec[col["workload_name"]] != "w0" || rec[col["metadata"]] != "" || rec[col["consumed_energy"]] != "-1.000000" {
				t.Fatalf("%s: job %d: %v", name, j.ID, rec)
			}
			// Batsim's walltime rule for a delay profile: a run as long as
			// the request (or longer, cut at it) reached the walltime.
			want := "COMPLETED_SUCCESSFULLY"
			if pl.End-pl.Start >= j.Estimate {
				want = "COMPLETED_WALLTIME_REACHED"
				walltime++
			}
			if rec[col["final_state"]] != want || (rec[col["success"]] == "1") != (want == "COMPLETED_SUCCESSFULLY") {
				t.Fatalf("%s: job %d ran %g of %g requested: %v", name, j.ID, pl.End-pl.Start, j.Estimate, rec)
			}
		}
		if walltime < res.Capped {
			t.Errorf("%d jobs reached their walltime, fewer than the %d capped", walltime, res.Capped)
		}
		s, err := csv.NewReader(&sched).ReadAll()
		if err != nil || len(s) != 2 {
			t.Fatalf("%s: _schedule.csv %v %v", name, s, err)
		}
		sv := map[string]string{}
		for i, c := range s[0] {
			sv[c] = s[1][i]
		}
		sum := Summarize(sj.Jobs, res)
		last := 0.0
		for _, pl := range res.Placements {
			last = max(last, pl.End)
		}
		if sv["nb_jobs"] != strconv.Itoa(len(sj.Jobs)) || sv["nb_computing_machines"] != strconv.Itoa(sj.Procs) ||
			sv["makespan"] != strconv.FormatFloat(last, 'f', 6, 64) ||
			sv["nb_jobs_success"] != strconv.Itoa(len(sj.Jobs)-walltime) || sv["nb_jobs_killed"] != strconv.Itoa(walltime) {
			t.Errorf("%s: schedule %v (jobs %d, P %d, last end %g)", name, sv, len(sj.Jobs), sj.Procs, last)
		}
		if w, err := strconv.ParseFloat(sv["mean_waiting_time"], 64); err != nil || math.Abs(w-sum.WaitMean) > 1e-6*max(1, sum.WaitMean) {
			t.Errorf("%s: mean_waiting_time %s, report's wait_mean %g", name, sv["mean_waiting_time"], sum.WaitMean)
		}
	}
}

// BenchmarkBatsimFilesKTH: writing both Batsim files of an EASY run on
// the whole KTH trace (28,000 jobs) from its stored report, as the
// server does.
func BenchmarkBatsimFilesKTH(b *testing.B) {
	sj, err := FromSWF(readTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := Simulate(b.Context(), sj.Jobs, sj.Procs, EASY, nil)
	if err != nil {
		b.Fatal(err)
	}
	var stored bytes.Buffer
	if err := BuildReport(sj.Jobs, res, ReportOptions{}, sj.Skipped).WriteJSON(&stored, false); err != nil {
		b.Fatal(err)
	}
	rep, err := report.DecodeReport(stored.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	var jobs, sched bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		jobs.Reset()
		sched.Reset()
		if err := report.WriteBatsimFiles(rep, report.BatsimRunOf(rep), &jobs, &sched); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(jobs.Len()), "jobs.csv-bytes")
}
