package critical

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"schedlab/report"
	"schedlab/solvers"
)

// Display budgets: past these a report leaves a part out and says so.
const (
	maxDrawNodes      = 2000
	maxDrawEdges      = 20000
	maxTreeEdgeLabels = 40  // edge labels (the removed arc) only on small trees
	maxTreeDraw       = 150 // beyond this a drawn tree is unreadable (labels on hover only)
	maxTableRows      = 2000
)

// previewBandwidth is the bandwidth (MB/s) a preview converts bytes at:
// the run parameter's default.
const previewBandwidth = 10

func preview(g *Graph) *report.Report {
	d := Prepare(g, previewBandwidth)
	b := d.ComputeBounds()
	r := &report.Report{}
	r.Metrics = []report.Metric{
		{Name: "tasks", Value: float64(d.N), Kind: report.KindInfo},
		{Name: "edges", Value: float64(len(g.Edges)), Kind: report.KindInfo},
		{Name: "processors", Value: float64(d.M), Kind: report.KindInfo},
		{Name: "critical_path_length", Value: b.CriticalPath, Unit: "time units", Kind: report.KindInfo},
		{Name: "lower_bound", Value: b.Lower, Unit: "time units", Kind: report.KindInfo},
	}
	root := LongestPath(d, nil)
	r.Graphs = append(r.Graphs, dagGraph(d, root, nil, &r.Notes))
	r.Tables = append(r.Tables, tasksTable(d))
	pt := report.Table{Title: "Processors", Columns: []string{"processor", "performance", "price"}}
	for _, p := range g.Processors {
		pt.Rows = append(pt.Rows, []any{p.ID, p.Performance, p.Price})
	}
	r.Tables = append(r.Tables, pt)
	r.Notes = append(r.Notes,
		fmt.Sprintf("The longest path (edges marked critical) is %s, length %.4g: fastest task times plus transfer times.", root.label(d, 12), root.Length),
		fmt.Sprintf("Edges given in bytes are shown at the default bandwidth of %d MB/s; a run converts them at its bandwidth parameter.", previewBandwidth))
	if g.Source == "wfformat" {
		r.Notes = append(r.Notes, fmt.Sprintf("Read from WfFormat: volume = runtimeInSeconds (performance 1 = one core of the recording machine), edge bytes = the files a parent writes and its child reads, processors of performance %v (a fixed platform: the trace has none to schedule on).", WorkflowPlatform()))
	}
	if g.Times != nil {
		r.Notes = append(r.Notes, "Task times come from the explicit times matrix (task × processor), not from volume / performance.")
	}
	return r
}

func tasksTable(d *DAG) report.Table {
	t := report.Table{Title: "Tasks", Columns: []string{"task", "volume", "fastest_time", "mean_time", "level", "parents", "children"}}
	for v := range d.N {
		if v == maxTableRows {
			break
		}
		var ps, cs []string
		for _, a := range d.Pred[v] {
			ps = append(ps, d.G.Tasks[a.To].ID)
		}
		for _, a := range d.Succ[v] {
			cs = append(cs, d.G.Tasks[a.To].ID)
		}
		t.Rows = append(t.Rows, []any{d.G.Tasks[v].ID, d.G.Tasks[v].Volume, d.Fast[v], d.Mean[v], d.Level[v], strings.Join(ps, " "), strings.Join(cs, " ")})
	}
	return t
}

