package dcop

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"schedlab/report"
)

// sizeStats is what the instances of one job count give the report.
type sizeStats struct {
	jobs                            int
	before, beforeAct               []float64 // MiB
	wb                              []float64 // widths before
	rules                           [][]methodResult
	split, splitWD                  []methodResult
	opt, greedy                     []float64
	cyclesFull                      []float64
	draws, disconnected, infeasible int
	unproven                        []string
}

func collect(jobs, tree int, rs []instanceResult) sizeStats {
	st := sizeStats{jobs: jobs, rules: make([][]methodResult, len(reproRules))}
	for i, r := range rs {
		tr := r.trees[tree]
		st.before = append(st.before, tr.beforePaperMB)
		st.beforeAct = append(st.beforeAct, tr.beforeActualMB)
		st.wb = append(st.wb, float64(tr.widthBefore))
		for k, m := range tr.rules {
			st.rules[k] = append(st.rules[k], m)
		}
		st.split = append(st.split, tr.split)
		st.splitWD = append(st.splitWD, tr.splitWD)
		st.opt = append(st.opt, float64(r.opt))
		st.greedy = append(st.greedy, float64(r.greedyMS))
		st.cyclesFull = append(st.cyclesFull, float64(tr.cyclesFull))
		st.draws += r.gen.Draws
		st.disconnected += r.gen.Disconnected
		st.infeasible += r.gen.Filtered
		if !r.proven {
			st.unproven = append(st.unproven, fmt.Sprintf("%d jobs instance %d", jobs, i))
		}
	}
	return st
}

// methodStats summarizes one method over the instances of a size.
type methodStats struct {
	acc                         []float64 // over the successes
	accAll, cycAll, widthAll    []float64 // per instance, NaN where the method gave no schedule
	failures, reached, equalsGr int
	beatsGr                     int
	widths, paperMB, actMB, cyc []float64
	points                      [][2]float64 // (deleted or cut, accuracy)
}

func summarize(ms []methodResult, opt, greedy []float64) methodStats {
	var s methodStats
	for i, m := range ms {
		s.widths = append(s.widths, float64(m.width))
		s.paperMB = append(s.paperMB, m.paperMB)
		s.actMB = append(s.actMB, m.actualMB)
		if m.reached {
			s.reached++
		}
		if m.ms == 0 {
			s.failures++
			s.accAll = append(s.accAll, math.NaN())
			s.cycAll = append(s.cycAll, math.NaN())
			s.widthAll = append(s.widthAll, math.NaN())
			continue
		}
		a := opt[i] / float64(m.ms)
		s.accAll = append(s.accAll, a)
		s.cycAll = append(s.cycAll, float64(m.cycles))
		s.widthAll = append(s.widthAll, float64(m.width))
		s.acc = append(s.acc, a)
		s.cyc = append(s.cyc, float64(m.cycles))
		s.points = append(s.points, [2]float64{float64(m.deleted), a})
		switch {
		case float64(m.ms) == greedy[i]:
			s.equalsGr++
		case float64(m.ms) < greedy[i]:
			s.beatsGr++
		}
	}
	return s
}

// accOrNA is the mean accuracy, or "n/a" when the method never succeeded.
func (s methodStats) accOrNA() any {
	if len(s.acc) == 0 {
		return "n/a"
	}
	return mean(s.acc)
}

func (s methodStats) accMin() any {
	if len(s.acc) == 0 {
		return "n/a"
	}
	lo, _, _ := spread(s.acc)
	return lo
}

// ruleLabel names a reproduce rule in tables and plots.
func ruleLabel(rule string) string {
	switch rule {
	case RuleSeed:
		return "WD seed (" + seedReading + ")"
	case RuleBalanced, RuleGreedyGuided:
		return "WD " + rule + " (ours)"
	}
	return "WD " + rule + " (reading)"
}

// treeOut is what the runs on one pseudo-tree heuristic give the report.
type treeOut struct {
	all                                 []sizeStats
	t1, t2, acc                         report.Table
	accPlot, sizePlot, delPlot, cycPlot report.Plot
	dG, dSW                             report.Line
	cl                                  claimData
}

