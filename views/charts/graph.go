package charts

import (
	"cmp"
	"schedlab/report"
	"slices"

	"github.com/a-h/templ"
	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Graph sizes and layout constants, in CSS pixels (tree and DAG layouts
// are in the same units; ECharts then scales them to fit the element).
const (
	GraphMinHeight = 360
	GraphMaxHeight = 900
	GraphLevelPx   = 90  // vertical distance between levels
	GraphNodePx    = 70  // horizontal distance between nodes of a level
	graphMarginPx  = 40  // keeps every coordinate > 0 (go-echarts omits 0)
	graphLabelPx   = 110 // on-screen sibling distance in deep layouts (room for a label)
	// graphAssumedWidthPx is the element width the tree/DAG layout plans
	// for: a layout wider than this, relative to the element height, gets
	// its levels spread further apart so that ECharts (which keeps the
	// aspect ratio) still fills the height.
	graphAssumedWidthPx = 1000
	// GraphLabelsUpTo is the node count up to which every node label is
	// drawn in a force layout; larger graphs show labels on hover only.
	GraphLabelsUpTo = 150
	// GraphEdgeLabelsUpTo is the edge count up to which a tree or DAG
	// layout shows its edge labels (with the node labels, once they fit);
	// a larger graph names an edge in its tooltip only (ECharts does not
	// keep edge labels apart while zooming).
	GraphEdgeLabelsUpTo = 80
)

// Edge colours by Kind.
const (
	EdgeColour         = "#7a869a"
	EdgeTreeColour     = "#3b4a61"
	EdgeBackColour     = "#d62728"
	EdgeDeletedColour  = "#b0b0b0"
	EdgeCriticalColour = "#e6550d"
)

// graphNode is go-echarts' GraphNode plus the node id (links refer to it,
// so labels need not be unique).
type graphNode struct {
	opts.GraphNode
	ID    string         `json:"id"`
	Label map[string]any `json:"label,omitempty"` // a node's own label style (critical nodes)
}

// graphLink is go-echarts' GraphLink plus the edge label text, read by the
// edge label formatter (a user string is never used as a format template).
type graphLink struct {
	opts.GraphLink
	Text string          `json:"text,omitempty"`
	Kind report.EdgeKind `json:"kind,omitempty"`
}

// edgeLabelFormatter shows a link's own text.
var edgeLabelFormatter = jsFunc(`function (p) { return (p.data && p.data.text) || ""; }`)

// graphTooltip names the node, or the edge with its kind and label; user
// strings go through echarts.format.encodeHTML.
var graphTooltip = jsFunc(`function (p) {
  var f = echarts.format.encodeHTML;
  var d = p.data || {};
  if (p.dataType === "edge") {
    var s = f(String(d.source)) + " → " + f(String(d.target));
    if (d.kind) { s += " (" + f(d.kind) + ")"; }
    if (d.text) { s += "<br>" + f(d.text); }
    return s;
  }
  return p.marker + f(p.name) + (d.id !== p.name ? " [" + f(String(d.id)) + "]" : "");
}`)

// GraphHeight is the element height for g.
func GraphHeight(g report.Graph) int {
	if g.Layout != "tree" && g.Layout != "dag" {
		return clampInt(240+4*len(g.Nodes), GraphMinHeight, 600)
	}
	levels := map[int]bool{}
	for _, l := range nodeLevels(g) {
		levels[l] = true
	}
	return clampInt(80+GraphLevelPx*len(levels), GraphMinHeight, GraphMaxHeight)
}

// Graph draws nodes and edges: fixed positions by Level for Layout "tree"
// and "dag", a force layout otherwise; see GraphOption.
func Graph(g report.Graph) templ.Component {
	return component("graph", g.Title, GraphHeight(g), func() ([]byte, error) { return GraphOption(g) })
}

// GraphOption returns the ECharts option of Graph as JSON, an ECharts
// graph series. Layout "tree" and "dag": x/y computed here (layout "none",
// levelLayoutSpacing), one row per Level (or, for a DAG given without
// levels, per longest path from a source), each row ordered to reduce
// edge crossings by the layered method of Sugiyama, Tagawa and Toda (1981;
// see layered), rows centred; their labels show once zoomed in far enough
// (graphInit). Layout "force" otherwise, every node labelled up to
// GraphLabelsUpTo nodes. Edges by Kind (graphLinks: "deleted" dashed grey,
// "back" red and curved, "tree" dark, "critical" orange and thickest, its
// nodes ringed and always labelled, emphasiseCritical); arrows at the
// target; nodes coloured by Group. Edges naming a missing node are skipped.
func GraphOption(g report.Graph) ([]byte, error) {
	fixed := g.Layout == "tree" || g.Layout == "dag"
	var pos map[string][2]float32
	var nodePx float32
	if fixed {
		pos, nodePx = levelLayoutSpacing(g)
	}
	cats, nodes, ids := graphNodes(g, pos)
	emphasiseCritical(g, nodes)
	links, labels := graphLinks(g, ids)
	layout := "force"
	if fixed {
		layout = "none"
	}
	gc := opts.GraphChart{
		Layout:         layout,
		Roam:           opts.Bool(true),
		Draggable:      opts.Bool(!fixed),
		Categories:     cats,
		EdgeSymbol:     []string{"none", "arrow"},
		EdgeSymbolSize: 7,
	}
	if !fixed {
		gc.Force = &opts.GraphForce{Repulsion: 200, EdgeLength: 80, Gravity: 0.08}
	}
	if labels {
		// EdgeLabel.Formatter is a plain string in go-echarts; a FuncOpts
		// string there becomes a function all the same.
		gc.EdgeLabel = &opts.EdgeLabel{Show: opts.Bool(true), FontSize: 10, Color: "#555", Formatter: string(edgeLabelFormatter)}
	}

	c := gecharts.NewGraph()
	c.SetGlobalOptions(
		gecharts.WithTitleOpts(opts.Title{Title: g.Title, Show: opts.Bool(false)}),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(cats) > 1), Type: "scroll", Top: "0", Left: "center", Width: "70%"}),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: graphTooltip}),
		gecharts.WithToolboxOpts(toolbox(g.Title, false)),
		gecharts.WithAnimation(false),
	)
	c.AddSeries(g.Title, nil, nil,
		gecharts.WithGraphChartOpts(gc),
		gecharts.WithLabelOpts(opts.Label{Show: opts.Bool(len(nodes) <= GraphLabelsUpTo), Position: "right", FontSize: 11,
			BackgroundColor: "rgba(255,255,255,0.8)", BorderRadius: 2}),
		gecharts.WithEmphasisOpts(opts.Emphasis{Focus: "adjacency", Label: &opts.Label{Show: opts.Bool(true)}}),
		gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) {
			s.Data = nodes
			s.Links = links
		}),
	)
	// Labels that would overlap another are hidden (ECharts' labelLayout):
	// a 100-task workflow shows the labels that fit instead of a smear,
	// zooming in (roam) brings the others back, hovering shows any.
	ext := &extender{series: []map[string]any{{"labelLayout": map[string]any{"hideOverlap": true}}}}
	if fixed {
		// The init script shows the labels once neighbours in a row are
		// far enough apart on screen for them (graphInit), hover always.
		ext.top = map[string]any{metaKey: map[string]any{"init": graphInit, "nodePx": nodePx,
			"edgeLabels": labels && len(links) <= GraphEdgeLabelsUpTo}}
		// Symbols keep their size when zoomed in (ECharts grows them by
		// default), so zooming makes room for the labels between them.
		ext.series[0]["nodeScaleRatio"] = 0
	}
	return optionJSON(c, ext)
}

