package cyclic

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/batch"
	"schedlab/solvers/batsim"
)

func externalVariants(scheds []batsim.Scheduler) []variant {
	out := make([]variant, len(scheds))
	for i, s := range scheds {
		how := "started for each run: " + strings.Join(s.Command, " ")
		if s.Endpoint != "" {
			how = "running at " + s.Endpoint
		}
		out[i] = variant{Variant: solvers.Variant{Name: s.Variant(), Doc: fmt.Sprintf(
			"Batch simulation of an SWF trace scheduled by the decision process %q the operator registered (%s), through Batsim's protocol: schedlab sends the events (submissions, completions) and checks and applies its decisions; the same report as batch (wait, bounded slowdown, utilization, Gantt, Batsim columns). Runs only on an SWF workload.", s.Name, how)},
			run: func(ctx context.Context, w *solvers.Workload, _ string, c Config, progress solvers.Progress) (*report.Report, error) {
				return runExternal(ctx, w, s, c, progress)
			},
			fits: externalFits}
	}
	return out
}

// externalFits: a decision process schedules a trace.
func externalFits(format, variant string) error {
	if format != FormatSWF {
		return errs.Invalidf("variant", "%s schedules an SWF trace through Batsim's protocol; this workload is a slot domain (%s): upload a trace (.swf or .swf.gz)", variant, format)
	}
	return nil
}

// runExternal simulates a stored trace with a registered decision process
// making the decisions (package batsim) and reports it as batch does. The
// jobs it rejects are left out of the metrics, as Batsim leaves them out
// of its jobs output, and counted.
func runExternal(ctx context.Context, w *solvers.Workload, s batsim.Scheduler, c Config, progress solvers.Progress) (*report.Report, error) {
	t, sj, start, err := traceJobs(ctx, w, externalFits(w.Format, s.Variant()), c)
	if err != nil {
		return nil, err
	}
	if err := solvers.Reserve(ctx, "procs", batch.SimulateBytes(sj.Jobs, sj.Procs), fmt.Sprintf("%d jobs on %d processors", len(sj.Jobs), sj.Procs)); err != nil {
		return nil, err
	}
	conn, err := s.Open(ctx)
	if err != nil {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "external scheduler " + s.Name, Err: err}
	}
	defer conn.Close()
	o := batsim.Options{Name: s.Name, Workload: t.Name, Timeout: s.Timeout,
		Progress:    func(done, total int) { progress(done, total, fmt.Sprintf("%d of %d jobs started", done, total)) },
		DynamicJobs: c.DynamicJobs, AckDynamicJobs: c.AckDynamicJobs, ForwardRuntime: c.ForwardRuntime}
	if c.Energy {
		o.Power = &batsim.Power{IdleW: c.PowerIdleW, ComputeW: c.PowerComputeW, SleepW: c.PowerSleepW, SwitchOffS: c.SwitchOffS, SwitchOnS: c.SwitchOnS, SleepPState: c.SleepPState}
	}
	out, err := batsim.Simulate(ctx, sj.Jobs, sj.Procs, conn, o)
	if err != nil {
		return nil, err
	}
	jobs, res := sj.Jobs, out.Result
	if out.NRejected > 0 {
		jobs, res = withoutRejected(sj.Jobs, out)
		if len(jobs) == 0 {
			return nil, errs.Invalidf("external scheduler "+s.Name, "the decision process rejected all %d jobs: there is no schedule to report", len(sj.Jobs))
		}
	}
	rep := batchReport(sj, jobs, res, start, c, batchMetricVariants())
	for i := range rep.Tables {
		if rep.Tables[i].Title == report.BatsimJobsTable {
			rep.Tables[i] = externalBatsimTable(sj.Jobs, out, o.Power)
		}
	}
	rep.Metrics = append(rep.Metrics,
		report.Metric{Name: "jobs_rejected", Value: float64(out.NRejected), Unit: "jobs"},
		report.Metric{Name: "round_trips", Value: float64(out.Rounds), Unit: "messages", Better: report.Lower, Kind: report.KindCost})
	if len(out.Dynamic) > 0 {
		rep.Metrics = append(rep.Metrics, report.Metric{Name: "jobs_registered", Value: float64(len(out.Dynamic)), Unit: "jobs"})
	}
	if o.Power != nil {
		rep.Metrics = append(rep.Metrics, report.Metric{Name: "consumed_energy", Value: out.Energy, Unit: "J", Better: report.Lower})
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("Scheduled by the decision process %q through Batsim's protocol (%d request-reply round trips): at each event time one message holds the completions, then the submissions in trace order, then the requested calls; its decisions take effect at their timestamps (the clock advances while it thinks), each checked. %d jobs rejected (left out of the metrics), %d killed (ending at their kill), %d registered by the decision process (not in the trace's metrics).",
		s.Name, out.Rounds, out.NRejected, out.Killed, len(out.Dynamic)))
	return rep, nil
}