// dagGraph draws the DAG (Level = topological level) with the path's
// edges as "critical"; group gives each task's node group (nil: none).
func dagGraph(d *DAG, crit Path, group []string, notes *[]string) report.Graph {
	g := report.Graph{Title: "Task graph", Layout: "dag"}
	if d.N > maxDrawNodes || len(d.G.Edges) > maxDrawEdges {
		*notes = append(*notes, fmt.Sprintf("The task graph is not drawn: %d tasks and %d edges are over the display budget (%d tasks, %d edges).", d.N, len(d.G.Edges), maxDrawNodes, maxDrawEdges))
		return g
	}
	onPath := map[int]bool{}
	for _, e := range crit.Edges {
		onPath[e] = true
	}
	for v := range d.N {
		n := report.GraphNode{ID: d.G.Tasks[v].ID, Label: fmt.Sprintf("%s (%.3g)", d.G.Tasks[v].ID, d.Fast[v]), Level: d.Level[v]}
		if group != nil {
			n.Group = group[v]
		}
		g.Nodes = append(g.Nodes, n)
	}
	for k, e := range d.G.Edges {
		ge := report.GraphEdge{Source: d.G.Tasks[e.From].ID, Target: d.G.Tasks[e.To].ID, Label: fmt.Sprintf("%.3g", d.Comm(k))}
		if onPath[k] {
			ge.Kind = report.EdgeCritical
		}
		g.Edges = append(g.Edges, ge)
	}
	return g
}

// TimeUnit is the unit of task times and schedules: the paper's abstract
// time units (volume / performance), which do not convert to seconds.
const TimeUnit = "time units"

func runReport(o *Outcome) *report.Report {
	d := o.D
	r := &report.Report{Metrics: runMetrics(o)}
	workOf := WorkOf(d.N, o.Works)
	group := make([]string, d.N)
	for v := range d.N {
		group[v] = fmt.Sprintf("work %d", workOf[v])
	}
	r.Gantts = runGantts(o, group)
	r.Time = &report.TimeFrame{Unit: TimeUnit, OriginName: "the start of the schedule"}
	root := o.Tree.Nodes[0].Path
	r.Graphs = append(r.Graphs, dagGraph(d, root, group, &r.Notes))
	r.Graphs = append(r.Graphs, treeGraph(d, o.Tree, &r.Notes))
	var steps []WorkStep
	if o.Plan != nil {
		steps = o.Plan.Steps
	}
	wt, note := worksTable(d, o.Works, steps)
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	st := scheduleTable(d, o.Sched, workOf)
	if !o.Complete {
		st.Title = "Partial plan"
	}
	r.Tables = append(r.Tables, wt, st)
	if o.Plan != nil {
		tables, notes := planTables(o)
		r.Tables = append(r.Tables, tables...)
		r.Notes = append(r.Notes, notes...)
	}
	if o.Tree.Cut {
		r.Notes = append(r.Notes, fmt.Sprintf("The tree of critical paths was cut by %s at %d nodes; works not found in the tree were completed by the longest path through each uncovered edge.", o.Tree.Bound, len(o.Tree.Nodes)))
	}
	r.Notes = append(r.Notes,
		fmt.Sprintf("Time frame (deadline) %.4g: %s; HEFT's makespan is %.4g, the critical-work length %.4g (deadline_over_critical_work %.3g: below 1 the paper's own a-priori estimate, every transfer counted, says no plan fits). meets_deadline says whether this run's schedule ends within it; processor_load_deadline = Σ busy time / (deadline × processors), the paper's mean load of the base processors over the frame.", o.Deadline, deadlineSource(o.Config), o.HEFT.Makespan(), o.Bounds.CriticalPath, ratioOr0(o.Deadline, o.Bounds.CriticalPath)),
		fmt.Sprintf("critical_path_length %.4g is the longest path by fastest task times plus transfer times (the paper's critical work). lower_bound %.4g = max(longest path of fastest task times without transfers %.4g, total work / total speed %.4g): transfers vanish when both tasks share a processor, so only the transfer-free path bounds every schedule.", o.Bounds.CriticalPath, o.Bounds.Lower, o.Bounds.CompPath, o.Bounds.WorkOverS),
		"processor_load_mean = Σ busy time / (makespan × processors); cost = Σ task time × processor price (price 1 unless given: processor time used). Makespan is not the critical works method's objective: it plans for its criterion inside the time frame.")
	return r
}

