// Package compare puts runs side by side on equal terms: what differs
// between them, what each one had to work with, and which result is best
// where a best can be named. It is pure: it takes runs (Run, filled by the
// caller from wherever runs are kept) and their solvers.Reports, and
// returns a Result that a page draws. No HTTP, no SQL, no templates.
//
// Decisions:
//
//   - What differs. The fields of a run are its family, workload, variant,
//     every parameter (resolved: defaults included), its seed, and its
//     resources (report.ResourceMetrics, read from the report's info
//     metrics: a result of such a name, as critical's processors_used,
//     the processors a schedule used, is an outcome, not a resource).
//     Fields splits them into those whose values differ across the runs
//     (first) and those equal in all (a page folds them away). A value a
//     run does not have (a parameter of another family, a resource its
//     family does not report) is "" and differs from any other.
//   - Labels. A run is named by its values of the differing fields, in
//     field order, joined by ", ": the variant by its value alone ("easy",
//     "heft": a variant name reads as itself), any other field as
//     name=value ("policy=easy", "processors=40"). The id is never a
//     label: the page shows it beside. Runs that differ in nothing are
//     "run 1", "run 2" (or their user-given name); two runs that would get
//     one label get " #k" after it, k their place in the compare.
//   - Equal terms. Results are ranked only among runs of one family, on
//     one workload, with equal values of every resource both report (a
//     resource one run reports and the other does not is no conflict: its
//     family does not state it). Otherwise nothing is ranked and a note
//     names what differs, with the values: "processors differ (4, 40)".
//     Only runs that reported metrics are looked at (a failed run's
//     workload does not stop the others being ranked).
//   - References. A run whose variant is a reference (solvers.Variant
//     Reference: a bound or an optimum) is shown, drawn as a reference,
//     and never ranked or best. A metric named as a bound or optimum
//     (IsBoundMetric: lower_bound, upper_bound, optimal_*) is a reference
//     whatever its Kind: never ranked.
//   - Which metrics are ranked: results (report.KindResult) with a
//     direction, among the runs the metric is meaningful for
//     (report.Metric.Variants; the others are NA) and comparable with
//     each other (Apart: a metric of one name defined for other variants,
//     the largest comparable group is ranked). Best is every run with the
//     best value, unless all ranked values are equal or fewer than two.
//   - No result is a failure (issue 38 item 3): a run with a report but
//     no value of a ranked result its variant is asked for (by the
//     declaration of the runs that report it: report.NoResult) is shown
//     as "no result" with the reason its report gives
//     (Report.StopReason), never as a blank (Row.NoResult).
//   - Charts. With runs of one family every result and every cost gets a
//     bar chart (Bars, Costs) where at least two runs have a value to
//     draw; costs and unranked results are drawn with no best. NA and Apart runs are left out of a chart; reference runs
//     are drawn marked as references.
package compare
