package claims

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"schedlab/stats"
)

// Interval is a mean with its 95 % interval; N values went into it.
type Interval struct {
	Mean, Lo, Hi float64
	N            int
}

// tq is t(0.975, df), the two-sided 95 % quantile of Student's t.
func tq(df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975)
}

// MeanCI is the mean of xs (NaN values left out) with its Student-t 95 %
// interval, mean ± t(0.975, n−1)·s/√n with s the sample standard
// deviation; none gives N = 0 and NaNs. One value (N = 1) has Lo = Hi =
// the value but is no interval: the rules leave such a point undecided
// and the rows write it as one value (MinValues).
func MeanCI(xs []float64) Interval {
	s := stats.Numbers(xs)
	if len(s) == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN(), 0}
	}
	m, v := stats.MeanVar(s)
	if len(s) < 2 || v == 0 {
		return Interval{m, m, m, len(s)}
	}
	h := tq(float64(len(s)-1)) * math.Sqrt(v/float64(len(s)))
	return Interval{m, m - h, m + h, len(s)}
}

// PairedCI is the mean of a[i] − b[i] over the indices where both are
// numbers, with its Student-t 95 % interval.
func PairedCI(a, b []float64) Interval {
	d := make([]float64, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			d = append(d, a[i]-b[i])
		}
	}
	return MeanCI(d)
}

// WelchCI is the difference of the means of b and a (b − a), NaN values
// left out, with Welch's 95 % interval. With one value on a side, that
// side has no spread; with one value on both, the interval is the
// difference itself.
func WelchCI(a, b []float64) Interval {
	sa, sb := stats.Numbers(a), stats.Numbers(b)
	if len(sa) == 0 || len(sb) == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN(), 0}
	}
	ma, va := stats.MeanVar(sa)
	mb, vb := stats.MeanVar(sb)
	return welchStats(ma, va, len(sa), mb, vb, len(sb))
}

// sampleVar is the sample variance of the numbers among xs.
func sampleVar(xs []float64) float64 {
	_, v := stats.MeanVar(stats.Numbers(xs))
	return v
}

// welchStats is the difference mb − ma of two samples given by their
// means, sample variances and sizes, with Welch's 95 % interval; N is the
// smaller size. Welch–Satterthwaite; a side of one value contributes no
// variance and no degrees of freedom term.
func welchStats(ma, va float64, na int, mb, vb float64, nb int) Interval {
	d := mb - ma
	qa, qb := va/float64(na), vb/float64(nb)
	se2 := qa + qb
	n := min(na, nb)
	if se2 == 0 {
		return Interval{d, d, d, n}
	}
	den := 0.0
	if na > 1 {
		den += qa * qa / float64(na-1)
	}
	if nb > 1 {
		den += qb * qb / float64(nb-1)
	}
	h := tq(se2*se2/den) * math.Sqrt(se2)
	return Interval{d, d - h, d + h, n}
}

// Pearson is Pearson's r of the points with its 95 % interval by Fisher's
// z-transform (tanh(atanh r ± 1.96/√(n−3))). ok is false with fewer than
// four points or a constant coordinate.
func Pearson(xs, ys []float64) (r Interval, ok bool) {
	n := len(xs)
	if n < 4 || len(ys) != n {
		return Interval{}, false
	}
	mx, vx := stats.MeanVar(xs)
	my, vy := stats.MeanVar(ys)
	if vx == 0 || vy == 0 {
		return Interval{}, false
	}
	c := 0.0
	for i := range xs {
		c += (xs[i] - mx) * (ys[i] - my)
	}
	rho := c / float64(n-1) / math.Sqrt(vx*vy)
	rho = math.Max(-1, math.Min(1, rho))
	z := math.Atanh(rho)
	h := distuv.UnitNormal.Quantile(0.975) / math.Sqrt(float64(n-3))
	return Interval{rho, math.Tanh(z - h), math.Tanh(z + h), n}, true
}

// SampleSD is the sample standard deviation of the numbers among xs and
// how many there are (NaN under MinValues): the spread of a published
// mean where the authors' per-instance data give it (PaperMean).
func SampleSD(xs []float64) (sd float64, n int) {
	v := stats.Numbers(xs)
	if len(v) < MinValues {
		return math.NaN(), len(v)
	}
	_, va := stats.MeanVar(v)
	return math.Sqrt(va), len(v)
}
