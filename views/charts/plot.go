package charts

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"schedlab/solvers"
)

// PlotHeight is the height of every plot, in CSS pixels.
const PlotHeight = 360

// Plot kinds, as in solvers.Plot.Kind ("" means line).
const (
	KindLine    = "line"
	KindBar     = "bar"
	KindScatter = "scatter"
	KindArea    = "area" // a line filled down to the axis
	KindStep    = "step" // a filled step function (value holds until the next point)
)

// samplingFrom is the point count from which a line is down-sampled by
// ECharts (LTTB) and a scatter series drawn in large mode.
const samplingFrom = 2000

// Plot draws a solvers.Plot: one series per line, legend, axis names, log
// axes when asked, dashed reference lines, axis tooltip, and a toolbox
// with save-as-PNG and box zoom.
func Plot(p solvers.Plot) templ.Component {
	return component("plot", p.Title, PlotHeight, func() ([]byte, error) { return PlotOption(p) })
}

// PlotOption returns the ECharts option of Plot as JSON; JavaScript
// functions, if any, are go-echarts FuncOpts strings ("__f__...__f__").
func PlotOption(p solvers.Plot) ([]byte, error) {
	ax := plotAxesOf(p)
	ext := &extender{series: make([]map[string]any, len(p.Lines))}
	global := append(plotGlobals(p), gecharts.WithXAxisOpts(ax.x), gecharts.WithYAxisOpts(ax.y))
	var c chart
	switch ax.kind {
	case KindBar:
		c = barChart(p.Lines, ax, global)
	case KindScatter:
		c = scatterChart(p.Lines, ax, global, ext)
	default:
		c = lineChart(p.Lines, ax, global, ext, p.Kind == KindArea || p.Kind == KindStep, p.Kind == KindStep)
	}
	// go-echarts' YAxis has no nameTextStyle: centred on the axis, a long
	// y label is cut off at the left edge, so start it at the axis instead.
	ya, err := json.Marshal(ax.y)
	if err != nil {
		return nil, err
	}
	var ym map[string]any
	if err := json.Unmarshal(ya, &ym); err != nil {
		return nil, err
	}
	ym["nameTextStyle"] = map[string]any{"align": "left"}
	if len(p.Bands) > 0 && len(ext.series) > 0 && ax.kind != KindBar {
		if ext.series[0] == nil {
			ext.series[0] = map[string]any{}
		}
		ext.series[0]["markArea"] = bandsArea(p.Bands)
	}
	ext.top = map[string]any{"yAxis": []any{ym}}
	return optionJSON(c, ext)
}

// bandsArea is the ECharts markArea of a plot's bands: translucent
// rectangles behind the series, labelled inside at the top, silent (no
// tooltip: they are annotations, not data). It rides on the first series.
func bandsArea(bands []solvers.Band) map[string]any {
	data := make([]any, 0, len(bands))
	for _, b := range bands {
		data = append(data, []any{
			map[string]any{"name": b.Name, "coord": []float64{b.X0, b.Y0}},
			map[string]any{"coord": []float64{b.X1, b.Y1}},
		})
	}
	return map[string]any{"silent": true, "data": data,
		"itemStyle": map[string]any{"color": "rgba(120,120,120,0.15)"},
		"label":     map[string]any{"show": true, "position": "insideTop", "color": "#555"}}
}

// plotGlobals are the options every plot has: title (hidden: the page
// shows it), legend, axis tooltip, toolbox, grid, no animation.
func plotGlobals(p solvers.Plot) []gecharts.GlobalOpts {
	return []gecharts.GlobalOpts{
		gecharts.WithTitleOpts(opts.Title{Title: p.Title, Show: opts.Bool(false)}),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(p.Lines) > 0), Type: "scroll", Top: "0", Left: "center", Width: "70%"}),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis", AxisPointer: &opts.AxisPointer{Type: "cross"}}),
		gecharts.WithToolboxOpts(toolbox(p.Title, true)),
		gecharts.WithGridOpts(opts.Grid{Left: "16", Right: "32", Top: "48", Bottom: "40", ContainLabel: opts.Bool(true)}),
		gecharts.WithAnimation(false),
	}
}

// plotAxes are a plot's chart kind and axes. For bars the x axis becomes
// categories (barChart fills them) and y starts at zero.
type plotAxes struct {
	kind string
	x    opts.XAxis
	y    opts.YAxis
}

func plotAxesOf(p solvers.Plot) plotAxes {
	ax := plotAxes{kind: p.Kind}
	if ax.kind != KindBar && ax.kind != KindScatter {
		ax.kind = KindLine
	}
	ax.y = opts.YAxis{Type: "value", Name: p.YLabel, Scale: opts.Bool(true)}
	if p.YLog {
		ax.y.Type = "log"
	}
	ax.x = opts.XAxis{Type: "value", Name: p.XLabel, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}
	if p.XLog && ax.kind != KindBar {
		ax.x.Type = "log"
	}
	if ax.kind == KindBar {
		ax.x.Type, ax.x.Scale = "category", nil
		ax.y.Scale = nil // bars start at zero
	}
	return ax
}

