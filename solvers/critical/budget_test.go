package critical

import (
	"context"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

func TestBudgetRefusesATreeOfPathsOverTheBudget(t *testing.T) {
	// A chain of 20000 tasks (inside the limits): each of a million tree
	// nodes could keep a path of 20000 tasks, 160 GB.
	w := genWorkload(t, solvers.Params{"tasks": "20000", "layers": "20000"}, 1)
	_, err := New().Run(context.Background(), w, VariantCritical, solvers.Params{"tree_max_nodes": "1000000"}, nil)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "tree_max_nodes" {
		t.Errorf("a million paths of 20000 tasks: %v, want TooLarge on tree_max_nodes", err)
	}
	// The generator is checked too: the largest graph under 1 MiB.
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 1 << 20})
	_, err = New().Generate(ctx, PresetRandom, solvers.Params{"tasks": "20000", "processors": "256"}, 1)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "tasks" {
		t.Errorf("20000 tasks on 256 processors under 1 MiB: %v, want TooLarge on tasks", err)
	}
}

func TestLongestChain(t *testing.T) {
	cases := []struct {
		n     int
		edges []Edge
		want  int
	}{
		{3, nil, 1},
		{3, []Edge{{From: 0, To: 1}, {From: 1, To: 2}}, 3},
		{4, []Edge{{From: 0, To: 2}, {From: 1, To: 2}, {From: 0, To: 3}}, 2},
		{2, []Edge{{From: 0, To: 1}, {From: 1, To: 0}}, 2}, // a cycle: n
	}
	for i, c := range cases {
		if got := longestChain(c.n, c.edges); got != c.want {
			t.Errorf("case %d: %d, want %d", i, got, c.want)
		}
	}
}
