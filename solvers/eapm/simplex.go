package eapm

import (
	"errors"
	"fmt"
	"math"
)

// The bound's LP is solved by a small revised simplex method written for it
// (Bertsimas & Tsitsiklis, Introduction to Linear Optimization, 1997, §3.3
// "the revised simplex method" with an explicit dense B⁻¹, and §3.4 on
// anti-cycling; Chvátal, Linear Programming, 1983, ch. 3 and 7 for Bland's
// rule and the revised method) instead of gonum's lp.Simplex: gonum
// refactorizes the dense basis with LU and estimates its condition number at
// every pivot, which made the bound of one case-1 instance (a 39 × 280 LP)
// cost milliseconds and, over a 1,000-run sweep, most of the server's time.
// This LP is small, sparse (a w column has two non-zeros), well scaled (its
// coefficients are O(1) after UpperBound's scaling) and comes with a
// feasible start basis, so a pivot here costs O(rows² + non-zeros). gonum
// stays the test oracle (simplex_test.go: 600 random LPs and the case-1
// instances agree to 1e−9). No phase 1 (the start basis is known
// feasible); Dantzig's rule with ratio ties to the largest pivot, Bland's
// after simplexDegenerate steps; B⁻¹ recomputed every simplexReinvertEvery
// pivots and at the optimum.
//
// Tolerances (the LP is scaled so its coefficients are O(1)):
const (
	// simplexOptTol: a reduced cost ≥ −simplexOptTol counts as non-negative
	// (optimality); the value the gonum call used.
	simplexOptTol = 1e-12
	// simplexPivTol: an entry of B⁻¹a_q ≤ simplexPivTol takes no part in
	// the ratio test, so no pivot divides by rounding noise.
	simplexPivTol = 1e-9
	// simplexTieTol: ratios within simplexTieTol of the minimum tie; among
	// them Dantzig mode takes the largest pivot (stability), Bland mode the
	// lowest basic index. A step of length ≤ simplexTieTol is degenerate.
	simplexTieTol = 1e-12
	// simplexFeasTol: a basic value above −simplexFeasTol is rounding error
	// and read as 0; below it the basis is infeasible (an error: the start
	// basis must be feasible, and pivots keep it so).
	simplexFeasTol = 1e-9
	// simplexSingTol: a Gauss–Jordan pivot below it means the basis being
	// inverted is singular.
	simplexSingTol = 1e-12
	// simplexDegenerate is how many degenerate steps in a row switch the
	// pivoting rule to Bland's.
	simplexDegenerate = 10
	// simplexReinvertEvery bounds the pivots between two inversions of B.
	simplexReinvertEvery = 100
)

// errSimplex reports a failure of the simplex (singular or infeasible
// basis, unbounded LP, iteration cap): with UpperBound's LP each is a bug,
// reported as errs.Internal by the caller.
var errSimplex = errors.New("simplex")

// sparseLP is min c·x s.t. A·x = b, x ≥ 0 in standard form with A stored by
// columns: column j's non-zeros are rowIdx[colStart[j]:colStart[j+1]] and
// val[…] there.
type sparseLP struct {
	rows, cols int
	colStart   []int
	rowIdx     []int
	val        []float64
	b, c       []float64
}

func (lp *sparseLP) col(j int) ([]int, []float64) {
	s, e := lp.colStart[j], lp.colStart[j+1]
	return lp.rowIdx[s:e], lp.val[s:e]
}

// revised is the state of the revised simplex: the basis (head[i] is the
// variable of position i), B⁻¹ (rows × rows, row-major, row i belonging to
// head[i]) and the basic values xB = B⁻¹b.
type revised struct {
	lp   *sparseLP
	head []int
	in   []bool
	binv []float64
	xB   []float64
	y    []float64 // simplex multipliers c_Bᵀ B⁻¹
	d    []float64 // reduced costs c − Aᵀy
	u    []float64 // B⁻¹ a_q
	work []float64 // rows × rows, for invert
}

