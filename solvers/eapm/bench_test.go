package eapm

import (
	"context"
	"math/rand/v2"
	"testing"
)

// benchInstance is a case-2-like stream of n users on Tarplee's matrices
// (m = 9 machine types, 30 task types, one machine per type).
func benchInstance(n int) *Instance {
	rng := rand.New(rand.NewPCG(1, 2))
	in := tarpleeMatrices()
	in.Users = genCase2(rng, n)
	in.Gamma = 1.3
	return in
}

func benchmarkOnline(b *testing.B, n int) {
	in := benchInstance(n)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Online(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOnline2000 is the seed's largest case (target ≤ 0.2 ms; the
// authors report 42.8 ms for their O(n·m⁴) version).
func BenchmarkOnline2000(b *testing.B) { benchmarkOnline(b, 2000) }

// BenchmarkOnline100k: a hundred thousand users (target ≤ 50 ms).
func BenchmarkOnline100k(b *testing.B) { benchmarkOnline(b, 100_000) }

func BenchmarkOnlineWaterfill2000(b *testing.B) {
	in := benchInstance(2000)
	for b.Loop() {
		if _, err := OnlineWaterfill(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpperBoundTarplee: the LP bound on Tarplee's instance (target ≤ 50 ms).
func BenchmarkUpperBoundTarplee(b *testing.B) {
	in, _ := tarpleeInstance(false, nil)
	in.Gamma = 1.21
	for b.Loop() {
		if _, err := UpperBound(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOnlineLinearSystems2000 is the seed's formulation for
// comparison: one (m−τ+2)-dimensional linear system per τ solved with gonum
// (onlineDirect in algorithms_test.go), the same schedule as Online.
func BenchmarkOnlineLinearSystems2000(b *testing.B) {
	in := benchInstance(2000)
	for b.Loop() {
		if _, err := onlineDirect(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpperBoundCase1 is the bound on one of the seed's case-1
// instances (30 users of distinct types, m = 9: a 39 × 280 LP), what every
// run of the zhang2022-case1 preset solves once.
func BenchmarkUpperBoundCase1(b *testing.B) {
	in := seedInstance(seedOnce().case1[0], 1.3)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := UpperBound(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeedLoad is the one-time load of the seed's instances, all
// three cases (what Reproduce pays).
func BenchmarkSeedLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		loadCase1()
		loadCase2()
		loadCase3()
	}
}

// BenchmarkSeedLoadCase1 is what the first zhang2022-case1 workload pays
// (before the loads were split, it paid BenchmarkSeedLoad).
func BenchmarkSeedLoadCase1(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		loadCase1()
	}
}
