package charts

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"schedlab/report"
	"schedlab/static"
)

const hostile = `</script><script>alert(1)</script><!--"'&`

// hostileComponents puts the hostile string (and a fake FuncOpts marker)
// in every user-controlled field.
func hostileComponents() map[string]templ.Component {
	marker := "__f__alert(1)__f__"
	return map[string]templ.Component{
		"plot": Plot(report.Plot{Title: hostile, XLabel: hostile, YLabel: marker, Lines: []report.Line{
			{Name: hostile, Points: [][2]float64{{1, 2}}}, {Name: marker, Points: [][2]float64{{1, 3}}},
		}}),
		"gantt": Gantt(report.Gantt{Title: hostile, TimeUnit: hostile, Lanes: []string{hostile, marker}, Bars: []report.Bar{
			{Lane: 0, Start: 0, End: 1, Label: hostile, Group: hostile, Kind: hostile},
			{Lane: 1, Start: 0, End: 1, Label: marker, Group: marker},
		}}),
		"graph": Graph(report.Graph{Title: hostile, Layout: "dag", Nodes: []report.GraphNode{
			{ID: hostile, Label: hostile, Group: hostile}, {ID: marker, Level: 1},
		}, Edges: []report.GraphEdge{{Source: hostile, Target: marker, Label: hostile, Kind: hostile}}}),
		"heatmap": Heatmap(report.Heatmap{Title: hostile, XLabel: hostile, YLabel: hostile,
			X: []string{hostile}, Y: []string{marker}, Values: [][]float64{{1}}}),
	}
}

// Hostile labels stay text: the element's attributes are escaped, no
// script is written, and in the option JSON they are strings (with <, >
// and & escaped) that never become code: Script holds only this package's
// functions.
func TestHostileLabelsStayTextInTheElementAndTheOption(t *testing.T) {
	for kind, c := range hostileComponents() {
		t.Run(kind, func(t *testing.T) {
			doc, raw, sink := renderSink(t, c)
			assertChart(t, doc, kind, hostile)
			if strings.Contains(raw, "<script") || strings.Contains(raw, "alert(1)</") {
				t.Errorf("the element lets the label out: %s", raw)
			}
			js := string(sink.JSON())
			if strings.Contains(js, "</") || strings.Contains(js, "<!--") || !strings.Contains(js, `\u003cscript\u003ealert(1)`) {
				t.Errorf("the option does not escape the label: %.300s", js)
			}
			var v []any
			if err := json.Unmarshal(sink.JSON(), &v); err != nil || len(v) != 1 {
				t.Errorf("the sink's JSON: %v, %d options", err, len(v))
			}
		})
	}
	if strings.Contains(string(Script()), "alert(1)") {
		t.Error("Script holds a user string")
	}
}

// Charts of one page go to one Sink, each element naming its place.
func TestChartsIndexTheirSinkInPageOrder(t *testing.T) {
	doc, _, sink := renderSink(t, templ.Join(Plot(twoLines()), Heatmap(heat())))
	var idx []string
	doc.Find(`[data-testid=chart]`).Each(func(_ int, s *goquery.Selection) { idx = append(idx, s.AttrOr("data-chart-index", "")) })
	if strings.Join(idx, ",") != "0,1" || sink.Len() != 2 {
		t.Fatalf("indices %v, %d options", idx, sink.Len())
	}
	var opts []map[string]any
	if err := json.Unmarshal(sink.JSON(), &opts); err != nil || opts[1]["visualMap"] == nil {
		t.Errorf("the second option is not the heat map's: %v", err)
	}
	// Without a Sink, an element with nothing to draw.
	var b bytes.Buffer
	if err := Plot(twoLines()).Render(context.Background(), &b); err != nil || strings.Contains(b.String(), "data-chart-src") {
		t.Errorf("no sink: %v, %s", err, b.String())
	}
}

