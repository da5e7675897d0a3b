package critical

import (
	"context"
	"embed"
	"fmt"
	"math"
	"math/rand"
	"path"
	"slices"
	"strings"

	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/claims"
	"schedlab/solvers/formats"
)

// The five shared Pegasus workflows (testdata/SOURCES.md), embedded so the
// experiment runs anywhere.
//
//go:embed testdata/*.json
var workflowFS embed.FS

// Workflows returns the embedded workflows as graphs, by file name.
func Workflows() ([]string, []*Graph, error) {
	ents, err := workflowFS.ReadDir("testdata")
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var gs []*Graph
	for _, e := range ents {
		data, err := workflowFS.ReadFile(path.Join("testdata", e.Name()))
		if err != nil {
			return nil, nil, err
		}
		wf, err := formats.ReadWfFormat(e.Name(), data)
		if err != nil {
			return nil, nil, err
		}
		name := strings.TrimSuffix(e.Name(), ".json")
		g, err := FromWorkflow(wf, name)
		if err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		gs = append(gs, g)
	}
	return names, gs, nil
}

// reproAlgos are the algorithms of the deadline comparison, each group on
// the same processors (HEFT and list beside scale-out on the processors
// it used), so every comparison is on equal resources. reading "": the
// default; heft: the index of the HEFT on the same processors; on ≥ 0:
// run on the configuration of algorithm on.
var reproAlgos = []struct {
	name, variant, crit string
	reading             string
	on, heft            int
}{
	{"critical-works (load)", VariantCritical, CriterionLoad, "", -1, 3},
	{"critical-works (cost)", VariantCritical, CriterionCost, "", -1, 3},
	{"critical-works-fallback (load)", VariantCriticalFallback, CriterionLoad, "", -1, 3},
	{"heft", VariantHEFT, CriterionLoad, "", -1, 3},
	{"list", VariantList, CriterionLoad, "", -1, 3},
	{"critical-works (load), scale-out (ours)", VariantCritical, CriterionLoad, CollisionNew, -1, 6},
	{"heft on scale-out's processors", VariantHEFT, CriterionLoad, "", 5, 6},
	{"list on scale-out's processors", VariantList, CriterionLoad, "", 5, 6},
	{"critical-works (load), literal reading (idle)", VariantCritical, CriterionLoad, CollisionIdle, -1, 3},
}

// onPlatform reports whether algorithm a runs on the platform's
// processors (not scale-out, nor on its configuration).
func onPlatform(a int) bool { return reproAlgos[a].reading != CollisionNew && reproAlgos[a].on < 0 }

// ReproDeadlineFactors are the deadlines of the comparison, × HEFT's
// makespan (the sweep; the paper gives the frame as an input).
var ReproDeadlineFactors = []float64{1, 1.25, 1.5, 2}

// reproSizes are the random DAG sizes of the enumeration count; the
// deadline comparison runs on the first two (and the workflows).
var reproSizes = []int{30, 100, 300, 1000}

const reproCompareSizes = 2

// reproCell is one run of the comparison.
type reproCell struct {
	complete, meets, stopped   bool
	ms, ratio, loadD, cost     float64
	procs                      int
	gen, kept, dropped, pruned int
	case1, case2, colDrop      int
	// dOverCW is the deadline over the critical-work length (the paper's
	// a-priori estimate, transfers included); belowCW when under 1.
	dOverCW float64
	belowCW bool
}

