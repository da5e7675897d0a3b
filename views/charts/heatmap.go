package charts

import (
	"encoding/json"
	"math"
	"slices"
	"unicode/utf8"

	"schedlab/report"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Heatmap sizes, in CSS pixels, and limits.
const (
	HeatmapRowPx     = 28
	HeatmapChromePx  = 130 // axis labels and names, visual map
	HeatmapMinHeight = 260
	HeatmapMaxHeight = 900
	// HeatmapLabelsUpTo is the cell count up to which values are written
	// in the cells.
	HeatmapLabelsUpTo = 400
)

// heatmapColours is the visual map's low-to-high ramp.
var heatmapColours = []string{"#f7fbff", "#9ecae1", "#4292c6", "#08306b"}

// HeatmapMeta is the lookup tables of a heat map's tooltip, under
// "schedlab" in the option.
type HeatmapMeta struct {
	X []string `json:"x"`
	Y []string `json:"y"`
}

// visualMap is go-echarts' VisualMap with min and max always written and
// in float64 (go-echarts has float32 with omitempty, which drops a max of 0).
type visualMap struct {
	opts.VisualMap
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// heatmapTooltip names the cell's row and column (escaped) and its value.
var heatmapTooltip = jsFunc(`function (p) {
  var f = echarts.format.encodeHTML;
  var v = p.value;
  return f(M.y[v[1]]) + " · " + f(M.x[v[0]]) + ": " + String(v[2]);
}`)

// heatmapLabel writes a cell's value with at most 3 significant decimals.
var heatmapLabel = jsFunc(`function (p) { return String(Math.round(p.value[2] * 1000) / 1000); }`)

// heatmapLabelRotate turns the column labels by 30° when one is longer
// than a column can show upright (more than 8 characters and more than 6
// columns), else 0.
func heatmapLabelRotate(xs []string) int {
	if len(xs) > 6 && slices.ContainsFunc(xs, func(x string) bool { return utf8.RuneCountInString(x) > 8 }) {
		return 30
	}
	return 0
}

// HeatmapHeight is the element height for a heat map with the given rows.
func HeatmapHeight(rows int) int {
	return clampInt(HeatmapChromePx+HeatmapRowPx*rows, HeatmapMinHeight, HeatmapMaxHeight)
}

// Heatmap draws Values[y][x] as coloured cells, columns X on the x axis,
// rows Y on the y axis (first row on top), with a continuous visual map;
// see HeatmapOption.
func Heatmap(h report.Heatmap) templ.Component {
	height := HeatmapHeight(len(h.Y))
	if heatmapLabelRotate(h.X) > 0 {
		height += 60 // the turned column labels
	}
	return component("heatmap", h.Title, height, func() ([]byte, error) { return HeatmapOption(h) })
}

// HeatmapOption returns the ECharts option of Heatmap as JSON. Cells are
// [x, y, value] with x and y category indices; cells outside X×Y or not
// finite are skipped. The visual map spans the finite min..max (min..min+1
// when all values are equal). X is the bottom axis, Y the left (first
// row on top); values are written in the cells up to 400 cells; the
// tooltip is "row · column: value".
func HeatmapOption(h report.Heatmap) ([]byte, error) {
	meta := HeatmapMeta{X: h.X, Y: h.Y}
	if meta.X == nil {
		meta.X = []string{}
	}
	if meta.Y == nil {
		meta.Y = []string{}
	}
	var data []opts.HeatMapData
	lo, hi := math.Inf(1), math.Inf(-1)
	for y, row := range h.Values {
		if y >= len(h.Y) {
			break
		}
		for x, v := range row {
			if x >= len(h.X) || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			data = append(data, opts.HeatMapData{Value: [3]float64{float64(x), float64(y), v}})
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if len(data) == 0 {
		lo, hi = 0, 1
	}
	if hi <= lo {
		hi = lo + 1
	}

	// Every column named (interval 0), turned so long machine names fit;
	// go-echarts' AxisLabel.Interval is a string, which ECharts would add
	// to, so the x axis goes out as a map.
	xAxis := opts.XAxis{Type: "category", Name: h.XLabel, NameLocation: "middle", NameGap: 28, Data: meta.X,
		SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}
	xa, err := json.Marshal(xAxis)
	if err != nil {
		return nil, err
	}
	var xm map[string]any
	if err := json.Unmarshal(xa, &xm); err != nil {
		return nil, err
	}
	// Column names get the room of the longest (at most 200 px), so two
	// that differ at their end ("Intel Core i7 3960X", "… 3770K") are not
	// cut to the same text; turned 30°, they stand w/2 high, and the
	// axis's name goes below them, inside the grid's bottom margin.
	xw := min(LaneLabelWidth(meta.X), 200)
	xm["axisLabel"] = map[string]any{"interval": 0, "rotate": heatmapLabelRotate(meta.X), "width": xw, "overflow": "truncate"}
	if heatmapLabelRotate(meta.X) > 0 {
		xm["nameGap"] = xw/2 + 24 // below the turned labels
	}

	c := gecharts.NewHeatMap()
	c.SetGlobalOptions(
		gecharts.WithTitleOpts(opts.Title{Title: h.Title, Show: opts.Bool(false)}),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: heatmapTooltip}),
		gecharts.WithToolboxOpts(toolbox(h.Title, false)),
		gecharts.WithGridOpts(opts.Grid{Left: "16", Right: "96", Top: "36", Bottom: "44", ContainLabel: opts.Bool(true)}), // the x axis's name below its labels
		gecharts.WithXAxisOpts(xAxis),
		// The y axis is inverted (first row on top): its name goes at the
		// top ("start"), clear of the x axis's labels it overprinted at the
		// bottom.
		gecharts.WithYAxisOpts(opts.YAxis{Type: "category", Name: h.YLabel, NameLocation: "start", NameGap: 12, Data: meta.Y, Inverse: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Show: opts.Bool(true), Width: LaneLabelWidth(meta.Y), Overflow: "truncate"},
			SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		gecharts.WithAnimation(false),
	)
	c.AddSeries(h.Title, data,
		gecharts.WithLabelOpts(opts.Label{Show: opts.Bool(len(data) <= HeatmapLabelsUpTo), FontSize: 10, Formatter: string(heatmapLabel)}),
		gecharts.WithEmphasisOpts(opts.Emphasis{ItemStyle: &opts.ItemStyle{ShadowBlur: 6, ShadowColor: "rgba(0,0,0,0.4)"}}),
	)
	// The colour scale stands at the right, clear of the x axis's name,
	// with the values' unit above it.
	vm := visualMap{
		VisualMap: opts.VisualMap{Type: "continuous", Calculable: opts.Bool(true), Orient: "vertical", Right: "0", Top: "middle",
			InRange: &opts.VisualMapInRange{Color: append([]string(nil), heatmapColours...)}},
		Min: lo, Max: hi,
	}
	if h.Unit != "" {
		vm.Text = []string{h.Unit, ""}
	}
	return optionJSON(c, &extender{top: map[string]any{metaKey: meta, "visualMap": []visualMap{vm}, "xAxis": []any{xm}}})
}
