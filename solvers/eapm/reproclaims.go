package eapm

import (
	"fmt"
	"math"
	"strings"

	"schedlab/report"
	"schedlab/solvers/claims"
)

// The seed's claims, quoted (the seed is Chinese; the table shows the
// English, and the originals stay here):
//
//   - Table 1 (experiment 1, γ): "从表1可以看到本文提出的Online方法在所有情况下都优于另外两种方法。
//     当γ较小时,Online方法与Greedy方法得到的目标值差距并不大,但当γ逐渐增大后Online方法便体现了其优越性。
//     Average方法与另外两种方法得到的目标值有着较大差距。它虽然能使得系统的最大完工时间最小,
//     但是由于并未考虑成本的原因,会使得最终的目标值变得很差。"
//   - Fig 1 (experiment 2, n): "从图1中可以看到当用户数较小时,Online方法得到的目标值更大,
//     当用户数不断增加,Online方法与Greedy方法得到的目标值几乎变得相等。"
//   - Fig 2: "从图2可以看出三种方法的执行时间都在随着用户数的增加而增加。虽然Online方法的执行时间最长,
//     但它得到的目标值也是最大的,即使在n=2 000时其执行时间也是ms级的。"
//   - Fig 3 (experiment 3, arrival order): "从图3可以看到,在所有情况下Online方法都能得到最好的目标值结果。
//     此外,用户到达的顺序并未对目标值造成明显的影响,只有当SaB情形时Online方法与Greedy得到的目标值会稍微降低。"
//   - Conclusion: "其执行时间依赖用户数以及机器种类数,并通过实验证明此方法能得到令人满意的结果。"
//     Contribution 3): "通过对比实验,说明了本文提出算法的优越性。"

// Where the paper's words fix no number, the threshold is ours (it caps
// the verdict at partly and the row names it).
var (
	// timingTol: run times on a shared machine are not deterministic, so
	// they are compared as orders of magnitude, on log10 ms.
	timingTol = claims.Ours(0.1, fmt.Sprintf("run times are medians of %d timings on a shared machine, compared on log10 ms; a difference under 0.1 decade (×1.26) is noise", timingRepeats))
	// msLevelTol reads "ms级" (of the order of milliseconds) as under 1 s.
	msLevelTol = claims.Ours(0, "'of the order of milliseconds' read as under 1,000 ms; timings on a shared machine")
	// nearlyEqualTol reads "几乎变得相等" (become almost equal).
	nearlyEqualTol = claims.Ours(0.01, "'almost equal' read as within 1 % of Greedy's objective")
	// orderTol reads "并未造成明显的影响" (no noticeable effect) and "稍微" (slightly).
	orderTol = claims.Ours(0.05, "'no noticeable effect' and 'slightly' read as within 5 % of the method's BaS mean")
)

// claimData is what the Claims rows read: every instance's results.
type claimData struct {
	c1  [][]evalResult   // [γ][instance]
	c2  [][][]evalResult // [γ][n][instance]
	c3  [][][]evalResult // [γ][order][instance]
	ns  []int
	res *seedResults
}

func objs(rs []evalResult, k int) []float64 { return col(rs, objOf(k)) }

func log10ms(rs []evalResult, k int) []float64 {
	return col(rs, func(r evalResult) float64 { return math.Log10(r.ms[k]) })
}

// onlineGap is online − greedy-min-energy on one instance.
func onlineGap(r evalResult) float64 { return r.obj[mOnline] - r.obj[mGreedyMin] }

// scaled divides xs by |s|.
func scaled(xs []float64, s float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x / math.Abs(s)
	}
	return out
}

// joined is Combine with every part's numbers beside its verdict.
func joined(names []string, rs []claims.Result) claims.Result {
	out := claims.Combine(names, rs...)
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %s (%s)", names[i], r.Verdict, r.Ours)
	}
	out.Ours = strings.Join(parts, "; ")
	if len(rs) > 0 {
		out.Rule += "; each part: " + rs[0].Rule
	}
	return out
}

var paperNames = [nMethods]string{"Online", "Greedy (greedy-min-energy)", "greedy-max-objective (ours)", "Average"}

