package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Report is what every run returns and every page draws. Its JSON shape is a
// public contract shared by the CLI, the API and the pages.
type Report struct {
	Metrics  []Metric  `json:"metrics"`
	Tables   []Table   `json:"tables"`
	Series   []Plot    `json:"series"`
	Gantts   []Gantt   `json:"gantts"`
	Graphs   []Graph   `json:"graphs"`
	Heatmaps []Heatmap `json:"heatmaps,omitempty"`
	// Parallels are parallel-coordinates charts (an experiment's cells
	// across its swept parameters and a metric).
	Parallels []Parallel `json:"parallels,omitempty"`
	// Notes are decisions and warnings a reader of the result must see
	// (a substituted value, skipped input, a deviation from the paper).
	Notes []string `json:"notes,omitempty"`
	// Time, when set, is the report's one time frame: the unit and clock
	// of every Gantt bar and of the x of every plot marked XTime, and how
	// the page shows them (see TimeFrame). A report without it is drawn
	// in its raw numbers.
	Time   *TimeFrame `json:"time,omitempty"`
	Detail any        `json:"detail,omitempty"`
	// Unreadable names the parts of a stored report that could not be
	// read, each with what is wrong (DecodeReportParts): pages show them
	// as errors in place of those parts. Never part of the JSON.
	Unreadable []string `json:"-"`
}

// Direction says which direction of a metric is an improvement
// (Metric.Better): Higher, Lower, or "" (not ranked).
type Direction string

// Directions of a metric.
const (
	Higher Direction = "higher"
	Lower  Direction = "lower"
)

// Verdicts of a reproduce report's Claims table (one row per published
// number and claim: claim, paper, ours, verdict, evidence), each computed
// from our numbers by the one shared rule set, package solvers/claims.
const (
	Holds       = "holds"
	Partly      = "partly"
	DoesNotHold = "does not hold"
	NotMeasured = "not measured"
	// Unverifiable: the paper prints no number and its words fix no
	// threshold; ours is shown and nothing is judged.
	Unverifiable = "unverifiable"
	// Inconclusive: neither the claim nor its negation is excluded by
	// the data at this n (an interval straddles the claim, or one value
	// gives no interval); distinct from DoesNotHold, where the data
	// exclude the claim.
	Inconclusive = "inconclusive"
)

// MetricKind is what a number says about a run (Metric.Kind). Only
// results are ranked when runs are compared.
type MetricKind string

// Metric kinds.
const (
	KindResult MetricKind = ""     // a result of the schedule: makespan, objective, utilization
	KindCost   MetricKind = "cost" // what the method spent: wall time, messages, memory
	KindInfo   MetricKind = "info" // a property of the input or setting: a deadline, a bound, a count of processors
)

// Metric is one named number of a run, compared across runs by Better
// when its Kind is KindResult.
//
// Variants, when set, names the variants of the run's family the metric is
// meaningful for; empty means every variant. A run of another variant may
// still report the metric (its number by construction: DCOP's exact sends
// no messages and reports 0, a central matchmaker is informed in one hop),
// so that every variant's report has one shape; a compare shows such a
// run's value as "n/a", never ranks it and leaves it out of the metric's
// bar chart. Two runs whose metrics of one name declare sets that leave
// each other's variant out measure different things under that name
// (gossip's rumor counts the messages of one rumor, gossip those of its
// table exchanges) and are not ranked against each other either.
type Metric struct {
	Name     string     `json:"name"`
	Value    float64    `json:"value"`
	Unit     string     `json:"unit,omitempty"`
	Better   Direction  `json:"better,omitempty"`   // Higher, Lower or "" (not ranked)
	Kind     MetricKind `json:"kind,omitempty"`     // KindResult (""), KindCost or KindInfo
	Variants []string   `json:"variants,omitempty"` // the variants it is meaningful for; empty: all
	// Min and Max, when set, are the bounds of the metric by its
	// definition (an accuracy or a utilization in [0, 1], a share in
	// [0, 100] %), not of this run's value: intervals of its mean stay
	// within them (an experiment then uses a bootstrap percentile
	// interval, not Student's t). Nil: unbounded, nothing is clamped.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
}

