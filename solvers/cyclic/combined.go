package cyclic

import (
	"cmp"
	"context"
	"math"
	"slices"
)

// VariantCombined is batch slice filling (seed §3.2, a public contract):
// the first N_css jobs by priority planned by the fair-share model, the
// rest backfilled into what is left.
const VariantCombined = "combined"

// Priorities order the jobs that the fair-share model plans in combined.
const (
	PriorityQueue     = "queue"     // the batch order (carried jobs first)
	PriorityExpensive = "expensive" // highest budget (max price) first
	PriorityDemanding = "demanding" // largest demand, nodes × volume, first
)

// CombinedPlanner is the combined method: a slice of the batch chosen by
// Priority, a Share of its jobs (rounded), goes to Fair; the other jobs, in
// batch order, to Backfill on the domain Fair leaves. Fair's windows stay
// booked for their reserved time, also when their jobs complete early (the
// VO sold that time); the backfilled jobs re-plan on their own early
// completions as in backfill.
type CombinedPlanner struct {
	Fair     *BatchPlanner
	Backfill *BackfillPlanner
	Share    float64 // N_css / N in [0, 1]
	Priority string

	jobs []JobPlan // the plan's jobs, reused
}

// Slice returns the batch indices Fair plans: the first round(share × n) by
// priority (stable: ties keep batch order), in that priority order.
func Slice(batch []Job, share float64, priority string) []int {
	idx := make([]int, len(batch))
	for i := range idx {
		idx[i] = i
	}
	switch priority {
	case PriorityExpensive:
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(batch[b].MaxPrice, batch[a].MaxPrice) })
	case PriorityDemanding:
		demand := func(j Job) float64 { return float64(j.Nodes) * j.Volume }
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(demand(batch[b]), demand(batch[a])) })
	}
	n := int(math.Round(share * float64(len(batch))))
	return idx[:max(0, min(n, len(batch)))]
}

// Plan implements Planner.
func (p *CombinedPlanner) Plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error) {
	head := Slice(batch, p.Share, p.Priority)
	inHead := make([]bool, len(batch))
	for _, i := range head {
		inHead[i] = true
	}
	var rest []int
	for i := range batch {
		if !inHead[i] {
			rest = append(rest, i)
		}
	}
	p.jobs = grow(p.jobs, len(batch))
	cp := &CyclePlan{Jobs: p.jobs}
	part := func(pl Planner, idx []int) error {
		if len(idx) == 0 {
			return nil
		}
		jobs := make([]Job, len(idx))
		w := make([]int, len(idx))
		for k, i := range idx {
			jobs[k], w[k] = batch[i], waited[i]
		}
		sub, err := pl.Plan(ctx, d, jobs, w)
		if err != nil {
			return err
		}
		for k, i := range idx {
			cp.Jobs[i] = sub.Jobs[k]
		}
		cp.Limits = append(cp.Limits, sub.Limits...)
		cp.Raised += sub.Raised
		return nil
	}
	if err := part(p.Fair, head); err != nil {
		return nil, err
	}
	if err := part(p.Backfill, rest); err != nil {
		return nil, err
	}
	return cp, nil
}
