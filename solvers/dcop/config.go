package dcop

import (
	"time"

	"schedlab/solvers"
)

// Config is a run's knobs (the run parameters). DefaultConfig gives the
// defaults with their reasons; Declare binds each field to its public name.
type Config struct {
	WidthLimit int     // dpop-wd: largest separator to reduce to, variables
	WDRule     string  // dpop-wd: how a deleted back edge restricts its jobs (WDRules)
	Heuristic  string  // pseudo-tree heuristic of every DPOP run and of the "before" sizes
	Objective  string  // ObjectiveMakespan or ObjectiveValue
	Domain     string  // DomainStarts (the seed's τ for every start) or DomainFit
	MemoryMB   int     // budget of all UTIL hypercubes of a run, MiB (2^20 B)
	TimeLimitS float64 // time limit of the exact branch and bound, s
}

// defaultHeuristic is the one pseudo-tree default of the runs and the
// reproduce: max-degree, a DFS of the constraint graph (every constraint
// edge a tree edge or a back edge, the seed's §2.4 pseudo-tree; the
// spec's default, and the DFS closest to FRODO's most-connected-first
// heuristic). The seed does not say how it builds its tree.
const defaultHeuristic = HeuristicMaxDegree

// DefaultConfig is the run defaults.
func DefaultConfig() Config {
	return Config{
		WidthLimit: 5,                 // the seed's limit: 20^5 × 4 B ≈ 12.8 MB, its 1.2e1 MB
		WDRule:     RuleSeed,          // the paper's method first (fidelity.md); it fails often, which is a result
		Heuristic:  defaultHeuristic,  // a DFS pseudo-tree in the seed's sense (defaultHeuristic)
		Objective:  ObjectiveMakespan, // the seed's evaluation
		Domain:     DomainStarts,      // §4.1: "ノードの持つ変数領域は τ := {1, ..., 20} とした"
		MemoryMB:   1024,              // 1 GiB: fits width 5 at d = 20 many times over
		TimeLimitS: 5,                 // seed-setting instances up to 50 jobs are almost always proven within it
	}
}

