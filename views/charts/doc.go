// Package charts turns the plots, Gantts, graphs and heat maps of a
// solvers.Report into ECharts charts, as templ components.
//
// # What each chart shows
//
//   - Plot: one series per Line. Kind "line" (default) and "scatter" use a
//     numeric x axis (type value), "bar" a category x axis made of the
//     sorted distinct x values (a line without a point at some x leaves a
//     gap). XLog/YLog make log axes (points ≤ 0 on a log axis are dropped:
//     a log axis cannot show them; XLog is ignored for bars). Dashed lines
//     are reference curves: dashed for lines, translucent for bars and
//     scatter. Legend, axis names, axis tooltip (cross pointer), toolbox
//     with save-as-PNG, box zoom and reset. Lines from 2000 points are
//     down-sampled by ECharts (LTTB), scatter series drawn in large mode.
//     A line point with a Mark is drawn as a 12 px triangle whose data
//     name is the mark (an experiment's failed runs at that point); a
//     line with marks shows its symbols however long it is.
//     Regions (reference regions, e.g. a paper's claimed range) are one
//     silent, translucent grey markArea on the first series, each
//     rectangle labelled inside at its top; they are not series (no legend
//     entry, no tooltip) and are not drawn on bar plots.
//   - Gantt: lanes on a category y axis (first lane on top), time on a
//     value x axis named "time (TimeUnit)". One ECharts custom series; its
//     renderItem draws one rect per bar, 70% of the lane high (at most 20
//     px), clipped to the grid with echarts.graphic.clipRectByRect. Colour
//     by Group: Palette[fnv32a(group) % 20] (stable across pages and runs;
//     two groups may share a colour). Kind "local" is grey (LocalGrey),
//     "alt" outlined in the group colour with a transparent fill, drawn
//     above the others, "reserved" translucent with a border, anything
//     else filled. A bar's label is drawn inside it only when the bar is
//     wider than the text (measured with echarts.format.getTextRect);
//     the tooltip names every bar. Compare panels (GanttPanel) can
//     outline the bars that moved against the first panel and fade the
//     others. Tooltip: label, lane, start, end (in the unit), duration
//     written for people ("11 h 47 min", solvers.HumanDuration's text,
//     when the unit converts to seconds; else a count, "3 slots"), and
//     group and kind when set. The axis is named TimeLabel when set.
//     dataZoom on x: inside (drag pans, ctrl+wheel
//     zooms, so the page still scrolls) and a slider; a y slider when there
//     are more than 20 lanes, initially showing the lanes that fit. Height:
//     120 px + 24 px per lane, between 200 and 900 px.
//   - Graph: an ECharts graph series. Layout "tree" and "dag": positions
//     computed here (layered.go), one row per Level (or, for a DAG given
//     without levels, per longest path from a source) (90 px apart, more for
//     wide shallow graphs so they fill the height), 70 px between nodes,
//     each row ordered to reduce edge crossings by the layered method of
//     Sugiyama, Tagawa and Toda (1981): edges spanning rows get a dummy
//     node per row crossed, rows are swept down and up ordering each by
//     the barycentre of its neighbours, and the order with the fewest
//     crossings (counted as inversions, Barth, Jünger and Mutzel 2004) is
//     kept; rows centred. Layout "force" otherwise. Edge kinds: "deleted"
//     dashed grey, "back" red and curved (curveness 0.3), "tree" dark and
//     thicker, "critical" orange and thickest (a critical path); the nodes
//     a critical edge joins are larger, ringed orange, and always
//     labelled. Arrows at the target. Nodes coloured by Group with a
//     legend when there are several groups. Labels (on a translucent white
//     box) of tree and DAG layouts show only while neighbours in a row are
//     at least as far apart on screen as most labels are wide: a large
//     graph opens without labels and shows them once zoomed in (roam) past
//     that point; hover shows any node's label. Overlapping labels are
//     hidden (labelLayout hideOverlap). Force layouts label every node up
//     to 150 nodes, on hover beyond. Edge labels when any edge has one
//     (in tree and DAG layouts with the node labels, up to 80 edges; the
//     tooltip names any edge).
//   - Heatmap: Values[y][x] as cells on category axes X (bottom) and Y
//     (first row on top), a continuous visual map from the min to the max
//     finite value, values written in the cells up to 400 cells, tooltip
//     "row · column: value".
//
// Every chart also gets save-as-PNG (file named after the title); titles
// are not drawn in the canvas because the pages put them in a heading.
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
// go-echarts v2.6.7 builds the options: charts.NewLine/NewBar/NewScatter
// for plots, NewCustom for the Gantt (type "custom"; renderItem is
// SingleSeries.RenderItem, set with opts.FuncOpts), NewGraph, NewHeatMap,
// and the opts types for axes, legend, tooltip, toolbox, data zoom, visual
// map. The option is the chart's JSON() map (after Validate), marshalled by
// encoding/json. Four things are added through go-echarts' extension points
// (a ConfigurationVisitor, and WithSeriesOpts) because v2.6.7 has no field
// for them, and so are built here as plain JSON:
//
//   - series keys progressive, progressiveThreshold and dimensions (the
//     chart-level WithProgressive of v2.6.7 writes the animation flag
//     instead, and progressive belongs to the series anyway), and LTTB
//     sampling and large mode for long plot series;
//   - the dataZoom list of the Gantt (go-echarts' DataZoom has no
//     zoomOnMouseWheel, moveOnMouseWheel, width, height, right, bottom or
//     showDetail) and the heat map's visualMap (go-echarts' min/max are
//     float32 with omitempty, which drops a max of 0);
//   - compact data: Gantt rows are plain arrays [lane, start, end, colour,
//     kind, label, group] instead of {value: …} objects; graph nodes carry
//     an id and links a text (edge label) and kind;
//   - the lookup tables the JavaScript functions read (GanttMeta,
//     HeatmapMeta) travel in the option under the top-level key "schedlab";
//     the init script takes them out as M before setOption.
//
// go-echarts' own RenderSnippet/Render are not used: they print the option
// into a script with HTML escaping off. Here the option is data (JSON, with
// encoding/json's escaping of <, > and &), attributes are HTML-escaped,
// tooltips escape user strings with echarts.format.encodeHTML, and the
// only JavaScript is this package's constant functions (jsFunc, made with
// opts.FuncOpts): app.js turns exactly those strings into code, never a
// user string that happens to contain "__f__". The functions contain no
// "//" comments (FuncOpts strips newlines).
//
// *Option functions (PlotOption, GanttOption, GraphOption, HeatmapOption)
// return the option JSON with the functions still as FuncOpts strings, for
// tests and for anyone who wants the option without the HTML.
//
// # Time frame
//
// A report's TimeFrame (solvers.Report.Time) is applied here, as data,
// before drawing: InFrame maps every Gantt bar and every XTime plot's x
// (and regions) to (t − Origin) in the display unit, sets the Gantts'
// unit to it and names the time axes after the frame ("time since the
// first submission (h)"). Plots whose x is not time are untouched.
// JoinFrames does it for the runs of a compare page when they share a
// frame (same unit, display unit and origin name; each run from its own
// origin), so their panels and merged plots are on one axis.
//
// # Compare page
//
// MergePlots overlays one plot title across runs; AlignGantts lines up the
// runs' Gantts of one title as panels on the same lanes and time span, each
// bar keeping its group so a job has one colour in every panel (drawn with
// GanttPanel), and marks the bars that moved: those with no bar of the same
// job (label, else group) at the same lane, start and end in the first
// panel. Bars draws one compared metric as a bar chart, one bar per run,
// the best marked. All are pure.
//
// # Limits
//
// A Gantt sends every bar to the browser: about 40–60 bytes of JSON per bar
// (30,000 bars ≈ 1.8 MB, compressed once by the server); ECharts draws them 4,000 per frame and dataZoom
// filters to the visible window. Bars with invalid lanes or times, heat map
// cells outside X×Y and non-finite numbers are skipped, not drawn.
package charts
