package claims

import (
	"fmt"
	"math"
	"strings"

	"schedlab/solvers"
)

// Verdicts (../shared/fidelity.md).
const (
	Holds        = solvers.Holds
	Partly       = solvers.Partly
	DoesNotHold  = solvers.DoesNotHold
	NotMeasured  = solvers.NotMeasured
	Unverifiable = solvers.Unverifiable
)

// Point is one place where the paper reports a claim: a method's values
// there, one per instance or seed, NaN where the method failed.
type Point struct {
	Label  string
	Values []float64
}

// Pair is one place where the paper compares two methods: their values
// on the same instances and seeds, index by index, NaN where one failed.
type Pair struct {
	Label string
	A, B  []float64
}

// Tol is a tolerance or threshold: its value and whose it is. A
// tolerance that is ours (not the paper's printed precision nor its
// words) caps the verdict at partly; Why names it in the row.
type Tol struct {
	Value float64
	Ours  bool
	Why   string
}

// Paper is a tolerance the paper fixes (its words give the number).
func Paper(v float64, why string) Tol { return Tol{Value: v, Why: why} }

// Ours is a tolerance we chose; it caps the verdict at partly.
func Ours(v float64, why string) Tol { return Tol{Value: v, Ours: true, Why: why} }

// Printed is the precision of a number printed with the given decimals:
// half a unit of its last digit (0.95 → ±0.005).
func Printed(decimals int) Tol {
	return Tol{Value: 0.5 * math.Pow(10, -float64(decimals)), Why: fmt.Sprintf("the paper's printed precision, %d decimals", decimals)}
}

// Better orients a comparison.
type Better int

const (
	HigherBetter Better = iota
	LowerBetter
)

// Result is a rule's verdict with our numbers as the row shows them and
// the rule in words.
type Result struct {
	Verdict string
	Ours    string
	Rule    string
}

// defaultFormat writes numbers in rows: four significant digits.
var defaultFormat = func(x float64) string { return fmt.Sprintf("%.4g", x) }

func fmtIv(iv Interval, f func(float64) string) string {
	if iv.N == 0 {
		return "n/a"
	}
	if iv.Lo == iv.Hi {
		return f(iv.Mean)
	}
	return fmt.Sprintf("%s [%s, %s]", f(iv.Mean), f(iv.Lo), f(iv.Hi))
}

// solvedOf counts the numbers among xs and says "k of n solved" where
// anything failed or there are several instances.
func solvedOf(xs []float64) (k, n int, s string) {
	n = len(xs)
	for _, x := range xs {
		if !math.IsNaN(x) {
			k++
		}
	}
	if n > 1 || k < n {
		s = fmt.Sprintf("%d of %d solved", k, n)
	}
	return k, n, s
}

// tooFew is the failures rule: a method that solved no more than half of
// the instances at a point does not hold there.
func tooFew(k, n int) bool { return n > 0 && 2*k <= n }

// across combines point verdicts: holds if all pass, partly if some do,
// does not hold if none does; not measured without points.
func across(pass, n int) string {
	switch {
	case n == 0:
		return NotMeasured
	case pass == n:
		return Holds
	case pass > 0:
		return Partly
	}
	return DoesNotHold
}

// cap applies a tolerance that is ours: holds becomes partly.
func capOurs(r Result, t Tol) Result {
	if t.Ours {
		if r.Verdict == Holds {
			r.Verdict = Partly
		}
		r.Rule += "; threshold ours (" + t.Why + "): caps the verdict at partly"
	} else if t.Why != "" {
		r.Rule += " (" + t.Why + ")"
	}
	return r
}

func label(l, s string) string {
	if l == "" {
		return s
	}
	return l + ": " + s
}

func join(parts []string) string { return strings.Join(parts, "; ") }

// eachPoint judges every point that has instances by holds (given its
// interval) and the failures rule, and returns the combined verdict and
// our numbers as the row shows them.
func eachPoint(pts []Point, holds func(Interval) bool) (verdict, ours string) {
	pass, n := 0, 0
	var parts []string
	for _, p := range pts {
		k, m, s := solvedOf(p.Values)
		if m == 0 {
			continue
		}
		n++
		iv := MeanCI(p.Values)
		if !tooFew(k, m) && holds(iv) {
			pass++
		}
		parts = append(parts, label(p.Label, strings.TrimSuffix(fmtIv(iv, defaultFormat)+", "+s, ", ")))
	}
	return across(pass, n), join(parts)
}