// invert computes B⁻¹ of the current head from the LP's data by
// Gauss–Jordan elimination with partial pivoting, then xB = B⁻¹b. Rows are
// swapped with their basic variables, so head may be permuted. It checks B
// is non-singular and xB ≥ −simplexFeasTol (then clamps xB to ≥ 0).
func (s *revised) invert() error {
	lp, n := s.lp, s.lp.rows
	M, inv := s.work, s.binv
	clear(M)
	clear(inv)
	for k, j := range s.head {
		rows, vals := lp.col(j)
		for p, i := range rows {
			M[i*n+k] = vals[p]
		}
		inv[k*n+k] = 1
	}
	// M is B (column k = a_head[k]); row operations (swaps included) turn
	// [B | I] into [I | B⁻¹].
	for k := range n {
		p, best := -1, simplexSingTol
		for i := k; i < n; i++ {
			if a := math.Abs(M[i*n+k]); a >= best {
				p, best = i, a
			}
		}
		if p < 0 {
			return fmt.Errorf("%w: the basis is singular at column %d", errSimplex, s.head[k])
		}
		if p != k {
			for c := range n {
				M[p*n+c], M[k*n+c] = M[k*n+c], M[p*n+c]
				inv[p*n+c], inv[k*n+c] = inv[k*n+c], inv[p*n+c]
			}
		}
		f := 1 / M[k*n+k]
		mk, ik := M[k*n:(k+1)*n], inv[k*n:(k+1)*n]
		for c := range n {
			mk[c] *= f
			ik[c] *= f
		}
		for i := range n {
			if i == k {
				continue
			}
			g := M[i*n+k]
			if g == 0 {
				continue
			}
			mi, ii := M[i*n:(i+1)*n], inv[i*n:(i+1)*n]
			for c := range n {
				mi[c] -= g * mk[c]
				ii[c] -= g * ik[c]
			}
		}
	}
	// Row k of B⁻¹ belongs to column k of B, head[k].
	for i := range n {
		v := 0.0
		for k, bk := range lp.b {
			v += inv[i*n+k] * bk
		}
		if v < 0 {
			if v < -simplexFeasTol {
				return fmt.Errorf("%w: the basis is infeasible (x_%d = %g)", errSimplex, s.head[i], v)
			}
			v = 0
		}
		s.xB[i] = v
	}
	return nil
}

// price computes y = c_Bᵀ B⁻¹ and the reduced costs d_j = c_j − yᵀa_j of
// the non-basic columns (0 for basic ones).
func (s *revised) price() {
	lp, n := s.lp, s.lp.rows
	clear(s.y)
	for i, j := range s.head {
		cb := lp.c[j]
		if cb == 0 {
			continue
		}
		row := s.binv[i*n : (i+1)*n]
		for k, v := range row {
			s.y[k] += cb * v
		}
	}
	for j := range lp.cols {
		if s.in[j] {
			s.d[j] = 0
			continue
		}
		rows, vals := lp.col(j)
		v := lp.c[j]
		for p, i := range rows {
			v -= s.y[i] * vals[p]
		}
		s.d[j] = v
	}
}

// entering picks the entering column: the most negative reduced cost
// (Dantzig), or with bland the lowest index with a negative one; -1 when
// every reduced cost is ≥ −simplexOptTol.
func (s *revised) entering(bland bool) int {
	q := -1
	for j, v := range s.d {
		if s.in[j] || v >= -simplexOptTol {
			continue
		}
		if bland {
			return j
		}
		if q < 0 || v < s.d[q] {
			q = j
		}
	}
	return q
}

// leaving computes u = B⁻¹a_q and the ratio test: the position r of the
// minimum xB_i/u_i over u_i > simplexPivTol (ties as in simplexTieTol) and
// the step θ; r = -1 when the LP is unbounded along q.
func (s *revised) leaving(q int, bland bool) (r int, theta float64) {
	n := s.lp.rows
	rows, vals := s.lp.col(q)
	for i := range n {
		v := 0.0
		bi := s.binv[i*n : (i+1)*n]
		for p, k := range rows {
			v += bi[k] * vals[p]
		}
		s.u[i] = v
	}
	r, theta = -1, math.Inf(1)
	for i, a := range s.u {
		if a <= simplexPivTol {
			continue
		}
		ratio := s.xB[i] / a
		switch {
		case r < 0 || ratio < theta-simplexTieTol:
			r, theta = i, ratio
		case ratio <= theta+simplexTieTol:
			if bland && s.head[i] < s.head[r] || !bland && a > s.u[r] {
				r = i
			}
			theta = math.Min(theta, ratio)
		}
	}
	return r, theta
}

