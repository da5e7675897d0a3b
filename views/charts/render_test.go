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

	"github.com/a-h/templ"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"schedlab/solvers"
	"schedlab/static"
)

const hostile = `</script><script>alert(1)</script><!--"'&`

// hostileComponents puts the hostile string (and a fake FuncOpts marker)
// in every user-controlled field.
func hostileComponents() map[string]templ.Component {
	marker := "__f__alert(1)__f__"
	return map[string]templ.Component{
		"plot": Plot(solvers.Plot{Title: hostile, XLabel: hostile, YLabel: marker, Lines: []solvers.Line{
			{Name: hostile, Points: [][2]float64{{1, 2}}}, {Name: marker, Points: [][2]float64{{1, 3}}},
		}}),
		"gantt": Gantt(solvers.Gantt{Title: hostile, TimeUnit: hostile, Lanes: []string{hostile, marker}, Bars: []solvers.Bar{
			{Lane: 0, Start: 0, End: 1, Label: hostile, Group: hostile, Kind: hostile},
			{Lane: 1, Start: 0, End: 1, Label: marker, Group: marker},
		}}),
		"graph": Graph(solvers.Graph{Title: hostile, Layout: "dag", Nodes: []solvers.GraphNode{
			{ID: hostile, Label: hostile, Group: hostile}, {ID: marker, Level: 1},
		}, Edges: []solvers.GraphEdge{{Source: hostile, Target: marker, Label: hostile, Kind: hostile}}}),
		"heatmap": Heatmap(solvers.Heatmap{Title: hostile, XLabel: hostile, YLabel: hostile,
			X: []string{hostile}, Y: []string{marker}, Values: [][]float64{{1}}}),
	}
}

func TestHostileLabelsCannotEscapeTheScriptOrAttributes(t *testing.T) {
	for kind, c := range hostileComponents() {
		t.Run(kind, func(t *testing.T) {
			doc, raw := render(t, c)
			assertChart(t, doc, kind, hostile)
			if n := strings.Count(raw, "<script"); n != 1 {
				t.Errorf("%d <script openings, want 1", n)
			}
			if n := strings.Count(raw, "</script>"); n != 1 {
				t.Errorf("%d </script> closings, want 1", n)
			}
			js := doc.Find("script").Text()
			if strings.Contains(js, "</") || strings.Contains(js, "<!--") {
				t.Errorf("script contains </ or <!--")
			}
			if strings.Contains(js, "alert(1)") && !strings.Contains(js, `"__f__alert(1)__f__"`) &&
				!strings.Contains(js, `\u003cscript\u003ealert(1)`) {
				t.Errorf("alert(1) appears outside a JSON string")
			}
			if regexp.MustCompile(`[^"_]alert\(1\)__f__`).MatchString(js) || strings.Contains(js, `:alert(1)`) {
				t.Errorf("a user marker became code")
			}
		})
	}
}

