package gossip

import (
	"context"
	"sort"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

// maxSWFNodes caps the default node count of an SWF-driven grid.
const maxSWFNodes = 10000

// FromSWF turns an SWF trace into an instance on nodes nodes (0: min(the
// header's processors, 10,000), or the largest allocation when the header
// has none). See the package doc for the scaling.
//
// The trace is read streaming under formats.SWFLimits: at most MaxJobs
// records, the records checked against the memory budget in ctx.
func FromSWF(ctx context.Context, name string, data []byte, nodes int) (*Instance, error) {
	tr, err := formats.ReadSWFLimited(ctx, name, data, formats.SWFLimits{MaxRecords: MaxJobs})
	if err != nil {
		return nil, err
	}
	procs := tr.Header.Procs()
	type jr struct{ submit, run, alloc float64 }
	var js []jr
	skipped := 0
	for _, j := range tr.Jobs {
		if j.Submit < 0 || j.Run <= 0 {
			skipped++
			continue
		}
		a := float64(j.Alloc)
		if a <= 0 {
			a = float64(max(j.Req, 1))
		}
		js = append(js, jr{j.Submit, j.Run, a})
	}
	if len(js) == 0 {
		return nil, errs.Invalidf(name, "no job with a submit time and a positive run time (%d records, %d skipped)", len(tr.Jobs), skipped)
	}
	if len(js) > MaxJobs {
		return nil, errs.New(errs.TooLarge, name, "%d jobs exceed the limit of %d", len(js), MaxJobs)
	}
	if procs <= 0 {
		for _, j := range js {
			procs = max(procs, int(j.alloc))
		}
	}
	sort.SliceStable(js, func(a, b int) bool { return js[a].submit < js[b].submit })
	t0 := js[0].submit
	var work, pwork, last float64
	for _, j := range js {
		work += j.run
		pwork += j.run * j.alloc
		last = max(last, j.submit-t0)
	}
	span := max(last, 1)
	if nodes <= 0 {
		nodes = min(max(procs, 1), maxSWFNodes)
	}
	rho := pwork / (float64(procs) * span)
	if rho <= 0 {
		rho = 1
	}
	// submit' = (submit − t0)·c with c = Σ run / (n · ρ · span)
	c := work / (float64(nodes) * rho * span)
	in := &Instance{Grid: DefaultGrid(nodes, min(20, nodes), 0, 1), Load: 0,
		Trace: &Trace{Name: name, Computer: tr.Header.Computer, Procs: procs, Jobs: len(js), Skipped: skipped, Load: round3(rho), Scale: c}}
	for _, j := range js {
		in.Jobs = append(in.Jobs, Job{Submit: round3((j.submit - t0) * c), Run: j.run})
	}
	in.DurationS = round3(span*c) + 1
	if err := in.Validate(); err != nil {
		return nil, errs.Invalidf(name, "trace gives an invalid workload: %v", err)
	}
	return in, nil
}
