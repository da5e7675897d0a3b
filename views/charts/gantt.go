package charts

import (
	"hash/fnv"
	"math"
	"schedlab/report"
	"unicode/utf8"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Gantt sizes, in CSS pixels, and limits.
const (
	GanttLanePx      = 24  // height given to each lane
	GanttChromePx    = 120 // toolbox, axis, axis name and x slider
	GanttMinHeight   = 200
	GanttMaxHeight   = 900 // beyond this the y slider scrolls the lanes
	GanttLaneZoomMin = 20  // more lanes than this get a y slider
	// GanttProgressive is how many bars ECharts draws per frame once a
	// Gantt has at least that many bars (series progressive and
	// progressiveThreshold), so 30,000 bars never block the page.
	GanttProgressive = 4000
)

// Bar kind codes, as written in the data rows (column KindCol).
const (
	KindCodeJob      = 0 // "" or "job" (and any unknown kind): filled with the group colour
	KindCodeLocal    = 1 // "local": owner load, filled grey
	KindCodeAlt      = 2 // "alt": considered window, outlined in the group colour
	KindCodeReserved = 3 // "reserved": translucent group colour with a border
	KindCodeMoved    = 4 // "moved": a job's window that a shift moved, filled with a thick dark border
	KindCodeClash    = 5 // "collision": a planned bar overlapping another on its lane, translucent with a red border
)

// Columns of a Gantt data row: [lane, start, end, colour, kind, label, group].
// colour indexes GanttMeta.Colors, label GanttMeta.Labels, group
// GanttMeta.Groups, kind is a KindCode*.
const (
	LaneCol = iota
	StartCol
	EndCol
	ColourCol
	KindCol
	LabelCol
	GroupCol
	ganttCols
)

// LocalGrey is the fill of Kind "local" bars.
const LocalGrey = "#9e9e9e"

// palette is the group colours; a group's colour is
// palette[fnv32a(group) % len(palette)], so it is the same on every page
// and every run. The empty group takes palette[0]. No greys: grey means
// "local". Two groups can share a colour (20 colours).
var palette = []string{
	"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de",
	"#3ba272", "#fc8452", "#9a60b4", "#ea7ccc", "#1f77b4",
	"#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a",
}

// GanttMeta is the lookup tables a Gantt's data rows index into. It travels
// in the option under the key "schedlab" and the JavaScript functions read
// it as M.
type GanttMeta struct {
	Lanes  []string `json:"lanes"`
	Labels []string `json:"labels"` // Labels[0] is ""
	Groups []string `json:"groups"` // Groups[0] is ""
	Colors []string `json:"colors"` // palette then LocalGrey
	Kinds  []string `json:"kinds"`  // names of the kind codes, for the tooltip
	Unit   string   `json:"unit"`
	// Sec is how many seconds one Unit is (0: the unit does not convert,
	// as slots): the tooltip writes durations for people from it.
	Sec float64 `json:"sec"`
	// Moved[i] is 1 when data row i moved against the compare page's
	// first panel (GanttPanel), else 0; nil outside compare panels.
	Moved []int8 `json:"moved,omitempty"`
}

// GroupColour returns the palette index of a group.
func GroupColour(group string) int {
	if group == "" {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(group))
	return int(h.Sum32() % uint32(len(palette)))
}

// LaneLabelWidth is the width, in pixels, that the lane names get: the
// longest name in full (about 7 px a character at 12 px), from 60 px and
// at most 320 px, past which a name is cut and its tooltip names it. A
// fixed 140 px cut "Intel Core i7 3960X ×1" to "Intel Core i7 3960X ..."
// beside its twin.
func LaneLabelWidth(lanes []string) int {
	longest := 0
	for _, l := range lanes {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	return clampInt(7*longest+8, 60, 320)
}

// kindCode maps Bar.Kind to its code.
func kindCode(kind report.BarKind) int {
	switch kind {
	case report.BarLocal:
		return KindCodeLocal
	case report.BarAlt:
		return KindCodeAlt
	case report.BarReserved:
		return KindCodeReserved
	case report.BarMoved:
		return KindCodeMoved
	case report.BarCollision:
		return KindCodeClash
	}
	return KindCodeJob
}

// GanttHeight is the element height for a Gantt with the given lanes.
func GanttHeight(lanes int) int {
	return clampInt(GanttChromePx+GanttLanePx*lanes, GanttMinHeight, GanttMaxHeight)
}

// ganttRenderItem draws one bar: a rect from start to end on its lane, 70%
// of the lane high, clipped to the grid with clipRectByRect, styled by kind,
// with its label inside only when the bar is wider than the label's text
// (measured once per label in the label font, echarts.format.getTextRect);
// a narrower bar names its job in the tooltip only. On a compare panel whose element has
// data-highlight="moved", bars that moved against the first panel
// (M.moved) get a dark outline and stay opaque, the others fade.
var ganttRenderItem = jsFunc(`function (params, api) {
  var lane = api.value(0);
  var a = api.coord([api.value(1), lane]);
  var b = api.coord([api.value(2), lane]);
  var h = Math.max(Math.min(api.size([0, 1])[1] * 0.7, 20), 2);
  var cs = params.coordSys;
  var rect = echarts.graphic.clipRectByRect(
    {x: a[0], y: a[1] - h / 2, width: Math.max(b[0] - a[0], 1), height: h},
    {x: cs.x, y: cs.y, width: cs.width, height: cs.height});
  if (!rect) { return null; }
  var kind = api.value(4);
  var color = M.colors[api.value(3)];
  var style = {fill: color, stroke: "#fff", lineWidth: 0.5};
  var ink = "#fff";
  if (kind === 1) { ink = "#222"; }
  else if (kind === 2) { style = {fill: "rgba(0,0,0,0)", stroke: color, lineWidth: 1.5}; ink = color; }
  else if (kind === 3) { style = {fill: color, opacity: 0.45, stroke: color, lineWidth: 1}; ink = "#222"; }
  else if (kind === 4) { style = {fill: color, stroke: "#111", lineWidth: 2.5}; }
  else if (kind === 5) { style = {fill: color, opacity: 0.5, stroke: "#c0392b", lineWidth: 2}; ink = "#222"; }
  var z2 = kind === 2 || kind === 4 ? 2 : 1;
  if (M.moved && el.getAttribute && el.getAttribute("data-highlight") === "moved") {
    if (M.moved[params.dataIndex]) { style.stroke = "#111"; style.lineWidth = 2; style.opacity = 1; z2 = 3; }
    else { style.opacity = 0.18; ink = "rgba(0,0,0,0)"; }
  }
  var e = {type: "rect", shape: rect, style: style, z2: z2};
  var li = api.value(5);
  var label = M.labels[li];
  if (label && h >= 10) {
    M.textWidth = M.textWidth || {};
    var tw = M.textWidth[li];
    if (tw === undefined) { tw = M.textWidth[li] = echarts.format.getTextRect(label, "11px sans-serif").width; }
    if (rect.width >= tw + 6) {
      e.textContent = {style: {text: label, fill: ink, fontSize: 11, fontFamily: "sans-serif"}};
      e.textConfig = {position: "inside"};
    }
  }
  return e;
}`)

// ganttTimeLabel rounds time axis labels to 2 decimals with thousands
// separators: the axis ends at the last bar's end, which is rarely round.
var ganttTimeLabel = jsFunc(`function (v) { return echarts.format.addCommas(Math.round(v * 100) / 100); }`)

// ganttTooltip shows label, lane, start, end (in the Gantt's unit),
// duration (for people: report.HumanDuration's text when the unit
// converts to seconds, M.sec seconds a unit; else a count of the unit,
// report.FormatCount's text), and group and kind when set; every user string
// goes through echarts.format.encodeHTML.
var ganttTooltip = jsFunc(`function (p) {
  var v = p.value;
  var f = echarts.format.encodeHTML;
  var n = function (x) { return String(Math.round(x * 1000) / 1000); };
  var two = function (a, ua, b, ub) { return b === 0 ? a + " " + ua : a + " " + ua + " " + b + " " + ub; };
  var human = function (sec) {
    if (!isFinite(sec)) { return String(sec); }
    if (sec < 0) { return "\u2212" + human(-sec); }
    if (sec >= 1e15) { return String(Math.round(sec / 86400 * 100) / 100) + " d"; }
    if (sec === 0) { return "0 s"; }
    if (sec < 0.9995) { return Math.round(sec * 1000) + " ms"; }
    if (sec < 9.95) { return (Math.round(sec * 10) / 10) + " s"; }
    if (sec < 59.5) { return Math.round(sec) + " s"; }
    var s = Math.round(sec);
    if (s < 3600) { return two(Math.floor(s / 60), "min", s % 60, "s"); }
    var m = Math.round(sec / 60);
    if (m < 1440) { return two(Math.floor(m / 60), "h", m % 60, "min"); }
    var h = Math.round(sec / 3600);
    return two(Math.floor(h / 24), "d", h % 24, "h");
  };
  var count = function (x, unit) {
    var t = String(Math.round(x * 100) / 100);
    if (unit === "") { return t; }
    if (t === "1" || t === "-1") { return t + " " + unit.replace(/s$/, ""); }
    return t + " " + (/s$/.test(unit) ? unit : unit + "s");
  };
  var u = M.unit ? " " + f(M.unit) : "";
  var s = p.marker + f(M.labels[v[5]] || "(no label)");
  s += "<br>lane: " + f(M.lanes[v[0]]);
  s += "<br>start: " + n(v[1]) + u + ", end: " + n(v[2]) + u;
  s += "<br>duration: " + f(M.sec > 0 ? human((v[2] - v[1]) * M.sec) : count(v[2] - v[1], M.unit));
  if (M.groups[v[6]]) { s += "<br>group: " + f(M.groups[v[6]]); }
  if (v[4] !== 0) { s += "<br>kind: " + f(M.kinds[v[4]]); }
  return s;
}`)

// dataZoom is go-echarts' DataZoom plus the keys it has no field for.
type dataZoom struct {
	opts.DataZoom
	ZoomOnMouseWheel any    `json:"zoomOnMouseWheel,omitempty"`
	MoveOnMouseWheel *bool  `json:"moveOnMouseWheel,omitempty"`
	MoveOnMouseMove  *bool  `json:"moveOnMouseMove,omitempty"`
	Width            int    `json:"width,omitempty"`
	Height           int    `json:"height,omitempty"`
	Right            string `json:"right,omitempty"`
	Bottom           string `json:"bottom,omitempty"`
	ShowDetail       *bool  `json:"showDetail,omitempty"`
}

// Gantt draws lanes (y, first lane on top) by time (x) with an ECharts
// custom series; see GanttOption.
func Gantt(g report.Gantt) templ.Component {
	return component("gantt", g.Title, GanttHeight(len(g.Lanes)), func() ([]byte, error) { return GanttOption(g) })
}

// GanttPanel is Gantt on the time span [from, to] whatever its bars span
// (panels of several runs share one time axis), for a compare panel: moved[j] says whether bar
// j of g moved against the first panel (Aligned.Moved); the chart
// highlights those when its element's data-highlight is "moved".
func GanttPanel(g report.Gantt, from, to float64, moved []bool) templ.Component {
	var flags []int8
	if moved != nil {
		flags = make([]int8, 0, len(g.Bars))
		for j, b := range g.Bars {
			if !drawable(b, len(g.Lanes)) {
				continue
			}
			var f int8
			if j < len(moved) && moved[j] {
				f = 1
			}
			flags = append(flags, f)
		}
	}
	return component("gantt", g.Title, GanttHeight(len(g.Lanes)), func() ([]byte, error) { return ganttOption(g, &[2]float64{from, to}, flags) })
}

// GanttOption returns the ECharts option of Gantt as JSON: one custom
// series of rows [lane, start, end, colour, kind, label, group] (the *Col
// constants) over GanttMeta under "schedlab", drawn by ganttRenderItem
// and named by ganttTooltip. Lanes on a category y axis (first lane on
// top), time on a value x axis named "time (TimeUnit)" or TimeLabel.
// Colour by Group (GroupColour), style by kind (the KindCode* constants).
// Bars that cannot be drawn are skipped (drawable; Report.Validate rejects
// them anyway). dataZoom on x: inside (ctrl+wheel zooms, so the page still
// scrolls) and a slider; a y slider past GanttLaneZoomMin lanes, showing
// the lanes that fit. Every bar goes to the browser; ECharts draws them
// GanttProgressive per frame and dataZoom filters to the visible window.
func GanttOption(g report.Gantt) ([]byte, error) { return ganttOption(g, nil, nil) }

// ganttOption is GanttOption, on the time span span when it is set, with
// moved (one flag per drawable bar, see GanttMeta.Moved) when it is set.
func ganttOption(g report.Gantt, span *[2]float64, moved []int8) ([]byte, error) {
	d := ganttRows(g)
	d.meta.Moved = moved
	if span != nil && span[0] < span[1] {
		d.lo, d.hi = span[0], span[1]
	}
	height := GanttHeight(len(g.Lanes))
	yZoom := len(g.Lanes) > GanttLaneZoomMin
	right := "24"
	if yZoom {
		right = "48"
	}
	c := gecharts.NewCustom()
	c.SetGlobalOptions(
		gecharts.WithTitleOpts(opts.Title{Title: g.Title, Show: opts.Bool(false)}),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		gecharts.WithToolboxOpts(toolbox(g.Title, false)),
		gecharts.WithGridOpts(opts.Grid{Left: "16", Right: right, Top: "36", Bottom: "64", ContainLabel: opts.Bool(true)}),
		gecharts.WithXAxisOpts(ganttTimeAxis(g, d)),
		gecharts.WithYAxisOpts(opts.YAxis{Type: "category", Data: d.meta.Lanes, Inverse: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Show: opts.Bool(true), Width: LaneLabelWidth(d.meta.Lanes), Overflow: "truncate"},
			SplitLine: &opts.SplitLine{Show: opts.Bool(true)}}),
		gecharts.WithAnimation(false),
	)
	c.AddSeries(g.Title, nil, gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) {
		s.Data = d.rows
		s.RenderItem = ganttRenderItem
		s.Encode = &opts.Encode{X: []int{StartCol, EndCol}, Y: LaneCol}
		s.SeriesTooltip = &opts.SeriesTooltip{Formatter: ganttTooltip}
	}))
	ext := &extender{
		series: []map[string]any{{
			"dimensions":           []string{"lane", "start", "end", "colour", "kind", "label", "group"},
			"progressive":          GanttProgressive,
			"progressiveThreshold": GanttProgressive,
			// Labels of bars that overlap (a plan before its collisions
			// are resolved) would print over each other: the later ones
			// are hidden; the tooltip names every bar.
			"labelLayout": map[string]any{"hideOverlap": true},
		}},
		top: map[string]any{"dataZoom": ganttZooms(len(g.Lanes), height, yZoom), metaKey: d.meta},
	}
	return optionJSON(c, ext)
}

