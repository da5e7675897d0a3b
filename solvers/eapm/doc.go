// Package eapm is the EAPM family: online energy-aware profit maximization
// for bags of tasks on heterogeneous machine types, after Zhang, Li and
// Zhang (2022, seed 004_55fd890ca32d5ad5.txt) and Tarplee, Maciejewski and
// Siegel (CCGrid 2014). Measurements are in bench/README.md ("solvers/eapm").
//
// Model: machine types j with M_j machines, task types t with ETC_tj (s)
// and APC_tj (W), e_tj = ETC·APC; users arrive in order, each a bag of a_i
// tasks of one type; x_ij tasks go to type j, shared evenly by its
// machines. L_j = Σ_i (ETC_ij/M_j)·x_ij, MS = max_j L_j, E = Σ e_ij·x_ij,
// price p_t = γ·c·min_j e_tj, revenue R = Σ a_i·p_{t_i}; maximize
// (R − c·E)/MS ($/s). γ ≤ 1 cannot profit: allowed, and said. The seed's
// instances use M_j = 1 (as the authors' code), Tarplee's M_j = 40.
//
// Variants: online (Algorithm 1 / Lemma 1): for each user and τ, the
// m−τ+1 types of least energy per task are raised to one level; the seed's
// matrix inversion per τ (O(n·m⁴)) becomes five suffix sums (O(m) per
// user); a τ needing a negative share is dropped (the authors' code);
// shares are rounded up from the cheapest type (roundUp); the scan stops
// at the first τ that cannot be beaten (exact: tested against the full
// scan and the seed's systems solved with gonum). online-waterfill:
// infeasible τ are water-filled instead (O(n·m²)). greedy-min-energy (the
// paper's Greedy), greedy-max-objective (the authors' final code's),
// average (⌈a/m⌉ in index order), offline-lp (the LP bound rounded per
// type by largest remainder, bags taken in arrival order; an offline
// reference).
//
// The bound (Bound, an LP) is solved by simplex.go's revised simplex
// (gonum's lp.Simplex, too slow, is its test oracle); it is the workload's,
// shared by every variant (sharedBound); a bound over its size budget, and
// bound_ratio when the bound is 0, are not reported (a note says so).
//
// Decisions: equal energy per task orders by index; equal objectives pick
// the larger τ set (the authors' loop); greedy-max-objective ties by
// energy, then index. A level may sit 1e−9 under a load before τ is
// infeasible; leftover tasks from rounding go to the cheapest type.
// Reported objectives are the integral schedule's with exact energies (not
// the last user's fractional value, as the authors' code). Tarplee's bag
// becomes one user per task type in type order (or shuffled by seed).
// Default γ = 1.2, the only value in every experiment of the paper.
// authorsCode re-enacts zqh-ynu/EAPMAX, quirks and raw means included.
//
// Claims (reproclaims.go, solvers/claims only): Table 1 by Level at its
// printed precision; comparisons by Direction paired per instance against
// the paper's Greedy and Average, greedy-max-objective in rows labelled
// ours; trends by TrendOf; where the words fix no number the threshold is
// ours and named; Fig 2's run times are medians of 5 timings, compared on
// log10 ms and left out of the pin. config.go holds Config and the
// presets' configs with their defaults' reasons.
//
// Workloads: native JSON (format eapm/v1; etc and apc T × m; optional
// names, machines_per_type default 1; users in arrival order, type
// 0-based; unknown fields are errors) or CSV files told apart by field or
// name (etc, apc or epc, users, optional mpt), headers optional, a type by
// index or name. Limits (errs.TooLarge, checked before allocating): the
// size guards of model.go (MaxUsers …, MinValue, MaxValue) and
// MaxLPRows/MaxLPCols; reports sample (maxPlotPoints, maxTableRows,
// maxGanttBlocks), each with a Note. Algorithms check their context every
// 256 users. Run reserves its tables first; the seed's instances are read
// once per case, streaming.
package eapm