// Headings and evidence shared by the rows; {t1} is Table 1's heading
// with its count of instances (claimsTable).
const (
	ev1        = "tables Table 1, Authors' code re-enacted; plot Objective vs gamma"
	every      = "\"the Online method is better than the other two methods in all cases\""
	f1         = "Fig 1 (experiment 2, n; γ 1.2, 1.3, 1.5)"
	ev2        = "table Case 2; plot Fig 1"
	f2         = "Fig 2 (run time against n; timing)"
	ev3        = "table Fig 2 run times; plot Fig 2"
	f3         = "Fig 3 (experiment 3, arrival order; γ 1.2, 1.3, 1.5)"
	ev4        = "table Case 3; plot Fig 3"
	best       = "\"in all cases the Online method obtains the best objective\""
	suffixSums = "; our online uses suffix sums (O(n·m)), not the paper's matrix inversions (O(n·m⁴))"
)

// claimsTable builds the reproduce report's Claims table, every verdict
// by the shared rules of solvers/claims.
func claimsTable(d *claimData) report.Table {
	return claims.Build(d, claimRows, "{t1}", fmt.Sprintf("Table 1 (experiment 1, γ; 30 users, %d instances per γ)", len(d.c1[0])),
		"{authG}", dirAuthG(d).Verdict)
}

var noTol = claims.Tol{}

// The judges that conclusions join, by the rows they judge.
var (
	dirT1G    = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(1, objOf(mOnline), objOf(mGreedyMin)))
	dirT1A    = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(1, objOf(mOnline), objOf(mAverage)))
	dirAuthG  = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(1, authOf(0), authOf(1)))
	gapTrend  = claims.TrendOver(claims.Rises, noTol, true, pointsOf(1, onlineGap))
	smallDir  = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(4, objOf(mOnline), objOf(mGreedyMin)))
	dirF1G    = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(2, objOf(mOnline), objOf(mGreedyMin)))
	dirF1A    = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(2, objOf(mOnline), objOf(mAverage)))
	dirF3G    = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(3, objOf(mOnline), objOf(mGreedyMin)))
	dirF3A    = claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(3, objOf(mOnline), objOf(mAverage)))
	everyCase = claims.CombineOf([]string{"Table 1 vs Greedy", "Table 1 vs Average", "Figs 1–2 vs Greedy", "Figs 1–2 vs Average", "Fig 3 vs Greedy", "Fig 3 vs Average"},
		dirT1G, dirT1A, dirF1G, dirF1A, dirF3G, dirF3A)
)

