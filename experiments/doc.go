// Package experiments is the pure core of schedlab's experiments: a
// parameter sweep with replicates, defined by the user, expanded into
// ordinary runs and aggregated with confidence intervals. It does no I/O:
// the store keeps definitions and runs, the runner executes them, the
// views draw what this package computes.
//
// A Definition (package sweep's types, in which the families also write
// their seed experiments) names a strategy, a workload axis (a preset with
// a Grid over its parameters, or stored workloads by id), the variants
// (none: all the strategy's), a Grid over run parameters, the replicates
// and a base seed. Parse reads it from JSON or YAML strictly (ParseJSON);
// Validate checks it against its strategy and reports every problem at
// once (errs.List of errs.Invalid naming fields such as grid.gamma[2]),
// its References included, so a published value is drawn where it
// belongs. A cell is one combination of swept values (Run.Cell, Row.Params).
//
// Decisions:
//
//   - Replicate r generates its preset workload with seed+r and runs with
//     seed+r, so replicate 0 of seed 1 is the run a user makes by hand with
//     seed 1.
//   - Expand's order is deterministic, and Run.Index is a run's stable key:
//     replicate outermost (every cell gets its first result before any gets
//     its second, so a half-finished experiment is evenly filled), variants
//     innermost (the runs a comparison pairs are adjacent). Count sizes a
//     definition without expanding it; MaxRuns (100,000) caps it.
//   - Nothing is dropped or pooled silently. A run counts in N when done
//     with a finite value; any other finished status counts in Failed, and
//     a cell whose runs all failed still has its rows.
//   - No result is a failure (issue 38 item 3). One rule, Outcome (on
//     report.NoResult), read by every count: a run that ended done
//     without a finite value of a metric needed of it (a ranked result
//     meaningful for its variant; any metric without a declaration) is
//     Failed for that metric, counted in the row's Failed and NoResult,
//     marked on the plots and in the pivot, a failed side in the paired
//     view and the pairwise table, and never within τ in the
//     performance profile, as Dolan and Moré (2002) count a solver's
//     failure on a problem (r = ∞). critical-works that stopped (no
//     makespan) is the case that asked for it; a run that cannot produce
//     a result at all (DCOP's dpop-wd failing its width limit) ends
//     failed and was already counted. A metric not needed of a run (an
//     info metric, or one declared for other variants) is not counted
//     for it at all. Analysis.NoResult gives the page's header its count.
//   - A metric's declaration (direction, bounds, variants) comes from
//     the family when it declares its metrics (Strategy.Metrics,
//     Def.Metrics), then from the first done report of each variant
//     (Infos takes the first of each name), never from the first report
//     alone: a stopped run carries no makespan (issue 38 item 4). The
//     page opens on the family's primary result (PrimaryMetric: its first
//     declared ranked result, else the first ranked result), not on the
//     alphabetically first metric (issue 42 item 6); a stored workload
//     is named by its name in series (Grouping.Names). Pooling is chosen
//     (AggregateBy, the page's Query.Pool) and named beside every chart
//     (Grouping.Pooled); two rows in one pivot cell are an error, not an
//     average (NewPivot); past MaxLines lines a chart says to pool instead.
//     A failed run is a result: marked on the plot, counted in the box
//     plot's legend and in the pivot's cells ("(d of n done)†").
//   - The 95 % interval is Student's t (gonum's distuv.StudentsT), except
//     for a metric its declaration bounds (report.Metric Min/Max): the
//     bootstrap percentile interval (stats.BootstrapMean), which stays
//     within the bounds. Nothing is clamped; the method is named beside
//     every chart and in the pivot's caption, CSV and LaTeX. For n = 1 the
//     interval and Std are null, not the mean: a zero-width interval would
//     claim a certainty one run cannot give.
//   - Paired views (Pair) pair runs by cell and replicate (the same
//     workload and seeds); the statistics are over the instances where both
//     sides are done, and the others are counted by what happened to each.
//     With more than two variants every pair is tested with Holm-adjusted
//     p-values (Pairwise), and a ranked metric with positive values gets a
//     performance profile (Profile, Dolan and Moré).
//
// A sweep is many short runs, so a run's overhead counts as much as the
// run: package runner claims runs and stores their ends in groups and keeps
// a shared workload decoded (solvers.Workload.Decoded). Measurements are
// in bench/README.md ("experiments").
package experiments
