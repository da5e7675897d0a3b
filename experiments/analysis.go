package experiments

import (
	"slices"
	"strings"

	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers/sweep"
)

// Query is what a reader chose on an experiment's page; empty fields take
// their defaults (see Analyze).
type Query struct {
	Metric   string
	X        string
	Pool     []string // swept parameters to pool (never X)
	A, B     string   // the pair compared instance by instance
	Variants []string // the experiment's variants, in its order
	// Primary is the metric shown when Metric is empty or unknown: the
	// family's primary result (PrimaryMetric), never the alphabetically
	// first (issue 42 item 6). Empty: the first ranked result.
	Primary string
	// Names are the stored workloads' names by ID (Grouping.Names).
	Names map[string]string
}

// Analysis is everything an experiment's page shows of its results for
// one metric, built from its runs alone: no store, no HTTP.
type Analysis struct {
	Query    Query // as resolved: defaults filled in, unknown names dropped
	Dims     []Dim // the swept parameters and their values
	Metrics  []string
	Grouping Grouping
	Plot     Chart // the metric against X
	Box      Chart
	Parallel report.Parallel
	// ParallelNote says why no parallel coordinates are drawn, when too
	// many cells are.
	ParallelNote string
	Pivot        *Pivot // nil when the metric has no rows
	PivotErr     string
	// Paired is A against B; nil without two distinct variants.
	Paired *Paired
	// Pairwise compares every pair with Holm's correction, and Profile
	// is the performance profile: for more than two variants.
	Pairwise        []PairwiseRow
	Profile         report.Plot
	ProfileCaption  string
	ProfileDrawn    bool
	Info            MetricInfo
	BoundedByDesign bool // the metric declares bounds: its intervals are bootstrap
	// Ended counts the runs that ended (done or not) and NoResult those
	// of them that ended done without the result the metric needs
	// (Outcome Failed although done): the page's header counts them
	// failed for the metric, with Failed (not done).
	Ended, Failed, NoResult int
}

// Analyze builds the page of an experiment's runs for q. Defaults: the
// metric q.Primary, else the first ranked result (PrimaryMetric); X the swept parameter with the most values
// (DefaultX); nothing pooled; A and B the first two variants. infos are
// the metrics' declarations (direction, bounds; a metric without one is
// unranked and unbounded); refs the definition's reference values.
func Analyze(runs []RunResult, infos map[string]MetricInfo, refs []sweep.Reference, q Query) Analysis {
	an := Analysis{Dims: Dims(runs)}
	names := make([]string, len(an.Dims))
	for i, d := range an.Dims {
		names[i] = d.Name
	}
	if !slices.Contains(names, q.X) {
		q.X = DefaultX(an.Dims)
	}
	var pool []string
	for _, k := range q.Pool {
		if k != q.X && slices.Contains(names, k) && !slices.Contains(pool, k) {
			pool = append(pool, k)
		}
	}
	q.Pool = pool
	an.Grouping = NewGrouping(an.Dims, q.X, q.Pool)
	an.Grouping.Names = q.Names
	bounded := BoundedSet(infos)
	rows := AggregateWith(runs, Options{Keep: an.Grouping.Keep(), Bounded: bounded, Infos: infos})
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Metric] {
			seen[r.Metric] = true
			an.Metrics = append(an.Metrics, r.Metric)
		}
	}
	slices.Sort(an.Metrics)
	if !seen[q.Metric] {
		q.Metric = q.Primary
		if !seen[q.Primary] {
			q.Metric = PrimaryMetric(nil, infos, an.Metrics)
		}
	}
	if q.A == "" && q.B == "" && len(q.Variants) > 1 {
		q.A, q.B = q.Variants[0], q.Variants[1]
	}
	an.Query = q
	if q.Metric == "" {
		return an
	}
	info, ok := infos[q.Metric]
	if !ok {
		info = MetricInfo{Name: q.Metric}
	}
	an.Info, an.BoundedByDesign = info, info.Bounded
	for i := range runs {
		switch _, o := runs[i].Outcome(q.Metric, info); {
		case o == Failed && runs[i].Status == runtypes.StatusDone:
			an.Ended++
			an.NoResult++
		case o == Failed:
			an.Ended++
			an.Failed++
		case o != Pending:
			an.Ended++
		}
	}
	if q.X != "" {
		an.Plot = MetricPlot(rows, an.Grouping, q.Metric, refs)
		an.Box = BoxPlot(runs, an.Grouping, q.Metric, info)
	}
	cellRows := rows
	if len(q.Pool) > 0 || q.X == "" {
		cellRows = AggregateWith(runs, Options{Bounded: bounded, Infos: infos})
	}
	if par, ok := Parallel(cellRows, q.Metric, names); ok {
		an.Parallel = par
	} else if par.Title != "" {
		an.ParallelNote = par.Title
	}
	if p, err := PagePivot(rows, an.Grouping, q.Metric); err == nil {
		an.Pivot = p
	} else {
		an.PivotErr = err.Error()
	}
	if q.A != "" && q.B != "" && q.A != q.B {
		p := Pair(runs, q.Metric, q.A, q.B, info)
		an.Paired = &p
	}
	if len(q.Variants) > 2 {
		an.Pairwise = Pairwise(runs, q.Metric, q.Variants, info)
		an.Profile, an.ProfileCaption, an.ProfileDrawn = Profile(runs, q.Metric, q.Variants, info)
	}
	return an
}

// PivotQuery is the pivot download's grouping as the page's links give
// it: rows X then the split parameters, the pooled ones named.
func (an Analysis) PivotQuery() (rows, pool string) {
	return strings.Join(an.Grouping.Keep(), ","), strings.Join(an.Query.Pool, ",")
}

// PivotOf is the pivot of metric laid out by rowBy and colBy (swept names
// and VariantKey), pooled over every swept parameter placed in neither,
// which its caption names; a bounded metric's intervals are bootstrap.
func PivotOf(runs []RunResult, infos map[string]MetricInfo, metric string, rowBy, colBy []string) (*Pivot, error) {
	var keep []string
	for _, k := range append(slices.Clone(rowBy), colBy...) {
		if k != VariantKey {
			keep = append(keep, k)
		}
	}
	rows := AggregateWith(runs, Options{Keep: append([]string{}, keep...), Bounded: BoundedSet(infos), Infos: infos})
	p, err := NewPivot(rows, metric, rowBy, colBy)
	if err != nil {
		return nil, err
	}
	for _, d := range Dims(runs) {
		if !slices.Contains(keep, d.Name) {
			p.Pooled = append(p.Pooled, PoolNote(d.Name, len(d.Values)))
		}
	}
	return p, nil
}
