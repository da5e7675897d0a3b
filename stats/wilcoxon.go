package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Wilcoxon is the result of a signed-rank test.
type Wilcoxon struct {
	N     int     // nonzero differences ranked
	V     float64 // sum of the ranks of the positive differences
	P     float64 // two-sided p-value
	Exact bool    // exact null distribution (else the normal approximation)
}

// WilcoxonSignedRank tests whether the paired differences a[i] − b[i]
// (pairs with a NaN left out) are centred on zero, two-sided.
func WilcoxonSignedRank(a, b []float64) Wilcoxon {
	var d []float64
	for i := range min(len(a), len(b)) {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			continue
		}
		if x := a[i] - b[i]; x != 0 {
			d = append(d, x)
		}
	}
	n := len(d)
	if n == 0 {
		return Wilcoxon{P: 1}
	}
	ranks, ties := rankAbs(d)
	v := 0.0
	for i, x := range d {
		if x > 0 {
			v += ranks[i]
		}
	}
	w := Wilcoxon{N: n, V: v}
	if n < 50 && !ties {
		w.Exact = true
		w.P = exactP(n, v)
		return w
	}
	// Normal approximation, tie-corrected, with continuity correction.
	mu := float64(n) * float64(n+1) / 4
	sigma2 := float64(n)*float64(n+1)*float64(2*n+1)/24 - tieTerm(d)/48
	if sigma2 <= 0 {
		w.P = 1
		return w
	}
	z := v - mu
	switch { // R: z − sign(z)·0.5
	case z > 0:
		z -= 0.5
	case z < 0:
		z += 0.5
	}
	z /= math.Sqrt(sigma2)
	w.P = math.Min(1, 2*distuv.UnitNormal.CDF(-math.Abs(z)))
	return w
}

// rankAbs ranks |d| (average ranks for ties) and says whether any tie.
func rankAbs(d []float64) ([]float64, bool) {
	idx := make([]int, len(d))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		switch ai, aj := math.Abs(d[i]), math.Abs(d[j]); {
		case ai < aj:
			return -1
		case ai > aj:
			return 1
		}
		return 0
	})
	ranks := make([]float64, len(d))
	ties := false
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && math.Abs(d[idx[j]]) == math.Abs(d[idx[i]]) {
			j++
		}
		if j-i > 1 {
			ties = true
		}
		r := float64(i+j+1) / 2 // ranks i+1 … j averaged
		for k := i; k < j; k++ {
			ranks[idx[k]] = r
		}
		i = j
	}
	return ranks, ties
}

// tieTerm is Σ (t³ − t) over the groups of tied |d|.
func tieTerm(d []float64) float64 {
	abs := make([]float64, len(d))
	for i, x := range d {
		abs[i] = math.Abs(x)
	}
	slices.Sort(abs)
	s := 0.0
	for i := 0; i < len(abs); {
		j := i + 1
		for j < len(abs) && abs[j] == abs[i] {
			j++
		}
		t := float64(j - i)
		s += t*t*t - t
		i = j
	}
	return s
}

// exactP is the two-sided p-value of V under the null: the count of rank
// subsets of {1..n} with a sum as extreme as v, over 2ⁿ, doubled.
func exactP(n int, v float64) float64 {
	max := n * (n + 1) / 2
	count := make([]float64, max+1) // count[s]: subsets of ranks with sum s
	count[0] = 1
	for r := 1; r <= n; r++ {
		for s := max; s >= r; s-- {
			count[s] += count[s-r]
		}
	}
	total := math.Pow(2, float64(n))
	// The distribution is symmetric about max/2: take the smaller tail.
	k := int(math.Round(v))
	if float64(k) > float64(max)/2 {
		k = max - k
	}
	tail := 0.0
	for s := 0; s <= k; s++ {
		tail += count[s]
	}
	return math.Min(1, 2*tail/total)
}
