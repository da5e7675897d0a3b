package cyclic

import (
	"fmt"

	"schedlab/solvers/claims"
)

// The rows of each part of the reproduce, from its runs' per-cycle values
// (claims.go). Every rule is one of solvers/claims; a tolerance or
// threshold that is ours is named in its row and caps it at partly.

var none = claims.Tol{} // no margin: the paper's words fix the comparison

// pt is a point of one method's per-cycle values.
func pt(label string, xs []float64) claims.Point { return claims.Point{Label: label, Values: xs} }

// pair is a point of two methods' per-cycle values, paired by cycle.
func pair(label string, a, b []float64) claims.Pair { return claims.Pair{Label: label, A: a, B: b} }

// table1 adds Table 1's claims: the fair run's jobs grouped by their own
// criterion (criteria order) against each other and against the css run
// on the same cycles.
func (c *Claims) table1(fair, css *Result) {
	ev := evTable1 + "; " + cyclesNote(len(fair.Cycles)) + "; groups and CSS paired by cycle"
	grp := make([][]CritStats, len(criteria))
	for _, cy := range fair.Cycles {
		for i := range criteria {
			grp[i] = append(grp[i], cy.ByCrit[i])
		}
	}
	all := cycles(css)
	col := []func(CritStats) float64{getStart, getRuntime, getFinish, getCost}
	// own measure: the group of the criterion against the other groups
	own := func(key, what, paper string, best []int, i int) {
		var ps []claims.Pair
		for _, b := range best {
			for o := range criteria {
				if o == i || contains(best, o) {
					continue
				}
				ps = append(ps, pair(criteria[b]+" vs "+criteria[o]+" group", perJob(grp[b], col[i]), perJob(grp[o], col[i])))
			}
		}
		c.add(key, "Table 1: "+what, paper, claims.Direction(claims.LowerBetter, none, ps...), ev)
	}
	own("t1own_start", "the start and finish groups get an earlier start than the runtime and cost groups", "171.7, 169.6 < 214.5, 262.6", []int{0, 2}, 0)
	own("t1own_runtime", "the runtime group gets the least runtime", "39.3 < 56.1, 45, 55.5", []int{1}, 1)
	own("t1own_finish", "the finish group gets the least finish", "205.5 < 227.8, 253.9, 318.1", []int{2}, 2)
	own("t1own_cost", "the cost group gets the least cost", "1098.3 < 1281.1, 1278.5, 1283.2", []int{3}, 3)
	var beat []claims.Pair
	var gains []claims.Result
	var paperGain []string
	for i, k := range criteria {
		a, b := perJob(grp[i], col[i]), perJob(all, col[i])
		beat = append(beat, pair(k, a, b))
		p := pct(paperT1[k][i+1], paperT1["css"][i+1])
		paperGain = append(paperGain, fmt.Sprintf("%+.1f %%", p))
		gains = append(gains, claims.Level(p, claims.Ours(10, "within 10 points of the paper's gain"), pt(k+" gain %", scaled(a, b, meanOf(b)))))
	}
	c.add("t1beat", "Table 1: each criterion's jobs do better on their own measure under the fair-share model than under CSS (start, runtime, finish, cost)",
		joinStr(paperGain), claims.Direction(claims.LowerBetter, none, beat...), ev)
	c.add("t1gain", "Table 1: each criterion's own value against CSS, in % of CSS's (per cycle, paired)",
		joinStr(paperGain), parts(criteria[:], gains...), ev)
	var na []claims.Result
	names := append(criteria[:], "css")
	for i, k := range names {
		cs := all
		if i < len(criteria) {
			cs = grp[i]
		}
		na = append(na, claims.Level(paperT1[k][0], claims.Printed(1), pt("", zip(float64s(cs, func(c CritStats) float64 { return float64(c.Alternatives) }), float64s(cs, func(c CritStats) float64 { return float64(c.Jobs) }), nanDiv))))
	}
	c.add("t1na", "Table 1: N_A, alternatives per job, per group and CSS", "12.8 / 10.6 / 12.2 / 12.9 / 12.1", parts(names, na...), ev)
	c.add("t1level", "Table 1: CSS levels start / runtime / finish", "222 / 50.3 / 272.3", parts([]string{"start", "runtime", "finish"},
		claims.Level(222, claims.Printed(1), pt("", perJob(all, getStart))),
		claims.Level(50.3, claims.Printed(1), pt("", perJob(all, getRuntime))),
		claims.Level(272.3, claims.Printed(1), pt("", perJob(all, getFinish)))), ev)
	c.add("t1cost", "Table 1: cost levels (1098–1283)", "1248.4 (CSS)", claims.Missing("the seed gives no price unit, so cost levels are not comparable; the gains above are"), evTable1)
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// float64s is f of every cycle.
func float64s(cs []CritStats, f func(CritStats) float64) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = f(c)
	}
	return out
}

