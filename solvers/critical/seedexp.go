package critical

import (
	"strconv"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// seedExperiments are the reproduce's sweeps as experiment definitions
// (the seed publishes no numbers, so they carry no references): the
// deadline comparison over deadline_factor on random DAGs of 30 and 100
// tasks, every variant; and the enumeration count (tree_nodes against
// dfs_paths) over random DAG sizes, heft only (the tree is built by
// every variant, its size does not depend on it).
func seedExperiments() []solvers.SeedExperiment {
	var factors []string
	for _, f := range ReproDeadlineFactors {
		factors = append(factors, strconv.FormatFloat(f, 'g', -1, 64))
	}
	var sizes []string
	for _, s := range reproSizes {
		sizes = append(sizes, strconv.Itoa(s))
	}
	return []solvers.SeedExperiment{
		{Name: "deadline", Title: "Deadline comparison: critical works vs HEFT and list at deadline = HEFT makespan × factor", Definition: sweep.Definition{
			Name: "Critical works: deadline comparison", Strategy: "critical",
			Workload:   sweep.Workload{Preset: PresetRandom, Grid: sweep.Grid{"tasks": sizes[:reproCompareSizes]}},
			Variants:   []string{VariantCritical, VariantCriticalFallback, VariantHEFT, VariantList},
			Grid:       sweep.Grid{"deadline_factor": factors},
			Replicates: 10, Seed: 1,
			Notes: "The deadline is deadline_factor × HEFT's makespan (deadline_over_heft) and, in every run's report, deadline_over_critical_work: × the critical-work length, the paper's a-priori estimate (every transfer counted); below 1 no plan fits by that estimate, so a stop there measures the deadline, not the method. Compare meets_deadline, stopped, variants_kept, cost and processor_load_deadline (the method's terms); makespan is not the method's objective. Every variant runs on the platform's processors (collision_processors reserve, the default): processors_used = processors."}},
		{Name: "enumeration", Title: "Path enumerations: tree of critical paths vs depth-first search of all paths", Definition: sweep.Definition{
			Name: "Critical works: path enumerations", Strategy: "critical",
			Workload:   sweep.Workload{Preset: PresetRandom, Grid: sweep.Grid{"tasks": sizes}},
			Variants:   []string{VariantHEFT},
			Replicates: 10, Seed: 1,
			Notes: "Compare tree_nodes (paths the tree of critical paths enumerates) with dfs_paths (paths a depth-first enumeration visits); tree_cut says when tree_max_nodes cut the tree."}},
	}
}