func deadlineSource(c RunConfig) string {
	if c.Deadline > 0 {
		return "the deadline parameter"
	}
	return fmt.Sprintf("deadline_factor %.4g × HEFT's makespan", c.DeadlineFactor)
}

// The variants a run metric is meaningful for (report.Metric.Variants):
// the baselines build the tree and its works only to colour their Gantt;
// only the paper's method stops, only the fallback plans works by it.
var (
	planners        = solvers.VariantNames(variants, func(v algorithm) bool { return v.plans })
	paperPlanner    = solvers.VariantNames(variants, algorithm.paper)
	fallbackPlanner = solvers.VariantNames(variants, func(v algorithm) bool { return v.fallback })
)

// runMetrics are a run's metrics: the schedule's (left out when the run
// stopped without a complete plan), the deadline's, the planner's counts
// (0 but for the critical-works variants) and the tree's size.
func runMetrics(o *Outcome) []report.Metric {
	d, s := o.D, o.Sched
	var ms []report.Metric
	meets := false
	if o.Complete {
		mk := s.Makespan()
		ratio := 0.0
		if o.Bounds.Lower > 0 {
			ratio = mk / o.Bounds.Lower
		} else if mk == 0 {
			ratio = 1
		}
		meets = mk <= o.Deadline+tol(o.Deadline)
		loadD := 0.0
		if o.Deadline > 0 {
			loadD = busyTime(d, s) / (o.Deadline * float64(d.M))
		}
		ms = append(ms,
			report.Metric{Name: "makespan", Value: mk, Unit: "time units", Better: report.Lower},
			report.Metric{Name: "makespan_over_bound", Value: ratio, Better: report.Lower},
			report.Metric{Name: "processor_load_mean", Value: s.LoadMean(d), Better: report.Higher},
			report.Metric{Name: "processor_load_deadline", Value: loadD, Better: report.Higher},
			report.Metric{Name: "cost", Value: s.Cost(d), Unit: "price × time", Better: report.Lower})
	}
	var gen, kept, dropped, pruned, cols, unres, relax int
	stopped := false
	worksPlanned := len(o.Works)
	if p := o.Plan; p != nil {
		gen, kept, dropped, pruned, cols, relax, stopped = p.Generated, p.Kept, p.Dropped, p.Pruned, len(p.Collisions), p.Relaxations, p.Stopped
		for _, c := range p.Collisions {
			if c.Outcome == OutcomeReplaced {
				unres++
			}
		}
		if p.StopWork > 0 {
			worksPlanned = p.StopWork - 1
		}
	}
	ms = append(ms,
		report.Metric{Name: "deadline", Value: o.Deadline, Unit: "time units", Kind: report.KindInfo},
		report.Metric{Name: "deadline_over_heft", Value: ratioOr0(o.Deadline, o.HEFT.Makespan()), Unit: "× HEFT makespan", Kind: report.KindInfo},
		report.Metric{Name: "deadline_over_critical_work", Value: ratioOr0(o.Deadline, o.Bounds.CriticalPath), Unit: "× critical-work length", Kind: report.KindInfo},
		report.Metric{Name: "meets_deadline", Value: float64(btoi(meets)), Better: report.Higher},
		report.Metric{Name: "processors", Value: float64(o.Platform), Kind: report.KindInfo},
		report.Metric{Name: "processors_used", Value: float64(d.M), Kind: report.KindInfo},
		report.Metric{Name: "critical_path_length", Value: o.Bounds.CriticalPath, Unit: "time units", Kind: report.KindInfo},
		report.Metric{Name: "lower_bound", Value: o.Bounds.Lower, Unit: "time units", Kind: report.KindInfo},
		report.Metric{Name: "stopped", Value: float64(btoi(stopped)), Variants: paperPlanner},
		report.Metric{Name: "variants_generated", Value: float64(gen), Variants: planners},
		report.Metric{Name: "variants_dropped", Value: float64(dropped), Variants: planners},
		report.Metric{Name: "variants_kept", Value: float64(kept), Variants: planners},
		report.Metric{Name: "variants_pruned", Value: float64(pruned), Variants: planners},
		report.Metric{Name: "works", Value: float64(len(o.Works)), Variants: planners},
		report.Metric{Name: "works_planned", Value: float64(worksPlanned), Variants: planners},
		report.Metric{Name: "works_fallback", Value: float64(relax), Variants: fallbackPlanner},
		report.Metric{Name: "collisions", Value: float64(cols), Variants: planners},
		report.Metric{Name: "collisions_unresolved", Value: float64(unres), Variants: planners},
		report.Metric{Name: "tree_nodes", Value: float64(len(o.Tree.Nodes)), Kind: report.KindInfo, Variants: planners},
		report.Metric{Name: "tree_cut", Value: float64(btoi(o.Tree.Cut)), Variants: planners},
		report.Metric{Name: "dfs_paths", Value: CountPaths(d), Kind: report.KindInfo},
		report.Metric{Name: "wall_ms", Value: o.WallMS, Unit: "ms", Better: report.Lower, Kind: report.KindCost})
	return ms
}

