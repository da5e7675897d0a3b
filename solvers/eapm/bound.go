package eapm

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"schedlab/errs"
)

// MaxLPRows and MaxLPCols bound the bound's LP (rows = task types with
// demand + m, columns = their product + m + 1). gonum's simplex is dense, so
// its time grows with rows² per pivot; past these the bound is skipped (Run
// says so in a Note) and offline-lp is errs.TooLarge.
const (
	MaxLPRows = 250
	MaxLPCols = 6_000
)

// Bound is the optimum of the fractional relaxation of EAPM with the bags
// aggregated per task type: an upper bound on the objective of every
// schedule, online or offline. The relaxation is linear-fractional;
// Charnes–Cooper (r = 1/MS, w = r·x/d) makes it an LP, scaled so every
// coefficient is O(1); it matches Tarplee's "profit (upper)" within 3e−13
// relative.
type Bound struct {
	// Value is the bound on (R − c·E)/MS. It is 0 when no schedule can make a
	// profit (γ ≤ 1): the LP then drives r = 1/MS to 0.
	Value    float64
	Makespan float64 // MS* = 1/r at the optimum (s); 0 when Value is 0
	Energy   float64 // E at the optimum (J)
	Revenue  float64 // R = Σ_i a_i·p_i (J·c)
	// X[t][j] is the fractional number of tasks of type t on machine type j
	// at the optimum (Σ_j X[t][j] = Demand[t]); nil when Value is 0.
	X      [][]float64
	Demand []int // d_t = Σ_{i: type t} a_i
	// Rows and Cols are the LP's size in standard form.
	Rows, Cols int
}

// upperBound solves the Charnes–Cooper transform of the relaxation
//
//	max (R − c·Σ e_tj x_tj) / MS  s.t. Σ_j x_tj = d_t, Σ_t (ETC_tj/M_j)·x_tj ≤ MS, x ≥ 0
//
// with r = 1/MS, w = x·r/d (the share of type t's demand on j, times r):
//
//	max R·r − c·Σ d_t e_tj w_tj  s.t. Σ_j w_tj = r, Σ_t d_t (ETC_tj/M_j) w_tj ≤ 1, w, r ≥ 0
//
// on gonum's simplex, after scaling r and w by a reference makespan T0 and
// the objective by c·Σ d_t min_j e_tj so every coefficient is O(1). Types with
// no demand are dropped. The start basis (w on each type's cheapest machine,
// every slack) is feasible, so no phase-1 is needed.
func (md *model) upperBound() (*Bound, error) {
	in, m := md.in, md.m
	b := &Bound{Demand: make([]int, in.T())}
	for _, u := range in.Users {
		b.Demand[u.Type] += u.Tasks
		b.Revenue += float64(u.Tasks) * md.price[u.Type]
	}
	var types []int
	for t, d := range b.Demand {
		if d > 0 {
			types = append(types, t)
		}
	}
	K := len(types)
	rows, cols := K+m, K*m+m+1
	b.Rows, b.Cols = rows, cols
	if rows > MaxLPRows || cols > MaxLPCols {
		return nil, errs.New(errs.TooLarge, "users", "the bound's LP would have %d rows × %d columns, over the budget of %d × %d (%d task types in use × %d machine types)", rows, cols, MaxLPRows, MaxLPCols, K, m)
	}
	lp, basis, k0, t0 := md.boundLP(types, b.Demand, b.Revenue)
	opt, x, _, err := solveSimplex(lp, basis)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, fmt.Errorf("the bound's LP failed: %w", err))
	}
	rIdx := K * m
	rho := x[rIdx]
	b.Value = math.Max(0, -opt*k0/t0)
	if rho <= 1e-12 || b.Value == 0 {
		b.Value = 0
		return b, nil
	}
	b.Makespan = t0 / rho
	b.X = make([][]float64, in.T())
	for k, t := range types {
		b.X[t] = make([]float64, m)
		d := float64(b.Demand[t])
		for j := 0; j < m; j++ {
			v := math.Max(0, x[k*m+j]) / rho * d
			b.X[t][j] = v
			b.Energy += v * md.e[t][j]
		}
	}
	return b, nil
}