// reproduce is our experiment (solvers.Strategy.Reproduce). The seed
// publishes no numbers; it describes the method and reports its failure
// cases, so the experiment measures the method on its own terms: the
// deadline comparison with HEFT and list, the path enumerations, the
// representatives heuristic, the failure cases and the stop, with the
// Claims table first.
func reproduce(ctx context.Context, cfg ReproConfig, progress solvers.Progress) (*report.Report, error) {
	set, err := reproGraphs(cfg)
	if err != nil {
		return nil, err
	}
	res, err := runRepro(ctx, set, progress)
	if err != nil {
		return nil, err
	}
	rep := &report.Report{}
	dl, _ := deadlineTable(set, res)
	enum, en := enumerationTable(set, res)
	mk := makespanTable(set, res)
	gap := gapTable(set, res)
	rp := RepresentativesExperiment(cfg.Instances*10, 1)
	rt := representativesTable(rp)
	ct := ClaimsTable(claimInputs(set, res, en, rp))
	rep.Tables = []report.Table{ct, dl, enum, mk, gap, rt}
	rep.Metrics = []report.Metric{
		{Name: "graphs", Value: float64(len(set.graphs))},
		{Name: "runs", Value: float64(res.runs)},
		{Name: "stopped", Value: float64(res.fails.stops)},
		{Name: "variants_dropped", Value: float64(res.fails.case1 + res.fails.case2 + res.fails.collision)},
		{Name: "failure_case_1", Value: float64(res.fails.case1)},
		{Name: "failure_case_2", Value: float64(res.fails.case2)},
	}
	rep.Notes = reproNotes(set)
	return rep, nil
}

// reproJob is one graph of the experiment with the bandwidth it runs at.
type reproJob struct {
	name string
	g    *Graph
	bw   float64
	size int // random size, 0 for a workflow or a small DAG
}

// reproSet is the experiment's graphs: the workflows first, then
// reproSizes × n random DAGs, then from firstTiny the n small DAGs solved
// exactly.
type reproSet struct {
	cfg       ReproConfig
	n         int
	nwf       int
	graphs    []reproJob
	firstTiny int
}

func reproGraphs(cfg ReproConfig) (*reproSet, error) {
	n := cfg.Instances
	names, wfs, err := Workflows()
	if err != nil {
		return nil, err
	}
	set := &reproSet{cfg: cfg, n: n, nwf: len(wfs)}
	for i, g := range wfs {
		set.graphs = append(set.graphs, reproJob{names[i], g, cfg.Bandwidth, 0})
	}
	for _, size := range reproSizes {
		for i := range n {
			c := DefaultGenConfig()
			c.Tasks, c.Layers = size, max(1, size/5)
			g, err := Generate(c, rand.New(rand.NewSource(int64(1000*size+i))))
			if err != nil {
				return nil, err
			}
			set.graphs = append(set.graphs, reproJob{fmt.Sprintf("random %d #%d", size, i), g, 10, size})
		}
	}
	set.firstTiny = len(set.graphs)
	for i := range n {
		c := DefaultGenConfig()
		c.Tasks, c.Layers, c.Processors = ExactMaxTasks, 3, ExactMaxProcessors
		g, err := Generate(c, rand.New(rand.NewSource(int64(7000+i))))
		if err != nil {
			return nil, err
		}
		set.graphs = append(set.graphs, reproJob{fmt.Sprintf("small #%d", i), g, 10, 0})
	}
	return set, nil
}

// compared reports whether graph gi is in the deadline comparison (the
// workflows and the two smallest random sizes).
func (s *reproSet) compared(gi int) bool {
	return gi < s.nwf+reproCompareSizes*s.n
}

// reproResults is every run: cells[g][f][a] is algorithm a at deadline
// factor f on graph g (compared graphs only); tree the tree and path
// counts of every graph; opt and tiny the small DAGs' optimum and the
// critical-works (load) makespan at factor 2.
type reproResults struct {
	cells [][][]reproCell
	tree  []treeCount
	opt   []float64
	tiny  [][]reproCell // per small DAG, per algorithm, deadline factor 2
	fails failCounts
	runs  int
}

// treeCount is one graph's enumeration count.
type treeCount struct {
	nodes     int
	dfs       float64
	cut       bool
	structure bool // every expanded node has one child per edge of its path
}

// failCounts sum the paper's variant's failure cases and stops over the
// comparison.
type failCounts struct {
	case1, case2, collision, stops, runs int
}