// Declare binds the run parameters (solvers.ParamSet).
func (c *Config) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.WidthLimit, "width_limit", "variables", 1, 30,
		"Largest separator (pseudo-tree width) dpop-wd reduces to. A UTIL message over w variables of domain d has d^w entries. Default 5: the seed's limit (20^5 × 4 B ≈ 12.8 MB, its 1.2e1 MB).").
		For(withWD...)
	ps.Choice(&c.WDRule, "wd_rule", WDRules,
		"How dpop-wd restricts the two jobs of a deleted back edge so that they can never overlap. The seed (§3.1) gives the ancestor {1..L} and its descendants {L+1..T}. seed: the reading kept as the seed's (earliest). literal: start sets as written (unsound for L ≥ 2: a collision of a deleted pair fails the run). earliest: the ancestor keeps the window of its earliest start and the descendant starts after it. fixed: the ancestor ends by L_i, the descendant starts after L_i. half: the ancestor ends by horizon/2, the descendant starts after. set-wide: earliest, kept apart from every descendant the ancestor shares a constraint with. balanced (ours): the split slot that leaves the larger smaller domain, either job first. greedy-guided (ours): balanced keeping the greedy list schedule feasible, so WD can only equal or beat it. Default seed: the paper's method; on namekata2008 it often cannot reach width 5 (the run then fails on width_limit), see the reproduce.").
		For(withWD...)
	ps.Choice(&c.Heuristic, "heuristic", []string{HeuristicMaxDegree, HeuristicMinFill, HeuristicMinFillDFS, HeuristicMinDegree, HeuristicMCS, HeuristicDFS},
		"Pseudo-tree heuristic for every DPOP run (the full problem's tree, the tree dpop-wd reduces and both split halves). max-degree: DFS from the node of highest degree, most-connected child first. min-fill: the elimination tree of the greedy min-fill order (a tree edge may join jobs that only share a constraint through the child's subtree). min-fill-dfs: a DFS guided by that order. min-degree: the elimination tree of the greedy min-degree order. mcs: the elimination tree of maximum cardinality search. dfs: a DFS from the first job visiting neighbours in job order (the seed cites Collin and Dechter's DFS). The seed does not say how it builds its pseudo-tree (its §2.4 pseudo-tree is a DFS tree: every constraint edge a tree edge or a back edge). Default max-degree, the spec's and the reproduce's: a DFS tree in the seed's sense (min-fill's elimination tree is not one); min-fill gives the smallest widths on namekata2008 (means 15.2 against 21.7 at 40 jobs, 21.3 against 32.7 at 50; split halves 6.0 against 7.2 at 40, 8.3 against 11.1 at 50, the reproduce's heuristic table).")
	ps.Choice(&c.Objective, "objective", []string{ObjectiveMakespan, ObjectiveValue},
		"makespan: every job is scheduled and the last occupied slot is minimized (the seed's experiments). value: a job may be left unscheduled and the total value of the scheduled jobs is maximized. Default makespan, as in the seed's evaluation; the exact variant supports makespan only.")
	ps.Choice(&c.Domain, "domain", []string{DomainStarts, DomainFit},
		"The domain of every job's start. starts: {1..horizon} for every job, the seed's setting (§4.1: the variable domain of every node is τ = {1..20}; its size tables count d = 20 for every node), so a job starting late ends after slot horizon (the makespan then exceeds it). fit: starts 1..horizon−L+1, every job ends inside the grid (§2.2 asks for jobs scheduled inside τ). Default starts, the seed's.")
	ps.Int(&c.MemoryMB, "memory_mb", "MB", 1, 1<<20,
		"Budget for all UTIL hypercubes of a run (MiB, 2^20 B). The sizes are predicted from the pseudo-tree before anything is allocated; over the budget the run fails with the node, its separator and the size. Default 1024 (1 GiB): fits width 5 at d = 20 many times over and keeps a server responsive. At most the server's own --memory-mb, which also caps the default.").
		WithLimit(solvers.LimitMemoryMiB).For(distributed...)
	ps.Float(&c.TimeLimitS, "time_limit_s", "s", 0.001, 3600,
		"Time limit of the exact branch and bound, used by the exact variant and by every variant for optimal_makespan and accuracy. When it runs out the best schedule found is reported with optimal_proven = 0 (and the result may then depend on machine speed). Default 5 s: the seed-setting instances up to 50 jobs are almost always proven within it (most meet the lower bound at once). At most the server's --timeout.").
		WithLimit(solvers.LimitTimeSeconds)
}

// memoryBytes is MemoryMB in bytes.
func (c Config) memoryBytes() int64 { return int64(c.MemoryMB) << 20 }

// timeLimit is TimeLimitS as a duration.
func (c Config) timeLimit() time.Duration {
	return time.Duration(c.TimeLimitS * float64(time.Second))
}

// DefaultNamekata2008 is the preset's defaults: the seed's setting at its
// smallest job count.
func DefaultNamekata2008() GenConfig { return Namekata2008(20) }

// Declare binds the namekata2008 preset's parameters.
func (g *GenConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&g.Jobs, "jobs", "jobs", 1, 1000, "Number of jobs (variables). Default 20: the seed's smallest setting (it runs 20, 30, 40, 50).")
	ps.Int(&g.Resources, "resources", "resources", 1, 1000, "Number of resources (clusters). Default 15, the seed's.")
	ps.Int(&g.PerJob, "per_job", "resources", 1, 1000, "Distinct resources each job holds at once (co-allocation). Default 2, the seed's.")
	ps.Int(&g.DurMin, "dur_min", "slots", 1, 10000, "Shortest duration. Default 1: the seed's durations are 1–3 slots.")
	ps.Int(&g.DurMax, "dur_max", "slots", 1, 10000, "Longest duration (uniform in dur_min..dur_max). Default 3, the seed's.")
	ps.Int(&g.Horizon, "horizon", "slots", 1, 10000, "Time grid 1..horizon: the domain of every start. Default 20: the seed's τ = {1..20}.")
	ps.Choice(&g.Filter, "filter", []string{FilterFeasible, FilterGreedyFit, FilterNone},
		"Which connected draws are kept (every draw must have one connected constraint graph, the seed's stated rule). feasible: those with a schedule of every job with starts in {1..horizon}, decided exactly. greedy-fit: those whose greedy list schedule ends inside the horizon, so every job fits the grid (the generator before the seed's setting was adopted; pair it with the run parameter domain=fit). none: every connected draw, some of which have no schedule at all. Default feasible: the seed states no filter but reports an accuracy at every size, so its instances had schedules, while most connected 50-job draws have none (13 of 23 in the reproduce).")
}

