package cyclic

import (
	"context"
	"fmt"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/batch"
	"schedlab/solvers/batsim"
)

// externalVariants are the variants of the registered decision processes.
func externalVariants(scheds []batsim.Scheduler) []variant {
	out := make([]variant, len(scheds))
	for i, s := range scheds {
		how := "started for each run: " + strings.Join(s.Command, " ")
		if s.Endpoint != "" {
			how = "running at " + s.Endpoint
		}
		out[i] = variant{Variant: solvers.Variant{Name: s.Variant(), Doc: fmt.Sprintf(
			"Batch simulation of an SWF trace scheduled by the decision process %q the operator registered (%s), through Batsim's protocol: schedlab sends the events (submissions, completions) and checks and applies its decisions; the same report as batch (wait, bounded slowdown, utilization, Gantt, Batsim columns). Runs only on an SWF workload.", s.Name, how)},
			run: func(ctx context.Context, w *solvers.Workload, _ string, c Config, progress solvers.Progress) (*solvers.Report, error) {
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
func runExternal(ctx context.Context, w *solvers.Workload, s batsim.Scheduler, c Config, progress solvers.Progress) (*solvers.Report, error) {
	t, err := loadTraceRecords(ctx, w, externalFits(w.Format, s.Variant()))
	if err != nil {
		return nil, err
	}
	start := time.Now()
	sj, err := batch.FromSWF(t.swf(), batch.SWFOptions{Procs: c.Procs, Size: c.Size, Estimates: c.Estimates})
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
	rep.Metrics = append(rep.Metrics,
		solvers.Metric{Name: "jobs_rejected", Value: float64(out.NRejected), Unit: "jobs"},
		solvers.Metric{Name: "round_trips", Value: float64(out.Rounds), Unit: "messages", Better: solvers.Lower, Kind: solvers.KindCost})
	if len(out.Dynamic) > 0 {
		rep.Metrics = append(rep.Metrics, solvers.Metric{Name: "jobs_registered", Value: float64(len(out.Dynamic)), Unit: "jobs"})
	}
	if o.Power != nil {
		rep.Metrics = append(rep.Metrics, solvers.Metric{Name: "consumed_energy", Value: out.Energy, Unit: "J", Better: solvers.Lower})
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("Scheduled by the decision process %q through Batsim's protocol (%d request-reply round trips): at each event time one message holds the completions, then the submissions in trace order, then the requested calls; its decisions take effect at their timestamps (the clock advances while it thinks), each checked. %d jobs rejected (left out of the metrics), %d killed (ending at their kill), %d registered by the decision process (not in the trace's metrics).",
		s.Name, out.Rounds, out.NRejected, out.Killed, len(out.Dynamic)))
	return rep, nil
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
