package gossip

import (
	"encoding/json"
	"fmt"
	"strconv"

	"schedlab/solvers"
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
	type ref struct {
		Name    string            `json:"name"`
		Metric  string            `json:"metric"`
		Variant string            `json:"variant"`
		Params  map[string]string `json:"params"`
		Value   float64           `json:"value"`
	}
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
	var t1 []ref
	for i, k := range table1Sched {
		t1 = append(t1, ref{"Umeda 2006, Table 1", "utilization", VariantGossip, map[string]string{"schedulers": strconv.Itoa(k)}, paperTable1[i]})
	}
	both := []string{VariantGossip, VariantCentral}
	sched := func(name string, nodes []int, extra map[string]any, grid map[string]any, variants []string, refs []ref) map[string]any {
		wg := map[string]any{"nodes": ints(nodes), "duration_h": []string{"6"}}
		for k, v := range extra {
			wg[k] = v
		}
		g := map[string]any{"gantt_nodes": []string{"0"}}
		for k, v := range grid {
			g[k] = v
		}
		d := map[string]any{"name": name, "strategy": "gossip", "workload": map[string]any{"preset": PresetUmeda2006, "grid": wg},
			"variants": variants, "grid": g, "replicates": 3, "seed": 1}
		if len(refs) > 0 {
			d["references"] = refs
		}
		return d
	}
	rumor := func(name string, wg, grid map[string]any) map[string]any {
		return map[string]any{"name": name, "strategy": "gossip", "workload": map[string]any{"preset": PresetUmeda2006, "grid": wg},
			"variants": []string{VariantRumor}, "grid": grid, "replicates": 5, "seed": 1}
	}
	f8 := []int{10, 30, 100, 300, 1000, 3000}
	defs := []struct {
		name, title string
		def         map[string]any
	}{
		{"fig6", "Fig. 6: fraction informed by the push rumor (fanout 1, k 1)", rumor("Umeda 2006 Fig. 6",
			map[string]any{"nodes": ints(fig6Nodes), "duration_h": []string{"0.01"}}, map[string]any{"mode": []string{ModePush}, "k": []string{"1"}})},
		{"fig7", "Fig. 7: NAT fraction against rounds and final rate, push and push-pull", rumor("Umeda 2006 Fig. 7",
			map[string]any{"nodes": []string{"1000"}, "duration_h": []string{"0.01"}, "nat_fraction": floats(fig7NAT)}, map[string]any{"mode": []string{ModePush, ModePushPull}, "k": []string{"1"}})},
		{"fig8", "Fig. 8: gossip and central utilization by node count (100 % load)", sched("Umeda 2006 Fig. 8", f8, nil, nil, both, nil)},
		{"fig9", "Fig. 9: gossip / central by node count, one line per load", sched("Umeda 2006 Fig. 9", []int{10, 100, 1000}, map[string]any{"load": floats(fig9Loads)}, nil, both, nil)},
		{"table1", "Table 1: utilization with 1, 2, 4, 8 scheduling nodes (1000 nodes)", sched("Umeda 2006 Table 1", []int{1000}, nil, map[string]any{"schedulers": ints(table1Sched)}, []string{VariantGossip}, t1)},
		{"sens-collect", "Sensitivity: how the central manager collects (push, serial sweep, snapshot) × its cost per record", sched("Fig. 8 sensitivity: central collection",
			f8, nil, map[string]any{"central_collect": []string{CollectPush, CollectSerial, CollectSnapshot}, "record_cost_ms": []string{"5", "50", "200"}}, both, nil)},
		{"sens-ads", "Sensitivity: central ads at every change or only every update_interval_s", sched("Fig. 8 sensitivity: central ad updates",
			[]int{10, 100, 1000}, nil, map[string]any{"central_ads": []string{AdsOnChange, AdsPeriodic}, "update_interval_s": []string{"60", "300"}}, both, nil)},
		{"sens-negotiator", "Sensitivity: negotiation cycle interval (0 = match at every change)", sched("Fig. 8 sensitivity: negotiator interval",
			[]int{10, 100, 1000, 3000}, nil, map[string]any{"negotiator_interval_s": []string{"0", "20", "60", "300"}}, []string{VariantCentral}, nil)},
		{"sens-period", "Sensitivity: gossip period and record refresh", sched("Fig. 8 sensitivity: gossip period",
			[]int{10, 100, 1000}, nil, map[string]any{"period_s": []string{"15", "30", "60", "120"}, "gossip_refresh": []string{RefreshPeriodic, RefreshOnChange}}, []string{VariantGossip}, nil)},
		{"sens-match", "Sensitivity: the matching cost both systems share", sched("Fig. 8 sensitivity: matching cost",
			[]int{100, 1000, 3000}, nil, map[string]any{"match_cost_us": []string{"50", "500", "2000"}}, both, nil)},
		{"sens-length", "Sensitivity: run length and arrival process", sched("Fig. 8 sensitivity: run length",
			[]int{10, 100, 1000}, map[string]any{"duration_h": []string{"6", "24"}, "arrivals": []string{ArrivalsPoisson, ArrivalsRegular}}, nil, both, nil)},
		{"sens-table1", "Sensitivity of Table 1: the exchange's feedback counter, how the schedulers split the grid, the matching cost", sched("Table 1 sensitivity: counter, split, matching cost",
			[]int{1000}, nil, map[string]any{"schedulers": ints(table1Sched), "gossip_k": []string{"0", "1"}, "sched_split": []string{SplitShared, SplitPartition}, "match_cost_us": []string{"0", "50", "500"}}, []string{VariantGossip}, t1)},
		{"sens-table1-run", "Sensitivity of Table 1: offered load, run length, arrivals and warm-up", sched("Table 1 sensitivity: load, run length, warm-up",
			[]int{1000}, map[string]any{"load": []string{"0.9", "1", "1.1"}, "duration_h": []string{"6", "24"}, "arrivals": []string{ArrivalsPoisson, ArrivalsRegular}}, map[string]any{"schedulers": []string{"1", "8"}, "warmup_h": []string{"1", "2", "3"}}, []string{VariantGossip}, nil)},
	}
	out := make([]solvers.SeedExperiment, len(defs))
	for i, d := range defs {
		b, err := json.Marshal(d.def)
		if err != nil {
			panic(fmt.Sprintf("gossip: seed experiment %s: %v", d.name, err)) // our own literals
		}
		out[i] = solvers.SeedExperiment{Name: d.name, Title: d.title, Definition: b}
	}
	return out
}
