package dcop

import (
	"fmt"
	"slices"
	"strings"

	"schedlab/report"
	"schedlab/solvers"
)

// Display budgets: past these a preview leaves a part out and says so.
const (
	maxPreviewCells = 100_000 // cells of the resources × jobs table
	maxGraphEdges   = 20_000  // edges of a drawn graph
)

// preview is a workload's report before any run: the resources × jobs
// table and the constraint graph.
func preview(in *Instance) *report.Report {
	r := &report.Report{}
	g := in.ConstraintGraph()
	r.Metrics = []report.Metric{
		{Name: "jobs", Value: float64(len(in.Jobs))},
		{Name: "resources", Value: float64(len(in.Resources))},
		{Name: "horizon", Value: float64(in.Horizon), Unit: "slots"},
		{Name: "constraints", Value: float64(g.Edges())},
		{Name: "components", Value: float64(g.Components())},
		{Name: "lower_bound", Value: float64(LowerBound(in)), Unit: "slots", Kind: report.KindInfo},
	}
	if (len(in.Jobs)+1)*len(in.Resources) <= maxPreviewCells {
		t := report.Table{Title: "Resources × jobs", Columns: []string{"resource"}}
		for _, j := range in.Jobs {
			t.Columns = append(t.Columns, fmt.Sprintf("%s (L=%d)", j.ID, j.Duration))
		}
		for ri, rn := range in.Resources {
			row := []any{rn}
			for _, j := range in.Jobs {
				mark := ""
				if slices.Contains(j.Resources, ri) {
					mark = "■"
				}
				row = append(row, mark)
			}
			t.Rows = append(t.Rows, row)
		}
		r.Tables = append(r.Tables, t)
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("The resources × jobs table is not drawn: %d × %d cells is over the display budget of %d.", len(in.Resources), len(in.Jobs), maxPreviewCells))
	}
	jt := report.Table{Title: "Jobs", Columns: []string{"job", "resources", "duration", "value"}}
	for _, j := range in.Jobs {
		jt.Rows = append(jt.Rows, []any{j.ID, resourceNames(in, j), j.Duration, j.Value})
	}
	r.Tables = append(r.Tables, jt)
	if g.Edges() <= maxGraphEdges {
		cg := report.Graph{Title: "Constraint graph", Layout: "force"}
		for _, j := range in.Jobs {
			cg.Nodes = append(cg.Nodes, report.GraphNode{ID: j.ID, Label: fmt.Sprintf("%s %s", j.ID, resourceNames(in, j))})
		}
		for a, adj := range g.Adj {
			for _, b := range adj {
				if b > a {
					cg.Edges = append(cg.Edges, report.GraphEdge{Source: in.Jobs[a].ID, Target: in.Jobs[b].ID, Label: sharedNames(in, a, b)})
				}
			}
		}
		r.Graphs = append(r.Graphs, cg)
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("The constraint graph is not drawn: %d edges is over the display budget of %d.", g.Edges(), maxGraphEdges))
	}
	return r
}

func resourceNames(in *Instance, j Job) string {
	n := make([]string, len(j.Resources))
	for i, r := range j.Resources {
		n[i] = in.Resources[r]
	}
	return strings.Join(n, ",")
}

func sharedNames(in *Instance, a, b int) string {
	var n []string
	for _, r := range in.Jobs[a].Resources {
		for _, q := range in.Jobs[b].Resources {
			if r == q {
				n = append(n, in.Resources[r])
			}
		}
	}
	return strings.Join(n, ",")
}

// scheduleGantt draws resources as lanes and one bar per job on each
// resource it holds: start slot s occupies [s−1, s−1+L) in slot units, so
// a lone job of duration L spans [0, L).
func scheduleGantt(in *Instance, sched Schedule) report.Gantt {
	g := report.Gantt{Title: "Schedule", TimeUnit: "slot", Lanes: append([]string(nil), in.Resources...)}
	for k, s := range sched {
		if s == 0 {
			continue
		}
		j := in.Jobs[k]
		for _, r := range j.Resources {
			g.Bars = append(g.Bars, report.Bar{Lane: r, Start: float64(s - 1), End: float64(s - 1 + j.Duration),
				Label: j.ID, Group: j.ID, Kind: report.BarJob})
		}
	}
	return g
}

