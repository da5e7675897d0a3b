package eapm

import (
	"strconv"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// seedExperiments are the seed's sweeps as experiment definitions, over
// all 100 stored instances as the paper averages, with its numbers as
// references: Table 1 (objective against γ, case 1) with the printed
// Online and Greedy columns; Fig. 1 (objective against n, case 2, γ 1.2,
// 1.3, 1.5) and Fig. 3 (arrival orders, case 3) with the authors' raw
// means, since the figures print no numbers.
func seedExperiments() []solvers.SeedExperiment {
	res := resultsOnce()
	// ref is a reference of the paper (printed) or the authors' raw means
	ref := func(name, variant string, p map[string]string, v float64) sweep.Reference {
		return sweep.Reference{Name: name, Metric: "objective", Variant: variant, Params: p, Value: v}
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	methods := []string{VariantOnline, VariantGreedyMinEnergy, VariantGreedyMaxObjective, VariantAverage}
	all := make([]string, 100) // the 100 stored instances
	for i := range all {
		all[i] = strconv.Itoa(i)
	}
	var t1 []sweep.Reference
	var gammas []string
	for _, gamma := range table1Gammas {
		gammas = append(gammas, g(gamma))
		for _, p := range res.published {
			if almostEqual(p.Gamma, gamma) {
				t1 = append(t1, ref("paper (printed)", VariantOnline, map[string]string{"gamma": g(gamma)}, p.Online),
					ref("paper (printed)", VariantGreedyMinEnergy, map[string]string{"gamma": g(gamma)}, p.Greedy))
			}
		}
	}
	var f1, f3 []sweep.Reference
	var fig []string
	for _, gamma := range figGammas {
		fig = append(fig, g(gamma))
		for _, n := range case2N {
			if raw, ok := res.rawFor("case2", gamma, settingN(n)); ok {
				p := map[string]string{"gamma": g(gamma), "workload.n": strconv.Itoa(n)}
				f1 = append(f1, ref("authors (raw)", VariantOnline, p, raw.Online),
					ref("authors (raw)", VariantGreedyMinEnergy, p, raw.Greedy),
					ref("authors (raw)", VariantAverage, p, raw.Average))
			}
		}
		for _, order := range case3Orders {
			if raw, ok := res.rawFor("case3", gamma, order); ok {
				p := map[string]string{"gamma": g(gamma), "workload.order": order}
				f3 = append(f3, ref("authors (raw)", VariantOnline, p, raw.Online),
					ref("authors (raw)", VariantGreedyMinEnergy, p, raw.Greedy),
					ref("authors (raw)", VariantAverage, p, raw.Average))
			}
		}
	}
	var ns []string
	for _, n := range case2N {
		ns = append(ns, strconv.Itoa(n))
	}
	def := func(name, preset string, wg sweep.Grid, gammas []string, refs []sweep.Reference) sweep.Definition {
		return sweep.Definition{Name: name, Strategy: "eapm", Workload: sweep.Workload{Preset: preset, Grid: wg},
			Variants: methods, Grid: sweep.Grid{"gamma": gammas}, Replicates: 1, Seed: 1, References: refs}
	}
	return []solvers.SeedExperiment{
		{Name: "table1", Title: "Table 1: objective against γ (case 1)", Definition: def("EAPM Table 1", PresetCase1, sweep.Grid{"instance": all}, gammas, t1)},
		{Name: "fig1", Title: "Fig. 1: objective against n users (case 2)", Definition: def("EAPM Fig. 1", PresetCase2, sweep.Grid{"instance": all, "n": ns}, fig, f1)},
		{Name: "fig3", Title: "Fig. 3: arrival orders of big and small bags (case 3)", Definition: def("EAPM Fig. 3", PresetCase3, sweep.Grid{"instance": all, "order": case3Orders}, fig, f3)},
	}
}
