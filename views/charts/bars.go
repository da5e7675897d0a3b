package charts

import (
	"math"

	"schedlab/report"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// MetricBarsHeight is the height of a compare page's bar chart of one
// metric, in CSS pixels.
const MetricBarsHeight = 240

// Bar colours of a metric's bar chart: the best runs, and the others.
const (
	BarBestColour  = "#2e7d32"
	BarOtherColour = "#9fb3d1"
	// BarReferenceColour fills a reference run's bar (a bound or an
	// optimum), drawn with a dark outline: a yardstick, not a method.
	BarReferenceColour = "#e0e0e0"
	barReferenceBorder = "#616161"
)

// MetricBars is one compared metric as a bar chart: one bar per run
// (Labels[i], Values[i]; a nil value draws no bar), the runs marked Best
// in BarBestColour with "best" above the value, the others in
// BarOtherColour. Unit names the value axis; Better is for a caption.
// The runs marked Omit (the metric is not meaningful for their variant,
// or measures another thing for it) are left out of the chart, their
// label too. The runs marked Reference (a bound or an optimum) are drawn
// in BarReferenceColour with a dark outline and "reference" above the
// value, never best. Ranked says the best was looked for (a caption says
// "not ranked" otherwise).
type MetricBars struct {
	Metric    string
	Unit      string
	Better    report.Direction // report.Higher or report.Lower, for the caption
	Labels    []string
	Values    []*float64
	Best      []bool
	Omit      []bool
	Reference []bool
	Ranked    bool
}

// Shown is the labels of the runs the chart draws (those not omitted).
func (m MetricBars) Shown() []string { return m.labels(false) }

// Omitted is the labels of the runs left out of the chart.
func (m MetricBars) Omitted() []string { return m.labels(true) }

func (m MetricBars) labels(omitted bool) []string {
	var out []string
	for i, l := range m.Labels {
		if (i < len(m.Omit) && m.Omit[i]) == omitted {
			out = append(out, l)
		}
	}
	return out
}

// barLabel writes the value above each bar, and "best" above the best.
var barLabel = jsFunc(`function (p) { var d = p.data || {}; var v = echarts.format.addCommas(Math.round(d.value * 1000) / 1000); return d.best ? "best\n" + v : (d.reference ? "reference\n" + v : v); }`)

// barTooltip names the run and its value with the unit; user strings go
// through echarts.format.encodeHTML.
var barTooltip = jsFunc(`function (p) {
  var f = echarts.format.encodeHTML;
  var d = p.data || {};
  return f(p.name) + "<br>" + f(M.metric) + ": " + echarts.format.addCommas(d.value) + (M.unit ? " " + f(M.unit) : "") + (d.best ? " (best)" : "") + (d.reference ? " (reference: a bound or optimum, not ranked)" : "");
}`)

// metricBar is go-echarts' BarData plus the best flag the label reads.
type metricBar struct {
	opts.BarData
	Best      bool `json:"best,omitempty"`
	Reference bool `json:"reference,omitempty"`
}

// Bars draws m; see BarsOption.
func Bars(m MetricBars) templ.Component {
	return component("bars", m.Metric, MetricBarsHeight, func() ([]byte, error) { return BarsOption(m) })
}

// BarsOption returns the ECharts option of Bars as JSON: a category x axis
// of the labels of the runs not omitted, one bar series, each bar coloured
// by whether its run is among the best. Non-finite values draw no bar.
func BarsOption(m MetricBars) ([]byte, error) {
	data := make([]metricBar, 0, len(m.Labels))
	labels := m.Shown()
	for i := range m.Labels {
		if i < len(m.Omit) && m.Omit[i] {
			continue
		}
		var v *float64
		if i < len(m.Values) {
			v = m.Values[i]
		}
		best := i < len(m.Best) && m.Best[i]
		colour := BarOtherColour
		if best {
			colour = BarBestColour
		}
		d := metricBar{BarData: opts.BarData{Name: m.Labels[i], ItemStyle: &opts.ItemStyle{Color: colour}}, Best: best}
		if i < len(m.Reference) && m.Reference[i] {
			d.Reference, d.Best = true, false
			d.ItemStyle = &opts.ItemStyle{Color: BarReferenceColour, BorderColor: barReferenceBorder, BorderWidth: 1.5}
		}
		if v != nil && !math.IsNaN(*v) && !math.IsInf(*v, 0) {
			d.Value = *v
		} else {
			d.Value = "-" // ECharts' empty value: no bar
		}
		data = append(data, d)
	}
	yName := m.Unit
	// Beyond two runs the labels of a chart in a narrow column would
	// overlap: they lean, each still truncated to 90 px.
	rotate := 0.0
	if len(labels) > 2 {
		rotate = 30
	}
	c := gecharts.NewBar()
	c.SetGlobalOptions(
		gecharts.WithTitleOpts(opts.Title{Title: m.Metric, Show: opts.Bool(false)}),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: barTooltip}),
		gecharts.WithToolboxOpts(toolbox(m.Metric, false)),
		gecharts.WithGridOpts(opts.Grid{Left: "8", Right: "16", Top: "60", Bottom: "8", ContainLabel: opts.Bool(true)}), // room above the tallest bar for "best" and its value, below the toolbox
		gecharts.WithXAxisOpts(opts.XAxis{Type: "category", Data: labels,
			AxisLabel: &opts.AxisLabel{Show: opts.Bool(true), Interval: "0", Rotate: rotate, Width: 90, Overflow: "truncate"}}),
		gecharts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName, Scale: opts.Bool(false)}),
		gecharts.WithAnimation(false),
	)
	c.SetXAxis(labels)
	c.AddSeries(m.Metric, nil, gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) {
		s.Data = data
		s.Label = &opts.Label{Show: opts.Bool(true), Position: "top", FontSize: 11, Formatter: string(barLabel)}
		s.BarMaxWidth = "48"
	}))
	ext := &extender{top: map[string]any{metaKey: map[string]string{"metric": m.Metric, "unit": m.Unit}}}
	if len(labels) > upright {
		// Many bars in a narrow column: values above them would print over
		// each other, so each is written up its own bar.
		ext.series = []map[string]any{{"label": map[string]any{"show": true, "position": "insideBottom", "rotate": 90,
			"align": "left", "verticalAlign": "middle", "distance": 6, "fontSize": 11, "color": "#222", "formatter": barLabel}}}
	}
	return optionJSON(c, ext)
}

// upright is the most bars whose values are written above them; more are
// written up the bars.
const upright = 4
