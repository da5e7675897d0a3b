// Package experiments is the pure core of schedlab's experiments (issue
// 16): a parameter sweep with replicates, defined by the user, expanded
// into ordinary runs, and aggregated with confidence intervals. It does no
// I/O: the store keeps definitions and runs, the runner executes them, the
// views draw the rows this package computes.
//
// # Model
//
// A Definition names a strategy, a workload axis (a preset with a Grid
// over its parameters, or stored workloads by id), the variants (empty:
// all of the strategy's), a Grid over run parameters, the number of
// replicates and a base seed (its types are package sweep's, a leaf the
// families write their seed experiments in). Replicate r generates its
// preset workload with seed+r and runs with seed+r, so replicate 0 of
// seed 1 is the run a user gets by hand with seed 1. Parse, ParseJSON
// and ParseYAML read the same keys strictly (an unknown key, or a JSON
// key given twice, is an error naming it); a list of values may also be
// written as an inclusive integer range {"from": a, "to": b}; numbers
// become text as solvers.Params holds them (integers exact: 1e9 is
// "1000000000"; 1.10 is "1.1"; a string is kept as written).
// Absent replicates mean 1, an absent seed DefaultSeed (1); an empty list
// is as if absent. A Reference is a published value (name, metric,
// optional variant, the cell's params, value) that Validate checks
// against the swept keys and values, so that it is drawn where it
// belongs. Validate
// checks a definition against its strategy and reports every problem at
// once (errs.List of errs.Invalid naming fields such as grid.gamma[2]).
//
// A cell is one combination of swept values, keyed (Run.Cell, Row.Params)
// by the run grid's names bare and the workload axis under "workload.NAME"
// (a preset's grid parameter) or "workload" (a stored id), so a preset
// parameter never collides with a run parameter of the same name. Every
// grid name is part of the key, one-element lists included.
//
// # Order
//
// Expand is deterministic: replicate outermost (every cell gets its first
// result before any gets its second, so a half-finished experiment is
// evenly filled), then the workload axis, then the run grid, then the
// variants innermost (the runs an A-vs-B comparison pairs are adjacent).
// A grid is an odometer over its names in sorted order, the last fastest,
// values in the order written. Run.Index is the position in that order,
// the stable key of a run within its experiment. Count gives the number
// without expanding; MaxRuns (100,000) caps it.
//
// # Aggregation
//
// Aggregate groups runs by cell and variant (AggregateBy pools the cells
// over every parameter not kept: the CI then runs over instances and
// replicates together) and gives one Row per group and metric, for every
// metric any run reports, so a cell whose runs all failed still shows up.
// A run counts in N when its status is done and the metric is finite;
// any other finished status (failed, canceled, interrupted, unknown)
// counts in Failed — never dropped silently; queued and running runs are
// not counted yet. Std is the sample standard deviation (n − 1). The 95 %
// CI is mean ± t·std/√n with t the 0.975 quantile of Student's t with
// n − 1 degrees of freedom, computed by gonum's distuv.StudentsT (e.g.
// t(0.975, 3) = 3.182446) and cached per n. For n = 1 the CI and Std do
// not exist and are null (nil), not the mean: a zero-width interval would
// claim a certainty one run cannot give; for n = 0 every statistic is
// null. The median of an even count is the mean of the two middle values.
// Rows are ordered by params (names sorted, values numerically when both
// are numbers, as text otherwise), then variant, then metric.
//
// # Tables
//
// NewPivot lays one metric's rows out with rows and columns chosen among
// the swept parameters and "variant"; cells read "mean ± half-width"
// (4 significant digits; the mean alone for n = 1; "(k failed)" appended
// when runs failed). Every varying parameter must be placed, or pooled
// beforehand with AggregateBy: two rows in one cell are an error, not an
// average. CSV and LaTeX (booktabs, special characters escaped) write it.
//
// # The page (Analyze)
//
// Nothing is pooled silently: the metric plot, box plot and pivot split by
// every swept parameter except those the reader pools, and each says what
// it pools ("pooled over shift: 2 values; n = 8 runs per point"). The
// default x is the swept parameter with the most values. Past MaxLines
// lines a chart is not drawn and says to pool. A failed run is a result:
// a plot point where runs failed is marked ("1 of 4 runs failed"), the box
// plot's legend counts them, a pivot cell reads "(d of n done)†". A
// metric whose declaration bounds it (solvers.Metric Min/Max) gets the
// bootstrap percentile interval (stats.BootstrapMean), which stays within
// the bounds; every other metric Student's t; nothing is clamped and the
// method is named beside every chart and in the pivot's caption (CSV and
// LaTeX too). Paired views pair runs by cell and replicate (the same
// workload and seeds): every instance where either side ended is counted
// by what happened to each side; the mean difference (its 95 % CI), the
// Wilcoxon signed-rank test and win/tie/loss are over the instances where
// both are done. With more than two variants, every pair is tested and
// the p-values Holm-adjusted, and a performance profile (Dolan–Moré) is
// drawn for a ranked metric with positive values.
//
// # Speed
//
// A sweep is short runs, so a run's overhead counts as much as the run:
// the runner claims short runs in groups and stores their ends in groups
// (one commit for many), keeps each workload and its decoded instance for
// the runs that share it (solvers.Workload.Decoded; EAPM keeps its LP
// bound per γ there too, the same for every variant), and a report it
// encoded is not decoded again to be stored. The 1,000-run EAPM
// sweep (2 variants × 5 γ × 100 instances of case 1) on a quiet machine:
// accepted in 144–160 ms, every run done 0.79–0.80 s after the POST, its
// page rendered in 29–80 ms: 0.82–0.87 s from the POST to the page, with
// 1.0–1.07 s of the process's CPU on 2 cores (the benchmark's own HTTP
// polling included); 2.1 s to done with 2.4 s of CPU before this work.
// Aggregating 100,000 stored runs takes 0.78–0.82 s.
//
//	go test ./handlers -run XXX -bench EAPMSweep1000 -benchtime 1x -count 3
//	go test ./handlers -run XXX -bench AggregateStored100k -benchtime 3x
package experiments
