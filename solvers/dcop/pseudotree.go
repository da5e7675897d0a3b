package dcop

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
)

// Pseudo-tree heuristics (see doc.go).
const (
	HeuristicMaxDegree = "max-degree" // root of highest degree, most-connected child first
	HeuristicRandom    = "random"     // root and child order from the run's *rand.Rand
)

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
// src is used by HeuristicRandom only and may be nil otherwise.
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
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return len(g.Adj[b]) - len(g.Adj[a]) })
		for rank, i := range idx {
			prio[i] = rank
		}
	case HeuristicRandom:
		if src == nil {
			return nil, fmt.Errorf("dcop: heuristic %q needs a *rand.Rand", heuristic)
		}
		prio = src.Perm(n)
	default:
		return nil, fmt.Errorf("dcop: unknown pseudo-tree heuristic %q (want %s or %s)", heuristic, HeuristicMaxDegree, HeuristicRandom)
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

// computeSeparators fills Sep from Adj, leaves up.
func (t *PseudoTree) computeSeparators() {
	n := len(t.Adj)
	t.Sep = make([][]int, n)
	for i := len(t.Order) - 1; i >= 0; i-- {
		x := t.Order[i]
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
		t.Sep[x] = slices.Compact(s) // same depth on one root path ⇒ same node
	}
}

// IsAncestor reports whether a is a proper ancestor of x.
func (t *PseudoTree) IsAncestor(a, x int) bool {
	for p := t.Parent[x]; p != -1; p = t.Parent[p] {
		if p == a {
			return true
		}
	}
	return false
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

// PseudoParents lists x's ancestors linked to x by a back edge.
func (t *PseudoTree) PseudoParents(x int) []int {
	var pp []int
	for _, a := range t.Adj[x] {
		if t.Depth[a] < t.Depth[x] && a != t.Parent[x] {
			pp = append(pp, a)
		}
	}
	return pp
}

// BackEdges lists the back edges still in force as (ancestor, descendant).
func (t *PseudoTree) BackEdges() [][2]int {
	var out [][2]int
	for _, x := range t.Order {
		for _, a := range t.PseudoParents(x) {
			out = append(out, [2]int{a, x})
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

// SeedEntries is the paper's d^|Sep(x)| with d = horizon, for comparison
// with its tables (which assume the full domain {1..T} for every node).
func SeedEntries(sepSize, horizon int) float64 {
	return math.Pow(float64(horizon), float64(sepSize))
}
