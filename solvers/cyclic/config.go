package cyclic

import (
	"math"

	"schedlab/solvers"
	"schedlab/solvers/batch"
	"schedlab/solvers/batsim"
)

// Config is a run's knobs (the run parameters). DefaultConfig gives the
// defaults with their reasons; Declare binds each field to its public name.
// configOf turns it into the SimConfig of a slot variant; batch reads its
// own fields (Policy, Procs, Size, Estimates, GanttStartH, GanttSpanH).
type Config struct {
	Cycles     int     // planning cycles
	Strategy   string  // VO strategy of the DP choice (Strategies)
	K          int     // fair: sub-batches
	Shift      bool    // shift heuristic after the choice
	Limit      float64 // g* of the DP choice per batch; 0: the seed's eqs. (2), (4)
	Depth      string  // backfill: reservations per pass, "0", "1" or "inf"
	CSSShare   float64 // combined: share of the batch planned by the fair-share model
	Priority   string  // combined: which jobs the fair-share model plans
	Early      bool    // early completion
	EarlyMin   float64 // lower bound of the early-completion fraction
	GanttCycle int     // the cycle drawn as a Gantt, 1-based
	Carry      bool    // carry a cycle's unplanned jobs into the next batch
	OwnerPrice float64 // Table 2: the price of the owner's node (median performance); 0: as drawn

	// A trace (Format "swf").
	Policy      string  // batch: queue policy (batch.Policy)
	Procs       int     // machine size P; 0: the trace header's
	Size        string  // job size from the requested or allocated processors
	Estimates   string  // the runtime estimate: the user's or the exact runtime
	UnitS       int     // slot variants on a trace: seconds per time unit; 0: the least that fits
	GanttStartH float64 // batch: start of the Gantt window, h after the first submission
	GanttSpanH  float64 // batch: length of the Gantt window, h

	// An external variant (Batsim's command-line options of a run).
	DynamicJobs    bool    // --enable-dynamic-jobs
	AckDynamicJobs bool    // --acknowledge-dynamic-jobs
	ForwardRuntime bool    // each job's profile a delay profile of its runtime (hidden by default)
	Energy         bool    // --energy: the host power model below
	PowerIdleW     float64 // W per idle host (pstate 0)
	PowerComputeW  float64 // W per computing host (pstate 0)
	PowerSleepW    float64 // W per sleeping host (pstate 1)
	SwitchOffS     float64 // s from pstate 0 to 1
	SwitchOnS      float64 // s from sleep to a computing pstate
	SleepPState    int     // the sleeping pstate; those below it compute

	// external are the registered decision processes' variants
	// (external:NAME), which read batch's trace parameters; set by the
	// family, not a parameter.
	external []string
}

// batchLike is batch and the external variants: the trace simulations.
func (c *Config) batchLike() []string { return append([]string{VariantBatch}, c.external...) }

// batchMetricVariants are the variants a trace simulation's own metrics
// (utilization) are declared for: batch and "external:*", every decision
// process (report.Covers), not only those registered where the run ran.
// A run on a worker without registrations and one on the server measure
// utilization the same way, through one simulator, and are ranked
// together (issue 42 item 1).
func batchMetricVariants() []string { return []string{VariantBatch, batsim.VariantPrefix + "*"} }

