package dcop

import (
	"fmt"
	"math"
	"strings"

	"schedlab/solvers"
)

// Verdicts of the Claims table (fidelity.md).
const (
	Holds       = solvers.Holds
	Partly      = solvers.Partly
	DoesNotHold = solvers.DoesNotHold
	NotMeasured = solvers.NotMeasured
)

// verdictWidth compares a published size, as its implied width, with our
// widths over the instances: holds when our median is within 0.5 of it,
// partly when it lies within our range widened by 0.5, else does not hold.
func verdictWidth(paperW float64, ours []float64) string {
	if len(ours) == 0 {
		return NotMeasured
	}
	lo, med, hi := spread(ours)
	switch {
	case math.Abs(med-paperW) <= 0.5:
		return Holds
	case paperW >= lo-0.5 && paperW <= hi+0.5:
		return Partly
	}
	return DoesNotHold
}

// verdictReached: the method reached its target on every instance (holds),
// on some (partly) or on none (does not hold).
func verdictReached(failures, n int) string {
	switch {
	case n == 0:
		return NotMeasured
	case failures == 0:
		return Holds
	case failures < n:
		return Partly
	}
	return DoesNotHold
}

// verdictAccuracy checks "accuracy ≥ low" per size (mean over the
// instances the method solved; NaN where it solved none): holds when
// every size has no failure and a mean ≥ low, partly when some size has a
// mean ≥ low, else does not hold.
func verdictAccuracy(means []float64, failures []int, low float64) string {
	all, some := len(means) > 0, false
	for i, m := range means {
		ok := !math.IsNaN(m) && m >= low
		some = some || ok
		all = all && ok && failures[i] == 0
	}
	switch {
	case all:
		return Holds
	case some:
		return Partly
	}
	return DoesNotHold
}

// verdictFlat checks "accuracy falls little as jobs grow": holds when every
// size has a mean (NaN: none solved) and the largest size's is at least
// the smallest's − 0.05; a size with none solved does not hold.
func verdictFlat(means []float64) string {
	if len(means) < 2 {
		return NotMeasured
	}
	for _, m := range means {
		if math.IsNaN(m) {
			return DoesNotHold
		}
	}
	if means[len(means)-1] >= means[0]-0.05 {
		return Holds
	}
	return DoesNotHold
}

// verdictCorrelation checks "accuracy falls as more edges are deleted":
// Pearson r ≤ −0.3 holds, −0.3 < r < 0 partly, r ≥ 0 does not hold; fewer
// than 3 points or a constant coordinate is not measured.
func verdictCorrelation(pts [][2]float64) (string, float64, bool) {
	r, ok := pearson(pts)
	switch {
	case !ok:
		return NotMeasured, 0, false
	case r <= -0.3:
		return Holds, r, true
	case r < 0:
		return Partly, r, true
	}
	return DoesNotHold, r, true
}

// verdictRatio checks "about the same" for ratios (one per size): all in
// [0.8, 1.25] holds, all in [0.5, 2] partly, else does not hold.
func verdictRatio(ratios []float64) string {
	if len(ratios) == 0 {
		return NotMeasured
	}
	near, loose := true, true
	for _, r := range ratios {
		near = near && r >= 0.8 && r <= 1.25
		loose = loose && r >= 0.5 && r <= 2
	}
	switch {
	case near:
		return Holds
	case loose:
		return Partly
	}
	return DoesNotHold
}

// verdictReduced checks after < before per size: every size holds, some
// partly, none does not hold.
func verdictReduced(before, after []float64) string {
	if len(before) == 0 {
		return NotMeasured
	}
	k := 0
	for i := range before {
		if after[i] < before[i] {
			k++
		}
	}
	switch k {
	case len(before):
		return Holds
	case 0:
		return DoesNotHold
	}
	return Partly
}

// verdictBoth combines two verdicts of one conclusion.
func verdictBoth(a, b string) string {
	switch {
	case a == Holds && b == Holds:
		return Holds
	case a == DoesNotHold && b == DoesNotHold:
		return DoesNotHold
	case a == NotMeasured && b == NotMeasured:
		return NotMeasured
	}
	return Partly
}

// claimData gathers, size by size, what the Claims rows need.
type claimData struct {
	rows                     [][]any
	jobs                     []int
	wdMean, spMean           []float64 // NaN where none solved
	wdFail, spFail           []int
	n                        int
	cycFull, cycSplit, cycWD []float64
	before, wdAfter, spAfter []float64
	delWD, delSp             [][2]float64
	unproven                 int
	bestHalf                 []float64 // per size: the smallest mean half width over the heuristics
	bestHalfName             []string
}

// verdictReachable checks "some heuristic gives halves as narrow as the
// seed's": the best mean half width is within 0.5 of the implied width at
// every size (holds), at some (partly), at none (does not hold).
func verdictReachable(best, paper []float64) string {
	if len(best) == 0 {
		return NotMeasured
	}
	k := 0
	for i := range best {
		if best[i] <= paper[i]+0.5 {
			k++
		}
	}
	switch k {
	case len(best):
		return Holds
	case 0:
		return DoesNotHold
	}
	return Partly
}

func nanMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return mean(xs)
}

// add records one size: the Table 1 and 2 rows and the accuracies.
func (c *claimData) add(st sizeStats, wd, sp methodStats) {
	ji := len(c.jobs)
	c.jobs = append(c.jobs, st.jobs)
	c.n = len(st.opt)
	c.unproven += len(st.unproven)
	pw := ImpliedWidth(paperT1Before[ji], 20)
	c.rows = append(c.rows, []any{fmt.Sprintf("Table 1: max UTIL before WD, %d jobs", st.jobs), fmt.Sprintf("%.2g MB (width %.2f)", paperT1Before[ji], pw),
		fmt.Sprintf("%.3g MiB, %s", geomean(st.before), fmtWidths(st.wb)), verdictWidth(pw, st.wb), "Table 1 before_mb, width_before"})
	c.rows = append(c.rows, []any{fmt.Sprintf("Table 1: max UTIL after WD to width 5, %d jobs", st.jobs), fmt.Sprintf("%.2g MB (width 5)", paperT1After[ji]),
		fmt.Sprintf("%.3g MiB, %s; limit reached on %d of %d, schedule on %d", geomean(wd.paperMB), fmtWidths(wd.widths), wd.reached, c.n, c.n-wd.failures),
		verdictReached(c.n-wd.reached, c.n), "Table 1 after_mb, width_after, wd_failures"})
	c.rows = append(c.rows, []any{fmt.Sprintf("Table 2: max UTIL before split, %d jobs", st.jobs), fmt.Sprintf("%.2g MB (width %.2f)", paperT2Before[ji], ImpliedWidth(paperT2Before[ji], 20)),
		fmt.Sprintf("%.3g MiB, %s", geomean(st.before), fmtWidths(st.wb)), verdictWidth(ImpliedWidth(paperT2Before[ji], 20), st.wb), "Table 2 before_mb, width_before"})
	c.rows = append(c.rows, []any{fmt.Sprintf("Table 2: max UTIL after split (wider half), %d jobs", st.jobs), fmt.Sprintf("%.2g MB (width %.2f)", paperT2After[ji], ImpliedWidth(paperT2After[ji], 20)),
		fmt.Sprintf("%.3g MiB, %s; solved %d of %d", geomean(sp.paperMB), fmtWidths(sp.widths), c.n-sp.failures, c.n), verdictWidth(ImpliedWidth(paperT2After[ji], 20), sp.widths), "Table 2 after_mb, width_after, split_failures; Pseudo-tree heuristics"})
	c.wdMean = append(c.wdMean, nanMean(wd.acc))
	c.spMean = append(c.spMean, nanMean(sp.acc))
	c.wdFail = append(c.wdFail, wd.failures)
	c.spFail = append(c.spFail, sp.failures)
	c.cycFull = append(c.cycFull, mean(st.cyclesFull))
	c.cycSplit = append(c.cycSplit, nanMean(sp.cyc))
	c.cycWD = append(c.cycWD, nanMean(wd.cyc))
	c.before = append(c.before, geomean(st.before))
	c.wdAfter = append(c.wdAfter, geomean(wd.paperMB))
	c.spAfter = append(c.spAfter, geomean(sp.paperMB))
}

// totalFail sums the failures of WD seed (0) or the split (1).
func (c *claimData) totalFail(which int) int {
	f := c.wdFail
	if which == 1 {
		f = c.spFail
	}
	s := 0
	for _, x := range f {
		s += x
	}
	return s
}

func fmtMeans(jobs []int, means []float64, fails []int, n int) string {
	var parts []string
	for i, m := range means {
		v := "n/a"
		if !math.IsNaN(m) {
			v = fmt.Sprintf("%.3f", m)
		}
		parts = append(parts, fmt.Sprintf("%d: %s (%d/%d failed)", jobs[i], v, fails[i], n))
	}
	return strings.Join(parts, "; ")
}