// treeGraph draws a pseudo-tree of the jobs jobs[i] (tree indices i):
// tree edges, back edges still in force and deleted back edges.
func treeGraph(title string, in *Instance, jobs []int, t *PseudoTree, deleted [][2]int, g *report.Graph) {
	id := func(i int) string { return in.Jobs[jobs[i]].ID }
	for _, x := range t.Order {
		g.Nodes = append(g.Nodes, report.GraphNode{ID: id(x), Label: fmt.Sprintf("%s |Sep|=%d", id(x), len(t.Sep[x])),
			Level: t.Depth[x], Group: title})
	}
	for _, x := range t.Order {
		for _, c := range t.Children[x] {
			g.Edges = append(g.Edges, report.GraphEdge{Source: id(x), Target: id(c), Kind: report.EdgeTree})
		}
	}
	for _, e := range t.BackEdges() {
		g.Edges = append(g.Edges, report.GraphEdge{Source: id(e[0]), Target: id(e[1]), Kind: report.EdgeBack})
	}
	for _, e := range deleted {
		g.Edges = append(g.Edges, report.GraphEdge{Source: id(e[0]), Target: id(e[1]), Kind: report.EdgeDeleted})
	}
}

// nodeRows appends one row per node of t: node, parent, separator,
// sep_size, util_entries, util_bytes.
func nodeRows(in *Instance, jobs []int, t *PseudoTree, dom [][]int, tb *report.Table) {
	sz := sizes(dom)
	for _, x := range t.Order {
		parent := ""
		if p := t.Parent[x]; p >= 0 {
			parent = in.Jobs[jobs[p]].ID
		}
		sep := make([]string, len(t.Sep[x]))
		for i, a := range t.Sep[x] {
			sep[i] = in.Jobs[jobs[a]].ID
		}
		e := fin(t.Entries(x, sz))
		tb.Rows = append(tb.Rows, []any{in.Jobs[jobs[x]].ID, parent, strings.Join(sep, ","), len(t.Sep[x]), e, fin(e * EntryBytes)})
	}
}

func rangeFrom(lo, n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = lo + i
	}
	return ids
}

// optimum is the optimal makespan of a run (0: not known) and whether it
// is proven (1) or the best found (0). Any feasible schedule bounds the
// optimum from above: a method that beats the exact solver's best found
// (time limit) is the better bound, and full DPOP is optimal by
// construction.
func optimum(in *Instance, v variant, cfg runConfig, o *outcome, ms int) (opt, proven float64) {
	if o.exactRan && o.exact.Schedule != nil {
		opt = float64(o.exact.Makespan)
		if o.exact.Proven {
			proven = 1
		}
	}
	if cfg.Objective == ObjectiveMakespan && ms > 0 {
		if opt == 0 || float64(ms) < opt {
			opt = float64(ms)
		}
		if v.optimal || ms <= LowerBound(in) {
			proven = 1
		}
	}
	return opt, proven
}

// treeViews draws the pseudo-tree a run used (the two halves' for
// dpop-split, with the deleted back edges for dpop-wd) and tabulates its
// nodes.
func treeViews(in *Instance, o *outcome) (report.Graph, report.Table) {
	n := len(in.Jobs)
	cols := []string{"node", "parent", "separator", "sep_size", "util_entries", "util_bytes"}
	tg := report.Graph{Title: "Pseudo-tree", Layout: "tree"}
	nodes := report.Table{Title: "Pseudo-tree nodes", Columns: cols}
	if o.split != nil {
		h := (n + 1) / 2
		tg.Title = "Pseudo-trees of the two halves"
		treeGraph("E1", in, rangeFrom(0, h), o.split.First.Tree, nil, &tg)
		nodeRows(in, rangeFrom(0, h), o.split.First.Tree, o.split.First.Domains, &nodes)
		if o.split.Second != nil {
			treeGraph("E2", in, rangeFrom(h, n-h), o.split.Second.Tree, nil, &tg)
			nodeRows(in, rangeFrom(h, n-h), o.split.Second.Tree, o.split.Second.Domains, &nodes)
		}
	} else {
		treeGraph("", in, rangeFrom(0, n), o.tree, o.deleted, &tg)
		nodeRows(in, rangeFrom(0, n), o.tree, o.dom, &nodes)
	}
	return tg, nodes
}

// The variants a run metric is meaningful for (report.Metric.Variants;
// doc.go): the "before" sizes describe the full problem's pseudo-tree, an
// input of every variant, so they name none.
var (
	distributed = solvers.VariantNames(variants, func(v variant) bool { return v.distributed })
	withWD      = solvers.VariantNames(variants, func(v variant) bool { return v.wd })
	withSplit   = solvers.VariantNames(variants, func(v variant) bool { return v.split })
)