func runRepro(ctx context.Context, set *reproSet, progress solvers.Progress) (*reproResults, error) {
	graphs := set.graphs
	nf := len(ReproDeadlineFactors)
	res := &reproResults{cells: make([][][]reproCell, len(graphs)), tree: make([]treeCount, len(graphs)),
		opt: make([]float64, len(graphs)), tiny: make([][]reproCell, len(graphs))}
	err := solvers.ForEach(ctx, len(graphs), func(gi int) error {
		jb := graphs[gi]
		rc := DefaultRunConfig()
		rc.Bandwidth = jb.bw
		// Only the node bound cuts a tree here: a wall-clock cut would
		// make the tables depend on the machine's load.
		rc.TreeMaxMS = 600_000
		d := Prepare(jb.g, jb.bw)
		tree, err := BuildTree(ctx, d, rc.Tree())
		if err != nil {
			return err
		}
		res.tree[gi] = treeCount{nodes: len(tree.Nodes), dfs: CountPaths(d), cut: tree.Cut, structure: TreeStructureHolds(tree)}
		switch {
		case gi >= set.firstTiny:
			if res.opt[gi], err = ExactMakespan(ctx, d); err != nil {
				return err
			}
			if res.tiny[gi], err = reproRuns(ctx, jb, rc, 2); err != nil {
				return err
			}
		case set.compared(gi):
			res.cells[gi] = make([][]reproCell, nf)
			for f, fac := range ReproDeadlineFactors {
				if res.cells[gi][f], err = reproRuns(ctx, jb, rc, fac); err != nil {
					return err
				}
			}
		}
		return nil
	}, func(done int) {
		progress(done, len(graphs), fmt.Sprintf("%d of %d graphs", done, len(graphs)))
	})
	if err != nil {
		return nil, err
	}
	for gi := range graphs {
		for f := range res.cells[gi] {
			for a, c := range res.cells[gi][f] {
				res.runs++
				if !solvers.LookupVariant(variants, reproAlgos[a].variant).paper() || !onPlatform(a) {
					continue // the failure counts are the paper's method's, on the platform
				}
				fc := &res.fails
				fc.runs++
				fc.case1 += c.case1
				fc.case2 += c.case2
				fc.collision += c.colDrop
				if c.stopped {
					fc.stops++
				}
			}
		}
	}
	return res, nil
}

// reproRuns is every algorithm on one graph at deadline factor × HEFT:
// those on another's configuration run on its processors with its
// deadline.
func reproRuns(ctx context.Context, jb reproJob, rc RunConfig, factor float64) ([]reproCell, error) {
	cells := make([]reproCell, len(reproAlgos))
	outs := make([]*Outcome, len(reproAlgos))
	for a, al := range reproAlgos {
		c := rc
		c.Criterion, c.DeadlineFactor = al.crit, factor
		c.CollisionProcessors = DefaultRunConfig().CollisionProcessors
		if al.reading != "" {
			c.CollisionProcessors = al.reading
		}
		g := jb.g
		if al.on >= 0 {
			g, c.Deadline = outs[al.on].D.G, outs[al.on].Deadline
		}
		o, err := Solve(ctx, g, al.variant, c, nil)
		if err != nil {
			return nil, err
		}
		outs[a], cells[a] = o, reproCellOf(o)
	}
	return cells, nil
}

// reproCellOf is one run's numbers, over the processors it used.
func reproCellOf(o *Outcome) reproCell {
	c := reproCell{complete: o.Complete, procs: o.D.M, dOverCW: o.Deadline / o.Bounds.CriticalPath}
	c.belowCW = c.dOverCW < 1-1e-9
	if o.Complete {
		c.ms = o.Sched.Makespan()
		c.ratio = c.ms / o.Bounds.Lower
		c.meets = c.ms <= o.Deadline+tol(o.Deadline)
		c.loadD = busyTime(o.D, o.Sched) / (o.Deadline * float64(o.D.M))
		c.cost = o.Sched.Cost(o.D)
	}
	if p := o.Plan; p != nil {
		c.stopped, c.gen, c.kept, c.dropped, c.pruned, c.colDrop = p.Stopped, p.Generated, p.Kept, p.Dropped, p.Pruned, p.CollisionDropped
		c.case1 = countStatus(p.Events, "dropped", "case 1")
		c.case2 = countStatus(p.Events, "dropped", "case 2")
	}
	return c
}

// cmpRow is one (deadline factor, algorithm) of the comparison, summed
// over the compared graphs.
type cmpRow struct {
	graphs, meets, stopped, procs int
	kept, cost, loadD             float64 // sums over the runs meeting the deadline (kept: over the paper's variant's runs)
	loadBoth, loadHEFT            float64 // load of this algorithm and of HEFT over the graphs where both meet
	both                          int
	cwMin, cwSum, cwMax           float64 // deadline over the critical-work length
	below, stoppedBelow           int     // graphs whose deadline is below it; of those, stopped
}

