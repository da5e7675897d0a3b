package report

import (
	"math"
	"strings"
)

// A run without a result (issue 38): one rule, used wherever results are
// counted (an experiment's header, results API, pivot, paired view,
// pairwise table and performance profile, the compare page and the run
// lists).
//
// A run that ended other than done failed for every metric. A run that
// ended done failed for a metric its objective needs when it carries no
// finite value of it: the metric is a ranked result (KindResult with a
// direction), meaningful for the run's variant (Metric.Variants), and the
// report leaves it out or gives NaN or ±Inf. This is how every family
// says it has no result: critical-works that stopped (the paper's «либо
// не осталось вариантов распределения … алгоритм завершает свою работу»)
// leaves out makespan and the other schedule metrics; a run that cannot
// produce one at all (DCOP's dpop-wd not reaching its width limit, a
// decision process that rejected every job) ends failed with its error.
// Such a run is counted failed, never dropped, and never a sample of the
// metric: a performance profile counts it as never within τ (Dolan and
// Moré 2002, who count a solver's failure on a problem as r = ∞).

// Needed reports whether metric m is a result a run of variant must give:
// a ranked result (KindResult, Higher or Lower) meaningful for it.
func Needed(m Metric, variant string) bool {
	return m.Kind == KindResult && (m.Better == Higher || m.Better == Lower) && m.MeaningfulFor(variant)
}

// NoResult reports whether a run of variant that ended done failed for
// metric m: m is Needed and the run has no finite value of it (ok false:
// not reported).
func NoResult(m Metric, variant string, value float64, ok bool) bool {
	return Needed(m, variant) && (!ok || math.IsNaN(value) || math.IsInf(value, 0))
}

// Missing lists the metrics of decls that a done run of variant whose
// report is r failed to give (NoResult), in decls' order.
func (r *Report) Missing(decls []Metric, variant string) []string {
	have := map[string]float64{}
	if r != nil {
		for _, m := range r.Metrics {
			have[m.Name] = m.Value
		}
	}
	var out []string
	for _, d := range decls {
		v, ok := have[d.Name]
		if NoResult(d, variant, v, ok) {
			out = append(out, d.Name)
		}
	}
	return out
}

// StopPrefix begins the note in which a family says why its run ended
// without a result ("STOPPED: at work 3 of 9 every variant hit a failure
// case …"). StopReason returns it.
const StopPrefix = "STOPPED"

// StopReason is the note in which the report says why it has no result
// (the first note beginning StopPrefix), or "".
func (r *Report) StopReason() string {
	if r == nil {
		return ""
	}
	for _, n := range r.Notes {
		if strings.HasPrefix(strings.TrimSpace(n), StopPrefix) {
			return strings.TrimSpace(n)
		}
	}
	return ""
}

// NoResultReason is the reason a done run failed for the metrics missing
// (Missing): "no makespan: STOPPED: …", the report's StopReason when it
// has one, else "no makespan, cost reported".
func NoResultReason(missing []string, stop string) string {
	if len(missing) == 0 {
		return ""
	}
	what := "no " + strings.Join(missing, ", ")
	if stop != "" {
		return what + ": " + stop
	}
	return what + " reported"
}

// Primary is the primary result of decls: the first ranked result
// (KindResult with a direction, not a bound), or "".
func Primary(decls []Metric) string {
	for _, m := range decls {
		if m.Kind == KindResult && (m.Better == Higher || m.Better == Lower) {
			return m.Name
		}
	}
	return ""
}