// treeReport builds Tables 1 and 2, the accuracy table, the plots and the
// claims' data from the runs on tree (an index of reproTrees).
func treeReport(res []instanceResult, n, tree int) treeOut {
	var o treeOut
	for ji, jobs := range reproJobs {
		o.all = append(o.all, collect(jobs, tree, res[ji*n:(ji+1)*n]))
	}
	wcols := func(prefix string) []string {
		return []string{prefix, prefix + "_min", prefix + "_median", prefix + "_max"}
	}
	t1 := report.Table{Title: "Table 1", Columns: append(append(append([]string{"jobs", "before_mb", "after_mb", "before_mb_actual", "after_mb_actual",
		"paper_before_mb", "paper_after_mb", "paper_width_before"}, wcols("width_before")...), wcols("width_after")...), "wd_failures")}
	t2 := report.Table{Title: "Table 2", Columns: append(append(append([]string{"jobs", "before_mb", "after_mb", "before_mb_actual", "after_mb_actual",
		"paper_before_mb", "paper_after_mb", "paper_width_before", "paper_width_after"}, wcols("width_before")...), wcols("width_after")...),
		"split_failures", "after_mb_split_wd", "width_after_split_wd")}
	acc := report.Table{Title: "Accuracy", Columns: []string{"jobs", "method", "source", "accuracy", "accuracy_min", "failures", "reached_limit",
		"width_reached_median", "equals_greedy", "beats_greedy", "paper_accuracy"}}
	accPlot := report.Plot{Title: "Accuracy vs jobs", XLabel: "jobs", YLabel: "accuracy (optimal / method makespan), mean over successes"}
	sizePlot := report.Plot{Title: "UTIL size vs jobs", XLabel: "jobs", YLabel: "max UTIL message (MiB, seed's accounting d = 20)", YLog: true}
	delPlot := report.Plot{Title: "Accuracy vs deleted edges", XLabel: "back edges deleted (WD) / constraint edges cut (split)", YLabel: "accuracy", Kind: report.PlotScatter}
	cycPlot := report.Plot{Title: "Message cycles with and without split", XLabel: "jobs", YLabel: "message cycles (mean)"}

	methods := append(slices.Clone(reproRules), "split", "split-wd")
	accLines := make([]report.Line, len(methods)+1)
	for i, m := range methods {
		accLines[i].Name = methodLabel(m)
	}
	accLines[len(methods)].Name = "greedy list schedule (baseline)"
	pWD := report.Line{Name: "paper WD (lower end of 0.95–1)", Dashed: true}
	pSp := report.Line{Name: "paper split (lower end of 0.93–1)", Dashed: true}
	sl := []report.Line{{Name: "before"}, {Name: "after WD seed"}, {Name: "after split"}, {Name: "after split-wd (ours)"},
		{Name: "paper before (Table 1)", Dashed: true}, {Name: "paper after WD", Dashed: true}, {Name: "paper after split", Dashed: true}}
	dWD, dSp := report.Line{Name: "WD seed"}, report.Line{Name: "split"}
	dG, dSW := report.Line{Name: "WD greedy-guided (ours)"}, report.Line{Name: "split-wd (ours)"}
	cFull, cSplit, cWD := report.Line{Name: "full DPOP (no split)"}, report.Line{Name: "split (sum of halves)"}, report.Line{Name: "WD seed"}
	for ji, st := range o.all {
		x := float64(st.jobs)
		ms := make([]methodStats, len(methods))
		for k := range reproRules {
			ms[k] = summarize(st.rules[k], st.opt, st.greedy)
		}
		ms[len(reproRules)] = summarize(st.split, st.opt, st.greedy)
		ms[len(reproRules)+1] = summarize(st.splitWD, st.opt, st.greedy)
		wd, sp, spw := ms[0], ms[len(reproRules)], ms[len(reproRules)+1]
		bl, bm, bh := spread(st.wb)
		al, am, ah := spread(wd.widths)
		sLo, sMed, sHi := spread(sp.widths)
		t1.Rows = append(t1.Rows, []any{st.jobs, geomean(st.before), geomean(wd.paperMB), geomean(st.beforeAct), geomean(wd.actMB),
			paperT1Before[ji], paperT1After[ji], ImpliedWidth(paperT1Before[ji], 20), mean(st.wb), bl, bm, bh, mean(wd.widths), al, am, ah, wd.failures})
		t2.Rows = append(t2.Rows, []any{st.jobs, geomean(st.before), geomean(sp.paperMB), geomean(st.beforeAct), geomean(sp.actMB),
			paperT2Before[ji], paperT2After[ji], ImpliedWidth(paperT2Before[ji], 20), ImpliedWidth(paperT2After[ji], 20),
			mean(st.wb), bl, bm, bh, mean(sp.widths), sLo, sMed, sHi, sp.failures, geomean(spw.paperMB), mean(spw.widths)})
		greedyAcc := make([]float64, len(st.opt))
		for i := range st.opt {
			greedyAcc[i] = st.opt[i] / st.greedy[i]
		}
		acc.Rows = append(acc.Rows, []any{st.jobs, "greedy list schedule", "baseline", mean(greedyAcc), slices.Min(greedyAcc), 0, "", "", "", "", ""})
		for k, m := range methods {
			s := ms[k]
			_, wmed, _ := spread(s.widths)
			paper := any("")
			switch {
			case k == 0:
				paper = paperWDAccuracy
			case m == "split":
				paper = paperSplitAccLow
			}
			acc.Rows = append(acc.Rows, []any{st.jobs, methodLabel(m), methodSource(m), s.accOrNA(), s.accMin(), s.failures, s.reached, wmed, s.equalsGr, s.beatsGr, paper})
			if len(s.acc) > 0 {
				accLines[k].Points = append(accLines[k].Points, [2]float64{x, mean(s.acc)})
			}
		}
		accLines[len(methods)].Points = append(accLines[len(methods)].Points, [2]float64{x, mean(greedyAcc)})
		pWD.Points = append(pWD.Points, [2]float64{x, paperWDAccuracy})
		pSp.Points = append(pSp.Points, [2]float64{x, paperSplitAccLow})
		for i, v := range []float64{geomean(st.before), geomean(wd.paperMB), geomean(sp.paperMB), geomean(spw.paperMB), paperT1Before[ji], paperT1After[ji], paperT2After[ji]} {
			if v > 0 {
				sl[i].Points = append(sl[i].Points, [2]float64{x, v})
			}
		}
		dWD.Points = append(dWD.Points, wd.points...)
		dSp.Points = append(dSp.Points, sp.points...)
		dG.Points = append(dG.Points, ms[slices.Index(reproRules, RuleGreedyGuided)].points...)
		dSW.Points = append(dSW.Points, spw.points...)
		cFull.Points = append(cFull.Points, [2]float64{x, mean(st.cyclesFull)})
		if len(sp.cyc) > 0 {
			cSplit.Points = append(cSplit.Points, [2]float64{x, mean(sp.cyc)})
		}
		if len(wd.cyc) > 0 {
			cWD.Points = append(cWD.Points, [2]float64{x, mean(wd.cyc)})
		}
		o.cl.add(st, wd, sp)
	}
	accPlot.Lines = append(accLines, pWD, pSp)
	sizePlot.Lines = sl
	delPlot.Lines = []report.Line{dWD, dSp, dG, dSW}
	cycPlot.Lines = []report.Line{cFull, cSplit, cWD}
	o.t1, o.t2, o.acc = t1, t2, acc
	o.accPlot, o.sizePlot, o.delPlot, o.cycPlot = accPlot, sizePlot, delPlot, cycPlot
	o.dG, o.dSW = dG, dSW
	return o
}

