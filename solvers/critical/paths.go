package critical

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"schedlab/errs"
)

// Path is a path of the task graph: its tasks in order, the edges between
// them and its length (Σ fastest task times + Σ transfer times: the
// paper's a-priori duration of a critical work).
type Path struct {
	Tasks  []int
	Edges  []int
	Length float64
}

func (p Path) key() string {
	var b strings.Builder
	for i, t := range p.Tasks {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(t))
	}
	return b.String()
}

// label writes the path with task ids: "t1→t3→t7".
func (p Path) label(d *DAG, maxTasks int) string {
	var b strings.Builder
	for i, t := range p.Tasks {
		if i > 0 {
			b.WriteString("→")
		}
		if maxTasks > 0 && i == maxTasks && len(p.Tasks) > maxTasks+1 {
			fmt.Fprintf(&b, "…(%d more)→%s", len(p.Tasks)-maxTasks-1, d.G.Tasks[p.Tasks[len(p.Tasks)-1]].ID)
			break
		}
		b.WriteString(d.G.Tasks[t].ID)
	}
	return b.String()
}

// LongestPath returns the heaviest path of the DAG without the edges marked
// in removed (nil: none), by dynamic programming in topological order (the
// DAG case of Ford's algorithm). A graph without edges gives its heaviest
// single task. Ties go to the earlier task in topological order and to the
// earlier in-arc, so the answer is deterministic.
func LongestPath(d *DAG, removed []bool) Path {
	dist, from := longestTo(d, removed)
	best, bestV := -1.0, -1
	for _, v := range d.Order {
		if dist[v] > best {
			best, bestV = dist[v], v
		}
	}
	return tracePath(d, bestV, from, best)
}

// longestTo is, per task, the length of the heaviest path ending there
// without the removed edges, and the edge it arrives by (−1: a start).
func longestTo(d *DAG, removed []bool) (dist []float64, from []int) {
	dist, from = make([]float64, d.N), make([]int, d.N)
	for _, v := range d.Order {
		dist[v], from[v] = d.Fast[v], -1
		for _, a := range d.Pred[v] {
			if removed != nil && removed[a.E] {
				continue
			}
			if c := dist[a.To] + a.Comm + d.Fast[v]; c > dist[v] {
				dist[v], from[v] = c, a.E
			}
		}
	}
	return dist, from
}

func tracePath(d *DAG, v int, from []int, length float64) Path {
	p := Path{Length: length}
	for v >= 0 {
		p.Tasks = append(p.Tasks, v)
		e := from[v]
		if e < 0 {
			break
		}
		p.Edges = append(p.Edges, e)
		v = d.G.Edges[e].From
	}
	slices.Reverse(p.Tasks)
	slices.Reverse(p.Edges)
	return p
}

// Leaf reasons of tree nodes.
const (
	LeafOneEdge   = "one edge"     // the path has a single edge (or none)
	LeafDuplicate = "duplicate"    // the path is already in the tree
	LeafCut       = "cut by bound" // would be expanded, but a bound stopped the tree
	LeafExpanded  = ""             // an inner node
)

// TreeNode is one node of the tree of critical paths.
type TreeNode struct {
	Parent  int // -1 for the root D0
	Depth   int
	Removed int // the edge removed from the parent's graph, -1 for the root
	Path    Path
	Leaf    string // LeafOneEdge, LeafDuplicate, LeafCut or LeafExpanded
}

// Tree is the tree of critical paths (the seed's Fig. 1).
type Tree struct {
	Nodes []TreeNode
	Cut   bool   // a bound stopped the construction
	Bound string // which bound: "tree_max_nodes", "tree_max_depth", "tree_max_ms"
}

// TreeBounds bound the tree's construction.
type TreeBounds struct {
	MaxNodes int
	MaxDepth int
	MaxTime  time.Duration // 0: no time bound
}

