package cyclic

import (
	"maps"
	"strconv"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// seedExperiments are the seed's sweeps as experiment definitions (the
// reproduce's figures, with the paper's printed numbers as references
// where it prints any) and the sensitivity experiments over the unknowns
// that move Figs 3, 5–8 and Table 3. Every definition runs toporkov2014
// with independent cycles (carry=false), as the seed's experiments do.
func seedExperiments() []solvers.SeedExperiment {
	ref := func(name, metric, variant string, params map[string]string, v float64) sweep.Reference {
		return sweep.Reference{Name: name, Metric: metric, Variant: variant, Params: params, Value: v}
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	ints := func(vs []int) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = strconv.Itoa(v)
		}
		return out
	}
	floats := func(vs []float64) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = g(v)
		}
		return out
	}
	const src = "Toporkov et al. 2014"
	flow := func(extra sweep.Grid) sweep.Grid {
		m := sweep.Grid{"strategy": {StratProcTime}, "carry": {"false"}, "depth": {"1"}, "cycles": {"1000"}}
		maps.Copy(m, extra)
		return m
	}
	var t1 []sweep.Reference
	for i, m := range []string{"n_alternatives", "start", "runtime", "finish"} {
		t1 = append(t1, ref(src+", Table 1 (CSS row)", m, VariantCSS, nil, paperT1["css"][i]))
	}
	var t2 []sweep.Reference
	for i, c := range paperT2Prices {
		at := map[string]string{"owner_price": g(c)}
		for k, m := range []string{"owner_load_time", "owner_utilization", "owner_profit", "failure_rate"} {
			t2 = append(t2, ref(src+", Table 2", m, VariantFair, at, paperT2[i][k]))
		}
	}
	var f3 []sweep.Reference
	for _, l := range fig3Loads[:2] {
		f3 = append(f3, ref(src+", §2.3 (U of the load level)", "failure_rate", "", map[string]string{"workload.local_load": g(l.load), "k": "1"}, l.u))
	}
	var t3 []sweep.Reference
	for i, v := range []string{VariantBackfill, VariantCSS, VariantFair} {
		p := paperT3[i]
		t3 = append(t3, ref(src+", Table 3", "processor_time", v, nil, p.procPlan), ref(src+", Table 3", "actual_processor_time", v, nil, p.procAct),
			ref(src+", Table 3", "planned_start", v, nil, p.st), ref(src+", Table 3", "actual_start", v, nil, p.stAc))
	}
	study := []string{VariantCSS, VariantCombined, VariantBackfill}
	studyGrid := flow(sweep.Grid{"shift": {"false", "true"}})
	studyNote := "css with shift=true is the seed's CSS+shift (ЦСПС); shift does not apply to backfill (its two cells are the same run). Compare start (Fig. 5), processor_time (Fig. 6), start_plus_processor_time (Fig. 7, F) and finish (Fig. 8)."
	// cyc completes a definition with what every one shares: toporkov2014,
	// one replicate of seed 1
	cyc := func(d sweep.Definition) sweep.Definition {
		d.Strategy, d.Workload.Preset, d.Replicates, d.Seed = "cyclic", PresetToporkov2014, 1, 1
		return d
	}
	// a sensitivity experiment: the node study at few and many nodes over
	// one unknown of the preset
	sens := func(param string, values []string, why string) sweep.Definition {
		return cyc(sweep.Definition{Name: "Cyclic sensitivity: " + param, Workload: sweep.Workload{Grid: sweep.Grid{"nodes": {"6", "20", "150"}, param: values}},
			Variants: study, Grid: flow(sweep.Grid{"shift": {"false", "true"}, "cycles": {"300"}}),
			Notes: "Sensitivity of Figs 5–8 to an unknown of the seed (" + why + "). The seed's claims: CSS, CSS+shift and combined below backfilling on processor_time at every node count (Fig. 6); backfilling ≈ combined best on F and finish with few nodes, CSS+shift best with many (Figs. 7–8). " + studyNote})
	}
	joblaw := sens("nodes_max", []string{"2", "3"}, "the package's uniform job law, nodes ~ U{1..nodes_max} and volume ~ U[100, 400], with small jobs: nearer the seed's Table 1 start and finish than the KTH law")
	joblaw.Workload.Grid["job_law"] = []string{JobLawUniform}
	joblaw.Name = "Cyclic sensitivity: job_law uniform"
	return []solvers.SeedExperiment{
		{Name: "table1", Title: "Table 1: the fair-share model against the cyclic scheme", Definition: cyc(sweep.Definition{Name: "Cyclic Table 1",
			Variants: []string{VariantFair, VariantCSS}, Grid: sweep.Grid{"strategy": {StratRuntime}, "carry": {"false"}, "cycles": {"800"}},
			Notes: "The seed's 5000 independent cycles of 20 jobs; the per-criterion rows are in each fair run's report. Costs are in our relative units (the seed gives none), so the CSS cost is not a reference.", References: t1})},
		{Name: "table2", Title: "Table 2: one owner's node priced from 2 to 10", Definition: cyc(sweep.Definition{Name: "Cyclic Table 2",
			Variants: []string{VariantFair}, Grid: sweep.Grid{"owner_price": floats(paperT2Prices), "strategy": {StratRuntime}, "carry": {"false"}, "cycles": {"800"}},
			Notes: "The seed's prices c = 2 … 10 on one owner's node (ours: the node of median performance), T = 600; the paper's table is the references (load time L, utilization U = L/T, profit P, failures Y). c is in our cost units (one per unit of work on the linear price law) and the seed does not give its unit: compare where the profit peaks against owner_market_price, the node's market price, not the c. The reproduce's Table 2 sets the same node's price to 0.25 … 2 × its market price instead.", References: t2})},
		{Name: "fig3", Title: "Fig. 3: processor time against the sub-batches k at three load levels", Definition: cyc(sweep.Definition{Name: "Cyclic Fig. 3",
			Workload: sweep.Workload{Grid: sweep.Grid{"local_load": floats([]float64{fig3Loads[0].load, fig3Loads[1].load, fig3Loads[2].load})}},
			Variants: []string{VariantFair}, Grid: sweep.Grid{"k": ints(fig3K), "strategy": {StratProcTime}, "carry": {"false"}, "cycles": {"800"}},
			Notes: "The seed's levels are set by the failure rate U at k = 1 (0.3, 0.03, < 0.0002); ours by the owners' local load. The figure prints no numbers: its claims are the best k (few at high load, many at low) and that n_alternatives rises, cost falls and failure_rate rises with k.", References: f3})},
		{Name: "fig4", Title: "Fig. 4: the combined method against N_css / N", Definition: cyc(sweep.Definition{Name: "Cyclic Fig. 4",
			Workload: sweep.Workload{Grid: sweep.Grid{"local_load": {g(fig3Loads[1].load)}}},
			Variants: []string{VariantCombined}, Grid: flow(sweep.Grid{"css_share": floats(fig4Shares), "priority": {PriorityQueue}}),
			Notes: "Medium load, queue order (the seed's). The figure prints no numbers: processor_time falls and start rises with css_share, and the curves cross."})},
		{Name: "table3", Title: "Table 3: planned against actual with early completion", Definition: cyc(sweep.Definition{Name: "Cyclic Table 3",
			Variants: []string{VariantBackfill, VariantCSS, VariantFair}, Grid: flow(sweep.Grid{"early": {"true"}, "early_min": {"0.2"}}),
			Notes: "The seed's «время выполнения» is the processor time T_proc: compare processor_time (planned) and actual_processor_time.", References: t3})},
		{Name: "figs5-8", Title: "Figs. 5–8: start, processor time, F and finish against the nodes", Definition: cyc(sweep.Definition{Name: "Cyclic Figs. 5–8",
			Workload: sweep.Workload{Grid: sweep.Grid{"nodes": ints(studyNodes)}},
			Variants: study, Grid: studyGrid, Notes: "The figures print no numbers (Fig. 6's axis spans 100–240). " + studyNote})},
		{Name: "sensitivity-joblaw", Title: "Sensitivity: the uniform job law with small jobs (Figs. 5–8)", Definition: joblaw},
		{Name: "sensitivity-volume", Title: "Sensitivity: job volume (Figs. 5–8)", Definition: sens("volume_scale", []string{"0.333", "1", "3"}, "job sizes: ×1/3 and ×3 the KTH-derived volumes; ×3 is the log's longest request = one interval on the average node")},
		{Name: "sensitivity-width", Title: "Sensitivity: job width (Figs. 5–8)", Definition: sens("nodes_max", []string{"1", "4", "8", "24"}, "the widest job: KTH records up to that many processors")},
		{Name: "sensitivity-price", Title: "Sensitivity: price law (Figs. 5–8)", Definition: sens("price_law", PriceLaws(), "a node's price from its performance")},
		{Name: "sensitivity-load", Title: "Sensitivity: owners' local load (Figs. 5–8)", Definition: sens("local_load", []string{"0", "0.06", "0.15", "0.3"}, "the owners' busy share; 0.06 and 0.15 are the seed's medium and high load")},
		{Name: "sensitivity-interval", Title: "Sensitivity: cycle length (Figs. 5–8)", Definition: sens("interval", []string{"300", "600", "1200"}, "the planning interval T; the seed's «типовой» is 600")},
		{Name: "sensitivity-table3", Title: "Sensitivity: Table 3's lead under early completion", Definition: cyc(sweep.Definition{Name: "Cyclic sensitivity: Table 3",
			Workload: sweep.Workload{Grid: sweep.Grid{"volume_scale": {"0.333", "1", "3"}, "nodes_max": {"4", "24"}, "price_law": PriceLaws()}},
			Variants: []string{VariantBackfill, VariantFair}, Grid: flow(sweep.Grid{"early": {"true"}, "cycles": {"300"}}),
			Notes: "The seed: fair-share's processor_time lead over backfilling 26.2 % planned → 27.5 % actual (actual_processor_time)."})},
		{Name: "sensitivity-fig3", Title: "Sensitivity: Fig. 3's best k", Definition: cyc(sweep.Definition{Name: "Cyclic sensitivity: Fig. 3",
			Workload: sweep.Workload{Grid: sweep.Grid{"volume_scale": {"0.333", "1", "3"}, "nodes_max": {"4", "24"}, "local_load": {g(fig3Loads[0].load), g(fig3Loads[2].load)}}},
			Variants: []string{VariantFair}, Grid: sweep.Grid{"k": ints(fig3K), "strategy": {StratProcTime}, "carry": {"false"}, "cycles": {"300"}},
			Notes: "The seed: at high load few sub-batches give the least processor_time, at low load many. The load levels move with the job sizes; compare failure_rate at k = 1 with the seed's 0.3 (high) and < 0.0002 (low)."})},
	}
}