// graphInit runs once the graph is drawn (tree and DAG layouts): node
// labels (and edge labels, up to GraphEdgeLabelsUpTo edges) are shown only while neighbours in a row are at least the
// width of most labels apart on screen (the 80th percentile of the label
// widths, plus the symbol), so a large graph opens without a smear of
// labels and shows them once zoomed in (roam) far enough; below that a
// node's label shows on hover, and the critical path's labels always.
// The element's data-labels says which: "shown" or "hover".
var graphInit = jsFunc(`function (c) {
  var data = c.getOption().series[0].data || [];
  var widths = data.map(function (d) { return echarts.format.getTextRect(String(d.name || ""), "11px sans-serif").width; });
  widths.sort(function (a, b) { return a - b; });
  var need = (widths.length ? widths[Math.floor(0.8 * (widths.length - 1))] : 0) + 24;
  var shown = null;
  var update = function () {
    var a = c.convertToPixel({seriesIndex: 0}, [0, 0]);
    var b = c.convertToPixel({seriesIndex: 0}, [M.nodePx, 0]);
    if (!a || !b) { return; }
    var on = Math.abs(b[0] - a[0]) >= need;
    if (on === shown) { return; }
    shown = on;
    if (el.setAttribute) { el.setAttribute("data-labels", on ? "shown" : "hover"); }
    c.setOption({series: [{label: {show: on}, edgeLabel: {show: on && M.edgeLabels}}]});
  };
  update();
  c.on("graphroam", update);
  c.on("finished", update);
}`)

