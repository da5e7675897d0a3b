package dcop

import (
	"context"
	"math/rand"
	"testing"
)

// BenchmarkDPOP12Jobs is the speed target: a 12-job seed-like instance,
// domain {1..20} for every job, full DPOP ≤ 5 ms. Reports join+project throughput.
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

// BenchmarkWD50Jobs is the speed target: a 50-job preset instance, end to
// end (generate with its exact feasibility filter, max-degree pseudo-tree,
// WD to width 5, DPOP on the reduced tree when WD reached it) ≤ 15 ms
// (issue 23; cpu-ms/op is the process's CPU time per run, steadier than
// ns/op on a shared machine), for
// each rule: seed (fails on this instance: the width stops above 5, which
// the benchmark accepts as the rule's result), balanced and greedy-guided.
// The instance is the first seed whose greedy schedule lies inside the
// domains, so that greedy-guided applies.
func BenchmarkWD50Jobs(b *testing.B) {
	seed := int64(1)
	for ; ; seed++ {
		in, err := Generate(Namekata2008(50), rand.New(rand.NewSource(seed)))
		if err != nil {
			b.Fatal(err)
		}
		if greedyRef(in, DomainStarts) != nil {
			break
		}
	}
	for _, rule := range []string{RuleSeed, RuleBalanced, RuleGreedyGuided} {
		b.Run(rule, func(b *testing.B) {
			ops := 0.0
			cpu0 := cpuSeconds()
			for b.Loop() {
				in, err := Generate(Namekata2008(50), rand.New(rand.NewSource(seed)))
				if err != nil {
					b.Fatal(err)
				}
				pt, err := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
				if err != nil {
					b.Fatal(err)
				}
				wd, err := WidthDelete(in, pt, Domains(in, ObjectiveMakespan, DomainStarts), 5, rule, greedyRef(in, DomainStarts))
				if err != nil {
					if rule == RuleSeed {
						continue
					}
					b.Fatal(err)
				}
				r, err := Solve(context.Background(), in, Options{Tree: wd.Tree, Domains: wd.Domains})
				if err != nil {
					b.Fatal(err)
				}
				ops += r.Stats.JoinOps
			}
			b.ReportMetric(ops/b.Elapsed().Seconds(), "entries/s")
			if cpu := cpuSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/op")
			}
		})
	}
}

// BenchmarkDPOP20Jobs is the kernel's speed target (issue 23): ≥ 500 M
// join entries/s on one core in the value model (separator assignments ×
// own values evaluated, Stats.JoinOps). The instance is the seed's setting
// at 20 jobs (namekata2008, seed 5), value objective over the seed's
// domain {0} ∪ {1..20}; sub-benchmarks per pseudo-tree: max-degree, the
// closest we have to FRODO's default DFS (most connected root and
// children first; doc.go says where it differs), width 6 and 2.41e9 join
// entries; min-fill, the reproduce's tree, width 5 and 1.03e8 entries.
// entries/s is per wall second; entries/cpu-s per second of the process's
// CPU time, steadier when the machine is shared.
func BenchmarkDPOP20Jobs(b *testing.B) {
	in, err := Generate(Namekata2008(20), rand.New(rand.NewSource(5)))
	if err != nil {
		b.Fatal(err)
	}
	for _, h := range []string{HeuristicMaxDegree, HeuristicMinFill} {
		pt, err := BuildPseudoTree(in.ConstraintGraph(), h, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("value/"+h, func(b *testing.B) {
			ops := 0.0
			cpu0 := cpuSeconds()
			for b.Loop() {
				r, err := Solve(context.Background(), in, Options{Objective: ObjectiveValue, Tree: pt, MemoryBytes: 1 << 30})
				if err != nil {
					b.Fatal(err)
				}
				ops += r.Stats.JoinOps
			}
			b.ReportMetric(ops/b.Elapsed().Seconds(), "entries/s")
			if cpu := cpuSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(ops/cpu, "entries/cpu-s")
			}
		})
	}
}