// DefaultConfig is the run defaults.
func DefaultConfig() Config {
	return Config{
		Cycles:     1000,          // ≈ 1–2 s; the seed averages 5000
		Strategy:   StratRuntime,  // min Σ runtime s.t. Σ cost ≤ B*
		K:          1,             // one batch: fair is css with AEP windows
		Shift:      false,         // the seed's plain scheme
		Limit:      0,             // the seed's eqs. (2), (4), recomputed every cycle and sub-batch
		Depth:      "1",           // EASY: the queue head is protected
		CSSShare:   0.5,           // half fair-share, half backfilling
		Priority:   PriorityQueue, // the first jobs in batch order
		Early:      false,         // jobs run their reserved time
		EarlyMin:   0.2,           // the seed's U[0.2, 1]
		GanttCycle: 1,             // the workload's own cycle
		Carry:      true,          // a job waits for a later cycle (§1.1, Fig. 1); the seed's experiments use independent cycles (carry=false)
		OwnerPrice: 0,             // the drawn prices: no node is Table 2's

		Policy:        string(batch.EASY), // the archive's most common policy
		PowerIdleW:    100,                // energy's defaults: a round host model (no trace gives one), set per run
		PowerComputeW: 200,
		PowerSleepW:   10,
		SwitchOffS:    1,
		SwitchOnS:     1,
		SleepPState:   1,           // pstate 0 computes, 1 sleeps
		Procs:         0,           // the trace header's MaxProcs (MaxNodes without it)
		Size:          "requested", // SWF field 8, what the user asked for
		Estimates:     "user",      // what the real scheduler knew
		UnitS:         0,           // the least whole number that fits the longest estimate
		GanttStartH:   0,           // from the first submission
		GanttSpanH:    48,          // two days: a light Gantt for a trace of any length
	}
}

// Declare binds the run parameters (solvers.ParamSet).
func (c *Config) Declare(ps *solvers.ParamSet) {
	slot := slotModel()
	ps.Int(&c.Cycles, "cycles", "cycles", 1, 100_000,
		"Planning cycles. Cycle 1 is the workload's; later cycles draw a fresh owners' load and a fresh batch from the workload's generator (or repeat cycle 1 without one); jobs with no alternative are carried over. Default 1000 (≈ 1–2 s); the seed averages 5000.").
		For(slot...)
	ps.Choice(&c.Strategy, "strategy", Strategies(),
		"VO strategy of the DP choice (seed eqs. 10–13). income: max owners' income s.t. Σ processor time ≤ T*. runtime: min Σ runtime s.t. Σ cost ≤ B*. proctime: min Σ processor time s.t. Σ cost ≤ B* (eq. 11 on processor time, the criterion of the seed's Fig. 3). cost: min Σ cost s.t. Σ processor time ≤ T*. idle: max Σ processor time s.t. Σ processor time ≤ T* (least idle time). Default runtime.").
		For(withAlternatives()...)
	ps.Int(&c.K, "k", "sub-batches", 1, 1000,
		"Sub-batches the fair variant cuts the batch into, in priority order, sizes as equal as possible (seed §1.2, k ∈ {1,2,3,5,6,10,20} in Fig. 3). k ≥ the batch size plans each job alone. css ignores k (always 1). Default 1.").
		For(VariantFair, VariantCombined)
	ps.Bool(&c.Shift, "shift",
		"Shift heuristic (seed §1.4): after the choice, windows in order of start time move to the earliest start at which all their nodes are free, keeping nodes, cost and runtime. true: the report shows the Gantt before and after. Default false.").
		For(withAlternatives()...)
	ps.Float(&c.Limit, "limit", "", 0, 1e12,
		"Limit g* of the DP choice per batch: T* (time units of processor time) for income, cost and idle; B* (cost units) for runtime and proctime. 0: the seed's eqs. (2), (4): Σ over jobs of ⌊mean over its alternatives⌋, recomputed every cycle and sub-batch. A fixed limit is split over sub-batches by their share of jobs. If no combination fits, the limit is raised to Σ of each job's least value (counted in the report).").
		For(withAlternatives()...)
	ps.Choice(&c.Depth, "depth", []string{"0", "1", "inf"},
		"backfill: reservations kept per pass, in queue order. 0: none (greedy: a small job may overtake the head for ever); 1: the queue head (EASY, aggressive backfilling); inf: every waiting job (conservative: no job starts later than it was promised). Default 1.").
		For(VariantBackfill, VariantCombined)
	ps.Float(&c.CSSShare, "css_share", "share", 0, 1,
		"combined: the share N_css / N of each cycle's batch planned by the fair-share model; the rest is backfilled. 0 is pure backfilling, 1 pure fair-share (the seed's Fig. 4 varies it). Default 0.5.").
		For(VariantCombined)
	ps.Choice(&c.Priority, "priority", []string{PriorityQueue, PriorityExpensive, PriorityDemanding},
		"combined: which jobs the fair-share model plans. queue: the first in batch order; expensive: the highest budgets; demanding: the largest nodes × volume. Default queue.").
		For(VariantCombined)
	ps.Bool(&c.Early, "early",
		"Early completion (seed §3.1): true: every job actually runs U[early_min, 1] of its reserved time (drawn from the workload's seed and the job's id, the same draw for every method). backfill re-plans at each actual completion; css and fair keep their planned starts. The report shows planned and actual start and runtime. Default false.").
		For(slot...)
	ps.Float(&c.EarlyMin, "early_min", "share", 0.01, 1,
		"Lower bound of the early-completion fraction U[early_min, 1] of the reserved time. Default 0.2, the seed's.").
		For(slot...)
	ps.Bool(&c.Carry, "carry",
		"true: a job with no alternative is carried into the next cycle's batch, ahead of the new jobs (seed §1.1, Fig. 1). false: cycles are independent, as in the seed's experiments («5000 отдельных циклов», §2.2; «5000 независимых циклов», §3.1): such a job is a failure of its cycle and leaves. Default true.").
		For(slot...)
	ps.Float(&c.OwnerPrice, "owner_price", "cost units", 0, 1e6,
		"Table 2 (seed §2.4, «стоимость ресурса» c of one owner's node): the price per time unit of the owner's node, the domain's node of median performance, in every cycle; the report then shows that node's owner_load_time (the VO's processor time on it per cycle), owner_utilization (÷ interval), owner_profit (price × load time per cycle) and owner_market_price (its price law's price, without the owner's markup; a workload without a generator has none). Later cycles' budgets see the new price, as the owner's offer. 0: the drawn prices. Applies to a slot workload, not a trace. Default 0.").
		For(slot...)
	ps.Int(&c.GanttCycle, "gantt_cycle", "cycle", 1, 100_000,
		"The cycle whose plan is drawn as a Gantt (nodes as lanes, local jobs grey, chosen windows by job, unchosen alternatives outlined; with shift, before and after). Must be ≤ cycles. Default 1.").
		For(slot...)
	c.declareTrace(ps)
}

