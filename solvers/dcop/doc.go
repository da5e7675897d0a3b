// Package dcop is the DCOP co-allocation family: co-allocation as a
// distributed constraint optimization problem solved with DPOP, after
// Namekata, Matsui and Matsuo (seed 000_bc3ba4e6fc26b50c.txt), DPOP (Petcu
// and Faltings, IJCAI 2005) and EAV (Maheswaran et al., AAMAS 2004).
// Measurements are in bench/README.md ("solvers/dcop").
//
// Model (EAV, §2.2): resources R1..Rn, slots 1..T. Job k needs resources A_k
// all at once for L_k slots, worth V_k; its variable is its start s_k.
// Domains: "starts" {1..T} (default; §4.1 "τ := {1, ..., 20}" for every
// node and d = 20 in its size tables, so a job may end past T), "fit"
// {1..T−L_k+1} (§2.2's value objective counts jobs "scheduled inside τ"),
// plus 0 = unscheduled for objective=value. Jobs sharing a resource must
// not overlap (hard, +Inf). Makespan (the last occupied slot) runs DPOP in
// the exact (min, max) semiring, value in (min, +) on −V_k, over float32.
//
// Steps: (1) pseudo-tree (BuildPseudoTree: max-degree by default,
// random, min-fill, min-fill-dfs, …; our "dfs" is not FRODO's); (2)
// UTIL, leaves to root, and (3) VALUE, root to leaves (Solve: the
// allocation, the ties to the earliest start, determinism; Stats: the
// seed's synchronous cycles; the kernel in dpop.go keeps pin_test.go's
// optima, schedules and sizes). Entries are 4 B (EntryBytes: the seed's
// "MB" is MiB, its d = 20 for every node shown beside our *_actual sizes,
// published sizes compared as widths).
//
// WD (WidthDelete, wd.go; Algorithm 1, Fig. 2): the largest separator's
// node loses the back edges to one non-parent ancestor (our choice among
// them and the ties are in its doc); none left is errs.Invalid on
// width_limit. Line 5's restriction is ambiguous (§3.1): wd_rule's
// readings are in wd.go; seed = set-wide, the sound reading closest to
// the text; balanced and greedy-guided are ours. Split (SplitWD, §3.2):
// E1 = the first ⌈k/2⌉ jobs, E2 loses exactly the starts overlapping E1
// (the seed's set fixed); dpop-split-wd (ours, HalfWD) runs WD in halves
// too wide. Exact (exact.go): LowerBound, then a makespan ladder
// decided by backtracking with forward checking, ended by the greedy
// schedule; a time limit returns the best found, unproven.
//
// Metrics by variant (report.Metric.Variants): exact sends no message;
// messages, bytes, cycles and *_after sizes are the DPOP variants',
// back_edges_deleted the WD ones', edges_cut the split ones'.
// Generator namekata2008 (Namekata2008, §4.1): 2 of 15 resources,
// duration 1–3, redrawn until connected; filter "feasible" (default: the
// seed reports accuracy at every size, so its instances had schedules),
// "greedy-fit" or "none". Every makespan run also runs exact for
// accuracy; a method's own schedule replaces exact's best found when it is
// better (full DPOP is optimal by construction). The reproduce uses the
// max-degree tree (the paper's) and repeats every method on min-fill
// ("(min-fill tree, ours)"), its memory_mb (default 3072, never above the
// server's) shared by the parallel runs; Claims use solvers/claims on
// per-instance numbers, NaN for no schedule. config.go holds Config,
// GenConfig and ReproConfig with each default's reason. Export
// (exportData): pyDCOP YAML and FRODO XCSP 2.1, the makespan exactly.
// memory_mb and time_limit_s are budget knobs capped by the server's;
// Generate reserves memory before it draws, each draw passes a linear
// pretest (prefilter) first, and the exact feasibility test is bounded
// by feasibleCheck (200 ms). Native JSON: ParseJSON.
package dcop
