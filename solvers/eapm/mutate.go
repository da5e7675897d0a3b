package eapm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"schedlab/solvers"
)

// mutateDelta is the relative size of one change of an entry: PISA's
// DELTA (0.1 of a weight's scale; saga/pisa/changes.py), here a factor
// in [0.9, 1.1].
const mutateDelta = 0.1

// mutate is one random change of an instance for an adversarial search
// (solvers/adversary), drawn uniformly: an ETC or an APC entry ×(1±δ);
// a user's bag one task more or fewer (at least one); a user's task type
// redrawn; two users' arrivals swapped (the order online methods see).
// Entries stay within the format's limits (MinValue, MaxValue). The
// changes are ours, after PISA's weight changes for task graphs.
func mutate(_ context.Context, w *solvers.Workload, _ string, _ solvers.Params, rng *rand.Rand) (*solvers.Workload, string, error) {
	src, err := loadWorkload(w)
	if err != nil {
		return nil, "", err
	}
	in := *src // loadWorkload's copy shares its slices with the cache: copy what changes
	in.ETC, in.APC = cloneMatrix(in.ETC), cloneMatrix(in.APC)
	in.Users = slices.Clone(in.Users)
	T, m := in.T(), in.M()
	var change string
	switch k := rng.IntN(5); {
	case k <= 1:
		mat, name := in.ETC, "ETC"
		if k == 1 {
			mat, name = in.APC, "APC"
		}
		t, j := rng.IntN(T), rng.IntN(m)
		old := mat[t][j]
		mat[t][j] = min(MaxValue, max(MinValue, old*(1+(2*rng.Float64()-1)*mutateDelta)))
		change = fmt.Sprintf("%s[%s][%s] %g → %g", name, in.TaskName(t), in.MachineName(j), old, mat[t][j])
	case k == 2:
		u := rng.IntN(len(in.Users))
		old := in.Users[u].Tasks
		in.Users[u].Tasks = max(1, old+2*rng.IntN(2)-1)
		change = fmt.Sprintf("user %d tasks %d → %d", u+1, old, in.Users[u].Tasks)
	case k == 3:
		u := rng.IntN(len(in.Users))
		old := in.Users[u].Type
		in.Users[u].Type = rng.IntN(T)
		change = fmt.Sprintf("user %d type %s → %s", u+1, in.TaskName(old), in.TaskName(in.Users[u].Type))
	default:
		a, b := rng.IntN(len(in.Users)), rng.IntN(len(in.Users))
		in.Users[a], in.Users[b] = in.Users[b], in.Users[a]
		change = fmt.Sprintf("users %d and %d swapped", a+1, b+1)
	}
	if err := in.Validate(); err != nil {
		return nil, "", fmt.Errorf("eapm: a mutation (%s) made an invalid instance: %w", change, err)
	}
	out, err := newWorkload(&in, w.Name, w.Format, "adversary")
	return out, change, err
}

func cloneMatrix(a [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i, row := range a {
		out[i] = slices.Clone(row)
	}
	return out
}
