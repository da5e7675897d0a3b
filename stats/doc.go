// Package stats holds the statistics schedlab shows beside its
// comparisons: whether A is really better than B, and how sure we are of
// a mean. It is a leaf: pure functions over float64 slices, no I/O.
//
//   - Wilcoxon's signed-rank test of paired differences (Wilcoxon 1945),
//     as R's wilcox.test computes it: zero differences are dropped; with
//     fewer than 50 differences and no ties the p-value is exact (the
//     null distribution of V by counting rank subsets); otherwise the
//     normal approximation with the tie correction of the variance and
//     a continuity correction of 0.5.
//   - Holm's step-down correction of several p-values (Holm 1979), as R's
//     p.adjust(method = "holm").
//   - Win/tie/loss counts of paired values.
//   - Performance profiles (Dolan and Moré 2002): for each method, the
//     share of instances on which it is within a factor τ of the best
//     method on that instance; a failed instance never counts as within.
//   - Intervals of a mean: Student's t; for a mean of a metric bounded by its
//     definition, the bootstrap percentile interval (Efron and Tibshirani
//     1993, §13.3), which lies within the data's range and so within the
//     metric's bounds; it is reproducible (a fixed seed).
package stats
