package cyclic

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"schedlab/errs"
)

// VO strategies (seed eqs. 10–13, plus proctime: eq. 11 on processor time,
// the criterion of the seed's Fig. 3 and Table 3).
const (
	StratIncome   = "income"   // (10) max Σ cost (owners' income) s.t. Σ processor time ≤ T*
	StratRuntime  = "runtime"  // (11) min Σ runtime s.t. Σ cost ≤ B*
	StratProcTime = "proctime" // (11) min Σ processor time s.t. Σ cost ≤ B*
	StratCost     = "cost"     // (12) min Σ cost s.t. Σ processor time ≤ T*
	StratIdle     = "idle"     // (13) max Σ processor time (min idle) s.t. Σ processor time ≤ T*
)

// strategies are the VO strategies.
var strategies = [...]string{StratIncome, StratRuntime, StratProcTime, StratCost, StratIdle}

// Strategies lists the VO strategies.
func Strategies() []string { return slices.Clone(strategies[:]) }

// maxDPEntries bounds the DP's backtrack table (int16 entries): 64 Mi × 2 B.
const maxDPEntries = 64 << 20

// Choice is the DP's combination: Pick[i] indexes alts[i]; G is the total
// of the limited quantity (processor time or cost), Limit the limit used,
// Raised whether the limit had to be raised to Σ_i min g_i to admit any
// combination, F the objective Σ f_i.
type Choice struct {
	Pick   []int
	G      float64
	Limit  float64
	Raised bool
	F      float64
}

// limitedByCost reports whether strategy s limits the cost (B*) rather
// than the processor time (T*).
func limitedByCost(s string) bool { return s == StratRuntime || s == StratProcTime }

// GF returns a window's limited quantity g and objective f under strategy s.
func GF(s string, w Window) (g, f float64) {
	switch s {
	case StratIncome:
		return float64(w.ProcTime()), w.Cost
	case StratRuntime:
		return w.Cost, float64(w.Runtime())
	case StratProcTime:
		return w.Cost, float64(w.ProcTime())
	case StratCost:
		return float64(w.ProcTime()), w.Cost
	}
	return float64(w.ProcTime()), float64(w.ProcTime()) // idle
}

// Maximizes reports whether strategy s maximizes its objective.
func Maximizes(s string) bool { return s == StratIncome || s == StratIdle }

// DefaultLimit is the seed's eqs. (2), (4): g* = Σ_i ⌊mean over job i's
// alternatives of g_i⌋.
func DefaultLimit(s string, alts [][]Window) float64 {
	tot := 0.0
	for _, a := range alts {
		sum := 0.0
		for _, w := range a {
			g, _ := GF(s, w)
			sum += g
		}
		tot += math.Floor(sum / float64(len(a)))
	}
	return tot
}

// Choose picks one alternative per job (every alts[i] non-empty) optimizing
// strategy s under the limit (≤ 0: DefaultLimit) by dynamic programming
// over the jobs. It is exact: when the limited quantity is the integer
// processor time the table runs over g = 0..⌊limit⌋ (best f per exact total
// g); when it is the real-valued cost, over the integer objective F (least
// cost per exact total F) and the answer is the least F whose cost fits.
// If no combination fits the limit it is raised to Σ_i min g_i (Raised).
func Choose(alts [][]Window, s string, limit float64) (Choice, error) {
	n := len(alts)
	c := Choice{Pick: make([]int, n)}
	if n == 0 {
		return c, nil
	}
	if limit <= 0 {
		limit = DefaultLimit(s, alts)
	}
	// Every table of this choice in a few arrays kept for the next one.
	sc := chooseScratches.Get().(*chooseScratch)
	defer chooseScratches.Put(sc)
	total := 0
	for _, a := range alts {
		total += len(a)
	}
	sc.vals, sc.idx = grow(sc.vals, 4*total), grow(sc.idx, total)
	sc.rows, sc.keep = grow(sc.rows, 4*n), grow(sc.keep, n)
	g, f, gk, fk := sc.rows[:n:n], sc.rows[n:2*n:2*n], sc.rows[2*n:3*n:3*n], sc.rows[3*n:]
	vals, idx := sc.vals, sc.idx
	minG := 0.0
	for i, a := range alts {
		if len(a) == 0 {
			return c, fmt.Errorf("job %d has no alternative", i)
		}
		g[i], f[i], vals = vals[:len(a):len(a)], vals[len(a):2*len(a):2*len(a)], vals[2*len(a):]
		m := math.Inf(1)
		for j, w := range a {
			g[i][j], f[i][j] = GF(s, w)
			m = min(m, g[i][j])
		}
		minG += m
	}
	if minG > limit+costEps*max(1, limit) {
		limit, c.Raised = minG, true
	}
	c.Limit = limit
	// Only the alternatives no other one dominates can be needed: the DP
	// runs over those (as many as the distinct values, often far fewer).
	keep := sc.keep
	for i := range g {
		keep[i], idx = frontier(g[i], f[i], Maximizes(s), idx[:len(g[i]):len(g[i])]), idx[len(g[i]):]
		k := len(keep[i])
		gk[i], fk[i], vals = vals[:k:k], vals[k:2*k:2*k], vals[2*k:]
		for x, j := range keep[i] {
			gk[i][x], fk[i][x] = g[i][j], f[i][j]
		}
	}
	var err error
	if limitedByCost(s) {
		err = chooseByF(gk, fk, limit, c.Pick)
	} else {
		err = chooseByG(gk, fk, int(math.Floor(limit+1e-9)), Maximizes(s), c.Pick)
	}
	if err != nil {
		return c, err
	}
	for i, x := range c.Pick {
		j := keep[i][x]
		c.Pick[i] = j
		c.G += g[i][j]
		c.F += f[i][j]
	}
	return c, nil
}