// deadlineTable is the comparison on the method's own terms.
func deadlineTable(set *reproSet, res *reproResults) (report.Table, [][]cmpRow) {
	t := report.Table{Title: "Deadline comparison: critical works vs HEFT and list at deadline = HEFT makespan × factor",
		Columns: []string{"deadline_factor", "algorithm", "graphs", "meets_deadline", "stopped", "mean_variants_kept", "mean_cost_meeting", "mean_load_in_deadline_meeting", "mean_processors_used_meeting", "load_vs_heft_both_meeting", "deadline_over_cw_min", "deadline_over_cw_mean", "deadline_over_cw_max", "below_critical_work", "stopped_below_critical_work"}}
	rows := make([][]cmpRow, len(ReproDeadlineFactors))
	for f, fac := range ReproDeadlineFactors {
		rows[f] = make([]cmpRow, len(reproAlgos))
		for a, al := range reproAlgos {
			r := &rows[f][a]
			for gi := range set.graphs {
				if res.cells[gi] == nil {
					continue
				}
				c, h := res.cells[gi][f][a], res.cells[gi][f][al.heft]
				if r.graphs == 0 {
					r.cwMin, r.cwMax = c.dOverCW, c.dOverCW
				}
				r.cwMin, r.cwMax, r.cwSum = min(r.cwMin, c.dOverCW), max(r.cwMax, c.dOverCW), r.cwSum+c.dOverCW
				if c.belowCW {
					r.below++
					if c.stopped {
						r.stoppedBelow++
					}
				}
				r.graphs++
				r.kept += float64(c.kept)
				if c.stopped {
					r.stopped++
				}
				if c.meets {
					r.meets++
					r.cost += c.cost
					r.loadD += c.loadD
					r.procs += c.procs
					if h.meets {
						r.both++
						r.loadBoth += c.loadD
						r.loadHEFT += h.loadD
					}
				}
			}
			kept := any("")
			if solvers.LookupVariant(variants, al.variant).plans {
				kept = r.kept / float64(r.graphs)
			}
			vs := any("—")
			if r.both > 0 && r.loadHEFT > 0 {
				vs = r.loadBoth / r.loadHEFT
			}
			t.Rows = append(t.Rows, []any{fac, al.name, r.graphs, r.meets, r.stopped, kept, meanOrDash(r.cost, r.meets), meanOrDash(r.loadD, r.meets), meanOrDash(float64(r.procs), r.meets), vs, r.cwMin, r.cwSum / float64(r.graphs), r.cwMax, r.below, r.stoppedBelow})
		}
	}
	return t, rows
}

// enumerationTable compares the paths the tree of critical paths
// enumerates (one longest-path computation per node) with the paths a
// depth-first enumeration of all paths visits, per workflow and per
// random size: complete trees compared, cut trees counted apart.
func enumerationTable(set *reproSet, res *reproResults) (report.Table, []enumPoint) {
	t := report.Table{Title: "Path enumerations: tree of critical paths vs depth-first search of all paths",
		Columns: []string{"graphs", "tasks", "instances", "tree_paths_mean", "dfs_paths_mean", "dfs_paths_max", "complete", "tree_fewer_complete", "tree_cut", "tree_fewer_cut"}}
	var pts []enumPoint
	wf := enumPoint{label: "workflows", dfsCutMin: math.Inf(1)}
	add := func(name string, tasks int, idx []int, pt *enumPoint) {
		tn, dm, dx := 0.0, 0.0, 0.0
		fewer, fewerCut, cut := 0, 0, 0
		for _, gi := range idx {
			c := res.tree[gi]
			tn += float64(c.nodes)
			dm += c.dfs
			dx = max(dx, c.dfs)
			if c.cut {
				cut++
				pt.cut++
				pt.dfsCutMin = min(pt.dfsCutMin, c.dfs)
				if float64(c.nodes) < c.dfs {
					fewerCut++
					pt.cutFewer++
				}
				continue
			}
			pt.tree, pt.dfs = append(pt.tree, float64(c.nodes)), append(pt.dfs, c.dfs)
			if float64(c.nodes) < c.dfs {
				fewer++
			}
		}
		k := float64(len(idx))
		t.Rows = append(t.Rows, []any{name, tasks, len(idx), tn / k, dm / k, dx, len(idx) - cut, fewer, cut, fewerCut})
	}
	for gi := range set.nwf {
		add(set.graphs[gi].name, len(set.graphs[gi].g.Tasks), []int{gi}, &wf)
	}
	pts = append(pts, wf)
	for si, size := range reproSizes {
		var idx []int
		for i := range set.n {
			idx = append(idx, set.nwf+si*set.n+i)
		}
		p := enumPoint{label: fmt.Sprintf("random %d", size), dfsCutMin: math.Inf(1)}
		add(fmt.Sprintf("random %d tasks", size), size, idx, &p)
		pts = append(pts, p)
	}
	var tiny []int
	for gi := set.firstTiny; gi < len(set.graphs); gi++ {
		tiny = append(tiny, gi)
	}
	p := enumPoint{label: fmt.Sprintf("random %d", ExactMaxTasks), dfsCutMin: math.Inf(1)}
	add(fmt.Sprintf("random %d tasks (small)", ExactMaxTasks), ExactMaxTasks, tiny, &p)
	pts = append([]enumPoint{p}, pts...)
	return t, pts
}

