package charts

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"

	"schedlab/report"
	"schedlab/stats"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// PlotHeight is the height of every plot, in CSS pixels.
const PlotHeight = 360

// samplingFrom is the point count from which a line is down-sampled by
// ECharts (LTTB) and a scatter series drawn in large mode.
const samplingFrom = 2000

// Plot draws a report.Plot: one series per line, legend, axis names, log
// axes when asked, dashed reference lines, axis tooltip, and a toolbox
// with save-as-PNG and box zoom.
func Plot(p report.Plot) templ.Component {
	return component("plot", p.Title, PlotHeight, func() ([]byte, error) { return PlotOption(p) })
}

// PlotOption returns the ECharts option of Plot as JSON; JavaScript
// functions, if any, are go-echarts FuncOpts strings ("__f__...__f__").
// One series per Line: Kind "line" (default), "area" and "step"
// (lineChart), "scatter" (scatterChart) on a value x axis, "bar" and
// "box" (barChart, boxChart) on a category x axis of the sorted distinct
// x values. XLog/YLog make log axes; points a log axis cannot show are
// dropped (plotAxes.keep). Dashed lines are references. Regions (e.g. a
// paper's claimed range) are one silent, translucent markArea on the
// first series (regionsArea), not series, and not drawn on bar plots.
func PlotOption(p report.Plot) ([]byte, error) {
	ax := plotAxesOf(p)
	ext := &extender{series: make([]map[string]any, len(p.Lines))}
	global := append(plotGlobals(p), gecharts.WithXAxisOpts(ax.x), gecharts.WithYAxisOpts(ax.y))
	var c chart
	switch ax.kind {
	case report.PlotBar:
		c = barChart(p.Lines, p.XNames, ax, global)
	case report.PlotScatter:
		c = scatterChart(p.Lines, ax, global, ext)
	case report.PlotBox:
		c = boxChart(p.Lines, ax, global)
	default:
		c = lineChart(p.Lines, ax, global, ext, p.Kind == report.PlotArea || p.Kind == report.PlotStep, p.Kind == report.PlotStep)
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
	if len(p.Regions) > 0 && len(ext.series) > 0 && ax.kind != report.PlotBar {
		if ext.series[0] == nil {
			ext.series[0] = map[string]any{}
		}
		ext.series[0]["markArea"] = regionsArea(p.Regions)
	}
	ext.top = map[string]any{"yAxis": []any{ym}}
	return optionJSON(c, ext)
}

// regionsArea is the ECharts markArea of a plot's regions: translucent
// rectangles behind the series, labelled inside at the top, silent (no
// tooltip: they are annotations, not data). It rides on the first series.
func regionsArea(regions []report.Region) map[string]any {
	data := make([]any, 0, len(regions))
	for _, b := range regions {
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
func plotGlobals(p report.Plot) []gecharts.GlobalOpts {
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
	kind report.PlotKind
	x    opts.XAxis
	y    opts.YAxis
}

func plotAxesOf(p report.Plot) plotAxes {
	ax := plotAxes{kind: p.Kind}
	if ax.kind != report.PlotBar && ax.kind != report.PlotScatter && ax.kind != report.PlotBox {
		ax.kind = report.PlotLine
	}
	// Axis lines at the plot's edge, never through a zero in the middle
	// (ECharts' default onZero draws the y axis at x = 0 when x spans it).
	edge := &opts.AxisLine{Show: opts.Bool(true), OnZero: opts.Bool(false)}
	ax.y = opts.YAxis{Type: "value", Name: p.YLabel, Scale: opts.Bool(true), AxisLine: edge}
	if p.YLog {
		ax.y.Type = "log"
	}
	ax.x = opts.XAxis{Type: "value", Name: p.XLabel, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true), AxisLine: edge}
	if p.XLog && ax.kind != report.PlotBar && ax.kind != report.PlotBox {
		ax.x.Type = "log"
	}
	if ax.kind == report.PlotBar || ax.kind == report.PlotBox {
		ax.x.Type, ax.x.Scale = "category", nil
	}
	if ax.kind == report.PlotBar {
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
func barChart(lines []report.Line, names []string, ax plotAxes, global []gecharts.GlobalOpts) chart {
	cats, index := barCategories(lines, ax.keep)
	for x, i := range index { // an index with a name is shown by it (Plot.XNames)
		if k := int(x); float64(k) == x && k >= 0 && k < len(names) {
			cats[i] = names[k]
		}
	}
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

// scatterChart draws one point series per line, a large one in ECharts'
// large mode; a dashed line is a reference (the diagonal of an A-against-B
// plot, a bound) and is drawn as a dashed line over the points.
func scatterChart(lines []report.Line, ax plotAxes, global []gecharts.GlobalOpts, ext *extender) chart {
	sc := gecharts.NewScatter()
	sc.SetGlobalOptions(global...)
	var refs []report.Line
	for _, l := range lines {
		if l.Dashed {
			refs = append(refs, l)
			continue
		}
		data := make([]opts.ScatterData, 0, len(l.Points))
		for _, pt := range l.Points {
			if ax.keep(pt) {
				data = append(data, opts.ScatterData{Value: []float64{pt[0], pt[1]}})
			}
		}
		if len(data) >= samplingFrom {
			ext.series[len(sc.MultiSeries)] = map[string]any{"large": true}
		}
		sc.AddSeries(l.Name, data, gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) { s.SymbolSize = 6 }))
	}
	if len(refs) > 0 {
		sc.Overlap(lineChart(refs, ax, nil, &extender{series: make([]map[string]any, len(refs))}, false, false).(*gecharts.Line))
	}
	return sc
}

// lineChart draws one line per line: filled for area and step plots, a
// step function for step plots (never LTTB-sampled: sampling would cut its
// corners), LTTB-sampled when long otherwise.
func lineChart(lines []report.Line, ax plotAxes, global []gecharts.GlobalOpts, ext *extender, filled, stepped bool) chart {
	line := gecharts.NewLine()
	banded := false
	for _, l := range lines {
		banded = banded || len(l.Band) > 0
	}
	if banded {
		global = append(global, gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis",
			AxisPointer: &opts.AxisPointer{Type: "cross"}, Formatter: bandTooltip}))
	}
	line.SetGlobalOptions(global...)
	for i, l := range lines {
		data := make([]opts.LineData, 0, len(l.Points))
		marked := false
		for k, pt := range l.Points {
			if ax.keep(pt) {
				d := opts.LineData{Value: []float64{pt[0], pt[1]}}
				if k < len(l.Marks) && l.Marks[k] != "" { // a marked point: a large triangle named by its mark
					d.Name, d.Symbol, d.SymbolSize = l.Marks[k], "triangle", 12
					marked = true
				}
				data = append(data, d)
			}
		}
		style := opts.LineStyle{Width: 2}
		if l.Dashed {
			style.Type = "dashed"
		}
		so := []gecharts.SeriesOpts{
			gecharts.WithLineStyleOpts(style),
			gecharts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(data) <= 60 || marked), SymbolSize: 5}),
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
		if banded { // explicit colours (the Gantt palette, ECharts' own first), so a band matches its line
			colour := palette[i%len(palette)]
			so = append(so, gecharts.WithItemStyleOpts(opts.ItemStyle{Color: colour}),
				gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) { s.Id = "line:" + strconv.Itoa(i) }))
			style.Color = colour
			so[0] = gecharts.WithLineStyleOpts(style)
		}
		if l.Colour != "" { // the line's own (a compare's run colour)
			style.Color = l.Colour
			so[0] = gecharts.WithLineStyleOpts(style)
			so = append(so, gecharts.WithItemStyleOpts(opts.ItemStyle{Color: l.Colour}))
		}
		line.AddSeries(l.Name, data, so...)
	}
	if banded {
		addBands(line, lines, ax)
	}
	return line
}