// oursTitle labels a table of the min-fill runs (ours).
func oursTitle(title string) string { return title + " (" + oursHeuristic + " tree, ours)" }

func reproReport(res []instanceResult, n int, cfg ReproConfig, budget int64) *report.Report {
	rep := &report.Report{}
	trees := reproTrees(cfg)
	outs := make([]treeOut, len(trees))
	for k := range trees {
		outs[k] = treeReport(res, n, k)
	}
	main := &outs[0]
	cl := &main.cl
	heur := report.Table{Title: "Pseudo-tree heuristics", Columns: []string{"jobs", "heuristic", "width_mean", "width_min", "width_max",
		"half_width_mean", "half_width_max", "halves_fit_budget", "paper_width_before", "paper_half_width"}}
	for ji, jobs := range reproJobs {
		best, bestName := math.Inf(1), ""
		var bestW []float64
		for hi, h := range reproHeuristics {
			var w, hw []float64
			fits := 0
			for _, r := range res[ji*n : (ji+1)*n] {
				w = append(w, float64(r.heurWidth[hi]))
				hw = append(hw, float64(r.heurHalf[hi]))
				if r.heurHalfFits[hi] {
					fits++
				}
			}
			lo, _, hiW := spread(w)
			_, _, hhi := spread(hw)
			heur.Rows = append(heur.Rows, []any{jobs, h, mean(w), lo, hiW, mean(hw), hhi, fits, ImpliedWidth(paperT1Before[ji], 20), ImpliedWidth(paperT2After[ji], 20)})
			if mean(hw) < best {
				best, bestName, bestW = mean(hw), h, hw
			}
		}
		cl.bestHalf, cl.bestHalfName = append(cl.bestHalf, bestW), append(cl.bestHalfName, bestName)
	}
	rep.Tables = []report.Table{claimsTable(cl), main.t1, main.t2, main.acc, heur}
	if len(outs) > 1 {
		for _, t := range []report.Table{outs[1].t1, outs[1].t2, outs[1].acc} {
			t.Title = oursTitle(t.Title)
			rep.Tables = append(rep.Tables, t)
		}
	}
	rep.Series = []report.Plot{main.accPlot, main.sizePlot, main.delPlot, main.cycPlot}
	rep.Metrics = []report.Metric{
		{Name: "instances", Value: float64(n)},
		{Name: "entry_bytes", Value: EntryBytes, Unit: "B"},
		{Name: "wd_failures", Value: float64(cl.wdFail), Better: report.Lower},
		{Name: "split_failures", Value: float64(cl.spFail), Better: report.Lower},
		{Name: "exact_unproven", Value: float64(cl.unproven), Better: report.Lower},
	}
	rep.Notes = reproNotes(n, cfg, budget, main.all, cl)
	var ours []string
	for _, l := range []report.Line{main.dG, main.dSW} {
		if r, ok := pearson(l.Points); ok {
			ours = append(ours, fmt.Sprintf("%s r = %+.2f over %d instances", l.Name, r, len(l.Points)))
		} else {
			ours = append(ours, fmt.Sprintf("%s: %d points, no correlation defined", l.Name, len(l.Points)))
		}
	}
	rep.Notes = append(rep.Notes, "Fig. 5 for our variants (not a claim of the seed): "+strings.Join(ours, "; ")+".")
	return rep
}