// offlineLP rounds the bound's fractional optimum to a feasible schedule:
// per task type, each machine type gets ⌊x_tj⌋ and the remaining tasks go one
// each to the largest fractional parts (ties: the cheaper machine); users of
// that type then take their bags from these counts in arrival order,
// cheapest machine first. It knows the whole stream, so it is an offline
// reference, not an online algorithm. When the bound is 0 (no schedule can
// profit) every bag goes to its cheapest machine.
func (md *model) offlineLP(ctx context.Context) (*Schedule, *Bound, error) {
	in := md.in
	b, err := md.upperBound()
	if err != nil {
		return nil, nil, err
	}
	counts := make([][]int, in.T())
	for t, d := range b.Demand {
		if d == 0 {
			continue
		}
		counts[t] = make([]int, md.m)
		if b.X == nil {
			counts[t][md.order[t][md.m-1]] = d
			continue
		}
		counts[t] = roundLargestRemainder(b.X[t], d, md.order[t])
	}
	s, err := run(ctx, md, func(st *state, i int, x *alloc) {
		u := in.Users[i]
		left := u.Tasks
		o := md.order[u.Type]
		for k := md.m - 1; k >= 0 && left > 0; k-- {
			j := o[k]
			v := min(counts[u.Type][j], left)
			x.add(j, v)
			counts[u.Type][j] -= v
			left -= v
		}
	})
	return s, b, err
}

// boundLP builds UpperBound's LP in standard form (min, so the objective is
// negated) for the task types in use, with its feasible start basis: w on
// each type's cheapest machine and every slack. Scales: k0 = c·E_min (the
// objective's unit), t0 = the makespan if every task ran at its fastest speed
// spread over all m types. Columns: w_kj at k·m+j, r at K·m, slack j after.
func (md *model) boundLP(types, demand []int, revenue float64) (lp *sparseLP, basis []int, k0, t0 float64) {
	in, m, K := md.in, md.m, len(types)
	var emin float64
	for _, t := range types {
		d := float64(demand[t])
		emin += d * slices.Min(md.e[t])
		t0 += d * slices.Min(md.tt[t])
	}
	k0 = in.C * emin
	t0 /= float64(m)
	cols := K*m + m + 1
	nnz := 2*K*m + K + m
	lp = &sparseLP{rows: K + m, cols: cols, colStart: make([]int, 0, cols+1), rowIdx: make([]int, 0, nnz),
		val: make([]float64, 0, nnz), b: make([]float64, K+m), c: make([]float64, 0, cols)}
	add := func(cost float64, rows []int, vals ...float64) {
		lp.colStart = append(lp.colStart, len(lp.rowIdx))
		lp.rowIdx = append(lp.rowIdx, rows...)
		lp.val = append(lp.val, vals...)
		lp.c = append(lp.c, cost)
	}
	basis = make([]int, 0, K+m)
	for k, t := range types {
		d := float64(demand[t])
		for j := 0; j < m; j++ {
			add(in.C*d*md.e[t][j]/k0, []int{k, K + j}, 1, d*md.tt[t][j]/t0)
		}
		basis = append(basis, k*m+md.order[t][m-1])
	}
	rIdx := K * m
	lp.colStart = append(lp.colStart, len(lp.rowIdx))
	for k := range K {
		lp.rowIdx = append(lp.rowIdx, k)
		lp.val = append(lp.val, -1)
	}
	lp.c = append(lp.c, -revenue/k0)
	for j := 0; j < m; j++ {
		add(0, []int{K + j}, 1)
		lp.b[K+j] = 1
		basis = append(basis, rIdx+1+j)
	}
	lp.colStart = append(lp.colStart, len(lp.rowIdx))
	return lp, basis, k0, t0
}

// roundLargestRemainder rounds fractional counts x (Σ x = d) to integers
// summing to d: floors, then one more to the largest fractional parts, ties
// to the machine later in order (cheaper).
func roundLargestRemainder(x []float64, d int, order []int) []int {
	out := make([]int, len(x))
	rank := make([]int, len(x)) // position in order: higher is cheaper
	for k, j := range order {
		rank[j] = k
	}
	sum := 0
	for j, v := range x {
		out[j] = int(math.Floor(v + roundTol))
		sum += out[j]
	}
	idx := make([]int, len(x))
	for j := range idx {
		idx[j] = j
	}
	slices.SortFunc(idx, func(p, q int) int {
		fp, fq := x[p]-float64(out[p]), x[q]-float64(out[q])
		if c := cmp.Compare(fq, fp); c != 0 {
			return c
		}
		return cmp.Compare(rank[q], rank[p])
	})
	for k := 0; sum < d; k = (k + 1) % len(idx) {
		out[idx[k]]++
		sum++
	}
	for k := len(idx) - 1; sum > d; k = (k - 1 + len(idx)) % len(idx) {
		if out[idx[k]] > 0 {
			out[idx[k]]--
			sum--
		}
	}
	return out
}
