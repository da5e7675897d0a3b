package eapm

import (
	"encoding/json"
	"fmt"
	"strconv"

	"schedlab/solvers"
)

// seedExperiments are the seed's sweeps as experiment definitions, over
// all 100 stored instances as the paper averages, with its numbers as
// references: Table 1 (objective against γ, case 1) with the printed
// Online and Greedy columns; Fig. 1 (objective against n, case 2, γ 1.2,
// 1.3, 1.5) and Fig. 3 (arrival orders, case 3) with the authors' raw
// means, since the figures print no numbers.
func seedExperiments() []solvers.SeedExperiment {
	res := resultsOnce()
	type ref struct {
		Name    string            `json:"name"`
		Metric  string            `json:"metric"`
		Variant string            `json:"variant"`
		Params  map[string]string `json:"params"`
		Value   float64           `json:"value"`
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	methods := []string{VariantOnline, VariantGreedyMinEnergy, VariantGreedyMaxObjective, VariantAverage}
	all := map[string]any{"from": 0, "to": 99}
	var t1 []ref
	var gammas []string
	for _, gamma := range table1Gammas {
		gammas = append(gammas, g(gamma))
		for _, p := range res.published {
			if almostEqual(p.Gamma, gamma) {
				t1 = append(t1, ref{"paper (printed)", "objective", VariantOnline, map[string]string{"gamma": g(gamma)}, p.Online},
					ref{"paper (printed)", "objective", VariantGreedyMinEnergy, map[string]string{"gamma": g(gamma)}, p.Greedy})
			}
		}
	}
	var f1, f3 []ref
	var fig []string
	for _, gamma := range figGammas {
		fig = append(fig, g(gamma))
		for _, n := range case2N {
			if raw, ok := res.rawFor("case2", gamma, settingN(n)); ok {
				p := map[string]string{"gamma": g(gamma), "workload.n": strconv.Itoa(n)}
				f1 = append(f1, ref{"authors (raw)", "objective", VariantOnline, p, raw.Online},
					ref{"authors (raw)", "objective", VariantGreedyMinEnergy, p, raw.Greedy},
					ref{"authors (raw)", "objective", VariantAverage, p, raw.Average})
			}
		}
		for _, order := range case3Orders {
			if raw, ok := res.rawFor("case3", gamma, order); ok {
				p := map[string]string{"gamma": g(gamma), "workload.order": order}
				f3 = append(f3, ref{"authors (raw)", "objective", VariantOnline, p, raw.Online},
					ref{"authors (raw)", "objective", VariantGreedyMinEnergy, p, raw.Greedy},
					ref{"authors (raw)", "objective", VariantAverage, p, raw.Average})
			}
		}
	}
	var ns []string
	for _, n := range case2N {
		ns = append(ns, strconv.Itoa(n))
	}
	defs := []struct {
		name, title string
		def         map[string]any
	}{
		{"table1", "Table 1: objective against γ (case 1)", map[string]any{"name": "EAPM Table 1", "strategy": "eapm",
			"workload": map[string]any{"preset": PresetCase1, "grid": map[string]any{"instance": all}},
			"variants": methods, "grid": map[string]any{"gamma": gammas}, "references": t1}},
		{"fig1", "Fig. 1: objective against n users (case 2)", map[string]any{"name": "EAPM Fig. 1", "strategy": "eapm",
			"workload": map[string]any{"preset": PresetCase2, "grid": map[string]any{"instance": all, "n": ns}},
			"variants": methods, "grid": map[string]any{"gamma": fig}, "references": f1}},
		{"fig3", "Fig. 3: arrival orders of big and small bags (case 3)", map[string]any{"name": "EAPM Fig. 3", "strategy": "eapm",
			"workload": map[string]any{"preset": PresetCase3, "grid": map[string]any{"instance": all, "order": case3Orders}},
			"variants": methods, "grid": map[string]any{"gamma": fig}, "references": f3}},
	}
	out := make([]solvers.SeedExperiment, len(defs))
	for i, d := range defs {
		b, err := json.Marshal(d.def)
		if err != nil {
			panic(fmt.Sprintf("eapm: seed experiment %s: %v", d.name, err)) // our own literals
		}
		out[i] = solvers.SeedExperiment{Name: d.name, Title: d.title, Definition: b}
	}
	return out
}
