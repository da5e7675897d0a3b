package dcop

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"slices"

	"schedlab/report"
	"schedlab/solvers"
)

// The seed's experiment: job counts and its published numbers (Tables 1
// and 2 in its "MB", read as MiB; accuracy only as the ranges stated in
// the text, Figs. 3–6 print no numbers, so the lower ends are shown).
var (
	reproJobs        = []int{20, 30, 40, 50}
	paperT1Before    = []float64{4.4e2, 4.6e4, 3.0e12, 4.7e17}
	paperT1After     = []float64{1.2e1, 1.2e1, 1.2e1, 1.2e1}
	paperT2Before    = []float64{4.4e0, 1.8e3, 1.7e9, 1.0e16}
	paperT2After     = []float64{0.3e-3, 3.7e-2, 8.1e0, 1.4e1}
	paperWDAccuracy  = 0.95
	paperSplitAccLow = 0.93
)

// reproWidth is the seed's width limit (§4.1 "木の幅が 5 ... になるまで").
const reproWidth = 5

// reproRules are the WD rules the reproduce measures: the seed's reading
// (set-wide) first, the other readings of the text, then ours.
var reproRules = []string{RuleSeed, RuleLiteral, RuleEarliest, RuleFixed, RuleHalf, RuleBalanced, RuleGreedyGuided}

// reproHeuristics are the pseudo-tree constructions whose widths the
// reproduce reports.
var reproHeuristics = []string{HeuristicMinDegree, HeuristicMinFill, HeuristicMCS, HeuristicDFS, HeuristicMaxDegree, HeuristicMinFillDFS}

// methodResult is one method on one instance: ms = 0 when it failed (fail
// says why).
type methodResult struct {
	width          int     // width reached (WD) or the wider half (split)
	deleted        int     // back edges deleted (WD, split-wd) or constraint edges cut (split)
	paperMB        float64 // largest UTIL message in the seed's accounting (d = horizon)
	actualMB       float64 // with the actual domains, MiB
	ms, cycles     int
	fail           string
	reached, tried bool
}

// oursHeuristic is the tree the reproduce shows beside the paper's, as
// ours: the min-fill elimination tree, the narrowest construction on
// namekata2008 but not a pseudo-tree in the seed's sense (a tree edge
// need not be a constraint edge; §2.4 classifies every constraint edge as
// a tree edge or a back edge of a DFS).
const oursHeuristic = HeuristicMinFill

// reproTrees are the trees the reproduce runs every method on: the run's
// heuristic (default max-degree, a DFS pseudo-tree in the seed's sense)
// and, unless it is the same, the min-fill tree (ours).
func reproTrees(cfg ReproConfig) []string {
	if cfg.Heuristic == oursHeuristic {
		return []string{cfg.Heuristic}
	}
	return []string{cfg.Heuristic, oursHeuristic}
}

// treeRun is every method on one instance with one pseudo-tree heuristic.
type treeRun struct {
	widthBefore    int
	beforePaperMB  float64
	beforeActualMB float64
	cyclesFull     int
	rules          []methodResult // per reproRules
	split, splitWD methodResult
}

// instanceResult is what one instance yields.
type instanceResult struct {
	jobs                int
	gen                 GenStats
	opt, lb             int
	proven              bool
	greedyMS            int
	trees               []treeRun // per reproTrees
	heurWidth, heurHalf []int     // per reproHeuristics: full width, wider half
	heurHalfFits        []bool    // both halves' hypercubes within the budget at full domains
}

// reproduce runs the seed's experiment on cfg.Instances instances of every
// job count: every WD rule, the split, the split with WD in the halves
// (ours), the greedy list schedule and the exact optimum.
func reproduce(ctx context.Context, cfg ReproConfig, progress solvers.Progress) (*report.Report, error) {
	n := cfg.Instances
	total := n * len(reproJobs)
	workers := max(1, min(runtime.GOMAXPROCS(0), total))
	budget := solvers.MemoryBudget(ctx, int64(cfg.MemoryMB)<<20) / int64(workers)
	res := make([]instanceResult, total)
	progress(0, total, "start")
	err := solvers.ForEach(ctx, total, func(i int) error {
		var err error
		res[i], err = reproduceOne(ctx, reproJobs[i/n], int64(1000*reproJobs[i/n]+i%n), cfg, budget)
		return err
	}, func(done int) {
		progress(done, total, fmt.Sprintf("instance %d of %d", done, total))
	})
	if err != nil {
		return nil, err
	}
	return reproReport(res, n, cfg, budget), nil
}