// nanDiv is x / y, NaN for y = 0.
func nanDiv(x, y float64) float64 {
	if y == 0 {
		return nanIf(true)
	}
	return x / y
}

// table2Cycles are Table 2's per-cycle series against the price ratio:
// the owner's load and profit and the failure indicator, per cycle.
type table2Cycles struct {
	ratio              []float64
	load, profit, fail [][]float64
}

func (c *Claims) table2(st table2Cycles, T float64) {
	ev := evTable2 + "; " + cyclesNote(len(st.load[0])) + "; prices paired by cycle"
	var load, fail []claims.Point
	mid := -1
	for i, r := range st.ratio {
		l := fmt.Sprintf("× %g", r)
		load = append(load, pt(l, st.load[i]))
		fail = append(fail, pt(l, st.fail[i]))
		if r == 1 {
			mid = i
		}
	}
	c.add("t2load", "Table 2: the node's load falls as its price rises (load per cycle, price as a multiple of the market price)", "256.6 → 71 (c = 2 … 10)",
		claims.TrendOf(claims.Falls, none, true, load...), ev)
	if mid >= 0 {
		var ps []claims.Pair
		for i, r := range st.ratio {
			if r <= 0.5 || r >= 1.5 {
				ps = append(ps, pair(fmt.Sprintf("× 1 vs × %g", r), st.profit[mid], st.profit[i]))
			}
		}
		c.add("t2peak", "Table 2: the profit peaks at a price near the market price (profit at the market price above the profit at ≤ 0.5 × and ≥ 1.5 × it)",
			"peak at c = 6 of 2 … 10, «близкой к среднерыночной»",
			claims.Direction(claims.HigherBetter, claims.Ours(0, "«near» the market price read as: above ≤ 0.5 × and ≥ 1.5 ×"), ps...), ev)
	}
	c.add("t2fail", "Table 2: failures rise with the price (failure indicator per cycle)", "0 → 0.025", claims.TrendOf(claims.Rises, none, true, fail...), ev)
	if mid >= 0 {
		u := make([]float64, len(st.load[mid]))
		for i, x := range st.load[mid] {
			u[i] = x / T
		}
		c.add("t2util", "Table 2: utilization at the market price", "0.31 (c = 6)", claims.Level(0.31, claims.Printed(2), pt("", u)), ev)
	}
}

