package stats

import (
	"math"
	"slices"
)

// Holm adjusts p-values for multiple comparisons by Holm's step-down
// method: the i-th smallest of m is multiplied by m − i + 1 (i from 1),
// the results made non-decreasing in that order and capped at 1. The
// result is in the order of ps.
func Holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case ps[i] < ps[j]:
			return -1
		case ps[i] > ps[j]:
			return 1
		}
		return 0
	})
	out := make([]float64, m)
	run := 0.0
	for rank, i := range idx {
		run = math.Max(run, math.Min(1, float64(m-rank)*ps[i]))
		out[i] = run
	}
	return out
}

// WinTieLoss counts, over the pairs where both are numbers, how often a
// is better than b, equal to it within tol, and worse; higher says which
// direction is better.
func WinTieLoss(a, b []float64, higher bool, tol float64) (win, tie, loss int) {
	for i := range min(len(a), len(b)) {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			continue
		}
		d := a[i] - b[i]
		if !higher {
			d = -d
		}
		switch {
		case math.Abs(d) <= tol:
			tie++
		case d > 0:
			win++
		default:
			loss++
		}
	}
	return
}

// Profile is a performance profile (Dolan and Moré 2002): for method s,
// Rho[s][k] is the share of instances on which s is within Tau[k] times
// the best method on that instance.
type Profile struct {
	Tau []float64
	Rho [][]float64
}

// PerformanceProfile computes the profile of values[s][p] (method s on
// instance p; NaN where s failed) at the given τ ≥ 1. For a metric where
// higher is better the ratio is best/value, so that 1 is the best either
// way. An instance where every method failed counts against every
// method; a value of 0 against a best of 0 has ratio 1, a positive value
// against a best of 0 an infinite one.
func PerformanceProfile(values [][]float64, higher bool, taus []float64) Profile {
	pr := Profile{Tau: append([]float64(nil), taus...), Rho: make([][]float64, len(values))}
	if len(values) == 0 {
		return pr
	}
	np := len(values[0])
	ratios := make([][]float64, len(values))
	for s := range values {
		ratios[s] = make([]float64, np)
	}
	for p := range np {
		best := math.NaN()
		for s := range values {
			v := values[s][p]
			if math.IsNaN(v) {
				continue
			}
			if math.IsNaN(best) || (higher && v > best) || (!higher && v < best) {
				best = v
			}
		}
		for s := range values {
			v := values[s][p]
			var r float64
			switch {
			case math.IsNaN(v) || math.IsNaN(best):
				r = math.Inf(1)
			case v == best:
				r = 1
			case higher && v <= 0, !higher && best <= 0:
				r = math.Inf(1)
			case higher:
				r = best / v
			default:
				r = v / best
			}
			ratios[s][p] = r
		}
	}
	for s := range values {
		pr.Rho[s] = make([]float64, len(taus))
		for k, tau := range taus {
			c := 0
			for _, r := range ratios[s] {
				if r <= tau {
					c++
				}
			}
			if np > 0 {
				pr.Rho[s][k] = float64(c) / float64(np)
			}
		}
	}
	return pr
}