// reproduceOne generates one instance and runs every method on it.
func reproduceOne(ctx context.Context, jobs int, seed int64, cfg ReproConfig, budget int64) (instanceResult, error) {
	r := instanceResult{jobs: jobs}
	in, gen, err := generateCounted(ctx, Namekata2008(jobs), rand.New(rand.NewSource(seed)))
	if err != nil {
		return r, err
	}
	r.gen = gen
	dom := Domains(in, ObjectiveMakespan, DomainStarts)
	ex := Exact(ctx, in, DomainStarts, cfg.timeLimit())
	if err := ctx.Err(); err != nil {
		return r, err
	}
	r.opt, r.proven, r.lb = ex.Makespan, ex.Proven && ex.Schedule != nil, ex.Bound
	r.greedyMS = Makespan(in, Greedy(in))
	for _, heur := range reproTrees(cfg) {
		tr, err := runTree(ctx, in, dom, heur, budget)
		if err != nil {
			return r, err
		}
		r.trees = append(r.trees, tr)
	}
	r.heurWidths(in, dom, budget)
	return r, nil
}

// runTree runs every method on one instance with one pseudo-tree
// heuristic: the full tree's sizes, every WD rule, the split and
// split-wd (ours).
func runTree(ctx context.Context, in *Instance, dom [][]int, heur string, budget int64) (treeRun, error) {
	var r treeRun
	full, err := BuildPseudoTree(in.ConstraintGraph(), heur, nil)
	if err != nil {
		return r, err
	}
	r.widthBefore = full.Width()
	r.beforePaperMB = PaperMB(full.Width(), in.Horizon)
	e, _ := full.MaxEntries(sizes(dom))
	r.beforeActualMB = e * EntryBytes / (1 << 20)
	r.cyclesFull = 2 * full.Height()
	for _, rule := range reproRules {
		m, err := runWD(ctx, in, full, dom, rule, budget)
		if err != nil {
			return r, err
		}
		r.rules = append(r.rules, m)
	}
	if r.split, err = runSplit(ctx, in, heur, budget, nil); err != nil {
		return r, err
	}
	if r.splitWD, err = runSplit(ctx, in, heur, budget, &HalfWD{Limit: reproWidth, Rule: RuleGreedyGuided}); err != nil {
		return r, err
	}
	return r, nil
}

// heurWidths records every heuristic's width of the whole instance and of
// its wider split half, and whether both halves fit the budget at full
// domains.
func (r *instanceResult) heurWidths(in *Instance, dom [][]int, budget int64) {
	h := (len(in.Jobs) + 1) / 2
	for _, heur := range reproHeuristics {
		t, _ := BuildPseudoTree(in.ConstraintGraph(), heur, nil)
		r.heurWidth = append(r.heurWidth, t.Width())
		hw, fits := 0, true
		for _, part := range [][2]int{{0, h}, {h, len(in.Jobs)}} {
			sub := &Instance{Horizon: in.Horizon, Resources: in.Resources, Jobs: in.Jobs[part[0]:part[1]]}
			st, _ := BuildPseudoTree(sub.ConstraintGraph(), heur, nil)
			hw = max(hw, st.Width())
			total := 0.0
			for x := range st.Sep {
				total += st.Entries(x, sizes(dom[part[0]:part[1]])) * EntryBytes
			}
			fits = fits && total <= float64(budget)
		}
		r.heurHalf = append(r.heurHalf, hw)
		r.heurHalfFits = append(r.heurHalfFits, fits)
	}
}

// failure reports whether err is the method's own failure (recorded in
// the result) rather than the context's (returned).
func failure(ctx context.Context, err error) (string, error) {
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return err.Error(), nil
}

// runWD reduces full to width 5 with rule and runs DPOP on it. A WD or
// DPOP failure, an infeasible relaxed problem and (literal rule) a
// collision of a deleted pair are the method's failures.
func runWD(ctx context.Context, in *Instance, full *PseudoTree, dom [][]int, rule string, budget int64) (methodResult, error) {
	m := methodResult{tried: true, width: full.Width(), paperMB: PaperMB(full.Width(), in.Horizon)}
	ref := greedyRef(in, DomainStarts)
	wd, err := WidthDelete(in, full, dom, reproWidth, rule, ref)
	if wd != nil {
		m.width, m.deleted = wd.WidthAfter, len(wd.Deleted)
		m.paperMB = PaperMB(wd.WidthAfter, in.Horizon)
		e, _ := wd.Tree.MaxEntries(sizes(wd.Domains))
		m.actualMB = e * EntryBytes / (1 << 20)
	}
	if err != nil {
		if rule == RuleGreedyGuided && ref == nil {
			m.fail = "no greedy schedule inside the domains to guide it"
			return m, nil
		}
		m.fail, err = failure(ctx, err)
		return m, err
	}
	m.reached = true
	sr, err := Solve(ctx, in, Options{Tree: wd.Tree, Domains: wd.Domains, MemoryBytes: budget})
	switch {
	case err != nil:
		m.fail, err = failure(ctx, err)
		return m, err
	case !sr.Feasible:
		m.fail = "the relaxed problem has no schedule"
	case Feasible(in, sr.Schedule, false, DomainStarts) != nil:
		m.fail = "a deleted pair collides"
	default:
		m.ms, m.cycles = Makespan(in, sr.Schedule), sr.Stats.MessageCycles
	}
	return m, nil
}

