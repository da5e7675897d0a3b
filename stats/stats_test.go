package stats

import (
	"math"
	"slices"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// Hollander and Wolfe (1973), p. 29, the depression scale before (x) and
// after (y) a tranquilizer; R's ?wilcox.test example gives V = 40 and
// p = 0.01953 one-sided ("greater"), so 0.03906 two-sided: 10 of the 512
// rank subsets of 1..9 have a sum ≤ 5.
func TestWilcoxonExactHollanderWolfe(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	w := WilcoxonSignedRank(x, y)
	if w.N != 9 || w.V != 40 || !w.Exact || !near(w.P, 2*10.0/512, 1e-12) {
		t.Fatalf("got %+v, want V 40, exact p 0.0390625", w)
	}
	// Swapping the sides mirrors V (45 − 40) and keeps p.
	if s := WilcoxonSignedRank(y, x); s.V != 5 || !near(s.P, w.P, 1e-12) {
		t.Fatalf("swapped: %+v", s)
	}
}

// With ties, the normal approximation as R computes it, worked by hand:
// d = 1, 2, 2, −3, 4, 4; ranks of |d| 1, 2.5, 2.5, 4, 5.5, 5.5; V = 17;
// mean 6·7/4 = 10.5; variance 6·7·13/24 − (6 + 6)/48 = 22.5;
// z = (17 − 10.5 − 0.5)/√22.5 = 1.264911; p = 2Φ(−z) = 0.205903.
func TestWilcoxonNormalWithTiesByHand(t *testing.T) {
	a := []float64{1, 2, 2, -3, 4, 4, 7, math.NaN()}
	b := []float64{0, 0, 0, 0, 0, 0, 7, 1} // the zero difference and the NaN pair are dropped
	w := WilcoxonSignedRank(a, b)
	if w.N != 6 || w.V != 17 || w.Exact || !near(w.P, 0.205903, 1e-6) {
		t.Fatalf("got %+v, want V 17, normal p 0.205903", w)
	}
}

// R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02.
func TestHolmAsR(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if !near(got[i], want[i], 1e-12) {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
	if got := Holm([]float64{0.4, 0.5}); got[0] != 0.8 || got[1] != 0.8 {
		t.Fatalf("monotone and capped: %v", got)
	}
	if got := Holm([]float64{0.6, 0.7}); got[0] != 1 || got[1] != 1 {
		t.Fatalf("capped at 1: %v", got)
	}
}

func TestWinTieLoss(t *testing.T) {
	a := []float64{3, 2, 1, 5, math.NaN()}
	b := []float64{1, 2, 2, 5.05, 0}
	if w, ti, l := WinTieLoss(a, b, true, 0.1); w != 1 || ti != 2 || l != 1 {
		t.Fatalf("higher better: %d/%d/%d", w, ti, l)
	}
	if w, ti, l := WinTieLoss(a, b, false, 0); w != 2 || ti != 1 || l != 1 {
		t.Fatalf("lower better, no tolerance: %d/%d/%d", w, ti, l)
	}
}

// A performance profile worked by hand (lower is better), three methods
// on four instances:
//
//	instance  A    B    C      best  ratios A, B, C
//	1         1    2    4      1     1, 2, 4
//	2         3    3    6      3     1, 1, 2
//	3         5    4    NaN    4     1.25, 1, ∞
//	4         NaN  NaN  NaN    —     ∞, ∞, ∞
//
// at τ = 1: A 2/4, B 2/4, C 0; τ = 1.5: A 3/4, B 2/4, C 0; τ = 2: A 3/4,
// B 3/4, C 1/4; τ = 4: A 3/4, B 3/4, C 2/4.
func TestPerformanceProfileByHand(t *testing.T) {
	nan := math.NaN()
	v := [][]float64{{1, 3, 5, nan}, {2, 3, 4, nan}, {4, 6, nan, nan}}
	p := PerformanceProfile(v, false, []float64{1, 1.5, 2, 4})
	want := [][]float64{{0.5, 0.75, 0.75, 0.75}, {0.5, 0.5, 0.75, 0.75}, {0, 0, 0.25, 0.5}}
	for s := range want {
		if !slices.Equal(p.Rho[s], want[s]) {
			t.Fatalf("method %d: %v, want %v", s, p.Rho[s], want[s])
		}
	}
	// Higher is better: the ratio is best/value.
	h := PerformanceProfile([][]float64{{2, 1}, {1, 1}}, true, []float64{1, 2})
	if !slices.Equal(h.Rho[0], []float64{1, 1}) || !slices.Equal(h.Rho[1], []float64{0.5, 1}) {
		t.Fatalf("higher better: %v", h.Rho)
	}
}

// A mean of a metric bounded by 1 (an accuracy): Student's t reaches
// above 1, the bootstrap percentile interval does not.
func TestBootstrapStaysWithinTheBounds(t *testing.T) {
	acc := []float64{1, 1, 1, 1, 0.7, 1, 1, 0.9}
	if tv := MeanT(acc); tv.Hi <= 1 {
		t.Fatalf("the t interval was expected to pass 1 here: %+v", tv)
	}
	b := BootstrapMean(acc)
	if b.Hi > 1 || b.Lo < 0.7 || b.Lo >= b.Est || !near(b.Est, 0.95, 1e-12) {
		t.Fatalf("bootstrap: %+v", b)
	}
	if again := BootstrapMean(acc); again != b {
		t.Fatalf("not reproducible: %+v vs %+v", again, b)
	}
	if one := BootstrapMean([]float64{0.5}); one.Lo != 0.5 || one.Hi != 0.5 {
		t.Fatalf("one value: %+v", one)
	}
}

func TestMeanTByHand(t *testing.T) {
	// {1, 2, 3}: 2 ± 4.302653/√3.
	iv := MeanT([]float64{1, 2, 3})
	if !near(iv.Hi-2, 4.302653/math.Sqrt(3), 1e-5) || iv.Method != MethodT {
		t.Fatalf("%+v", iv)
	}
}