// keep says whether a point can be drawn on the axes: finite, and positive
// on a log axis.
func (ax plotAxes) keep(pt [2]float64) bool {
	if math.IsNaN(pt[0]) || math.IsInf(pt[0], 0) || math.IsNaN(pt[1]) || math.IsInf(pt[1], 0) {
		return false
	}
	if ax.x.Type == "log" && pt[0] <= 0 {
		return false
	}
	return ax.y.Type != "log" || pt[1] > 0
}

// barChart draws one bar series per line over the lines' distinct x
// values as categories; a line without a value at a category leaves a gap.
func barChart(lines []solvers.Line, ax plotAxes, global []gecharts.GlobalOpts) chart {
	cats, index := barCategories(lines, ax.keep)
	ax.x.Data = cats
	global[len(global)-2] = gecharts.WithXAxisOpts(ax.x)
	bar := gecharts.NewBar()
	bar.SetGlobalOptions(global...)
	bar.SetXAxis(cats)
	for _, l := range lines {
		data := make([]opts.BarData, len(cats))
		for i := range data {
			data[i].Value = "-" // no value at this category
		}
		for _, pt := range l.Points {
			if ax.keep(pt) {
				data[index[pt[0]]].Value = pt[1]
			}
		}
		var so []gecharts.SeriesOpts
		if l.Dashed {
			so = append(so, gecharts.WithItemStyleOpts(opts.ItemStyle{Opacity: opts.Float(0.45)}))
		}
		bar.AddSeries(l.Name, data, so...)
	}
	return bar
}

// scatterChart draws one point series per line; a large one is drawn in
// ECharts' large mode.
func scatterChart(lines []solvers.Line, ax plotAxes, global []gecharts.GlobalOpts, ext *extender) chart {
	sc := gecharts.NewScatter()
	sc.SetGlobalOptions(global...)
	for i, l := range lines {
		data := make([]opts.ScatterData, 0, len(l.Points))
		for _, pt := range l.Points {
			if ax.keep(pt) {
				data = append(data, opts.ScatterData{Value: []float64{pt[0], pt[1]}})
			}
		}
		so := []gecharts.SeriesOpts{gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) { s.SymbolSize = 6 })}
		if l.Dashed {
			so = append(so, gecharts.WithItemStyleOpts(opts.ItemStyle{Opacity: opts.Float(0.45)}))
		}
		if len(data) >= samplingFrom {
			ext.series[i] = map[string]any{"large": true}
		}
		sc.AddSeries(l.Name, data, so...)
	}
	return sc
}

// lineChart draws one line per line: filled for area and step plots, a
// step function for step plots (never LTTB-sampled: sampling would cut its
// corners), LTTB-sampled when long otherwise.
func lineChart(lines []solvers.Line, ax plotAxes, global []gecharts.GlobalOpts, ext *extender, filled, stepped bool) chart {
	line := gecharts.NewLine()
	line.SetGlobalOptions(global...)
	for i, l := range lines {
		data := make([]opts.LineData, 0, len(l.Points))
		for _, pt := range l.Points {
			if ax.keep(pt) {
				data = append(data, opts.LineData{Value: []float64{pt[0], pt[1]}})
			}
		}
		style := opts.LineStyle{Width: 2}
		if l.Dashed {
			style.Type = "dashed"
		}
		so := []gecharts.SeriesOpts{
			gecharts.WithLineStyleOpts(style),
			gecharts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(data) <= 60), SymbolSize: 5}),
		}
		if filled {
			so = append(so, gecharts.WithAreaStyleOpts(opts.AreaStyle{Opacity: opts.Float(0.25)}))
		}
		extra := map[string]any{}
		if len(data) >= samplingFrom && !stepped {
			extra["sampling"] = "lttb"
		}
		if stepped {
			extra["step"] = "end"
		}
		if len(extra) > 0 {
			ext.series[i] = extra
		}
		line.AddSeries(l.Name, data, so...)
	}
	return line
}

// barCategories returns the sorted distinct x values of the kept points as
// category labels, and the category index of each x value.
func barCategories(lines []solvers.Line, keep func([2]float64) bool) ([]string, map[float64]int) {
	var xs []float64
	seen := map[float64]bool{}
	for _, l := range lines {
		for _, pt := range l.Points {
			if keep(pt) && !seen[pt[0]] {
				seen[pt[0]] = true
				xs = append(xs, pt[0])
			}
		}
	}
	sort.Float64s(xs)
	cats := make([]string, len(xs))
	index := make(map[float64]int, len(xs))
	for i, x := range xs {
		cats[i] = strconv.FormatFloat(x, 'g', -1, 64)
		index[x] = i
	}
	return cats, index
}
