package dcop

import (
	"strconv"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
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
	ref := func(name, metric, variant string, params map[string]string, v float64) sweep.Reference {
		return sweep.Reference{Name: name, Metric: metric, Variant: variant, Params: params, Value: v}
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
	var t1, t2, f3, f4 []sweep.Reference
	for ji := range reproJobs {
		t1 = append(t1, ref(src+", Table 1 (before)", "paper_mb_before", VariantWD, at(ji), paperT1Before[ji]),
			ref(src+", Table 1 (after)", "paper_mb_after", VariantWD, at(ji), paperT1After[ji]))
		t2 = append(t2, ref(src+", Table 2 (before)", "paper_mb_before", VariantSplit, at(ji), paperT2Before[ji]),
			ref(src+", Table 2 (after)", "paper_mb_after", VariantSplit, at(ji), paperT2After[ji]))
		f3 = append(f3, ref(src+", §4.2 (lower end of 0.95–1)", "accuracy", VariantWD, at(ji, "wd_rule", RuleSeed), paperWDAccuracy))
		f4 = append(f4, ref(src+", §4.2 (lower end of 0.93–1)", "accuracy", VariantSplit, at(ji), paperSplitAccLow))
	}
	workload := sweep.Workload{Preset: PresetNamekata2008, Grid: sweep.Grid{"jobs": jobs}}
	base := func(name string, variants []string, grid sweep.Grid, refs []sweep.Reference, notes string) sweep.Definition {
		return sweep.Definition{Name: name, Strategy: "dcop", Workload: workload, Variants: variants,
			Grid: grid, Replicates: 10, Seed: 1, Notes: notes, References: refs}
	}
	withRule := func(rules ...string) sweep.Grid {
		return sweep.Grid{"heuristic": {HeuristicMinFill}, "wd_rule": rules}
	}
	// the domain reading over instances filtered with greedy-fit, so that
	// both readings have a schedule
	domain := base("DCOP domain sensitivity", []string{VariantWD, VariantSplit},
		sweep.Grid{"heuristic": {HeuristicMinFill}, "wd_rule": {RuleSeed}, "domain": {DomainStarts, DomainFit}}, append(append([]sweep.Reference{}, f3...), f4...),
		"domain starts: every start in {1..20} (the seed's τ); fit: every job ends by slot 20. Instances are filtered with greedy-fit so both readings have a schedule.")
	domain.Workload.Grid = sweep.Grid{"jobs": jobs, "filter": {FilterGreedyFit}}
	return []solvers.SeedExperiment{
		{Name: "table1", Title: "Table 1: UTIL size before and after back-edge deletion", Definition: base("DCOP Table 1", []string{VariantWD}, withRule(RuleSeed), t1,
			"paper_mb_before/after: the seed's accounting, 20^w × 4 B in MiB. Runs where WD cannot reach width 5 fail (a result).")},
		{Name: "table2", Title: "Table 2: UTIL size before and after the problem split", Definition: base("DCOP Table 2", []string{VariantSplit, VariantSplitWD}, withRule(RuleGreedyGuided), t2,
			"dpop-split-wd is ours (WD with wd_rule in each half wider than 5; greedy-guided as in the reproduce). A split half over the memory budget fails the run.")},
		{Name: "fig3", Title: "Fig. 3: accuracy of back-edge deletion against jobs, per WD rule", Definition: base("DCOP Fig. 3", []string{VariantWD}, withRule(WDRules...), f3,
			"wd_rule seed is the seed's reading; literal, earliest, fixed, half the other readings; balanced and greedy-guided ours.")},
		{Name: "fig4", Title: "Fig. 4: accuracy of the problem split against jobs", Definition: base("DCOP Fig. 4", []string{VariantSplit, VariantSplitWD}, withRule(RuleGreedyGuided), f4,
			"dpop-split-wd is ours (greedy-guided WD inside the halves, as in the reproduce).")},
		{Name: "fig6", Title: "Fig. 6: message cycles of the split against the unsplit problem", Definition: base("DCOP Fig. 6", []string{VariantSplit}, sweep.Grid{"heuristic": {HeuristicMinFill}}, nil,
			"Compare message_cycles (the split, both halves summed) with message_cycles_full (the unsplit pseudo-tree, 2 × its height). The figure prints no numbers.")},
		{Name: "sensitivity-heuristic", Title: "Sensitivity: the pseudo-tree construction (unstated by the seed) against the split's half widths", Definition: base("DCOP heuristic sensitivity", []string{VariantSplit},
			sweep.Grid{"heuristic": {HeuristicMinFill, HeuristicMinDegree, HeuristicMCS, HeuristicDFS, HeuristicMaxDegree}}, f4,
			"width_after is the wider half's width; Table 2's sizes imply halves of width 1.46, 3.06, 4.86, 5.05 at 20–50 jobs.")},
		{Name: "sensitivity-domain", Title: "Sensitivity: the domain reading (a job may end after slot 20, or must fit) on instances whose greedy schedule fits", Definition: domain},
	}
}
