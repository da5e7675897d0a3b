package critical

import (
	"context"
	"math"

	"schedlab/errs"
)

// ExactMaxTasks and ExactMaxProcessors bound ExactMakespan's instances.
const (
	ExactMaxTasks      = 6
	ExactMaxProcessors = 3
)

// ExactMakespan is the optimal makespan of a tiny DAG by exhaustive search:
// every processor assignment × every topological order used as the
// priority of realize. Some optimal schedule is semi-active (each task as
// early as its processor order and data allow), and realize with that
// schedule's start order as priority gives every task a start no later, so
// the minimum is exact. Larger instances are errs.TooLarge.
func ExactMakespan(ctx context.Context, d *DAG) (float64, error) {
	if d.N > ExactMaxTasks || d.M > ExactMaxProcessors {
		return 0, errs.New(errs.TooLarge, "tasks", "exhaustive search takes at most %d tasks on %d processors, got %d on %d", ExactMaxTasks, ExactMaxProcessors, d.N, d.M)
	}
	best := math.Inf(1)
	proc := make([]int, d.N)
	var orders [][]int
	indeg := make([]int, d.N)
	for v := range d.N {
		indeg[v] = len(d.Pred[v])
	}
	used := make([]bool, d.N)
	var cur []int
	var topo func()
	topo = func() {
		if len(cur) == d.N {
			orders = append(orders, append([]int(nil), cur...))
			return
		}
		for v := range d.N {
			if used[v] || indeg[v] > 0 {
				continue
			}
			used[v] = true
			for _, a := range d.Succ[v] {
				indeg[a.To]--
			}
			cur = append(cur, v)
			topo()
			cur = cur[:len(cur)-1]
			for _, a := range d.Succ[v] {
				indeg[a.To]++
			}
			used[v] = false
		}
	}
	topo()
	prio := make([]float64, d.N)
	var assign func(i int)
	assign = func(i int) {
		if ctx.Err() != nil {
			return
		}
		if i == d.N {
			for _, o := range orders {
				for k, v := range o {
					prio[v] = float64(k)
				}
				best = math.Min(best, realize(d, proc, prio, nil).Makespan())
			}
			return
		}
		for p := range d.M {
			proc[i] = p
			assign(i + 1)
		}
	}
	assign(0)
	return best, ctx.Err()
}