// addBands draws each line's Band as a custom series overlaid after the
// lines: data [x, low, high] per point, each item drawing the strip to the
// next item (bandRenderItem) in the line's colour. It carries the line's
// name, so the line's legend entry hides its band too, and an id the
// tooltip (bandTooltip) reads to give each value its interval.
func addBands(line *gecharts.Line, lines []report.Line, ax plotAxes) {
	band := gecharts.NewCustom()
	for i, l := range lines {
		if len(l.Band) != len(l.Points) {
			continue
		}
		var data []opts.CustomData
		for k, pt := range l.Points {
			b := l.Band[k]
			if ax.keep(pt) && ax.keep([2]float64{pt[0], b[0]}) && ax.keep([2]float64{pt[0], b[1]}) {
				data = append(data, opts.CustomData{Value: []float64{pt[0], b[0], b[1]}})
			}
		}
		id := "band:" + strconv.Itoa(i)
		band.AddSeries(l.Name, data, gecharts.WithItemStyleOpts(opts.ItemStyle{Color: palette[i%len(palette)]}),
			gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) {
				s.Id, s.RenderItem = id, bandRenderItem
				s.Encode = &opts.Encode{X: 0, Y: []int{1, 2}}
			}))
	}
	line.Overlap(band)
}

// bandRenderItem draws item i's strip of a band: the quadrilateral from
// (x_i, low_i … high_i) to (x_{i+1}, low_{i+1} … high_{i+1}); the last
// item draws nothing (a band of one point is its line's point).
var bandRenderItem = jsFunc(`function (params, api) {
  var i = params.dataIndexInside;
  if (i + 1 >= params.dataInsideLength) { return null; }
  var pts = [
    api.coord([api.value(0, i), api.value(1, i)]),
    api.coord([api.value(0, i + 1), api.value(1, i + 1)]),
    api.coord([api.value(0, i + 1), api.value(2, i + 1)]),
    api.coord([api.value(0, i), api.value(2, i)])
  ];
  return {type: "polygon", shape: {points: pts}, style: {fill: api.visual("color"), opacity: 0.2}, silent: true};
}`)

