package experiments

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"schedlab/report"
	"schedlab/solvers/sweep"
	"schedlab/stats"
)

// Dim is a swept parameter (a key of the runs' cells) and its distinct
// values, ordered as Aggregate orders values.
type Dim struct {
	Name   string
	Values []string
}

// Dims lists the parameters of the runs' cells, by name, with their
// distinct values.
func Dims(runs []RunResult) []Dim {
	values := map[string]map[string]bool{}
	seen := map[string]bool{} // cells already read, by CellKey
	for i := range runs {
		r := &runs[i]
		if r.CellKey != "" {
			if seen[r.CellKey] {
				continue
			}
			seen[r.CellKey] = true
		}
		for k, v := range r.Params {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][v] = true
		}
	}
	dims := make([]Dim, 0, len(values))
	for k, vs := range values {
		d := Dim{Name: k}
		for v := range vs {
			d.Values = append(d.Values, v)
		}
		slices.SortFunc(d.Values, compareValues)
		dims = append(dims, d)
	}
	slices.SortFunc(dims, func(a, b Dim) int { return strings.Compare(a.Name, b.Name) })
	return dims
}

// DefaultX is the swept parameter with the most values (the first by name
// among equals): the x axis a reader expects when none is chosen; "" when
// nothing is swept.
func DefaultX(dims []Dim) string {
	best := -1
	for i, d := range dims {
		if best < 0 || len(d.Values) > len(dims[best].Values) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return dims[best].Name
}

// Grouping is how an experiment's charts and pivot group its runs: along
// X, split by every other swept parameter (Split), except those the user
// pooled (Pool), whose values then form one sample with the replicates.
type Grouping struct {
	X     string
	Split []string // kept parameters other than X, by name
	Pool  []Dim    // pooled parameters with their values
	// Names are the stored workloads' names by ID: a series of a stored
	// workload reads "workload=NAME", not its ID (issue 42 item 6).
	Names map[string]string
}

// NewGrouping groups dims along x (which must be one of them, or "")
// pooling the names in pool that are dims; x is never pooled.
func NewGrouping(dims []Dim, x string, pool []string) Grouping {
	g := Grouping{X: x}
	for _, d := range dims {
		switch {
		case d.Name == x:
		case slices.Contains(pool, d.Name):
			g.Pool = append(g.Pool, d)
		default:
			g.Split = append(g.Split, d.Name)
		}
	}
	return g
}

// Keep is the parameters the rows keep: X then Split.
func (g Grouping) Keep() []string {
	keep := []string{}
	if g.X != "" {
		keep = append(keep, g.X)
	}
	return append(keep, g.Split...)
}

// PoolNotes is what each sample pools: "shift: 2 values" per pooled
// parameter.
func (g Grouping) PoolNotes() []string {
	var out []string
	for _, d := range g.Pool {
		out = append(out, PoolNote(d.Name, len(d.Values)))
	}
	return out
}

// Pooled is the sentence written beside a chart: "pooled over shift: 2
// values; n = 8 runs per point" (or "not pooled: one point per cell; …").
func (g Grouping) Pooled(rows []Row, metric, unit string) string {
	lo, hi := -1, -1
	for i := range rows {
		if rows[i].Metric != metric {
			continue
		}
		n := rows[i].Runs
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	s := "no parameter pooled (the replicates of each cell are its sample)"
	if len(g.Pool) > 0 {
		s = "pooled over " + strings.Join(g.PoolNotes(), ", ")
	}
	switch {
	case lo < 0:
	case lo == hi:
		s += fmt.Sprintf("; n = %d runs per %s", lo, unit)
	default:
		s += fmt.Sprintf("; n = %d–%d runs per %s", lo, hi, unit)
	}
	return s
}

// seriesName names a line of variant by its split values: "online ·
// shift=on".
func (g Grouping) seriesName(variant string, params map[string]string) string {
	s := variant
	for _, k := range g.Split {
		v := params[k]
		if n := g.Names[v]; k == WorkloadKey && n != "" {
			v = n
		}
		s += " · " + k + "=" + v
	}
	return s
}

// MaxLines is the most lines (variants × split values) the metric plot
// and the box plot draw; past it they say so, and to pool a parameter.
const MaxLines = 24

// Chart is a chart of an experiment with the words written beside it.
type Chart struct {
	Plot    report.Plot
	Drawn   bool     // false: the reason is in Caption
	Caption string   // what is pooled, n per point, the interval's method
	Failed  []string // one line per point where runs failed: "online at gamma=1.3: 6 of 8 done"
}

// MetricPlot is the metric against g.X: a line per variant and split
// value, its points the means of the done runs with their 95 % interval
// as a band; a point where runs failed is marked (report.Line.Marks) and
// listed in Failed. rows are AggregateWith(runs, Options{Keep: g.Keep()}).
// The x values must be numbers; references of the metric are dashed lines.
func MetricPlot(rows []Row, g Grouping, metric string, refs []sweep.Reference) Chart {
	c := Chart{Plot: report.Plot{Title: metric + " vs " + g.X, XLabel: g.X, YLabel: metric}}
	lines := map[string]int{}
	methods := map[string]bool{}
	numeric := true
	for i := range rows {
		r := &rows[i]
		if r.Metric != metric {
			continue
		}
		name := g.seriesName(r.Variant, r.Params)
		if r.Failed > 0 {
			c.Failed = append(c.Failed, fmt.Sprintf("%s at %s=%s: %d of %d done", name, g.X, r.Params[g.X], r.Runs-r.Failed, r.Runs))
		}
		xv, err := strconv.ParseFloat(r.Params[g.X], 64)
		if err != nil {
			numeric = false
			continue
		}
		if r.Mean == nil {
			continue
		}
		k, ok := lines[name]
		if !ok {
			k = len(c.Plot.Lines)
			lines[name] = k
			c.Plot.Lines = append(c.Plot.Lines, report.Line{Name: name, Band: [][2]float64{}, Marks: []string{}})
		}
		band := [2]float64{*r.Mean, *r.Mean} // one run: no interval
		if r.CI95Low != nil && r.CI95High != nil {
			band = [2]float64{*r.CI95Low, *r.CI95High}
			methods[r.Method] = true
		}
		mark := ""
		if r.Failed > 0 {
			mark = fmt.Sprintf("%d of %d runs failed", r.Failed, r.Runs)
		}
		l := &c.Plot.Lines[k]
		l.Points = append(l.Points, [2]float64{xv, *r.Mean})
		l.Band = append(l.Band, band)
		l.Marks = append(l.Marks, mark)
	}
	for i := range c.Plot.Lines {
		if !slices.ContainsFunc(c.Plot.Lines[i].Marks, func(m string) bool { return m != "" }) {
			c.Plot.Lines[i].Marks = nil
		}
	}
	nLines := len(c.Plot.Lines)
	for _, ref := range refs {
		if ref.Metric != metric {
			continue
		}
		xv, err := strconv.ParseFloat(ref.Params[g.X], 64)
		if err != nil {
			continue
		}
		name := ref.Name + " (" + ref.Variant + ")"
		for _, k := range g.Split {
			if v, ok := ref.Params[k]; ok {
				name += " · " + k + "=" + v
			}
		}
		i, ok := lines[name]
		if !ok {
			i = len(c.Plot.Lines)
			lines[name] = i
			c.Plot.Lines = append(c.Plot.Lines, report.Line{Name: name, Dashed: true})
		}
		c.Plot.Lines[i].Points = append(c.Plot.Lines[i].Points, [2]float64{xv, ref.Value})
	}
	c.Caption = "Mean of the done runs" + intervalWords(methods) + "; " + g.Pooled(rows, metric, "point")
	if len(c.Failed) > 0 {
		c.Caption += "; ▲ marks a point where runs failed (its mean is of the done runs)"
	}
	switch {
	case !numeric:
		c.Caption = "Not drawn: " + g.X + " takes values that are not numbers; see the table. " + c.Caption
		return c
	case nLines == 0:
		return c
	case nLines > MaxLines:
		c.Caption = fmt.Sprintf("Not drawn: %d lines (a line per variant and value of %s) are more than %d; pool a parameter to draw it. ",
			nLines, strings.Join(g.Split, ", "), MaxLines) + c.Caption
		return c
	}
	c.Drawn = true
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range c.Plot.Lines {
		sortByX(&c.Plot.Lines[i])
		l := c.Plot.Lines[i]
		for k, pt := range l.Points {
			xlo, xhi = math.Min(xlo, pt[0]), math.Max(xhi, pt[0])
			ylo, yhi = math.Min(ylo, pt[1]), math.Max(yhi, pt[1])
			if l.Band != nil {
				ylo, yhi = math.Min(ylo, l.Band[k][0]), math.Max(yhi, l.Band[k][1])
			}
		}
	}
	// Log axes when the values span decades (nodes 10 … 3000, sizes in
	// MB): a linear axis would crush all but the largest.
	c.Plot.XLog, c.Plot.YLog = SpansDecades(xlo, xhi), SpansDecades(ylo, yhi)
	return c
}

// intervalWords names the intervals used: " with its 95 % CI (Student t)".
func intervalWords(methods map[string]bool) string {
	var ms []string
	for _, m := range []string{stats.MethodT, stats.MethodBootstrap} {
		if methods[m] {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return " (no interval: one run per point)"
	}
	s := " with its 95 % CI (" + strings.Join(ms, "; ") + ")"
	if methods[stats.MethodBootstrap] {
		s += ", the bootstrap for a metric bounded by its definition"
	}
	return s
}

// SpansDecades says whether positive values from lo to hi span more than
// two decades, where a log axis reads better than a linear one.
func SpansDecades(lo, hi float64) bool { return lo > 0 && hi/lo > 100 }

// sortByX orders a line's points (and its band and marks with them) by x.
func sortByX(l *report.Line) {
	idx := make([]int, len(l.Points))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.Points[idx[a]][0] < l.Points[idx[b]][0] })
	points := make([][2]float64, len(idx))
	var band [][2]float64
	if l.Band != nil {
		band = make([][2]float64, len(idx))
	}
	var marks []string
	if l.Marks != nil {
		marks = make([]string, len(idx))
	}
	for i, k := range idx {
		points[i] = l.Points[k]
		if band != nil {
			band[i] = l.Band[k]
		}
		if marks != nil {
			marks[i] = l.Marks[k]
		}
	}
	l.Points, l.Band, l.Marks = points, band, marks
}

// BoxPlot is the box plot of metric over the done runs at each value of
// g.X, one box per variant and split value: the spread the interval
// summarises. Failed runs are not samples: each line's name counts them
// ("online (2 of 40 runs failed)") and Failed lists the points. g.X must
// be numeric.
func BoxPlot(runs []RunResult, g Grouping, metric string, info MetricInfo) Chart {
	c := Chart{Plot: report.Plot{Title: metric + " by " + g.X + " (box plot)", Kind: report.PlotBox, XLabel: g.X, YLabel: metric}}
	type acc struct {
		line          report.Line
		total, failed int
	}
	lines := map[string]*acc{}
	type point struct{ line, x string }
	failedAt := map[point][2]int{} // failed, total
	var order []string
	lo, hi := math.Inf(1), math.Inf(-1)
	numeric := true
	for i := range runs {
		r := &runs[i]
		v, what := r.Outcome(metric, info)
		if what == Pending || what == NotNeeded {
			continue
		}
		name := g.seriesName(r.Variant, r.Params)
		a := lines[name]
		if a == nil {
			a = &acc{line: report.Line{Name: name}}
			lines[name] = a
			order = append(order, name)
		}
		a.total++
		pt := point{name, r.Params[g.X]}
		ft := failedAt[pt]
		ft[1]++
		if what == Failed {
			a.failed++
			ft[0]++
			failedAt[pt] = ft
			continue
		}
		failedAt[pt] = ft
		xv, err := strconv.ParseFloat(r.Params[g.X], 64)
		if err != nil {
			numeric = false
			continue
		}
		a.line.Points = append(a.line.Points, [2]float64{xv, v})
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	var fails []point
	for pt, ft := range failedAt {
		if ft[0] > 0 {
			fails = append(fails, pt)
		}
	}
	slices.SortFunc(fails, func(a, b point) int {
		if c := strings.Compare(a.line, b.line); c != 0 {
			return c
		}
		return compareValues(a.x, b.x)
	})
	for _, pt := range fails {
		ft := failedAt[pt]
		c.Failed = append(c.Failed, fmt.Sprintf("%s at %s=%s: %d of %d done", pt.line, g.X, pt.x, ft[1]-ft[0], ft[1]))
	}
	slices.Sort(order)
	for _, name := range order {
		a := lines[name]
		if a.failed > 0 {
			a.line.Name = fmt.Sprintf("%s (%d of %d runs failed)", name, a.failed, a.total)
		}
		if len(a.line.Points) > 0 {
			c.Plot.Lines = append(c.Plot.Lines, a.line)
		}
	}
	c.Plot.YLog = SpansDecades(lo, hi)
	c.Caption = "Boxes of the done runs' values (quartiles, whiskers to the extremes); " + g.poolSentence()
	if len(c.Failed) > 0 {
		c.Caption += "; failed runs are not in the boxes: the legend counts them"
	}
	switch {
	case !numeric:
		c.Caption = "Not drawn: " + g.X + " takes values that are not numbers. " + c.Caption
	case len(c.Plot.Lines) > MaxLines:
		c.Caption = fmt.Sprintf("Not drawn: %d boxes per value of %s are more than %d; pool a parameter to draw it. ", len(c.Plot.Lines), g.X, MaxLines) + c.Caption
	default:
		c.Drawn = len(c.Plot.Lines) > 0
	}
	return c
}

func (g Grouping) poolSentence() string {
	if len(g.Pool) == 0 {
		return "no parameter pooled"
	}
	return "pooled over " + strings.Join(g.PoolNotes(), ", ")
}

// PagePivot is the pivot the experiment page shows and its downloads
// give by default: rows by g.X then the split parameters, a column per
// variant, the pooled parameters written into its caption. rows are
// AggregateWith(runs, Options{Keep: g.Keep()}).
func PagePivot(rows []Row, g Grouping, metric string) (*Pivot, error) {
	p, err := NewPivot(rows, metric, g.Keep(), []string{VariantKey})
	if err != nil {
		return nil, err
	}
	p.Pooled = g.PoolNotes()
	return p, nil
}

// CellText is the text of cell (i, j): "mean ± half-width", with "(d of
// n done)†" where runs failed (see cellText).
func (p *Pivot) CellText(i, j int) string { return cellText(p.Cells[i][j], " ± ") }

// HeadText is column j's head ("online", or "variant, name=value").
func (p *Pivot) HeadText(j int) string { return cmp.Or(headText(p.ColBy, p.ColHeads[j]), p.Metric) }