// ratioOr0 is a / b, 0 when b is 0.
func ratioOr0(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// busyTime is Σ of the tasks' times on their processors.
func busyTime(d *DAG, s Schedule) float64 {
	b := 0.0
	for v := range d.N {
		b += d.T[v][s.Proc[v]]
	}
	return b
}

// runGantts are the schedule (or the partial plan of a stopped run) and,
// for critical-works, the plan before collision resolution; bars are
// grouped by the work a task belongs to. In a plan, bars that overlap
// another on their processor are marked (markCollisions).
func runGantts(o *Outcome, group []string) []report.Gantt {
	d := o.D
	lanes := make([]string, d.M)
	for p, pr := range d.G.Processors {
		if d.G.Times != nil {
			lanes[p] = pr.ID
		} else {
			lanes[p] = fmt.Sprintf("%s (perf %.3g)", pr.ID, pr.Performance)
		}
	}
	gantt := func(title string, sc Schedule) report.Gantt {
		gt := report.Gantt{Title: title, TimeUnit: TimeUnit, Lanes: lanes}
		for v := range d.N {
			if sc.Proc[v] < 0 {
				continue
			}
			gt.Bars = append(gt.Bars, report.Bar{Lane: sc.Proc[v], Start: sc.Start[v], End: sc.Finish[v], Label: d.G.Tasks[v].ID, Group: group[v]})
		}
		return gt
	}
	if !o.Complete {
		title := fmt.Sprintf("Partial plan: stopped at work %d, no variant left (the paper's stop)", o.Plan.StopWork)
		if o.Plan.StopWork == 0 {
			title = "Partial plan: every variant struck out at collision resolution (collisions left)"
		}
		return []report.Gantt{markCollisions(gantt(title, o.Sched))} // collisions left show as such
	}
	out := []report.Gantt{gantt("Schedule", o.Sched)}
	if o.Plan != nil {
		out = append(out, markCollisions(gantt("Plan before collision resolution", o.Plan.Planned)))
	}
	return out
}

// markCollisions marks the bars of a plan that overlap another bar on
// their processor (Kind "collision": drawn translucent with a red border,
// so that bars planned on top of each other all show).
func markCollisions(gt report.Gantt) report.Gantt {
	byLane := map[int][]int{}
	for i, b := range gt.Bars {
		byLane[b.Lane] = append(byLane[b.Lane], i)
	}
	for _, idx := range byLane {
		sort.Slice(idx, func(x, y int) bool { return gt.Bars[idx[x]].Start < gt.Bars[idx[y]].Start })
		end, last := math.Inf(-1), -1 // the latest end so far, and its bar
		for _, i := range idx {
			b := &gt.Bars[i]
			if b.Start < end {
				b.Kind = report.BarCollision
				gt.Bars[last].Kind = report.BarCollision
			}
			if b.End > end {
				end, last = b.End, i
			}
		}
	}
	return gt
}

// worksTable lists the ranked critical works, the first maxTableRows of
// them (then a note says so), with how each was planned.
func worksTable(d *DAG, works []Work, steps []WorkStep) (report.Table, string) {
	wt := report.Table{Title: "Critical works", Columns: []string{"rank", "tasks", "length", "source", "planned_by", "variants_before", "variants_dropped", "variants_after"}}
	for i, w := range works {
		if len(wt.Rows) == maxTableRows {
			return wt, fmt.Sprintf("The critical works table shows the first %d of %d works.", maxTableRows, len(works))
		}
		row := []any{w.Rank, w.Path.label(d, 0), w.Path.Length, w.Source, "", "", "", ""}
		if i < len(steps) {
			s := steps[i]
			row[4], row[5], row[6], row[7] = s.PlannedBy, s.Before, s.Dropped, s.After
		}
		wt.Rows = append(wt.Rows, row)
	}
	return wt, ""
}

// scheduleTable lists the first maxTableRows tasks' placements.
func scheduleTable(d *DAG, s Schedule, workOf []int) report.Table {
	st := report.Table{Title: "Schedule", Columns: []string{"task", "processor", "start", "finish", "work"}}
	for v := range d.N {
		if v == maxTableRows {
			break
		}
		if s.Proc[v] < 0 {
			st.Rows = append(st.Rows, []any{d.G.Tasks[v].ID, "not planned", "", "", workOf[v]})
			continue
		}
		st.Rows = append(st.Rows, []any{d.G.Tasks[v].ID, d.G.Processors[s.Proc[v]].ID, s.Start[v], s.Finish[v], workOf[v]})
	}
	return st
}

// planTables are critical-works' own tables (variants, their fates,
// collisions) and notes.
func planTables(o *Outcome) ([]report.Table, []string) {
	d, pl := o.D, o.Plan
	vt := report.Table{Title: "Variants", Columns: []string{"variant", "status", "work", "reason"}}
	for _, e := range pl.Events {
		if len(vt.Rows) == maxTableRows {
			break
		}
		work := any("")
		if e.Work > 0 {
			work = e.Work
		}
		vt.Rows = append(vt.Rows, []any{fmt.Sprintf("V%d", e.Variant), e.Status, work, e.Reason})
	}
	sum := report.Table{Title: "Variants generated, kept and dropped", Columns: []string{"outcome", "count"}, Rows: [][]any{
		{"generated (the first and every branch)", pl.Generated},
		{"kept to the end", pl.Kept},
		{"dropped: " + FailPrecedence, countStatus(pl.Events, "dropped", "case 1")},
		{"dropped: " + FailSlack, countStatus(pl.Events, "dropped", "case 2")},
		{"dropped: " + collisionFail(o.Config.CollisionProcessors), pl.CollisionDropped},
		{fmt.Sprintf("pruned over the cap of %d (ours)", o.Config.MaxVariants), pl.Pruned},
		{"works planned by our fallback (every variant failed)", pl.Relaxations},
	}}
	ct := report.Table{Title: "Collisions", Columns: []string{"task_x", "task_y", "processor", "overlap", "outcome"}}
	moved, serial, shifted := 0, 0, 0
	for _, c := range pl.Collisions {
		switch c.Outcome {
		case OutcomeReplaced:
			serial++
		case OutcomeShifted:
			shifted++
		default:
			moved++
		}
		if len(ct.Rows) < maxTableRows {
			ct.Rows = append(ct.Rows, []any{d.G.Tasks[c.X].ID, d.G.Tasks[c.Y].ID, d.G.Processors[c.Proc].ID, c.Overlap, c.Outcome})
		}
	}
	var notes []string
	switch {
	case pl.Stopped && pl.StopWork > 0:
		notes = append(notes, fmt.Sprintf("STOPPED: at work %d of %d every variant hit a failure case (or, under collision_processors per-work and replan, kept a collision), so no variant was left and the algorithm ended, as the paper says («либо не осталось вариантов распределения … алгоритм завершает свою работу»). No schedule results; the partial plan (works 1–%d of the best variant) is shown as such. The variant critical-works-fallback (ours) continues instead.", pl.StopWork, len(o.Works), pl.StopWork-1))
	case pl.Stopped:
		notes = append(notes, fmt.Sprintf("STOPPED: every one of the %d variants that survived planning was struck out at collision resolution (%s; collision_processors %s), so no feasible variant was left. No schedule results; the best variant's plan after collision resolution is shown as partial.", pl.CollisionDropped, collisionFail(o.Config.CollisionProcessors), o.Config.CollisionProcessors))
	}
	unresolvedNote := "left in collision: the variant was struck out"
	if pl.Fallback {
		unresolvedNote = "left unresolved: the later-planned task is re-placed at realization on the processor where it finishes first (ours)"
	}
	notes = append(notes,
		fmt.Sprintf("Collisions (chosen or shown variant): %d pairs of tasks planned on one processor at overlapping times; %d resolved by moving a task (to another processor, or under the time readings to a time inside its frame), %d by placing the later-planned task where it finishes first and shifting the tasks after it inside the reserve (reading reserve), %d %s.", len(pl.Collisions), moved, shifted, serial, unresolvedNote))
	if pl.Complete {
		notes = append(notes, fmt.Sprintf("Chosen variant V%d of %d kept; criterion %s; time frame [0, %.4g].", pl.Chosen, pl.Kept, o.Config.Criterion, o.Deadline))
	}
	if pl.PairsCapped {
		notes = append(notes, fmt.Sprintf("Collision detection stopped at %d pairs; the variant counts as unresolved.", maxPairs))
	}
	if pl.Relaxations > 0 {
		notes = append(notes, fmt.Sprintf("%d works could not be planned by any variant inside their windows (the paper's failure cases, where its algorithm stops); our fallback planned them as early as possible without windows, and the realization keeps precedence.", pl.Relaxations))
	}
	return []report.Table{vt, sum, ct}, notes
}

func countStatus(ev []VariantEvent, status, prefix string) int {
	n := 0
	for _, e := range ev {
		if e.Status == status && strings.HasPrefix(e.Reason, prefix) {
			n++
		}
	}
	return n
}

func treeGraph(d *DAG, t *Tree, notes *[]string) report.Graph {
	g := report.Graph{Title: "Tree of critical paths", Layout: "tree"}
	n := len(t.Nodes)
	if n > maxTreeDraw {
		n = maxTreeDraw
		*notes = append(*notes, fmt.Sprintf("The tree of critical paths shows its first %d of %d nodes (level by level).", maxTreeDraw, len(t.Nodes)))
	}
	for i := range n {
		nd := t.Nodes[i]
		gn := report.GraphNode{ID: fmt.Sprintf("D%d", i), Label: fmt.Sprintf("D%d %s (%.4g)", i, nd.Path.label(d, 6), nd.Path.Length), Level: nd.Depth, Group: nd.Leaf}
		switch nd.Leaf { // LeafCut and LeafDuplicate name their groups
		case LeafOneEdge:
			gn.Group = "leaf"
		case LeafExpanded:
			gn.Group = "expanded"
		}
		g.Nodes = append(g.Nodes, gn)
		if nd.Parent >= 0 {
			e := d.G.Edges[nd.Removed]
			ge := report.GraphEdge{Source: fmt.Sprintf("D%d", nd.Parent), Target: gn.ID, Kind: report.EdgeTree}
			if n <= maxTreeEdgeLabels {
				ge.Label = fmt.Sprintf("−%s→%s", d.G.Tasks[e.From].ID, d.G.Tasks[e.To].ID)
			}
			g.Edges = append(g.Edges, ge)
		}
	}
	return g
}

// collisionFail is the reason a variant is struck out at collision
// resolution under reading r.
func collisionFail(r string) string {
	if r == CollisionReserve {
		return FailReserve
	}
	return FailCollision
}