// fig3 adds Fig 3's claims: res[level][k], levels in fig3Loads order, k
// in fig3K order, every run of a level on the same cycles.
func (c *Claims) fig3(res [][]*Result) {
	ev := evFig3 + "; " + cyclesNote(len(res[0][0].Cycles)) + "; the k of a level paired by cycle"
	proc := func(l, k int) []float64 { return perJob(cycles(res[l][k]), getProc) }
	best := func(l, k int) claims.Result {
		var ps []claims.Pair
		for o, ko := range fig3K {
			if o != k {
				ps = append(ps, pair(fmt.Sprintf("k = %d vs k = %d", fig3K[k], ko), proc(l, k), proc(l, o)))
			}
		}
		return claims.Direction(claims.LowerBetter, none, ps...)
	}
	hi, lo := 0, len(fig3Loads)-1
	c.add("f3high", "Fig 3: at high load the fewest sub-batches (k = 1) give the least T_proc", "fewer sub-batches best", best(hi, 0), ev)
	c.add("f3low", "Fig 3: at low load the most sub-batches (k = 20, each job alone) give the least T_proc", "more sub-batches best, up to each job alone", best(lo, len(fig3K)-1), ev)
	trend := func(kind claims.Trend, val func(*Result) []float64) claims.Result {
		var rs []claims.Result
		var names []string
		for l, lv := range fig3Loads {
			var ps []claims.Point
			for k, kk := range fig3K {
				ps = append(ps, pt(fmt.Sprintf("k = %d", kk), val(res[l][k])))
			}
			rs = append(rs, claims.TrendOf(kind, none, true, ps...))
			names = append(names, lv.name)
		}
		return parts(names, rs...)
	}
	na := func(r *Result) []float64 {
		cs := cycles(r)
		return zip(float64s(cs, func(c CritStats) float64 { return float64(c.Alternatives) }), float64s(cs, func(c CritStats) float64 { return float64(c.Jobs) }), nanDiv)
	}
	c.add("f3na", "Fig 3: more sub-batches give more alternatives per job (every step of k, every load level)", "rises with k", trend(claims.Rises, na), ev)
	c.add("f3cost", "Fig 3: more sub-batches give a lower cost per job (every step of k, every load level)", "falls with k",
		trend(claims.Falls, func(r *Result) []float64 { return perJob(cycles(r), getCost) }), ev)
	c.add("f3u", "Fig 3: more sub-batches give a higher failure rate U (every step of k, every load level)", "rises with k", trend(claims.Rises, failed), ev)
	c.add("f3levels", "Fig 3: the load levels by U at k = 1", "0.3 / 0.03 / < 0.0002", parts([]string{"high", "medium", "low"},
		claims.Level(0.3, claims.Printed(1), pt("", failed(res[0][0]))),
		claims.Level(0.03, claims.Printed(2), pt("", failed(res[1][0]))),
		claims.AtMost(0.0002, none, pt("", failed(res[2][0])))),
		ev+fmt.Sprintf("; our levels are the owners' local loads %g / %g / %g, calibrated at k = 1 to the seed's U (calibrateLoad, BenchmarkLoadScan)", fig3Loads[0].load, fig3Loads[1].load, fig3Loads[2].load))
}

func joinStr(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " / "
		}
		out += x
	}
	return out
}

// fig4 adds Fig 4's claims and the compromise conclusion: the combined
// method's runs at the shares fig4Shares, on the same cycles.
func (c *Claims) fig4(res []*Result) {
	ev := evFig4 + "; " + cyclesNote(len(res[0].Cycles)) + "; shares paired by cycle"
	var proc, start [][]float64
	var pp, sp []claims.Point
	var cross []claims.Pair
	for i, r := range res {
		cs := cycles(r)
		proc, start = append(proc, perJob(cs, getProc)), append(start, perJob(cs, getStart))
		l := fmt.Sprintf("%g", fig4Shares[i])
		pp, sp = append(pp, pt(l, proc[i])), append(sp, pt(l, start[i]))
		cross = append(cross, pair(l, start[i], proc[i]))
	}
	c.add("f4", "Fig 4: as N_css / N grows T_proc falls and T_start rises (every step); the curves cross (T_start below T_proc at low shares, above at high)", "both monotone, crossing",
		parts([]string{"T_proc falls", "T_start rises", "crossing"},
			claims.TrendOf(claims.Falls, none, true, pp...), claims.TrendOf(claims.Rises, none, true, sp...), claims.Crossing(claims.LowerBetter, cross...)), ev)
	n, h := len(res)-1, (len(res)-1)/2
	c.add("c_combined", fmt.Sprintf("Conclusion: the combined method gives results between the fair-share model and backfilling (at N_css / N = %g, strictly between its ends)", fig4Shares[h]),
		"«компромиссные результаты»", claims.Direction(claims.LowerBetter, none,
			pair(fmt.Sprintf("T_proc %g vs %g", fig4Shares[h], fig4Shares[0]), proc[h], proc[0]),
			pair(fmt.Sprintf("T_proc %g vs %g", fig4Shares[n], fig4Shares[h]), proc[n], proc[h]),
			pair(fmt.Sprintf("T_start %g vs %g", fig4Shares[0], fig4Shares[h]), start[0], start[h]),
			pair(fmt.Sprintf("T_start %g vs %g", fig4Shares[h], fig4Shares[n]), start[h], start[n])), ev)
}

