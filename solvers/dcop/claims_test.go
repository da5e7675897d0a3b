package dcop

import (
	"math"
	"testing"
)

// Each Claims verdict rule flips where its numbers cross its threshold.
func TestClaimVerdictRules(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name, got, want string
	}{
		{"width median on the paper's", verdictWidth(6.2, []float64{6, 6, 7}), Holds},
		{"width median 0.8 off, paper inside range", verdictWidth(6.2, []float64{5, 7, 7}), Partly},
		{"width range misses the paper's", verdictWidth(6.2, []float64{8, 9, 9}), DoesNotHold},
		{"width no instances", verdictWidth(6.2, nil), NotMeasured},
		{"reached every instance", verdictReached(0, 10), Holds},
		{"reached some", verdictReached(3, 10), Partly},
		{"reached none", verdictReached(10, 10), DoesNotHold},
		{"accuracy at every size", verdictAccuracy([]float64{0.96, 0.95}, []int{0, 0}, 0.95), Holds},
		{"accuracy with a failure", verdictAccuracy([]float64{0.96, 0.95}, []int{0, 1}, 0.95), Partly},
		{"accuracy below at one size", verdictAccuracy([]float64{0.96, 0.94}, []int{0, 0}, 0.95), Partly},
		{"accuracy nowhere", verdictAccuracy([]float64{0.94, nan}, []int{0, 10}, 0.95), DoesNotHold},
		{"flat", verdictFlat([]float64{0.97, 0.93}), Holds},
		{"falls", verdictFlat([]float64{0.97, 0.91}), DoesNotHold},
		{"unsolved size", verdictFlat([]float64{0.97, nan}), DoesNotHold},
		{"ratio near 1", verdictRatio([]float64{0.8, 1.25}), Holds},
		{"ratio loose", verdictRatio([]float64{0.79, 1.3}), Partly},
		{"ratio far", verdictRatio([]float64{0.49}), DoesNotHold},
		{"reduced everywhere", verdictReduced([]float64{2, 3}, []float64{1, 2}), Holds},
		{"reduced somewhere", verdictReduced([]float64{2, 3}, []float64{1, 3}), Partly},
		{"reduced nowhere", verdictReduced([]float64{2, 3}, []float64{2, 3}), DoesNotHold},
		{"halves reachable", verdictReachable([]float64{1.9, 3.5}, []float64{1.46, 3.06}), Holds},
		{"halves reachable at one size", verdictReachable([]float64{1.9, 3.6}, []float64{1.46, 3.06}), Partly},
		{"halves never reachable", verdictReachable([]float64{2.6, 4.5}, []float64{1.46, 3.06}), DoesNotHold},
		{"both hold", verdictBoth(Holds, Holds), Holds},
		{"one holds", verdictBoth(Holds, DoesNotHold), Partly},
		{"neither", verdictBoth(DoesNotHold, DoesNotHold), DoesNotHold},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
	line := func(slope float64) [][2]float64 {
		return [][2]float64{{1, 1}, {2, 1 + slope}, {3, 1 + 2*slope}, {4, 1 + 3*slope}}
	}
	for _, c := range []struct {
		pts  [][2]float64
		want string
	}{
		{line(-0.01), Holds},
		{[][2]float64{{1, 1}, {2, 1}, {3, 0.9}, {4, 1}, {5, 1}, {1, 0.9}, {5, 0.9}, {2, 1}}, Partly}, // r ≈ −0.06
		{line(0.01), DoesNotHold},
		{line(0), NotMeasured},
		{line(-0.01)[:2], NotMeasured},
	} {
		if got, r, _ := verdictCorrelation(c.pts); got != c.want {
			t.Errorf("correlation of %v (r = %.2f): %q, want %q", c.pts, r, got, c.want)
		}
	}
}

// The implied widths of the seed's sizes, log20(MB · 2^20 / 4), and the
// seed's accounting of width 5 (its 1.2e1 MB).
func TestPaperAccounting(t *testing.T) {
	for i, want := range []float64{6.20, 7.75, 13.75, 17.75} {
		if got := ImpliedWidth(paperT1Before[i], 20); math.Abs(got-want) > 0.005 {
			t.Errorf("Table 1 before %g MB: width %.3f, want %.2f", paperT1Before[i], got, want)
		}
	}
	if got := PaperMB(5, 20); math.Abs(got-12.207) > 0.001 {
		t.Errorf("20^5 × 4 B = %v MiB, want 12.207", got)
	}
	if got := ImpliedWidth(PaperMB(7, 20), 20); math.Abs(got-7) > 1e-9 {
		t.Errorf("ImpliedWidth(PaperMB(7)) = %v", got)
	}
}