func TestChartIDsAreRandomPerRender(t *testing.T) {
	idPat := regexp.MustCompile(`^chart-[0-9a-f]{16}$`)
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		doc, _ := render(t, Plot(twoLines()))
		id := chartDiv(t, doc).AttrOr("id", "")
		if !idPat.MatchString(id) {
			t.Fatalf("id %q", id)
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
}

func TestScriptCarriesTheCSPNonce(t *testing.T) {
	var b bytes.Buffer
	ctx := templ.WithNonce(context.Background(), `n"1`)
	if err := Plot(twoLines()).Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<script nonce="n&#34;1">`) {
		t.Errorf("no escaped nonce on the script: %.300s", b.String())
	}
}

func TestJSFunctionsAreSafeToInline(t *testing.T) {
	if len(jsFuncs) < 5 {
		t.Fatalf("only %d registered functions", len(jsFuncs))
	}
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
	}
}

func TestToScriptTurnsOnlyOwnFunctionsIntoCode(t *testing.T) {
	in, _ := json.Marshal(map[string]any{"a": ganttRenderItem, "b": "__f__alert(1)__f__"})
	out := string(toScript(in))
	if !strings.Contains(out, `"a":function (params, api)`) {
		t.Errorf("own function not inlined: %.80s", out)
	}
	if !strings.Contains(out, `"b":"__f__alert(1)__f__"`) {
		t.Errorf("user marker changed: %s", out[strings.Index(out, `"b"`):])
	}
}

// harness runs each chart script of a page with the vendored ECharts in
// node (server-side SVG rendering, a fake document) and reports what it
// drew and what the tooltips say.
const harness = `
const fs = require("fs");
const real = require(process.argv[2]);
const html = fs.readFileSync(process.argv[3], "utf8");
const re = /<script[^>]*>([\s\S]*?)<\/script>/g;
const out = [];
let m;
while ((m = re.exec(html))) {
  const r = {};
  try {
    let inst = null;
    const fake = Object.assign(Object.create(real), {
      init: function () { inst = real.init(null, null, {renderer: "svg", ssr: true, width: 900, height: 600}); return inst; },
      getInstanceByDom: function () { return null; }
    });
    const doc = {getElementById: function () { return {}; }, body: {contains: function () { return true; }}};
    new Function("document", "window", "echarts", m[1])(doc, {addEventListener: function () {}}, fake);
    if (process.argv[4]) {
      const z = process.argv[4].split(",").map(Number);
      inst.dispatchAction({type: "dataZoom", dataZoomIndex: 0, start: z[0], end: z[1]});
    }
    const svg = inst.renderToSVGString();
    r.items = (svg.match(/ecmeta_series_index="0" ecmeta_data_index=/g) || []).length;
    r.texts = (svg.match(/<text/g) || []).map(function () { return 1; }).length;
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
}
console.log(JSON.stringify(out));
`

type drawn struct {
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
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("SCHEDLAB_REQUIRE_NODE") != "" {
			t.Fatal("node is not installed (apt-get install nodejs): the chart scripts cannot be executed")
		}
		t.Skip("node not installed (apt-get install nodejs; .ci/run does): the chart scripts are not executed")
	}
	dir := t.TempDir()
	lib, err := static.FS.ReadFile("echarts.min.js")
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := c.Render(context.Background(), &page); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"echarts.min.js": lib, "page.html": page.Bytes(), "harness.js": []byte(harness)}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string{filepath.Join(dir, "harness.js"), filepath.Join(dir, "echarts.min.js"), filepath.Join(dir, "page.html")}, zoom...)
	out, err := exec.Command(node, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var res []drawn
	if err := json.Unmarshal(out, &res); err != nil || len(res) != 1 {
		t.Fatalf("harness output %v: %.500s", err, out)
	}
	if res[0].Error != "" {
		t.Fatalf("chart script failed in ECharts: %s", res[0].Error)
	}
	return res[0]
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
	for kind, c := range hostileComponents() {
		t.Run(kind, func(t *testing.T) {
			d := runInECharts(t, c)
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
	for kind, c := range map[string]templ.Component{"plot": Plot(twoLines()), "graph": Graph(tree()), "heatmap": Heatmap(heat())} {
		t.Run("plain "+kind, func(t *testing.T) {
			if d := runInECharts(t, c); d.Items == 0 {
				t.Errorf("nothing drawn")
			}
		})
	}
}

func TestGanttLabelsOnlyInBarsWiderThanTheirText(t *testing.T) {
	g := solvers.Gantt{Title: "labels", TimeUnit: "s", Lanes: []string{"p0"}, Bars: []solvers.Bar{
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

// TestJSFuncIsFuncOpts: jsFunc makes the string go-echarts's FuncOpts
// makes, for every function this package registers (their sources have
// newlines and tabs) and for text with both at either end.
func TestJSFuncIsFuncOpts(t *testing.T) {
	n := len(jsFuncs)
	srcs := []string{"\tfunction (p) {\n\treturn p;\n}\n", "a\t\tb\n\nc", "", "no breaks"}
	for _, src := range srcs {
		if got, want := jsFunc(src), opts.FuncOpts(src); got != want {
			t.Errorf("jsFunc(%q) = %q, FuncOpts %q", src, got, want)
		}
	}
	jsFuncs = jsFuncs[:n]
	for _, f := range []types.FuncStr{ganttRenderItem, ganttTooltip, barLabel, barTooltip} {
		if !strings.HasPrefix(string(f), "__f__function") || strings.ContainsAny(string(f), "\n\t") {
			t.Errorf("registered function %.40q… is not in FuncOpts form", f)
		}
	}
}
