package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"schedlab/report"
	"schedlab/stats"
)

// MetricInfo is what the statistics need of a metric beyond its values:
// which direction is better (report.Higher, report.Lower, or "" when
// the metric is not ranked) and whether its definition bounds it (its
// intervals then stay within the bounds: stats.BootstrapMean).
type MetricInfo struct {
	Name    string
	Better  report.Direction
	Bounded bool
	// Decl is the metric's declaration (kind, direction, variants), and
	// Declared says there is one: it decides which runs the metric is
	// needed of (Outcome). A metric without one is needed of every run.
	Decl     report.Metric
	Declared bool
}

// Infos are the metrics' infos from metric declarations: the first
// declaration of each name wins, so a family's own declarations
// (Strategy.Metrics) given first are never overridden by a report's.
func Infos(ms ...[]report.Metric) map[string]MetricInfo {
	out := map[string]MetricInfo{}
	for _, list := range ms {
		for _, m := range list {
			if _, ok := out[m.Name]; !ok {
				out[m.Name] = MetricInfo{Name: m.Name, Better: m.Better, Bounded: m.Bounded(), Decl: m, Declared: true}
			}
		}
	}
	return out
}

// BoundedSet is the names of the bounded metrics of infos, as
// Options.Bounded takes them.
func BoundedSet(infos map[string]MetricInfo) map[string]bool {
	out := map[string]bool{}
	for n, m := range infos {
		if m.Bounded {
			out[n] = true
		}
	}
	return out
}

// instance identifies the runs that may be paired: one cell, one
// replicate (the same workload and seeds), any variant.
type instance struct {
	cell string
	rep  int
}

func cellKey(r *RunResult) string {
	if r.CellKey != "" {
		return r.CellKey
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(r.Params)) {
		b.WriteString(k + "\x01" + r.Params[k] + "\x00")
	}
	return b.String()
}

// outcome of a run of an instance for one metric: not run (absent),
// failed (Outcome: ended other than done, or done without the result the
// metric needs), or its
// value.
type outcome struct {
	ran    bool
	failed bool
	value  float64
	params map[string]string
}

// instances collects, per instance, each variant's outcome for metric;
// queued and running runs are left out (not ended yet). The instances are
// in the order their first run comes in runs.
func instances(runs []RunResult, metric string, info MetricInfo, variants []string) ([]instance, map[instance][]outcome) {
	at := map[string]int{}
	for i, v := range variants {
		at[v] = i
	}
	var order []instance
	out := map[instance][]outcome{}
	for i := range runs {
		r := &runs[i]
		s, ok := at[r.Variant]
		if !ok {
			continue
		}
		v, what := r.Outcome(metric, info)
		if what == Pending || what == NotNeeded {
			continue // not ended, or the metric is not asked of it
		}
		k := instance{cellKey(r), r.Replicate}
		os := out[k]
		if os == nil {
			os = make([]outcome, len(variants))
			out[k] = os
			order = append(order, k)
		}
		os[s] = outcome{ran: true, failed: what == Failed, value: v, params: r.Params}
	}
	return order, out
}

// Paired is A against B on their common instances (cell and replicate),
// for one metric: every instance where either ended is counted, by what
// happened to each side; the statistics are over the instances where
// both are done, each named by its method.
type Paired struct {
	A, B, Metric string
	Better       report.Direction // report.Higher, report.Lower or "" (not ranked: "higher" and "lower" only)
	// Instances where either ran; of them BothDone were compared and
	// the others failed on one side or both (or ran on one side only).
	Instances, BothDone                        int
	AFailed, BFailed, BothFailed, OneSidedOnly int
	// Diff is the mean of a − b over the BothDone instances with its
	// 95 % interval (Student t, or the bootstrap percentile interval
	// for a bounded metric).
	Diff     stats.Interval
	Wilcoxon stats.Wilcoxon
	// Win, Tie, Loss count A better, equal, worse (by Better; higher
	// when the metric is not ranked) over the BothDone instances.
	Win, Tie, Loss int
	// Failures lists the instances where one side failed (at most
	// MaxListed): "gamma=1.3 replicate 0: b failed".
	Failures []string
	Plot     report.Plot // b against a, a point per BothDone instance, the diagonal dashed
}