// Critical-path nodes (the ends of "critical" edges) are drawn larger,
// ringed in EdgeCriticalColour, with their label always shown.
const graphCriticalSymbol = 20

// emphasiseCritical styles the nodes that end a "critical" edge.
func emphasiseCritical(g report.Graph, nodes []graphNode) {
	crit := map[string]bool{}
	for _, e := range g.Edges {
		if e.Kind == report.EdgeCritical {
			crit[e.Source], crit[e.Target] = true, true
		}
	}
	if len(crit) == 0 {
		return
	}
	for i := range nodes {
		if crit[nodes[i].ID] {
			nodes[i].SymbolSize = graphCriticalSymbol
			nodes[i].ItemStyle = &opts.ItemStyle{BorderColor: EdgeCriticalColour, BorderWidth: 3}
			nodes[i].Label = map[string]any{"show": true, "fontWeight": "bold"}
		}
	}
}

// graphNodes are the node categories (one per Group) and the nodes (the
// first of duplicate ids), fixed at pos when a layout placed them; ids
// is the set of node ids.
func graphNodes(g report.Graph, pos map[string][2]float32) ([]*opts.GraphCategory, []graphNode, map[string]bool) {
	groupIdx := map[string]int{}
	var cats []*opts.GraphCategory
	for _, n := range g.Nodes {
		if _, ok := groupIdx[n.Group]; !ok {
			groupIdx[n.Group] = len(cats)
			cats = append(cats, &opts.GraphCategory{Name: cmp.Or(n.Group, "nodes")})
		}
	}
	ids := make(map[string]bool, len(g.Nodes))
	nodes := make([]graphNode, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		if ids[n.ID] {
			continue // ECharts rejects duplicate ids; the first one wins
		}
		ids[n.ID] = true
		gn := graphNode{GraphNode: opts.GraphNode{Name: cmp.Or(n.Label, n.ID), Category: groupIdx[n.Group], SymbolSize: 14}, ID: n.ID}
		if pos != nil {
			p := pos[n.ID]
			gn.X, gn.Y, gn.Fixed = p[0], p[1], opts.Bool(true)
		}
		nodes = append(nodes, gn)
	}
	return cats, nodes, ids
}

// graphLinks are the edges between known nodes, styled by kind; labels
// says whether any edge has a label.
func graphLinks(g report.Graph, ids map[string]bool) (links []graphLink, labels bool) {
	links = make([]graphLink, 0, len(g.Edges))
	for _, e := range g.Edges {
		if !ids[e.Source] || !ids[e.Target] {
			continue
		}
		style := &opts.LineStyle{Color: EdgeColour, Width: 1.2}
		switch e.Kind {
		case report.EdgeDeleted:
			style = &opts.LineStyle{Color: EdgeDeletedColour, Width: 1.2, Type: "dashed"}
		case report.EdgeBack:
			style = &opts.LineStyle{Color: EdgeBackColour, Width: 1.2, Curveness: 0.3}
		case report.EdgeTree:
			style = &opts.LineStyle{Color: EdgeTreeColour, Width: 2}
		case report.EdgeCritical:
			style = &opts.LineStyle{Color: EdgeCriticalColour, Width: 3.5}
		}
		links = append(links, graphLink{
			GraphLink: opts.GraphLink{Source: e.Source, Target: e.Target, LineStyle: style},
			Text:      e.Label,
			Kind:      e.Kind,
		})
		labels = labels || e.Label != ""
	}
	return links, labels
}

// levelLayoutSpacing places nodes in rows by ascending Level (nodeLevels),
// each row ordered by orderLayers and centred on the widest row, rows and
// nodes levelSpacing apart. It returns the positions and the distance
// between neighbours in a row (layout units), which graphInit reads.
func levelLayoutSpacing(g report.Graph) (map[string][2]float32, float32) {
	r := levelRows(g)
	levelPx, nodePx := levelSpacing(g, len(r.levels), r.widest)
	rowOf := make(map[int]int, len(r.levels))
	for i, l := range r.levels {
		rowOf[l] = i
	}
	ids := make([]string, 0, len(r.order))
	row := make(map[string]int, len(r.order))
	for _, l := range r.levels {
		for _, id := range r.byLevel[l] {
			row[id] = rowOf[l]
		}
	}
	seen := make(map[string]bool, len(r.order))
	for _, n := range g.Nodes {
		if !seen[n.ID] {
			seen[n.ID] = true
			ids = append(ids, n.ID)
		}
	}
	var edges [][2]string
	for child, ps := range r.parents {
		for _, p := range ps {
			edges = append(edges, [2]string{p, child})
		}
	}
	// r.parents is a map: sort the edges so the result never depends on
	// map order.
	slices.SortFunc(edges, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(r.order[a[1]], r.order[b[1]]), cmp.Compare(r.order[a[0]], r.order[b[0]]))
	})
	ordered := orderLayers(ids, row, len(r.levels), edges)
	pos := make(map[string][2]float32, len(ids))
	for rw, rowIDs := range ordered {
		offset := float32(r.widest-len(rowIDs)) * nodePx / 2
		for i, id := range rowIDs {
			pos[id] = [2]float32{graphMarginPx + offset + float32(i)*nodePx, graphMarginPx + float32(rw)*levelPx}
		}
	}
	return pos, nodePx
}