// ReproConfig is the seed experiment's knobs (the reproduce parameters).
type ReproConfig struct {
	Instances  int     // instances per job count
	Heuristic  string  // pseudo-tree heuristic of every tree
	TimeLimitS float64 // exact optimum per instance, s
	MemoryMB   int     // UTIL budget of all parallel DPOP runs together, MiB
}

// DefaultReproConfig is the reproduce defaults.
func DefaultReproConfig() ReproConfig {
	return ReproConfig{
		Instances: 10, // the N; the seed does not say how many it averaged
		// The runs' default (defaultHeuristic): a DFS pseudo-tree in the
		// seed's sense. The min-fill tree (ours) runs beside it, and the
		// heuristic table reports every construction's widths.
		Heuristic:  defaultHeuristic,
		TimeLimitS: 10,   // every instance so far is proven in milliseconds; the limit only guards
		MemoryMB:   3072, // 3/4 of the server's default 4 GiB (the rest for the instances, exact and report), shared by the parallel runs
	}
}

// Declare binds the reproduce parameters.
func (r *ReproConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&r.Instances, "instances", "instances", 1, 200,
		"Instances per job count (20, 30, 40, 50 jobs), generated from namekata2008 with seeds 1000·jobs + i. Default 10, the issue's N (the seed does not say how many it averaged).")
	ps.Choice(&r.Heuristic, "heuristic", []string{HeuristicMaxDegree, HeuristicMinFill, HeuristicMinFillDFS, HeuristicMinDegree, HeuristicMCS, HeuristicDFS},
		"Pseudo-tree heuristic of the paper's methods: the full problem's tree, the tree WD reduces and the split halves; the Claims table judges these runs. The seed does not name its construction (it cites Collin and Dechter's DFS; its §2.4 pseudo-tree is a DFS tree, every constraint edge a tree edge or a back edge). Default max-degree, the run parameter's default: a DFS from the node of highest degree, most-connected child first. Every method also runs on the min-fill elimination tree, shown as ours in its own tables (Table 1, Table 2, Accuracy \"(min-fill tree, ours)\"): the narrowest construction here, but a tree edge may join jobs that share no constraint, so it is not a pseudo-tree in the seed's sense. With heuristic=min-fill those tables are not repeated. The report's heuristic table gives every heuristic's widths, whole and halved.")
	ps.Float(&r.TimeLimitS, "time_limit_s", "s", 0.001, 600,
		"Time limit of the exact optimum per instance (for accuracy). Default 10 s; namekata2008 instances are proven in milliseconds, and instances not proven are listed in the notes. At most the server's --timeout.").
		WithLimit(solvers.LimitTimeSeconds)
	ps.Int(&r.MemoryMB, "memory_mb", "MB", 1, 1<<20,
		"UTIL budget of the reproduce's DPOP runs (MiB), shared by the runs in parallel (one per core). Default 3072: three quarters of the server's default 4 GiB, the rest left to the instances, the exact solver and the report; raise it where the server allows (never above its --memory-mb, which also caps the default). A split half over its share fails the split (it is then sized from its pseudo-tree).").
		WithLimit(solvers.LimitMemoryMiB)
}

// timeLimit is TimeLimitS as a duration.
func (r ReproConfig) timeLimit() time.Duration {
	return time.Duration(r.TimeLimitS * float64(time.Second))
}