// t3Cycles are one Table 3 method's per-cycle values per planned job.
type t3Cycles struct{ procPlan, procAct, stPlan, stAct []float64 }

func t3Of(r *Result) t3Cycles {
	act := func(f func(CycleStats) float64) []float64 {
		out := make([]float64, len(r.Cycles))
		for i, c := range r.Cycles {
			out[i] = nanDiv(f(c), float64(c.Planned))
		}
		return out
	}
	cs := cycles(r)
	return t3Cycles{perJob(cs, getProc), act(func(c CycleStats) float64 { return c.ActProcTime }), perJob(cs, getStart), act(func(c CycleStats) float64 { return c.ActStart })}
}

// leads are the fair-share model's per-cycle T_proc lead over
// backfilling, planned and actual, in %.
func leads(bf, fs t3Cycles) (plan, act []float64) {
	lead := func(f, b float64) float64 { return 100 * (1 - f/b) }
	return zip(fs.procPlan, bf.procPlan, lead), zip(fs.procAct, bf.procAct, lead)
}

// table3 adds Table 3's claims; rows: backfill, css, fair, on the same
// cycles.
func (c *Claims) table3(rows [3]t3Cycles) {
	ev := evTable3 + "; " + cyclesNote(len(rows[0].procPlan)) + "; methods paired by cycle"
	bf, cs, fs := rows[0], rows[1], rows[2]
	names := []string{"backfilling", "CSS", "fair-share"}
	var ratio, proc, start []claims.Result
	for i, r := range rows {
		p := paperT3[i]
		ratio = append(ratio, claims.Level(round2(p.procAct/p.procPlan), claims.Printed(2), pt("", zip(r.procAct, r.procPlan, nanDiv))))
		proc = append(proc, claims.Level(p.procPlan, claims.Printed(1), pt("", r.procPlan)))
		start = append(start, claims.Level(p.st, claims.Printed(1), pt("", r.stPlan)))
	}
	c.add("t3ratio", "Table 3: actual / planned T_proc per cycle", "0.61 / 0.60 / 0.60 (115.1 / 187.7, 90.4 / 150.1, 83.5 / 138.6)", parts(names, ratio...), ev)
	lp, la := leads(bf, fs)
	c.add("t3lead", "Table 3: the fair-share model's T_proc lead over backfilling is kept and grows under early completion (lead per cycle, %)", "26.2 % → 27.5 %",
		parts([]string{"planned lead", "actual lead", "grows"},
			claims.Direction(claims.LowerBetter, none, pair("fair-share vs backfilling, planned", fs.procPlan, bf.procPlan)),
			claims.Direction(claims.LowerBetter, none, pair("fair-share vs backfilling, actual", fs.procAct, bf.procAct)),
			claims.Direction(claims.HigherBetter, none, pair("actual lead vs planned lead, %", la, lp))), ev)
	c.add("t3order", "Table 3: planned T_proc backfilling > CSS > fair-share", "187.7 > 150.1 > 138.6", claims.Direction(claims.LowerBetter, none,
		pair("CSS vs backfilling", cs.procPlan, bf.procPlan), pair("fair-share vs CSS", fs.procPlan, cs.procPlan)), ev)
	c.add("t3proclevel", "Table 3: planned T_proc levels", "187.7 / 150.1 / 138.6", parts(names, proc...), ev)
	c.add("t3startlevel", "Table 3: planned start levels", "69 / 281.2 / 223.8", parts(names, start...), ev)
	keep := claims.Paper(0, "the paper's actual start equals its planned one")
	c.add("t3start", "Table 3: CSS and fair-share keep their starts (actual − planned per cycle); backfilling's actual start is earlier (actual / planned per cycle)",
		"CSS, fair-share equal; 37.3 / 69 = 0.54", parts([]string{"CSS keeps", "fair-share keeps", "backfilling actual / planned"},
			claims.Level(0, keep, pt("", zip(cs.stAct, cs.stPlan, sub))),
			claims.Level(0, keep, pt("", zip(fs.stAct, fs.stPlan, sub))),
			claims.Level(0.54, claims.Printed(2), pt("", zip(bf.stAct, bf.stPlan, nanDiv)))), ev)
	tol := claims.Ours(15, "within 15 points of the paper's")
	c.add("t3startlead", "Table 3: backfilling's start against the fair-share model's, in % of fair-share's (planned, actual; per cycle, paired)", "−69 % / −83 %",
		parts([]string{"planned", "actual"},
			claims.Level(-69, tol, pt("", scaled(bf.stPlan, fs.stPlan, meanOf(fs.stPlan)))),
			claims.Level(-83, tol, pt("", scaled(bf.stAct, fs.stAct, meanOf(fs.stAct))))), ev)
}

