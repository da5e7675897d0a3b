package eapm

import (
	"context"
	"math"
)

// feasTol is how far below a machine's load a common level may fall before
// the machine would get a negative share (relative to the load, or absolute
// under 1 s): floating-point noise, not a real violation.
const feasTol = 1e-9

// roundTol is subtracted before rounding a fractional share up, so that a
// share of 3.0000000001 tasks is 3 tasks, not 4.
const roundTol = 1e-9

// level is the closed form of Lemma 1 for one τ: all machines of S_τ end at
// the common level MS_τ = (a + Σ L_j/t_j) / Σ 1/t_j, where t_j is the time one
// task adds to machine type j. The sums come in as suffix sums.
func level(a, sumInvT, sumLInvT float64) float64 { return (a + sumLInvT) / sumInvT }

// stopEarly: once a feasible candidate's level is at most the current
// makespan MS, no larger set can beat it. A larger set (adding machines of
// strictly higher energy per task, as the order guarantees when the next
// machine's e is strictly greater) has a level no higher, so each machine
// already in the set gets no more tasks and the difference goes to dearer
// machines: its energy is at least as high. Its denominator is MS too, so
// its objective is at most this one's. With equal energies the full scan
// would prefer the larger set on a tie, so the loop only stops on a strict
// increase.
//
// Online's candidate for τ needs x_j = (MS_τ − L_j)/t_j ≥ 0 on S_τ, i.e.
// MS_τ ≥ max_{S_τ} L_j, and is worth (R − c·(E + Σ_{S_τ} e_j·x_j)) /
// max(MS, MS_τ), where Σ e_j·x_j = MS_τ·Σ e_j/t_j − Σ e_j·L_j/t_j: five suffix
// sums (1/t, L/t, e/t, e·L/t, max L) make every τ O(1).

// profitRate is the objective (R − c·E)/max(MSprev, ms) of a candidate.
func profitRate(rev, c, energy, msPrev, ms float64) float64 {
	return (rev - c*energy) / math.Max(msPrev, ms)
}

// online is the seed's Algorithm 1 with suffix sums: for each arriving user
// it evaluates every τ (the m−τ+1 cheapest machines by energy per task, all
// raised to a common level), drops a τ that would need a negative share (a
// machine already above the level: the authors' rule), keeps the τ with the
// best objective and rounds shares up from the cheapest machine until the
// bag is placed. O(m) per user after an O(T·m log m) sort per task type.
func (md *model) online(ctx context.Context) (*Schedule, error) {
	in := md.in
	return run(ctx, md, func(st *state, i int, x *alloc) {
		u := in.Users[i]
		t := u.Type
		m := md.m
		o, tt, e, inv, ceInv := md.order[t][:m], md.tt[t], md.e[t], md.invO[t][:m], md.ceInvO[t][:m]
		L := st.s.Load
		a := float64(u.Tasks)
		base, msPrev := st.rev+a*md.price[t]-in.C*st.energy, st.ms
		// Division-free: the level of S_τ is P/Q with P = a + Σ L_j/t_j and
		// Q = Σ 1/t_j; the candidate's objective (num/den) is compared as
		// (num·Q)/(den·Q) by cross-multiplication, all denominators positive.
		var sInv, sLInv, sCEInv, sCELInv, maxL, thr float64
		bestNum, bestDen, bestK := math.Inf(-1), 1.0, m-1
		bestP, bestQ := 0.0, 1.0
		for k := m - 1; k >= 0; k-- {
			l := L[o[k]]
			sInv += inv[k]
			sLInv += l * inv[k]
			sCEInv += ceInv[k]
			sCELInv += l * ceInv[k]
			if l > maxL {
				maxL = l
				thr = maxL - feasTol*max(1, maxL)
			}
			P, Q := a+sLInv, sInv
			if P < thr*Q {
				continue // the level is below some machine of S_τ: x < 0
			}
			// num·Q with num = R − c·(E + Σ_{S_τ} e_j·(P/Q − L_j)/t_j)
			num := (base+sCELInv)*Q - sCEInv*P
			den := msPrev * Q // den·Q = max(MS_prev, P/Q)·Q
			if P > den {
				den = P
			}
			if num*bestDen >= bestNum*den { // ties go to the larger set, as in the authors' loop
				bestNum, bestDen, bestK, bestP, bestQ = num, den, k, P, Q
			}
			if P <= msPrev*Q && (k == 0 || e[o[k-1]] > e[o[k]]) && !md.fullScan {
				break // no larger set can do better (see stopEarly)
			}
		}
		// Round up from the cheapest machine (see roundUp), shares computed
		// on the fly.
		bestLevel := level(bestP, bestQ, 0)
		left := u.Tasks
		for k := m - 1; k >= bestK && left > 0; k-- {
			j := o[k]
			v := int(math.Ceil((bestLevel-L[j])/tt[j] - roundTol))
			v = min(max(v, 0), left)
			x.add(j, v)
			left -= v
		}
		x.add(o[m-1], left) // floating-point leftovers, if any
	})
}

