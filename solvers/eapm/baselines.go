package eapm

import (
	"context"
	"math"
)

// greedyMinEnergy places each user's whole bag on the machine type with the
// least energy per task, argmin_j ETC_ij·APC_ij (ties: the lowest index) —
// the paper's "Greedy" and the one that produced the authors' published
// Greedy numbers. With one machine per type its schedule does not depend on γ.
func (md *model) greedyMinEnergy(ctx context.Context) (*Schedule, error) {
	in := md.in
	return run(ctx, md, func(st *state, i int, x *alloc) {
		u := in.Users[i]
		x.add(md.order[u.Type][md.m-1], u.Tasks) // the cheapest, lowest index on ties
	})
}

// greedyMaxObjective places each user's whole bag on the machine type that
// maximizes the objective right after the placement, (R − c·(E + a·e_j)) /
// max(MS, L_j + a·t_j); ties go to the lower energy, then the lower index.
// It is the Greedy_based_method of the authors' final code.
func (md *model) greedyMaxObjective(ctx context.Context) (*Schedule, error) {
	in := md.in
	return run(ctx, md, func(st *state, i int, x *alloc) {
		u := in.Users[i]
		t := u.Type
		a := float64(u.Tasks)
		rev := st.rev + a*md.price[t]
		best, bestJ := math.Inf(-1), 0
		for j := 0; j < md.m; j++ {
			v := profitRate(rev, in.C, st.energy+a*md.e[t][j], st.ms, st.s.Load[j]+a*md.tt[t][j])
			if v > best || (v == best && md.e[t][j] < md.e[t][bestJ]) {
				best, bestJ = v, j
			}
		}
		x.add(bestJ, u.Tasks)
	})
}

// average splits each bag evenly: ⌈a_i/m⌉ tasks to machine types in index
// order until the bag is placed, so the last ones get the remainder (or
// nothing), as in the authors' code.
func (md *model) average(ctx context.Context) (*Schedule, error) {
	in := md.in
	return run(ctx, md, func(st *state, i int, x *alloc) {
		a := in.Users[i].Tasks
		q := (a + md.m - 1) / md.m
		for j := 0; j < md.m && a > 0; j++ {
			v := min(q, a)
			x.add(j, v)
			a -= v
		}
	})
}
