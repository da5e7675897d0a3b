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
// Steps: (1) pseudo-tree (pseudotree.go; the seed names no construction,
// citing Collin and Dechter's DFS): max-degree (default: DFS from the
// highest degree, most-connected child first), random (explicit
// *rand.Rand), min-fill (elimination tree of the greedy min-fill order; a
// tree edge may join jobs sharing nothing), min-fill-dfs; ties to the
// lower job index. (2) UTIL, leaves to root (dpop.go); (3) VALUE, root
// to leaves. Our "dfs" heuristic is not FRODO's DPOPagent tree; the
// closest is max-degree.
//
// Decisions: 4 B (float32) per hypercube entry (EntryBytes); the seed's
// "MB" is MiB (20^5 × 4 B = its 1.2e1, PaperMB; its "1.2MB" a typo) and its
// tables count d = 20 for every node, which the reproduce shows beside our
// actual-domain sizes (*_actual); published sizes become widths
// log20(MB·2^20/4) (ImpliedWidth), compared as geometric means. A UTIL
// message over Sep(x) is the only allocation (the join is never built)
// and its size is predicted in log space before anything is allocated;
// over the memory budget the run is errs.TooLarge naming the node. Ties:
// the lowest domain value (earliest start, the seed's "packed as early as
// possible"; a job worth 0 stays unscheduled). Message cycles are
// synchronous (footnote 2): height cycles for UTIL and again for VALUE,
// one UTIL and one VALUE per tree edge. Results are deterministic (fixed
// post-order, no goroutines or maps on the result path). The kernel
// (dpop.go: deepest separator variable last, per-node masks of forbidden
// starts, fused loops) keeps the order of additions of the first kernel,
// so pin_test.go's recorded optima, schedules and sizes hold.
//
// WD (wd.go, Algorithm 1, Fig. 2): take the node with the largest
// separator (ties: more entries, lower index), delete every back edge
// between a non-parent ancestor x_i ∈ Sep(x_n) and x_n's subtree (ours:
// the x_i leaving the largest smallest domain, ties fewer edges then
// deeper; skip ones that empty a domain); none left is errs.Invalid on
// width_limit. Line 5's restriction is ambiguous (§3.1): the wd_rule
// readings are documented in wd.go; seed = set-wide, the sound reading
// closest to the text; balanced and greedy-guided are ours.
// Split (split.go, §3.2): E1 = the first ⌈k/2⌉ jobs, then E2 loses exactly
// the starts overlapping E1 (the seed's {1..t−1, t+L_i+1, ..} fixed: it
// lets jobs run into t and drops t+L_i); dpop-split-wd (ours) runs WD in
// halves too wide, greedy-guided with GreedyIn as reference in the
// reproduce. Exact (exact.go): heaviest-clique lower bound, then a
// makespan ladder decided by backtracking with forward checking; the
// greedy schedule ends the ladder; a time limit returns the best found,
// unproven; BruteForce cross-checks it in tests.
//
// Metrics by variant (solvers.Metric.Variants): exact sends no message;
// messages, bytes, cycles and *_after sizes are the DPOP variants',
// back_edges_deleted the WD ones', edges_cut the split ones'.
// Generator namekata2008 (generate.go): 2 of 15 resources, duration 1–3,
// redrawn until connected (§4.1); filter "feasible" (default: the seed
// reports accuracy at every size, so its instances had schedules),
// "greedy-fit" or "none". Every makespan run also runs exact for
// accuracy; a method's own schedule replaces exact's best found when it is
// better (full DPOP is optimal by construction). Stats.JoinOps counts
// separator assignments × |D_x|, forbidden values included. The reproduce uses the max-degree tree (the paper's) and
// repeats every method on min-fill ("(min-fill tree, ours)"), its
// memory_mb (default 3072, never above the server's) shared by the
// parallel runs; Claims use
// solvers/claims on per-instance numbers, NaN for no schedule. config.go
// holds Config, GenConfig and ReproConfig with each default's reason.
// Export (export.go): pyDCOP YAML (big-M) and FRODO XCSP 2.1 (infinity),
// makespan exactly via an auxiliary variable, fit domain, FRODO over 5 M
// tuples is errs.TooLarge. memory_mb and time_limit_s are budget knobs
// capped by the server's; Generate reserves memory before it draws, each
// draw passes a linear pretest first, and the exact feasibility test has
// 200 ms. Native JSON: {"horizon", "resources", "jobs": [{"id",
// "resources", "duration", "value" (default 1)}]}; a bad field is
// errs.Invalid naming it.
package dcop