// Bound is a metric bound for Min and Max: Min: Bound(0), Max: Bound(1).
func Bound(v float64) *float64 { return &v }

// Bounded reports whether the metric declares a bound by its definition.
func (m Metric) Bounded() bool { return m.Min != nil || m.Max != nil }

// MeaningfulFor reports whether the metric is meaningful for a run of
// variant: Variants is empty or covers it (Covers).
func (m Metric) MeaningfulFor(variant string) bool { return Covers(m.Variants, variant) }

// Covers reports whether a metric's declared variants vs (empty: all)
// hold variant: by name, or by a name ending in "*", which covers every
// variant beginning with what precedes it ("external:*": every
// registered decision process of the batch simulation, whichever are
// registered where the run ran; issue 42 item 1).
func Covers(vs []string, variant string) bool {
	if len(vs) == 0 || slices.Contains(vs, variant) {
		return true
	}
	for _, v := range vs {
		if p, ok := strings.CutSuffix(v, "*"); ok && strings.HasPrefix(variant, p) {
			return true
		}
	}
	return false
}

// Table is a titled grid; each cell is a number (float64/int) or a string.
//
// A table of more than PageOutRows rows (a per-job table of a trace) is
// paged out of the report when a run is stored: the stored report keeps
// its title and columns with Paged set, RowCount its number of rows and
// Rows empty, and the rows are stored apart, in pages of TablePageRows;
// the run page and GET /api/runs/:id/tables/:index?offset=&limit= fetch
// them by pages, the CSV download whole. Solvers fill Rows, or make a
// large table with LazyTable, whose rows are built only when someone reads
// them (AllRows): the command line writes such a table paged unless asked
// for its rows. Code that reads a table a solver made reads AllRows and
// NumRows, never Rows alone.
type Table struct {
	Title    string   `json:"title"`
	Columns  []string `json:"columns"`
	Rows     [][]any  `json:"rows"`
	Paged    bool     `json:"paged,omitempty"`
	RowCount int      `json:"row_count,omitempty"`
	// TimeCols are the indices of the columns that hold instants on the
	// report's time axis (in Report.Time's raw unit: a trace's seconds).
	// Pages show them in the report's frame, as its charts are, so that a
	// page has one time frame; the CSV keeps them as they are.
	TimeCols []int `json:"time_columns,omitempty"`
	// lazy, when set, builds the rows in place of Rows (LazyTable).
	lazy *lazyRows
}

// Paging of large tables (see Table).
const (
	// PageOutRows is the most rows a table keeps inside a stored report
	// (the encoder, the command line and the store page by it).
	PageOutRows = 1000
	// TablePageRows is the number of rows of one stored page.
	TablePageRows = 1000
)

// Plot is a titled chart of named lines, drawn as its Kind says; a log
// axis is asked for with XLog/YLog.
type Plot struct {
	Title  string   `json:"title"`
	XLabel string   `json:"x_label"`
	YLabel string   `json:"y_label"`
	Kind   PlotKind `json:"kind,omitempty"`
	XLog   bool     `json:"x_log,omitempty"`
	YLog   bool     `json:"y_log,omitempty"`
	// XTime says the x values are times of the report's TimeFrame (its
	// Unit, on its clock): the page shows them in the frame and names the
	// axis after it. A plot whose x is not time leaves it false.
	XTime bool   `json:"x_time,omitempty"`
	Lines []Line `json:"lines"`
	// Regions are shaded reference regions drawn behind the lines (a
	// published claim's range): annotations, not data.
	Regions []Region `json:"regions,omitempty"`
	// XNames, for a bar plot whose x values are the indices 0, 1, …, are
	// the names the axis shows for them (machine types): the bars are
	// labelled by name, not by index.
	XNames []string `json:"x_names,omitempty"`
}

// PlotKind is how a Plot is drawn; "" is PlotLine.
type PlotKind string

