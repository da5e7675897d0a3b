package experiments

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/stats"
)

// RunResult is what aggregation needs of one run: its cell, variant,
// status and metrics (a report's numeric metrics by name).
type RunResult struct {
	Params  map[string]string // Run.Cell
	Variant string
	Status  string
	Metrics map[string]float64
	// Values are the metrics as a list, distinct names, for a caller
	// that has them so (the store): aggregation reads them as it reads
	// Metrics, which then should be nil, without a map per run.
	Values []Metric
	// CellKey, when not empty, identifies Params: runs with equal
	// CellKeys have equal Params (say the cell's JSON as stored), so
	// aggregation finds the group of a run without reading its Params
	// again.
	CellKey string
	// Replicate is the run's replicate (0-based): runs of two variants
	// with the same cell and replicate share workload and seeds, so the
	// paired views compare them.
	Replicate int
}

// Metric is one metric of a run, by name.
type Metric struct {
	Name  string
	Value float64
}

// Row is one aggregate: a cell (or the cells pooled by AggregateBy), a
// variant and a metric, over the runs that finished done and report a
// finite value of the metric. Statistics that do not exist for N are nil
// (JSON null): all of them for N = 0; Std and the CI for N = 1.
type Row struct {
	Params   map[string]string `json:"params"`
	Variant  string            `json:"variant"`
	Metric   string            `json:"metric"`
	N        int               `json:"n"`
	Mean     *float64          `json:"mean"`
	Std      *float64          `json:"std"`       // sample standard deviation (n − 1)
	CI95Low  *float64          `json:"ci95_low"`  // mean − t(0.975, n−1)·std/√n
	CI95High *float64          `json:"ci95_high"` // mean + t(0.975, n−1)·std/√n
	Median   *float64          `json:"median"`    // of an even count, the mean of the two middle values
	Min      *float64          `json:"min"`
	Max      *float64          `json:"max"`
	// Failed counts the runs of the cell and variant that failed for the
	// metric (Outcome): ended other than done (failed, canceled,
	// interrupted, or any unknown status), or done without the result
	// the metric needs (NoResult of them).
	Failed int `json:"failed"`
	// NoResult counts the runs of Failed that ended done but gave no
	// finite value of a metric needed of them (report.NoResult: a
	// critical-works run that stopped has no makespan).
	NoResult int `json:"no_result"`
	// Runs counts the runs of the cell and variant that ended, done or
	// not, and of which the metric is asked: N of them gave it, Failed
	// did not.
	Runs int `json:"runs"`
	// Method names how the CI was computed: MethodT, or MethodBootstrap
	// for a metric bounded by its definition (Options.Bounded).
	Method string `json:"ci_method,omitempty"`
}

// HalfWidth is the CI's half-width, or 0 when there is none.
func (r Row) HalfWidth() float64 {
	if r.CI95High == nil || r.Mean == nil {
		return 0
	}
	return *r.CI95High - *r.Mean
}

// Aggregate gives one row per cell, variant and metric (every metric any
// run reports, so that a cell whose runs all failed still has its rows,
// with N = 0 and Failed > 0). Queued and running runs are not counted.
// Rows are ordered by params (names sorted; values numerically when both
// are numbers, as text otherwise), then variant, then metric.
func Aggregate(runs []RunResult) []Row { return aggregate(runs, Options{}) }

// AggregateBy is Aggregate with the cells pooled over every parameter not
// in keep: the runs of all pooled cells form one sample (e.g. keep
// ["gamma"] gives the objective vs γ with its CI over instances and
// replicates). Row.Params then holds only the kept names.
func AggregateBy(runs []RunResult, keep []string) []Row {
	if keep == nil {
		keep = []string{}
	}
	return aggregate(runs, Options{Keep: keep})
}

// Options of AggregateWith.
type Options struct {
	// Keep, when not nil, pools the cells over every parameter not in it
	// (AggregateBy); nil keeps every parameter (Aggregate).
	Keep []string
	// Bounded names the metrics bounded by their definition (an
	// accuracy, a utilization, a share in [0, 1]): their CI is the
	// bootstrap percentile interval of the mean (stats.BootstrapMean),
	// which stays within the values' range and so within the bounds,
	// where Student's t may pass them. Other metrics get Student's t.
	Bounded map[string]bool
	// Infos are the metrics' declarations: which runs a metric is needed
	// of (Outcome). A done run without a metric needed of it counts in
	// Failed (and NoResult); one without a metric not needed of it (an
	// info metric, or one declared for other variants) is not counted in
	// that metric's row. A metric without a declaration is needed of
	// every run. A declared ranked result that no run reports still gets
	// its rows (all failed) for the variants it is needed of.
	Infos map[string]MetricInfo
}

// AggregateWith is Aggregate (or AggregateBy, with o.Keep) with the
// interval of each metric chosen by o.Bounded.
func AggregateWith(runs []RunResult, o Options) []Row { return aggregate(runs, o) }

type group struct {
	params  map[string]string
	variant string
	failed  int
	runs    int
	done    int
	values  map[string][]float64
}