// Level judges ours against a published number at each point: a point
// holds when paper ± tol meets our 95 % interval.
func Level(paper float64, tol Tol, pts ...Point) Result {
	v, ours := eachPoint(pts, func(iv Interval) bool { return iv.Lo-tol.Value <= paper && paper <= iv.Hi+tol.Value })
	r := Result{Verdict: v, Ours: ours,
		Rule: fmt.Sprintf("level: %s ± %s within our 95 %% CI at every point", defaultFormat(paper), defaultFormat(tol.Value))}
	return capOurs(r, tol)
}

// AtLeast judges "ours ≥ x" at each point: the interval's low end is at
// least x. AtMost judges "ours ≤ x".
func AtLeast(x float64, t Tol, pts ...Point) Result { return bound(x, true, t, pts) }

// AtMost judges "ours ≤ x" at each point: the interval's high end is at
// most x.
func AtMost(x float64, t Tol, pts ...Point) Result { return bound(x, false, t, pts) }

func bound(x float64, atLeast bool, t Tol, pts []Point) Result {
	v, ours := eachPoint(pts, func(iv Interval) bool { return (atLeast && iv.Lo >= x) || (!atLeast && iv.Hi <= x) })
	op := "≥"
	if !atLeast {
		op = "≤"
	}
	r := Result{Verdict: v, Ours: ours,
		Rule: fmt.Sprintf("bound: our 95 %% CI %s %s at every point, more than half of the instances solved", op, defaultFormat(x))}
	return capOurs(r, t)
}

// orient turns a paired difference so that positive favours A; applied
// to an oriented one it gives A − B back (the rows show A − B).
func orient(iv Interval, b Better) Interval {
	if b == LowerBetter {
		return Interval{-iv.Mean, -iv.Hi, -iv.Lo, iv.N}
	}
	return iv
}

// Direction judges "A better than B" (by more than margin, zero unless a
// rule fixes one) at every point, paired over the instances both solved.
// A point holds when A solved more than half of its instances and the
// interval of the oriented difference lies above the margin.
func Direction(b Better, margin Tol, pts ...Pair) Result {
	pass, n := 0, 0
	var parts []string
	for _, p := range pts {
		ka, na, _ := solvedOf(p.A)
		kb, _, _ := solvedOf(p.B)
		if na == 0 {
			continue
		}
		n++
		iv := orient(PairedCI(p.A, p.B), b)
		ok := !tooFew(ka, na) && iv.N > 0 && iv.Lo > margin.Value
		if ok {
			pass++
		}
		s := "A − B " + fmtIv(orient(iv, b), defaultFormat)
		if na > 1 || ka < na || kb < na {
			s += fmt.Sprintf(", A %d of %d solved, B %d of %d", ka, na, kb, na)
		}
		parts = append(parts, label(p.Label, s))
	}
	dir := "higher"
	if b == LowerBetter {
		dir = "lower"
	}
	rule := fmt.Sprintf("direction: A %s than B at every point, the 95 %% CI of the paired difference excluding zero", dir)
	if margin.Value != 0 {
		rule = fmt.Sprintf("direction: A %s than B by more than %s at every point, the 95 %% CI of the paired difference beyond it", dir, defaultFormat(margin.Value))
	}
	return capOurs(Result{Verdict: across(pass, n), Ours: join(parts), Rule: rule}, margin)
}

// Trend kinds.
type Trend int

const (
	Rises Trend = iota
	Falls
	Flat        // every point within ±tol of the first
	FallsLittle // no point more than tol below the first
)