// declareTrace binds the parameters of a trace: batch's, and those the
// slot variants read when they cut a trace into cycles (procs, size,
// estimates, unit_s), which therefore apply to every variant.
func (c *Config) declareTrace(ps *solvers.ParamSet) {
	ps.Choice(&c.Policy, "policy", []string{string(batch.FCFS), string(batch.EASY), string(batch.Conservative)},
		"batch: queue policy. fcfs: strict first come first served; easy: backfilling with one reservation, for the queue head (EASY, aggressive); conservative: every waiting job gets a reservation and backfilling never delays one. Default easy.").
		For(VariantBatch)
	ps.Int(&c.Procs, "procs", "processors", 0, 10_000_000,
		"A trace: machine size P. 0 takes the trace header's MaxProcs (MaxNodes without it). Jobs larger than P are skipped and counted.").
		OnFormats(FormatSWF)
	ps.Choice(&c.Size, "size", []string{"requested", "allocated"},
		"A trace: job size from the SWF requested processors (field 8) or allocated processors (field 5); either falls back to the other when it is -1. Default requested.").
		OnFormats(FormatSWF)
	ps.Choice(&c.Estimates, "estimates", []string{"user", "exact"},
		"A trace: the runtime estimate the scheduler plans with: user = the requested time (field 9; jobs running past it are cut at it, as the real system kills them; records without one use their runtime, with a warning), exact = the real runtime (a perfect-information baseline). Default user.").
		OnFormats(FormatSWF)
	ps.Int(&c.UnitS, "unit_s", "s", 0, 1_000_000,
		"A trace run by css, fair, backfill or combined: seconds per time unit of the slot model, which cuts the trace into cycles of T = 600 units. 0: the least whole number that fits the longest estimate into one interval. The cycles are the trace's, whatever cycles says.").
		For(slotModel()...).OnFormats(FormatSWF)
	ps.Float(&c.GanttStartH, "gantt_start_h", "h", 0, 1e7,
		"batch: start of the Gantt window, in hours after the first submission. The Gantt draws one window so that a trace of any length stays light; processors in use are plotted over the whole trace.").
		For(c.batchLike()...)
	ps.Float(&c.GanttSpanH, "gantt_span_h", "h", 0.01, 1e6,
		"batch: length of the Gantt window in hours (at most 20,000 bars; a longer window is shortened, and the report says so). Default 48.").
		For(c.batchLike()...)
	if len(c.external) > 0 {
		c.declareExternal(ps)
	}
}