// ganttData is a Gantt as series rows and the lookup tables they index,
// with the time span of the bars drawn.
type ganttData struct {
	meta   GanttMeta
	rows   [][ganttCols]float64
	lo, hi float64
}

// ganttRows turns the bars into rows, interning labels and groups; bars on
// no lane, with non-finite times or ending before they start are skipped.
func ganttRows(g report.Gantt) ganttData {
	d := ganttData{
		meta: GanttMeta{
			Lanes:  g.Lanes,
			Labels: []string{""},
			Groups: []string{""},
			Colors: append(append([]string{}, palette...), LocalGrey),
			Kinds:  []string{"job", "local", "alt", "reserved", "moved", "collision"},
			Unit:   g.TimeUnit,
		},
		rows: make([][ganttCols]float64, 0, len(g.Bars)),
		lo:   math.Inf(1), hi: math.Inf(-1),
	}
	if d.meta.Lanes == nil {
		d.meta.Lanes = []string{}
	}
	d.meta.Sec, _ = report.SecondsPer(g.TimeUnit)
	greyIdx := len(palette)
	labelIdx := map[string]int{"": 0}
	groupIdx := map[string]int{"": 0}
	index := func(m map[string]int, list *[]string, s string) int {
		i, ok := m[s]
		if !ok {
			i = len(*list)
			m[s] = i
			*list = append(*list, s)
		}
		return i
	}
	for _, b := range g.Bars {
		if !drawable(b, len(g.Lanes)) {
			continue
		}
		k := kindCode(b.Kind)
		colour := GroupColour(b.Group)
		if k == KindCodeLocal {
			colour = greyIdx
		}
		d.rows = append(d.rows, [ganttCols]float64{
			LaneCol:   float64(b.Lane),
			StartCol:  b.Start,
			EndCol:    b.End,
			ColourCol: float64(colour),
			KindCol:   float64(k),
			LabelCol:  float64(index(labelIdx, &d.meta.Labels, b.Label)),
			GroupCol:  float64(index(groupIdx, &d.meta.Groups, b.Group)),
		})
		d.lo, d.hi = math.Min(d.lo, b.Start), math.Max(d.hi, b.End)
	}
	return d
}

