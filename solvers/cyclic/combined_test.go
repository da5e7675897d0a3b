package cyclic

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestSliceByPriority(t *testing.T) {
	b := []Job{
		{ID: "a", Nodes: 1, Volume: 100, MaxPrice: 50},
		{ID: "b", Nodes: 3, Volume: 100, MaxPrice: 900},
		{ID: "c", Nodes: 2, Volume: 400, MaxPrice: 300},
		{ID: "d", Nodes: 1, Volume: 50, MaxPrice: 900},
	}
	for _, c := range []struct {
		share    float64
		priority string
		want     []int
	}{
		{0.5, PriorityQueue, []int{0, 1}},
		{0.5, PriorityExpensive, []int{1, 3}},     // 900, 900 (batch order), then 300
		{0.75, PriorityDemanding, []int{2, 1, 0}}, // 800, 300, 100 (a before d: 100 > 50)
		{0, PriorityQueue, []int{}},
		{1, PriorityExpensive, []int{1, 3, 2, 0}},
		{0.1, PriorityQueue, []int{}}, // round(0.4) = 0
	} {
		if got := Slice(b, c.share, c.priority); !slices.Equal(got, c.want) {
			t.Errorf("share %v by %s: %v, want %v", c.share, c.priority, got, c.want)
		}
	}
}

// The ends of the range are the pure methods: css_share 0 is backfilling,
// 1 in queue order is the fair-share model, cycle for cycle; between them every plan is
// feasible.
func TestCombinedEndsAndFeasibility(t *testing.T) {
	ctx := context.Background()
	for seed := range int64(20) {
		in, err := Generate(smallGen(seed))
		if err != nil {
			t.Fatal(err)
		}
		base := SimConfig{Strategy: Strategies()[int(seed)%len(strategies)], K: 1 + int(seed%3), Cycles: 5, GanttCycle: 1, Depth: []int{0, 1, DepthInf}[seed%3], Priority: PriorityDemanding}
		run := func(variant string, share float64) *Result {
			cfg := base
			cfg.Variant, cfg.Share, cfg.Priority = variant, share, PriorityQueue
			res, err := RunConfig(ctx, in, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			res.Gantt = nil
			return res
		}
		if a, b := run(VariantCombined, 0), run(VariantBackfill, 0); !reflect.DeepEqual(a.Cycles, b.Cycles) {
			t.Errorf("seed %d: combined with css_share 0 differs from backfill", seed)
		}
		if a, b := run(VariantCombined, 1), run(VariantFair, 0); !reflect.DeepEqual(a.Cycles, b.Cycles) {
			t.Errorf("seed %d: combined with css_share 1 differs from fair", seed)
		}
		for _, share := range []float64{0.3, 0.6} {
			for _, pr := range []string{PriorityQueue, PriorityExpensive, PriorityDemanding} {
				cfg := base
				cfg.Variant = VariantCombined
				fair := cfg
				fair.Variant = VariantFair
				pl := &CombinedPlanner{Fair: NewBatchPlanner(fair, nil), Backfill: &BackfillPlanner{Depth: cfg.Depth}, Share: share, Priority: pr}
				cp := &checkingPlanner{t: t, inner: pl, name: fmt.Sprintf("seed %d share %v %s", seed, share, pr)}
				if _, err := Simulate(ctx, in, cfg, cp, nil, func(int, int, string) {}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
