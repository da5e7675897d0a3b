package charts

import "sort"

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
// bilayer cross counting", JGAA 8(2), 2004: sort the edges by their upper
// end, count the inversions of their lower ends with a Fenwick tree).

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

// positions is each vertex's index in its layer.
func (lg *layered) positions() []int {
	pos := make([]int, len(lg.layerOf))
	for _, layer := range lg.layers {
		for i, v := range layer {
			pos[v] = i
		}
	}
	return pos
}

// sortByBarycentre orders layer l by the mean position of each vertex's
// neighbours in adj (up: the layer above, down: below); a vertex without
// such neighbours keeps its position as its key. The sort is stable.
func (lg *layered) sortByBarycentre(l int, adj [][]int) {
	pos := lg.positions()
	layer := lg.layers[l]
	key := make(map[int]float64, len(layer))
	for i, v := range layer {
		if len(adj[v]) == 0 {
			key[v] = float64(i)
			continue
		}
		sum := 0
		for _, u := range adj[v] {
			sum += pos[u]
		}
		key[v] = float64(sum) / float64(len(adj[v]))
	}
	sort.SliceStable(layer, func(i, j int) bool { return key[layer[i]] < key[layer[j]] })
}

// crossings counts the edge crossings between every two adjacent layers.
func (lg *layered) crossings() int {
	pos := lg.positions()
	total := 0
	for l := 0; l+1 < len(lg.layers); l++ {
		var ends [][2]int
		for _, v := range lg.layers[l] {
			for _, w := range lg.down[v] {
				if lg.layerOf[w] == l+1 { // without dummies, long edges are not counted
					ends = append(ends, [2]int{pos[v], pos[w]})
				}
			}
		}
		total += inversions(ends, len(lg.layers[l+1]))
	}
	return total
}

// inversions counts the pairs of edges (upper, lower) that cross: sorted
// by upper end then lower end, a pair crosses when the later edge's lower
// end is left of the earlier's. width bounds the lower ends.
func inversions(ends [][2]int, width int) int {
	sort.Slice(ends, func(i, j int) bool {
		if ends[i][0] != ends[j][0] {
			return ends[i][0] < ends[j][0]
		}
		return ends[i][1] < ends[j][1]
	})
	tree := make([]int, width+1) // Fenwick tree over lower positions
	n, seen := 0, 0
	for _, e := range ends {
		atMost := 0 // edges seen whose lower end is at or left of e's
		for i := e[1] + 1; i > 0; i -= i & -i {
			atMost += tree[i]
		}
		n += seen - atMost
		seen++
		for i := e[1] + 1; i <= width; i += i & -i {
			tree[i]++
		}
	}
	return n
}
