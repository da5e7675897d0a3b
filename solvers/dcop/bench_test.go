package dcop

import (
	"context"
	"math/rand"
	"testing"
)

// BenchmarkDPOP12Jobs is the speed target: a 12-job seed-like instance,
// domain {1..20}, full DPOP ≤ 20 ms. Reports join+project throughput.
func BenchmarkDPOP12Jobs(b *testing.B) {
	in, err := Generate(Namekata2008(12), rand.New(rand.NewSource(1)))
	if err != nil {
		b.Fatal(err)
	}
	ops := 0.0
	for b.Loop() {
		r, err := Solve(context.Background(), in, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ops += r.Stats.JoinOps
	}
	b.ReportMetric(ops/b.Elapsed().Seconds(), "entries/s")
}

// BenchmarkWD50Jobs is the speed target: the 50-job preset instance, WD to
// width 5 (balanced, guided by the greedy schedule), end to end ≤ 2 s.
func BenchmarkWD50Jobs(b *testing.B) {
	ops := 0.0
	for b.Loop() {
		in, err := Generate(Namekata2008(50), rand.New(rand.NewSource(1)))
		if err != nil {
			b.Fatal(err)
		}
		pt, err := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
		if err != nil {
			b.Fatal(err)
		}
		wd, err := WidthDelete(in, pt, Domains(in, ObjectiveMakespan, DomainStarts), 5, RuleBalanced, Greedy(in))
		if err != nil {
			b.Fatal(err)
		}
		r, err := Solve(context.Background(), in, Options{Tree: wd.Tree, Domains: wd.Domains})
		if err != nil {
			b.Fatal(err)
		}
		ops += r.Stats.JoinOps
	}
	b.ReportMetric(ops/b.Elapsed().Seconds(), "entries/s")
}
