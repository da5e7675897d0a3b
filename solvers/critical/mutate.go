package critical

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"schedlab/solvers"
)

// PISA's change sizes (saga/pisa/changes.py: MINVAL 0.1, MAXVAL 1.0,
// DELTA 0.1), as fractions of a quantity's scale: a weight stays within
// [0.1·M, M] and moves by at most 0.1·M a step.
const (
	mutateMin   = 0.1
	mutateDelta = 0.1
)

// mutationScales are the M of each quantity: the preset random's largest
// volume, transfer and performance (vol_max, transfer_max, perf_max;
// their defaults 100, 50, 4 give [10, 100], [5, 50], [0.4, 4], the
// preset's own ranges but for performance's lower end), or, for another
// preset, the instance's own largest values.
type mutationScales struct{ vol, transfer, perf float64 }

func scalesOf(g *Graph, preset string, params solvers.Params) mutationScales {
	if preset == PresetRandom {
		c := DefaultGenConfig()
		if err := solvers.Decode(&c, params); err == nil {
			return mutationScales{vol: c.VolMax, transfer: c.TransferMax, perf: c.PerfMax}
		}
	}
	var s mutationScales
	for _, t := range g.Tasks {
		s.vol = max(s.vol, t.Volume)
	}
	for _, e := range g.Edges {
		s.transfer = max(s.transfer, e.Transfer)
	}
	for _, p := range g.Processors {
		s.perf = max(s.perf, p.Performance)
	}
	return s
}

// step moves v by a uniform draw in [−δ·M, δ·M], clamped to [0.1·M, M].
func step(v, m float64, rng *rand.Rand) float64 {
	v += (2*rng.Float64() - 1) * mutateDelta * m
	return min(m, max(mutateMin*m, v))
}

// Mutate is one of PISA's changes to a task graph and its platform
// (Coleman and Krishnamachari, IPDPS 2025; saga/pisa/changes.py), drawn
// uniformly among those that apply: delete an edge, add one (to a task
// that is neither the source nor an ancestor of it, nor a child of it
// already; its transfer uniform in [0.1·M, M]), change an edge's
// transfer, a task's volume or a processor's performance by a step. A
// graph with explicit times (Times) keeps them: only its edges change.
// The fifth of PISA's changes, a network link's speed, has no twin in
// this model (one bandwidth for all links): every transfer scaled by one
// factor in [0.9, 1.1] (each then clamped) stands for it (ours).
func Mutate(ctx context.Context, w *solvers.Workload, preset string, params solvers.Params, rng *rand.Rand) (*solvers.Workload, string, error) {
	g, err := loadWorkload(w)
	if err != nil {
		return nil, "", err
	}
	sc := scalesOf(g, preset, params)
	var kinds []string
	if len(g.Edges) < MaxEdges {
		kinds = append(kinds, "add edge")
	}
	if len(g.Edges) > 0 {
		kinds = append(kinds, "delete edge", "edge transfer")
		if sc.transfer > 0 {
			kinds = append(kinds, "link rate")
		}
	}
	if g.Times == nil {
		kinds = append(kinds, "task volume", "processor performance")
	}
	if len(kinds) == 0 {
		return w, "no change possible", nil
	}
	var change string
	switch kinds[rng.IntN(len(kinds))] {
	case "delete edge":
		k := rng.IntN(len(g.Edges))
		e := g.Edges[k]
		g.Edges = slices.Delete(g.Edges, k, k+1)
		change = fmt.Sprintf("edge %s→%s deleted", g.Tasks[e.From].ID, g.Tasks[e.To].ID)
	case "add edge":
		change = addEdge(g, sc, rng)
	case "edge transfer":
		k := rng.IntN(len(g.Edges))
		e := &g.Edges[k]
		old := e.Transfer
		e.Transfer = step(e.Transfer, sc.transfer, rng)
		change = fmt.Sprintf("edge %s→%s transfer %g → %g", g.Tasks[e.From].ID, g.Tasks[e.To].ID, old, e.Transfer)
	case "link rate":
		f := 1 + (2*rng.Float64()-1)*mutateDelta
		for k := range g.Edges {
			g.Edges[k].Transfer = min(sc.transfer, max(mutateMin*sc.transfer, g.Edges[k].Transfer*f))
		}
		change = fmt.Sprintf("every transfer ×%.4f", f)
	case "task volume":
		k := rng.IntN(len(g.Tasks))
		old := g.Tasks[k].Volume
		g.Tasks[k].Volume = step(old, sc.vol, rng)
		change = fmt.Sprintf("task %s volume %g → %g", g.Tasks[k].ID, old, g.Tasks[k].Volume)
	case "processor performance":
		k := rng.IntN(len(g.Processors))
		old := g.Processors[k].Performance
		g.Processors[k].Performance = step(old, sc.perf, rng)
		change = fmt.Sprintf("processor %s performance %g → %g", g.Processors[k].ID, old, g.Processors[k].Performance)
	}
	if change == "" {
		return w, "no change possible", nil
	}
	if err := g.Validate(); err != nil {
		return nil, "", fmt.Errorf("critical: a mutation (%s) made an invalid graph: %w", change, err)
	}
	out, err := newWorkload(g, w.Name, w.Format)
	if err != nil {
		return nil, "", err
	}
	return out, change, nil
}

// addEdge adds an edge u → v that keeps the graph acyclic and simple
// (PISA's TaskGraphAddDependency: sources in random order, the first
// with a valid target), or returns "" when none can be added.
func addEdge(g *Graph, sc mutationScales, rng *rand.Rand) string {
	n := len(g.Tasks)
	parents := make([][]int, n)
	child := make(map[[2]int]bool, len(g.Edges))
	for _, e := range g.Edges {
		parents[e.To] = append(parents[e.To], e.From)
		child[[2]int{e.From, e.To}] = true
	}
	order := rng.Perm(n)
	for _, u := range order {
		anc := make([]bool, n) // u's ancestors, u included
		stack := []int{u}
		anc[u] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range parents[x] {
				if !anc[p] {
					anc[p] = true
					stack = append(stack, p)
				}
			}
		}
		var valid []int
		for v := 0; v < n; v++ {
			if !anc[v] && !child[[2]int{u, v}] {
				valid = append(valid, v)
			}
		}
		if len(valid) == 0 {
			continue
		}
		v := valid[rng.IntN(len(valid))]
		tr := sc.transfer * (mutateMin + (1-mutateMin)*rng.Float64())
		g.Edges = append(g.Edges, Edge{From: u, To: v, Transfer: tr})
		return fmt.Sprintf("edge %s→%s added (transfer %g)", g.Tasks[u].ID, g.Tasks[v].ID, tr)
	}
	return ""
}