// declareExternal binds Batsim's run options for the external variants
// (package batsim's Options; the names are Batsim's options').
func (c *Config) declareExternal(ps *solvers.ParamSet) {
	ps.Bool(&c.DynamicJobs, "dynamic_jobs",
		"External scheduler: Batsim's --enable-dynamic-jobs. The decision process may register jobs and profiles (REGISTER_JOB, REGISTER_PROFILE: a killed job resubmitted), and the simulation ends only after it sends NOTIFY registration_finished. Default false.").
		For(c.external...)
	ps.Bool(&c.AckDynamicJobs, "dynamic_jobs_ack",
		"External scheduler with dynamic_jobs: Batsim's --acknowledge-dynamic-jobs, a registered job is acknowledged by a JOB_SUBMITTED. Default false.").
		For(c.external...)
	ps.Bool(&c.ForwardRuntime, "forward_runtime",
		"External scheduler: give each job Batsim's delay profile of its real runtime, as Batsim's SWF converter does. A real scheduler never knows the runtime, so by default a job's profile has no type and the runtime stays hidden. Default false.").
		For(c.external...)
	ps.Bool(&c.Energy, "energy",
		"External scheduler: Batsim's --energy, with the host power model of power_idle_w, power_compute_w, power_sleep_w, switch_off_s, switch_on_s, sleep_pstate (every host the same): SET_RESOURCE_STATE, QUERY consumed_energy and the consumed_energy metric (J). Default false.").
		For(c.external...)
	ps.Float(&c.PowerIdleW, "power_idle_w", "W", 0, 1e6, "energy: watts of an idle host (pstate 0), and of a switching one. Default 100.").For(c.external...)
	ps.Float(&c.PowerComputeW, "power_compute_w", "W", 0, 1e6, "energy: watts of a host running a job. Default 200.").For(c.external...)
	ps.Float(&c.PowerSleepW, "power_sleep_w", "W", 0, 1e6, "energy: watts of a sleeping host (pstate 1). Default 10.").For(c.external...)
	ps.Float(&c.SwitchOffS, "switch_off_s", "s", 0, 1e6, "energy: seconds from pstate 0 to sleep. Default 1.").For(c.external...)
	ps.Float(&c.SwitchOnS, "switch_on_s", "s", 0, 1e6, "energy: seconds from sleep to a computing pstate. Default 1.").For(c.external...)
	ps.Int(&c.SleepPState, "sleep_pstate", "", 1, 1000, "energy: the sleeping pstate; pstates 0 to sleep_pstate-1 compute (same watts; a job's duration does not depend on them). Batsim's energy_platform_homogeneous.xml, which pybatsim's fcfsSchedSleep assumes, has 3. Default 1.").For(c.external...)
}

