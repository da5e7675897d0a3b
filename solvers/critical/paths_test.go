package critical

import (
	"context"
	"math"
	"math/rand"
	"testing"
)

// allPaths enumerates every path with at least one vertex (brute force).
func allPaths(d *DAG) []Path {
	var out []Path
	var walk func(p Path)
	walk = func(p Path) {
		out = append(out, p)
		v := p.Tasks[len(p.Tasks)-1]
		for _, a := range d.Succ[v] {
			q := Path{Tasks: append(append([]int{}, p.Tasks...), a.To), Edges: append(append([]int{}, p.Edges...), a.E),
				Length: p.Length + a.Comm + d.Fast[a.To]}
			walk(q)
		}
	}
	for v := range d.N {
		walk(Path{Tasks: []int{v}, Length: d.Fast[v]})
	}
	return out
}

func smallDAG(seed int64) *DAG {
	rng := rand.New(rand.NewSource(seed))
	c := GenConfig{Tasks: 2 + rng.Intn(10), Density: rng.Float64(), VolMin: 1, VolMax: 20, TransferMin: 0, TransferMax: 15,
		Processors: 1 + rng.Intn(3), PerfMin: 1, PerfMax: 3}
	c.Layers = 1 + rng.Intn(c.Tasks)
	g, err := Generate(c, rng)
	if err != nil {
		panic(err)
	}
	// A few skip edges so paths of different lengths compete.
	for range rng.Intn(4) {
		u, v := rng.Intn(len(g.Tasks)), rng.Intn(len(g.Tasks))
		if u < v {
			dup := false
			for _, e := range g.Edges {
				if e.From == u && e.To == v {
					dup = true
				}
			}
			if !dup {
				g.Edges = append(g.Edges, Edge{From: u, To: v, Transfer: float64(rng.Intn(20))})
			}
		}
	}
	if g.Validate() != nil {
		panic("generated an invalid graph")
	}
	return Prepare(g, 10)
}

func TestRootIsLongestPathByBruteForce(t *testing.T) {
	for seed := range int64(300) {
		d := smallDAG(seed)
		best := 0.0
		for _, p := range allPaths(d) {
			best = math.Max(best, p.Length)
		}
		tr, err := BuildTree(context.Background(), d, TreeBounds{MaxNodes: 100000, MaxDepth: 100})
		if err != nil {
			t.Fatal(err)
		}
		root := tr.Nodes[0].Path
		if math.Abs(root.Length-best) > 1e-9 {
			t.Fatalf("seed %d: root length %v, brute force %v", seed, root.Length, best)
		}
		// The root's length is its own tasks' and edges' sum.
		sum := 0.0
		for _, v := range root.Tasks {
			sum += d.Fast[v]
		}
		for _, e := range root.Edges {
			sum += d.Comm(e)
		}
		if math.Abs(sum-root.Length) > 1e-9 {
			t.Fatalf("seed %d: root length %v, its parts sum to %v", seed, root.Length, sum)
		}
	}
}

func TestTreeNodesAreLongestPathsOfTheirGraphs(t *testing.T) {
	for seed := range int64(100) {
		d := smallDAG(seed)
		tr, _ := BuildTree(context.Background(), d, TreeBounds{MaxNodes: 5000, MaxDepth: 4})
		for i, n := range tr.Nodes {
			removed := map[int]bool{}
			for a := i; a >= 0 && tr.Nodes[a].Removed >= 0; a = tr.Nodes[a].Parent {
				removed[tr.Nodes[a].Removed] = true
			}
			for _, e := range n.Path.Edges {
				if removed[e] {
					t.Fatalf("seed %d node %d uses removed edge %d", seed, i, e)
				}
			}
			best := 0.0
			for _, p := range allPaths(d) {
				ok := true
				for _, e := range p.Edges {
					if removed[e] {
						ok = false
					}
				}
				if ok {
					best = math.Max(best, p.Length)
				}
			}
			if math.Abs(best-n.Path.Length) > 1e-9 {
				t.Fatalf("seed %d node %d: length %v, longest in its graph %v", seed, i, n.Path.Length, best)
			}
		}
	}
}

