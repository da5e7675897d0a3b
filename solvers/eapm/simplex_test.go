package eapm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// The dense revised simplex against gonum's lp.Simplex (the solver the
// bound used before, kept as the oracle) on the bound's own LPs.

// denseA returns lp's constraint matrix as a gonum matrix.
func (l *sparseLP) denseA() *mat.Dense {
	A := mat.NewDense(l.rows, l.cols, nil)
	for j := range l.cols {
		rows, vals := l.col(j)
		for p, i := range rows {
			A.Set(i, j, vals[p])
		}
	}
	return A
}

// boundLPOf builds UpperBound's scaled LP and start basis for in.
func boundLPOf(t *testing.T, in *Instance) (*sparseLP, []int) {
	t.Helper()
	md, err := newModel(in)
	if err != nil {
		t.Fatal(err)
	}
	demand := make([]int, in.T())
	rev := 0.0
	for _, u := range in.Users {
		demand[u.Type] += u.Tasks
		rev += float64(u.Tasks) * md.price[u.Type]
	}
	var types []int
	for ty, d := range demand {
		if d > 0 {
			types = append(types, ty)
		}
	}
	l, basis, _, _ := md.boundLP(types, demand, rev)
	return l, basis
}

// simplexTol is the agreement asked of the two solvers: the optima may
// differ by 1e-9 relative to max(1, |opt|) (the LP is scaled so its
// objective unit, c·Σ d_t min_j e_tj, makes an optimum O(1) to O(γ)).
const simplexTol = 1e-9

// checkAgainstGonum solves l both ways and checks: equal optima; our x
// primal feasible (A·x = b, x ≥ 0) with c·x = opt; and our basis optimal by
// its own certificate — y solving Bᵀy = c_B gives reduced costs c − Aᵀy ≥ 0
// and b·y = opt (strong duality), whatever gonum says. With sameX (an LP
// whose optimum is unique) x must also be gonum's x, entry by entry, to
// 1e-9 relative to max(1e-3, |x_j|).
func checkAgainstGonum(t *testing.T, name string, l *sparseLP, basis []int, sameX bool) (ours float64) {
	t.Helper()
	opt, x, head, err := solveSimplex(l, basis)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	A := l.denseA()
	want, gx, gerr := lp.Simplex(l.c, A, l.b, 1e-12, append([]int(nil), basis...))
	if gerr != nil {
		t.Fatalf("%s: gonum: %v", name, gerr)
	}
	scale := math.Max(1, math.Abs(want))
	if math.Abs(opt-want) > simplexTol*scale {
		t.Fatalf("%s: optimum %.17g, gonum %.17g (difference %.3g)", name, opt, want, opt-want)
	}
	if sameX {
		for j, v := range x {
			if math.Abs(v-gx[j]) > simplexTol*math.Max(1e-3, math.Abs(gx[j])) {
				t.Fatalf("%s: x_%d = %.17g, gonum %.17g", name, j, v, gx[j])
			}
		}
	}
	cx := 0.0
	for j, v := range x {
		if v < 0 {
			t.Fatalf("%s: x_%d = %g < 0", name, j, v)
		}
		cx += l.c[j] * v
	}
	if math.Abs(cx-opt) > simplexTol*scale {
		t.Fatalf("%s: c·x = %g, optimum %g", name, cx, opt)
	}
	ax := make([]float64, l.rows)
	for j, v := range x {
		rows, vals := l.col(j)
		for p, i := range rows {
			ax[i] += vals[p] * v
		}
	}
	for i := range ax {
		if math.Abs(ax[i]-l.b[i]) > simplexTol*math.Max(1, math.Abs(l.b[i])) {
			t.Fatalf("%s: row %d: A·x = %.17g, b = %g", name, i, ax[i], l.b[i])
		}
	}
	// The dual certificate of the returned basis.
	B := mat.NewDense(l.rows, l.rows, nil)
	cb := mat.NewVecDense(l.rows, nil)
	for k, j := range head {
		B.SetCol(k, mat.Col(nil, j, A))
		cb.SetVec(k, l.c[j])
	}
	var y mat.VecDense
	if err := y.SolveVec(B.T(), cb); err != nil {
		t.Fatalf("%s: the returned basis is singular: %v", name, err)
	}
	by := 0.0
	for i, bi := range l.b {
		by += bi * y.AtVec(i)
	}
	if math.Abs(by-opt) > simplexTol*scale {
		t.Fatalf("%s: b·y = %g, optimum %g: no duality", name, by, opt)
	}
	for j := range l.cols {
		d := l.c[j] - mat.Dot(A.ColView(j), &y)
		if d < -simplexTol {
			t.Fatalf("%s: reduced cost of column %d is %g < 0: the basis is not optimal", name, j, d)
		}
	}
	return opt
}

