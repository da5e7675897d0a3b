// Package eapm is the EAPM strategy family: online energy-aware profit
// maximization for bags of tasks on heterogeneous machine types, after
// Zhang, Li and Zhang (2022, seed 004_55fd890ca32d5ad5.txt) and Tarplee,
// Maciejewski and Siegel (CCGrid 2014). It is pure Go: no HTTP, SQL or templ.
//
// # Model
//
// Machine types j = 1..m with M_j machines each; task types t with ETC_tj
// (seconds for one task on one machine) and APC_tj (watts while it runs);
// users i = 1..n arrive in order, user i with a bag of a_i tasks of one type
// t_i. e_tj = ETC_tj·APC_tj is the energy of one task. x_ij ∈ ℕ tasks of user
// i go to machine type j, whose machines share them evenly, so
//
//	L_j = Σ_i (ETC_ij/M_j)·x_ij        load per machine of type j (s)
//	MS  = max_j L_j                    makespan (s)
//	E   = Σ_i Σ_j e_ij·x_ij            energy (J)
//	p_t = γ·c·min_j e_tj               price of one task of type t
//	R   = Σ_i a_i·p_{t_i}              revenue
//	maximize (R − c·E)/MS              profit per unit time, s.t. Σ_j x_ij = a_i
//
// γ is the price markup over a task's least possible energy cost and c the
// energy cost per joule (units: $/J, so the objective is $/s). With γ ≤ 1 no
// schedule can profit (R ≤ c·E always): allowed, and a run says so. The
// seed's instances use M_j = 1 (the authors' code has no M_j at all);
// Tarplee's uses M_j = 40.
//
// # Algorithms (variants)
//
//   - online: the seed's Algorithm 1 / Lemma 1. For each arriving user and
//     each τ, the m−τ+1 machine types with the least energy per task (S_τ)
//     are raised to one common level MS_τ = (a + Σ_{S_τ} L_j/t_j)/Σ_{S_τ} 1/t_j
//     (t_j = ETC/M_j) with x_j = (MS_τ − L_j)/t_j; the objective of each τ is
//     (R_i − c·(E + Σ e_j·x_j))/max(MS, MS_τ). The seed solves one linear
//     system per τ by matrix inversion, O(n·m⁴); five suffix sums over the
//     machines in energy order (Σ1/t, ΣL/t, Σe/t, Σe·L/t, max L) make each τ
//     O(1), so a user costs O(m) and the run O(n·m + T·m log m). A τ that would
//     need a negative share (a machine of S_τ already above the level) is
//     dropped, as the authors' code does. The best τ's shares are rounded up,
//     cheapest machine first, ⌈x − 1e−9⌉ each until the bag is placed.
//     The τ are tried from the smallest set up, and the scan stops at the
//     first feasible τ whose level does not raise the makespan when the next
//     machine is strictly dearer: a larger set then has no lower energy and
//     the same denominator, so it cannot win (exact, tested against the full
//     scan and against the seed's linear systems solved with gonum).
//   - online-waterfill: the same, but a τ with machines above the level is
//     water-filled (those machines left out, the level recomputed) instead of
//     dropped, so every τ is feasible. O(n·m²) (same early stop).
//   - greedy-min-energy: the paper's Greedy, each bag on argmin_j e_tj.
//   - greedy-max-objective: each bag on the machine type that maximizes the
//     objective right after placing it (the authors' final code's Greedy).
//   - average: ⌈a/m⌉ to machine types in index order, the rest to the last.
//   - offline-lp: the Charnes–Cooper LP bound (below) over the whole stream,
//     rounded per task type by largest remainder; users of a type take their
//     bags from the rounded counts in arrival order. An offline reference.
//
// Every run also solves the LP bound (unless it is over its size budget):
// the fractional relaxation with bags aggregated per task type is linear-
// fractional; with r = 1/MS and w_tj = r·x_tj/d_t it becomes the LP
// max R·r − c·Σ d_t e_tj w_tj s.t. Σ_j w_tj = r, Σ_t d_t (ETC_tj/M_j) w_tj ≤ 1,
// scaled (r by a reference makespan, the objective by c·Σ d_t min_j e_tj)
// so every coefficient is O(1). It bounds every schedule's objective and
// reproduces Tarplee's "profit (upper)" (and its makespan and energy) within
// a relative 3e−13; the rounded schedule lands on his "profit (integer)".
//
// The LP (K task types in use + m rows, K·m + m + 1 columns, two non-zeros
// per w column) is solved by a revised simplex method written for it
// (simplex.go; Bertsimas & Tsitsiklis, Introduction to Linear Optimization,
// 1997, §3.3–3.4; Chvátal, Linear Programming, 1983, ch. 3 and 7): an
// explicit dense B⁻¹ updated by elementary row operations at each pivot,
// sparse pricing, from the known feasible start basis (w on each type's
// cheapest machine and every slack; no phase 1). Pivoting: Dantzig's rule
// (most negative reduced cost), ties in the ratio test to the largest
// pivot; after 10 degenerate steps in a row Bland's rule (lowest index
// enters, lowest basic index leaves) until a step makes progress, so it
// cannot cycle. Tolerances: optimal at reduced costs ≥ −1e−12, entries
// ≤ 1e−9 skipped in the ratio test, ratios within 1e−12 tie. B⁻¹ is
// recomputed from the data (Gauss–Jordan, partial pivoting) every 100
// pivots and at the optimum, where optimality is checked again. It replaced
// gonum's lp.Simplex, which refactorizes the basis with LU and estimates its
// condition number at every pivot: BenchmarkUpperBoundCase1 went from
// milliseconds to a few hundred microseconds, and the bound from the
// largest cost of a 1,000-run case-1 sweep to a small one. gonum stays the
// test oracle: on 600 random LPs of this shape (half with tied costs and
// equal machine columns, some with γ ≤ 1) and on all 100 case-1 instances
// at γ = 1.1…2.0 the optima agree to 1e−9 relative to max(1, |opt|), each
// basis is certified optimal by its dual, and on the seed's instances x is
// gonum's too; the bounds in the Reproduce report moved by at most 1.2e−15
// relative.
//
// # Metrics
//
// Every variant computes every metric: the LP upper bound is the
// workload's, computed once and shared by all variants (sharedBound), so
// upper_bound and bound_ratio are meaningful for all of them and no
// metric names variants (solvers.Metric.Variants). A bound that was not
// computed (its LP over the budget) is not reported, nor is bound_ratio
// when the bound is 0 (γ ≤ 1: objective ÷ 0 is undefined); a note says
// so. Decision: a 0 in their place would be ranked on the compare page,
// averaged into a sweep's mean and drawn, as if it had been measured;
// left out, a compare shows "—" and a sweep's sample is the runs that
// have the value.
//
// # Decisions the paper leaves open
//
//   - Ties: machines of equal energy per task are ordered by index, the lower
//     index counting as cheaper; among τ of equal objective the larger set
//     wins (the authors' loop keeps the first strictly better τ, from the
//     largest set down); greedy-max-objective breaks ties by lower energy,
//     then lower index.
//   - Feasibility tolerance: a level may lie 1e−9 (relative to the load, or
//     absolute below 1 s) under a machine's load before the τ counts as
//     infeasible; rounding subtracts 1e−9 before ⌈·⌉ so 3.0000000001 is 3.
//     Any task the rounding leaves over (floating-point error) goes to the
//     cheapest machine. Reported objectives are those of the integral final
//     schedule with exact energies — not, as in the authors' code, the last
//     user's fractional value.
//   - Objective after each arrival: the integral schedule's objective of the
//     users placed so far, (R_i − c·E_i)/MS_i.
//   - Tarplee's bag (TPT.csv) becomes a stream of one user per task type with
//     demand, in task type order (preset option: shuffled with the run's
//     seed). The LP bound only sees the demand per type, so it is the same for
//     every order; the online algorithms are not.
//   - Default γ = 1.2: the only value in every experiment of the paper
//     (Table 1 covers 1.05–1.5; Figs. 1–3 use 1.2, 1.3, 1.5).
//   - The seed's presets use Tarplee's matrices with M_j = 1, as the authors'
//     code (it reads profit1/ETC.csv and APC.csv and sums ETC per machine type).
//
// # What the authors' code really does (see Reproduce)
//
// Their results come from zqh-ynu/EAPMAX (C++). Re-enacting it (authors.go)
// reproduces all 30 raw case-1 means to 7 significant digits, which settles:
//
//   - The Greedy column is the minimum-energy greedy (Greedy_based_method2),
//     as the paper describes: its values are linear in γ−1. The final code's
//     main() calls Greedy_based_method, the max-objective greedy, which beats
//     Online at every γ of case 1; it is offered as greedy-max-objective.
//   - Our online differs from the raw Online by ≤ 0.3 %; re-enacted, the
//     difference is: a load update that uses x[i][j] by original index
//     inside a loop over sorted positions, so some machines get unrounded
//     shares (≤ 0.3 %); reporting the last user's fractional value (≤ 0.015 %);
//     and a quickSort whose int pivot/temporaries truncate energies (and the
//     prices built on them) to whole joules (≤ 0.004 %). That truncation is
//     also all that separates our greedy-min-energy and average means from
//     theirs (≤ 2.5e−5 and 1.2e−4 relative).
//   - The printed Table 1 swaps Online and Greedy at γ = 1.1.
//
// # Claims (see Reproduce)
//
// The reproduce report's Claims table is built only by solvers/claims
// (reproclaims.go, the seed's sentences quoted there): Table 1's printed
// numbers by Level at their printed precision over the 100 instances;
// "Online beats the other two in every case" and Figs 1–3's comparisons
// by Direction, paired instance by instance, at every γ, n and order,
// against the paper's Greedy (greedy-min-energy) and Average, with
// greedy-max-objective in rows of its own labelled ours; the same
// comparisons on the authors' code re-enacted and their raw means;
// trends with TrendOf (paired over γ, Welch over n and orders); the
// conclusions by Combine. Where the paper's words fix no number
// ("almost equal", "no noticeable effect", "slightly", run-time
// comparisons) the threshold is ours and named in the row. Fig 2's run
// times are the median of 5 timings per method and instance, in rounds
// over the methods, with their spread (table Fig 2 run times); they are
// compared on log10 ms and left out of the pin
// (testdata/pinned_reproduce.json).
//
// # Parameters
//
// Each parameter list is a typed config in config.go whose Declare method
// binds its fields to the public names, units, limits and docs: Config
// (the run: gamma, c, machines_per_type; every variant reads all three),
// TarpleeConfig, Case1Config, Case2Config and Case3Config (the presets) and
// ReproConfig (the seed experiment; bounds is a boolean, true or false, and
// the older yes/no still reads). Their defaults are the constructors
// DefaultConfig, DefaultTarpleeConfig, … DefaultReproConfig, whose literals
// carry each default's reason and unit in a comment. solvers.Def (New)
// decodes and checks them before the family's code, which reads fields.
//
// # Workload formats
//
// One native JSON file (also Workload.Data, what Run reads back):
//
//	{
//	  "format": "eapm/v1",                    optional; the only version
//	  "name": "my cluster",                   optional
//	  "source": "where the numbers come from", optional
//	  "machine_types": ["AMD A8-3870K", ...], optional, m names
//	  "task_types": ["C-Ray", ...],           optional, T names
//	  "etc": [[59.72, 27.01, ...], ...],      T rows × m columns, seconds
//	  "apc": [[139.6, 223.1, ...], ...],      T × m, watts
//	  "machines_per_type": [40, 40, ...],     optional, m counts (default 1)
//	  "users": [{"type": 19, "tasks": 357}, ...]  arrival order; type 0-based
//	}
//
// Unknown fields, trailing data and wrong types are errors. Or three CSV
// files told apart by form field (etc, apc, users) or by name (containing
// "etc"; "apc" or "epc"; "user"): ETC and APC matrices (header row and a
// leading label column of task type names optional, CRLF fine), and the user
// stream, one user per row: type,tasks (header optional; with a header the
// columns may come in any order, type may be task_type, tasks may be a or
// count, other columns are ignored; a type is a 0-based index or a task type
// name). An optional fourth file (field mpt, or a name containing "mpt")
// gives machines per type, as Tarplee's MPT.csv. The canonical JSON fills in
// names ("M0"…, "T0"…) and counts.
//
// # Limits
//
// At most 1,000,000 users, 1,000 task types, 1,000 machine types, 10⁹ tasks
// per user, 10⁶ machines per type, and n·m ≤ 10,000,000 allocation cells
// (int32 each, 40 MB), checked before anything of that size is allocated
// (errs.TooLarge). ETC and APC entries lie in [1e−6, 1e9] so every energy,
// inverse time and sum stays finite. The LP bound runs only up to 250 rows ×
// 6,000 columns (task types in use + m, their product + m + 1): beyond that
// a run notes the bound was skipped and offline-lp is errs.TooLarge. Reports
// sample per-user plots to 2,000 points, list 2,000 users in the Allocation
// table (the rest summed in one row) and merge Gantt bars into at most 500
// blocks of consecutive users per lane, each time with a Note.
//
// Algorithms check their context every 256 users and return its error.
//
// # Memory budget
//
// Run estimates, before newModel, the model's tables (task types × machine
// types) and the allocation and report rows (users × machine types) and
// refuses them with errs.TooLarge on "workload" when they exceed the memory
// budget in its context (solvers.Reserve; the server's --memory-mb, 4 GiB
// without one). The generators build fixed-size instances (Tarplee's
// matrices, the seed's 1,000 instances) and are not estimated. The seed's
// instances are read once per case, on the first use of that case (a
// case-1 workload never reads case 2's 363,000 rows), by a streaming
// reader that keeps no record.
// machines_per_type is checked by its parser at Resolve, so a bad list is
// refused at submit.
package eapm
