package experiments

import (
	"math"
	"slices"

	"schedlab/report"
	"schedlab/runtypes"
)

// Outcome is what one run gave for one metric, by the one rule of
// report.NoResult (issue 38): every count of an experiment (its header,
// results API, pivot, plots, paired view, pairwise table, performance
// profile, run list) reads it here.
type Outcome uint8

const (
	// Pending: queued or running, not counted yet.
	Pending Outcome = iota
	// Gave: done, with a finite value of the metric.
	Gave
	// Failed: ended other than done (failed, canceled, interrupted), or
	// done without a finite value of a metric needed of it (a ranked
	// result meaningful for its variant: report.NoResult; a metric
	// without a declaration is needed of every run). Counted failed for
	// the metric, never dropped.
	Failed
	// NotNeeded: done without the metric, which is not asked of its
	// variant (an info or cost metric, or one declared for other
	// variants): not counted for it.
	NotNeeded
)

// Outcome is what the run gave for metric, whose declaration is info.
func (r *RunResult) Outcome(metric string, info MetricInfo) (float64, Outcome) {
	switch r.Status {
	case runtypes.StatusQueued, runtypes.StatusRunning:
		return 0, Pending
	case runtypes.StatusDone:
	default:
		return 0, Failed
	}
	v, ok := r.lookup(metric)
	if ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v, Gave
	}
	if !info.Declared || report.NoResult(info.Decl, r.Variant, v, ok) {
		return 0, Failed
	}
	return 0, NotNeeded
}

// lookup is the run's metric as reported, finite or not.
func (r *RunResult) lookup(metric string) (float64, bool) {
	if r.Metrics != nil {
		v, ok := r.Metrics[metric]
		return v, ok
	}
	for _, m := range r.Values {
		if m.Name == metric {
			return m.Value, true
		}
	}
	return 0, false
}

// PrimaryMetric is the metric an experiment's page opens on: the
// family's primary result (its first declared ranked result,
// report.Primary) when runs report it or it is needed of them, else the
// first ranked result among metrics (in order), else metrics[0].
func PrimaryMetric(family []report.Metric, infos map[string]MetricInfo, metrics []string) string {
	if p := report.Primary(family); p != "" && slices.Contains(metrics, p) {
		return p
	}
	for _, m := range metrics {
		if in, ok := infos[m]; ok && in.Declared && in.Decl.Kind == report.KindResult && in.Better != "" {
			return m
		}
	}
	if len(metrics) > 0 {
		return metrics[0]
	}
	return ""
}
