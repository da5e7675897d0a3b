package critical

import (
	"testing"
	"time"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

func TestConformance(t *testing.T) {
	solverstest.Run(t, New(), solverstest.Options{
		PresetParams: map[string]solvers.Params{PresetRandom: {"tasks": "20"}},
		Reproduce:    reproduceParams,
		Reproduced:   reproduced,
		Volatile:     []string{"wall_ms"},
	})
}

func TestCriterionAppliesOnlyToCriticalWorks(t *testing.T) {
	for _, sp := range New().Params {
		critOnly := sp.Name == "criterion" || sp.Name == "max_variants" || sp.Name == "collision_processors"
		for _, v := range []string{VariantCritical, VariantCriticalFallback, VariantHEFT, VariantList} {
			if got := sp.AppliesTo(v); got != (!critOnly || v == VariantCritical || v == VariantCriticalFallback) {
				t.Errorf("%s applies to %s: %v", sp.Name, v, got)
			}
		}
	}
}

func TestRunConfigDecodesTheTreeBounds(t *testing.T) {
	cfg := DefaultRunConfig()
	if _, err := solvers.ResolveConfig(&cfg, solvers.Params{"tree_max_nodes": "7", "tree_max_depth": "3", "tree_max_ms": "2.5", "criterion": "cost"}); err != nil {
		t.Fatal(err)
	}
	if b := cfg.Tree(); b.MaxNodes != 7 || b.MaxDepth != 3 || b.MaxTime != 2500*time.Microsecond || cfg.Criterion != CriterionCost {
		t.Errorf("config %+v, tree bounds %+v", cfg, b)
	}
	if b := DefaultRunConfig().Tree(); b.MaxNodes != 2000 || b.MaxDepth != 100 || b.MaxTime != time.Second {
		t.Errorf("default tree bounds %+v", b)
	}
}
