package cyclic

import (
	"fmt"
	"math"
)

// The claims of each part of the reproduce, from its numbers.

// t1Row is one row of Table 1: N_A, start, runtime, finish, cost.
type t1Row [5]float64

// table1 adds Table 1's claims: rows are the fair-share groups by
// criterion (criteria order) and css last.
func (c *Claims) table1(rows [5]t1Row) {
	css := rows[4]
	col := map[string]int{CritStart: 1, CritRuntime: 2, CritFinish: 3, CritCost: 4}
	best := func(k int) string { // the group with the least value in column k
		b := 0
		for i := 1; i < 4; i++ {
			if rows[i][k] < rows[b][k] {
				b = i
			}
		}
		return criteria[b]
	}
	okRun, okFin, okCost := best(2) == CritRuntime, best(3) == CritFinish, best(4) == CritCost
	okStart := best(1) == CritStart || best(1) == CritFinish
	c.add("t1own", "Table 1: the jobs of each criterion do best on their own measure; the finish criterion also gets the least start",
		"runtime, finish, cost: own group best; least start: finish group",
		fmt.Sprintf("least start: %s, runtime: %s, finish: %s, cost: %s", best(1), best(2), best(3), best(4)),
		verdictAll(okStart, okRun, okFin, okCost), evTable1)
	var ours, paper []float64
	for _, k := range criteria {
		i := col[k]
		ours = append(ours, pct(rows[i-1][i], css[i]))
		paper = append(paper, pct(paperT1[k][i], paperT1["css"][i]))
	}
	c.add("t1gain", "Table 1: each criterion's own value against the cyclic scheme (start, runtime, finish, cost; rule: same sign and within 10 points)",
		fmtList(paper, "%+.1f %%"), fmtList(ours, "%+.1f %%"), verdictGains(ours, paper, 10), evTable1)
	var na, lo, hi float64 = 0, math.Inf(1), 0
	for i := range 5 {
		na += rows[i][0] / 5
		lo, hi = math.Min(lo, rows[i][0]), math.Max(hi, rows[i][0])
	}
	level := verdictLevel(na, 12.1, 1.33, 2)
	indep := hi/lo <= 1.25
	v := level
	if !indep {
		v = worst(level, Partly)
	}
	c.add("t1na", "Table 1: N_A ≈ 12 alternatives per job, about the same for every criterion (rule: mean within ×1.33, spread ≤ ×1.25)",
		"10.6–12.9", fmt.Sprintf("%.1f–%.1f (mean %.1f)", lo, hi, na), v, evTable1)
	cv := []string{verdictLevel(css[1], 222, 1.25, 2), verdictLevel(css[2], 50.3, 1.25, 2), verdictLevel(css[3], 272.3, 1.25, 2)}
	c.add("t1level", "Table 1: CSS levels start / runtime / finish (rule: each within ×1.25; partly ×2)",
		"222 / 50.3 / 272.3", fmt.Sprintf("%.1f / %.1f / %.1f", css[1], css[2], css[3]), worst(cv...), evTable1)
	c.add("t1cost", "Table 1: cost levels (1098–1283)", "1248.4 (CSS)", fmt.Sprintf("%.1f (CSS)", css[4]), NotMeasured,
		evTable1+": the price unit is not given by the seed, so cost levels are not comparable; the gains above are")
}

// table2Stats are Table 2's series against the price ratio.
type table2Stats struct{ ratio, load, profit, fail []float64 }