// TrendOf judges a trend over the points in order. Steps between points
// use Welch's interval, or the paired one when paired is true (the same
// instances at every point). Rises (Falls): every step to the next point
// rises (falls) with the step's interval excluding zero; it holds only
// when every step does, is partly when some step does and none goes the
// other way significantly, and does not hold otherwise. Flat: every
// point's difference from the first lies within ±tol, interval included.
// FallsLittle: no point's interval of its difference from the first
// reaches below −tol. (Over unbinned pairs (x, y): Correlated.)
func TrendOf(kind Trend, tol Tol, paired bool, pts ...Point) Result {
	diff := func(a, b Point) Interval {
		if paired {
			return PairedCI(b.Values, a.Values)
		}
		return WelchCI(a.Values, b.Values)
	}
	var parts []string
	for _, p := range pts {
		_, _, s := solvedOf(p.Values)
		parts = append(parts, label(p.Label, strings.TrimSuffix(fmtIv(MeanCI(p.Values), defaultFormat)+", "+s, ", ")))
	}
	r := Result{Ours: join(parts)}
	if len(pts) < 2 {
		r.Verdict, r.Rule = NotMeasured, "trend: needs two points or more"
		return r
	}
	failed := false
	for _, p := range pts {
		if k, n, _ := solvedOf(p.Values); tooFew(k, n) || k == 0 {
			failed = true
		}
	}
	switch kind {
	case Rises, Falls:
		word := "rises"
		if kind == Falls {
			word = "falls"
		}
		with, against := 0, 0
		for i := 1; i < len(pts); i++ {
			d := diff(pts[i-1], pts[i])
			up, down := d.N > 0 && d.Lo > 0, d.N > 0 && d.Hi < 0
			if kind == Falls {
				up, down = down, up
			}
			if up {
				with++
			}
			if down {
				against++
			}
		}
		steps := len(pts) - 1
		switch {
		case failed:
			r.Verdict = DoesNotHold
		case with == steps:
			r.Verdict = Holds
		case with > 0 && against == 0:
			r.Verdict = Partly
		default:
			r.Verdict = DoesNotHold
		}
		r.Rule = fmt.Sprintf("trend: %s at every step, each step's 95 %% CI excluding zero (%d of %d steps; %d significantly the other way)", word, with, steps, against)
	case Flat, FallsLittle:
		pass := 0
		for i := 1; i < len(pts); i++ {
			d := diff(pts[0], pts[i])
			ok := d.N > 0 && d.Lo >= -tol.Value
			if kind == Flat {
				ok = ok && d.Hi <= tol.Value
			}
			if ok {
				pass++
			}
		}
		steps := len(pts) - 1
		r.Verdict = across(pass, steps)
		if failed {
			r.Verdict = DoesNotHold
		}
		if kind == Flat {
			r.Rule = fmt.Sprintf("trend: flat, every point's 95 %% CI of its difference from the first within ±%s", defaultFormat(tol.Value))
		} else {
			r.Rule = fmt.Sprintf("trend: falls little, no point's 95 %% CI of its difference from the first below −%s", defaultFormat(tol.Value))
		}
	}
	if failed {
		r.Rule += "; a point where the method solved at most half of its instances fails the trend"
	}
	return capOurs(r, tol)
}

// Correlated judges "y rises (Rises) or falls (Falls) with x" over
// unbinned points: Pearson's r with its 95 % interval (Fisher's z) on the
// claimed side of zero holds; r on that side with the interval crossing
// zero is partly; otherwise does not hold. Under four points, or with a
// constant coordinate, it is not measured.
func Correlated(kind Trend, xs, ys []float64) Result {
	iv, ok := Pearson(xs, ys)
	if !ok {
		return Result{Verdict: NotMeasured, Ours: fmt.Sprintf("%d points, too few or constant: no correlation", len(xs)),
			Rule: "correlation: Pearson's r needs four points or more and no constant coordinate"}
	}
	s := 1.0
	word := "positive"
	if kind == Falls {
		s, word = -1, "negative"
	}
	r := Result{Ours: fmt.Sprintf("Pearson r = %+.2f [%+.2f, %+.2f] over %d points", iv.Mean, iv.Lo, iv.Hi, iv.N),
		Rule: "correlation: r " + word + " with its 95 % CI (Fisher z) excluding zero"}
	lo, hi := s*iv.Lo, s*iv.Hi
	switch {
	case min(lo, hi) > 0:
		r.Verdict = Holds
	case s*iv.Mean > 0:
		r.Verdict = Partly
	default:
		r.Verdict = DoesNotHold
	}
	return r
}

