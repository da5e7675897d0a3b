package batch

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNthSmallestIsSortedAt checks the selection behind wait_p95 against a
// sort, at every rank, on random arrays from all-equal to all-distinct,
// and on the orders that defeat a naive pivot (sorted, reversed, organ
// pipe, few values repeated).
func TestNthSmallestIsSortedAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(name string, a []float64) {
		t.Helper()
		want := slices.Sorted(slices.Values(a))
		for k := range a {
			if got := nthSmallest(slices.Clone(a), k); got != want[k] {
				t.Fatalf("%s (%d values), rank %d: %v, want %v", name, len(a), k, got, want[k])
			}
		}
	}
	for trial := range 300 {
		n := 1 + rng.IntN(120)
		a := make([]float64, n)
		vals := 1 + rng.IntN(2*n)
		for i := range a {
			a[i] = float64(rng.IntN(vals)) - 3
		}
		check("random", a)
		if trial%30 == 0 {
			slices.Sort(a)
			check("sorted", a)
			slices.Reverse(a)
			check("reversed", a)
		}
	}
	pipe := make([]float64, 301)
	for i := range pipe {
		pipe[i] = float64(min(i, len(pipe)-1-i))
	}
	check("organ pipe", pipe)
	check("all equal", make([]float64, 257))
}
