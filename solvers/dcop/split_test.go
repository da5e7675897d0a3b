package dcop

import (
	"context"
	"math/rand"
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
