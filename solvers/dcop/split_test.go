package dcop

import (
	"context"
	"math/rand"
	"slices"
	"testing"
)

func TestSplitSchedulesAreFeasibleAndNeverBeatTheOptimum(t *testing.T) {
	ctx := context.Background()
	n := 0
	for seed := int64(1); seed <= 200; seed++ {
		src := rand.New(rand.NewSource(seed))
		in, err := Generate(smallConfig(src), src)
		if err != nil {
			continue
		}
		_, opt, _ := BruteForce(in, DomainStarts)
		r, err := Split(ctx, in, Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !r.Feasible {
			continue
		}
		n++
		if err := Feasible(in, r.Schedule, false, DomainStarts); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if ms := Makespan(in, r.Schedule); ms < opt || float64(ms) != r.Cost {
			t.Fatalf("seed %d: split makespan %d (cost %v), optimum %d", seed, ms, r.Cost, opt)
		}
	}
	if n < 50 {
		t.Fatalf("only %d feasible split runs", n)
	}
}

func TestSplitOnSeedSettingShrinksMessages(t *testing.T) {
	in, err := Generate(Namekata2008(20), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	full, err := Solve(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Split(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.EdgesCut == 0 || r.Stats.MaxMessageBytes > full.Stats.MaxMessageBytes {
		t.Fatalf("edges cut %d, max message %v vs full %v", r.EdgesCut, r.Stats.MaxMessageBytes, full.Stats.MaxMessageBytes)
	}
	if r.Feasible {
		if err := Feasible(in, r.Schedule, false, DomainStarts); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("split: feasible %v makespan %v (full %v), edges cut %d, max msg %.3g MB (full %.3g), cycles %d (full %d)",
		r.Feasible, r.Cost, full.Cost, r.EdgesCut, r.Stats.MaxMessageBytes/1e6, full.Stats.MaxMessageBytes/1e6,
		r.Stats.MessageCycles, full.Stats.MessageCycles)
}

// GreedyIn with full domains is Greedy whenever Greedy lies inside them,
// nil otherwise; with restricted domains its schedule is feasible and
// inside them.
func TestGreedyIn(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		in, err := Generate(Namekata2008(20+int(seed%4)*10), rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		g, gi := Greedy(in), GreedyIn(in, Domains(in, ObjectiveMakespan, DomainStarts))
		if inside := Feasible(in, g, false, DomainStarts) == nil; inside != (gi != nil) || (inside && !slices.Equal(g, gi)) {
			t.Fatalf("seed %d: Greedy %v, GreedyIn %v", seed, g, gi)
		}
		dom := Domains(in, ObjectiveMakespan, DomainStarts)
		for k := range dom {
			dom[k] = dom[k][k%3:]
		}
		if gi := GreedyIn(in, dom); gi != nil {
			if err := Feasible(in, gi, false, DomainStarts); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for k, s := range gi {
				if !slices.Contains(dom[k], s) {
					t.Fatalf("seed %d: job %d at %d outside its domain", seed, k, s)
				}
			}
		}
	}
}
