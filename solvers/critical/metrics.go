package critical

import "schedlab/report"

// declaredMetrics are the metrics a critical run's report carries that
// pages must know before any run reports them (Strategy.Metrics):
// the schedule's, which a critical-works run that stopped leaves out
// (runMetrics), makespan first, the family's primary result. Pages take
// their direction from here, so an experiment whose first runs stopped
// still ranks makespan and counts those runs failed for it (issue 38
// items 3 and 4). TestDeclaredMetricsAreTheReports holds them equal to
// a complete run's.
func declaredMetrics() []report.Metric {
	return []report.Metric{
		{Name: "makespan", Unit: "time units", Better: report.Lower},
		{Name: "makespan_over_bound", Better: report.Lower},
		{Name: "processor_load_mean", Better: report.Higher},
		{Name: "processor_load_deadline", Better: report.Higher},
		{Name: "cost", Unit: "price × time", Better: report.Lower},
		{Name: "meets_deadline", Better: report.Higher},
	}
}