// randomBoundInstance draws an instance of the bound LP's shape: 1–8 task
// types in use, 1–8 machine types with 1–3 machines, γ ∈ [0.5, 3]. With
// ties, ETC and APC are small integers and some machine columns are copies
// of others (equal ETC and APC columns), so costs, times and ratios tie.
func randomBoundInstance(rng *rand.Rand, ties bool) *Instance {
	T, m := 1+rng.IntN(8), 1+rng.IntN(8)
	in := &Instance{Gamma: 0.5 + 2.5*rng.Float64(), C: 0.5 + rng.Float64(), Machines: make([]int, m)}
	for range T {
		etc, apc := make([]float64, m), make([]float64, m)
		for j := range m {
			if ties {
				etc[j], apc[j] = float64(1+rng.IntN(3)), float64(1+rng.IntN(3))
			} else {
				etc[j], apc[j] = 0.5+10*rng.Float64(), 10+200*rng.Float64()
			}
		}
		in.ETC, in.APC = append(in.ETC, etc), append(in.APC, apc)
	}
	for j := range m {
		in.Machines[j] = 1 + rng.IntN(3)
		if ties && j > 0 && rng.IntN(2) == 0 { // machine j copies machine j' < j
			src := rng.IntN(j)
			for t := range T {
				in.ETC[t][j], in.APC[t][j] = in.ETC[t][src], in.APC[t][src]
			}
			in.Machines[j] = in.Machines[src]
		}
	}
	for range 1 + rng.IntN(3*T) {
		tasks := 1 + rng.IntN(500)
		if ties {
			tasks = 1 + rng.IntN(3)
		}
		in.Users = append(in.Users, User{Type: rng.IntN(T), Tasks: tasks})
	}
	return in
}

func TestSimplexMatchesGonumOnRandomBoundLPs(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2022))
	for trial := range 600 {
		ties := trial%2 == 1
		in := randomBoundInstance(rng, ties)
		if trial%10 == 0 {
			in.Gamma = []float64{0.5, 0.9, 1}[trial/10%3] // no profit: value 0
		}
		l, basis := boundLPOf(t, in)
		opt := checkAgainstGonum(t, "random", l, basis, false)
		if in.Gamma <= 1 && opt < -simplexTol {
			t.Fatalf("trial %d: γ = %v ≤ 1 but the LP's optimum is %g < 0 (a profit)", trial, in.Gamma, opt)
		}
	}
}

// A degenerate LP by hand: all task types identical (equal ETC and APC
// rows) and all machines identical (equal columns), so every w column of a
// type ties and the start basis is degenerate in every row k.
func TestSimplexOnIdenticalTypesAndMachines(t *testing.T) {
	for _, gamma := range []float64{0.8, 1, 1.0000001, 1.5, 3} {
		in := &Instance{Gamma: gamma, C: 1}
		for range 4 {
			in.ETC = append(in.ETC, []float64{2, 2, 2})
			in.APC = append(in.APC, []float64{5, 5, 5})
		}
		for ty := range 4 {
			in.Users = append(in.Users, User{Type: ty, Tasks: 6})
		}
		l, basis := boundLPOf(t, in)
		checkAgainstGonum(t, "identical", l, basis, false)
		b, err := UpperBound(in)
		if err != nil {
			t.Fatal(err)
		}
		// By hand: 24 tasks of 10 J on 3 machines, balanced MS = 24·2/3 = 16:
		// (24·10·γ − 24·10)/16 = 15(γ − 1), or 0 when γ ≤ 1.
		want := math.Max(0, 15*(gamma-1))
		if math.Abs(b.Value-want) > 1e-9*math.Max(1, want) {
			t.Fatalf("γ = %v: bound %v, by hand %v", gamma, b.Value, want)
		}
	}
}

// Every instance of the seed's case 1 at γ = 1.1, 1.2, …, 2.0 (1,000 LPs;
// gonum takes about 10–50 ms on each, so -short checks every tenth). Their
// optima are unique: x must be gonum's too, so Bound's makespan, energy and
// X (and offline-lp's rounding) are unchanged.
func TestSimplexMatchesGonumOnTheSeedsCase1(t *testing.T) {
	seeds := seedOnce()
	step := 1
	if testing.Short() {
		step = 10
	}
	for k := 0; k < len(seeds.case1); k += step {
		for g := 11; g <= 20; g++ {
			in := seedInstance(seeds.case1[k], float64(g)/10)
			l, basis := boundLPOf(t, in)
			checkAgainstGonum(t, fmt.Sprintf("case 1 instance %d γ=%v", k, in.Gamma), l, basis, true)
		}
	}
}

func TestSimplexMatchesGonumOnTarplee(t *testing.T) {
	for _, gamma := range []float64{1.01, 1.1, 1.21, 1.46} {
		in, _ := tarpleeInstance(false, nil)
		in.Gamma = gamma
		l, basis := boundLPOf(t, in)
		checkAgainstGonum(t, fmt.Sprintf("tarplee γ=%v", gamma), l, basis, true)
	}
}

