package dcop

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
)

// Pseudo-tree heuristics (see BuildPseudoTree).
const (
	HeuristicMaxDegree = "max-degree" // root of highest degree, most-connected child first
	HeuristicRandom    = "random"     // root and child order from the run's *rand.Rand
	// HeuristicMinFill eliminates, greedily, the node whose elimination adds
	// the fewest fill edges (ties: fewer neighbors, then lower index) and
	// hangs each node under its earliest-eliminated later neighbor in the
	// filled graph (the bucket/elimination tree): the root is the last node
	// eliminated and the width is the order's induced width. Every
	// constraint edge still joins an ancestor and a descendant, but a tree
	// edge need not be a constraint edge (a parent may only share a
	// constraint with the child's subtree).
	HeuristicMinFill = "min-fill"
	// HeuristicMinFillDFS is a DFS of the constraint graph (every tree edge a
	// constraint) guided by the min-fill order: root = the last node
	// eliminated, children visited latest-eliminated first.
	HeuristicMinFillDFS = "min-fill-dfs"
	// HeuristicMinDegree is the elimination tree of the greedy min-degree
	// order (eliminate the node with the fewest remaining neighbours in the
	// filled graph; ties to the lower index).
	HeuristicMinDegree = "min-degree"
	// HeuristicMCS is the elimination tree of maximum cardinality search
	// (Tarjan and Yannakakis 1984): visit next the node with the most
	// visited neighbours (ties to the lower index); the elimination order
	// is the reverse of the visit order, so the first visited is the root.
	HeuristicMCS = "mcs"
	// HeuristicDFS is a DFS in the order the seed lists its jobs: root E1
	// (job 0), neighbours in index order; Collin and Dechter's DFS, which
	// the seed cites for its pseudo-tree, visits in a fixed identifier
	// order.
	HeuristicDFS = "dfs"
)

// Heuristics lists the pseudo-tree heuristics.
var Heuristics = []string{HeuristicMaxDegree, HeuristicMinFill, HeuristicMinFillDFS, HeuristicMinDegree, HeuristicMCS, HeuristicDFS, HeuristicRandom}

// PseudoTree is a DFS tree of a constraint graph: every constraint edge is
// a tree edge or a back edge between an ancestor and a descendant. All
// slices are indexed by job.
type PseudoTree struct {
	Adj      [][]int // constraint edges still in force (WD deletes back edges)
	Roots    []int   // one per connected component, in DFS order
	Order    []int   // DFS preorder over all components
	Parent   []int   // −1 for a root
	Children [][]int // in visiting order
	Depth    []int   // root 0
	// Sep[x] = ancestors of x linked by a constraint to x or to a node of
	// x's subtree, shallowest first: the dimensions of x's UTIL message.
	Sep [][]int
}

// BuildPseudoTree builds a DFS pseudo-tree of g with a heuristic;
// src is used by HeuristicRandom only and may be nil otherwise. The seed
// names no construction (it cites Collin and Dechter's DFS); the default
// is max-degree, and ties go to the lower job index. HeuristicDFS is not
// FRODO's DPOPagent tree: the closest to that is max-degree.
func BuildPseudoTree(g *Graph, heuristic string, src *rand.Rand) (*PseudoTree, error) {
	n := len(g.Adj)
	t := &PseudoTree{
		Adj:      make([][]int, n),
		Parent:   make([]int, n),
		Children: make([][]int, n),
		Depth:    make([]int, n),
	}
	for i, a := range g.Adj {
		t.Adj[i] = slices.Clone(a)
	}
	var prio []int // lower visits first
	switch heuristic {
	case HeuristicMaxDegree, "":
		prio = make([]int, n)
		idx := rangeFrom(0, n)
		slices.SortStableFunc(idx, func(a, b int) int { return len(g.Adj[b]) - len(g.Adj[a]) })
		for rank, i := range idx {
			prio[i] = rank
		}
	case HeuristicRandom:
		if src == nil {
			return nil, fmt.Errorf("dcop: heuristic %q needs a *rand.Rand", heuristic)
		}
		prio = src.Perm(n)
	case HeuristicMinFill, HeuristicMinDegree, HeuristicMCS:
		order := map[string]func(*Graph) []int{HeuristicMinFill: minFillOrder, HeuristicMinDegree: minDegreeOrder, HeuristicMCS: mcsOrder}[heuristic]
		buildEliminationTree(t, g, order(g))
		return t, nil
	case HeuristicDFS:
		prio = rangeFrom(0, n)
	case HeuristicMinFillDFS:
		order := minFillOrder(g)
		prio = make([]int, n)
		for i, x := range order {
			prio[x] = n - 1 - i // last eliminated visits first
		}
	default:
		return nil, fmt.Errorf("dcop: unknown pseudo-tree heuristic %q (want one of %v)", heuristic, Heuristics)
	}
	byPrio := make([]int, n)
	for i, p := range prio {
		byPrio[p] = i
	}
	visited := make([]bool, n)
	var visit func(x, d int)
	visit = func(x, d int) {
		visited[x] = true
		t.Depth[x] = d
		t.Order = append(t.Order, x)
		nb := slices.Clone(g.Adj[x])
		slices.SortFunc(nb, func(a, b int) int { return prio[a] - prio[b] })
		for _, y := range nb {
			if !visited[y] {
				t.Parent[y] = x
				t.Children[x] = append(t.Children[x], y)
				visit(y, d+1)
			}
		}
	}
	for _, r := range byPrio {
		if !visited[r] {
			t.Parent[r] = -1
			t.Roots = append(t.Roots, r)
			visit(r, 0)
		}
	}
	t.computeSeparators()
	return t, nil
}