// The plot kinds.
const (
	PlotLine    PlotKind = "line"
	PlotBar     PlotKind = "bar"
	PlotScatter PlotKind = "scatter"
	PlotArea    PlotKind = "area" // a line filled down to the axis
	PlotStep    PlotKind = "step" // a filled step function: each value holds until the next point
	// PlotBox takes each line's points as samples (x, y): one box of the
	// y values per distinct x, the x values as categories.
	PlotBox PlotKind = "box"
)

// Region is the labelled rectangle [X0, X1] × [Y0, Y1] of a plot.
type Region struct {
	Name string  `json:"name"`
	X0   float64 `json:"x0"`
	X1   float64 `json:"x1"`
	Y0   float64 `json:"y0"`
	Y1   float64 `json:"y1"`
}

// Line is one named series of (x, y) points. Dashed lines are references
// (a bound, a published curve) rather than measurements. Band, when set,
// holds one interval (low, high) per point, drawn as a shaded band in the
// line's colour (a 95 % confidence interval around a mean); line plots
// only.
type Line struct {
	Name   string       `json:"name"`
	Points [][2]float64 `json:"points"`
	Dashed bool         `json:"dashed,omitempty"`
	Band   [][2]float64 `json:"band,omitempty"`
	// Marks, when set, holds one annotation per point, "" for none: a
	// point with one is drawn as a marked symbol carrying the text (an
	// experiment's "2 of 8 runs failed" at that point); line plots only.
	Marks []string `json:"marks,omitempty"`
	// Colour, when set, is the line's colour (CSS); empty: the chart's
	// palette by order. The compare page sets it so that a run keeps its
	// colour in every overlaid plot.
	Colour string `json:"colour,omitempty"`
}

// Gantt is lanes (machines, nodes, processors) by time with bars on them.
// In a report with a TimeFrame, TimeUnit is the frame's Unit (or empty).
type Gantt struct {
	Title    string `json:"title"`
	TimeUnit string `json:"time_unit,omitempty"` // "s", "slot", ...
	// TimeLabel names the time axis; "" means "time (TimeUnit)". The page
	// sets it from the report's TimeFrame ("time since the first
	// submission (h)").
	TimeLabel string   `json:"time_label,omitempty"`
	Lanes     []string `json:"lanes"`
	Bars      []Bar    `json:"bars"`
}

// Bar is one occupied interval [Start, End) on lane Lanes[Lane]. Group
// colours bars that belong together (a job, a user); Kind distinguishes
// what the bar is. The page draws a key of the kinds a Gantt has.
type Bar struct {
	Lane  int     `json:"lane"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Label string  `json:"label,omitempty"`
	Group string  `json:"group,omitempty"`
	Kind  BarKind `json:"kind,omitempty"`
}

// BarKind is what a Gantt bar is; "" is BarJob.
type BarKind string

// The bar kinds.
const (
	BarJob      BarKind = "job"      // scheduled work
	BarLocal    BarKind = "local"    // owner load, drawn grey
	BarAlt      BarKind = "alt"      // a considered but unchosen window, drawn outlined
	BarReserved BarKind = "reserved" // drawn translucent
	BarMoved    BarKind = "moved"    // a job's window a shift moved, drawn with a thick dark border
	// BarCollision is a planned bar that overlaps another on its lane,
	// drawn translucent with a red border so that both show.
	BarCollision BarKind = "collision"
)

// Graph is nodes and edges: a pseudo-tree, a critical-path tree, a topology.
// Layout is "tree", "dag" or "force" (default).
type Graph struct {
	Title  string      `json:"title"`
	Layout string      `json:"layout,omitempty"`
	Nodes  []GraphNode `json:"nodes"`
	Edges  []GraphEdge `json:"edges"`
}

// GraphNode is one vertex; Level places it in tree and DAG layouts.
type GraphNode struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
	Group string `json:"group,omitempty"`
	Level int    `json:"level,omitempty"`
}

// GraphEdge joins two node IDs; Kind is "" for a plain edge.
type GraphEdge struct {
	Source string   `json:"source"`
	Target string   `json:"target"`
	Label  string   `json:"label,omitempty"`
	Kind   EdgeKind `json:"kind,omitempty"`
}

// EdgeKind is what a graph edge is.
type EdgeKind string

// The edge kinds.
const (
	EdgeTree     EdgeKind = "tree"
	EdgeBack     EdgeKind = "back"
	EdgeDeleted  EdgeKind = "deleted"  // drawn dashed
	EdgeCritical EdgeKind = "critical" // on a critical path, highlighted
)

// The kinds Validate knows ("" is always known).
var (
	plotKinds = []PlotKind{PlotLine, PlotBar, PlotScatter, PlotArea, PlotStep, PlotBox}
	barKinds  = []BarKind{BarJob, BarLocal, BarAlt, BarReserved, BarMoved, BarCollision}
	edgeKinds = []EdgeKind{EdgeTree, EdgeBack, EdgeDeleted, EdgeCritical}
)

// unknownKind is the error of kind k, not among kinds, of the chart
// element where names.
func unknownKind[K ~string](where string, k K, kinds []K) error {
	return fmt.Errorf("%s: kind %q is unknown (want one of %q or empty)", where, k, kinds)
}

// Heatmap is a matrix of values with labelled rows (Y) and columns (X):
// Values[y][x].
type Heatmap struct {
	Title  string      `json:"title"`
	XLabel string      `json:"x_label"`
	YLabel string      `json:"y_label"`
	Unit   string      `json:"unit,omitempty"` // of the values, shown on the colour scale`
	X      []string    `json:"x"`
	Y      []string    `json:"y"`
	Values [][]float64 `json:"values"`
}