func aggregate(runs []RunResult, o Options) []Row {
	keep := o.Keep
	groups := map[string]*group{}
	type cellVariant struct{ cell, variant string }
	byCell := map[cellVariant]*group{}
	metricSet := map[string]struct{}{}
	var b strings.Builder
	var names []string
	for i := range runs {
		run := &runs[i]
		if run.Status == runtypes.StatusQueued || run.Status == runtypes.StatusRunning {
			continue
		}
		g := byCell[cellVariant{run.CellKey, run.Variant}]
		if g == nil || run.CellKey == "" {
			g = findGroup(groups, run, keep, &b, &names)
			if run.CellKey != "" {
				byCell[cellVariant{run.CellKey, run.Variant}] = g
			}
		}
		for m := range run.Metrics {
			metricSet[m] = struct{}{}
		}
		for _, m := range run.Values {
			metricSet[m.Name] = struct{}{}
		}
		g.runs++
		if run.Status != runtypes.StatusDone {
			g.failed++
			continue
		}
		g.done++
		for m, v := range run.Metrics {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				g.values[m] = append(g.values[m], v)
			}
		}
		for _, m := range run.Values {
			if !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) {
				g.values[m.Name] = append(g.values[m.Name], m.Value)
			}
		}
	}
	list := slices.SortedFunc(maps.Values(groups), func(a, b *group) int {
		return cmp.Or(compareParams(a.params, b.params), strings.Compare(a.variant, b.variant))
	})
	for name, in := range o.Infos {
		if _, ok := metricSet[name]; ok || !in.Declared {
			continue
		}
		for _, g := range list {
			if report.Needed(in.Decl, g.variant) {
				metricSet[name] = struct{}{}
				break
			}
		}
	}
	metrics := slices.Sorted(maps.Keys(metricSet))
	tq := tQuantiles{}
	out := make([]Row, 0, len(list)*len(metrics))
	for _, g := range list {
		for _, m := range metrics {
			row := summarize(g.values[m], tq, o.Bounded[m])
			row.Params, row.Variant, row.Metric, row.Failed, row.Runs = g.params, g.variant, m, g.failed, g.runs
			// The done runs without a finite value: failed for m when m
			// is needed of the variant (Outcome), else not counted.
			if without := g.done - len(g.values[m]); without > 0 {
				in, ok := o.Infos[m]
				if !ok || !in.Declared || report.Needed(in.Decl, g.variant) {
					row.Failed += without
					row.NoResult = without
				} else {
					row.Runs -= without
				}
			}
			out = append(out, row)
		}
	}
	return out
}

// findGroup returns the group of run (by variant and the params kept),
// adding it to groups if new.
func findGroup(groups map[string]*group, run *RunResult, keep []string, b *strings.Builder, namesBuf *[]string) *group {
	names := (*namesBuf)[:0]
	defer func() { *namesBuf = names }()
	if keep == nil {
		for k := range run.Params {
			names = append(names, k)
		}
	} else {
		for _, k := range keep {
			if _, ok := run.Params[k]; ok {
				names = append(names, k)
			}
		}
	}
	slices.Sort(names)
	b.Reset()
	b.WriteString(run.Variant)
	for _, k := range names {
		b.WriteByte(0)
		b.WriteString(k)
		b.WriteByte(1)
		b.WriteString(run.Params[k])
	}
	g := groups[b.String()]
	if g == nil {
		p := make(map[string]string, len(names))
		for _, k := range names {
			p[k] = run.Params[k]
		}
		g = &group{params: p, variant: run.Variant, values: map[string][]float64{}}
		groups[b.String()] = g
	}
	return g
}

// tQuantiles caches t(0.975, df) by degrees of freedom (t(0.975, 3) =
// 3.182446).
type tQuantiles map[int]float64

func (t tQuantiles) at(df int) float64 {
	q, ok := t[df]
	if !ok {
		q = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
		t[df] = q
	}
	return q
}

// summarize computes a row's statistics of xs (which it sorts); the CI
// by bootstrap when bounded, else by Student's t.
func summarize(xs []float64, tq tQuantiles, bounded bool) Row {
	n := len(xs)
	r := Row{N: n, Method: stats.MethodT}
	if bounded {
		r.Method = stats.MethodBootstrap
	}
	if n == 0 {
		return r
	}
	slices.Sort(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	median := xs[n/2]
	if n%2 == 0 {
		median = (xs[n/2-1] + xs[n/2]) / 2
	}
	r.Mean, r.Median, r.Min, r.Max = &mean, &median, ptr(xs[0]), ptr(xs[n-1])
	if n < 2 {
		return r
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	std := math.Sqrt(ss / float64(n-1))
	r.Std = &std
	if bounded {
		iv := stats.BootstrapMean(xs)
		r.CI95Low, r.CI95High = ptr(iv.Lo), ptr(iv.Hi)
		return r
	}
	hw := tq.at(n-1) * std / math.Sqrt(float64(n))
	r.CI95Low, r.CI95High = ptr(mean-hw), ptr(mean+hw)
	return r
}

func ptr(x float64) *float64 { return &x }

// compareParams orders cells by their values, name by name in sorted
// order; a cell without a name sorts first.
func compareParams(a, b map[string]string) int {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		switch {
		case !oka:
			return -1
		case !okb:
			return 1
		}
		if c := compareValues(va, vb); c != 0 {
			return c
		}
	}
	return 0
}

// compareValues orders two values numerically when both are numbers
// (numbers before text), as text otherwise or to break a numeric tie
// ("1.0" and "1").
func compareValues(a, b string) int {
	if a == b {
		return 0
	}
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	switch {
	case ea == nil && eb == nil:
		if fa < fb {
			return -1
		}
		if fa > fb {
			return 1
		}
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return strings.Compare(a, b)
}