// claimInputs gathers the per-instance numbers of the Claims rows.
func claimInputs(set *reproSet, res *reproResults, en []enumPoint, rp RepsResult) ClaimInputs {
	in := ClaimInputs{Tree: res.tree, Enum: en, Reps: rp}
	loadPair := func(f, a int) claims.Pair {
		h := reproAlgos[a].heft
		p := claims.Pair{Label: fmt.Sprintf("×%g", ReproDeadlineFactors[f])}
		for gi := range set.graphs {
			if res.cells[gi] == nil {
				continue
			}
			p.A = append(p.A, loadIfMeets(res.cells[gi][f][a]))
			p.B = append(p.B, loadIfMeets(res.cells[gi][f][h]))
		}
		return p
	}
	for f := range ReproDeadlineFactors {
		in.Load = append(in.Load, loadPair(f, 0))
		in.LoadS = append(in.LoadS, loadPair(f, 5))
		for gi := range set.graphs {
			if res.cells[gi] == nil {
				continue
			}
			for a, al := range reproAlgos {
				if solvers.LookupVariant(variants, al.variant).paper() && onPlatform(a) {
					in.Runs = append(in.Runs, res.cells[gi][f][a])
				}
			}
		}
	}
	return in
}

// loadIfMeets is a run's load in the deadline, NaN when it has no
// schedule meeting the deadline (a failure for the Claims rules).
func loadIfMeets(c reproCell) float64 {
	if !c.meets {
		return math.NaN()
	}
	return c.loadD
}

// makespanTable is makespan over the lower bound at the default deadline
// factor, among the complete runs: not the method's objective.
func makespanTable(set *reproSet, res *reproResults) report.Table {
	f := slices.Index(ReproDeadlineFactors, DefaultRunConfig().DeadlineFactor)
	t := report.Table{Title: fmt.Sprintf("Makespan over lower bound at deadline factor %g (not the method's objective)", ReproDeadlineFactors[f]),
		Columns: []string{"graphs", "algorithm", "complete_runs", "mean_makespan_over_bound", "shortest_makespan_wins"}}
	groups := []struct {
		name string
		lo   int
		hi   int
	}{{"workflows", 0, set.nwf}, {fmt.Sprintf("random %d–%d tasks", reproSizes[0], reproSizes[reproCompareSizes-1]), set.nwf, set.nwf + reproCompareSizes*set.n}}
	for _, g := range groups {
		// Wins are counted among the algorithms on the same processors
		// (the same heft index), never across configurations.
		wins := make([]int, len(reproAlgos))
		for gi := g.lo; gi < g.hi; gi++ {
			best := map[int]int{}
			for a, al := range reproAlgos {
				c := res.cells[gi][f][a]
				b, ok := best[al.heft]
				if c.complete && (!ok || c.ms < res.cells[gi][f][b].ms-1e-9) {
					best[al.heft] = a
				}
			}
			for _, b := range best {
				wins[b]++
			}
		}
		for a, al := range reproAlgos {
			n, sum := 0, 0.0
			for gi := g.lo; gi < g.hi; gi++ {
				if c := res.cells[gi][f][a]; c.complete {
					n++
					sum += c.ratio
				}
			}
			t.Rows = append(t.Rows, []any{g.name, al.name, n, meanOrDash(sum, n), wins[a]})
		}
	}
	return t
}

