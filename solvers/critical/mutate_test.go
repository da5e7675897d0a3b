package critical

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"schedlab/solvers"
)

// A walk of PISA's changes keeps a valid DAG (no cycle, no duplicate
// edge: Validate), keeps every weight within [0.1·M, M] of the preset's
// scales once moved, and meets every kind of change.
func TestMutationsKeepAValidGraphWithinPISAsBounds(t *testing.T) {
	st := New()
	params := solvers.Params{"tasks": "12", "layers": "4"}
	full, err := solvers.Resolve(st.Presets[0].Params, params)
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.Generate(context.Background(), PresetRandom, full, 3)
	if err != nil {
		t.Fatal(err)
	}
	m := st
	if !(m.Mutate != nil) {
		t.Fatal("critical has no mutations")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]int{}
	for i := 0; i < 2000; i++ {
		next, change, err := m.Mutate(context.Background(), w, PresetRandom, params, rng)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		for _, k := range []string{"added", "deleted", "transfer", "volume", "performance", "every transfer"} {
			if strings.Contains(change, k) {
				seen[k]++
			}
		}
		g, err := ParseJSON(next.Data)
		if err != nil {
			t.Fatalf("step %d (%s): the mutated graph does not read back: %v", i, change, err)
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("step %d (%s): %v", i, change, err)
		}
		if strings.Contains(change, "volume") {
			for _, task := range g.Tasks {
				if strings.Contains(change, "task "+task.ID+" ") && (task.Volume < 10-1e-9 || task.Volume > 100+1e-9) {
					t.Fatalf("step %d: %s gives volume %g outside [10, 100]", i, change, task.Volume)
				}
			}
		}
		if strings.Contains(change, "performance") {
			for _, p := range g.Processors {
				if strings.Contains(change, "processor "+p.ID+" ") && (p.Performance < 0.4-1e-9 || p.Performance > 4+1e-9) {
					t.Fatalf("step %d: %s gives performance %g outside [0.4, 4]", i, change, p.Performance)
				}
			}
		}
		w = next
	}
	for _, k := range []string{"added", "deleted", "transfer", "volume", "performance", "every transfer"} {
		if seen[k] == 0 {
			t.Errorf("no %q change in 2000 steps (%v)", k, seen)
		}
	}
}