// rows are a graph's nodes by level: the levels in ascending order, the
// node ids of each (in input order), the widest row's size, each node's
// input position, and each node's neighbours one or more levels up (back
// edges aside).
type rows struct {
	levels  []int
	byLevel map[int][]string
	widest  int
	order   map[string]int
	parents map[string][]string
}

func levelRows(g report.Graph) rows {
	lv := nodeLevels(g)
	r := rows{byLevel: map[int][]string{}, order: map[string]int{}, parents: map[string][]string{}}
	for i, n := range g.Nodes {
		if _, dup := r.order[n.ID]; dup {
			continue
		}
		r.order[n.ID] = i
		r.byLevel[lv[n.ID]] = append(r.byLevel[lv[n.ID]], n.ID)
	}
	level := map[string]int{}
	for l, ids := range r.byLevel {
		r.levels = append(r.levels, l)
		r.widest = max(r.widest, len(ids))
		for _, id := range ids {
			level[id] = l
		}
	}
	slices.Sort(r.levels)
	for _, e := range g.Edges {
		ls, oks := level[e.Source]
		lt, okt := level[e.Target]
		if !oks || !okt || e.Kind == report.EdgeBack {
			continue
		}
		switch {
		case ls < lt:
			r.parents[e.Target] = append(r.parents[e.Target], e.Source)
		case lt < ls:
			r.parents[e.Source] = append(r.parents[e.Source], e.Target)
		}
	}
	return r
}

// nodeLevels is each node's row: its Level, or, when every node has the
// same Level but edges join them (a DAG given without levels), the length
// of the longest path from a source to it over the edges other than back
// edges (Kahn's topological order; nodes on a cycle stay at the level of
// the predecessors placed before it).
func nodeLevels(g report.Graph) map[string]int {
	lv := make(map[string]int, len(g.Nodes))
	same := true
	for _, n := range g.Nodes {
		if _, dup := lv[n.ID]; dup {
			continue
		}
		lv[n.ID] = n.Level
		same = same && n.Level == g.Nodes[0].Level
	}
	if !same {
		return lv
	}
	indeg := make(map[string]int, len(lv))
	succ := map[string][]string{}
	for _, e := range g.Edges {
		_, oks := lv[e.Source]
		_, okt := lv[e.Target]
		if !oks || !okt || e.Kind == report.EdgeBack || e.Source == e.Target {
			continue
		}
		succ[e.Source] = append(succ[e.Source], e.Target)
		indeg[e.Target]++
	}
	if len(succ) == 0 {
		return lv
	}
	var queue []string
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		if !seen[n.ID] && indeg[n.ID] == 0 {
			queue = append(queue, n.ID)
		}
		seen[n.ID] = true
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range succ[v] {
			lv[w] = max(lv[w], lv[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	return lv
}

// levelSpacing is the distance between rows (GraphLevelPx, more when the
// layout is much wider than high) and between siblings (GraphNodePx, more
// when a deep, narrow layout would be scaled down so far that labels
// overlap).
func levelSpacing(g report.Graph, levels, widest int) (levelPx, nodePx float32) {
	levelPx = float32(GraphLevelPx)
	if rows := levels - 1; rows > 0 {
		aspect := float32(graphAssumedWidthPx) / float32(GraphHeight(g)-80)
		if need := float32(widest-1) * GraphNodePx / aspect / float32(rows); need > levelPx {
			levelPx = need
		}
	}
	// A deep, narrow layout is scaled down to the element height (ECharts
	// keeps the aspect ratio), which would squeeze siblings and their
	// labels together: widen the rows so that siblings stay
	// graphLabelPx apart on screen (less if the widest row would then
	// overflow the element's width).
	nodePx = float32(GraphNodePx)
	if rows := levels - 1; rows > 0 {
		if scale := float32(GraphHeight(g)-80) / (float32(rows) * levelPx); scale < 1 {
			onScreen := min(float32(graphLabelPx), float32(graphAssumedWidthPx)/float32(widest))
			nodePx = max(nodePx, onScreen/scale)
		}
	}
	return levelPx, nodePx
}