// claimRows are the seed's claims in the table's order.
var claimRows = []claims.Row[*claimData]{
	// Table 1: every published number, ours over the instances; the
	// printed numbers against the authors' own code.
	{Expand: t1Rows},
	// "Online better than the other two in all cases" (Table 1).
	{Claim: "{t1}: Online ahead of Greedy at every γ, A = online, B = greedy-min-energy: " + every, Paper: "Online > Greedy at every γ (printed)", Judge: dirT1G, Evidence: ev1},
	{Claim: "{t1}: Online ahead of Average at every γ, A = online, B = average: " + every, Paper: "Online > Average at every γ (printed)", Judge: dirT1A, Evidence: ev1},
	{Claim: "{t1}: Online ahead of greedy-max-objective (ours: our baseline, the authors' final code's Greedy, not the paper's), A = online, B = greedy-max-objective", Paper: "— (not in the paper)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(1, objOf(mOnline), objOf(mGreedyMax))), Evidence: ev1 + "; note Greedy naming"},
	{Claim: "{t1}: by the authors' own code (re-enacted), Online ahead of Greedy at every γ: " + every, Paper: "Online > Greedy at every γ (printed)", Judge: dirAuthG, Evidence: "table Authors' code re-enacted: their own numbers put Greedy ahead where the row says so, against the printed claim"},
	{Claim: "{t1}: by the authors' own code (re-enacted), Online ahead of Average at every γ: " + every, Paper: "Online > Average at every γ (printed)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(1, authOf(0), authOf(2))), Evidence: "table Authors' code re-enacted"},
	// "Small gap at small γ, Online's superiority shows as γ grows": the
	// paired gap online − greedy rises with γ (the same instances at every γ).
	{Claim: "{t1}: \"when γ is small the gap between Online and Greedy is not large, but as γ grows Online shows its superiority\": the gap online − greedy-min-energy rises with γ", Paper: "rises with γ (Table 1)", Judge: gapTrend, Evidence: ev1 + "; paired over the same 100 instances at every γ"},
	// "Average is far behind the other two": behind at every γ; "far" fixes no number.
	{Claim: "{t1}: \"Average's objective is far from the other two methods'\": Greedy ahead of Average at every γ, A = greedy-min-energy, B = average (Online: the row above)", Paper: "behind at every γ (printed)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(1, objOf(mGreedyMin), objOf(mAverage))), Evidence: ev1},
	{Claim: "{t1}: how far Average lies behind (\"a large gap\")", Paper: "no number", Judge: avgGap, Evidence: ev1},
	// "Although Average makes the makespan the smallest ...".
	{Claim: "{t1}: \"although Average makes the system's makespan the smallest\": Average's makespan (s) below Online's at every γ, A = average, B = online", Paper: "smallest makespan (no number)", Judge: claims.DirectionOf(claims.LowerBetter, noTol, pairsOf(1, spanOf(mAverage), spanOf(mOnline))), Evidence: "makespans of the Table 1 runs (not tabulated)"},
	{Claim: "{t1}: \"although Average makes the system's makespan the smallest\": Average's makespan (s) below Greedy's at every γ, A = average, B = greedy-min-energy", Paper: "smallest makespan (no number)", Judge: claims.DirectionOf(claims.LowerBetter, noTol, pairsOf(1, spanOf(mAverage), spanOf(mGreedyMin))), Evidence: "makespans of the Table 1 runs (not tabulated)"},

	// Fig 1: objective against n.
	{Claim: f1 + ": \"when the number of users is small, Online's objective is larger\": Online ahead of Greedy at the smallest n, A = online, B = greedy-min-energy", Paper: "larger (curve only)", Judge: smallDir, Evidence: ev2},
	{Claim: f1 + ": \"as the number of users grows, the objectives of Online and Greedy become almost equal\": the gap online − greedy-min-energy falls with n", Paper: "falls (curve only)", Judge: f1GapFalls, Evidence: ev2 + "; different instances at every n: Welch intervals"},
	{Claim: f1 + ": \"... become almost equal\": (online − greedy-min-energy) / |greedy| at the largest n", Paper: "≈ 0 (curve only)", Judge: claims.LevelOf(0, nearlyEqualTol, pointsOf(5, func(r evalResult) float64 { return (r.obj[mOnline] - r.obj[mGreedyMin]) / math.Abs(r.obj[mGreedyMin]) })), Evidence: ev2},
	{Claim: "Figs 1–2: \"its (Online's) objective is also the largest\" (Fig 2's text): Online ahead of Greedy at every γ and n, A = online, B = greedy-min-energy", Paper: "largest (curve only)", Judge: dirF1G, Evidence: ev2},
	{Claim: "Figs 1–2: \"its (Online's) objective is also the largest\" (Fig 2's text): Online ahead of Average at every γ and n, A = online, B = average", Paper: "largest (curve only)", Judge: dirF1A, Evidence: ev2},
	{Claim: "Figs 1–2: Online ahead of greedy-max-objective (ours: our baseline, not the paper's) at every γ and n, A = online, B = greedy-max-objective", Paper: "— (not in the paper)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(2, objOf(mOnline), objOf(mGreedyMax))), Evidence: ev2},
	{Claim: "Figs 1–2, by the authors' raw means (one value per point, no spread): Online ahead of Greedy at every γ and n", Paper: "largest (curve only)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, rawPairs("case2", mGreedyMin)), Evidence: "table Case 2 raw_online, raw_greedy"},

	// Fig 2: run times (medians of repeats; orders of magnitude only).
	{Claim: f2 + ": \"the run time of all three methods rises with the number of users\": Online, log10 ms", Paper: "rises (curve only)", Judge: msRises(mOnline), Evidence: ev3 + "; per instance and γ, the median of the repeats"},
	{Claim: f2 + ": \"the run time of all three methods rises with the number of users\": Greedy (greedy-min-energy), log10 ms", Paper: "rises (curve only)", Judge: msRises(mGreedyMin), Evidence: ev3 + "; per instance and γ, the median of the repeats"},
	{Claim: f2 + ": \"the run time of all three methods rises with the number of users\": Average, log10 ms", Paper: "rises (curve only)", Judge: msRises(mAverage), Evidence: ev3 + "; per instance and γ, the median of the repeats"},
	{Claim: f2 + ": \"although Online's run time is the longest\": slower than Greedy at every n, A = online, B = greedy-min-energy, log10 ms", Paper: "longest (curve only)", Judge: claims.DirectionOf(claims.HigherBetter, timingTol, longest(mGreedyMin)), Evidence: ev3 + suffixSums},
	{Claim: f2 + ": \"although Online's run time is the longest\": slower than Average at every n, A = online, B = average, log10 ms", Paper: "longest (curve only)", Judge: claims.DirectionOf(claims.HigherBetter, timingTol, longest(mAverage)), Evidence: ev3 + suffixSums},
	{Claim: f2 + ", by the authors' raw mean times (ms, one value per point): Online slower than Greedy at every γ and n", Paper: "longest (curve only)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, rawPairs("times", mGreedyMin)), Evidence: "table Case 2 raw_online_ms, raw_greedy_ms (Windows clock(), i7-10700)"},
	{Claim: f2 + ", by the authors' raw mean times (ms, one value per point): Online slower than Average at every γ and n", Paper: "longest (curve only)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, rawPairs("times", mAverage)), Evidence: "table Case 2 raw_online_ms, raw_average_ms (Windows clock(), i7-10700)"},
	{Claim: f2 + ": \"even at n = 2000 its (Online's) run time is of the order of milliseconds\" (ms, at the largest n run)", Paper: "ms (curve only)", Judge: func(d *claimData) claims.Result {
		return claims.AtMost(1000, msLevelTol, pointsOf(5, msOf(mOnline))(d)...)
	}, Evidence: ev3},

	// Fig 3: arrival orders.
	{Claim: f3 + ": " + best + ": ahead of Greedy at every γ and order, A = online, B = greedy-min-energy", Paper: "best (bars only)", Judge: dirF3G, Evidence: ev4},
	{Claim: f3 + ": " + best + ": ahead of Average at every γ and order, A = online, B = average", Paper: "best (bars only)", Judge: dirF3A, Evidence: ev4},
	{Claim: f3 + ": Online ahead of greedy-max-objective (ours: our baseline, not the paper's) at every γ and order, A = online, B = greedy-max-objective", Paper: "— (not in the paper)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, pairsOf(3, objOf(mOnline), objOf(mGreedyMax))), Evidence: ev4},
	{Claim: f3 + ", by the authors' raw means (one value per point, no spread): Online ahead of Greedy at every γ and order", Paper: "best (bars only)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, rawPairs("case3", mGreedyMin)), Evidence: "table Case 3 raw_online, raw_greedy"},
	{Expand: orderRows},

	// Conclusions.
	{Claim: "Conclusion (Table 1, Figs 2–3): Online beats the other two (the paper's Greedy and Average) in every case, at every γ, n and order", Paper: "in every case", Judge: everyCase, Evidence: "the Direction rows above; by the authors' own code: {authG} against Greedy"},
	{Claim: "Conclusion (timing): \"its run time depends on the number of users and of machine types\"", Paper: "depends on n and m", Judge: claims.CombineOf([]string{"rises with n (Fig 2, Online)", "machine types"}, msRises(mOnline), claims.Fixed[*claimData](claims.Missing("every experiment of the paper has m = 9 machine types; none varies m"))), Evidence: ev3},
	{Claim: "Conclusion, contribution 3): \"comparative experiments show the superiority of the proposed algorithm\"; \"the method obtains satisfying results\"", Paper: "superior, satisfying", Judge: claims.CombineOf([]string{"in every case", "gap rises with γ", "ahead at small n"}, everyCase, gapTrend, smallDir), Evidence: "the rows above; 'satisfying' fixes no threshold and is not judged"},
}

// t1Methods are Table 1's printed columns: our method k and the
// authors' re-enacted column q.
var t1Methods = []struct {
	k, q int
	name string
	of   func(publishedRow) float64
}{{mOnline, 0, "Online", func(p publishedRow) float64 { return p.Online }}, {mGreedyMin, 1, "Greedy", func(p publishedRow) float64 { return p.Greedy }},
	{mAverage, 2, "Average", func(p publishedRow) float64 { return p.Average }}}

func authOf(q int) func(evalResult) float64 {
	return func(r evalResult) float64 { return r.authors[q] }
}
func spanOf(k int) func(evalResult) float64 { return func(r evalResult) float64 { return r.span[k] } }

// t1Rows: each printed number of Table 1 is a mean over the authors'
// instances: a sample (issue 40) whose spread their own code gives,
// re-enacted on the same instances (authors.go; its means match their raw
// means to 7 digits), compared with ours as two samples (LevelMean); then
// each printed column against the authors' own code, instance by instance.
func t1Rows(d *claimData) []claims.Line {
	pub := map[float64]publishedRow{}
	for _, p := range d.res.published {
		pub[p.Gamma] = p
	}
	var levels, printed []claims.Line
	for _, m := range t1Methods {
		var names []string
		var rs []claims.Result
		for g, gamma := range table1Gammas {
			p, raw, auth := pub[gamma], rawOf(d.res, gamma), col(d.c1[g], authOf(m.q))
			sd, n := claims.SampleSD(auth)
			ev := ev1 + "; ours: " + methodCols[m.k]
			if m.k != mAverage && p.Online < p.Greedy != (raw.Online < raw.Greedy) {
				ev += fmt.Sprintf("; the printed row swaps Online and Greedy at γ = %g (the authors' raw means: Online %.2f, Greedy %.2f)", gamma, raw.Online, raw.Greedy)
			}
			levels = append(levels, claims.Line{Claim: fmt.Sprintf("{t1}: %s's objective at γ = %g", m.name, gamma), Paper: fmt.Sprintf("%.2f", m.of(p)), Evidence: ev,
				Result: claims.LevelMean(claims.PaperMean{Mean: m.of(p), N: n, SD: sd, From: "sd of the authors' code re-enacted on their instances"}, claims.Printed(2), claims.Point{Values: objs(d.c1[g], m.k)})})
			names = append(names, fmt.Sprintf("γ %g: printed %.2f,", gamma, m.of(p)))
			rs = append(rs, claims.Level(m.of(p), claims.Printed(2), claims.Point{Values: auth}))
		}
		printed = append(printed, claims.Line{Claim: fmt.Sprintf("{t1}: the printed %s column against the authors' own code (re-enacted, instance by instance)", m.name), Paper: "Table 1 as printed",
			Result: joined(names, rs), Evidence: "table Authors' code re-enacted (it matches the authors' raw means to 7 digits)"})
	}
	return append(levels, printed...)
}

// cells are case cs's settings in order with their labels: every γ of
// Table 1 (1), every γ and n of Fig 1 (2), every γ and order of Fig 3
// (3), every γ at Fig 1's smallest n (4) and at its largest (5).
func (d *claimData) cells(cs int) (labels []string, rs [][]evalResult) {
	add := func(l string, r []evalResult) { labels, rs = append(labels, l), append(rs, r) }
	for g, gamma := range table1Gammas {
		if cs == 1 {
			add(fmt.Sprintf("γ %g", gamma), d.c1[g])
		}
	}
	for g, gamma := range figGammas {
		for i, n := range d.ns {
			if cs == 2 || (cs == 4 && i == 0) || (cs == 5 && i == len(d.ns)-1) {
				add(fmt.Sprintf("γ %g n %d", gamma, n), d.c2[g][i])
			}
		}
		for o, order := range case3Orders {
			if cs == 3 {
				add(fmt.Sprintf("γ %g %s", gamma, order), d.c3[g][o])
			}
		}
	}
	return labels, rs
}

// pairsOf pairs a's values with b's at every setting of case cs (cells).
func pairsOf(cs int, a, b func(evalResult) float64) func(*claimData) []claims.Pair {
	return func(d *claimData) []claims.Pair {
		labels, rs := d.cells(cs)
		ps := make([]claims.Pair, len(rs))
		for i := range rs {
			ps[i] = claims.Pair{Label: labels[i], A: col(rs[i], a), B: col(rs[i], b)}
		}
		return ps
	}
}

// pointsOf is f's values at every setting of case cs (cells).
func pointsOf(cs int, f func(evalResult) float64) func(*claimData) []claims.Point {
	return func(d *claimData) []claims.Point {
		labels, rs := d.cells(cs)
		ps := make([]claims.Point, len(rs))
		for i := range rs {
			ps[i] = claims.Point{Label: labels[i], Values: col(rs[i], f)}
		}
		return ps
	}
}

// avgGap shows how far Average lies behind Greedy: "far" fixes no number.
func avgGap(d *claimData) claims.Result {
	var gapAvg []string
	for g, gamma := range table1Gammas {
		iv := claims.MeanCI(col(d.c1[g], func(r evalResult) float64 { return r.obj[mGreedyMin] - r.obj[mAverage] }))
		gapAvg = append(gapAvg, fmt.Sprintf("γ %g: %.4g", gamma, iv.Mean))
	}
	return claims.Unmeasurable("greedy-min-energy − average: "+strings.Join(gapAvg, "; "), "the paper's 'large gap' fixes no threshold")
}

// f1GapFalls: the gap online − greedy falls with n, at each γ.
func f1GapFalls(d *claimData) claims.Result {
	var gapTrends []claims.Result
	var gapNames []string
	for g, gamma := range figGammas {
		var pts []claims.Point
		for i, n := range d.ns {
			pts = append(pts, claims.Point{Label: fmt.Sprintf("n %d", n), Values: col(d.c2[g][i], onlineGap)})
		}
		gapNames = append(gapNames, fmt.Sprintf("γ %g:", gamma))
		gapTrends = append(gapTrends, claims.TrendOf(claims.Falls, noTol, false, pts...))
	}
	return joined(gapNames, gapTrends)
}

// msRises: method k's run time rises with n.
func msRises(k int) func(*claimData) claims.Result {
	return func(d *claimData) claims.Result {
		return claims.TrendOf(claims.Rises, timingTol, false, msPoints(d, k)...)
	}
}

// longest pairs Online's log10 run times with method b's at every n,
// pooled over γ.
func longest(b int) func(*claimData) []claims.Pair {
	return func(d *claimData) []claims.Pair {
		a, bb := msPoints(d, mOnline), msPoints(d, b)
		ps := make([]claims.Pair, len(a))
		for i := range a {
			ps[i] = claims.Pair{Label: a[i].Label, A: a[i].Values, B: bb[i].Values}
		}
		return ps
	}
}

// rawPairs pairs the authors' raw Online value with method b's (Greedy
// or Average) at every γ and setting, one value per point: their means of
// case 2 ("case2", every n) or case 3 ("case3", every order), or their
// mean run times of case 2 ("times").
func rawPairs(cs string, b int) func(*claimData) []claims.Pair {
	return func(d *claimData) []claims.Pair {
		var ps []claims.Pair
		for _, gamma := range figGammas {
			for i, s := range cells3(cs, d.ns) {
				raw, ok := d.res.rawFor(cs, gamma, s)
				label := fmt.Sprintf("γ %g %s", gamma, s)
				if cs == "times" {
					rt := d.res.rawTimeFor(gamma, d.ns[i])
					raw, ok, label = rawResult{Online: rt.Online, Greedy: rt.Greedy, Average: rt.Average}, true, fmt.Sprintf("γ %g n %d", gamma, d.ns[i])
				}
				if ok {
					bv := raw.Greedy
					if b == mAverage {
						bv = raw.Average
					}
					ps = append(ps, claims.Pair{Label: label, A: []float64{raw.Online}, B: []float64{bv}})
				}
			}
		}
		return ps
	}
}

// cells3 are the raw data's settings: the orders of case 3, else every
// n of Fig 1 in order.
func cells3(cs string, ns []int) []string {
	if cs == "case3" {
		return case3Orders
	}
	var s []string
	for _, n := range ns {
		s = append(s, settingN(n))
	}
	return s
}

// orderRows: "The arrival order has no noticeable effect; only SaB is
// slightly lower for Online and Greedy." Orders use different instances
// (Welch); values are scaled by the method's BaS mean at that γ.
func orderRows(d *claimData) []claims.Line {
	var ls []claims.Line
	for _, k := range []int{mOnline, mGreedyMin, mAverage} {
		flatNames, flat, sabNames, sabFalls, sabLittle := orderResults(d, k)
		orders := "BaS, Rand, Equal (SaB is the stated exception)"
		if k == mAverage {
			orders = "all four orders"
		}
		ls = append(ls, claims.Line{Claim: fmt.Sprintf("%s: \"the arrival order has no noticeable effect on the objective\": %s, over %s, objective ÷ |BaS mean|", f3, paperNames[k], orders), Paper: "no noticeable effect (bars only)",
			Result: joined(flatNames, flat), Evidence: ev4 + "; different instances per order: Welch intervals"})
		if k == mAverage {
			continue
		}
		ls = append(ls, claims.Line{Claim: fmt.Sprintf("%s: \"only in the SaB case is the objective of Online and Greedy slightly lower\": %s lower at SaB than at each other order", f3, paperNames[k]), Paper: "slightly lower (bars only)",
			Result: joined(sabNames, sabFalls), Evidence: ev4},
			claims.Line{Claim: fmt.Sprintf("%s: \"... slightly lower\": %s at SaB no more than 5 %% below each other order", f3, paperNames[k]), Paper: "slightly (bars only)",
				Result: joined(sabNames, sabLittle), Evidence: ev4})
	}
	return ls
}

// orderResults judges method k's orders at every γ: flat over the orders
// (SaB left out for Online and Greedy), and SaB against each other order.
func orderResults(d *claimData, k int) (flatNames []string, flat []claims.Result, sabNames []string, sabFalls, sabLittle []claims.Result) {
	sab := 1 // case3Orders[1] == "SaB"
	for g, gamma := range figGammas {
		base := claims.MeanCI(objs(d.c3[g][0], k)).Mean
		var pts []claims.Point
		for o, order := range case3Orders {
			if o == sab && k != mAverage {
				continue // the stated exception
			}
			pts = append(pts, claims.Point{Label: order, Values: scaled(objs(d.c3[g][o], k), base)})
		}
		flatNames = append(flatNames, fmt.Sprintf("γ %g:", gamma))
		flat = append(flat, claims.TrendOf(claims.Flat, orderTol, false, pts...))
		if k == mAverage {
			continue
		}
		low := claims.Point{Label: "SaB", Values: scaled(objs(d.c3[g][sab], k), base)}
		for o, order := range case3Orders {
			if o == sab {
				continue
			}
			other := claims.Point{Label: order, Values: scaled(objs(d.c3[g][o], k), base)}
			sabNames = append(sabNames, fmt.Sprintf("γ %g %s→SaB:", gamma, order))
			sabFalls = append(sabFalls, claims.TrendOf(claims.Falls, noTol, false, other, low))
			sabLittle = append(sabLittle, claims.TrendOf(claims.FallsLittle, orderTol, false, other, low))
		}
	}
	return flatNames, flat, sabNames, sabFalls, sabLittle
}

// rawOf is the authors' raw case-1 means at γ.
func rawOf(res *seedResults, gamma float64) rawResult {
	r, _ := res.rawFor("case1", gamma, "n30")
	return r
}

// msPoints is method k's log10 run times (ms) per n, pooled over γ.
func msPoints(d *claimData, k int) []claims.Point {
	var pts []claims.Point
	for i, n := range d.ns {
		var v []float64
		for g := range figGammas {
			v = append(v, log10ms(d.c2[g][i], k)...)
		}
		pts = append(pts, claims.Point{Label: fmt.Sprintf("n %d", n), Values: v})
	}
	return pts
}