func sub(x, y float64) float64 { return x - y }

// nodeStudy adds the claims of Figs 5–8; cyc[method][node count] are the
// per-cycle statistics in studyMethods × studyNodes order (css,
// css+shift, combined, backfill); the methods at one node count ran on
// the same cycles.
func (c *Claims) nodeStudy(cyc [][][]CritStats, T float64) {
	const css, shift, comb, bf = 0, 1, 2, 3
	ev := evNodeStudy + "; " + cyclesNote(len(cyc[0][0])) + "; methods paired by cycle at each node count, node counts on their own draws (Welch)"
	n := len(studyNodes) - 1
	val := func(m, i int, f func(CritStats) float64) []float64 { return perJob(cyc[m][i], f) }
	points := func(m int, f func(CritStats) float64) []claims.Point {
		var ps []claims.Point
		for i, nn := range studyNodes {
			ps = append(ps, pt(fmt.Sprint(nn), val(m, i, f)))
		}
		return ps
	}
	c.add("f5bf", "Fig 5: backfilling's start falls towards 0 as nodes grow (falls at every step; at 150 nodes at most 5 % of T)", "→ 0",
		parts([]string{"falls", "near 0 at 150 nodes"}, claims.TrendOf(claims.Falls, none, false, points(bf, getStart)...),
			claims.AtMost(0.05*T, claims.Ours(0.05*T, "«towards 0» read as at most 5 % of T"), pt("150", val(bf, n, getStart)))), ev)
	c.add("f5css", "Fig 5: CSS's start stays mid-interval whatever the nodes (every node count)", "≈ 280–300, flat",
		parts([]string{"mid-interval", "flat"},
			claims.Level(0.5*T, claims.Ours(0.15*T, "mid-interval read as 0.35–0.65 T"), points(css, getStart)...),
			claims.TrendOf(claims.Flat, claims.Ours(20, "flat: within ±20 of the start at 6 nodes, the figure's 280–300 band"), false, points(css, getStart)...)), ev)
	var near []claims.Pair
	for i, nn := range studyNodes {
		mid := zip(val(bf, i, getStart), val(css, i, getStart), func(x, y float64) float64 { return (x + y) / 2 })
		near = append(near, pair(fmt.Sprint(nn), val(comb, i, getStart), mid))
	}
	c.add("f5comb", "Fig 5: the combined method's start is close to backfilling's (below the midpoint of backfilling's and CSS's, every node count)", "close to backfilling",
		claims.Direction(claims.LowerBetter, claims.Ours(0, "«close» read as nearer backfilling's than CSS's"), near...), ev)
	c.add("f5shift", "Fig 5: CSS+shift's start tends to a non-zero value (at 150 nodes above backfilling's by more than 2 % of T, below CSS's)", "non-zero",
		parts([]string{"above backfilling", "below CSS"},
			claims.Direction(claims.HigherBetter, claims.Ours(0.02*T, "«non-zero» read as above backfilling's by more than 2 % of T"), pair("150", val(shift, n, getStart), val(bf, n, getStart))),
			claims.Direction(claims.LowerBetter, none, pair("150", val(shift, n, getStart), val(css, n, getStart)))), ev)
	var beat []claims.Pair
	for _, m := range []int{css, shift, comb} {
		for i, nn := range studyNodes {
			beat = append(beat, pair(fmt.Sprintf("%s %d", studyMethods[m].name, nn), val(m, i, getProc), val(bf, i, getProc)))
		}
	}
	c.add("f6beat", "Fig 6: CSS, CSS+shift and combined beat backfilling on T_proc at every node count", "all lower",
		claims.Direction(claims.LowerBetter, none, beat...), ev)
	gap := func(m int) []claims.Point {
		var ps []claims.Point
		for i, nn := range studyNodes {
			ps = append(ps, pt(fmt.Sprint(nn), zip(val(bf, i, getProc), val(m, i, getProc), sub)))
		}
		return ps
	}
	c.add("f6grow", "Fig 6: their T_proc lead over backfilling grows with the nodes (CSS, combined; every step)", "grows",
		parts([]string{"CSS", "combined"}, claims.TrendOf(claims.Rises, none, false, gap(css)...), claims.TrendOf(claims.Rises, none, false, gap(comb)...)), ev)
	var all []claims.Point
	for m, sm := range studyMethods {
		for i, nn := range studyNodes {
			all = append(all, pt(fmt.Sprintf("%s %d", sm.name, nn), val(m, i, getProc)))
		}
	}
	c.add("f6level", "Fig 6: T_proc within the figure's axis 100–240 (every method and node count)", "100–240",
		claims.Level(170, claims.Paper(70, "the figure's axis spans 100–240"), all...), ev)
	for _, f := range []struct {
		key, fig, name string
		val            func(CritStats) float64
	}{
		{"f7", "Fig 7", "F = T_start + T_proc", getF},
		{"f8", "Fig 8", "finish time", getFinish},
	} {
		var few []claims.Pair
		for _, a := range []int{bf, comb} {
			for _, b := range []int{css, shift} {
				few = append(few, pair(studyMethods[a].name+" vs "+studyMethods[b].name, val(a, 0, f.val), val(b, 0, f.val)))
			}
		}
		c.add(f.key+"few", fmt.Sprintf("%s: with few nodes (%d) backfilling and the combined method beat CSS and CSS+shift on %s", f.fig, studyNodes[0], f.name), "backfilling ≈ combined best",
			claims.Direction(claims.LowerBetter, none, few...), ev)
		var cross []claims.Pair
		for i, nn := range studyNodes {
			cross = append(cross, pair(fmt.Sprint(nn), val(bf, i, f.val), val(shift, i, f.val)))
		}
		c.add(f.key+"many", fmt.Sprintf("%s: backfilling (A) ahead of CSS+shift (B) on %s with few nodes, CSS+shift ahead with many; the curves cross (every node count)", f.fig, f.name), "cross; CSS family wins at scale",
			claims.Crossing(claims.LowerBetter, cross...), ev)
	}
}