// frontier returns, in index order, the alternatives of one job that no
// other dominates: none has a g (the limited quantity) no larger and an
// objective f no worse, with one of the two strictly better or both equal
// and a lower index. A dominated alternative can be swapped for its
// dominator in any combination without breaking the limit or losing
// objective, so the optimum is over the frontier. idx (len(g) long) is
// where it is written.
func frontier(g, f []float64, maximize bool, idx []int) []int {
	obj := func(j int) float64 {
		if maximize {
			return -f[j]
		}
		return f[j]
	}
	for j := range idx {
		idx[j] = j
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Or(cmp.Compare(g[a], g[b]), cmp.Compare(obj(a), obj(b)), a-b) })
	out := idx[:0]
	best := math.Inf(1)
	for _, j := range idx {
		if obj(j) < best {
			best = obj(j)
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}

// chooseByG: integer g (processor time), table over exact totals 0..G of
// the best signed objective.
func chooseByG(g, f [][]float64, G int, maximize bool, pick []int) error {
	n := len(g)
	sumMax := 0
	for i := range g {
		sumMax += int(max(0, slices.Max(g[i])))
	}
	G = min(G, sumMax)
	if int64(n)*int64(G+1) > maxDPEntries {
		return errs.New(errs.TooLarge, "limit", "the DP table would hold %d × %d entries, over the budget of %d", n, G+1, maxDPEntries)
	}
	sign := -1.0
	if maximize {
		sign = 1
	}
	ninf := math.Inf(-1)
	dp := make([]float64, G+1)
	nd := make([]float64, G+1)
	for x := range dp {
		dp[x] = ninf
	}
	dp[0] = 0
	from := make([]int16, n*(G+1))
	for i := range g {
		for x := range nd {
			nd[x] = ninf
		}
		row := from[i*(G+1) : (i+1)*(G+1)]
		for x, v := range dp {
			if v == ninf {
				continue
			}
			for j, gj := range g[i] {
				y := x + int(gj)
				if y > G {
					continue
				}
				if u := v + sign*f[i][j]; u > nd[y] {
					nd[y], row[y] = u, int16(j)
				}
			}
		}
		dp, nd = nd, dp
	}
	best := -1
	for x, v := range dp {
		if v != ninf && (best < 0 || v > dp[best]) {
			best = x
		}
	}
	if best < 0 {
		return fmt.Errorf("no combination within the limit %d", G)
	}
	for i := n - 1; i >= 0; i-- {
		j := int(from[i*(G+1)+best])
		pick[i] = j
		best -= int(g[i][j])
	}
	return nil
}

// chooseScratch is Choose's tables, kept for the next call.
type chooseScratch struct {
	vals []float64   // g, f and their frontier copies, job after job
	idx  []int       // the frontiers
	rows [][]float64 // g, f, gk, fk: n rows each
	keep [][]int
}

var chooseScratches = sync.Pool{New: func() any { return new(chooseScratch) }}

// dpScratch is chooseByF's tables, kept for the next call (a planner
// chooses once per cycle, thousands of times a run).
type dpScratch struct {
	dp, nd []float64
	from   []int16
	delta  []int
}

var dpScratches = sync.Pool{New: func() any { return new(dpScratch) }}

// chooseByF: real g (cost), integer f minimized; table over exact totals
// F of the least cost.
func chooseByF(g, f [][]float64, limit float64, pick []int) error {
	n := len(g)
	span := 0
	lo := make([]int, n)
	for i := range f {
		mn := slices.Min(f[i])
		lo[i] = int(mn)
		span += int(slices.Max(f[i]) - mn)
	}
	if int64(n)*int64(span+1) > maxDPEntries {
		return errs.New(errs.TooLarge, "limit", "the DP table would hold %d × %d entries, over the budget of %d", n, span+1, maxDPEntries)
	}
	inf := math.Inf(1)
	sc := dpScratches.Get().(*dpScratch)
	defer dpScratches.Put(sc)
	// from is read only where its row reached: no clearing needed
	sc.dp, sc.nd, sc.from = grow(sc.dp, span+1), grow(sc.nd, span+1), grow(sc.from, n*(span+1))
	dp, nd, from := sc.dp, sc.nd, sc.from
	for x := range dp {
		dp[x] = inf
	}
	dp[0] = 0
	reach := 0
	delta := sc.delta
	defer func() { sc.delta = delta }()
	for i := range g {
		// job i's alternatives move the state by delta[j]; states up to
		// the new reach are written (and reset) only
		delta = delta[:0]
		step := 0
		for _, v := range f[i] {
			delta = append(delta, int(v)-lo[i])
			step = max(step, int(v)-lo[i])
		}
		next := reach + step
		for x := range nd[:next+1] {
			nd[x] = inf
		}
		row := from[i*(span+1) : (i+1)*(span+1)]
		gi := g[i]
		for x := 0; x <= reach; x++ {
			v := dp[x]
			if v == inf {
				continue
			}
			for j, dj := range delta {
				if u := v + gi[j]; u < nd[x+dj] {
					nd[x+dj], row[x+dj] = u, int16(j)
				}
			}
		}
		reach = next
		dp, nd = nd, dp
	}
	tol := costEps * max(1, limit)
	best := -1
	for x, v := range dp {
		if v <= limit+tol {
			best = x
			break
		}
	}
	if best < 0 {
		return fmt.Errorf("no combination within the limit %v", limit)
	}
	for i := n - 1; i >= 0; i-- {
		j := int(from[i*(span+1)+best])
		pick[i] = j
		best -= int(f[i][j]) - lo[i]
	}
	return nil
}
