package charts

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"
	"sync"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// metaKey is the top-level option key holding the lookup tables (lane names,
// bar labels, colours, ...) that the chart's JavaScript functions read as M.
// The page's script takes it out of the option before setOption.
const metaKey = "schedlab"

// jsFuncs are all the JavaScript functions this package puts into options
// (as opts.FuncOpts strings). They are constants: user data never becomes
// code. Script makes them the functions a page draws with.
var jsFuncs []types.FuncStr

// jsFunc registers a constant JavaScript function for options. The source
// must not contain "//" comments (newlines are stripped) or "</".
func jsFunc(src string) types.FuncStr {
	f := opts.FuncOpts(src)
	jsFuncs = append(jsFuncs, f)
	return f
}

// chart is what every go-echarts chart type offers and the builders use.
type chart interface {
	Validate()
	JSON() map[string]interface{}
	Accept(gecharts.ConfigurationVisitor)
}

// extender is a go-echarts ConfigurationVisitor (the library's extension
// point for options it has no field for): it adds series-level keys and
// top-level keys after go-echarts has built the option map. With
// WithSeriesOpts it builds, as plain JSON, what v2.6.7 has no field for:
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
//     HeatmapMeta) under the top-level key metaKey ("schedlab").
type extender struct {
	gecharts.BaseConfigurationVisitor
	series []map[string]any // extra keys per series, by index
	top    map[string]any   // extra or replaced top-level keys; nil deletes
	err    error            // first marshalling error, reported by optionJSON
}

func (e *extender) VisitSeriesOpt(ms gecharts.MultiSeries) interface{} {
	if len(e.series) == 0 {
		return ms
	}
	out := make([]json.RawMessage, len(ms))
	for i, s := range ms {
		b, err := json.Marshal(s)
		if err != nil {
			e.fail(err)
			continue
		}
		if i < len(e.series) && len(e.series[i]) > 0 {
			extra, err := json.Marshal(e.series[i])
			if err != nil {
				e.fail(err)
				continue
			}
			// Splice: {...series...} + {...extra...} -> {...series...,...extra...}.
			// The extra keys are ones SingleSeries has no field for, so no key
			// appears twice.
			joined := make([]byte, 0, len(b)+len(extra))
			joined = append(joined, b[:len(b)-1]...)
			if len(b) > 2 {
				joined = append(joined, ',')
			}
			joined = append(joined, extra[1:]...)
			b = joined
		}
		out[i] = b
	}
	return out
}

func (e *extender) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *extender) Visit(obj map[string]interface{}) {
	for k, v := range e.top {
		if v == nil {
			delete(obj, k)
			continue
		}
		obj[k] = v
	}
}

// optionJSON validates c, lets ext extend it and returns the option JSON.
// encoding/json escapes <, > and & as \u003c, \u003e, \u0026 (also inside
// go-echarts' own MarshalJSON output, which json.Marshal re-compacts), so a
// user string can never close the <script> element it ends up in.
func optionJSON(c chart, ext *extender) ([]byte, error) {
	c.Validate()
	if ext == nil {
		ext = &extender{}
	}
	c.Accept(ext)
	obj := c.JSON()
	if ext.err != nil {
		return nil, ext.err
	}
	return json.Marshal(obj)
}

// A Sink collects the options of the charts a page draws, to be served as
// one JSON array at URL: each chart element names URL and its index there,
// and static/app.js fetches the array and draws.
type Sink struct {
	URL     string
	options [][]byte
}

type sinkKey struct{}

// WithSink returns ctx with a new Sink for charts served at url.
func WithSink(ctx context.Context, url string) (context.Context, *Sink) {
	s := &Sink{URL: url}
	return context.WithValue(ctx, sinkKey{}, s), s
}

// Len is the number of charts collected.
func (s *Sink) Len() int { return len(s.options) }

// JSON is the options collected, as a JSON array in page order.
func (s *Sink) JSON() []byte {
	return append(append([]byte("["), bytes.Join(s.options, []byte(","))...), ']')
}

// component renders the chart element; its option goes to the context's
// Sink (none: an element with nothing to draw). The option is built
// before anything is written, so an error writes nothing.
func component(kind, title string, heightPx int, build func() ([]byte, error)) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		option, err := build()
		if err != nil {
			return fmt.Errorf("chart %q: %w", title, err)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, `<div class="chart" data-testid="chart" data-kind="%s" data-title="%s`, html.EscapeString(kind), html.EscapeString(title))
		if s, ok := ctx.Value(sinkKey{}).(*Sink); ok {
			fmt.Fprintf(&b, `" data-chart-src="%s" data-chart-index="%d`, html.EscapeString(s.URL), len(s.options))
			s.options = append(s.options, option)
		}
		fmt.Fprintf(&b, `" style="height:%dpx"></div>`+"\n", heightPx)
		_, err = w.Write(b.Bytes())
		return err
	})
}

// Script is the JavaScript that turns the functions of an option back
// into code: window.schedlabChartFuncs(M, el) returns every function of
// jsFuncs, closed over the option's lookup tables M and its element el,
// keyed by its FuncOpts string. Only these constant strings become code.
var Script = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("\"use strict\";window.schedlabChartFuncs=function(M,el){return{")
	for i, f := range jsFuncs {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(string(f))
		b.Write(key)
		b.WriteByte(':')
		b.WriteString(strings.TrimSuffix(strings.TrimPrefix(string(f), funcMarker), funcMarker))
	}
	b.WriteString("};};\n")
	return b.Bytes()
})

// funcMarker is go-echarts's mark around a function in an option (opts.FuncOpts).
const funcMarker = "__f__"

// ScriptURL is where pages load Script from: versioned by its content,
// so browsers keep it for good.
var ScriptURL = sync.OnceValue(func() string {
	sum := sha256.Sum256(Script())
	return "/charts.js?v=" + hex.EncodeToString(sum[:6])
})

// clampInt bounds v to [lo, hi].
func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }

// toolbox is the toolbox every chart gets: save as PNG (named after the
// chart), plus box zoom and restore where the chart has axes.
func toolbox(title string, zoom bool) opts.Toolbox {
	f := &opts.ToolBoxFeature{
		SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Name: fileName(title), Title: "Save as PNG"},
	}
	if zoom {
		// go-echarts always writes "icon"; null would hide the buttons, so
		// these are ECharts' own default icon paths.
		f.DataZoom = &opts.ToolBoxFeatureDataZoom{
			Show:  opts.Bool(true),
			Title: map[string]string{"zoom": "Zoom", "back": "Undo zoom"},
			Icon: map[string]string{
				"zoom": "M0,13.5h26.9 M13.5,26.9V0 M32.1,13.5H58V58H13.5 V32.1",
				"back": "M22,1.4L9.9,13.5l12.3,12.3 M10.3,13.5H54.9v44.6 H10.3v-26",
			},
		}
		f.Restore = &opts.ToolBoxFeatureRestore{Show: opts.Bool(true), Title: "Reset"}
	}
	return opts.Toolbox{Show: opts.Bool(true), Right: "16", Feature: f}
}

// fileName makes a download file name from a title: letters, digits, '-'
// and '_' kept, everything else '_'.
func fileName(title string) string {
	var b strings.Builder
	for _, r := range title {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "chart"
	}
	s := b.String()
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