// conclusions adds the seed's conclusions (Заключение), each joining the
// rows it rests on.
func (c *Claims) conclusions() {
	if c == nil {
		return
	}
	join := func(keys, names []string) claims.Result {
		var rs []claims.Result
		for _, k := range keys {
			rs = append(rs, c.by[k])
		}
		r := claims.Combine(names, rs...)
		return r
	}
	c.add("c_fair", "Conclusion: the fair-share model beats the cyclic scheme (Table 1; Fig 3 sub-batches)", "shown",
		join([]string{"t1beat", "f3low"}, []string{"Table 1 own measure vs CSS", "Fig 3 best k at low load"}), evTable1+", "+evFig3)
	c.add("c_owner", "Conclusion: owners steer their profit and load by the price", "shown",
		join([]string{"t2load", "t2peak"}, []string{"load falls", "peak near market"}), evTable2)
	c.add("c_early", "Conclusion: fair-share plans stay consistent when jobs finish early", "shown", join([]string{"t3lead"}, []string{"Table 3 lead kept and grows"}), evTable3)
	c.add("c_scale", "Conclusion (§3.3): as the grid grows the cyclic scheme family becomes more efficient than backfilling (F, finish)", "shown",
		join([]string{"f7many", "f8many"}, []string{"Fig 7 crossing", "Fig 8 crossing"}), evNodeStudy)
}

func pct(a, b float64) float64 { return 100 * (a/b - 1) }
