package dcop

import (
	"fmt"
	"math"
	"strings"

	"schedlab/report"
	"schedlab/solvers/claims"
)

// Verdicts of the Claims table (fidelity.md).
const (
	Holds       = report.Holds
	Partly      = report.Partly
	DoesNotHold = report.DoesNotHold
	NotMeasured = report.NotMeasured
)

// The printed exponents of the seed's sizes (Tables 1 and 2 print every
// size as m.m × 10^e, one decimal): half a unit of the last digit is
// 0.05 × 10^e, which fixes the paper's precision of the width it implies.
var (
	paperT1BeforeExp = []int{2, 4, 12, 17}
	paperT1AfterExp  = []int{1, 1, 1, 1}
	paperT2BeforeExp = []int{0, 3, 9, 16}
	paperT2AfterExp  = []int{-3, -2, 0, 1}
)

// widthTol is the paper's printed precision of a size mb printed as
// m.m × 10^exp, as a width: mb − 0.05 × 10^exp is width
// log20(mb / (mb − 0.05 × 10^exp)) lower (the wider of the two sides).
func widthTol(mb float64, exp int) claims.Tol {
	h := 0.05 * math.Pow(10, float64(exp))
	w := math.Log(mb/(mb-h)) / math.Log(20)
	return claims.Tol{Value: w, Why: fmt.Sprintf("the paper's printed precision: %.2g ± %.2g MB is width ± %.3f", mb, h, w)}
}

// sizeClaim is what one job count gives the Claims rows, per instance
// (NaN where the method gave no schedule).
type sizeClaim struct {
	jobs                   int
	wb                     []float64 // width before (every instance has its tree)
	beforeMB               float64   // geometric mean, seed's accounting
	wdWidth, spWidth       []float64 // width after WD / the split's wider half
	wdMB, spMB             float64   // geometric means over every instance (failures sized where they stopped)
	wdAcc, spAcc           []float64
	wdCyc, spCyc, cycFull  []float64
	wdReached, wdN, spFail int
}

// claimData gathers, size by size, what the Claims rows need.
type claimData struct {
	sizes        []sizeClaim
	wdFail       int // WD seed's failures, every size
	spFail       int // the split's
	unproven     int
	delWD, delSp [][2]float64 // (deleted or cut, accuracy) over the solved instances
	nWD, nSp     int          // instances behind delWD, delSp
	bestHalf     [][]float64  // per size: the wider half's width per instance, heuristic of the narrowest mean
	bestHalfName []string
}

// add records one size.
func (c *claimData) add(st sizeStats, wd, sp methodStats) {
	c.unproven += len(st.unproven)
	c.sizes = append(c.sizes, sizeClaim{
		jobs: st.jobs, wb: st.wb, beforeMB: geomean(st.before),
		wdWidth: wd.widthAll, spWidth: sp.widthAll, wdMB: geomean(wd.paperMB), spMB: geomean(sp.paperMB),
		wdAcc: wd.accAll, spAcc: sp.accAll, wdCyc: wd.cycAll, spCyc: sp.cycAll, cycFull: st.cyclesFull,
		wdReached: wd.reached, wdN: len(st.opt), spFail: sp.failures,
	})
	c.wdFail += wd.failures
	c.spFail += sp.failures
	c.delWD = append(c.delWD, wd.points...)
	c.delSp = append(c.delSp, sp.points...)
	c.nWD += len(st.opt)
	c.nSp += len(st.opt)
}

// points makes one claims.Point per size from a per-size slice.
func (c *claimData) points(get func(sizeClaim) []float64) []claims.Point {
	var pts []claims.Point
	for _, s := range c.sizes {
		pts = append(pts, claims.Point{Label: fmt.Sprintf("%d jobs", s.jobs), Values: get(s)})
	}
	return pts
}

