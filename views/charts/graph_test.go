package charts

import (
	"strings"
	"testing"

	"schedlab/report"
)

func tree() report.Graph {
	return report.Graph{
		Title: "Pseudo-tree", Layout: "tree",
		Nodes: []report.GraphNode{
			{ID: "r", Label: "root", Level: 0},
			{ID: "a", Level: 1, Group: "g1"},
			{ID: "b", Level: 1, Group: "g1"},
			{ID: "c", Level: 2, Label: "leaf"},
		},
		Edges: []report.GraphEdge{
			{Source: "r", Target: "a", Kind: "tree"},
			{Source: "r", Target: "b", Kind: "tree"},
			{Source: "b", Target: "c", Kind: "tree", Label: "sep 2"},
			{Source: "c", Target: "r", Kind: "back"},
			{Source: "a", Target: "c", Kind: "deleted"},
			{Source: "a", Target: "zz"},
		},
	}
}

func TestGraphRendersChartElementWithKindAndTitle(t *testing.T) {
	doc, _ := render(t, Graph(tree()))
	assertChart(t, doc, "graph", "Pseudo-tree")
}

func TestGraphOptionDrawsDeletedDashedAndBackCurved(t *testing.T) {
	o := option(t)(GraphOption(tree()))
	links := arr(t, o, "series", 0, "links")
	if len(links) != 5 {
		t.Fatalf("%d links, want 5 (the edge to a missing node skipped)", len(links))
	}
	byKind := map[string]any{}
	for _, l := range links {
		k, _ := get(t, l, "kind").(string)
		byKind[k] = l
	}
	if got := get(t, byKind["deleted"], "lineStyle", "type"); got != "dashed" {
		t.Errorf("deleted edge line type %v, want dashed", got)
	}
	if got := get(t, byKind["tree"], "lineStyle", "type"); got != nil {
		t.Errorf("tree edge line type %v, want solid", got)
	}
	back := byKind["back"]
	if get(t, back, "lineStyle", "color") != EdgeBackColour || get(t, back, "lineStyle", "curveness") == nil {
		t.Errorf("back edge style %v, want %s and curved", get(t, back, "lineStyle"), EdgeBackColour)
	}
	if get(t, back, "lineStyle", "color") == get(t, byKind["tree"], "lineStyle", "color") {
		t.Errorf("back and tree edges share a colour")
	}
}

func TestGraphOptionPlacesTreeNodesByLevel(t *testing.T) {
	o := option(t)(GraphOption(tree()))
	if got := str(t, o, "series", 0, "layout"); got != "none" {
		t.Errorf("layout %q, want none (positions computed)", got)
	}
	pos := map[string][2]float64{}
	for _, n := range arr(t, o, "series", 0, "data") {
		x, okx := get(t, n, "x").(float64)
		y, oky := get(t, n, "y").(float64)
		if !okx || !oky {
			t.Fatalf("node %v has no x/y", n)
		}
		pos[str(t, n, "id")] = [2]float64{x, y}
	}
	if !(pos["r"][1] < pos["a"][1] && pos["a"][1] == pos["b"][1] && pos["b"][1] < pos["c"][1]) {
		t.Errorf("rows not by level: %v", pos)
	}
	if pos["a"][0] == pos["b"][0] {
		t.Errorf("nodes of one level overlap: %v", pos)
	}
	if pos["c"][0] != pos["r"][0] {
		t.Errorf("single nodes should be centred: r %v c %v", pos["r"], pos["c"])
	}
}

func TestGraphOptionLabelsNodesAndEdges(t *testing.T) {
	o := option(t)(GraphOption(tree()))
	names := map[string]string{}
	for _, n := range arr(t, o, "series", 0, "data") {
		names[str(t, n, "id")] = str(t, n, "name")
	}
	if names["r"] != "root" || names["a"] != "a" || names["c"] != "leaf" {
		t.Errorf("node names %v, want label or id", names)
	}
	if get(t, o, "series", 0, "label", "show") != true {
		t.Errorf("node labels hidden")
	}
	if f := str(t, o, "series", 0, "edgeLabel", "formatter"); !strings.HasPrefix(f, "__f__") {
		t.Errorf("edge label formatter %q, want a function", f)
	}
	found := false
	for _, l := range arr(t, o, "series", 0, "links") {
		found = found || get(t, l, "text") == "sep 2"
	}
	if !found {
		t.Errorf("edge label text missing")
	}
}

func TestGraphOptionUsesForceLayoutByDefault(t *testing.T) {
	g := tree()
	g.Layout = ""
	o := option(t)(GraphOption(g))
	if got := str(t, o, "series", 0, "layout"); got != "force" {
		t.Errorf("layout %q, want force", got)
	}
	if get(t, o, "series", 0, "force") == nil {
		t.Errorf("force layout has no force settings")
	}
	if get(t, o, "series", 0, "data", 0, "x") != nil {
		t.Errorf("force layout nodes should not be placed")
	}
}

func TestGraphOptionHighlightsCriticalEdges(t *testing.T) {
	g := report.Graph{Title: "DAG", Layout: "dag",
		Nodes: []report.GraphNode{{ID: "a"}, {ID: "b", Level: 1}, {ID: "c", Level: 1}},
		Edges: []report.GraphEdge{{Source: "a", Target: "b", Kind: "critical"}, {Source: "a", Target: "c"}},
	}
	o := option(t)(GraphOption(g))
	links := arr(t, o, "series", 0, "links")
	crit, plain := links[0], links[1]
	if get(t, crit, "lineStyle", "color") != EdgeCriticalColour {
		t.Errorf("critical edge colour %v, want %s", get(t, crit, "lineStyle", "color"), EdgeCriticalColour)
	}
	cw, _ := get(t, crit, "lineStyle", "width").(float64)
	pw, _ := get(t, plain, "lineStyle", "width").(float64)
	if cw <= pw {
		t.Errorf("critical edge width %v not above a plain edge's %v", cw, pw)
	}
}

// TestGraphAndGanttHideOverlappingLabels: large graphs and overlapping
// bars show the labels that fit, not a smear (ECharts' hideOverlap).
func TestGraphAndGanttHideOverlappingLabels(t *testing.T) {
	g := report.Graph{Title: "DAG", Layout: "dag", Nodes: []report.GraphNode{{ID: "a", Label: "a"}, {ID: "b", Label: "b", Level: 1}},
		Edges: []report.GraphEdge{{Source: "a", Target: "b"}}}
	if got := get(t, option(t)(GraphOption(g)), "series", 0, "labelLayout", "hideOverlap"); got != true {
		t.Errorf("graph labelLayout.hideOverlap = %v", got)
	}
	gt := report.Gantt{Title: "Plan", Lanes: []string{"p"}, Bars: []report.Bar{{Lane: 0, Start: 0, End: 5, Label: "t1"}, {Lane: 0, Start: 1, End: 6, Label: "t2"}}}
	if got := get(t, option(t)(GanttOption(gt)), "series", 0, "labelLayout", "hideOverlap"); got != true {
		t.Errorf("gantt labelLayout.hideOverlap = %v", got)
	}
}
