package charts

import (
	"cmp"
	"slices"
)

// Layered ordering of a DAG or tree drawing: the crossing-reduction phase
// of the method of Sugiyama, Tagawa and Toda ("Methods for visual
// understanding of hierarchical system structures", IEEE Trans. SMC 11(2),
// 1981). Nodes sit in layers (their Level); an edge spanning several
// layers becomes a chain of dummy nodes, one per layer crossed, so that
// it takes part in the ordering of every layer it passes; the layers are
// then swept down and up, each layer ordered by the barycentre (mean
// position) of its neighbours in the layer just swept, and the order with
// the fewest crossings seen after any sweep is kept. Crossings between two layers are
// counted as inversions (Barth, Jünger and Mutzel, "Simple and efficient
// bilayer cross counting", JGAA 8(2), 2004: the edges in the order of
// their upper ends, count the inversions of their lower ends with a
// Fenwick tree).

// Limits of the ordering, so a large graph costs little.
const (
	// layeredMaxSweeps bounds the down-and-up sweep pairs.
	layeredMaxSweeps = 24
	// layeredPatience stops the sweeps after this many pairs without fewer
	// crossings.
	layeredPatience = 4
	// layeredMaxDummies bounds the dummy nodes (edges times layers
	// crossed); beyond it long edges take part only through the layers of
	// their ends (no dummies).
	layeredMaxDummies = 50000
)

// layered is a layered graph: layers[l] holds vertex indices in order;
// vertices below n are the graph's nodes, the rest dummies; up[v] and
// down[v] are v's neighbours one layer above and below.
type layered struct {
	n        int
	layerOf  []int
	layers   [][]int
	up, down [][]int
	pos      []int     // each vertex's index in its layer
	key      []float64 // scratch: barycentres
}

// orderLayers returns the nodes of each row (rows in the order of
// levels) ordered to reduce edge crossings. ids are the nodes (first of
// duplicates), row[id] the index of its row, order[id] its input position;
// edges join row indices (back edges and edges within one row are left
// out by the caller). Ties keep the current order, and the first order is
// the input order, so the result is deterministic.
func orderLayers(ids []string, row map[string]int, rows int, edges [][2]string) [][]string {
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	lg := layered{n: len(ids), layerOf: make([]int, len(ids)), layers: make([][]int, rows)}
	for i, id := range ids {
		lg.layerOf[i] = row[id]
		lg.layers[row[id]] = append(lg.layers[row[id]], i)
	}
	lg.up = make([][]int, len(ids))
	lg.down = make([][]int, len(ids))
	dummies := 0
	for _, e := range edges {
		a, b := index[e[0]], index[e[1]]
		if lg.layerOf[a] > lg.layerOf[b] {
			a, b = b, a
		}
		dummies += lg.layerOf[b] - lg.layerOf[a] - 1
	}
	useDummies := dummies <= layeredMaxDummies
	for _, e := range edges {
		a, b := index[e[0]], index[e[1]]
		if lg.layerOf[a] == lg.layerOf[b] {
			continue
		}
		if lg.layerOf[a] > lg.layerOf[b] {
			a, b = b, a
		}
		prev := a
		if useDummies {
			for l := lg.layerOf[a] + 1; l < lg.layerOf[b]; l++ {
				d := len(lg.layerOf)
				lg.layerOf = append(lg.layerOf, l)
				lg.up = append(lg.up, nil)
				lg.down = append(lg.down, nil)
				lg.layers[l] = append(lg.layers[l], d)
				lg.link(prev, d)
				prev = d
			}
		}
		lg.link(prev, b)
	}

	lg.pos = make([]int, len(lg.layerOf))
	lg.key = make([]float64, len(lg.layerOf))
	for _, layer := range lg.layers {
		for i, v := range layer {
			lg.pos[v] = i
		}
	}
	best := lg.snapshot()
	bestCross := lg.crossings()
	stale := 0
	for sweep := 0; sweep < layeredMaxSweeps && bestCross > 0 && stale < layeredPatience; sweep++ {
		improved := false
		for _, down := range []bool{true, false} {
			if down {
				for l := 1; l < rows; l++ {
					lg.sortByBarycentre(l, lg.up)
				}
			} else {
				for l := rows - 2; l >= 0; l-- {
					lg.sortByBarycentre(l, lg.down)
				}
			}
			if c := lg.crossings(); c < bestCross {
				best, bestCross, improved = lg.snapshot(), c, true
			}
		}
		if improved {
			stale = 0
		} else {
			stale++
		}
	}

	out := make([][]string, rows)
	for l, layer := range best {
		for _, v := range layer {
			if v < lg.n {
				out[l] = append(out[l], ids[v])
			}
		}
	}
	return out
}

func (lg *layered) link(a, b int) {
	lg.down[a] = append(lg.down[a], b)
	lg.up[b] = append(lg.up[b], a)
}

func (lg *layered) snapshot() [][]int {
	s := make([][]int, len(lg.layers))
	for l, layer := range lg.layers {
		s[l] = append([]int(nil), layer...)
	}
	return s
}

// sortByBarycentre orders layer l by the mean position of each vertex's
// neighbours in adj (up: the layer above, down: below); a vertex without
// such neighbours keeps its position as its key. The sort is stable.
func (lg *layered) sortByBarycentre(l int, adj [][]int) {
	layer := lg.layers[l]
	for i, v := range layer {
		if len(adj[v]) == 0 {
			lg.key[v] = float64(i)
			continue
		}
		sum := 0
		for _, u := range adj[v] {
			sum += lg.pos[u]
		}
		lg.key[v] = float64(sum) / float64(len(adj[v]))
	}
	slices.SortStableFunc(layer, func(a, b int) int { return cmp.Compare(lg.key[a], lg.key[b]) })
	for i, v := range layer {
		lg.pos[v] = i
	}
}

// crossings counts the edge crossings between every two adjacent layers
// (Barth et al.: the edges in the order of their upper ends, each upper
// end's edges by lower end, the crossings are the inversions of the lower
// ends, counted with a Fenwick tree; edges sharing an end never cross).
func (lg *layered) crossings() int {
	total := 0
	var tree, lower []int
	for l := 0; l+1 < len(lg.layers); l++ {
		width := len(lg.layers[l+1])
		tree = slices.Grow(tree[:0], width+1)[:width+1]
		clear(tree)
		seen := 0
		for _, v := range lg.layers[l] {
			lower = lower[:0]
			for _, w := range lg.down[v] {
				if lg.layerOf[w] == l+1 { // without dummies, long edges are not counted
					lower = append(lower, lg.pos[w])
				}
			}
			slices.Sort(lower)
			for _, p := range lower {
				atMost := 0 // edges seen whose lower end is at or left of p
				for i := p + 1; i > 0; i -= i & -i {
					atMost += tree[i]
				}
				total += seen - atMost
			}
			for _, p := range lower {
				for i := p + 1; i <= width; i += i & -i {
					tree[i]++
				}
				seen++
			}
		}
	}
	return total
}