// gapTable is each algorithm's gap to the exact optimum on the small DAGs
// (deadline factor 2), over the runs that produced a schedule.
func gapTable(set *reproSet, res *reproResults) report.Table {
	gapt := report.Table{Title: "Small DAGs: makespan gap to the exact optimum (deadline factor 2)", Columns: []string{"algorithm", "instances", "complete", "mean_gap_pct", "max_gap_pct", "optimal"}}
	for a, al := range reproAlgos {
		if !onPlatform(a) {
			continue // the optimum is the platform's
		}
		sum, mx, hits, n := 0.0, 0.0, 0, 0
		for g := set.firstTiny; g < len(set.graphs); g++ {
			c := res.tiny[g][a]
			if !c.complete {
				continue
			}
			n++
			gp := 100 * (c.ms/res.opt[g] - 1)
			sum += gp
			mx = max(mx, gp)
			if gp < 1e-7 {
				hits++
			}
		}
		gapt.Rows = append(gapt.Rows, []any{al.name, set.n, n, meanOrDash(sum, n), mx, hits})
	}
	return gapt
}

// meanOrDash is sum / n, or "—" when n is 0.
func meanOrDash(sum float64, n int) any {
	if n == 0 {
		return "—"
	}
	return sum / float64(n)
}

func reproNotes(set *reproSet) []string {
	return []string{
		"The seed (Toporkov et al. 2007) publishes no numbers: it describes the implementation of the critical works method and reports two failure cases found in testing. So the paper column of Claims is qualitative; every number here is ours.",
		fmt.Sprintf("Deadline comparison: on the %d workflows and %d random DAGs of %d and %d tasks, the job's time frame is [0, factor × HEFT's makespan on the platform] for factor in %v. critical-works is the paper's method as written (it may stop: no variant left), on the platform's processors (collision_processors reserve, the default: a task in collision moves to the processor and earliest time inside its frame, what stays in collision goes where it finishes first and the tasks after it shift inside the works' reserve, the variant standing if all ends by the deadline); the row \"literal reading (idle)\" runs it with collision_processors idle (another processor free at the planned time, nothing moves in time), for its stop rate; critical-works-fallback is ours (it always gives a schedule); HEFT and list do not plan for a deadline, they are counted as meeting it when their makespan ends within it. The scale-out rows run the paper's method with collision_processors new (ours: copies of platform processors join the configuration), and HEFT and list on the processors that run used, with the same deadline: every comparison is on the same processors (mean_processors_used). Cost = Σ time × price (price 1: processor time used); load in deadline = Σ busy / (deadline × processors used). The deadline is also stated × the critical-work length (deadline_over_cw, the paper's a-priori estimate, every transfer counted: the planner counts them all, so below 1 no plan fits); below_critical_work counts the graphs where it is under 1, and stopped_below_critical_work the stops there, which measure the deadline, not the method.", set.nwf, reproCompareSizes*set.n, reproSizes[0], reproSizes[1], ReproDeadlineFactors),
		"Path enumerations: tree_paths = the nodes of the tree of critical paths (each one longest-path computation); dfs_paths = the source-to-sink paths a depth-first enumeration of all paths (the search of the seed's reference [2]) visits, counted exactly by dynamic programming. A tree cut by tree_max_nodes enumerated fewer paths than a complete one would.",
		"Workflows: the five Pegasus runs (testdata/SOURCES.md) with runtime = volume on 4 processors of performance 1, 1, 2, 4; file sizes become transfers at the bandwidth parameter. Random DAGs: the random preset with layers = tasks / 5 and its other defaults.",
		"Makespan is not the critical works method's objective (it plans each work for its criterion inside the time frame); it is shown because HEFT and list minimize it.",
	}
}