func TestJSFunctionsAreFuncOptsAndInTheScript(t *testing.T) {
	if len(jsFuncs) < 5 {
		t.Fatalf("only %d registered functions", len(jsFuncs))
	}
	script := string(Script())
	for _, f := range jsFuncs {
		s := string(f)
		if !strings.HasPrefix(s, "__f__function") || !strings.HasSuffix(s, "__f__") {
			t.Errorf("not a FuncOpts function: %.40s", s)
		}
		for _, bad := range []string{"//", "</", "<!--", "\n", "\t"} {
			if strings.Contains(s, bad) {
				t.Errorf("function contains %q: %.60s", bad, s)
			}
		}
		key, _ := json.Marshal(s)
		if !strings.Contains(script, string(key)+":"+strings.TrimSuffix(strings.TrimPrefix(s, funcMarker), funcMarker)) {
			t.Errorf("Script lacks %.60s as a key and its code", s)
		}
	}
	if !strings.HasPrefix(ScriptURL(), "/charts.js?v=") {
		t.Errorf("ScriptURL %s", ScriptURL())
	}
}

// harness draws each option of a page's Sink as static/app.js does
// (window.schedlabChart.draw, with Script's functions), with the vendored
// ECharts in node (server-side SVG rendering, a fake document), and
// reports what it drew, what the tooltips say and which top-level keys
// became functions.
const harness = `
const fs = require("fs");
const real = require(process.argv[2]);
const code = fs.readFileSync(process.argv[3], "utf8") + "\n" + fs.readFileSync(process.argv[4], "utf8");
const options = JSON.parse(fs.readFileSync(process.argv[5], "utf8"));
const out = [];
options.forEach(function (option) {
  const r = {};
  try {
    let inst = null;
    const fake = Object.assign(Object.create(real), {
      init: function () { inst = real.init(null, null, {renderer: "svg", ssr: true, width: 900, height: 600}); return inst; },
      getInstanceByDom: function () { return null; }
    });
    const win = {addEventListener: function () {}, echarts: fake};
    const doc = {addEventListener: function () {}, querySelectorAll: function () { return []; }, body: {contains: function () { return true; }}};
    new Function("document", "window", "echarts", code)(doc, win, fake);
    win.schedlabChart.draw({getAttribute: function () { return null; }, setAttribute: function () {}}, option);
    r.funcs = Object.keys(option).filter(function (k) { return typeof option[k] === "function"; });
    if (process.argv[6]) {
      const z = process.argv[6].split(",").map(Number);
      inst.dispatchAction({type: "dataZoom", dataZoomIndex: 0, start: z[0], end: z[1]});
    }
    const svg = inst.renderToSVGString();
    r.items = (svg.match(/ecmeta_series_index="0" ecmeta_data_index=/g) || []).length;
    r.svg = svg;
    const opt = inst.getOption();
    const s0 = opt.series[0];
    const fmt = (s0.tooltip && s0.tooltip.formatter) || (opt.tooltip[0] && opt.tooltip[0].formatter);
    r.tooltips = [];
    if (typeof fmt === "function") {
      (s0.data || []).forEach(function (d) {
        r.tooltips.push(fmt({value: Array.isArray(d) ? d : d.value, marker: "", data: d, dataType: "node", name: d.name}));
      });
      (s0.links || []).forEach(function (d) { r.tooltips.push(fmt({data: d, dataType: "edge"})); });
    }
    inst.dispose();
  } catch (e) {
    r.error = String(e && e.stack || e);
  }
  out.push(r);
});
console.log(JSON.stringify(out));
`

type drawn struct {
	Funcs    []string `json:"funcs"`
	Items    int      `json:"items"`
	SVG      string   `json:"svg"`
	Tooltips []string `json:"tooltips"`
	Error    string   `json:"error"`
}

// runInECharts renders c and runs its script in node with the vendored
// ECharts. Without node it skips the test, saying so, or fails it under
// SCHEDLAB_REQUIRE_NODE=1, which .ci/run sets after installing node.
func runInECharts(t *testing.T, c templ.Component, zoom ...string) drawn {
	t.Helper()
	_, _, sink := renderSink(t, c)
	return drawInECharts(t, sink.JSON(), zoom...)
}