// externalBatsimTable is every job of an external run as Batsim's
// _jobs.csv lists it, in batch's columns and then those a decision process
// can make differ from Batsim's defaults (the final state, the job's
// workload and profile as the process saw them, the metadata it set and,
// with a power model, the job's energy): the trace's jobs in trace order, rejected ones with
// empty times (Batsim writes REJECTED jobs without times) and killed ones
// ending at their kill (COMPLETED_KILLED), then the jobs the decision
// process registered, in registration order, under their own workload
// (a dynamic job's id "dyn!7" is workload dyn, job 7, as Batsim splits
// it). A job's consumed_energy, with a power model, is its hosts' compute
// power over its execution (size × power_compute_w × execution time):
// the run's host model gives a running host its compute power, and hosts
// run one job at a time (no sharing).
func externalBatsimTable(jobs []batch.Job, out *batsim.Outcome, power *batsim.Power) report.Table {
	n := len(jobs) + len(out.Dynamic)
	cols := append(batch.BatsimColumns(), "final_state", "workload_name", "profile", "metadata")
	if power != nil {
		cols = append(cols, "consumed_energy")
	}
	t := report.LazyTable(report.BatsimJobsTable, cols, n, func() [][]any {
		rows := make([][]any, 0, n)
		add := func(id any, workload, profile string, submit float64, size int, estimate float64, pl batch.Placement, state, meta string) {
			row := []any{id, submit, size, estimate, nil, nil, nil, nil, nil, nil, "", state, workload, profile, meta}
			if state != report.BatsimRejected {
				exec, turn := pl.End-pl.Start, pl.End-submit
				stretch := 0.0
				if exec > 0 {
					stretch = turn / exec
				}
				row[4], row[5], row[6], row[7], row[8], row[9], row[10] = pl.Start, exec, pl.End, pl.Start-submit, turn, stretch, batch.Intervals(pl.Procs)
			}
			if power != nil {
				var e any
				if state != report.BatsimRejected {
					e = float64(size) * power.ComputeW * (pl.End - pl.Start)
				}
				row = append(row, e)
			}
			rows = append(rows, row)
		}
		for i, j := range jobs {
			wl, id := batsimID(out.IDs[i])
			var cell any = id
			if id == strconv.Itoa(j.ID) {
				cell = j.ID
			}
			add(cell, wl, out.Profiles[i], j.Submit, j.Size, j.Estimate, out.Result.Placements[i], out.States[i], out.Metadata[i])
		}
		for _, d := range out.Dynamic {
			wl, id := batsimID(d.ID)
			add(id, wl, d.Profile, d.Submit, d.Size, d.Walltime, d.Placement, d.State, d.Metadata)
		}
		return rows
	})
	t.TimeCols = []int{1, 4, 6}
	return t
}

// batsimID splits a job id "w0!12" into its workload and its id in it.
func batsimID(full string) (workload, id string) {
	if w, i, ok := strings.Cut(full, "!"); ok {
		return w, i
	}
	return report.BatsimWorkloadName, full
}

// withoutRejected is the jobs a decision process did not reject, with
// their placements.
func withoutRejected(jobs []batch.Job, out *batsim.Outcome) ([]batch.Job, *batch.Result) {
	res := *out.Result
	res.Placements = nil
	var kept []batch.Job
	for i, j := range jobs {
		if !out.Rejected[i] {
			kept = append(kept, j)
			res.Placements = append(res.Placements, out.Result.Placements[i])
		}
	}
	return kept, &res
}
