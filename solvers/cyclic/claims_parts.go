package cyclic

import (
	"fmt"
	"slices"
	"strings"

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

// t1Data are Table 1's cycles: the fair run's jobs grouped by their own
// criterion (criteria order) and the css run, on the same cycles.
type t1Data struct {
	grp [][]CritStats
	all []CritStats
}

// table1 adds Table 1's claims (table1Rows).
func (c *Claims) table1(fair, css *Result) {
	d := &t1Data{grp: make([][]CritStats, len(criteria)), all: cycles(css)}
	for _, cy := range fair.Cycles {
		for i := range criteria {
			d.grp[i] = append(d.grp[i], cy.ByCrit[i])
		}
	}
	var gain []string
	for i, k := range criteria {
		gain = append(gain, fmt.Sprintf("%+.1f %%", pct(paperT1[k][i+1], paperT1["css"][i+1])))
	}
	addRows(c, d, table1Rows, "{ev}", evTable1+"; "+cyclesNote(len(fair.Cycles))+"; groups and CSS paired by cycle", "{gain}", joinStr(gain))
}

// t1Col is each criterion's own measure, in criteria order.
var t1Col = []func(CritStats) float64{getStart, getRuntime, getFinish, getCost}

var table1Rows = []claims.Row[*t1Data]{
	{Key: "t1own_start", Claim: "Table 1: the start and finish groups get an earlier start than the runtime and cost groups", Paper: "171.7, 169.6 < 214.5, 262.6", Judge: own([]int{0, 2}, 0), Evidence: "{ev}"},
	{Key: "t1own_runtime", Claim: "Table 1: the runtime group gets the least runtime", Paper: "39.3 < 56.1, 45, 55.5", Judge: own([]int{1}, 1), Evidence: "{ev}"},
	{Key: "t1own_finish", Claim: "Table 1: the finish group gets the least finish", Paper: "205.5 < 227.8, 253.9, 318.1", Judge: own([]int{2}, 2), Evidence: "{ev}"},
	{Key: "t1own_cost", Claim: "Table 1: the cost group gets the least cost", Paper: "1098.3 < 1281.1, 1278.5, 1283.2", Judge: own([]int{3}, 3), Evidence: "{ev}"},
	{Key: "t1beat", Claim: "Table 1: each criterion's jobs do better on their own measure under the fair-share model than under CSS (start, runtime, finish, cost)", Paper: "{gain}", Judge: claims.DirectionOf(claims.LowerBetter, none, func(d *t1Data) []claims.Pair {
		var beat []claims.Pair
		for i, k := range criteria {
			beat = append(beat, pair(k, perJob(d.grp[i], t1Col[i]), perJob(d.all, t1Col[i])))
		}
		return beat
	}), Evidence: "{ev}"},
	{Key: "t1gain", Claim: "Table 1: each criterion's own value against CSS, in % of CSS's (per cycle, paired)", Paper: "{gain}", Judge: func(d *t1Data) claims.Result {
		var gains []claims.Result
		for i, k := range criteria {
			a, b := perJob(d.grp[i], t1Col[i]), perJob(d.all, t1Col[i])
			gains = append(gains, claims.Level(pct(paperT1[k][i+1], paperT1["css"][i+1]), claims.Ours(10, "within 10 points of the paper's gain"), pt(k+" gain %", scaled(a, b, meanOf(b)))))
		}
		return parts(criteria[:], gains...)
	}, Evidence: "{ev}"},
	{Key: "t1na", Claim: "Table 1: N_A, alternatives per job, per group and CSS", Paper: "12.8 / 10.6 / 12.2 / 12.9 / 12.1", Judge: func(d *t1Data) claims.Result {
		var na []claims.Result
		names := append(criteria[:], "css")
		for i, k := range names {
			cs := d.all
			if i < len(criteria) {
				cs = d.grp[i]
			}
			na = append(na, claims.Level(paperT1[k][0], claims.Printed(1), pt("", naOf(cs))))
		}
		return parts(names, na...)
	}, Evidence: "{ev}"},
	{Key: "t1level", Claim: "Table 1: CSS levels start / runtime / finish", Paper: "222 / 50.3 / 272.3", Judge: func(d *t1Data) claims.Result {
		return parts([]string{"start", "runtime", "finish"}, claims.Level(222, claims.Printed(1), pt("", perJob(d.all, getStart))),
			claims.Level(50.3, claims.Printed(1), pt("", perJob(d.all, getRuntime))), claims.Level(272.3, claims.Printed(1), pt("", perJob(d.all, getFinish))))
	}, Evidence: "{ev}"},
	{Key: "t1cost", Claim: "Table 1: cost levels (1098–1283)", Paper: "1248.4 (CSS)", Judge: claims.Fixed[*t1Data](claims.Missing("the seed gives no price unit, so cost levels are not comparable; the gains above are")), Evidence: evTable1},
}

// own: the groups best against the other groups on criterion i's own
// measure.
func own(best []int, i int) func(*t1Data) claims.Result {
	return func(d *t1Data) claims.Result {
		var ps []claims.Pair
		for _, b := range best {
			for o := range criteria {
				if o != i && !slices.Contains(best, o) {
					ps = append(ps, pair(criteria[b]+" vs "+criteria[o]+" group", perJob(d.grp[b], t1Col[i]), perJob(d.grp[o], t1Col[i])))
				}
			}
		}
		return claims.Direction(claims.LowerBetter, none, ps...)
	}
}

// naOf is the alternatives per job of every cycle.
func naOf(cs []CritStats) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = nanDiv(float64(c.Alternatives), float64(c.Jobs))
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
// the owner's load and profit and the failure indicator, per cycle; T is
// the interval, mid the index of the market price (table2Ratios holds 1).
type table2Cycles struct {
	ratio              []float64
	load, profit, fail [][]float64
	T                  float64
	mid                int
}

func (c *Claims) table2(st table2Cycles, T float64) {
	st.T, st.mid = T, slices.Index(st.ratio, 1)
	addRows(c, &st, table2Rows, "{ev}", evTable2+"; "+cyclesNote(len(st.load[0]))+"; prices paired by cycle")
}

// byRatio is one point per price ratio of the series s.
func (st *table2Cycles) byRatio(s [][]float64) []claims.Point {
	var ps []claims.Point
	for i, r := range st.ratio {
		ps = append(ps, pt(fmt.Sprintf("× %g", r), s[i]))
	}
	return ps
}

var table2Rows = []claims.Row[*table2Cycles]{
	{Key: "t2load", Claim: "Table 2: the node's load falls as its price rises (load per cycle, price as a multiple of the market price)", Paper: "256.6 → 71 (c = 2 … 10)", Judge: claims.TrendOver(claims.Falls, none, true, func(st *table2Cycles) []claims.Point { return st.byRatio(st.load) }), Evidence: "{ev}"},
	{Key: "t2peak", Claim: "Table 2: the profit peaks at a price near the market price (profit at the market price above the profit at ≤ 0.5 × and ≥ 1.5 × it)", Paper: "peak at c = 6 of 2 … 10, «близкой к среднерыночной»",
		Judge: claims.DirectionOf(claims.HigherBetter, claims.Ours(0, "«near» the market price read as: above ≤ 0.5 × and ≥ 1.5 ×"), func(st *table2Cycles) []claims.Pair {
			var ps []claims.Pair
			for i, r := range st.ratio {
				if r <= 0.5 || r >= 1.5 {
					ps = append(ps, pair(fmt.Sprintf("× 1 vs × %g", r), st.profit[st.mid], st.profit[i]))
				}
			}
			return ps
		}), Evidence: "{ev}"},
	{Key: "t2fail", Claim: "Table 2: failures rise with the price (failure indicator per cycle)", Paper: "0 → 0.025", Judge: claims.TrendOver(claims.Rises, none, true, func(st *table2Cycles) []claims.Point { return st.byRatio(st.fail) }), Evidence: "{ev}"},
	{Key: "t2util", Claim: "Table 2: utilization at the market price", Paper: "0.31 (c = 6)", Judge: claims.LevelOf(0.31, claims.Printed(2), func(st *table2Cycles) []claims.Point {
		return []claims.Point{pt("", zip(st.load[st.mid], st.load[st.mid], func(x, _ float64) float64 { return x / st.T }))}
	}), Evidence: "{ev}"},
}

// fig3Data are Fig 3's runs: res[level][k], levels in fig3Loads order, k
// in fig3K order, every run of a level on the same cycles.
type fig3Data struct{ res [][]*Result }

// fig3 adds Fig 3's claims (fig3Rows).
func (c *Claims) fig3(res [][]*Result) {
	addRows(c, &fig3Data{res}, fig3Rows, "{ev}", evFig3+"; "+cyclesNote(len(res[0][0].Cycles))+"; the k of a level paired by cycle",
		"{loads}", fmt.Sprintf("%g / %g / %g", fig3Loads[0].load, fig3Loads[1].load, fig3Loads[2].load))
}

var fig3Rows = []claims.Row[*fig3Data]{
	{Key: "f3high", Claim: "Fig 3: at high load the fewest sub-batches (k = 1) give the least T_proc", Paper: "fewer sub-batches best", Judge: func(d *fig3Data) claims.Result { return d.best(0, 0) }, Evidence: "{ev}"},
	{Key: "f3low", Claim: "Fig 3: at low load the most sub-batches (k = 20, each job alone) give the least T_proc", Paper: "more sub-batches best, up to each job alone", Judge: func(d *fig3Data) claims.Result { return d.best(len(fig3Loads)-1, len(fig3K)-1) }, Evidence: "{ev}"},
	{Key: "f3na", Claim: "Fig 3: more sub-batches give more alternatives per job (every step of k, every load level)", Paper: "rises with k", Judge: fig3Trend(claims.Rises, func(r *Result) []float64 { return naOf(cycles(r)) }), Evidence: "{ev}"},
	{Key: "f3cost", Claim: "Fig 3: more sub-batches give a lower cost per job (every step of k, every load level)", Paper: "falls with k", Judge: fig3Trend(claims.Falls, func(r *Result) []float64 { return perJob(cycles(r), getCost) }), Evidence: "{ev}"},
	{Key: "f3u", Claim: "Fig 3: more sub-batches give a higher failure rate U (every step of k, every load level)", Paper: "rises with k", Judge: fig3Trend(claims.Rises, failed), Evidence: "{ev}"},
	{Key: "f3levels", Claim: "Fig 3: the load levels by U at k = 1", Paper: "0.3 / 0.03 / < 0.0002", Judge: func(d *fig3Data) claims.Result {
		return parts([]string{"high", "medium", "low"}, claims.Level(0.3, claims.Printed(1), pt("", failed(d.res[0][0]))),
			claims.Level(0.03, claims.Printed(2), pt("", failed(d.res[1][0]))), claims.AtMost(0.0002, none, pt("", failed(d.res[2][0]))))
	}, Evidence: "{ev}; our levels are the owners' local loads {loads}, calibrated at k = 1 to the seed's U (calibrateLoad, BenchmarkLoadScan)"},
}

// best: sub-batch count k gives the least T_proc at load level l.
func (d *fig3Data) best(l, k int) claims.Result {
	var proc [][]float64
	for _, r := range d.res[l] {
		proc = append(proc, perJob(cycles(r), getProc))
	}
	return bestK(proc, k)
}

// bestK: sub-batch count k (in fig3K order) gives the least T_proc,
// paired with every other k on proc[k] (one series per k).
func bestK[V ~[]float64](proc []V, k int) claims.Result {
	var ps []claims.Pair
	for o, ko := range fig3K {
		if o != k && o < len(proc) && k < len(proc) {
			ps = append(ps, pair(fmt.Sprintf("k = %d vs k = %d", fig3K[k], ko), proc[k], proc[o]))
		}
	}
	return claims.Direction(claims.LowerBetter, none, ps...)
}

// fig3Trend: val trends with k at every load level.
func fig3Trend(kind claims.Trend, val func(*Result) []float64) func(*fig3Data) claims.Result {
	return func(d *fig3Data) claims.Result {
		var rs []claims.Result
		var names []string
		for l, lv := range fig3Loads {
			var ps []claims.Point
			for k, kk := range fig3K {
				ps = append(ps, pt(fmt.Sprintf("k = %d", kk), val(d.res[l][k])))
			}
			rs = append(rs, claims.TrendOf(kind, none, true, ps...))
			names = append(names, lv.name)
		}
		return parts(names, rs...)
	}
}

func joinStr(s []string) string { return strings.Join(s, " / ") }

// fig4Data are the combined method's T_proc and T_start per cycle at the
// shares fig4Shares, on the same cycles.
type fig4Data struct{ proc, start [][]float64 }

// fig4 adds Fig 4's claims and the compromise conclusion (fig4Rows).
func (c *Claims) fig4(res []*Result) {
	d := &fig4Data{}
	for _, r := range res {
		d.proc, d.start = append(d.proc, perJob(cycles(r), getProc)), append(d.start, perJob(cycles(r), getStart))
	}
	addRows(c, d, fig4Rows, "{ev}", evFig4+"; "+cyclesNote(len(res[0].Cycles))+"; shares paired by cycle", "{h}", fmt.Sprintf("%g", fig4Shares[(len(res)-1)/2]))
}

var fig4Rows = []claims.Row[*fig4Data]{
	{Key: "f4", Claim: "Fig 4: as N_css / N grows T_proc falls and T_start rises (every step); the curves cross (T_start below T_proc at low shares, above at high)", Paper: "both monotone, crossing", Judge: func(d *fig4Data) claims.Result {
		var pp, sp []claims.Point
		var cross []claims.Pair
		for i := range d.proc {
			l := fmt.Sprintf("%g", fig4Shares[i])
			pp, sp, cross = append(pp, pt(l, d.proc[i])), append(sp, pt(l, d.start[i])), append(cross, pair(l, d.start[i], d.proc[i]))
		}
		return parts([]string{"T_proc falls", "T_start rises", "crossing"}, claims.TrendOf(claims.Falls, none, true, pp...), claims.TrendOf(claims.Rises, none, true, sp...), claims.Crossing(claims.LowerBetter, cross...))
	}, Evidence: "{ev}"},
	{Key: "c_combined", Claim: "Conclusion: the combined method gives results between the fair-share model and backfilling (at N_css / N = {h}, strictly between its ends)", Paper: "«компромиссные результаты»", Judge: claims.DirectionOf(claims.LowerBetter, none, func(d *fig4Data) []claims.Pair {
		n, h, sh := len(d.proc)-1, (len(d.proc)-1)/2, fig4Shares
		return []claims.Pair{pair(fmt.Sprintf("T_proc %g vs %g", sh[h], sh[0]), d.proc[h], d.proc[0]), pair(fmt.Sprintf("T_proc %g vs %g", sh[n], sh[h]), d.proc[n], d.proc[h]),
			pair(fmt.Sprintf("T_start %g vs %g", sh[0], sh[h]), d.start[0], d.start[h]), pair(fmt.Sprintf("T_start %g vs %g", sh[h], sh[n]), d.start[h], d.start[n])}
	}), Evidence: "{ev}"},
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
// cycles (table3Rows).
func (c *Claims) table3(rows [3]t3Cycles) {
	addRows(c, &rows, table3Rows, "{ev}", evTable3+"; "+cyclesNote(len(rows[0].procPlan))+"; methods paired by cycle")
}

var t3Names = []string{"backfilling", "CSS", "fair-share"}

// t3Levels is a Level per method: the paper's value p and ours.
func t3Levels(tol claims.Tol, p func(i int) float64, ours func(t3Cycles) []float64) func(*[3]t3Cycles) claims.Result {
	return func(rows *[3]t3Cycles) claims.Result {
		var rs []claims.Result
		for i, r := range rows {
			rs = append(rs, claims.Level(p(i), tol, pt("", ours(r))))
		}
		return parts(t3Names, rs...)
	}
}

var table3Rows = []claims.Row[*[3]t3Cycles]{
	{Key: "t3ratio", Claim: "Table 3: actual / planned T_proc per cycle", Paper: "0.61 / 0.60 / 0.60 (115.1 / 187.7, 90.4 / 150.1, 83.5 / 138.6)", Judge: t3Levels(claims.Printed(2), func(i int) float64 { return round2(paperT3[i].procAct / paperT3[i].procPlan) },
		func(r t3Cycles) []float64 { return zip(r.procAct, r.procPlan, nanDiv) }), Evidence: "{ev}"},
	{Key: "t3lead", Claim: "Table 3: the fair-share model's T_proc lead over backfilling is kept and grows under early completion (lead per cycle, %)", Paper: "26.2 % → 27.5 %", Judge: func(rows *[3]t3Cycles) claims.Result {
		return leadKept(rows[0], rows[2], "fair-share vs backfilling, ")
	}, Evidence: "{ev}"},
	{Key: "t3order", Claim: "Table 3: planned T_proc backfilling > CSS > fair-share", Paper: "187.7 > 150.1 > 138.6", Judge: claims.DirectionOf(claims.LowerBetter, none, func(rows *[3]t3Cycles) []claims.Pair {
		return []claims.Pair{pair("CSS vs backfilling", rows[1].procPlan, rows[0].procPlan), pair("fair-share vs CSS", rows[2].procPlan, rows[1].procPlan)}
	}), Evidence: "{ev}"},
	{Key: "t3proclevel", Claim: "Table 3: planned T_proc levels", Paper: "187.7 / 150.1 / 138.6", Judge: t3Levels(claims.Printed(1), func(i int) float64 { return paperT3[i].procPlan }, func(r t3Cycles) []float64 { return r.procPlan }), Evidence: "{ev}"},
	{Key: "t3startlevel", Claim: "Table 3: planned start levels", Paper: "69 / 281.2 / 223.8", Judge: t3Levels(claims.Printed(1), func(i int) float64 { return paperT3[i].st }, func(r t3Cycles) []float64 { return r.stPlan }), Evidence: "{ev}"},
	{Key: "t3start", Claim: "Table 3: CSS and fair-share keep their starts (actual − planned per cycle); backfilling's actual start is earlier (actual / planned per cycle)", Paper: "CSS, fair-share equal; 37.3 / 69 = 0.54", Judge: func(rows *[3]t3Cycles) claims.Result {
		keep := claims.Paper(0, "the paper's actual start equals its planned one")
		return parts([]string{"CSS keeps", "fair-share keeps", "backfilling actual / planned"}, claims.Level(0, keep, pt("", zip(rows[1].stAct, rows[1].stPlan, sub))),
			claims.Level(0, keep, pt("", zip(rows[2].stAct, rows[2].stPlan, sub))), claims.Level(0.54, claims.Printed(2), pt("", zip(rows[0].stAct, rows[0].stPlan, nanDiv))))
	}, Evidence: "{ev}"},
	{Key: "t3startlead", Claim: "Table 3: backfilling's start against the fair-share model's, in % of fair-share's (planned, actual; per cycle, paired)", Paper: "−69 % / −83 %", Judge: func(rows *[3]t3Cycles) claims.Result {
		bf, fs, tol := rows[0], rows[2], claims.Ours(15, "within 15 points of the paper's")
		return parts([]string{"planned", "actual"}, claims.Level(-69, tol, pt("", scaled(bf.stPlan, fs.stPlan, meanOf(fs.stPlan)))), claims.Level(-83, tol, pt("", scaled(bf.stAct, fs.stAct, meanOf(fs.stAct)))))
	}, Evidence: "{ev}"},
}

// leadKept: the fair-share model's T_proc lead over backfilling, planned
// and actual (labels after prefix), kept and growing.
func leadKept(bf, fs t3Cycles, prefix string) claims.Result {
	lp, la := leads(bf, fs)
	return parts([]string{"planned lead", "actual lead", "grows"}, claims.Direction(claims.LowerBetter, none, pair(prefix+"planned", fs.procPlan, bf.procPlan)),
		claims.Direction(claims.LowerBetter, none, pair(prefix+"actual", fs.procAct, bf.procAct)), claims.Direction(claims.HigherBetter, none, pair("actual lead vs planned lead, %", la, lp)))
}

func sub(x, y float64) float64 { return x - y }

// studyData is the node study's per-cycle statistics, cyc[method][node
// count] in studyMethods × studyNodes order (css, css+shift, combined,
// backfill; the methods at one node count ran on the same cycles), and
// the interval T.
type studyData struct {
	cyc [][][]CritStats
	T   float64
}

const css, shift, comb, bf = 0, 1, 2, 3 // studyMethods

// val is method m's per-job f at node count i, one value per cycle.
func (s *studyData) val(m, i int, f func(CritStats) float64) []float64 { return perJob(s.cyc[m][i], f) }

// last is method m's per-job f at the most nodes.
func (s *studyData) last(m int, f func(CritStats) float64) []float64 {
	return s.val(m, len(studyNodes)-1, f)
}

// points is method m's per-job f at every node count.
func (s *studyData) points(m int, f func(CritStats) float64) []claims.Point {
	var ps []claims.Point
	for i, nn := range studyNodes {
		ps = append(ps, pt(fmt.Sprint(nn), s.val(m, i, f)))
	}
	return ps
}

// nodeStudy adds the claims of Figs 5–8 (studyRows).
func (c *Claims) nodeStudy(cyc [][][]CritStats, T float64) {
	addRows(c, &studyData{cyc, T}, studyRows, "{ev}", evNodeStudy+"; "+cyclesNote(len(cyc[0][0]))+"; methods paired by cycle at each node count, node counts on their own draws (Welch)",
		"{few}", fmt.Sprint(studyNodes[0]))
}

// studyRows are the claims of Figs 5–8.
var studyRows = []claims.Row[*studyData]{
	{Key: "f5bf", Claim: "Fig 5: backfilling's start falls towards 0 as nodes grow (falls at every step; at 150 nodes at most 5 % of T)", Paper: "→ 0", Judge: func(s *studyData) claims.Result {
		return parts([]string{"falls", "near 0 at 150 nodes"}, claims.TrendOf(claims.Falls, none, false, s.points(bf, getStart)...),
			claims.AtMost(0.05*s.T, claims.Ours(0.05*s.T, "«towards 0» read as at most 5 % of T"), pt("150", s.last(bf, getStart))))
	}, Evidence: "{ev}"},
	{Key: "f5css", Claim: "Fig 5: CSS's start stays mid-interval whatever the nodes (every node count)", Paper: "≈ 280–300, flat", Judge: func(s *studyData) claims.Result {
		return parts([]string{"mid-interval", "flat"}, claims.Level(0.5*s.T, claims.Ours(0.15*s.T, "mid-interval read as 0.35–0.65 T"), s.points(css, getStart)...),
			claims.TrendOf(claims.Flat, claims.Ours(20, "flat: within ±20 of the start at 6 nodes, the figure's 280–300 band"), false, s.points(css, getStart)...))
	}, Evidence: "{ev}"},
	{Key: "f5comb", Claim: "Fig 5: the combined method's start is close to backfilling's (below the midpoint of backfilling's and CSS's, every node count)", Paper: "close to backfilling",
		Judge: claims.DirectionOf(claims.LowerBetter, claims.Ours(0, "«close» read as nearer backfilling's than CSS's"), func(s *studyData) []claims.Pair {
			var near []claims.Pair
			for i, nn := range studyNodes {
				mid := zip(s.val(bf, i, getStart), s.val(css, i, getStart), func(x, y float64) float64 { return (x + y) / 2 })
				near = append(near, pair(fmt.Sprint(nn), s.val(comb, i, getStart), mid))
			}
			return near
		}), Evidence: "{ev}"},
	{Key: "f5shift", Claim: "Fig 5: CSS+shift's start tends to a non-zero value (at 150 nodes above backfilling's by more than 2 % of T, below CSS's)", Paper: "non-zero", Judge: func(s *studyData) claims.Result {
		return parts([]string{"above backfilling", "below CSS"},
			claims.Direction(claims.HigherBetter, claims.Ours(0.02*s.T, "«non-zero» read as above backfilling's by more than 2 % of T"), pair("150", s.last(shift, getStart), s.last(bf, getStart))),
			claims.Direction(claims.LowerBetter, none, pair("150", s.last(shift, getStart), s.last(css, getStart))))
	}, Evidence: "{ev}"},
	{Key: "f6beat", Claim: "Fig 6: CSS, CSS+shift and combined beat backfilling on T_proc at every node count", Paper: "all lower", Judge: claims.DirectionOf(claims.LowerBetter, none, func(s *studyData) []claims.Pair {
		var beat []claims.Pair
		for _, m := range []int{css, shift, comb} {
			for i, nn := range studyNodes {
				beat = append(beat, pair(fmt.Sprintf("%s %d", studyMethods[m].name, nn), s.val(m, i, getProc), s.val(bf, i, getProc)))
			}
		}
		return beat
	}), Evidence: "{ev}"},
	{Key: "f6grow", Claim: "Fig 6: their T_proc lead over backfilling grows with the nodes (CSS, combined; every step)", Paper: "grows", Judge: func(s *studyData) claims.Result {
		return parts([]string{"CSS", "combined"}, claims.TrendOf(claims.Rises, none, false, s.gap(css)...), claims.TrendOf(claims.Rises, none, false, s.gap(comb)...))
	}, Evidence: "{ev}"},
	{Key: "f6level", Claim: "Fig 6: T_proc within the figure's axis 100–240 (every method and node count)", Paper: "100–240", Judge: claims.LevelOf(170, claims.Paper(70, "the figure's axis spans 100–240"), func(s *studyData) []claims.Point {
		var all []claims.Point
		for m, sm := range studyMethods {
			for i, nn := range studyNodes {
				all = append(all, pt(fmt.Sprintf("%s %d", sm.name, nn), s.val(m, i, getProc)))
			}
		}
		return all
	}), Evidence: "{ev}"},
	{Key: "f7few", Claim: "Fig 7: with few nodes ({few}) backfilling and the combined method beat CSS and CSS+shift on F = T_start + T_proc", Paper: "backfilling ≈ combined best", Judge: fewNodes(getF), Evidence: "{ev}"},
	{Key: "f7many", Claim: "Fig 7: backfilling (A) ahead of CSS+shift (B) on F = T_start + T_proc with few nodes, CSS+shift ahead with many; the curves cross (every node count)", Paper: "cross; CSS family wins at scale", Judge: crossing(getF), Evidence: "{ev}"},
	{Key: "f8few", Claim: "Fig 8: with few nodes ({few}) backfilling and the combined method beat CSS and CSS+shift on finish time", Paper: "backfilling ≈ combined best", Judge: fewNodes(getFinish), Evidence: "{ev}"},
	{Key: "f8many", Claim: "Fig 8: backfilling (A) ahead of CSS+shift (B) on finish time with few nodes, CSS+shift ahead with many; the curves cross (every node count)", Paper: "cross; CSS family wins at scale", Judge: crossing(getFinish), Evidence: "{ev}"},
}

// gap is backfilling's T_proc minus method m's at every node count.
func (s *studyData) gap(m int) []claims.Point {
	var ps []claims.Point
	for i, nn := range studyNodes {
		ps = append(ps, pt(fmt.Sprint(nn), zip(s.val(bf, i, getProc), s.val(m, i, getProc), sub)))
	}
	return ps
}

// fewNodes: backfilling and combined against CSS and CSS+shift on f at
// the fewest nodes.
func fewNodes(f func(CritStats) float64) func(*studyData) claims.Result {
	return func(s *studyData) claims.Result {
		var few []claims.Pair
		for _, a := range []int{bf, comb} {
			for _, b := range []int{css, shift} {
				few = append(few, pair(studyMethods[a].name+" vs "+studyMethods[b].name, s.val(a, 0, f), s.val(b, 0, f)))
			}
		}
		return claims.Direction(claims.LowerBetter, none, few...)
	}
}

// crossing: backfilling against CSS+shift on f at every node count.
func crossing(f func(CritStats) float64) func(*studyData) claims.Result {
	return func(s *studyData) claims.Result {
		var cross []claims.Pair
		for i, nn := range studyNodes {
			cross = append(cross, pair(fmt.Sprint(nn), s.val(bf, i, f), s.val(shift, i, f)))
		}
		return claims.Crossing(claims.LowerBetter, cross...)
	}
}

// conclusions adds the seed's conclusions (Заключение), each joining the
// rows it rests on.
func (c *Claims) conclusions() {
	if c != nil {
		addRows(c, c, conclusionRows)
	}
}

// conclusionRows are the seed's conclusions: the keys of the rows each
// joins, with the names of its parts.
var conclusionRows = []claims.Row[*Claims]{
	{Key: "c_fair", Claim: "Conclusion: the fair-share model beats the cyclic scheme (Table 1; Fig 3 sub-batches)", Paper: "shown", Judge: joinKeys("t1beat", "Table 1 own measure vs CSS", "f3low", "Fig 3 best k at low load"), Evidence: evTable1 + ", " + evFig3},
	{Key: "c_owner", Claim: "Conclusion: owners steer their profit and load by the price", Paper: "shown", Judge: joinKeys("t2load", "load falls", "t2peak", "peak near market"), Evidence: evTable2},
	{Key: "c_early", Claim: "Conclusion: fair-share plans stay consistent when jobs finish early", Paper: "shown", Judge: joinKeys("t3lead", "Table 3 lead kept and grows"), Evidence: evTable3},
	{Key: "c_scale", Claim: "Conclusion (§3.3): as the grid grows the cyclic scheme family becomes more efficient than backfilling (F, finish)", Paper: "shown", Judge: joinKeys("f7many", "Fig 7 crossing", "f8many", "Fig 8 crossing"), Evidence: evNodeStudy},
}

// joinKeys combines the rows of the keys; kn is key, name, key, name….
func joinKeys(kn ...string) func(*Claims) claims.Result {
	return func(c *Claims) claims.Result {
		var names []string
		var rs []claims.Result
		for i := 0; i < len(kn); i += 2 {
			rs, names = append(rs, c.by[kn[i]]), append(names, kn[i+1])
		}
		return claims.Combine(names, rs...)
	}
}

func pct(a, b float64) float64 { return 100 * (a/b - 1) }