// drawInECharts draws the one option of a Sink's JSON as a page does.
func drawInECharts(t *testing.T, options []byte, zoom ...string) drawn {
	t.Helper()
	res := drawOptionsInECharts(t, options, 1, zoom...)
	if res[0].Error != "" {
		t.Fatalf("chart script failed in ECharts: %s", res[0].Error)
	}
	return res[0]
}

// drawAllInECharts renders each of cs and draws their options in one node
// process (ECharts loads once, not once a chart), each as drawInECharts
// draws one; a chart whose script failed has its Error set.
func drawAllInECharts(t *testing.T, cs map[string]templ.Component) map[string]drawn {
	t.Helper()
	var names []string
	var options [][]byte
	for name, c := range cs {
		_, _, sink := renderSink(t, c)
		var one []json.RawMessage
		if err := json.Unmarshal(sink.JSON(), &one); err != nil || len(one) != 1 {
			t.Fatalf("%s: %d options (%v), want 1", name, len(one), err)
		}
		names = append(names, name)
		options = append(options, one[0])
	}
	res := drawOptionsInECharts(t, append(append([]byte("["), bytes.Join(options, []byte(","))...), ']'), len(options))
	out := map[string]drawn{}
	for i, name := range names {
		out[name] = res[i]
	}
	return out
}