// MaxListed is the most failed instances a paired view lists by name.
const MaxListed = 20

// Pair compares a and b on metric over runs (every cell, not pooled).
func Pair(runs []RunResult, metric, a, b string, info MetricInfo) Paired {
	p := Paired{A: a, B: b, Metric: metric, Better: info.Better}
	order, outs := instances(runs, metric, info, []string{a, b})
	var va, vb []float64
	for _, k := range order {
		o := outs[k]
		p.Instances++
		switch {
		case !o[0].ran || !o[1].ran:
			p.OneSidedOnly++
			continue
		case o[0].failed && o[1].failed:
			p.BothFailed++
			p.listFailure(o, "both failed")
			continue
		case o[0].failed:
			p.AFailed++
			p.listFailure(o, a+" failed, "+b+" done")
			continue
		case o[1].failed:
			p.BFailed++
			p.listFailure(o, b+" failed, "+a+" done")
			continue
		}
		p.BothDone++
		va, vb = append(va, o[0].value), append(vb, o[1].value)
	}
	d := make([]float64, len(va))
	for i := range va {
		d[i] = va[i] - vb[i]
	}
	if info.Bounded {
		p.Diff = stats.BootstrapMean(d)
	} else {
		p.Diff = stats.MeanT(d)
	}
	p.Wilcoxon = stats.WilcoxonSignedRank(va, vb)
	p.Win, p.Tie, p.Loss = stats.WinTieLoss(va, vb, info.Better != report.Lower, 0)
	p.Plot = pairPlot(metric, a, b, va, vb, p)
	return p
}

func (p *Paired) listFailure(o []outcome, what string) {
	if len(p.Failures) >= MaxListed {
		return
	}
	params := o[0].params
	if params == nil {
		params = o[1].params
	}
	p.Failures = append(p.Failures, CellText(params)+": "+what)
}

// CellText writes a cell's values "gamma=1.3, instance=4", names sorted.
func CellText(params map[string]string) string {
	if len(params) == 0 {
		return "the one cell"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		parts = append(parts, k+"="+params[k])
	}
	return strings.Join(parts, ", ")
}

func pairPlot(metric, a, b string, va, vb []float64, p Paired) report.Plot {
	title := fmt.Sprintf("%s: %s against %s (%d pairs both done", metric, b, a, p.BothDone)
	if f := p.AFailed + p.BFailed + p.BothFailed; f > 0 {
		title += fmt.Sprintf("; %d with a failed side, not drawn", f)
	}
	plot := report.Plot{Title: title + ")", Kind: report.PlotScatter, XLabel: a, YLabel: b, Lines: []report.Line{{Name: "pairs"}}}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range va {
		plot.Lines[0].Points = append(plot.Lines[0].Points, [2]float64{va[i], vb[i]})
		lo, hi = math.Min(lo, math.Min(va[i], vb[i])), math.Max(hi, math.Max(va[i], vb[i]))
	}
	if len(va) > 0 {
		plot.Lines = append(plot.Lines, report.Line{Name: "equal", Dashed: true, Points: [][2]float64{{lo, lo}, {hi, hi}}})
		plot.XLog = SpansDecades(lo, hi)
		plot.YLog = plot.XLog
	}
	return plot
}

// Method names the paired statistics for the page: the interval of the
// mean difference, the test and the counting.
func (p Paired) Method() string {
	test := "Wilcoxon signed-rank, two-sided, "
	if p.Wilcoxon.Exact {
		test += "exact"
	} else {
		test += "normal approximation with tie and continuity corrections"
	}
	dir := "higher"
	if p.Better != "" {
		dir = "better (" + string(p.Better) + " is better)"
	}
	return fmt.Sprintf("mean of %s − %s with its 95 %% CI (%s); %s, zero differences dropped; win/tie/loss: %s %s, equal, or not, exact equality; over the %d instances (cell and replicate) where both are done",
		p.A, p.B, p.Diff.Method, test, p.A, dir, p.BothDone)
}

