package cyclic

import (
	"math"
	"math/rand"
	"testing"
)

// randomAlts fabricates alternatives: windows with random node times and
// costs (the DP sees only runtime, processor time and cost).
func randomAlts(rng *rand.Rand, jobs, maxAlts int) [][]Window {
	alts := make([][]Window, jobs)
	for i := range alts {
		for range 1 + rng.Intn(maxAlts) {
			m := 1 + rng.Intn(3)
			w := Window{Start: rng.Intn(50)}
			for n := range m {
				w.Nodes = append(w.Nodes, n)
				t := 1 + rng.Intn(20)
				w.Times = append(w.Times, t)
				w.Cost += float64(t) * (0.5 + rng.Float64()*3)
			}
			alts[i] = append(alts[i], w)
		}
	}
	return alts
}

// bruteChoose enumerates every combination: the best objective among those
// within the limit (raised to Σ min g when none fits).
func bruteChoose(alts [][]Window, s string, limit float64) (best float64, lim float64) {
	if limit <= 0 {
		limit = DefaultLimit(s, alts)
	}
	minG := 0.0
	for _, a := range alts {
		m := math.Inf(1)
		for _, w := range a {
			g, _ := GF(s, w)
			m = min(m, g)
		}
		minG += m
	}
	if minG > limit+costEps*max(1, limit) {
		limit = minG
	}
	sign := 1.0
	if Maximizes(s) {
		sign = -1
	}
	best = math.Inf(1)
	pick := make([]int, len(alts))
	var rec func(i int, g, f float64)
	rec = func(i int, g, f float64) {
		if i == len(alts) {
			if g <= limit+1e-7*max(1, limit) {
				best = min(best, sign*f)
			}
			return
		}
		for j, w := range alts[i] {
			pick[i] = j
			gj, fj := GF(s, w)
			rec(i+1, g+gj, f+fj)
		}
	}
	rec(0, 0, 0)
	return sign * best, limit
}

func TestChooseEqualsBruteForce(t *testing.T) {
	for _, s := range Strategies() {
		for seed := range int64(300) {
			rng := rand.New(rand.NewSource(seed))
			alts := randomAlts(rng, 1+rng.Intn(5), 4)
			limit := 0.0
			if seed%3 == 1 { // a fixed limit, sometimes too tight
				g := DefaultLimit(s, alts)
				limit = math.Round(g * (0.5 + rng.Float64()))
			}
			c, err := Choose(alts, s, limit)
			if err != nil {
				t.Fatalf("%s seed %d: %v", s, seed, err)
			}
			want, lim := bruteChoose(alts, s, limit)
			if math.Abs(c.F-want) > 1e-6*max(1, math.Abs(want)) {
				t.Fatalf("%s seed %d: DP objective %v, brute force %v (alts %v)", s, seed, c.F, want, alts)
			}
			// recompute from the pick: within the (possibly raised) limit
			g, f := 0.0, 0.0
			for i, j := range c.Pick {
				if j < 0 || j >= len(alts[i]) {
					t.Fatalf("%s seed %d: pick %v out of range", s, seed, c.Pick)
				}
				gj, fj := GF(s, alts[i][j])
				g, f = g+gj, f+fj
			}
			if math.Abs(g-c.G) > 1e-6 || math.Abs(f-c.F) > 1e-6 {
				t.Fatalf("%s seed %d: reported G,F %v,%v; pick gives %v,%v", s, seed, c.G, c.F, g, f)
			}
			if g > c.Limit+1e-7*max(1, c.Limit) || math.Abs(c.Limit-lim) > 1e-9*max(1, lim) {
				t.Fatalf("%s seed %d: G %v over limit %v (brute-force limit %v)", s, seed, g, c.Limit, lim)
			}
			if !c.Raised && limit > 0 && g > limit+1e-7*max(1, limit) {
				t.Fatalf("%s seed %d: limit %v exceeded without raising", s, seed, limit)
			}
		}
	}
}

// The eq. (2)/(4) limit never needs raising (Σ ⌊mean⌋ ≥ Σ min for integer g;
// for cost it can fall below by the floor, then it is raised).
func TestDefaultLimitHandChecked(t *testing.T) {
	w := func(times []int, cost float64) Window {
		return Window{Nodes: make([]int, len(times)), Times: times, Cost: cost}
	}
	alts := [][]Window{
		{w([]int{3, 4}, 10), w([]int{2}, 5)},             // proc 7, 2 → mean 4.5 → 4; cost mean 7.5 → 7
		{w([]int{5}, 9), w([]int{6}, 4), w([]int{1}, 2)}, // proc 5, 6, 1 → 4; cost 5
	}
	if got := DefaultLimit(StratIncome, alts); got != 8 {
		t.Errorf("T* = %v, want 8", got)
	}
	if got := DefaultLimit(StratRuntime, alts); got != 12 {
		t.Errorf("B* = %v, want 12", got)
	}
	// min Σ runtime s.t. Σ cost ≤ 12: runtimes {4,2} and {5,6,1}; costs {10,5} {9,4,2}.
	// best: (2, cost 5) + (1, cost 2) = runtime 3, cost 7.
	c, err := Choose(alts, StratRuntime, 0)
	if err != nil || c.Pick[0] != 1 || c.Pick[1] != 2 || c.F != 3 || c.G != 7 {
		t.Errorf("runtime choice %+v %v", c, err)
	}
	// max income s.t. Σ proc ≤ 8: (7,10)+(1,2) = 8 → 12; (2,5)+(6,4) = 8 → 9; (2,5)+(5,9) = 7 → 14.
	c, err = Choose(alts, StratIncome, 0)
	if err != nil || c.Pick[0] != 1 || c.Pick[1] != 0 || c.F != 14 {
		t.Errorf("income choice %+v %v", c, err)
	}
}