// pairs makes one claims.Pair per size: A and B over the same instances.
func (c *claimData) pairs(a, b func(sizeClaim) []float64) []claims.Pair {
	var ps []claims.Pair
	for _, s := range c.sizes {
		ps = append(ps, claims.Pair{Label: fmt.Sprintf("%d jobs", s.jobs), A: a(s), B: b(s)})
	}
	return ps
}

// xy splits (x, y) points into coordinates.
func xy(pts [][2]float64) (xs, ys []float64) {
	for _, p := range pts {
		xs, ys = append(xs, p[0]), append(ys, p[1])
	}
	return xs, ys
}

// withLead writes context before a rule's numbers in the ours cell.
func withLead(r claims.Result, lead string) claims.Result {
	r.Ours = lead + ": " + r.Ours
	return r
}

// reduced judges "WD and the split reduce x": each method's value below
// before's on the same instances at every size (Direction, paired), the
// two joined (Combine); wdA and spA name A in the row.
func reduced(wdA, spA string, before, wd, sp func(sizeClaim) []float64) func(*claimData) claims.Result {
	return func(c *claimData) claims.Result {
		w := claims.Direction(claims.LowerBetter, claims.Tol{}, c.pairs(wd, before)...)
		s := claims.Direction(claims.LowerBetter, claims.Tol{}, c.pairs(sp, before)...)
		both := claims.Combine([]string{"WD", "split"}, w, s)
		both.Ours = "WD (A = " + wdA + "): " + w.Ours + " | split (A = " + spA + "): " + s.Ours + " → " + both.Ours
		both.Rule = w.Rule + "; " + both.Rule
		return both
	}
}

// claimsTable is the Claims table: every published number and qualitative
// claim of the seed with our per-instance numbers, judged by the shared
// rules (solvers/claims). Sizes are judged as widths (the log20 of the
// seed's accounting), so that the intervals live on the scale the sizes
// grow on; a size "after" a method counts only where the method gave a
// schedule.
func claimsTable(c *claimData) report.Table { return claims.Build(c, claimRows) }

// sizeKinds are the four rows of Tables 1 and 2 at each job count: the
// printed size and its exponent, our widths and the lead of our cell.
var sizeKinds = []struct {
	claim    string
	paper    []float64
	exp      []int
	of       func(sizeClaim) []float64
	lead     func(sizeClaim) string
	evidence string
}{
	{"Table 1: max UTIL before WD, %d jobs", paperT1Before, paperT1BeforeExp, func(s sizeClaim) []float64 { return s.wb }, beforeLead, "Table 1 before_mb, width_before"},
	{"Table 1: max UTIL after WD to width 5, %d jobs", paperT1After, paperT1AfterExp, func(s sizeClaim) []float64 { return s.wdWidth }, func(s sizeClaim) string {
		return fmt.Sprintf("%.3g MiB over every instance; limit reached on %d of %d; width where a schedule came", s.wdMB, s.wdReached, s.wdN)
	}, "Table 1 after_mb, width_after, wd_failures; an instance without a schedule (limit not reached, or no schedule of the relaxed problem) is a failure"},
	{"Table 2: max UTIL before split, %d jobs", paperT2Before, paperT2BeforeExp, func(s sizeClaim) []float64 { return s.wb }, beforeLead, "Table 2 before_mb, width_before"},
	{"Table 2: max UTIL after split (wider half), %d jobs", paperT2After, paperT2AfterExp, func(s sizeClaim) []float64 { return s.spWidth }, func(s sizeClaim) string {
		return fmt.Sprintf("%.3g MiB over every instance; wider half's width where a schedule came", s.spMB)
	}, "Table 2 after_mb, width_after, split_failures; Pseudo-tree heuristics; a split without a schedule (a half over the budget, or no schedule of E2) is a failure"},
}

func beforeLead(s sizeClaim) string {
	return fmt.Sprintf("%.3g MiB, %s, mean", s.beforeMB, fmtWidths(s.wb))
}

