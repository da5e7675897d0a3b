package dcop

import (
	"encoding/json"
	"fmt"
	"strconv"

	"schedlab/solvers"
)

// seedExperiments are the seed's sweeps that the generic experiment views
// can express (a metric against jobs, per variant) as experiment
// definitions over namekata2008 at 20, 30, 40, 50 jobs × 10 replicates on
// min-fill pseudo-trees (the reproduce's settings), with the seed's
// numbers as references: Table 1 (sizes before and after WD, seed
// accounting paper_mb_*), Table 2 (the split), Figs. 3 and 4 (accuracy,
// the lower ends of the ranges its text states; Fig. 3 sweeps every WD
// rule) and Fig. 6 (message cycles of the split against the unsplit
// tree's, which the figure prints without numbers). Fig. 5 (accuracy
// against deleted edges, a scatter over instances) and the readings'
// failure counts are in the reproduce only.
func seedExperiments() []solvers.SeedExperiment {
	type ref struct {
		Name    string            `json:"name"`
		Metric  string            `json:"metric"`
		Variant string            `json:"variant,omitempty"`
		Params  map[string]string `json:"params,omitempty"`
		Value   float64           `json:"value"`
	}
	const src = "Namekata et al. 2008"
	var jobs []string
	for _, j := range reproJobs {
		jobs = append(jobs, strconv.Itoa(j))
	}
	at := func(ji int, extra ...string) map[string]string {
		p := map[string]string{"workload.jobs": jobs[ji]}
		for i := 0; i+1 < len(extra); i += 2 {
			p[extra[i]] = extra[i+1]
		}
		return p
	}
	var t1, t2, f3, f4 []ref
	for ji := range reproJobs {
		t1 = append(t1, ref{src + ", Table 1 (before)", "paper_mb_before", VariantWD, at(ji), paperT1Before[ji]},
			ref{src + ", Table 1 (after)", "paper_mb_after", VariantWD, at(ji), paperT1After[ji]})
		t2 = append(t2, ref{src + ", Table 2 (before)", "paper_mb_before", VariantSplit, at(ji), paperT2Before[ji]},
			ref{src + ", Table 2 (after)", "paper_mb_after", VariantSplit, at(ji), paperT2After[ji]})
		f3 = append(f3, ref{src + ", §4.2 (lower end of 0.95–1)", "accuracy", VariantWD, at(ji, "wd_rule", RuleSeed), paperWDAccuracy})
		f4 = append(f4, ref{src + ", §4.2 (lower end of 0.93–1)", "accuracy", VariantSplit, at(ji), paperSplitAccLow})
	}
	workload := map[string]any{"preset": PresetNamekata2008, "grid": map[string]any{"jobs": jobs}}
	base := func(name string, variants []string, grid map[string]any, refs []ref, notes string) map[string]any {
		d := map[string]any{"name": name, "strategy": "dcop", "workload": workload, "variants": variants,
			"grid": grid, "replicates": 10, "seed": 1, "notes": notes}
		if len(refs) > 0 {
			d["references"] = refs
		}
		return d
	}
	common := map[string]any{"heuristic": []string{HeuristicMinFill}}
	withRule := func(rules ...string) map[string]any {
		return map[string]any{"heuristic": []string{HeuristicMinFill}, "wd_rule": rules}
	}
	defs := []struct {
		name, title string
		def         map[string]any
	}{
		{"table1", "Table 1: UTIL size before and after back-edge deletion", base("DCOP Table 1", []string{VariantWD}, withRule(RuleSeed), t1,
			"paper_mb_before/after: the seed's accounting, 20^w × 4 B in MiB. Runs where WD cannot reach width 5 fail (a result).")},
		{"table2", "Table 2: UTIL size before and after the problem split", base("DCOP Table 2", []string{VariantSplit, VariantSplitWD}, withRule(RuleGreedyGuided), t2,
			"dpop-split-wd is ours (WD with wd_rule in each half wider than 5; greedy-guided as in the reproduce). A split half over the memory budget fails the run.")},
		{"fig3", "Fig. 3: accuracy of back-edge deletion against jobs, per WD rule", base("DCOP Fig. 3", []string{VariantWD}, withRule(WDRules...), f3,
			"wd_rule seed is the seed's reading; literal, earliest, fixed, half the other readings; balanced and greedy-guided ours.")},
		{"fig4", "Fig. 4: accuracy of the problem split against jobs", base("DCOP Fig. 4", []string{VariantSplit, VariantSplitWD}, withRule(RuleGreedyGuided), f4,
			"dpop-split-wd is ours (greedy-guided WD inside the halves, as in the reproduce).")},
		{"fig6", "Fig. 6: message cycles of the split against the unsplit problem", base("DCOP Fig. 6", []string{VariantSplit}, common, nil,
			"Compare message_cycles (the split, both halves summed) with message_cycles_full (the unsplit pseudo-tree, 2 × its height). The figure prints no numbers.")},
		{"sensitivity-heuristic", "Sensitivity: the pseudo-tree construction (unstated by the seed) against the split's half widths", base("DCOP heuristic sensitivity", []string{VariantSplit},
			map[string]any{"heuristic": []string{HeuristicMinFill, HeuristicMinDegree, HeuristicMCS, HeuristicDFS, HeuristicMaxDegree}}, f4,
			"width_after is the wider half's width; Table 2's sizes imply halves of width 1.46, 3.06, 4.86, 5.05 at 20–50 jobs.")},
		{"sensitivity-domain", "Sensitivity: the domain reading (a job may end after slot 20, or must fit) on instances whose greedy schedule fits", sensitivityDomain(workload, append(append([]ref{}, f3...), f4...))},
	}
	out := make([]solvers.SeedExperiment, len(defs))
	for i, d := range defs {
		b, err := json.Marshal(d.def)
		if err != nil {
			panic(fmt.Sprintf("dcop: seed experiment %s: %v", d.name, err)) // our own literals
		}
		out[i] = solvers.SeedExperiment{Name: d.name, Title: d.title, Definition: b}
	}
	return out
}

// sensitivityDomain sweeps the run parameter domain over instances
// filtered with greedy-fit, so that both readings have a schedule.
func sensitivityDomain(workload map[string]any, refs any) map[string]any {
	w := map[string]any{"preset": workload["preset"], "grid": map[string]any{"jobs": workload["grid"].(map[string]any)["jobs"], "filter": []string{FilterGreedyFit}}}
	return map[string]any{"references": refs, "name": "DCOP domain sensitivity", "strategy": "dcop", "workload": w,
		"variants": []string{VariantWD, VariantSplit}, "replicates": 10, "seed": 1,
		"grid":  map[string]any{"heuristic": []string{HeuristicMinFill}, "wd_rule": []string{RuleSeed}, "domain": []string{DomainStarts, DomainFit}},
		"notes": "domain starts: every start in {1..20} (the seed's τ); fit: every job ends by slot 20. Instances are filtered with greedy-fit so both readings have a schedule."}
}