// BuildTree builds the tree of critical paths level by level:
// the root is the longest path of the graph; a node's children are the
// longest paths of its graph minus one edge of its path each; a node whose
// path has at most one edge or repeats a path already in the tree is a
// leaf. A bound marks the nodes left unexpanded "cut by bound"
// (tree_max_nodes, tree_max_depth, tree_max_ms; tree_cut counts them).
// This is the paper's hybrid of Ford's longest path and Yen's k paths;
// the longest path's ties go to the earlier task and arc.
func BuildTree(ctx context.Context, d *DAG, b TreeBounds) (*Tree, error) {
	start := time.Now()
	t := &Tree{}
	root := LongestPath(d, nil)
	seen := map[string]bool{root.key(): true}
	t.Nodes = append(t.Nodes, TreeNode{Parent: -1, Removed: -1, Path: root})
	if len(root.Edges) <= 1 {
		t.Nodes[0].Leaf = LeafOneEdge
		return t, nil
	}
	removed := make([]bool, len(d.G.Edges))
	level := []int{0}
	cut := func(nodes []int, bound string) {
		for _, i := range nodes {
			if t.Nodes[i].Leaf == LeafExpanded {
				t.Nodes[i].Leaf = LeafCut
			}
		}
		t.Cut, t.Bound = true, bound
	}
	for depth := 0; len(level) > 0; depth++ {
		if depth >= b.MaxDepth {
			cut(level, "tree_max_depth")
			break
		}
		var next []int
		for li, ni := range level {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// A bound leaves this level's rest and the next level's nodes
			// made so far unexpanded: all of them are cut.
			if b.MaxTime > 0 && time.Since(start) > b.MaxTime {
				cut(append(level[li:], next...), "tree_max_ms")
				return t, nil
			}
			if len(t.Nodes)+len(t.Nodes[ni].Path.Edges) > b.MaxNodes {
				cut(append(level[li:], next...), "tree_max_nodes")
				return t, nil
			}
			// Mark the edges removed on the way from the root.
			var chain []int
			for a := ni; a >= 0 && t.Nodes[a].Removed >= 0; a = t.Nodes[a].Parent {
				chain = append(chain, t.Nodes[a].Removed)
			}
			for _, e := range chain {
				removed[e] = true
			}
			for k, e := range t.Nodes[ni].Path.Edges {
				if k%32 == 31 && ctx.Err() != nil {
					return nil, ctx.Err()
				}
				removed[e] = true
				p := LongestPath(d, removed)
				removed[e] = false
				node := TreeNode{Parent: ni, Depth: depth + 1, Removed: e, Path: p}
				k := p.key()
				switch {
				case seen[k]:
					node.Leaf = LeafDuplicate
				case len(p.Edges) <= 1:
					node.Leaf = LeafOneEdge
				}
				seen[k] = true
				t.Nodes = append(t.Nodes, node)
				if node.Leaf == LeafExpanded {
					next = append(next, len(t.Nodes)-1)
				}
			}
			for _, e := range chain {
				removed[e] = false
			}
		}
		level = next
	}
	return t, nil
}

// Work sources.
const (
	SourceTree       = "tree"       // a path of the tree of critical paths
	SourceCompletion = "completion" // the longest path through an edge no tree path covered
	SourceIsolated   = "isolated"   // a task in no edge
)

// Work is one ranked critical work.
type Work struct {
	Rank   int // 1-based
	Path   Path
	Source string
	Node   int // tree node, -1 when not from the tree
}

// RankWorks is the seed's step 2: take the heaviest path of the tree not
// yet taken while some edge is uncovered; then (our completion: the
// paper's loop would not end) the longest path through each edge still
// uncovered; then every
// isolated task as a work of its own. Paths that would add no new edge are
// skipped. Works are ranked by length, longest first (stable).
func RankWorks(d *DAG, t *Tree) ([]Work, error) {
	c := &coverage{covered: make([]bool, len(d.G.Edges)), left: len(d.G.Edges)}
	c.takeTree(t)
	if c.left > 0 {
		if err := c.complete(d); err != nil {
			return nil, err
		}
	}
	works := c.works
	slices.SortStableFunc(works, longerWorkFirst)
	works = append(works, isolatedWorks(d)...)
	for i := range works {
		works[i].Rank = i + 1
	}
	return works, nil
}

// coverage is the edges the works taken so far cover.
type coverage struct {
	covered []bool // by edge
	left    int    // edges not covered
	works   []Work
	entries int // tasks and edges held by the paths looked at (MaxWorkEntries)
}

// take makes p a work when it covers some edge not yet covered.
func (c *coverage) take(p Path, src string, node int) {
	c.entries += 2 * len(p.Tasks)
	added := false
	for _, e := range p.Edges {
		if !c.covered[e] {
			c.covered[e] = true
			c.left--
			added = true
		}
	}
	if added {
		c.works = append(c.works, Work{Path: p, Source: src, Node: node})
	}
}