// sizeRows are Tables 1 and 2 size by size, each printed size against
// our widths.
func sizeRows(c *claimData) []claims.Line {
	var ls []claims.Line
	for ji, s := range c.sizes {
		for _, k := range sizeKinds {
			pw := ImpliedWidth(k.paper[ji], 20)
			ls = append(ls, claims.Line{Claim: fmt.Sprintf(k.claim, s.jobs), Paper: fmt.Sprintf("%.2g MB (width %.2f)", k.paper[ji], pw),
				Result: withLead(claims.Level(pw, widthTol(k.paper[ji], k.exp[ji]), claims.Point{Values: k.of(s)}), k.lead(s)), Evidence: k.evidence})
		}
	}
	return ls
}

// per is a per-size series as the points of a judge.
func per(get func(sizeClaim) []float64) func(*claimData) []claims.Point {
	return func(c *claimData) []claims.Point { return c.points(get) }
}

func wdAccOf(s sizeClaim) []float64 { return s.wdAcc }
func spAccOf(s sizeClaim) []float64 { return s.spAcc }

// The seed's "0.95–1" and "0.93–1" are ranges: a level against the range
// (issue 40), not a bound on the interval's low end.
var (
	accWD = func(c *claimData) claims.Result {
		return claims.Range(paperWDAccuracy, 1, claims.Printed(2), c.points(wdAccOf)...)
	}
	accSp = func(c *claimData) claims.Result {
		return claims.Range(paperSplitAccLow, 1, claims.Printed(2), c.points(spAccOf)...)
	}
)

// claimRows are the seed's claims in the table's order.
var claimRows = []claims.Row[*claimData]{
	{Expand: sizeRows},
	{Claim: "Fig. 3 / §4.2: WD accuracy 0.95–1", Paper: "0.95–1 at 20–50 jobs", Judge: accWD, Evidence: "Accuracy (WD seed); Accuracy vs jobs; accuracy = optimum / makespan per instance"},
	{Claim: "Fig. 4 / §4.2: split accuracy 0.93–1", Paper: "0.93–1 at 20–50 jobs", Judge: accSp, Evidence: "Accuracy (split (seed)); Accuracy vs jobs"},
	{Claim: "Fig. 3: WD accuracy drops little as jobs grow", Paper: "small drop 20→50 jobs (\"比較的小さい\", within its 0.95–1)", Judge: claims.TrendOver(claims.FallsLittle, claims.Paper(1-paperWDAccuracy, "the drop the paper's own range 0.95–1 allows"), false, per(wdAccOf)), Evidence: "Accuracy vs jobs; other instances at every size (Welch)"},
	{Claim: "Fig. 4: split accuracy drops little as jobs grow", Paper: "small drop 20→50 jobs (\"比較的小さい\", within its 0.93–1)", Judge: claims.TrendOver(claims.FallsLittle, claims.Paper(1-paperSplitAccLow, "the drop the paper's own range 0.93–1 allows"), false, per(spAccOf)), Evidence: "Accuracy vs jobs; other instances at every size (Welch)"},
	{Claim: "Fig. 5: WD accuracy falls as more back edges deleted", Paper: "accuracy decreases with the count", Judge: accFalls(func(c *claimData) ([][2]float64, int) { return c.delWD, c.nWD }), Evidence: "Accuracy vs deleted edges (one point per solved instance, every size)"},
	{Claim: "Fig. 5: split accuracy falls as more constraint edges cut", Paper: "accuracy decreases with the count", Judge: accFalls(func(c *claimData) ([][2]float64, int) { return c.delSp, c.nSp }), Evidence: "Accuracy vs deleted edges (one point per solved instance, every size)"},
	{Claim: "Fig. 6: split's message cycles about those of the unsplit problem", Paper: "no large change (\"大きな変化が見られない\"; no number)", Judge: cycleRatio, Evidence: "Message cycles with and without split"},
	{Claim: "Table 2: halves as narrow as the seed's are reachable (any pseudo-tree heuristic)", Paper: "half widths 1.46/3.06/4.86/5.05", Judge: halvesReach, Evidence: "Pseudo-tree heuristics (every heuristic's halves, whether the split solves them or not)"},
	{Claim: "Conclusion: both methods reduce the UTIL message size", Paper: "reduced", Judge: reduced("width after, B = before", "wider half", func(s sizeClaim) []float64 { return s.wb }, func(s sizeClaim) []float64 { return s.wdWidth }, func(s sizeClaim) []float64 { return s.spWidth }), Evidence: "Table 1, Table 2, UTIL size vs jobs; paired per instance, widths (log20 of the seed's accounting)"},
	{Claim: "Conclusion: the methods reduce the message cycles", Paper: "reduced", Judge: reduced("cycles after WD, B = full tree", "both halves summed", func(s sizeClaim) []float64 { return s.cycFull }, func(s sizeClaim) []float64 { return s.wdCyc }, func(s sizeClaim) []float64 { return s.spCyc }), Evidence: "Message cycles with and without split; paired per instance"},
	{Claim: "Conclusion: the accuracy loss is relatively small", Paper: "0.95–1 (WD), 0.93–1 (split)", Judge: claims.CombineOf([]string{"WD", "split"}, accWD, accSp), Evidence: "the two accuracy rows above"},
}