// minFillOrder is the greedy min-fill elimination order of g (first
// eliminated first): each step eliminates the remaining node whose
// remaining neighbors miss the fewest edges among themselves, ties to fewer
// remaining neighbors, then to the lower index.
func minFillOrder(g *Graph) []int {
	return greedyOrder(g, func(adj [][]bool, nb []int) [2]int {
		fill := 0
		for a := range nb {
			for b := a + 1; b < len(nb); b++ {
				if !adj[nb[a]][nb[b]] {
					fill++
				}
			}
		}
		return [2]int{fill, len(nb)}
	})
}

// minDegreeOrder is the greedy min-degree elimination order of g: each
// step eliminates the remaining node with the fewest remaining neighbours
// (ties to the lower index).
func minDegreeOrder(g *Graph) []int {
	return greedyOrder(g, func(_ [][]bool, nb []int) [2]int { return [2]int{len(nb), 0} })
}

// greedyOrder is a greedy elimination order of g: each step eliminates the
// remaining node x of least cost(adj, nb) (compared in order; ties to the
// lower index), nb being x's remaining neighbours in the filled graph adj,
// and then makes nb pairwise adjacent.
func greedyOrder(g *Graph, cost func(adj [][]bool, nb []int) [2]int) []int {
	n := len(g.Adj)
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
		for _, j := range g.Adj[i] {
			adj[i][j] = true
		}
	}
	done := make([]bool, n)
	order := make([]int, 0, n)
	remaining := func(x int) []int {
		var nb []int
		for y := range n {
			if adj[x][y] && !done[y] {
				nb = append(nb, y)
			}
		}
		return nb
	}
	for len(order) < n {
		best, bestCost := -1, [2]int{}
		for x := range n {
			if done[x] {
				continue
			}
			c := cost(adj, remaining(x))
			if best == -1 || c[0] < bestCost[0] || (c[0] == bestCost[0] && c[1] < bestCost[1]) {
				best, bestCost = x, c
			}
		}
		done[best] = true
		order = append(order, best)
		nb := remaining(best)
		for _, a := range nb {
			for _, b := range nb {
				if a != b {
					adj[a][b] = true
				}
			}
		}
	}
	return order
}

// mcsOrder is the elimination order of maximum cardinality search: the
// reverse of the visit order, where the next node visited has the most
// visited neighbours (ties to the lower index).
func mcsOrder(g *Graph) []int {
	n := len(g.Adj)
	weight := make([]int, n)
	seen := make([]bool, n)
	order := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		best := -1
		for x := range n {
			if !seen[x] && (best == -1 || weight[x] > weight[best]) {
				best = x
			}
		}
		seen[best] = true
		order[i] = best
		for _, y := range g.Adj[best] {
			weight[y]++
		}
	}
	return order
}

