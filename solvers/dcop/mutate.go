package dcop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"schedlab/solvers"
)

// mutate is one random change of a co-allocation instance for an
// adversarial search (solvers/adversary), drawn uniformly among those
// that apply: a job's window one slot longer or shorter (within 1 and
// the horizon); one of a job's clusters replaced by a cluster it does
// not use; a job's value ×(1±0.1) (PISA's DELTA, saga/pisa/changes.py).
// The changes are ours, after PISA's changes for task graphs.
func mutate(_ context.Context, w *solvers.Workload, _ string, _ solvers.Params, rng *rand.Rand) (*solvers.Workload, string, error) {
	src, err := loadWorkload(w)
	if err != nil {
		return nil, "", err
	}
	in := *src
	in.Jobs = slices.Clone(in.Jobs)
	if len(in.Jobs) == 0 {
		return w, "no change possible", nil
	}
	k := rng.IntN(len(in.Jobs))
	j := in.Jobs[k]
	j.Resources = slices.Clone(j.Resources)
	var change string
	switch c := rng.IntN(3); {
	case c == 0:
		old := j.Duration
		j.Duration = min(in.Horizon, max(1, old+2*rng.IntN(2)-1))
		change = fmt.Sprintf("job %s window %d → %d slots", j.ID, old, j.Duration)
	case c == 1 && len(j.Resources) < len(in.Resources):
		var free []int
		for r := range in.Resources {
			if !slices.Contains(j.Resources, r) {
				free = append(free, r)
			}
		}
		i := rng.IntN(len(j.Resources))
		old := j.Resources[i]
		repl := free[rng.IntN(len(free))]
		j.Resources[i] = repl
		slices.Sort(j.Resources)
		change = fmt.Sprintf("job %s cluster %s → %s", j.ID, in.Resources[old], in.Resources[repl])
	default:
		old := j.Value
		j.Value = old * (1 + (2*rng.Float64()-1)*0.1)
		change = fmt.Sprintf("job %s value %g → %g", j.ID, old, j.Value)
	}
	in.Jobs[k] = j
	if err := in.Validate(); err != nil {
		return nil, "", fmt.Errorf("dcop: a mutation (%s) made an invalid instance: %w", change, err)
	}
	out, err := newWorkload(&in, w.Name, w.Format)
	return out, change, err
}
