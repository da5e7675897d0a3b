package charts

import (
	"context"
	"fmt"
	"html"
	"io"

	"schedlab/report"

	"github.com/a-h/templ"
)

// A key entry: a swatch (inline SVG) and what it means.
type keyEntry struct {
	kind, swatch, text string
	n                  int
}

// ganttKinds are what each Bar.Kind means, with its swatch as drawn by
// ganttRenderItem (a grey stand-in for the group colour).
var ganttKinds = []keyEntry{
	{kind: string(report.BarJob), swatch: `<rect x="1" y="2" width="26" height="10" fill="#4e79a7"/>`, text: "scheduled work (colour: its job or group)"},
	{kind: string(report.BarMoved), swatch: `<rect x="2" y="2" width="24" height="10" fill="#4e79a7" stroke="#111" stroke-width="2.5"/>`, text: "moved by the shift (thick border)"},
	{kind: string(report.BarAlt), swatch: `<rect x="2" y="2" width="24" height="10" fill="none" stroke="#4e79a7" stroke-width="1.5"/>`, text: "alternative window considered, not chosen (outline)"},
	{kind: string(report.BarReserved), swatch: `<rect x="2" y="2" width="24" height="10" fill="#4e79a7" fill-opacity="0.45" stroke="#4e79a7"/>`, text: "reserved (translucent)"},
	{kind: string(report.BarLocal), swatch: `<rect x="1" y="2" width="26" height="10" fill="` + LocalGrey + `"/>`, text: "owner's local job, not the VO's (grey)"},
	{kind: string(report.BarCollision), swatch: `<rect x="2" y="2" width="16" height="10" fill="#4e79a7" fill-opacity="0.5" stroke="#c0392b" stroke-width="2"/><rect x="10" y="2" width="16" height="10" fill="#f28e2b" fill-opacity="0.5" stroke="#c0392b" stroke-width="2"/>`, text: "collides with another bar on its processor (translucent, red border: overlaps show darker)"},
}

// graphEdgeKinds are what each GraphEdge.Kind means, drawn as graphLinks
// styles them.
var graphEdgeKinds = []keyEntry{
	{kind: string(report.EdgeTree), swatch: `<line x1="1" y1="7" x2="27" y2="7" stroke="` + EdgeTreeColour + `" stroke-width="2"/>`, text: "tree edge (parent to child)"},
	{kind: string(report.EdgeBack), swatch: `<path d="M1 10 Q14 0 27 10" fill="none" stroke="` + EdgeBackColour + `" stroke-width="1.2"/>`, text: "back edge (a constraint with an ancestor, outside the tree)"},
	{kind: string(report.EdgeDeleted), swatch: `<line x1="1" y1="7" x2="27" y2="7" stroke="` + EdgeDeletedColour + `" stroke-width="1.2" stroke-dasharray="4 3"/>`, text: "deleted back edge (removed by width reduction)"},
	{kind: string(report.EdgeCritical), swatch: `<line x1="1" y1="7" x2="27" y2="7" stroke="` + EdgeCriticalColour + `" stroke-width="3.5"/>`, text: "critical path"},
	{kind: "", swatch: `<line x1="1" y1="7" x2="27" y2="7" stroke="` + EdgeColour + `" stroke-width="1.2"/>`, text: "edge"},
}

// GanttKey is the key of a Gantt's bar kinds, drawn under it when its
// bars are of more than one kind (or of a kind other than plain work):
// each kind present with its swatch, meaning and count.
func GanttKey(g report.Gantt) templ.Component {
	count := map[string]int{}
	for _, b := range g.Bars {
		k := b.Kind
		if kindCode(k) == KindCodeJob {
			k = report.BarJob
		}
		count[string(k)]++
	}
	return key("gantt-key", ganttKinds, count)
}

// EdgeKey is the key of a graph's edge kinds, when it has more than one.
func EdgeKey(g report.Graph) templ.Component {
	count := map[string]int{}
	for _, e := range g.Edges {
		switch k := e.Kind; k {
		case report.EdgeTree, report.EdgeBack, report.EdgeDeleted, report.EdgeCritical:
			count[string(k)]++
		default:
			count[""]++
		}
	}
	return key("edge-key", graphEdgeKinds, count)
}

func key(testid string, entries []keyEntry, count map[string]int) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, plain := count[string(report.BarJob)]
		if len(count) == 0 || (len(count) == 1 && (plain || count[""] > 0)) {
			return nil // one plain kind: nothing to tell apart
		}
		if _, err := fmt.Fprintf(w, `<ul class="chart-key small" data-testid=%q>`, testid); err != nil {
			return err
		}
		for _, e := range entries {
			n, ok := count[e.kind]
			if !ok {
				continue
			}
			if _, err := fmt.Fprintf(w, `<li data-kind=%q><svg width="28" height="14" aria-hidden="true">%s</svg> %s <span class="muted">· %d</span></li>`,
				e.kind, e.swatch, html.EscapeString(e.text), n); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `</ul>`)
		return err
	})
}