// Crossing judges "A ahead at the low points, B ahead at the high ones"
// over every point in order: every point is significant one way or the
// other, except at most one point at the crossing, and the signs change
// once, from A to B: holds; some significant point each way, every A
// point before every B point: partly; otherwise does not hold. Never
// judged on the two end points alone.
func Crossing(b Better, pts ...Pair) Result {
	signs := make([]int, 0, len(pts)) // +1 A ahead, −1 B ahead, 0 neither shown
	var parts []string
	for _, p := range pts {
		ka, na, _ := solvedOf(p.A)
		kb, nb, _ := solvedOf(p.B)
		iv := orient(PairedCI(p.A, p.B), b)
		s := 0
		switch {
		case tooFew(ka, na) && !tooFew(kb, nb):
			s = -1
		case tooFew(kb, nb) && !tooFew(ka, na):
			s = 1
		case iv.N > 0 && iv.Lo > 0:
			s = 1
		case iv.N > 0 && iv.Hi < 0:
			s = -1
		}
		signs = append(signs, s)
		parts = append(parts, label(p.Label, "A − B "+fmtIv(orient(iv, b), defaultFormat)))
	}
	r := Result{Ours: join(parts), Rule: "crossing: A ahead (95 % CI of the paired difference excluding zero) at every point before the crossing, B at every point after, at most one undecided point between"}
	if len(signs) < 2 {
		r.Verdict = NotMeasured
		return r
	}
	// Strict shape: +…+ [0] −…−.
	i := 0
	for i < len(signs) && signs[i] == 1 {
		i++
	}
	j := i
	if j < len(signs) && signs[j] == 0 {
		j++
	}
	k := j
	for k < len(signs) && signs[k] == -1 {
		k++
	}
	lastPlus, firstMinus, anyPlus, anyMinus := -1, len(signs), false, false
	for x, s := range signs {
		if s == 1 {
			lastPlus, anyPlus = x, true
		}
		if s == -1 && !anyMinus {
			firstMinus, anyMinus = x, true
		}
	}
	switch {
	case i > 0 && k > j && k == len(signs):
		r.Verdict = Holds
	case anyPlus && anyMinus && lastPlus < firstMinus:
		r.Verdict = Partly
	default:
		r.Verdict = DoesNotHold
	}
	return r
}

// Share judges "on every instance": k of n, holds at k = n, partly when
// more than half, does not hold otherwise.
func Share(k, n int) Result {
	r := Result{Ours: fmt.Sprintf("%d of %d", k, n), Rule: "share: on every instance holds, on more than half partly"}
	switch {
	case n == 0:
		r.Verdict = NotMeasured
	case k == n:
		r.Verdict = Holds
	case 2*k > n:
		r.Verdict = Partly
	default:
		r.Verdict = DoesNotHold
	}
	return r
}

// Unmeasurable is a claim whose paper prints no number and whose words
// fix no threshold: ours is shown beside the theory or the text.
func Unmeasurable(ours, why string) Result {
	return Result{Verdict: Unverifiable, Ours: ours, Rule: "unverifiable: " + why}
}

// Missing is a claim we have no number for.
func Missing(why string) Result {
	return Result{Verdict: NotMeasured, Ours: "—", Rule: "not measured: " + why}
}

// Combine joins the verdicts of a conclusion made of several claims:
// holds only if all hold, does not hold if all do not, not measured if
// none was measured, partly otherwise; unverifiable parts are left out of
// the join. Ours lists the parts.
func Combine(names []string, rs ...Result) Result {
	counts := map[string]int{}
	var parts []string
	for i, r := range rs {
		counts[r.Verdict]++
		n := ""
		if i < len(names) {
			n = names[i] + " "
		}
		parts = append(parts, n+r.Verdict)
	}
	m := len(rs) - counts[Unverifiable]
	out := Result{Ours: strings.Join(parts, ", "), Rule: "combined: holds only if every part holds"}
	switch {
	case m == 0 && len(rs) > 0:
		out.Verdict = Unverifiable
	case counts[NotMeasured] == m:
		out.Verdict = NotMeasured
	case counts[Holds] == m:
		out.Verdict = Holds
	case counts[DoesNotHold] == m:
		out.Verdict = DoesNotHold
	default:
		out.Verdict = Partly
	}
	return out
}

// Table collects the rows of a Claims table.
type Table struct{ rows [][]any }

// Title and Columns of every Claims table (fidelity.md).
const Title = "Claims"

// Columns of the Claims table.
var Columns = []string{"claim", "paper", "ours", "verdict", "evidence"}

// Add writes one row; the rule goes into the evidence cell.
func (t *Table) Add(claim, paper string, r Result, evidence string) {
	ev := evidence
	if r.Rule != "" {
		if ev != "" {
			ev += " · "
		}
		ev += "rule: " + r.Rule
	}
	t.rows = append(t.rows, []any{claim, paper, r.Ours, r.Verdict, ev})
}

// Table is the solvers.Table titled Claims.
func (t *Table) Table() solvers.Table {
	return solvers.Table{Title: Title, Columns: append([]string(nil), Columns...), Rows: t.rows}
}