// bandTooltip is the axis tooltip of a plot with bands: each line's value
// with its band's interval [low, high], the bands not listed apart.
var bandTooltip = jsFunc(`function (ps) {
  var f = echarts.format.encodeHTML;
  var num = function (v) { return String(Number(Number(v).toPrecision(6))); };
  if (!ps.length) { return ""; }
  var band = {};
  ps.forEach(function (p) {
    var id = String(p.seriesId);
    if (id.indexOf("band:") === 0) { band[id.slice(5)] = p.value; }
  });
  var out = [f(String(ps[0].axisValueLabel))];
  ps.forEach(function (p) {
    var id = String(p.seriesId);
    if (id.indexOf("band:") === 0) { return; }
    var s = p.marker + f(p.seriesName) + ": " + num(p.value[1]);
    var b = id.indexOf("line:") === 0 ? band[id.slice(5)] : null;
    if (b) { s += " [" + num(b[1]) + ", " + num(b[2]) + "]"; }
    out.push(s);
  });
  return out.join("<br>");
}`)

// boxChart draws one box series per line: at each of the lines' distinct x
// values (categories), the box of that line's y samples there (see Box);
// the tooltip gives the five numbers. A line without samples at a category
// leaves a gap.
func boxChart(lines []report.Line, ax plotAxes, global []gecharts.GlobalOpts) chart {
	cats, index := barCategories(lines, ax.keep)
	ax.x.Data = cats
	global[len(global)-2] = gecharts.WithXAxisOpts(ax.x)
	// An item tooltip: the axis pointer of plotGlobals would list every
	// series at once.
	global = append(global, gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}))
	box := gecharts.NewBoxPlot()
	box.SetGlobalOptions(global...)
	box.SetXAxis(cats)
	for _, l := range lines {
		samples := make([][]float64, len(cats))
		for _, pt := range l.Points {
			if ax.keep(pt) {
				i := index[pt[0]]
				samples[i] = append(samples[i], pt[1])
			}
		}
		data := make([]opts.BoxPlotData, len(cats))
		for i, ys := range samples {
			if len(ys) == 0 {
				data[i].Value = "-"
				continue
			}
			b := Box(ys)
			data[i] = opts.BoxPlotData{Name: cats[i], Value: b[:]}
		}
		box.AddSeries(l.Name, data)
	}
	return box
}

// Box returns the five numbers a box plot draws for samples: minimum,
// lower quartile, median, upper quartile, maximum. Quartiles interpolate
// linearly between order statistics (Hyndman and Fan's type 7, the
// default of R's quantile and of NumPy); the whiskers reach the minimum
// and the maximum, so every sample is inside the drawing (no outlier rule
// hides a replicate). samples is sorted in place; it must not be empty.
func Box(samples []float64) [5]float64 {
	slices.Sort(samples)
	q := func(p float64) float64 { return stats.QuantileSorted(samples, p) }
	return [5]float64{samples[0], q(0.25), q(0.5), q(0.75), samples[len(samples)-1]}
}

// barCategories returns the sorted distinct x values of the kept points as
// category labels, and the category index of each x value.
func barCategories(lines []report.Line, keep func([2]float64) bool) ([]string, map[float64]int) {
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