// Parallel is a parallel-coordinates chart: each row of a group is one
// polyline across the axes, Rows[i][j] its value on Axes[j]; the rows of a
// group share a colour and a legend entry (a variant).
type Parallel struct {
	Title  string          `json:"title"`
	Axes   []ParallelAxis  `json:"axes"`
	Groups []ParallelGroup `json:"groups"`
}

// ParallelAxis is one vertical axis. With Categories, the values on it are
// indices into Categories (a text parameter, a variant), drawn as names;
// without, they are numbers, on a log scale if Log.
type ParallelAxis struct {
	Name       string   `json:"name"`
	Categories []string `json:"categories,omitempty"`
	Log        bool     `json:"log,omitempty"`
}

// ParallelGroup is a named set of polylines.
type ParallelGroup struct {
	Name string      `json:"name"`
	Rows [][]float64 `json:"rows"`
}

// Metric returns the named metric and whether it is present.
func (r *Report) Metric(name string) (Metric, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// Table returns the table with the given title, or nil.
func (r *Report) Table(title string) *Table {
	for i := range r.Tables {
		if r.Tables[i].Title == title {
			return &r.Tables[i]
		}
	}
	return nil
}

// Plot returns the plot with the given title, or nil.
func (r *Report) Plot(title string) *Plot {
	for i := range r.Series {
		if r.Series[i].Title == title {
			return &r.Series[i]
		}
	}
	return nil
}

// Validate checks what JSON and the renderer cannot take: non-finite
// numbers, bars on lanes that do not exist, heat maps that are not
// rectangular, more metrics or charts than a page draws in bounded time
// (MaxMetrics, MaxParts). Solvers call it in their tests; the runner calls it on every
// Report before storing it.
func (r *Report) Validate() error {
	for _, check := range []func() error{r.validSize, r.validMetrics, r.validTables, r.validSeries, r.validGantts, r.validHeatmaps, r.validGraphs, r.validParallels, r.validTime} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// isFinite reports whether v is neither NaN nor infinite.
func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// notFinite is the error of a value that is not finite, where names it
// (built only then: a report has thousands of values to check).
func notFinite(where string, v float64) error {
	return fmt.Errorf("%s is %v: reports hold finite numbers only", where, v)
}

// validTime checks the time frame and that the times it governs are in
// its unit: Gantts in Time.Unit, XTime plots only with a frame.
func (r *Report) validTime() error {
	if r.Time == nil {
		for _, p := range r.Series {
			if p.XTime {
				return fmt.Errorf("plot %q: x_time is set but the report has no time frame", p.Title)
			}
		}
		return nil
	}
	if err := r.Time.Validate(); err != nil {
		return err
	}
	for _, g := range r.Gantts {
		if g.TimeUnit != "" && g.TimeUnit != r.Time.Unit {
			return fmt.Errorf("gantt %q is in %q, the report's time frame in %q", g.Title, g.TimeUnit, r.Time.Unit)
		}
	}
	return nil
}

func (r *Report) validMetrics() error {
	for _, m := range r.Metrics {
		if m.Name == "" {
			return fmt.Errorf("a metric has no name")
		}
		if !isFinite(m.Value) {
			return notFinite("metric "+m.Name, m.Value)
		}
		if m.Better != "" && m.Better != Higher && m.Better != Lower {
			return fmt.Errorf("metric %s: better is %q, want %q, %q or empty", m.Name, m.Better, Higher, Lower)
		}
		if m.Kind != KindResult && m.Kind != KindCost && m.Kind != KindInfo {
			return fmt.Errorf("metric %s: kind is %q, want %q, %q or empty (a result)", m.Name, m.Kind, KindCost, KindInfo)
		}
		if m.Min != nil && m.Max != nil && !(*m.Min <= *m.Max) {
			return fmt.Errorf("metric %s: bounds [%g, %g] are empty", m.Name, *m.Min, *m.Max)
		}
		if m.Min != nil && m.Value < *m.Min || m.Max != nil && m.Value > *m.Max {
			return fmt.Errorf("metric %s: %g is outside the bounds of its definition", m.Name, m.Value)
		}
		for i, v := range m.Variants {
			if v == "" {
				return fmt.Errorf("metric %s: variant %d of the variants it is meaningful for is empty", m.Name, i+1)
			}
			if slices.Contains(m.Variants[:i], v) {
				return fmt.Errorf("metric %s: variant %q is named twice among the variants it is meaningful for", m.Name, v)
			}
		}
	}
	return nil
}

// validTables checks the rows in hand; a lazy table's rows are checked
// as they are built (AllRows), by whoever first needs them, so that a
// table nobody writes is never built to be checked.
func (r *Report) validTables() error {
	for i := range r.Tables {
		t := &r.Tables[i]
		if t.lazy != nil {
			if t.lazy.n < 0 {
				return fmt.Errorf("table %q has %d rows", t.Title, t.lazy.n)
			}
			continue
		}
		if err := validRows(t.Title, t.Columns, t.Rows); err != nil {
			return err
		}
	}
	return nil
}

func validRows(title string, columns []string, rows [][]any) error {
	for i, row := range rows {
		if len(row) != len(columns) {
			return fmt.Errorf("table %q row %d has %d cells for %d columns", title, i, len(row), len(columns))
		}
		for j, c := range row {
			if f, ok := c.(float64); ok {
				if !isFinite(f) {
					return notFinite(fmt.Sprintf("table %q row %d column %s", title, i, columns[j]), f)
				}
			}
		}
	}
	return nil
}

func (r *Report) validSeries() error {
	for _, p := range r.Series {
		if p.Kind != "" && !slices.Contains(plotKinds, p.Kind) {
			return unknownKind(fmt.Sprintf("plot %q", p.Title), p.Kind, plotKinds)
		}
		for i, b := range p.Regions {
			if !isFinite(b.X0 + b.X1 + b.Y0 + b.Y1) {
				return notFinite(fmt.Sprintf("plot %q band %d", p.Title, i), b.X0+b.X1+b.Y0+b.Y1)
			}
			if b.X1 < b.X0 || b.Y1 < b.Y0 {
				return fmt.Errorf("plot %q band %q: want x0 ≤ x1 and y0 ≤ y1, got [%v, %v] × [%v, %v]", p.Title, b.Name, b.X0, b.X1, b.Y0, b.Y1)
			}
		}
		for _, l := range p.Lines {
			for i, pt := range l.Points {
				if !isFinite(pt[0]) {
					return notFinite(fmt.Sprintf("plot %q line %q point %d", p.Title, l.Name, i), pt[0])
				}
				if !isFinite(pt[1]) {
					return notFinite(fmt.Sprintf("plot %q line %q point %d", p.Title, l.Name, i), pt[1])
				}
			}
			if l.Marks != nil && len(l.Marks) != len(l.Points) {
				return fmt.Errorf("plot %q line %q has %d marks for %d points", p.Title, l.Name, len(l.Marks), len(l.Points))
			}
			if l.Band == nil {
				continue
			}
			if len(l.Band) != len(l.Points) {
				return fmt.Errorf("plot %q line %q has %d band intervals for %d points", p.Title, l.Name, len(l.Band), len(l.Points))
			}
			for i, b := range l.Band {
				if !isFinite(b[0] + b[1]) {
					return notFinite(fmt.Sprintf("plot %q line %q band %d", p.Title, l.Name, i), b[0]+b[1])
				}
				if b[0] > b[1] {
					return fmt.Errorf("plot %q line %q band %d is (%v, %v): low above high", p.Title, l.Name, i, b[0], b[1])
				}
			}
		}
	}
	return nil
}

func (r *Report) validGantts() error {
	for _, g := range r.Gantts {
		for i, b := range g.Bars {
			if b.Lane < 0 || b.Lane >= len(g.Lanes) {
				return fmt.Errorf("gantt %q bar %d is on lane %d of %d", g.Title, i, b.Lane, len(g.Lanes))
			}
			if !isFinite(b.Start + b.End) {
				return notFinite(fmt.Sprintf("gantt %q bar %d", g.Title, i), b.Start+b.End)
			}
			if b.End < b.Start {
				return fmt.Errorf("gantt %q bar %d ends (%v) before it starts (%v)", g.Title, i, b.End, b.Start)
			}
			if b.Kind != "" && !slices.Contains(barKinds, b.Kind) {
				return unknownKind(fmt.Sprintf("gantt %q bar %d", g.Title, i), b.Kind, barKinds)
			}
		}
	}
	return nil
}

func (r *Report) validHeatmaps() error {
	for _, h := range r.Heatmaps {
		if len(h.Values) != len(h.Y) {
			return fmt.Errorf("heatmap %q has %d rows for %d labels", h.Title, len(h.Values), len(h.Y))
		}
		for i, row := range h.Values {
			if len(row) != len(h.X) {
				return fmt.Errorf("heatmap %q row %d has %d values for %d columns", h.Title, i, len(row), len(h.X))
			}
			for _, v := range row {
				if !isFinite(v) {
					return notFinite(fmt.Sprintf("heatmap %q row %d", h.Title, i), v)
				}
			}
		}
	}
	return nil
}

func (r *Report) validGraphs() error {
	for _, g := range r.Graphs {
		ids := make(map[string]bool, len(g.Nodes))
		for _, n := range g.Nodes {
			ids[n.ID] = true
		}
		for _, e := range g.Edges {
			if !ids[e.Source] || !ids[e.Target] {
				return fmt.Errorf("graph %q edge %s→%s names a missing node", g.Title, e.Source, e.Target)
			}
			if e.Kind != "" && !slices.Contains(edgeKinds, e.Kind) {
				return unknownKind(fmt.Sprintf("graph %q edge %s→%s", g.Title, e.Source, e.Target), e.Kind, edgeKinds)
			}
		}
	}
	return nil
}

func (r *Report) validParallels() error {
	for _, p := range r.Parallels {
		for _, g := range p.Groups {
			for i, row := range g.Rows {
				if len(row) != len(p.Axes) {
					return fmt.Errorf("parallel %q group %q row %d has %d values for %d axes", p.Title, g.Name, i, len(row), len(p.Axes))
				}
				for j, v := range row {
					if !isFinite(v) {
						return notFinite(fmt.Sprintf("parallel %q group %q row %d axis %s", p.Title, g.Name, i, p.Axes[j].Name), v)
					}
					if cats := p.Axes[j].Categories; len(cats) > 0 && (v != math.Trunc(v) || v < 0 || int(v) >= len(cats)) {
						return fmt.Errorf("parallel %q group %q row %d: %v is not a category index of axis %s (%d categories)", p.Title, g.Name, i, v, p.Axes[j].Name, len(cats))
					}
				}
			}
		}
	}
	return nil
}