// runSplit runs the problem split (hw nil: the seed's; else ours with WD
// in the halves). Sizes come from the halves' pseudo-trees (E2 with its
// restricted domains when E1 was solved); a half over the budget fails the
// method and is sized from its tree at full domains.
func runSplit(ctx context.Context, in *Instance, heur string, budget int64, hw *HalfWD) (methodResult, error) {
	m := methodResult{tried: true}
	sp, err := SplitWD(ctx, in, Options{MemoryBytes: budget, Heuristic: heur}, hw)
	if err != nil {
		if m.fail, err = failure(ctx, err); err != nil {
			return m, err
		}
		m.sizeHalves(in, heur)
		if hw == nil {
			m.deleted = splitCut(in)
		}
		return m, nil
	}
	m.reached = true
	m.deleted = sp.EdgesCut
	if hw != nil {
		m.deleted = sp.Deleted
	}
	for _, half := range []*Result{sp.First, sp.Second} {
		if half != nil {
			m.width = max(m.width, half.Tree.Width())
			m.paperMB = max(m.paperMB, PaperMB(half.Tree.Width(), in.Horizon))
			e, _ := half.Tree.MaxEntries(sizes(half.Domains))
			m.actualMB = max(m.actualMB, e*EntryBytes/(1<<20))
		}
	}
	m.cycles = sp.Stats.MessageCycles
	if sp.Feasible {
		m.ms = Makespan(in, sp.Schedule)
	} else {
		m.fail = "no schedule for the second half"
	}
	return m, nil
}

// sizeHalves sizes the halves of an unsolved split from their pseudo-trees
// at full domains (an upper bound) and sums their message cycles.
func (m *methodResult) sizeHalves(in *Instance, heur string) {
	h := (len(in.Jobs) + 1) / 2
	for _, part := range [][2]int{{0, h}, {h, len(in.Jobs)}} {
		sub := &Instance{Horizon: in.Horizon, Resources: in.Resources, Jobs: in.Jobs[part[0]:part[1]]}
		t, err := BuildPseudoTree(sub.ConstraintGraph(), heur, nil)
		if err != nil {
			continue
		}
		m.width = max(m.width, t.Width())
		m.paperMB = max(m.paperMB, PaperMB(t.Width(), in.Horizon))
		m.actualMB = m.paperMB
		m.cycles += 2 * t.Height()
	}
}

// splitCut counts the constraint edges between the two halves.
func splitCut(in *Instance) int {
	h := (len(in.Jobs) + 1) / 2
	cut := 0
	for _, adj := range in.ConstraintGraph().Adj[:h] {
		for _, b := range adj {
			if b >= h {
				cut++
			}
		}
	}
	return cut
}

// geomean is the geometric mean of the positive values (0 if none): UTIL
// sizes span tens of orders of magnitude, so an arithmetic mean would be the
// largest instance alone.
func geomean(xs []float64) float64 {
	s, k := 0.0, 0
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			s += math.Log(x)
			k++
		}
	}
	if k == 0 {
		return 0
	}
	return fin(math.Exp(s / float64(k)))
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// spread is the minimum, median and maximum of xs (0s when empty).
func spread(xs []float64) (lo, med, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med = s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[0], med, s[len(s)-1]
}

// pearson is the correlation of the points, ok false when fewer than 3
// points or either coordinate is constant.
func pearson(pts [][2]float64) (float64, bool) {
	if len(pts) < 3 {
		return 0, false
	}
	var mx, my float64
	for _, p := range pts {
		mx += p[0]
		my += p[1]
	}
	mx /= float64(len(pts))
	my /= float64(len(pts))
	var sxy, sxx, syy float64
	for _, p := range pts {
		sxy += (p[0] - mx) * (p[1] - my)
		sxx += (p[0] - mx) * (p[0] - mx)
		syy += (p[1] - my) * (p[1] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// fin clamps a value a Report cannot hold (±Inf, NaN) to a finite one.
func fin(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}