func (c *Claims) table2(st table2Stats) {
	best := 0
	for i := range st.profit {
		if st.profit[i] > st.profit[best] {
			best = i
		}
	}
	c.add("t2load", "Table 2: the node's load falls as its price rises", "256.6 → 71 (c = 2 … 10)",
		fmt.Sprintf("%.1f → %.1f (price × %g … × %g)", st.load[0], st.load[len(st.load)-1], st.ratio[0], st.ratio[len(st.ratio)-1]),
		verdictFalls(st.load, 0.02), evTable2)
	c.add("t2peak", "Table 2: the profit peaks at a price near the market price (rule: peak within 0.75–1.25 × market; partly 0.5–1.5)",
		"peak at c = 6 of 2 … 10, «близкой к среднерыночной»", fmt.Sprintf("peak at %g × market", st.ratio[best]), verdictPeak(st.ratio[best]), evTable2)
	last := len(st.fail) - 1
	v := DoesNotHold
	switch {
	case st.fail[last] > st.fail[0]:
		v = Holds
	case st.fail[last] == st.fail[0]:
		v = Partly
	}
	c.add("t2fail", "Table 2: failures rise with the price", "0 → 0.025", fmt.Sprintf("%.3f → %.3f", st.fail[0], st.fail[last]), v, evTable2)
	mid := -1
	for i, r := range st.ratio {
		if r == 1 {
			mid = i
		}
	}
	if mid >= 0 {
		c.add("t2util", "Table 2: utilization at the market price (rule: within ×1.25; partly ×2)", "0.31 (c = 6)",
			fmt.Sprintf("%.2f", st.load[mid]/600), verdictLevel(st.load[mid]/600, 0.31, 1.25, 2), evTable2)
	}
}

// fig3Level is one load level's series against k.
type fig3Level struct{ proc, u, na, cost []float64 }

func (c *Claims) fig3(lv []fig3Level) {
	argmin := func(ys []float64) int {
		b := 0
		for i := range ys {
			if ys[i] < ys[b] {
				b = i
			}
		}
		return fig3K[b]
	}
	hi, lo := lv[0], lv[len(lv)-1]
	c.add("f3high", "Fig 3: at high load few sub-batches give the least T_proc (rule: best k ≤ 2; partly ≤ 5)", "fewer sub-batches best",
		fmt.Sprintf("best k = %d", argmin(hi.proc)), verdictBestK(argmin(hi.proc), "few"), evFig3)
	c.add("f3low", "Fig 3: at low load many sub-batches give the least T_proc (rule: best k ≥ 10; partly ≥ 5)", "more sub-batches best, up to each job alone",
		fmt.Sprintf("best k = %d", argmin(lo.proc)), verdictBestK(argmin(lo.proc), "many"), evFig3)
	last := len(fig3K) - 1
	rise := func(get func(fig3Level) []float64, up bool) (string, string) {
		var ok []bool
		var s []string
		for _, l := range lv {
			ys := get(l)
			ok = append(ok, (ys[last] > ys[0]) == up && ys[last] != ys[0])
			s = append(s, fmt.Sprintf("%.3g → %.3g", ys[0], ys[last]))
		}
		return verdictAll(ok...), fmt.Sprintf("k = 1 → 20 at high / medium / low: %s", joinStr(s))
	}
	v, o := rise(func(l fig3Level) []float64 { return l.na }, true)
	c.add("f3na", "Fig 3: more sub-batches give more alternatives per job", "rises with k", o, v, evFig3)
	v, o = rise(func(l fig3Level) []float64 { return l.cost }, false)
	c.add("f3cost", "Fig 3: more sub-batches give a lower cost", "falls with k", o, v, evFig3)
	v, o = rise(func(l fig3Level) []float64 { return l.u }, true)
	c.add("f3u", "Fig 3: more sub-batches give a higher failure rate U", "rises with k", o, v, evFig3)
	u := []float64{hi.u[0], lv[1].u[0], lo.u[0]}
	c.add("f3levels", "Fig 3: the load levels by U at k = 1 (rule: high 0.2–0.45, medium 0.015–0.06, low < 0.002)", "0.3 / 0.03 / < 0.0002",
		fmtList(u, "%.4g"), verdictAll(u[0] >= 0.2 && u[0] <= 0.45, u[1] >= 0.015 && u[1] <= 0.06, u[2] < 0.002), evFig3+" (our levels are set by the local load to meet these U)")
}

