// Package charts turns the plots, Gantts, graphs and heat maps of a
// report.Report into ECharts charts, as templ components.
//
// # What each chart shows
//
// Plot, Gantt, Graph and Heatmap (and Bars, Parallel) each draw one kind;
// what a chart shows — axes, colours, bar and edge kinds, labels,
// tooltips, zoom, heights — is the doc of its *Option function
// (PlotOption, GanttOption, GraphOption, HeatmapOption). Every chart gets
// save-as-PNG (file named after the title); titles are not drawn in the
// canvas because the pages put them in a heading. Bars with invalid lanes
// or times, heat map cells outside X×Y and non-finite numbers are
// skipped, not drawn. Bytes per Gantt bar: bench/README.md.
//
// # Rendering
//
// Each component writes an element and no script:
//
//	<div class="chart" data-testid="chart" data-kind="plot|gantt|graph|heatmap"
//	     data-title="…" data-chart-src="URL" data-chart-index="N" style="height:…px"></div>
//
// and puts its option in the context's Sink (WithSink), whose JSON array
// the server serves at URL (the handlers choose it: an immutable endpoint
// of a finished run, compare or experiment, else a one-off key).
// static/app.js fetches each URL once, turns the option's function strings
// into the functions of Script (served at ScriptURL, loaded by the page
// layout after /static/echarts.min.js, ECharts 5.6.0), takes the lookup
// tables out as M, draws, resizes with the window; a part swapped in (a
// running experiment's) is drawn once in place. So the CSP allows no
// inline script at all.
//
// # go-echarts, and what is built beside it
//
// go-echarts v2.6.7 builds the options (NewLine/NewBar/NewScatter, NewCustom
// for the Gantt with renderItem as SingleSeries.RenderItem, NewGraph,
// NewHeatMap, and the opts types); the option is the chart's JSON() map
// (after Validate), marshalled by encoding/json. What v2.6.7 has no field
// for is added as plain JSON through its extension points (extender).
// Its RenderSnippet/Render are not used: they print the option into a
// script with HTML escaping off. Here the option is data (encoding/json
// escapes <, > and &), attributes are HTML-escaped, tooltips escape user
// strings with echarts.format.encodeHTML, and the only JavaScript is this
// package's constant functions (jsFunc, made with opts.FuncOpts, no "//"
// comments since FuncOpts strips newlines): app.js turns exactly those
// strings into code, never a user string that contains "__f__". The
// *Option functions return the option with the functions still as
// FuncOpts strings, for tests and for anyone who wants it without HTML.
//
// # Time frame and compare page
//
// A report's TimeFrame (report.Report.Time) is applied here, as data,
// before drawing (InFrame: Gantt bars and XTime plots in (t − Origin) of
// the display unit, time axes named after the frame); JoinFrames does it
// for a compare page's runs when they share a frame, so their panels and
// merged plots are on one axis. MergePlots overlays one plot title across
// runs; AlignGantts lines up the runs' Gantts of one title as panels
// (GanttPanel) on the same lanes and time span, each bar keeping its
// group's colour, and marks the bars that moved (Aligned.Moved); Bars
// draws one compared metric, one bar per run, the best marked. All pure.
package charts
