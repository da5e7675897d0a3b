package critical

import (
	"fmt"
	"math/rand"
	"slices"

	"schedlab/solvers"
)

// Verdicts of the Claims table (../shared/fidelity.md).
const (
	VerdictHolds       = solvers.Holds
	VerdictPartly      = solvers.Partly
	VerdictDoesNotHold = solvers.DoesNotHold
	VerdictNotMeasured = solvers.NotMeasured
)

// TreeStructureHolds checks the seed's construction of the tree of
// critical paths (its Fig. 1) on a built tree: every expanded node has one
// child per edge of its path, each child's graph lacks that edge (the
// child's path does not use it); a one-edge leaf has at most one edge; a
// duplicate leaf repeats a path met before it in level order.
func TreeStructureHolds(t *Tree) bool {
	children := make([][]int, len(t.Nodes))
	for i, n := range t.Nodes {
		if n.Parent >= 0 {
			children[n.Parent] = append(children[n.Parent], i)
		}
	}
	seen := map[string]bool{}
	for i, n := range t.Nodes {
		k := n.Path.key()
		switch n.Leaf {
		case LeafExpanded:
			if len(children[i]) != len(n.Path.Edges) {
				return false
			}
			for j, c := range children[i] {
				if t.Nodes[c].Removed != n.Path.Edges[j] || slices.Contains(t.Nodes[c].Path.Edges, n.Path.Edges[j]) {
					return false
				}
			}
		case LeafOneEdge:
			if len(n.Path.Edges) > 1 {
				return false
			}
		case LeafDuplicate:
			if !seen[k] {
				return false
			}
		}
		if n.Leaf != LeafExpanded && n.Leaf != LeafCut && len(children[i]) > 0 {
			return false
		}
		seen[k] = true
	}
	return true
}

// NaiveRepresentatives is the plain choice the seed's heuristic improves
// on: the X vertices in the order given, each taking its lightest
// neighbour not yet taken (ties to the lower index).
func NaiveRepresentatives(xs []int, adj map[int][]int, weight func(int) float64) map[int]int {
	rep := map[int]int{}
	taken := map[int]bool{}
	for _, x := range xs {
		best := -1
		for _, y := range adj[x] {
			if !taken[y] && (best < 0 || weight(y) < weight(best) || (weight(y) == weight(best) && y < best)) {
				best = y
			}
		}
		if best >= 0 {
			rep[x], taken[best] = best, true
		}
	}
	return rep
}

// Fig2 is the seed's Fig. 2 situation (the figure itself is not in the
// text; the text names p4, p24 and p30): p4 collides with p24 and p25,
// p30 only with p24, p5 with p25 and p26. Taking the lightest neighbour in
// order, p4 takes p24 and p30 is left without a representative.
func Fig2() (xs []int, adj map[int][]int, weight func(int) float64) {
	const p4, p5, p30, p24, p25, p26 = 4, 5, 30, 24, 25, 26
	w := map[int]float64{p24: 2, p25: 5, p26: 7, p4: 6, p5: 3, p30: 4}
	return []int{p4, p5, p30}, map[int][]int{p4: {p24, p25}, p5: {p25, p26}, p30: {p24}}, func(v int) float64 { return w[v] }
}

// RepsResult is the representatives experiment's counts: X vertices left
// without a representative by the seed's heuristic and by the naive
// choice, on Fig. 2 and on random bipartite graphs.
type RepsResult struct {
	Fig2Heuristic, Fig2Naive int
	Graphs, XVertices        int
	Heuristic, Naive         int // X vertices left without a representative
	HeuristicWorse           int // graphs where the heuristic leaves more than the naive choice
}

// RepresentativesExperiment runs both choices on Fig. 2 and on n random
// collision graphs: 2–6 X and 2–6 Y vertices, each X with 1–3 random Y
// neighbours, weights uniform in [1, 10), X in index order.
func RepresentativesExperiment(n int, seed int64) RepsResult {
	var r RepsResult
	xs, adj, w := Fig2()
	r.Fig2Heuristic = len(xs) - len(Representatives(xs, adj, w))
	r.Fig2Naive = len(xs) - len(NaiveRepresentatives(xs, adj, w))
	rng := rand.New(rand.NewSource(seed))
	for range n {
		nx, ny := 2+rng.Intn(5), 2+rng.Intn(5)
		wt := make([]float64, nx+ny)
		for i := range wt {
			wt[i] = 1 + 9*rng.Float64()
		}
		xs := make([]int, nx)
		adj := map[int][]int{}
		for i := range nx {
			xs[i] = i
			for _, y := range rng.Perm(ny)[:1+rng.Intn(min(3, ny))] {
				adj[i] = append(adj[i], nx+y)
			}
		}
		weight := func(v int) float64 { return wt[v] }
		h := nx - len(Representatives(xs, adj, weight))
		nv := nx - len(NaiveRepresentatives(xs, adj, weight))
		r.Graphs++
		r.XVertices += nx
		r.Heuristic += h
		r.Naive += nv
		if h > nv {
			r.HeuristicWorse++
		}
	}
	return r
}

