package charts

import (
	"fmt"
	"math/rand"
	"testing"

	"schedlab/report"
)

func TestCrossingsCountLikeBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		top, bottom := 1+rng.Intn(8), 1+rng.Intn(8)
		lg := layered{n: top + bottom, layers: make([][]int, 2)}
		for v := 0; v < top+bottom; v++ {
			l := 0
			if v >= top {
				l = 1
			}
			lg.layerOf = append(lg.layerOf, l)
			lg.layers[l] = append(lg.layers[l], v)
		}
		lg.up, lg.down = make([][]int, lg.n), make([][]int, lg.n)
		var ends [][2]int
		for k := rng.Intn(20); k > 0; k-- {
			a, b := rng.Intn(top), rng.Intn(bottom)
			lg.link(a, top+b)
			ends = append(ends, [2]int{a, b})
		}
		// A random order of each layer.
		lg.pos = make([]int, lg.n)
		for _, layer := range lg.layers {
			rng.Shuffle(len(layer), func(i, j int) { layer[i], layer[j] = layer[j], layer[i] })
			for i, v := range layer {
				lg.pos[v] = i
			}
		}
		want := 0
		for i, e := range ends {
			for _, f := range ends[i+1:] {
				a := lg.pos[e[0]] - lg.pos[f[0]]
				b := lg.pos[top+e[1]] - lg.pos[top+f[1]]
				if (a < 0 && b > 0) || (a > 0 && b < 0) {
					want++
				}
			}
		}
		if got := lg.crossings(); got != want {
			t.Fatalf("crossings of %v in order %v = %d, want %d", ends, lg.layers, got, want)
		}
	}
}

func TestOrderLayersUncrossesACrossedPair(t *testing.T) {
	row := map[string]int{"a": 0, "b": 0, "c": 1, "d": 1}
	got := orderLayers([]string{"a", "b", "c", "d"}, row, 2, [][2]string{{"a", "d"}, {"b", "c"}})
	if fmt.Sprint(got) != "[[a b] [d c]]" {
		t.Errorf("order %v, want [[a b] [d c]] (no crossing)", got)
	}
}

// randomTree is a tree whose nodes are given in shuffled order, each child
// one or (with long) up to three levels below its parent.
func randomTree(rng *rand.Rand, n int, long bool) ([]string, map[string]int, [][2]string) {
	ids := []string{"n0"}
	row := map[string]int{"n0": 0}
	var edges [][2]string
	for i := 1; i < n; i++ {
		id := fmt.Sprintf("n%d", i)
		p := ids[rng.Intn(len(ids))]
		step := 1
		if long {
			step += rng.Intn(3)
		}
		row[id] = row[p] + step
		ids = append(ids, id)
		edges = append(edges, [2]string{p, id})
	}
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids, row, edges
}

// A tree can always be drawn without crossings, and the down sweep finds
// such an order (each child follows its parent's position); an edge that
// skips layers does too, through its dummy nodes.
func TestOrderLayersDrawsTreesWithoutCrossings(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 50; trial++ {
		long := trial%2 == 1
		ids, row, edges := randomTree(rng, 5+rng.Intn(60), long)
		rows := 0
		for _, r := range row {
			rows = max(rows, r+1)
		}
		got := orderLayers(ids, row, rows, edges)
		seen := 0
		pos := map[string]int{}
		for r, ids := range got {
			for i, id := range ids {
				if row[id] != r {
					t.Fatalf("%s in row %d, want %d", id, r, row[id])
				}
				pos[id] = i
				seen++
			}
		}
		if seen != len(ids) {
			t.Fatalf("%d nodes placed, want %d", seen, len(ids))
		}
		if c := straightCrossings(row, pos, edges); c != 0 {
			t.Errorf("trial %d (long edges %v): %d crossings in %v", trial, long, c, got)
		}
	}
}

// straightCrossings counts crossings of edges between adjacent rows (an
// edge skipping rows is checked by TestOrderLayersRoutesLongEdgesThroughDummies).
func straightCrossings(row, pos map[string]int, edges [][2]string) int {
	n := 0
	for i, e := range edges {
		for _, f := range edges[i+1:] {
			if row[e[0]] != row[f[0]] || row[e[1]] != row[f[1]] || row[e[1]] != row[e[0]]+1 {
				continue
			}
			a, b := pos[e[0]]-pos[f[0]], pos[e[1]]-pos[f[1]]
			if (a < 0 && b > 0) || (a > 0 && b < 0) {
				n++
			}
		}
	}
	return n
}

func TestGraphOptionEmphasisesTheCriticalPath(t *testing.T) {
	g := report.Graph{Title: "DAG", Layout: "dag",
		Nodes: []report.GraphNode{{ID: "a"}, {ID: "b", Level: 1}, {ID: "c", Level: 1}, {ID: "d", Level: 2}},
		Edges: []report.GraphEdge{{Source: "a", Target: "b", Kind: "critical"}, {Source: "b", Target: "d", Kind: "critical"}, {Source: "a", Target: "c"}},
	}
	o := option(t)(GraphOption(g))
	for _, n := range arr(t, o, "series", 0, "data") {
		id := str(t, n, "id")
		onPath := id != "c"
		m := n.(map[string]any)
		size, _ := m["symbolSize"].(float64)
		style, _ := m["itemStyle"].(map[string]any)
		label, _ := m["label"].(map[string]any)
		if onPath != (size == graphCriticalSymbol) || onPath != (style["borderColor"] == EdgeCriticalColour) || onPath != (label["show"] == true) {
			t.Errorf("node %s (on the critical path: %v): size %v, style %v, label %v", id, onPath, size, style, label)
		}
	}
	if get(t, o, "schedlab", "nodePx") == nil || get(t, o, "schedlab", "init") == nil {
		t.Errorf("a DAG's option lacks the label threshold (schedlab.init, nodePx): %v", get(t, o, "schedlab"))
	}
	g.Layout = ""
	if m := get(t, option(t)(GraphOption(g)), "schedlab"); m != nil {
		t.Errorf("a force layout got the layered label threshold: %v", m)
	}
}