// PairwiseRow is one pair of variants of Pairwise.
type PairwiseRow struct {
	Paired
	PHolm float64 // the Wilcoxon p-value adjusted by Holm's method over every pair
}

// Pairwise compares every pair of variants (in the order given) on
// metric, with the Wilcoxon p-values adjusted for the number of pairs by
// Holm's step-down method.
func Pairwise(runs []RunResult, metric string, variants []string, info MetricInfo) []PairwiseRow {
	var out []PairwiseRow
	var ps []float64
	for i := range variants {
		for j := i + 1; j < len(variants); j++ {
			p := Pair(runs, metric, variants[i], variants[j], info)
			p.Plot = report.Plot{} // the table shows no scatter
			out = append(out, PairwiseRow{Paired: p})
			ps = append(ps, p.Wilcoxon.P)
		}
	}
	for i, q := range stats.Holm(ps) {
		out[i].PHolm = q
	}
	return out
}

// PairwiseMethod names the statistics of Pairwise's table.
const PairwiseMethod = "each pair on the instances (cell and replicate) where both are done: mean difference with its 95 % CI (Student t; bootstrap percentile for a bounded metric), Wilcoxon signed-rank p (two-sided; exact under 50 pairs without ties, else the normal approximation), and that p adjusted over all pairs by Holm's step-down method"

// Profile is the performance profile of the variants on metric (Dolan
// and Moré 2002): for each variant the share of instances (cell and
// replicate where any variant ended) on which it is within τ times the
// best variant there, as a step line over τ from 1. A failed run is never
// within. ok is false, with the reason, when the metric is not ranked or
// has values ≤ 0 (ratios then mean nothing).
func Profile(runs []RunResult, metric string, variants []string, info MetricInfo) (plot report.Plot, caption string, ok bool) {
	if info.Better == "" {
		return plot, "No performance profile: " + metric + " is not ranked (neither higher nor lower is better).", false
	}
	order, outs := instances(runs, metric, info, variants)
	values := make([][]float64, len(variants))
	for s := range variants {
		values[s] = make([]float64, len(order))
	}
	worst := 1.0
	for p, k := range order {
		best := math.NaN()
		for s, o := range outs[k] {
			v := math.NaN()
			if o.ran && !o.failed {
				v = o.value
				if v <= 0 {
					return plot, "No performance profile: " + metric + " takes values ≤ 0, where ratios to the best mean nothing.", false
				}
				if math.IsNaN(best) || info.Better == report.Higher && v > best || info.Better == report.Lower && v < best {
					best = v
				}
			}
			values[s][p] = v
		}
		for s := range variants {
			if v := values[s][p]; !math.IsNaN(v) {
				r := v / best
				if info.Better == report.Higher {
					r = best / v
				}
				worst = math.Max(worst, r)
			}
		}
	}
	if len(order) == 0 {
		return plot, "", false
	}
	// τ from 1 to the worst finite ratio in 64 geometric steps: the
	// profile is exact at the grid's points, a step line between them.
	taus := []float64{1}
	if worst > 1 {
		for i := 1; i <= 64; i++ {
			taus = append(taus, math.Pow(worst, float64(i)/64))
		}
		taus[len(taus)-1] = worst
	}
	pr := stats.PerformanceProfile(values, info.Better == report.Higher, taus)
	plot = report.Plot{Title: metric + ": performance profile", Kind: report.PlotStep, XLabel: "τ (ratio to the best on the instance)",
		YLabel: "share of instances within τ", XLog: worst > 100}
	for s, v := range variants {
		l := report.Line{Name: v}
		for k, tau := range taus {
			l.Points = append(l.Points, [2]float64{tau, pr.Rho[s][k]})
		}
		plot.Lines = append(plot.Lines, l)
	}
	caption = fmt.Sprintf("Performance profile (Dolan and Moré 2002) of %s over %d instances (cell and replicate): for each variant, the share of instances on which its value is within τ × the best variant's there (%s is better); a failed run is never within τ.",
		metric, len(order), info.Better)
	return plot, caption, true
}