// buildEliminationTree fills t (Adj already set) with the elimination tree
// of order: x's parent is its earliest-eliminated later neighbor in the
// filled graph (−1 if none, a root); children are visited latest-eliminated
// first, roots latest-eliminated first.
func buildEliminationTree(t *PseudoTree, g *Graph, order []int) {
	n := len(g.Adj)
	pos := make([]int, n)
	for i, x := range order {
		pos[x] = i
	}
	// higher[x] = x's later neighbors in the filled graph.
	higher := make([][]bool, n)
	for x := range n {
		higher[x] = make([]bool, n)
		for _, y := range g.Adj[x] {
			if pos[y] > pos[x] {
				higher[x][y] = true
			}
		}
	}
	for _, x := range order {
		p := -1
		for y := range n {
			if higher[x][y] && (p == -1 || pos[y] < pos[p]) {
				p = y
			}
		}
		t.Parent[x] = p
		if p == -1 {
			continue
		}
		for y := range n { // x's later neighbors become p's (fill edges)
			if higher[x][y] && y != p {
				higher[p][y] = true
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		x := order[i]
		if p := t.Parent[x]; p == -1 {
			t.Roots = append(t.Roots, x)
		} else {
			t.Children[p] = append(t.Children[p], x)
		}
	}
	var visit func(x, d int)
	visit = func(x, d int) {
		t.Depth[x] = d
		t.Order = append(t.Order, x)
		for _, c := range t.Children[x] {
			visit(c, d+1)
		}
	}
	for _, r := range t.Roots {
		visit(r, 0)
	}
	t.computeSeparators()
}

// computeSeparators fills Sep from Adj, leaves up. Every variable of
// Sep(x) is an ancestor of x (the pseudo-tree property), so it is marked
// by its depth and read back walking up from x's parent, shallowest first.
func (t *PseudoTree) computeSeparators() {
	n := len(t.Adj)
	t.Sep = make([][]int, n)
	mark := make([]bool, t.Height()+1)
	for i := len(t.Order) - 1; i >= 0; i-- {
		x := t.Order[i]
		dx := t.Depth[x]
		cnt := 0
		add := func(a int) {
			if d := t.Depth[a]; d < dx && !mark[d] {
				mark[d] = true
				cnt++
			}
		}
		for _, a := range t.Adj[x] {
			add(a)
		}
		for _, c := range t.Children[x] {
			for _, a := range t.Sep[c] {
				if a != x {
					add(a)
				}
			}
		}
		if cnt == 0 {
			continue
		}
		s := make([]int, cnt)
		j := cnt
		for p := t.Parent[x]; p != -1 && j > 0; p = t.Parent[p] {
			if d := t.Depth[p]; mark[d] {
				mark[d] = false
				j--
				s[j] = p
			}
		}
		if j != 0 { // a separator variable off the root path: not a pseudo-tree
			clear(mark)
			s = t.sortedSeparator(x)
		}
		t.Sep[x] = s
	}
}

// sortedSeparator is Sep(x) by sorting (the children's Sep already set):
// the neighbours above x and the children's separators without x, by
// depth, consecutive duplicates removed.
func (t *PseudoTree) sortedSeparator(x int) []int {
	var s []int
	for _, a := range t.Adj[x] {
		if t.Depth[a] < t.Depth[x] {
			s = append(s, a)
		}
	}
	for _, c := range t.Children[x] {
		for _, a := range t.Sep[c] {
			if a != x {
				s = append(s, a)
			}
		}
	}
	slices.SortFunc(s, func(a, b int) int { return t.Depth[a] - t.Depth[b] })
	return slices.Compact(s)
}

// Width is max |Sep(x)|.
func (t *PseudoTree) Width() int {
	w := 0
	for _, s := range t.Sep {
		w = max(w, len(s))
	}
	return w
}

// Height is the largest depth (0 for a lone node).
func (t *PseudoTree) Height() int {
	h := 0
	for _, d := range t.Depth {
		h = max(h, d)
	}
	return h
}

// BackEdges lists the back edges still in force as (ancestor, descendant):
// per node in preorder, its pseudo-parents.
func (t *PseudoTree) BackEdges() [][2]int {
	var out [][2]int
	for _, x := range t.Order {
		for _, a := range t.Adj[x] {
			if t.Depth[a] < t.Depth[x] && a != t.Parent[x] {
				out = append(out, [2]int{a, x})
			}
		}
	}
	return out
}

// Entries is the number of entries of x's UTIL message, Π_{y∈Sep(x)} |D_y|,
// computed in float64 (exact up to 2^53, never allocated); the root's is 1.
func (t *PseudoTree) Entries(x int, domSize []int) float64 {
	e := 1.0
	for _, y := range t.Sep[x] {
		e *= float64(domSize[y])
	}
	return e
}

// MaxEntries is the largest UTIL message in entries and the node sending it
// (lowest index on ties).
func (t *PseudoTree) MaxEntries(domSize []int) (entries float64, node int) {
	node = -1
	for x := range t.Sep {
		if e := t.Entries(x, domSize); node == -1 || e > entries {
			entries, node = e, x
		}
	}
	return entries, node
}

// PaperMB is the seed's accounting of a UTIL message over w variables: d^w
// entries with d = horizon for every variable (its tables ignore the
// domains WD restricts) × EntryBytes, in MiB (2^20 B): 20^5 × 4 B = 12.2
// MiB prints as the seed's 1.2e1.
func PaperMB(w, horizon int) float64 {
	return math.Pow(float64(horizon), float64(w)) * EntryBytes / (1 << 20)
}

// ImpliedWidth inverts PaperMB: the width whose d^w × 4 B is mb MiB,
// log_d(mb · 2^20 / 4).
func ImpliedWidth(mb float64, horizon int) float64 {
	return math.Log(mb*(1<<20)/EntryBytes) / math.Log(float64(horizon))
}
