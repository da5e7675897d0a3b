package charts

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// metaKey is the top-level option key holding the lookup tables (lane names,
// bar labels, colours, ...) that the chart's JavaScript functions read as M.
// The init script takes it out of the option before setOption.
const metaKey = "schedlab"

// jsFuncs are all the JavaScript functions this package puts into options.
// They are constants: user data never becomes code. toScript turns exactly
// these (JSON-encoded, FuncOpts-marked) strings back into raw JavaScript.
var jsFuncs []types.FuncStr

// jsFunc registers a constant JavaScript function for options. The source
// must not contain "//" comments (newlines are stripped), "</" or "<!--".
// It is opts.FuncOpts(src), made without its regular expression (this
// package's functions are made at every start of the program, the command
// line's included, where FuncOpts's regular expression took 0.3 ms):
// newlines and tabs removed, the text between go-echarts's markers.
func jsFunc(src string) types.FuncStr {
	f := types.FuncStr(jsFuncMarker + strings.NewReplacer("\n", "", "\t", "").Replace(src) + jsFuncMarker)
	jsFuncs = append(jsFuncs, f)
	return f
}

// jsFuncMarker is go-echarts's mark around a JavaScript function in a
// JSON option (opts.FuncOpts).
const jsFuncMarker = "__f__"

// chart is what every go-echarts chart type offers and the builders use.
type chart interface {
	Validate()
	JSON() map[string]interface{}
	Accept(gecharts.ConfigurationVisitor)
}

// extender is a go-echarts ConfigurationVisitor (the library's extension
// point for options it has no field for): it adds series-level keys and
// top-level keys after go-echarts has built the option map.
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

// toScript turns an option JSON into a JavaScript expression: every
// FuncOpts-marked string of jsFuncs becomes the function it holds. Only
// these exact constant strings are replaced; a user string that contains
// the marker stays a string.
func toScript(option []byte) []byte {
	for _, f := range jsFuncs {
		enc, _ := json.Marshal(string(f))
		if !bytes.Contains(option, enc) {
			continue
		}
		body := strings.TrimSuffix(strings.TrimPrefix(string(f), jsFuncMarker), jsFuncMarker)
		option = bytes.ReplaceAll(option, enc, []byte(body))
	}
	return option
}

// newID returns a random element id, so that charts inserted by later
// swaps never collide with ones already on the page.
func newID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return "chart-" + hex.EncodeToString(b[:])
}

// component renders the chart element and its init script. The option is
// built before anything is written, so an error writes nothing.
func component(kind, title string, heightPx int, build func() ([]byte, error)) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		option, err := build()
		if err != nil {
			return fmt.Errorf("chart %q: %w", title, err)
		}
		id := newID()
		var b bytes.Buffer
		b.WriteString(`<div class="chart" data-testid="chart" data-kind="`)
		b.WriteString(html.EscapeString(kind))
		b.WriteString(`" data-title="`)
		b.WriteString(html.EscapeString(title))
		b.WriteString(`" id="`)
		b.WriteString(id)
		b.WriteString(`" style="height:`)
		b.WriteString(strconv.Itoa(heightPx))
		b.WriteString(`px"></div>`)
		b.WriteString("\n<script")
		if nonce := templ.GetNonce(ctx); nonce != "" {
			b.WriteString(` nonce="`)
			b.WriteString(html.EscapeString(nonce))
			b.WriteString(`"`)
		}
		b.WriteString(">")
		writeInit(&b, id, toScript(option))
		b.WriteString("</script>\n")
		_, err = w.Write(b.Bytes())
		return err
	})
}

// writeInit writes the init script: take the lookup tables out of the
// option (as M, which the option's functions close over), init ECharts on
// the element, call M.init(chart) if the chart has one (a constant
// function of this package, e.g. the graph's label threshold), resize with
// the window, dispose once the element is gone.
func writeInit(b *bytes.Buffer, id string, option []byte) {
	idJSON, _ := json.Marshal(id)
	b.WriteString(`(function(){"use strict";var el=document.getElementById(`)
	b.Write(idJSON)
	b.WriteString(`);if(!el||typeof echarts==="undefined"){return;}var option=`)
	b.Write(option)
	b.WriteString(`;var M=option.` + metaKey + `||{};delete option.` + metaKey + `;`)
	b.WriteString(`var c=echarts.getInstanceByDom(el)||echarts.init(el);c.setOption(option);if(typeof M.init==="function"){M.init(c);}`)
	b.WriteString(`var onResize=function(){if(!document.body.contains(el)){window.removeEventListener("resize",onResize);c.dispose();return;}c.resize();};`)
	b.WriteString(`window.addEventListener("resize",onResize);})();`)
}

// clampInt bounds v to [lo, hi].
func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

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