func representativesTable(r RepsResult) solvers.Table {
	return solvers.Table{Title: "Representatives: X vertices left without one (seed's heuristic vs lightest neighbour in order)",
		Columns: []string{"case", "graphs", "x_vertices", "heuristic_missing", "naive_missing", "graphs_heuristic_worse"},
		Rows: [][]any{
			{"Fig. 2 (p4, p5, p30)", 1, 3, r.Fig2Heuristic, r.Fig2Naive, btoi(r.Fig2Heuristic > r.Fig2Naive)},
			{"random collision graphs", r.Graphs, r.XVertices, r.Heuristic, r.Naive, r.HeuristicWorse},
		}}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ClaimInputs are the numbers the Claims verdicts are computed from.
type ClaimInputs struct {
	Tree  []treeCount
	Enum  enumCount
	Reps  RepsResult
	Fails failCounts
	Cmp   [][]cmpRow // [deadline factor][algorithm]
}

// Verdict rules (each has a test that flips it).

// verdictTree: the construction holds on every graph; complete on all:
// holds; cut by a bound on some: partly.
func verdictTree(structureOK bool, cut int) string {
	switch {
	case !structureOK:
		return VerdictDoesNotHold
	case cut == 0:
		return VerdictHolds
	}
	return VerdictPartly
}

// verdictEnum: the tree enumerates fewer paths than DFS on ≥ 90 % of the
// graphs: holds; on ≥ 50 %: partly.
func verdictEnum(fewer, graphs int) string {
	if graphs == 0 {
		return VerdictNotMeasured
	}
	switch f := float64(fewer) / float64(graphs); {
	case f >= 0.9:
		return VerdictHolds
	case f >= 0.5:
		return VerdictPartly
	}
	return VerdictDoesNotHold
}

// verdictFig2: the heuristic represents every X vertex where the naive
// choice isolates one.
func verdictFig2(heuristic, naive int) string {
	switch {
	case heuristic == 0 && naive > 0:
		return VerdictHolds
	case heuristic < naive:
		return VerdictPartly
	}
	return VerdictDoesNotHold
}

// verdictReps: fewer X vertices without a representative than the naive
// choice over the random graphs, and never more on one graph: holds;
// fewer in all but worse on some graph: partly.
func verdictReps(r RepsResult) string {
	switch {
	case r.Graphs == 0:
		return VerdictNotMeasured
	case r.Heuristic < r.Naive && r.HeuristicWorse == 0:
		return VerdictHolds
	case r.Heuristic < r.Naive:
		return VerdictPartly
	}
	return VerdictDoesNotHold
}

// verdictOccurs: a situation the paper reports from testing occurs in ours.
func verdictOccurs(count, runs int) string {
	switch {
	case runs == 0:
		return VerdictNotMeasured
	case count > 0:
		return VerdictHolds
	}
	return VerdictDoesNotHold
}

// verdictLoad: critical-works (load) reaches at least HEFT's load in the
// time frame (over the graphs where both meet the deadline) at every
// factor with data: holds; at some: partly; none with data: not measured.
func verdictLoad(ratios []float64) string {
	with, at := 0, 0
	for _, r := range ratios {
		if r < 0 {
			continue
		}
		with++
		if r >= 1-1e-9 {
			at++
		}
	}
	switch {
	case with == 0:
		return VerdictNotMeasured
	case at == with:
		return VerdictHolds
	case at > 0:
		return VerdictPartly
	}
	return VerdictDoesNotHold
}

// ClaimsTable is the seed's mechanisms and claims, each with our number
// and a verdict computed by the rules above.
func ClaimsTable(in ClaimInputs) solvers.Table {
	t := solvers.Table{Title: "Claims", Columns: []string{"claim", "paper", "ours", "verdict", "evidence"}}
	structOK, cut := true, 0
	for _, c := range in.Tree {
		structOK = structOK && c.structure
		if c.cut {
			cut++
		}
	}
	t.Rows = append(t.Rows, []any{"Fig. 1: tree of critical paths (root = longest path; a child per edge of a node's path, in the graph without it; leaves: one edge or a path met before)",
		"construction described, Fig. 1 (not in the text)",
		fmt.Sprintf("construction checked on %d graphs: %v; cut by a bound on %d", len(in.Tree), structOK, cut),
		verdictTree(structOK, cut), "tests TestFig1TreeByHand, TestTreeNodesAreLongestPathsOfTheirGraphs; table Path enumerations (tree_cut)"})
	t.Rows = append(t.Rows, []any{"The tree of critical paths needs fewer enumerations than the depth-first search of [2]",
		"qualitative: DFS «требует большого количества вычислений на графах большой размерности»",
		fmt.Sprintf("tree enumerated fewer paths than DFS visits on %d of %d graphs", in.Enum.fewer, in.Enum.graphs),
		verdictEnum(in.Enum.fewer, in.Enum.graphs), "table Path enumerations: tree of critical paths vs depth-first search of all paths"})
	t.Rows = append(t.Rows, []any{"Fig. 2: the heuristic avoids choosing p24 for p4 and isolating p30",
		"qualitative (Fig. 2 not in the text)",
		fmt.Sprintf("X vertices left without a representative: heuristic %d, lightest neighbour in order %d", in.Reps.Fig2Heuristic, in.Reps.Fig2Naive),
		verdictFig2(in.Reps.Fig2Heuristic, in.Reps.Fig2Naive), "test TestRepresentativesFig2; table Representatives"})
	t.Rows = append(t.Rows, []any{"The representatives heuristic lowers the chance that an X vertex is left without a representative",
		"qualitative: «позволяет уменьшить вероятность ситуации…»",
		fmt.Sprintf("%d random collision graphs, %d X vertices: left without one %d (heuristic) vs %d (naive); heuristic worse on %d graphs", in.Reps.Graphs, in.Reps.XVertices, in.Reps.Heuristic, in.Reps.Naive, in.Reps.HeuristicWorse),
		verdictReps(in.Reps), "table Representatives"})
	f := in.Fails
	t.Rows = append(t.Rows, []any{"Exceptional situation 1: works planned independently break precedence on a connecting arc",
		"reported from testing, no count", fmt.Sprintf("%d variants dropped by case 1 in %d critical-works runs", f.case1, f.runs),
		verdictOccurs(f.case1, f.runs), "reproduce metric failure_case_1; test TestFailureCase1DropsTheVariant"})
	t.Rows = append(t.Rows, []any{"Exceptional situation 2: too little slack between planned tasks for the tasks of a work",
		"reported from testing, no count", fmt.Sprintf("%d variants dropped by case 2 in %d critical-works runs", f.case2, f.runs),
		verdictOccurs(f.case2, f.runs), "reproduce metric failure_case_2; test TestFailureCase2DropsTheVariant"})
	t.Rows = append(t.Rows, []any{"The algorithm ends when no variant is left",
		"«либо не осталось вариантов распределения… алгоритм завершает свою работу»",
		fmt.Sprintf("%d of %d critical-works runs stopped with no variant left", f.stops, f.runs),
		verdictOccurs(f.stops, f.runs), "table Deadline comparison (stopped); test TestPaperStopEndsTheRun"})
	var ratios []float64
	var parts []string
	for fi, rows := range in.Cmp {
		r := rows[0] // critical-works (load)
		if r.both == 0 || r.loadHEFT == 0 {
			ratios = append(ratios, -1)
			parts = append(parts, fmt.Sprintf("×%g: no graph where both meet", ReproDeadlineFactors[fi]))
			continue
		}
		ratios = append(ratios, r.loadBoth/r.loadHEFT)
		parts = append(parts, fmt.Sprintf("×%g: %.3f (%d graphs)", ReproDeadlineFactors[fi], r.loadBoth/r.loadHEFT, r.both))
	}
	t.Rows = append(t.Rows, []any{"Criterion: the planner optimizes the mean load of the base processors within the job's time frame",
		"the implementation's criterion, no number",
		"load in the deadline, critical-works (load) / HEFT where both meet it: " + joinParts(parts),
		verdictLoad(ratios), "table Deadline comparison (load_vs_heft_both_meeting)"})
	return t
}

func joinParts(p []string) string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += "; "
		}
		s += x
	}
	return s
}