// A long edge takes part in the rows it crosses through its dummy nodes:
// b is right of a, so b's grandchild y goes right of x (whose parent c4 is
// a's child); without the dummy nothing would say y crosses c4 → x.
func TestOrderLayersRoutesLongEdgesThroughDummies(t *testing.T) {
	row := map[string]int{"a": 0, "b": 0, "c1": 1, "c2": 1, "c3": 1, "c4": 1, "y": 2, "x": 2}
	ids := []string{"a", "b", "c1", "c2", "c3", "c4", "y", "x"}
	edges := [][2]string{{"a", "c1"}, {"a", "c2"}, {"a", "c3"}, {"a", "c4"}, {"c4", "x"}, {"b", "y"}}
	got := orderLayers(ids, row, 3, edges)
	if fmt.Sprint(got[2]) != "[x y]" {
		t.Errorf("bottom row %v, want [x y]", got)
	}
}

// Beyond layeredMaxDummies long edges join their ends directly; the
// ordering still returns every node once.
func TestOrderLayersWithoutDummiesStillPlacesEveryNode(t *testing.T) {
	var ids []string
	row := map[string]int{}
	var edges [][2]string
	for i := 0; i < 600; i++ {
		top, bottom := fmt.Sprintf("t%d", i), fmt.Sprintf("b%d", i)
		ids = append(ids, top, bottom)
		row[top], row[bottom] = 0, 100
		edges = append(edges, [2]string{top, bottom}, [2]string{top, fmt.Sprintf("b%d", (i+1)%600)})
	}
	got := orderLayers(ids, row, 101, edges)
	if len(got[0]) != 600 || len(got[100]) != 600 {
		t.Errorf("rows of %d and %d nodes, want 600 each", len(got[0]), len(got[100]))
	}
}

// BenchmarkGraphOptionAtDisplayBudget: a DAG at the critical family's
// drawing budget (2000 tasks, 20000 edges, 40 levels, edges spanning up to
// two levels), laid out and turned into an option.
func BenchmarkGraphOptionAtDisplayBudget(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	g := report.Graph{Title: "budget", Layout: "dag"}
	for i := 0; i < 2000; i++ {
		g.Nodes = append(g.Nodes, report.GraphNode{ID: fmt.Sprint(i), Level: i / 50})
	}
	for k := 0; k < 20000; k++ {
		c := 50 + rng.Intn(1950)
		lo := max(0, (c/50-2)*50)
		g.Edges = append(g.Edges, report.GraphEdge{Source: fmt.Sprint(lo + rng.Intn(c/50*50-lo)), Target: fmt.Sprint(c)})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := GraphOption(g); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDAGWithoutLevelsIsLayeredByLongestPath(t *testing.T) {
	g := report.Graph{Title: "no levels", Layout: "dag",
		Nodes: []report.GraphNode{{ID: "c"}, {ID: "b"}, {ID: "a"}, {ID: "d"}, {ID: "x"}, {ID: "y"}},
		Edges: []report.GraphEdge{{Source: "a", Target: "b"}, {Source: "b", Target: "c"}, {Source: "a", Target: "c"},
			{Source: "c", Target: "a", Kind: "back"},                // ignored
			{Source: "x", Target: "y"}, {Source: "y", Target: "x"}}, // a cycle: no order, no hang
	}
	lv := nodeLevels(g)
	if lv["a"] != 0 || lv["b"] != 1 || lv["c"] != 2 || lv["d"] != 0 {
		t.Errorf("levels %v, want a 0, b 1, c 2 (longest path), d 0", lv)
	}
	pos := levelLayout(g)
	if !(pos["a"][1] < pos["b"][1] && pos["b"][1] < pos["c"][1]) {
		t.Errorf("rows not by longest path: %v", pos)
	}
	chain := report.Graph{Layout: "dag"}
	for i := 0; i < 6; i++ {
		chain.Nodes = append(chain.Nodes, report.GraphNode{ID: fmt.Sprint(i)})
		if i > 0 {
			chain.Edges = append(chain.Edges, report.GraphEdge{Source: fmt.Sprint(i - 1), Target: fmt.Sprint(i)})
		}
	}
	if h := GraphHeight(chain); h != 80+6*GraphLevelPx {
		t.Errorf("a 6-node chain without levels is %d px high, want %d (6 rows)", h, 80+6*GraphLevelPx)
	}
	// Given levels are kept as they are.
	g.Nodes[0].Level = 5
	if lv := nodeLevels(g); lv["c"] != 5 || lv["b"] != 0 {
		t.Errorf("levels %v, want the given ones", lv)
	}
}

// levelLayout is levelLayoutSpacing's positions.
func levelLayout(g report.Graph) map[string][2]float32 {
	pos, _ := levelLayoutSpacing(g)
	return pos
}