// takeTree takes the tree's paths (duplicates left out), heaviest first,
// while some edge is uncovered.
func (c *coverage) takeTree(t *Tree) {
	idx := make([]int, 0, len(t.Nodes))
	for i, n := range t.Nodes {
		if n.Leaf != LeafDuplicate {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(t.Nodes[b].Path.Length, t.Nodes[a].Path.Length) })
	for _, i := range idx {
		if c.left == 0 {
			break
		}
		c.take(t.Nodes[i].Path, SourceTree, i)
	}
}

// complete takes the longest path through each edge still uncovered,
// longest first: head = the longest path ending at the edge's source,
// tail = the longest path starting at its target.
func (c *coverage) complete(d *DAG) error {
	head, hfrom := longestTo(d, nil)
	tail := make([]float64, d.N)
	tnext := make([]int, d.N)
	for i := len(d.Order) - 1; i >= 0; i-- {
		v := d.Order[i]
		tail[v], tnext[v] = d.Fast[v], -1
		for _, a := range d.Succ[v] {
			if l := tail[a.To] + a.Comm + d.Fast[v]; l > tail[v] {
				tail[v], tnext[v] = l, a.E
			}
		}
	}
	var unc []int
	for e := range c.covered {
		if !c.covered[e] {
			unc = append(unc, e)
		}
	}
	lens := make([]float64, len(d.G.Edges))
	for _, e := range unc {
		ed := d.G.Edges[e]
		lens[e] = head[ed.From] + d.Comm(e) + tail[ed.To]
	}
	slices.SortStableFunc(unc, func(a, b int) int { return cmp.Compare(lens[b], lens[a]) })
	for _, e := range unc {
		if c.covered[e] {
			continue
		}
		if c.entries > MaxWorkEntries {
			return errs.New(errs.TooLarge, "edges", "the critical works of this graph hold over %d task and edge entries (%d edges): use a smaller, sparser or shallower graph", MaxWorkEntries, len(d.G.Edges))
		}
		ed := d.G.Edges[e]
		p := tracePath(d, ed.From, hfrom, 0)
		p.Edges = append(p.Edges, e)
		for v := ed.To; v >= 0; {
			p.Tasks = append(p.Tasks, v)
			ne := tnext[v]
			if ne < 0 {
				break
			}
			p.Edges = append(p.Edges, ne)
			v = d.G.Edges[ne].To
		}
		p.Length = lens[e]
		c.take(p, SourceCompletion, -1)
	}
	return nil
}

// isolatedWorks are the tasks without edges, each a work of its own,
// longest first.
func isolatedWorks(d *DAG) []Work {
	var iso []Work
	for v := range d.N {
		if len(d.Succ[v]) == 0 && len(d.Pred[v]) == 0 {
			iso = append(iso, Work{Path: Path{Tasks: []int{v}, Length: d.Fast[v]}, Source: SourceIsolated, Node: -1})
		}
	}
	slices.SortStableFunc(iso, longerWorkFirst)
	return iso
}

// longerWorkFirst orders works by decreasing length (for a stable sort).
func longerWorkFirst(a, b Work) int { return cmp.Compare(b.Path.Length, a.Path.Length) }

// MaxWorkEntries bounds the tasks and edges held by all critical works
// (16 bytes each with the slices' overhead: about 800 MB).
const MaxWorkEntries = 50_000_000

// WorkOf returns, for every task, the rank of the first (highest-ranked)
// work that holds it.
func WorkOf(n int, works []Work) []int {
	w := make([]int, n)
	for _, wk := range works {
		for _, t := range wk.Path.Tasks {
			if w[t] == 0 {
				w[t] = wk.Rank
			}
		}
	}
	return w
}

// CountPaths is the number of source-to-sink paths of the DAG (an
// isolated task is one path): what a depth-first enumeration of all paths,
// the search of the seed's reference [2], visits to the end. Counted by
// dynamic programming in topological order (the count, not the paths, so
// it is O(tasks + edges)); float64, so very large counts are approximate
// and past 1.8e308 +Inf is reported as math.MaxFloat64.
func CountPaths(d *DAG) float64 {
	from := make([]float64, d.N) // paths from v to a sink
	total := 0.0
	for i := len(d.Order) - 1; i >= 0; i-- {
		v := d.Order[i]
		if len(d.Succ[v]) == 0 {
			from[v] = 1
		}
		for _, a := range d.Succ[v] {
			from[v] += from[a.To]
		}
	}
	for v := range d.N {
		if len(d.Pred[v]) == 0 {
			total += from[v]
		}
	}
	return min(total, math.MaxFloat64)
}