// accFalls: accuracy falls with the count of deleted (cut) edges, over
// the solved instances (pts) of n.
func accFalls(of func(*claimData) ([][2]float64, int)) func(*claimData) claims.Result {
	return func(c *claimData) claims.Result {
		pts, n := of(c)
		xs, ys := xy(pts)
		return withLead(claims.Correlated(claims.Falls, xs, ys), fmt.Sprintf("%d of %d instances solved", len(pts), n))
	}
}

// cycleRatio shows the split's cycles over the full tree's: Fig. 6
// prints no number.
func cycleRatio(c *claimData) claims.Result {
	var cyc []string
	for _, s := range c.sizes {
		ratio := make([]float64, len(s.spCyc))
		for i := range s.spCyc {
			ratio[i] = s.spCyc[i] / s.cycFull[i]
		}
		iv := claims.MeanCI(ratio)
		v := claims.FormatInterval(iv, func(x float64) string { return fmt.Sprintf("%.2f", x) })
		cyc = append(cyc, fmt.Sprintf("%d jobs: split/full %s, %d of %d solved", s.jobs, v, iv.N, len(ratio)))
	}
	return claims.Unmeasurable(strings.Join(cyc, "; "), "Fig. 6 prints no number and \"no large change\" fixes no threshold; our ratio (split cycles, both halves summed, over the full tree's, per instance) is shown")
}

// halvesReach: one published width per size: a bound per size, joined.
func halvesReach(c *claimData) claims.Result {
	var reach []claims.Result
	var names, xs, parts []string
	for i, s := range c.sizes {
		half := claims.Point{Label: fmt.Sprintf("%d jobs (%s) vs %.2f", s.jobs, c.bestHalfName[i], ImpliedWidth(paperT2After[i], 20)), Values: c.bestHalf[i]}
		names = append(names, fmt.Sprintf("%d jobs", s.jobs))
		tol := widthTol(paperT2After[i], paperT2AfterExp[i])
		x := ImpliedWidth(paperT2After[i], 20) + tol.Value
		reach = append(reach, claims.AtMost(x, tol, half))
		xs = append(xs, fmt.Sprintf("%.3f", x))
		parts = append(parts, reach[i].Ours)
	}
	rr := claims.Combine(names, reach...)
	rr.Ours = "wider half's width, heuristic of the narrowest mean: " + strings.Join(parts, "; ") + " (" + rr.Ours + ")"
	rr.Rule = "bound per size: our 95 % CI ≤ the implied width plus the paper's printed precision (" + strings.Join(xs, ", ") + "), more than half of the instances solved; " + rr.Rule
	return rr
}