// drawable says whether a bar can be drawn on a Gantt of lanes lanes: on
// a lane, with finite times, not ending before it starts.
func drawable(b report.Bar, lanes int) bool {
	return b.Lane >= 0 && b.Lane < lanes && !math.IsNaN(b.Start) && !math.IsInf(b.Start, 0) &&
		!math.IsNaN(b.End) && !math.IsInf(b.End, 0) && b.End >= b.Start
}

// ganttTimeAxis is the time axis in the Gantt's unit, spanning its bars,
// named TimeLabel or "time (TimeUnit)".
func ganttTimeAxis(g report.Gantt, d ganttData) opts.XAxis {
	timeName := g.TimeLabel
	if timeName == "" {
		timeName = "time"
		if g.TimeUnit != "" {
			timeName += " (" + g.TimeUnit + ")"
		}
	}
	x := opts.XAxis{Type: "value", Name: timeName, NameLocation: "middle", NameGap: 24, Scale: opts.Bool(true),
		SplitLine: &opts.SplitLine{Show: opts.Bool(true)}, AxisLabel: &opts.AxisLabel{Formatter: ganttTimeLabel}}
	if len(d.rows) > 0 || d.lo < d.hi {
		x.Min, x.Max = d.lo, d.hi
	}
	return x
}

// ganttZooms are the time zooms (Ctrl+wheel and a slider), and for many
// lanes a lane slider showing as many lanes as the chart's height fits.
func ganttZooms(lanes, height int, yZoom bool) []dataZoom {
	f := false
	zooms := []dataZoom{
		{DataZoom: opts.DataZoom{Type: "inside", XAxisIndex: 0, FilterMode: "weakFilter"},
			ZoomOnMouseWheel: "ctrl", MoveOnMouseWheel: &f},
		{DataZoom: opts.DataZoom{Type: "slider", XAxisIndex: 0, FilterMode: "weakFilter"},
			Height: 16, Bottom: "6", ShowDetail: &f},
	}
	if yZoom {
		end := float32(100)
		if visible := (height - GanttChromePx) / GanttLanePx; visible < lanes {
			end = float32(100 * float64(visible) / float64(lanes))
		}
		zooms = append(zooms, dataZoom{
			DataZoom: opts.DataZoom{Type: "slider", YAxisIndex: 0, FilterMode: "weakFilter", Start: 0, End: end},
			Width:    16, Right: "8", ShowDetail: &f,
		})
	}
	return zooms
}
