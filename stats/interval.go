package stats

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is an estimate with its 95 % interval and the method that
// gave it (named on pages and in captions).
type Interval struct {
	Est, Lo, Hi float64
	N           int
	Method      string
}

// Methods of an interval.
const (
	MethodT         = "Student t"
	MethodBootstrap = "bootstrap percentile (2000 resamples)"
)

// MeanT is the mean of xs with its Student-t 95 % interval (NaN values
// left out); one value is its own interval.
func MeanT(xs []float64) Interval {
	s := Numbers(xs)
	iv := Interval{N: len(s), Method: MethodT, Est: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	if len(s) == 0 {
		return iv
	}
	m, v := MeanVar(s)
	iv.Est, iv.Lo, iv.Hi = m, m, m
	if len(s) > 1 && v > 0 {
		h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(s) - 1)}.Quantile(0.975) * math.Sqrt(v/float64(len(s)))
		iv.Lo, iv.Hi = m-h, m+h
	}
	return iv
}

// BootstrapMean is the mean of xs (NaN left out) with the 95 % bootstrap
// percentile interval over 2000 resamples drawn with a fixed seed: the
// 2.5th and 97.5th percentiles of the resampled means. Every resampled
// mean lies within [min xs, max xs], so the interval stays within any
// bounds the values obey.
func BootstrapMean(xs []float64) Interval {
	s := Numbers(xs)
	iv := Interval{N: len(s), Method: MethodBootstrap, Est: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	if len(s) == 0 {
		return iv
	}
	m, _ := MeanVar(s)
	iv.Est, iv.Lo, iv.Hi = m, m, m
	if len(s) == 1 {
		return iv
	}
	const b = 2000
	rng := rand.New(rand.NewPCG(1, 2))
	means := make([]float64, b)
	for i := range means {
		sum := 0.0
		for range s {
			sum += s[rng.IntN(len(s))]
		}
		means[i] = sum / float64(len(s))
	}
	slices.Sort(means)
	iv.Lo, iv.Hi = QuantileSorted(means, 0.025), QuantileSorted(means, 0.975)
	return iv
}

// QuantileSorted is the q-quantile of sorted xs by linear interpolation
// between order statistics (R's type 7).
func QuantileSorted(xs []float64, q float64) float64 {
	h := q * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

// Numbers returns the values of xs that are not NaN (a failed instance).
func Numbers(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// MeanVar is the mean of xs and its sample variance (n − 1; 0 for fewer
// than two values).
func MeanVar(xs []float64) (m, v float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if len(xs) < 2 {
		return m, 0
	}
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}