// claimsTable is the Claims table: every published number and qualitative
// claim of the seed with our value and the verdict of its rule.
func claimsTable(c *claimData) solvers.Table {
	t := solvers.Table{Title: "Claims", Columns: []string{"claim", "paper", "ours", "verdict", "evidence"}}
	t.Rows = append(t.Rows, c.rows...)
	t.Rows = append(t.Rows,
		[]any{"Fig. 3 / §4.2: WD accuracy 0.95–1", "≥ 0.95 at 20–50 jobs", fmtMeans(c.jobs, c.wdMean, c.wdFail, c.n),
			verdictAccuracy(c.wdMean, c.wdFail, paperWDAccuracy), "Accuracy (WD seed); Accuracy vs jobs"},
		[]any{"Fig. 4 / §4.2: split accuracy 0.93–1", "≥ 0.93 at 20–50 jobs", fmtMeans(c.jobs, c.spMean, c.spFail, c.n),
			verdictAccuracy(c.spMean, c.spFail, paperSplitAccLow), "Accuracy (split (seed)); Accuracy vs jobs"},
		[]any{"Fig. 3: WD accuracy drops little as jobs grow", "small drop 20→50 jobs", fmtMeans(c.jobs, c.wdMean, c.wdFail, c.n),
			verdictFlat(c.wdMean), "Accuracy vs jobs (rule: every size solved, 50-job mean ≥ 20-job mean − 0.05)"},
		[]any{"Fig. 4: split accuracy drops little as jobs grow", "small drop 20→50 jobs", fmtMeans(c.jobs, c.spMean, c.spFail, c.n),
			verdictFlat(c.spMean), "Accuracy vs jobs (same rule)"},
	)
	for _, f := range []struct {
		name, what string
		pts        [][2]float64
	}{{"WD", "back edges deleted", c.delWD}, {"split", "constraint edges cut", c.delSp}} {
		v, r, ok := verdictCorrelation(f.pts)
		ours := fmt.Sprintf("%d points, too few or constant: no correlation", len(f.pts))
		if ok {
			ours = fmt.Sprintf("Pearson r = %+.2f over %d solved instances", r, len(f.pts))
		}
		t.Rows = append(t.Rows, []any{"Fig. 5: " + f.name + " accuracy falls as more " + f.what, "accuracy decreases with the count", ours, v,
			"Accuracy vs deleted edges (rule: r ≤ −0.3 holds, r < 0 partly)"})
	}
	var ratios []float64
	var parts []string
	for i := range c.jobs {
		if !math.IsNaN(c.cycSplit[i]) && c.cycFull[i] > 0 {
			ratios = append(ratios, c.cycSplit[i]/c.cycFull[i])
			parts = append(parts, fmt.Sprintf("%d: %.0f vs %.0f", c.jobs[i], c.cycSplit[i], c.cycFull[i]))
		}
	}
	t.Rows = append(t.Rows, []any{"Fig. 6: split's message cycles about those of the unsplit problem", "no large change", "split (sum of halves) vs full: " + strings.Join(parts, "; "),
		verdictRatio(ratios), "Message cycles with and without split (rule: ratio in [0.8, 1.25] at every size holds, [0.5, 2] partly)"})
	var implied []float64
	var hp []string
	for i, j := range c.jobs {
		implied = append(implied, ImpliedWidth(paperT2After[i], 20))
		hp = append(hp, fmt.Sprintf("%d: %.1f (%s) vs %.2f", j, c.bestHalf[i], c.bestHalfName[i], implied[i]))
	}
	t.Rows = append(t.Rows, []any{"Table 2: halves as narrow as the seed's are reachable (any pseudo-tree heuristic)", "half widths 1.46/3.06/4.86/5.05",
		"narrowest mean half width: " + strings.Join(hp, "; "), verdictReachable(c.bestHalf, implied), "Pseudo-tree heuristics (rule: best mean ≤ implied + 0.5 at every size holds)"})
	sizeWD, sizeSp := verdictReduced(c.before, c.wdAfter), verdictReduced(c.before, c.spAfter)
	t.Rows = append(t.Rows, []any{"Conclusion: both methods reduce the UTIL message size", "reduced", fmt.Sprintf("WD %s, split %s (seed's accounting, geometric means per size)", sizeWD, sizeSp),
		verdictBoth(sizeWD, sizeSp), "Table 1, Table 2, UTIL size vs jobs"})
	var wdCyc, spCyc, full1, full2 []float64
	for i := range c.jobs {
		if !math.IsNaN(c.cycWD[i]) {
			wdCyc, full1 = append(wdCyc, c.cycWD[i]), append(full1, c.cycFull[i])
		}
		if !math.IsNaN(c.cycSplit[i]) {
			spCyc, full2 = append(spCyc, c.cycSplit[i]), append(full2, c.cycFull[i])
		}
	}
	cycWD, cycSp := verdictReduced(full1, wdCyc), verdictReduced(full2, spCyc)
	t.Rows = append(t.Rows, []any{"Conclusion: the methods reduce the message cycles", "reduced", fmt.Sprintf("WD %s over %d sizes solved, split %s over %d", cycWD, len(wdCyc), cycSp, len(spCyc)),
		verdictBoth(cycWD, cycSp), "Message cycles with and without split"})
	accWD, accSp := verdictAccuracy(c.wdMean, c.wdFail, paperWDAccuracy), verdictAccuracy(c.spMean, c.spFail, paperSplitAccLow)
	t.Rows = append(t.Rows, []any{"Conclusion: the accuracy loss is relatively small", "0.95–1 (WD), 0.93–1 (split)", fmt.Sprintf("WD %s, split %s", accWD, accSp),
		verdictBoth(accWD, accSp), "Accuracy"})
	return t
}