// The solver's own errors: a singular or infeasible start basis and an
// unbounded LP are reported, not looped on.
func TestSimplexReportsBadInput(t *testing.T) {
	// min −x0 s.t. x0 − x1 = 1 (x1 a surplus): unbounded.
	unb := &sparseLP{rows: 1, cols: 2, colStart: []int{0, 1, 2}, rowIdx: []int{0, 0}, val: []float64{1, -1},
		b: []float64{1}, c: []float64{-1, 0}}
	if _, _, _, err := solveSimplex(unb, []int{0}); err == nil {
		t.Fatal("unbounded LP: no error")
	}
	// Basis {x1} gives x1 = −1: infeasible.
	if _, _, _, err := solveSimplex(unb, []int{1}); err == nil {
		t.Fatal("infeasible basis: no error")
	}
	// Two rows, the same column twice.
	two := &sparseLP{rows: 2, cols: 2, colStart: []int{0, 2, 4}, rowIdx: []int{0, 1, 0, 1}, val: []float64{1, 1, 2, 2},
		b: []float64{1, 1}, c: []float64{1, 1}}
	if _, _, _, err := solveSimplex(two, []int{0, 1}); err == nil {
		t.Fatal("singular basis: no error")
	}
}

// denseLP is min c·x s.t. A·x = b, x ≥ 0 from a dense A.
func denseLP(A [][]float64, b, c []float64) *sparseLP {
	l := &sparseLP{rows: len(A), cols: len(c), colStart: []int{0}, b: b, c: c}
	for j := range c {
		for i := range A {
			if A[i][j] != 0 {
				l.rowIdx = append(l.rowIdx, i)
				l.val = append(l.val, A[i][j])
			}
		}
		l.colStart = append(l.colStart, len(l.rowIdx))
	}
	return l
}

// TestSimplexSolvesBealesLP: Beale's LP (1955), as Bertsimas &
// Tsitsiklis give it (Example 3.6): from the slack basis every pivot is
// degenerate, and Dantzig's rule with ratio ties to the lowest index
// cycles on it for ever. Ours breaks ratio ties to the largest pivot and
// leaves that path; it reaches the book's optimum −5/4 at x4 = 1, x6 = 1
// (x1 = 3/4 basic), as gonum does.
func TestSimplexSolvesBealesLP(t *testing.T) {
	// Columns x1, x2, x3 (slacks), x4 … x7.
	l := denseLP([][]float64{
		{1, 0, 0, 1.0 / 4, -8, -1, 9},
		{0, 1, 0, 1.0 / 2, -12, -1.0 / 2, 3},
		{0, 0, 1, 0, 0, 1, 0},
	}, []float64{0, 0, 1}, []float64{0, 0, 0, -3.0 / 4, 20, -1.0 / 2, 6})
	opt, x, _, err := solveSimplex(l, []int{0, 1, 2})
	if err != nil {
		t.Fatalf("Beale's LP: %v", err)
	}
	if math.Abs(opt+1.25) > 1e-12 {
		t.Errorf("optimum %v, want −5/4", opt)
	}
	for j, want := range []float64{0.75, 0, 0, 1, 0, 1, 0} {
		if math.Abs(x[j]-want) > 1e-12 {
			t.Errorf("x%d = %v, want %v", j+1, x[j], want)
		}
	}
	checkAgainstGonum(t, "Beale", l, []int{0, 1, 2}, true)
}

// TestSimplexLeavesHallMcKinnonsCycle: Hall and McKinnon's cycling LP
// (Math. Programming 100, 2004, "The simplest examples where the simplex
// method cycles…": max 2.3x1 + 2.15x2 − 13.55x3 − 0.4x4 under two
// homogeneous rows), here with the row x1 + x2 + x3 + x4 ≤ 1 added so
// that it has an optimum. From the slack basis Dantzig's rule pivots
// around a cycle of degenerate steps in which the leaving row is the only
// candidate, so no ratio tie rule, ours included, breaks it (with the
// switch to Bland's rule disabled the method stops at its pivot cap).
// The switch after simplexDegenerate degenerate steps must end the cycle
// at the optimum −0.875 (x2 = x4 = 1/2), gonum's.
func TestSimplexLeavesHallMcKinnonsCycle(t *testing.T) {
	l := denseLP([][]float64{
		{0.4, 0.2, -1.4, -0.2, 1, 0, 0},
		{-7.8, -1.4, 7.8, 0.4, 0, 1, 0},
		{1, 1, 1, 1, 0, 0, 1},
	}, []float64{0, 0, 1}, []float64{-2.3, -2.15, 13.55, 0.4, 0, 0, 0})
	opt, _, _, err := solveSimplex(l, []int{4, 5, 6})
	if err != nil {
		t.Fatalf("Hall and McKinnon's LP: %v (Dantzig's rule cycles on it; the switch to Bland's must end the cycle)", err)
	}
	if math.Abs(opt+0.875) > 1e-12 {
		t.Errorf("optimum %v, want −0.875", opt)
	}
	checkAgainstGonum(t, "Hall–McKinnon", l, []int{4, 5, 6}, false)
}