// Declare binds the toporkov2014 preset's parameters (the defaults are
// Toporkov2014's).
func (g *GenConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&g.Nodes, "nodes", "nodes", 1, MaxNodes, "Nodes in the resource domain. Default 24, the seed's.")
	ps.Float(&g.PerfMin, "perf_min", "", 0.01, 1e6, "Lowest node performance: p ~ U[perf_min, perf_max]. Default 2, the seed's.")
	ps.Float(&g.PerfMax, "perf_max", "", 0.01, 1e6, "Highest node performance. Default 10, the seed's.")
	ps.Int(&g.Interval, "interval", "time units", 1, MaxInterval, "Planning interval T of a cycle. Default 600, the seed's.")
	ps.Int(&g.Jobs, "jobs", "jobs", 1, MaxJobs, "New jobs per cycle. Default 20, the seed's.")
	ps.Float(&g.LocalLoad, "local_load", "share", 0, 0.95, "Owners' local load: expected share of each node's interval taken by local jobs of 20–100 time units (ours; the seed sets load levels by the failure rate U only). Default 0.06: the seed's medium load, U ≈ 0.03 (§2.3) with the kth jobs.")
	ps.Choice(&g.JobLaw, "job_law", JobLaws(),
		"How a job's width and volume are drawn (the seed gives neither). kth: a record of the KTH SP2 log (Parallel Workloads Archive) at most nodes_max processors wide, its requested processors as nodes and its requested time as the time on an average node (p = 6), the log's longest request (60 h) being one interval. uniform: nodes ~ U{1..nodes_max}, volume ~ U[100, 400]. Default kth.")
	ps.Int(&g.NodesMax, "nodes_max", "nodes", 1, MaxNodes, "The widest job: kth leaves out the log's wider records, uniform draws U{1..nodes_max}. A job wider than the domain runs on all its nodes. Default 24, the seed's domain.")
	ps.Float(&g.VolumeScale, "volume_scale", "", 0.01, 1000, "Multiplies every job's volume (the sensitivity of the unknown job sizes). Default 1.")
	ps.Choice(&g.PriceLaw, "price_law", PriceLaws(),
		"A node's price per time unit from its performance p before the owner's discount/markup (the seed: «в зависимости от производительности», law not given). linear: p (one price per unit of work); sqrt: 6·√(p/6) (fast nodes sell work cheaper); square: 6·(p/6)² (dearer). Every law prices the average node (p = 6) at 6. Default linear.")
}

// ReproConfig is the seed experiment's knobs (the reproduce parameters).
type ReproConfig struct {
	Cycles     int    // planning cycles of Table 1, Table 2 and Fig 3's runs
	Seed       int    // seed of the toporkov2014 domain and of every cycle's draw
	Strategy   string // VO strategy of Table 1 and Table 2
	FlowCycles int    // planning cycles of Table 3, Fig 4 and Figs 5–8's runs
}

// DefaultReproConfig is the reproduce defaults.
func DefaultReproConfig() ReproConfig {
	return ReproConfig{
		Cycles:     250,          // the whole reproduce within a minute on 2 cores with the KTH jobs (many small jobs: hundreds of alternatives per job); the seed's 5000 is the full setting
		Seed:       1,            // the run default seed of toporkov2014
		Strategy:   StratRuntime, // the run default: the seed does not name it for Tables 1 and 2
		FlowCycles: 350,          // the node study (up to 150 nodes) within the same minute
	}
}

// Declare binds the reproduce parameters.
func (r *ReproConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&r.Cycles, "cycles", "cycles", 10, 100_000,
		"Planning cycles of every run (2 for Table 1, 8 for Table 2, 21 for Fig 3). Default 250 keeps the default reproduce within about a minute on 2 cores; the seed's 5000 is the full setting (minutes).")
	ps.Int(&r.Seed, "seed", "", 0, math.MaxInt32, "Seed of the toporkov2014 domain and of every cycle's draw. Default 1.")
	ps.Choice(&r.Strategy, "strategy", Strategies(),
		"VO strategy for Table 1 and Table 2 (the seed does not name it there). Fig 3 always minimizes processor time (proctime), as the seed says. Default runtime, the run default.")
	ps.Int(&r.FlowCycles, "flow_cycles", "cycles", 10, 100_000,
		"Planning cycles of every run of Table 3, Fig 4 and Figs 5–8 (3 + 11 + 24 runs, up to 150 nodes). Default 350 keeps the whole reproduce within about a minute on 2 cores (the node study on up to 150 nodes dominates); the seed's 5000 is the full setting (many minutes).")
}