func joinStr(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

// fig4 adds Fig 4's claims and the compromise conclusion: proc and start
// against the share N_css / N (fig4Shares).
func (c *Claims) fig4(proc, start []float64) {
	n := len(proc) - 1
	cross := false
	for i := 1; i <= n; i++ {
		if (proc[i]-start[i])*(proc[i-1]-start[i-1]) <= 0 {
			cross = true
		}
	}
	falls, rises := proc[n] < proc[0], start[n] > start[0]
	v := DoesNotHold
	switch {
	case falls && rises && cross:
		v = Holds
	case falls && rises:
		v = Partly
	}
	c.add("f4", "Fig 4: as N_css / N grows T_proc falls and T_start rises; the curves cross", "both monotone, crossing",
		fmt.Sprintf("T_proc %.1f → %.1f, T_start %.1f → %.1f, cross: %v", proc[0], proc[n], start[0], start[n], cross), v, evFig4)
	h := n / 2
	between := func(x, a, b float64) bool { return x >= math.Min(a, b) && x <= math.Max(a, b) }
	c.add("c_combined", "Conclusion: the combined method gives results between the fair-share model and backfilling",
		"«компромиссные результаты»", fmt.Sprintf("at N_css/N = %g: T_proc %.1f (%.1f … %.1f), T_start %.1f (%.1f … %.1f)", fig4Shares[h], proc[h], proc[0], proc[n], start[h], start[0], start[n]),
		verdictAll(between(proc[h], proc[0], proc[n]), between(start[h], start[0], start[n])), evFig4)
}

// t3Row is one method's planned and actual T_proc and start.
type t3Row struct{ procPlan, procAct, stPlan, stAct float64 }

// table3 adds Table 3's claims; rows: backfill, css, fair.
func (c *Claims) table3(rows [3]t3Row) {
	bf, cs, fs := rows[0], rows[1], rows[2]
	var ratios []float64
	near := true
	for i, r := range rows {
		x := r.procAct / r.procPlan
		ratios = append(ratios, x)
		p := paperT3[i].procAct / paperT3[i].procPlan
		if math.Abs(x-p) > 0.05 {
			near = false
		}
	}
	c.add("t3ratio", "Table 3: actual / planned T_proc (rule: each within 0.05 of the paper's)", "0.61 / 0.60 / 0.60",
		fmtList(ratios, "%.2f"), verdictAll(near), evTable3)
	leadP, leadA := -pct(fs.procPlan, bf.procPlan), -pct(fs.procAct, bf.procAct)
	c.add("t3lead", "Table 3: the fair-share model's T_proc lead over backfilling is kept and grows under early completion", "26.2 % → 27.5 %",
		fmt.Sprintf("%.1f %% → %.1f %%", leadP, leadA), verdictLead(leadP, leadA), evTable3)
	v := DoesNotHold
	switch {
	case bf.procPlan > cs.procPlan && cs.procPlan > fs.procPlan:
		v = Holds
	case bf.procPlan > fs.procPlan:
		v = Partly
	}
	c.add("t3order", "Table 3: planned T_proc backfilling > CSS > fair-share", "187.7 > 150.1 > 138.6",
		fmt.Sprintf("%.1f / %.1f / %.1f", bf.procPlan, cs.procPlan, fs.procPlan), v, evTable3)
	c.add("t3proclevel", "Table 3: planned T_proc levels (rule: each within ×1.25; partly ×2)", "187.7 / 150.1 / 138.6",
		fmt.Sprintf("%.1f / %.1f / %.1f", bf.procPlan, cs.procPlan, fs.procPlan),
		worst(verdictLevel(bf.procPlan, 187.7, 1.25, 2), verdictLevel(cs.procPlan, 150.1, 1.25, 2), verdictLevel(fs.procPlan, 138.6, 1.25, 2)), evTable3)
	c.add("t3startlevel", "Table 3: planned start levels (rule: each within ×1.25; partly ×2)", "69 / 281.2 / 223.8",
		fmt.Sprintf("%.1f / %.1f / %.1f", bf.stPlan, cs.stPlan, fs.stPlan),
		worst(verdictLevel(bf.stPlan, 69, 1.25, 2), verdictLevel(cs.stPlan, 281.2, 1.25, 2), verdictLevel(fs.stPlan, 223.8, 1.25, 2)), evTable3)
	cut := bf.stAct / bf.stPlan
	v = DoesNotHold
	switch {
	case cs.stAct == cs.stPlan && fs.stAct == fs.stPlan && math.Abs(cut-37.3/69) <= 0.1:
		v = Holds
	case cs.stAct == cs.stPlan && fs.stAct == fs.stPlan && cut < 1:
		v = Partly
	}
	c.add("t3start", "Table 3: CSS and fair-share keep their starts; backfilling's actual start is earlier (rule: actual/planned within 0.1 of 0.54)",
		"37.3 / 69 = 0.54; CSS, fair-share equal", fmt.Sprintf("%.2f; CSS %v, fair-share %v", cut, cs.stAct == cs.stPlan, fs.stAct == fs.stPlan), v, evTable3)
	sp, sa := -pct(bf.stPlan, fs.stPlan), -pct(bf.stAct, fs.stAct)
	c.add("t3startlead", "Table 3: the fair-share model's start against backfilling's (rule: same sign, within 15 points)", "−69 % / −83 %",
		fmt.Sprintf("%+.0f %% / %+.0f %%", -sp, -sa), verdictGains([]float64{-sp, -sa}, []float64{-69, -83}, 15), evTable3)
}

// studyPoint is one method's numbers at one node count.
type studyPoint struct{ start, proc, f, finish float64 }

// nodeStudy adds the claims of Figs 5–8; pts[method][node count] in
// studyMethods × studyNodes order (css, css+shift, combined, backfill).
func (c *Claims) nodeStudy(pts [][]studyPoint, T float64) {
	const css, shift, comb, bf = 0, 1, 2, 3
	n := len(studyNodes) - 1
	get := func(m int, f func(studyPoint) float64) []float64 {
		var ys []float64
		for _, p := range pts[m] {
			ys = append(ys, f(p))
		}
		return ys
	}
	start := func(p studyPoint) float64 { return p.start }
	bs := get(bf, start)
	v := verdictFalls(bs, 0.02)
	if v == Holds && bs[n] > 0.05*T {
		v = Partly
	}
	c.add("f5bf", "Fig 5: backfilling's start falls towards 0 as nodes grow (rule: falls, ≤ 5 % of T at 150 nodes)", "→ 0",
		fmt.Sprintf("%.1f → %.1f", bs[0], bs[n]), v, evNodeStudy)
	cs := get(css, start)
	lo, hi := math.Inf(1), 0.0
	for _, y := range cs {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	v = DoesNotHold
	switch {
	case lo >= 0.35*T && hi <= 0.65*T && hi-lo <= 0.15*T:
		v = Holds
	case lo >= 0.25*T && hi <= 0.75*T:
		v = Partly
	}
	c.add("f5css", "Fig 5: CSS's start stays mid-interval whatever the nodes (rule: 0.35–0.65 T, spread ≤ 0.15 T)", "≈ 280–300, flat",
		fmt.Sprintf("%.1f … %.1f", lo, hi), v, evNodeStudy)
	c.add("f5comb", "Fig 5: the combined method's start is close to backfilling's (rule at 150 nodes: within a quarter of the way from backfilling to CSS; partly half)",
		"close to backfilling", fmt.Sprintf("%.1f (backfilling %.1f, CSS %.1f)", pts[comb][n].start, bs[n], cs[n]), verdictCloser(pts[comb][n].start, bs[n], cs[n]), evNodeStudy)
	ss := pts[shift][n].start
	c.add("f5shift", "Fig 5: CSS+shift's start tends to a non-zero value (rule at 150 nodes: above backfilling's by > 2 % of T, below CSS's)", "non-zero",
		fmt.Sprintf("%.1f", ss), verdictAll(ss > bs[n]+0.02*T && ss < cs[n]), evNodeStudy)
	won, total := 0, 0
	for _, m := range []int{css, shift, comb} {
		for i := range studyNodes {
			total++
			if pts[m][i].proc < pts[bf][i].proc {
				won++
			}
		}
	}
	c.add("f6beat", "Fig 6: CSS, CSS+shift and combined beat backfilling on T_proc at every node count", "all lower",
		fmt.Sprintf("%d of %d lower", won, total), verdictShare(won, total), evNodeStudy)
	gap := func(m, i int) float64 { return pts[bf][i].proc - pts[m][i].proc }
	c.add("f6grow", "Fig 6: their T_proc lead over backfilling grows with the nodes (CSS, combined: 6 → 150 nodes)", "grows",
		fmt.Sprintf("CSS %.1f → %.1f, combined %.1f → %.1f", gap(css, 0), gap(css, n), gap(comb, 0), gap(comb, n)),
		verdictAll(gap(css, n) > gap(css, 0) && gap(css, n) > 0, gap(comb, n) > gap(comb, 0) && gap(comb, n) > 0), evNodeStudy)
	plo, phi := math.Inf(1), 0.0
	for _, row := range pts {
		for _, p := range row {
			plo, phi = math.Min(plo, p.proc), math.Max(phi, p.proc)
		}
	}
	v = DoesNotHold
	switch {
	case plo >= 100 && phi <= 240:
		v = Holds
	case plo >= 50 && phi <= 480:
		v = Partly
	}
	c.add("f6level", "Fig 6: T_proc within the figure's axis 100–240 (partly: 50–480)", "100–240", fmt.Sprintf("%.1f–%.1f", plo, phi), v, evNodeStudy)
	for _, f := range []struct {
		key, fig, name string
		val            func(studyPoint) float64
	}{
		{"f7", "Fig 7", "F = T_start + T_proc", func(p studyPoint) float64 { return p.f }},
		{"f8", "Fig 8", "finish time", func(p studyPoint) float64 { return p.finish }},
	} {
		few := bf
		for m := range pts {
			if f.val(pts[m][0]) < f.val(pts[few][0]) {
				few = m
			}
		}
		c.add(f.key+"few", fmt.Sprintf("%s: with few nodes backfilling or the combined method is best on %s", f.fig, f.name), "backfilling ≈ combined best",
			fmt.Sprintf("best at %d nodes: %s", studyNodes[0], studyMethods[few].name), verdictAll(few == bf || few == comb), evNodeStudy)
		leadFew, leadMany := f.val(pts[bf][0])-f.val(pts[shift][0]), f.val(pts[bf][n])-f.val(pts[shift][n])
		c.add(f.key+"many", fmt.Sprintf("%s: with many nodes CSS+shift beats backfilling on %s; the curves cross", f.fig, f.name), "cross; CSS family wins at scale",
			fmt.Sprintf("backfilling − CSS+shift: %+.1f at %d nodes, %+.1f at %d", leadFew, studyNodes[0], leadMany, studyNodes[n]),
			verdictCross(leadFew, leadMany), evNodeStudy)
	}
}

// conclusions adds the seed's conclusions (Заключение), each from the
// verdicts of the claims it rests on.
func (c *Claims) conclusions() {
	if c == nil {
		return
	}
	c.add("c_fair", "Conclusion: the fair-share model beats the cyclic scheme (Table 1 gains; Fig 3 sub-batches)", "shown",
		"Table 1 gains: "+c.by["t1gain"]+"; best k at low load: "+c.by["f3low"], worst(c.by["t1gain"], c.by["f3low"]), evTable1+", "+evFig3)
	c.add("c_owner", "Conclusion: owners steer their profit and load by the price", "shown",
		"load falls: "+c.by["t2load"]+"; peak near market: "+c.by["t2peak"], worst(c.by["t2load"], c.by["t2peak"]), evTable2)
	c.add("c_early", "Conclusion: fair-share plans stay consistent when jobs finish early", "shown", "lead kept: "+c.by["t3lead"], c.by["t3lead"], evTable3)
	c.add("c_scale", "Conclusion (§3.3): as the grid grows the cyclic scheme family becomes more efficient than backfilling (F, finish)", "shown",
		"Fig 7: "+c.by["f7many"]+"; Fig 8: "+c.by["f8many"], worst(c.by["f7many"], c.by["f8many"]), evNodeStudy)
}
