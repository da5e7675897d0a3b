package gossip

import (
	"strconv"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// seedExperiments are the seed's figures as experiment definitions a user
// can open, change and re-run (Figs. 6–9, Table 1 with its printed
// values as references), and the sensitivity sweeps over the unknowns
// that move Fig. 8 (issue 18): the central collection and its cost, the
// ad updates and the negotiator interval, the gossip period, the shared
// matching cost, and the run length and arrival process. Scheduling runs
// are 6 h with the run's 2 h warm-up, three replicates (replicate r uses
// seed 1 + r for the workload and the run, so gossip and central of one
// replicate share one job stream).
func seedExperiments() []solvers.SeedExperiment {
	ints := func(v []int) []string {
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = strconv.Itoa(x)
		}
		return out
	}
	floats := func(v []float64) []string {
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		return out
	}
	var t1 []sweep.Reference
	for i, k := range table1Sched {
		t1 = append(t1, sweep.Reference{Name: "Umeda 2006, Table 1", Metric: "utilization", Variant: VariantGossip, Params: map[string]string{"schedulers": strconv.Itoa(k)}, Value: paperTable1[i]})
	}
	both := []string{VariantGossip, VariantCentral}
	sched := func(name string, nodes []int, extra, grid sweep.Grid, variants []string, refs []sweep.Reference) sweep.Definition {
		wg := sweep.Grid{"nodes": ints(nodes), "duration_h": {"6"}}
		for k, v := range extra {
			wg[k] = v
		}
		g := sweep.Grid{"gantt_nodes": {"0"}}
		for k, v := range grid {
			g[k] = v
		}
		return sweep.Definition{Name: name, Strategy: "gossip", Workload: sweep.Workload{Preset: PresetUmeda2006, Grid: wg},
			Variants: variants, Grid: g, Replicates: 3, Seed: 1, References: refs}
	}
	rumor := func(name string, wg, grid sweep.Grid) sweep.Definition {
		return sweep.Definition{Name: name, Strategy: "gossip", Workload: sweep.Workload{Preset: PresetUmeda2006, Grid: wg},
			Variants: []string{VariantRumor}, Grid: grid, Replicates: 5, Seed: 1}
	}
	f8 := []int{10, 30, 100, 300, 1000, 3000}
	return []solvers.SeedExperiment{
		{Name: "fig6", Title: "Fig. 6: fraction informed by the push rumor (fanout 1, k 1)", Definition: rumor("Umeda 2006 Fig. 6",
			sweep.Grid{"nodes": ints(fig6Nodes), "duration_h": {"0.01"}}, sweep.Grid{"mode": {ModePush}, "k": {"1"}})},
		{Name: "fig7", Title: "Fig. 7: NAT fraction against rounds and final rate, push and push-pull", Definition: rumor("Umeda 2006 Fig. 7",
			sweep.Grid{"nodes": {"1000"}, "duration_h": {"0.01"}, "nat_fraction": floats(fig7NAT)}, sweep.Grid{"mode": {ModePush, ModePushPull}, "k": {"1"}})},
		{Name: "fig8", Title: "Fig. 8: gossip and central utilization by node count (100 % load)", Definition: sched("Umeda 2006 Fig. 8", f8, nil, nil, both, nil)},
		{Name: "fig9", Title: "Fig. 9: gossip / central by node count, one line per load", Definition: sched("Umeda 2006 Fig. 9", []int{10, 100, 1000}, sweep.Grid{"load": floats(fig9Loads)}, nil, both, nil)},
		{Name: "table1", Title: "Table 1: utilization with 1, 2, 4, 8 scheduling nodes (1000 nodes)", Definition: sched("Umeda 2006 Table 1", []int{1000}, nil, sweep.Grid{"schedulers": ints(table1Sched)}, []string{VariantGossip}, t1)},
		{Name: "sens-collect", Title: "Sensitivity: how the central manager collects (push, serial sweep, snapshot) × its cost per record", Definition: sched("Fig. 8 sensitivity: central collection",
			f8, nil, sweep.Grid{"central_collect": {CollectPush, CollectSerial, CollectSnapshot}, "record_cost_ms": {"5", "50", "200"}}, both, nil)},
		{Name: "sens-ads", Title: "Sensitivity: central ads at every change or only every update_interval_s", Definition: sched("Fig. 8 sensitivity: central ad updates",
			[]int{10, 100, 1000}, nil, sweep.Grid{"central_ads": {AdsOnChange, AdsPeriodic}, "update_interval_s": {"60", "300"}}, both, nil)},
		{Name: "sens-negotiator", Title: "Sensitivity: negotiation cycle interval (0 = match at every change)", Definition: sched("Fig. 8 sensitivity: negotiator interval",
			[]int{10, 100, 1000, 3000}, nil, sweep.Grid{"negotiator_interval_s": {"0", "20", "60", "300"}}, []string{VariantCentral}, nil)},
		{Name: "sens-period", Title: "Sensitivity: gossip period and record refresh", Definition: sched("Fig. 8 sensitivity: gossip period",
			[]int{10, 100, 1000}, nil, sweep.Grid{"period_s": {"15", "30", "60", "120"}, "gossip_refresh": {RefreshPeriodic, RefreshOnChange}}, []string{VariantGossip}, nil)},
		{Name: "sens-match", Title: "Sensitivity: the matching cost both systems share", Definition: sched("Fig. 8 sensitivity: matching cost",
			[]int{100, 1000, 3000}, nil, sweep.Grid{"match_cost_us": {"50", "500", "2000"}}, both, nil)},
		{Name: "sens-length", Title: "Sensitivity: run length and arrival process", Definition: sched("Fig. 8 sensitivity: run length",
			[]int{10, 100, 1000}, sweep.Grid{"duration_h": {"6", "24"}, "arrivals": {ArrivalsPoisson, ArrivalsRegular}}, nil, both, nil)},
		{Name: "sens-table1", Title: "Sensitivity of Table 1: the exchange's feedback counter, how the schedulers split the grid, the matching cost", Definition: sched("Table 1 sensitivity: counter, split, matching cost",
			[]int{1000}, nil, sweep.Grid{"schedulers": ints(table1Sched), "gossip_k": {"0", "1"}, "sched_split": {SplitShared, SplitPartition}, "match_cost_us": {"0", "50", "500"}}, []string{VariantGossip}, t1)},
		{Name: "sens-table1-run", Title: "Sensitivity of Table 1: offered load, run length, arrivals and warm-up", Definition: sched("Table 1 sensitivity: load, run length, warm-up",
			[]int{1000}, sweep.Grid{"load": {"0.9", "1", "1.1"}, "duration_h": {"6", "24"}, "arrivals": {ArrivalsPoisson, ArrivalsRegular}}, sweep.Grid{"schedulers": {"1", "8"}, "warmup_h": {"1", "2", "3"}}, []string{VariantGossip}, nil)},
	}
}
