package cyclic

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"schedlab/errs"
	"schedlab/solvers"
)

// mutateDelta is PISA's DELTA (saga/pisa/changes.py): a change moves a
// quantity by at most a tenth of its scale.
const mutateDelta = 0.1

// mutate is one random change of an SWF trace for an adversarial search
// (solvers/adversary), drawn uniformly, each on one job drawn uniformly:
// move it (its submit time by up to one mean interarrival time of the
// trace, either way, not before 0); resize it (its allocated and
// requested processors ×(1±δ), by at least one, within 1 and the
// machine); lengthen or shorten it (its run time ×(1±δ)); change its
// requested time ×(1±δ) (the estimate backfilling trusts). Fields the
// trace does not know (-1) stay unknown. The changes are ours, after
// PISA's weight changes for task graphs. Only traces mutate: a slot
// domain (the preset toporkov2014) is searched through its generator's
// parameters (CMA-ES).
func mutate(_ context.Context, w *solvers.Workload, _ string, _ solvers.Params, rng *rand.Rand) (*solvers.Workload, string, error) {
	if w.Format != FormatSWF {
		return nil, "", errs.Invalidf("method", "only an SWF trace mutates; search the preset's parameters (method cmaes)")
	}
	t, err := loadTrace(w)
	if err != nil {
		return nil, "", err
	}
	t.Jobs = slices.Clone(t.Jobs)
	procs := t.procs()
	k := rng.IntN(len(t.Jobs))
	r := &t.Jobs[k]
	factor := func() float64 { return 1 + (2*rng.Float64()-1)*mutateDelta }
	var change string
	switch rng.IntN(4) {
	case 0:
		old := r[1]
		r[1] = math.Max(0, old+(2*rng.Float64()-1)*meanGap(t))
		change = fmt.Sprintf("job %g submitted at %g s instead of %g s", r[0], r[1], old)
	case 1:
		oldA, oldR := r[3], r[4]
		f := factor()
		up := 2*rng.IntN(2) - 1 // the direction when ×f rounds to no change
		for _, i := range []int{3, 4} {
			if r[i] <= 0 {
				continue
			}
			v := math.Round(r[i] * f)
			if v == r[i] {
				v += float64(up)
			}
			r[i] = math.Max(1, v)
			if procs > 0 {
				r[i] = math.Min(float64(procs), r[i])
			}
		}
		change = fmt.Sprintf("job %g on %g processors (requested %g) instead of %g (%g)", r[0], r[3], r[4], oldA, oldR)
	case 2:
		old := r[2]
		if old > 0 {
			r[2] = old * factor()
		}
		change = fmt.Sprintf("job %g runs %g s instead of %g s", r[0], r[2], old)
	default:
		old := r[5]
		if old > 0 {
			r[5] = old * factor()
		}
		change = fmt.Sprintf("job %g requests %g s instead of %g s", r[0], r[5], old)
	}
	data, err := json.Marshal(t)
	if err != nil {
		return nil, "", err
	}
	return &solvers.Workload{Name: w.Name, Format: FormatSWF, Summary: traceSummary(t), Data: data, Preview: tracePreview(t)}, change, nil
}

// meanGap is the trace's mean interarrival time (1 s at least).
func meanGap(t *Trace) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range t.Jobs {
		if r[1] >= 0 {
			lo, hi = math.Min(lo, r[1]), math.Max(hi, r[1])
		}
	}
	if len(t.Jobs) < 2 || !(hi > lo) {
		return 1
	}
	return math.Max(1, (hi-lo)/float64(len(t.Jobs)-1))
}