// drawOptionsInECharts draws the n options of a JSON array in one node
// process, as a page does.
func drawOptionsInECharts(t *testing.T, options []byte, n int, zoom ...string) []drawn {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("SCHEDLAB_REQUIRE_NODE") != "" {
			t.Fatal("node is not installed (apt-get install nodejs): the chart scripts cannot be executed")
		}
		t.Skip("node not installed (apt-get install nodejs; .ci/run does): the chart scripts are not executed")
	}
	dir := t.TempDir()
	files := map[string][]byte{"charts.js": Script(), "options.json": options, "harness.js": []byte(harness)}
	for _, name := range []string{"echarts.min.js", "app.js"} {
		if files[name], err = static.FS.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{filepath.Join(dir, "harness.js"), filepath.Join(dir, "echarts.min.js"), filepath.Join(dir, "charts.js"),
		filepath.Join(dir, "app.js"), filepath.Join(dir, "options.json")}
	out, err := exec.Command(node, append(args, zoom...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var res []drawn
	if err := json.Unmarshal(out, &res); err != nil || len(res) != n {
		t.Fatalf("harness output %v (%d charts drawn, want %d): %.500s", err, len(res), n, out)
	}
	return res
}

// The page's script makes code of this package's functions only: an
// option key holding one becomes it; one holding a user string in the
// FuncOpts form stays a string.
func TestPageScriptTurnsOnlyOwnFunctionsIntoCode(t *testing.T) {
	opt, err := PlotOption(twoLines())
	if err != nil {
		t.Fatal(err)
	}
	var o map[string]any
	json.Unmarshal(opt, &o)
	o["own"], o["user"] = ganttTimeLabel, "__f__alert(1)__f__"
	b, _ := json.Marshal([]any{o})
	if d := drawInECharts(t, b); strings.Join(d.Funcs, ",") != "own" {
		t.Errorf("functions after drawing: %v, want own alone", d.Funcs)
	}
}

func TestGanttScriptDrawsOneRectPerBarInECharts(t *testing.T) {
	g := smallGantt()
	d := runInECharts(t, Gantt(g))
	if d.Items != len(g.Bars) {
		t.Errorf("ECharts drew %d bars, want %d", d.Items, len(g.Bars))
	}
	if !strings.Contains(d.SVG, `fill="`+LocalGrey+`"`) {
		t.Errorf("no grey (local) bar in the SVG")
	}
	if !strings.Contains(d.SVG, `fill-opacity="0" stroke="`+palette[GroupColour("bob")]+`"`) {
		t.Errorf("the alt bar is not outlined in bob's colour")
	}
	if !strings.Contains(d.SVG, ">j1<") {
		t.Errorf("no label inside a wide bar")
	}
	want := "j1<br>lane: cpu0<br>start: 0 s, end: 4 s<br>duration: 4 s<br>group: alice"
	if len(d.Tooltips) == 0 || d.Tooltips[0] != want {
		t.Errorf("tooltip %q, want %q", d.Tooltips, want)
	}
}

func TestGanttScriptClipsBarsToTheGrid(t *testing.T) {
	g := smallGantt()
	// Zoomed in on x to 40%..60% of 0..7.5: most bars reach past the grid.
	d := runInECharts(t, Gantt(g), "40,60")
	bars := regexp.MustCompile(`<path d="M(-?[0-9.e+]+) -?[0-9.e+]+l(-?[0-9.e+]+) 0[^"]*"[^>]*ecmeta_series_index="0"`).FindAllStringSubmatch(d.SVG, -1)
	if len(bars) < 2 {
		t.Fatalf("found %d bar paths in the zoomed window, want at least 2 ([0,4) and [2,6) reach into 3..4.5)", len(bars))
	}
	for _, m := range bars {
		x, _ := strconv.ParseFloat(m[1], 64)
		w, _ := strconv.ParseFloat(m[2], 64)
		if x < 0 || x > 900 || x+w < 0 || x+w > 900 {
			t.Errorf("a bar spans x=%v..%v, outside the 900 px chart", x, x+w)
		}
	}
}

func TestChartScriptsRunInEChartsAndEscapeTooltips(t *testing.T) {
	plain := map[string]templ.Component{"plot": Plot(twoLines()), "graph": Graph(tree()), "heatmap": Heatmap(heat())}
	all := hostileComponents()
	for kind, c := range plain {
		all["plain "+kind] = c
	}
	ds := drawAllInECharts(t, all) // one node process for the 7 charts
	for kind := range hostileComponents() {
		t.Run(kind, func(t *testing.T) {
			d := ds[kind]
			if d.Error != "" {
				t.Fatalf("chart script failed in ECharts: %s", d.Error)
			}
			if d.Items == 0 && kind != "plot" {
				t.Errorf("nothing drawn")
			}
			for _, tip := range d.Tooltips {
				if strings.Contains(tip, "<script") || strings.Contains(tip, "</script") {
					t.Errorf("tooltip not escaped: %s", tip)
				}
			}
			if kind != "plot" && len(d.Tooltips) == 0 {
				t.Errorf("no tooltip formatter ran")
			}
		})
	}
	for kind := range plain {
		t.Run("plain "+kind, func(t *testing.T) {
			d := ds["plain "+kind]
			if d.Error != "" {
				t.Fatalf("chart script failed in ECharts: %s", d.Error)
			}
			if d.Items == 0 {
				t.Errorf("nothing drawn")
			}
		})
	}
}

func TestGanttLabelsOnlyInBarsWiderThanTheirText(t *testing.T) {
	g := report.Gantt{Title: "labels", TimeUnit: "s", Lanes: []string{"p0"}, Bars: []report.Bar{
		{Lane: 0, Start: 0, End: 100, Label: "fits"},
		// About 40 px wide on a 900 px chart: wider than the old 28 px
		// cut-off, narrower than its text.
		{Lane: 0, Start: 100, End: 105, Label: "a label much longer than forty pixels"},
	}}
	d := runInECharts(t, Gantt(g))
	if !strings.Contains(d.SVG, ">fits<") {
		t.Errorf("the wide bar's label is not drawn")
	}
	// Bar labels are the 11 px texts (axis labels are 12 px).
	if n := strings.Count(d.SVG, "font-size:11px"); n != 1 {
		t.Errorf("%d bar labels drawn, want 1: a bar narrower than its label must not draw (part of) it; the tooltip alone names it", n)
	}
	if len(d.Tooltips) != 2 || !strings.Contains(d.Tooltips[1], "a label much longer than forty pixels") {
		t.Errorf("tooltips %q: the narrow bar's must name it", d.Tooltips)
	}
}