func methodLabel(m string) string {
	switch m {
	case "split":
		return "split (seed)"
	case "split-wd":
		return "split-wd (ours)"
	}
	return ruleLabel(m)
}

func methodSource(m string) string {
	switch m {
	case RuleSeed, "split":
		return "paper"
	case RuleBalanced, RuleGreedyGuided, "split-wd":
		return "ours"
	}
	return "paper (other reading)"
}

// reproNotes are the reproduce report's notes.
func reproNotes(n int, cfg ReproConfig, budget int64, all []sizeStats, cl *claimData) []string {
	var draws []string
	var unproven []string
	for _, st := range all {
		draws = append(draws, fmt.Sprintf("%d jobs: %d draws, %d disconnected, %d without a schedule", st.jobs, st.draws, st.disconnected, st.infeasible))
		unproven = append(unproven, st.unproven...)
	}
	notes := []string{
		fmt.Sprintf("Setting (§4.1): 15 resources, 2 per job, durations 1–3, every start in τ = {1..20} (a job may end after slot 20: the seed's domain is the start slot, \"the jobs' start times are the variables' domain\" (\"ジョブの開始時間を変数の領域とする\"), and its sizes count d = 20 for every node). %d instances per size, seeds 1000·jobs + i, width limit %d. Pseudo-trees: %s.", n, reproWidth, treeNote(cfg)),
		"Generator: one connected constraint graph (the seed's rule) and a schedule with every start in {1..20} (decided exactly; the seed states no such filter but reports an accuracy at every size). Draws per size: " + strings.Join(draws, "; ") + ".",
		fmt.Sprintf("Sizes: before_mb and after_mb are the seed's accounting, 20^w × %d B in MiB (20^5 × 4 B = 12.2 MiB prints as its 1.2e1); *_actual use the actual domains (after WD the restricted ones). MiB columns are geometric means over instances (sizes span tens of orders of magnitude); widths are means with min/median/max. paper_width_* = log20(MB · 2^20 / 4): Table 1 before 6.20, 7.75, 13.75, 17.75 (with MB = 10^6 B: 6.18, 7.73, 13.74, 17.73).", EntryBytes),
		"Table 2's before column is the same full-problem size as Table 1's: the seed's two before columns differ on the same setting (×100 at 20 jobs), unexplained.",
		fmt.Sprintf("WD rules: seed = %s (the text's \"dxi ∩ dPC(xi) = φ\" over the descendant set, the ancestor first); literal, earliest, fixed, half are the other readings of §3.1 (doc.go); balanced and greedy-guided are ours. A failure is: the width limit not reached without emptying a domain, a relaxed problem with no schedule, or (literal) a collision of a deleted pair.", seedReading),
		fmt.Sprintf("DPOP budget %s per run (the reproduce's memory_mb shared by the parallel runs). A split half over it fails the split; its after size is then its pseudo-tree at full domains. split-wd (ours) runs WD with the greedy-guided rule (ours; the reference is the greedy list schedule inside the half's domains, GreedyIn) inside each half wider than %d: with the seed's rule there it left more halves unsolved (doc.go).", report.FormatBytes(budget), reproWidth),
		"paper_accuracy is the lower end of the ranges the seed states in its text (0.95–1, 0.93–1); Figs. 3–6 print no numbers.",
	}
	if len(unproven) == 0 {
		notes = append(notes, "Accuracy = exact optimum / method makespan; every optimum is proven (the exact search refutes every makespan below it).")
	} else {
		notes = append(notes, fmt.Sprintf("Accuracy = exact optimum / method makespan; optima not proven within %v s: %s.", cfg.TimeLimitS, strings.Join(unproven, ", ")))
	}
	return notes
}

// treeNote says which trees the reproduce ran.
func treeNote(cfg ReproConfig) string {
	s := fmt.Sprintf("%s for the paper's methods, the Claims table and the tables and plots without a mark", cfg.Heuristic)
	if cfg.Heuristic == HeuristicMaxDegree {
		s += " (a DFS of the constraint graph from the job of highest degree, most-connected child first: every constraint edge is a tree edge or a back edge, the seed's §2.4 pseudo-tree; the seed names no construction and cites Collin and Dechter's DFS)"
	}
	if len(reproTrees(cfg)) > 1 {
		s += fmt.Sprintf("; every method also runs on the %s elimination tree, ours, in the tables marked \"(%s tree, ours)\": the narrowest construction here, but a tree edge may join jobs that share no constraint, so it is not a pseudo-tree in the seed's sense", oursHeuristic, oursHeuristic)
	}
	return s
}

// fmtWidths writes a width spread.
func fmtWidths(xs []float64) string {
	lo, med, hi := spread(xs)
	return fmt.Sprintf("width %.0f/%.1f/%.0f (min/median/max)", lo, med, hi)
}
