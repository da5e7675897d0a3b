package charts

import (
	"math"

	"schedlab/report"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// ParallelHeight is the height of a parallel-coordinates chart, in CSS
// pixels.
const ParallelHeight = 400

// Parallel draws a report.Parallel: one vertical axis per Axes entry
// (names on category axes, numbers otherwise), one series per group, its
// rows as polylines; dragging along an axis selects an interval there
// (ECharts' axis brushing), so a reader keeps the lines that pass through
// it.
func Parallel(p report.Parallel) templ.Component {
	return component("parallel", p.Title, ParallelHeight, func() ([]byte, error) { return ParallelOption(p) })
}

// ParallelOption returns the ECharts option of Parallel as JSON. A value
// on a category axis is written as its category's name; rows with a value
// that is not finite, not a category index, or not positive on a log
// axis are skipped.
func ParallelOption(p report.Parallel) ([]byte, error) {
	// The axes as maps: go-echarts' ParallelAxis has no "scale", and a
	// value axis forced to start at zero squeezes γ = 1.1 … 1.3 into a
	// sliver of its height.
	axes := make([]map[string]any, len(p.Axes))
	for j, a := range p.Axes {
		axes[j] = map[string]any{"dim": j, "name": a.Name, "type": "value", "scale": true}
		switch {
		case len(a.Categories) > 0:
			axes[j]["type"], axes[j]["data"] = "category", a.Categories
			delete(axes[j], "scale")
		case a.Log:
			axes[j]["type"] = "log"
		}
	}
	c := gecharts.NewParallel()
	c.SetGlobalOptions(
		gecharts.WithTitleOpts(opts.Title{Title: p.Title, Show: opts.Bool(false)}),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(p.Groups) > 0), Type: "scroll", Top: "0", Left: "center", Width: "70%"}),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(false)}),
		gecharts.WithToolboxOpts(toolbox(p.Title, false)),
		gecharts.WithParallelComponentOpts(opts.ParallelComponent{Left: "48", Right: "96", Top: "64", Bottom: "32"}),
		gecharts.WithAnimation(false),
	)
	rows := 0
	for _, g := range p.Groups {
		rows += len(g.Rows)
	}
	// Many lines: thin and faint, so that density shows.
	opacity := 0.7
	if rows > 200 {
		opacity = 0.25
	}
	for _, g := range p.Groups {
		data := make([]opts.ParallelData, 0, len(g.Rows))
	rows:
		for _, row := range g.Rows {
			if len(row) != len(p.Axes) {
				continue
			}
			values := make([]any, len(row))
			for j, v := range row {
				a := p.Axes[j]
				switch {
				case math.IsNaN(v) || math.IsInf(v, 0):
					continue rows
				case len(a.Categories) > 0:
					if v != math.Trunc(v) || v < 0 || int(v) >= len(a.Categories) {
						continue rows
					}
					values[j] = a.Categories[int(v)]
				case a.Log && v <= 0:
					continue rows
				default:
					values[j] = v
				}
			}
			data = append(data, opts.ParallelData{Value: values})
		}
		c.AddSeries(g.Name, data, gecharts.WithLineStyleOpts(opts.LineStyle{Width: 1, Opacity: opts.Float(float32(opacity))}))
	}
	return optionJSON(c, &extender{top: map[string]any{"parallelAxis": axes}})
}