// pivot makes q basic at position r: xB moves by θ along −u, and B⁻¹ is
// updated by the elementary row operations that turn u into e_r.
func (s *revised) pivot(r, q int, theta float64) {
	n := s.lp.rows
	for i, a := range s.u {
		if i != r {
			s.xB[i] = math.Max(0, s.xB[i]-theta*a)
		}
	}
	s.xB[r] = theta
	br := s.binv[r*n : (r+1)*n]
	f := 1 / s.u[r]
	for k := range br {
		br[k] *= f
	}
	for i, a := range s.u {
		if i == r || a == 0 {
			continue
		}
		bi := s.binv[i*n : (i+1)*n]
		for k, v := range br {
			bi[k] -= a * v
		}
	}
	s.in[s.head[r]] = false
	s.head[r] = q
	s.in[q] = true
}

// solveSimplex minimizes lp from a primal feasible basis (one column per
// row). Each step enters the non-basic column of most negative reduced cost
// (Dantzig's rule) and leaves the position of the minimum ratio xB_i/u_i
// (ties: the largest pivot u_i). After simplexDegenerate degenerate steps
// in a row (step length 0: no progress) it switches to Bland's rule — the
// lowest index enters, the lowest basic index leaves among tied ratios —
// which cannot cycle, and back to Dantzig after the next step that makes
// progress. B⁻¹ is recomputed from the data every simplexReinvertEvery
// pivots and at the optimum, where optimality is checked again, so the
// returned basis is optimal for the LP itself, not for an inverse carrying
// rounding error.
//
// It returns the optimum c·x, x (the basic values of the final inversion,
// the rest 0) and the optimal basis (head[i] is position i's variable).
func solveSimplex(lp *sparseLP, basis []int) (opt float64, x []float64, head []int, err error) {
	n := lp.rows
	if len(basis) != n {
		return 0, nil, nil, fmt.Errorf("%w: %d basic columns for %d rows", errSimplex, len(basis), n)
	}
	buf := make([]float64, 2*n*n+3*n+lp.cols)
	s := &revised{lp: lp, head: append([]int(nil), basis...), in: make([]bool, lp.cols),
		binv: buf[:n*n], work: buf[n*n : 2*n*n], xB: buf[2*n*n : 2*n*n+n],
		y: buf[2*n*n+n : 2*n*n+2*n], u: buf[2*n*n+2*n : 2*n*n+3*n], d: buf[2*n*n+3*n:]}
	for _, j := range basis {
		if j < 0 || j >= lp.cols || s.in[j] {
			return 0, nil, nil, fmt.Errorf("%w: basic column %d out of range or repeated", errSimplex, j)
		}
		s.in[j] = true
	}
	if err := s.invert(); err != nil {
		return 0, nil, nil, err
	}
	maxIter := 50 * (lp.rows + lp.cols)
	degenerate, sinceInvert := 0, 0
	for iter := 0; ; iter++ {
		if iter > maxIter {
			return 0, nil, nil, fmt.Errorf("%w: no optimum after %d pivots", errSimplex, maxIter)
		}
		bland := degenerate >= simplexDegenerate
		s.price()
		q := s.entering(bland)
		if q < 0 {
			// Optimal for this B⁻¹: invert B afresh and look again, unless
			// it was just inverted.
			if sinceInvert == 0 {
				break
			}
			if err := s.invert(); err != nil {
				return 0, nil, nil, err
			}
			sinceInvert = 0
			continue
		}
		r, theta := s.leaving(q, bland)
		if r < 0 {
			return 0, nil, nil, fmt.Errorf("%w: the LP is unbounded along column %d", errSimplex, q)
		}
		if theta <= simplexTieTol {
			degenerate++
		} else {
			degenerate = 0
		}
		s.pivot(r, q, theta)
		if sinceInvert++; sinceInvert >= simplexReinvertEvery {
			if err := s.invert(); err != nil {
				return 0, nil, nil, err
			}
			sinceInvert = 0
		}
	}
	x = make([]float64, lp.cols)
	for i, j := range s.head {
		x[j] = s.xB[i]
	}
	for j, v := range x {
		opt += lp.c[j] * v
	}
	return opt, x, s.head, nil
}