// runReport builds the Report of one run.
func runReport(in *Instance, v variant, cfg runConfig, o *outcome) *report.Report {
	r := &report.Report{}
	ms := Makespan(in, o.sched)
	opt, proven := optimum(in, v, cfg, o, ms)
	acc := 0.0
	if cfg.Objective == ObjectiveMakespan && ms > 0 && opt > 0 {
		acc = opt / float64(ms)
	}
	sz := sizes(o.fullDom)
	before, _ := o.full.MaxEntries(sz)
	before = fin(before)
	edgesCut := 0
	if o.split != nil {
		edgesCut = o.split.EdgesCut
	}
	r.Metrics = []report.Metric{
		{Name: "makespan", Value: float64(ms), Unit: "slots", Better: report.Lower},
		{Name: "optimal_makespan", Value: opt, Unit: "slots", Kind: report.KindInfo},
		{Name: "optimal_proven", Value: proven, Kind: report.KindInfo},
		{Name: "accuracy", Value: acc, Better: report.Higher, Min: report.Bound(0), Max: report.Bound(1)},
		{Name: "width_before", Value: float64(o.full.Width()), Unit: "variables", Kind: report.KindInfo},
		{Name: "width_after", Value: float64(o.widthAfter), Unit: "variables", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "max_util_entries_before", Value: before, Unit: "entries", Kind: report.KindInfo},
		{Name: "max_util_entries_after", Value: o.maxAfter, Unit: "entries", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "max_util_bytes_before", Value: fin(before * EntryBytes), Unit: "B", Kind: report.KindInfo},
		{Name: "max_util_bytes_after", Value: o.maxAfter * EntryBytes, Unit: "B", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "paper_mb_before", Value: fin(PaperMB(o.full.Width(), in.Horizon)), Unit: "MiB", Kind: report.KindInfo},
		{Name: "paper_mb_after", Value: fin(PaperMB(o.widthAfter, in.Horizon)), Unit: "MiB", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "entry_bytes", Value: EntryBytes, Unit: "B", Kind: report.KindInfo},
		{Name: "back_edges_deleted", Value: float64(len(o.deleted) + o.deletedInHalves), Unit: "edges", Kind: report.KindInfo, Variants: withWD},
		{Name: "edges_cut", Value: float64(edgesCut), Unit: "edges", Kind: report.KindInfo, Variants: withSplit},
		{Name: "message_cycles", Value: float64(o.stats.MessageCycles), Unit: "cycles", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "message_cycles_full", Value: float64(2 * o.full.Height()), Unit: "cycles", Kind: report.KindInfo},
		{Name: "messages", Value: float64(o.stats.Messages), Unit: "messages", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "total_bytes", Value: o.stats.TotalBytes, Unit: "B", Better: report.Lower, Kind: report.KindCost, Variants: distributed},
		{Name: "wall_ms", Value: o.wallMS, Unit: "ms", Better: report.Lower, Kind: report.KindCost},
	}
	if cfg.Objective == ObjectiveValue {
		r.Metrics = append(r.Metrics, report.Metric{Name: "value", Value: TotalValue(in, o.sched), Better: report.Higher})
		r.Notes = append(r.Notes, "Objective value: jobs may be left unscheduled; accuracy (optimal makespan / makespan) is defined for the makespan objective only and is 0, and optimal_makespan is not computed.")
	}
	r.Notes = append(r.Notes, fmt.Sprintf("UTIL sizes are entries × %d B (float32). max_util_* use the actual domains (domain %s); paper_mb_* are the seed's accounting, horizon^width × 4 B in MiB (20^5 × 4 B = 12.2 MiB, its 1.2e1). \"before\" is the full problem's %s pseudo-tree, computed without allocating.", EntryBytes, cfg.Domain, cfg.Heuristic))
	switch {
	case v.wd && !v.split:
		r.Notes = append(r.Notes, fmt.Sprintf("Back-edge deletion with rule %s to width ≤ %d: %d back edges deleted.", cfg.WDRule, cfg.WidthLimit, len(o.deleted)))
	case !v.distributed:
		r.Notes = append(r.Notes, "The exact variant does not run DPOP: widths and UTIL sizes are those of the full problem's pseudo-tree, message counts are 0.")
	}
	if o.exactRan && proven == 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("The exact branch and bound hit its time limit (%v) without proving optimality: optimal_makespan is the best found (lower bound %d), so accuracy may be overstated.", cfg.timeLimit, LowerBound(in)))
	}
	r.Gantts = []report.Gantt{scheduleGantt(in, o.sched)}
	r.Time = &report.TimeFrame{Unit: "slot", OriginName: "the start of the schedule"}

	tg, nodes := treeViews(in, o)
	r.Graphs = []report.Graph{tg}
	ba := report.Table{Title: "Before and after", Columns: []string{"quantity", "before", "after"}}
	ba.Rows = [][]any{
		{"width", o.full.Width(), o.widthAfter},
		{"max UTIL entries", before, o.maxAfter},
		{"max UTIL bytes", fin(before * EntryBytes), o.maxAfter * EntryBytes},
		{"max UTIL MB", before * EntryBytes / 1e6, o.maxAfter * EntryBytes / 1e6},
	}
	r.Tables = []report.Table{nodes, ba}
	return r
}