func TestTreeHasNoDuplicatePathsAndWorksCoverEveryEdge(t *testing.T) {
	for seed := range int64(300) {
		d := smallDAG(seed)
		for _, b := range []TreeBounds{{MaxNodes: 100000, MaxDepth: 100}, {MaxNodes: 3, MaxDepth: 1}, {MaxNodes: 1, MaxDepth: 0}} {
			tr, _ := BuildTree(context.Background(), d, b)
			seen := map[string]int{}
			for i, n := range tr.Nodes {
				if n.Leaf == LeafDuplicate {
					if _, ok := seen[n.Path.key()]; !ok {
						t.Fatalf("seed %d: node %d marked duplicate of nothing", seed, i)
					}
					continue
				}
				if j, ok := seen[n.Path.key()]; ok {
					t.Fatalf("seed %d: nodes %d and %d hold the same path", seed, j, i)
				}
				seen[n.Path.key()] = i
				if n.Leaf == LeafExpanded && len(n.Path.Edges) <= 1 {
					t.Fatalf("seed %d: node %d with %d edges expanded", seed, i, len(n.Path.Edges))
				}
			}
			works, err := RankWorks(d, tr)
			if err != nil {
				t.Fatal(err)
			}
			covered := make([]bool, len(d.G.Edges))
			keys := map[string]bool{}
			for i, w := range works {
				if w.Rank != i+1 {
					t.Fatal("ranks not 1..n")
				}
				if keys[w.Path.key()] {
					t.Fatalf("seed %d: work %d repeats a path", seed, w.Rank)
				}
				keys[w.Path.key()] = true
				for _, e := range w.Path.Edges {
					covered[e] = true
				}
				// Non-isolated works are ranked by length.
				if i > 0 && w.Source != SourceIsolated && works[i-1].Path.Length < w.Path.Length {
					t.Fatalf("seed %d: works not ranked by length", seed)
				}
				// A work is a real path.
				for k, e := range w.Path.Edges {
					if d.G.Edges[e].From != w.Path.Tasks[k] || d.G.Edges[e].To != w.Path.Tasks[k+1] {
						t.Fatalf("seed %d: work %d is not a path", seed, w.Rank)
					}
				}
			}
			for e, c := range covered {
				if !c {
					t.Fatalf("seed %d bounds %+v: edge %d not covered by any work", seed, b, e)
				}
			}
			// Every task is in some work.
			for v, w := range WorkOf(d.N, works) {
				if w == 0 {
					t.Fatalf("seed %d: task %d in no work", seed, v)
				}
			}
		}
	}
}

func TestIsolatedTasksAreWorksOfTheirOwn(t *testing.T) {
	g := &Graph{Tasks: []Task{{"a", 5}, {"b", 3}, {"c", 9}, {"d", 1}, {"e", 2}},
		Edges:      []Edge{{From: 0, To: 1, Transfer: 1}, {From: 1, To: 3, Transfer: 2}},
		Processors: []Processor{{ID: "P1", Performance: 1, Price: 1}, {ID: "P2", Performance: 2, Price: 1}}}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	d := Prepare(g, 10)
	tr, _ := BuildTree(context.Background(), d, TreeBounds{MaxNodes: 100, MaxDepth: 10})
	works, _ := RankWorks(d, tr)
	var iso []string
	for _, w := range works {
		if w.Source == SourceIsolated {
			if len(w.Path.Tasks) != 1 || len(w.Path.Edges) != 0 {
				t.Fatalf("isolated work %+v", w)
			}
			iso = append(iso, g.Tasks[w.Path.Tasks[0]].ID)
		}
	}
	// c (9 → 4.5 on P2) before e (1).
	if len(iso) != 2 || iso[0] != "c" || iso[1] != "e" {
		t.Errorf("isolated works %v, want [c e]", iso)
	}
	if works[0].Path.label(d, 0) != "a→b→d" || works[0].Path.Length != 2.5+1+1.5+2+0.5 {
		t.Errorf("first work %s (%v)", works[0].Path.label(d, 0), works[0].Path.Length)
	}
	// The tree: the root has two edges; removing either leaves a one-edge path (leaves).
	if len(tr.Nodes) != 3 || tr.Nodes[1].Leaf != LeafOneEdge || tr.Nodes[2].Leaf != LeafOneEdge || tr.Cut {
		t.Errorf("tree %+v", tr.Nodes)
	}
}

func TestTreeBoundsCutAndSay(t *testing.T) {
	c := DefaultGenConfig()
	c.Tasks, c.Layers, c.Density = 60, 10, 0.5
	g, _ := Generate(c, rand.New(rand.NewSource(1)))
	d := Prepare(g, 10)
	for _, tc := range []struct {
		b     TreeBounds
		bound string
	}{{TreeBounds{MaxNodes: 20, MaxDepth: 50}, "tree_max_nodes"}, {TreeBounds{MaxNodes: 1 << 20, MaxDepth: 2}, "tree_max_depth"}} {
		tr, _ := BuildTree(context.Background(), d, tc.b)
		if !tr.Cut || tr.Bound != tc.bound {
			t.Errorf("%+v: cut %v by %q", tc.b, tr.Cut, tr.Bound)
		}
		if len(tr.Nodes) > tc.b.MaxNodes {
			t.Errorf("%d nodes over the bound %d", len(tr.Nodes), tc.b.MaxNodes)
		}
		cut := 0
		for _, n := range tr.Nodes {
			if n.Depth > tc.b.MaxDepth {
				t.Fatalf("node at depth %d over %d", n.Depth, tc.b.MaxDepth)
			}
			if n.Leaf == LeafCut {
				cut++
			}
		}
		if cut == 0 {
			t.Error("no node marked cut by bound")
		}
		works, _ := RankWorks(d, tr)
		h := HEFT(d)
		r := runReport(&Outcome{D: d, Tree: tr, Works: works, Sched: h, HEFT: h, Complete: true, Deadline: h.Makespan(), Bounds: d.ComputeBounds(), Platform: d.M})
		groups := 0
		for _, n := range r.Graphs[1].Nodes {
			if n.Group == "cut by bound" {
				groups++
			}
		}
		if groups == 0 || metric(t, r, "tree_cut") != 1 {
			t.Error("report does not mark the cut")
		}
	}
}