// roundUp turns fractional shares (Σ = a) into integers: from the cheapest
// machine of set (the end of the slice) to the most expensive, each gets
// ⌈share − roundTol⌉ tasks until the bag is placed. Any remainder left by
// floating-point error goes to the cheapest machine.
func roundUp(x *alloc, share []float64, set []int, a int) {
	left := a
	for k := len(set) - 1; k >= 0 && left > 0; k-- {
		j := set[k]
		v := int(math.Ceil(share[j] - roundTol))
		if v < 0 {
			v = 0
		}
		if v > left {
			v = left
		}
		x.add(j, v)
		left -= v
	}
	x.add(set[len(set)-1], left)
}

// onlineWaterfill is Online with water-filling: for each τ, machines of S_τ
// already above the level are left out and the level recomputed over the
// rest, so every τ yields a feasible allocation (x ≥ 0, Σ_j x_ij = a_i)
// instead of being dropped. O(m²) per user.
func (md *model) onlineWaterfill(ctx context.Context) (*Schedule, error) {
	in := md.in
	pos := make([][]int, in.T()) // pos[t][j]: the position of j in order[t]
	for t, o := range md.order {
		pos[t] = make([]int, md.m)
		for k, j := range o {
			pos[t][j] = k
		}
	}
	byLoad := make([]int, md.m)
	for j := range byLoad {
		byLoad[j] = j
	}
	share := make([]float64, md.m)
	return run(ctx, md, func(st *state, i int, x *alloc) {
		u := in.Users[i]
		t := u.Type
		tt, e, o := md.tt[t], md.e[t], md.order[t]
		L := st.s.Load
		a := float64(u.Tasks)
		rev := st.rev + a*md.price[t]
		// Loads change on a few machines per user, so byLoad stays nearly
		// sorted: insertion sort is O(m) here.
		for p := 1; p < len(byLoad); p++ {
			for q := p; q > 0 && lessLoad(L, byLoad[q], byLoad[q-1]); q-- {
				byLoad[q], byLoad[q-1] = byLoad[q-1], byLoad[q]
			}
		}
		best, bestK, bestLevel := math.Inf(-1), md.m-1, 0.0
		for k := md.m - 1; k >= 0; k-- {
			lv, energy := waterfill(a, L, tt, e, byLoad, pos[t], k)
			v := profitRate(rev, in.C, st.energy+energy, st.ms, lv)
			if v >= best {
				best, bestK, bestLevel = v, k, lv
			}
			if lv <= st.ms && (k == 0 || e[o[k-1]] > e[o[k]]) && !md.fullScan {
				break // no larger set can do better (see stopEarly)
			}
		}
		set := o[bestK:]
		for _, j := range set {
			share[j] = math.Max(0, (bestLevel-L[j])/tt[j])
		}
		roundUp(x, share, set, u.Tasks)
		for _, j := range set {
			share[j] = 0
		}
	})
}

// lessLoad orders machines by load, then index.
func lessLoad(L []float64, p, q int) bool {
	return L[p] < L[q] || L[p] == L[q] && p < q
}

// waterfill pours a tasks onto the machines j with pos[j] ≥ k, lowest load
// first (byLoad lists all machines by load): the level rises until the
// machines below it absorb a tasks. It returns the level and the energy added.
func waterfill(a float64, L, tt, e []float64, byLoad, pos []int, k int) (lv, energy float64) {
	var sInv, sLInv, sEInv, sELInv float64
	active := false
	for _, j := range byLoad {
		if pos[j] < k {
			continue
		}
		if active && lv <= L[j] {
			break // this machine and all after it are at or above the level
		}
		inv := 1 / tt[j]
		sInv += inv
		sLInv += L[j] * inv
		sEInv += e[j] * inv
		sELInv += e[j] * L[j] * inv
		active = true
		lv = level(a, sInv, sLInv)
	}
	return lv, lv*sEInv - sELInv
}
