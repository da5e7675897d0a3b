package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"schedlab/report"
)

// Verdicts (../shared/fidelity.md).
const (
	Holds        = report.Holds
	Partly       = report.Partly
	DoesNotHold  = report.DoesNotHold
	NotMeasured  = report.NotMeasured
	Unverifiable = report.Unverifiable
	Inconclusive = report.Inconclusive
)

// MinValues is the fewest values an interval rests on: one value is no
// interval, and a rule that needs one leaves that point undecided.
const MinValues = 2

// MinSeeds is the fewest seeds a claim about a random process is judged
// on by default (fidelity.md); a family's reproduce runs at least this
// many seeds per point unless its user asks for fewer.
const MinSeeds = 5

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

// FormatInterval writes an interval as the rows do: "m [lo, hi] (n = N)",
// one value as a value, never as an interval (f nil: four significant
// digits).
func FormatInterval(iv Interval, f func(float64) string) string {
	if f == nil {
		f = defaultFormat
	}
	switch {
	case iv.N == 0:
		return "n/a"
	case iv.N < MinValues:
		return f(iv.Mean) + " (1 value: no interval)"
	case iv.Lo == iv.Hi:
		return fmt.Sprintf("%s (n = %d, no spread)", f(iv.Mean), iv.N)
	}
	return fmt.Sprintf("%s [%s, %s] (n = %d)", f(iv.Mean), f(iv.Lo), f(iv.Hi), iv.N)
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

// state is one point's judgement: the claim shown there, excluded
// there, or neither at this n.
type state int

const (
	undecided state = iota
	shown
	excluded
)

// tally counts the points' states and the n that would decide the
// undecided ones, where it can be estimated.
type tally struct {
	shown, excluded, undecided int
	need                       int // most values an undecided point needs (0: not estimated)
	one                        int // undecided points with one value only
}

func (t *tally) add(s state) {
	switch s {
	case shown:
		t.shown++
	case excluded:
		t.excluded++
	default:
		t.undecided++
	}
}

// needFor estimates the values an undecided interval of half-width
// (hi − lo)/2 over n values would need for its mean's distance gap from
// the boundary to clear it: n·(h/gap)², the interval shrinking as 1/√n
// at the same spread (the t quantile's fall ignored, so it errs low).
func (t *tally) needFor(iv Interval, boundary float64) {
	if iv.N < MinValues {
		t.one++
		return
	}
	h, gap := (iv.Hi-iv.Lo)/2, math.Abs(iv.Mean-boundary)
	if h <= 0 || gap <= 0 {
		return
	}
	if n := int(math.Ceil(float64(iv.N) * (h / gap) * (h / gap))); n > t.need {
		t.need = n
	}
}

// verdict combines point states: holds if every point shows the claim;
// partly if some do; does not hold if none does and some point excludes
// it; inconclusive if every point is undecided; not measured without
// points.
func (t tally) verdict() string {
	n := t.shown + t.excluded + t.undecided
	switch {
	case n == 0:
		return NotMeasured
	case t.shown == n:
		return Holds
	case t.shown > 0:
		return Partly
	case t.excluded > 0:
		return DoesNotHold
	}
	return Inconclusive
}

// note says why points were undecided, and the n that would decide
// them where it can be estimated.
func (t tally) note() string {
	if t.undecided == 0 {
		return ""
	}
	s := fmt.Sprintf("; %d point(s) undecided (interval straddles the boundary", t.undecided)
	if t.one > 0 {
		s += fmt.Sprintf(", or one value: no interval at %d", t.one)
	}
	s += ")"
	if t.need > 0 {
		s += fmt.Sprintf(", about n = %d values per point would decide them at this spread", t.need)
	}
	return s
}

// capOurs applies a tolerance that is ours, when the rule applied it:
// holds becomes partly. A rule that does not use a tolerance passes
// applied = false, and no cap is made by it.
func capOurs(r Result, t Tol, applied bool) Result {
	if !applied {
		if t.Ours || t.Why != "" {
			r.Rule += " (tolerance " + t.Why + " not used by this rule: no cap)"
		}
		return r
	}
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

// eachPoint judges every point that has instances by judge (given its
// interval, with at least MinValues values, and its values) and the
// failures rule, and returns the tally and our numbers as the row shows
// them. judge returns the point's state, the boundary an undecided
// interval's n is estimated against (NaN: none) and any text to add.
func eachPoint(pts []Point, judge func(Interval, []float64) (state, float64, string)) (t tally, ours string) {
	var parts []string
	for _, p := range pts {
		k, m, s := solvedOf(p.Values)
		if m == 0 {
			continue
		}
		iv := MeanCI(p.Values)
		st, b, extra := undecided, math.NaN(), ""
		switch {
		case tooFew(k, m):
			st = excluded
		case iv.N < MinValues:
			t.one++
		default:
			st, b, extra = judge(iv, p.Values)
		}
		t.add(st)
		if st == undecided && iv.N >= MinValues && !math.IsNaN(b) {
			t.needFor(iv, b)
		}
		parts = append(parts, label(p.Label, strings.TrimSuffix(FormatInterval(iv, defaultFormat)+", "+s, ", ")+extra))
	}
	return t, join(parts)
}

// Level judges ours against a published number at each point: a point
// holds when paper ± tol meets our 95 % interval, and is excluded when
// the interval lies wholly outside paper ± tol.
func Level(paper float64, tol Tol, pts ...Point) Result {
	return Range(paper, paper, tol, pts...)
}

// Range judges ours against a range the paper gives ("about 0.93 to 1"):
// a level against that range, not a bound. A point holds when [lo − tol,
// hi + tol] meets our 95 % interval and is excluded when the interval
// lies wholly outside it.
func Range(lo, hi float64, tol Tol, pts ...Point) Result {
	t, ours := eachPoint(pts, func(iv Interval, _ []float64) (state, float64, string) {
		if iv.Lo-tol.Value <= hi && lo <= iv.Hi+tol.Value {
			return shown, math.NaN(), ""
		}
		return excluded, math.NaN(), ""
	})
	rule := fmt.Sprintf("level: %s ± %s within our 95 %% CI at every point", defaultFormat(lo), defaultFormat(tol.Value))
	if lo != hi {
		rule = fmt.Sprintf("range: the paper's %s–%s (± %s) meets our 95 %% CI at every point, a level against the range, not a bound", defaultFormat(lo), defaultFormat(hi), defaultFormat(tol.Value))
	}
	r := Result{Verdict: t.verdict(), Ours: ours, Rule: rule + t.note()}
	return capOurs(r, tol, true)
}

// PaperMean is a published number that is a mean over N instances, with
// its sample standard deviation SD where the paper or the authors' data
// give it (NaN where not): a sample, not a constant.
type PaperMean struct {
	Mean float64
	N    int
	SD   float64
	From string // where the spread comes from, or why it is unknown
}

// LevelMean judges ours against a published mean as two samples: the
// Welch 95 % interval of ours − paper at each point, the point holding
// when that interval meets ±tol and excluded when it lies wholly
// outside. Where the paper's spread is unknown (SD NaN or N < 2), its
// mean is taken as exact (Level) and the row says so.
func LevelMean(p PaperMean, tol Tol, pts ...Point) Result {
	if p.N < MinValues || math.IsNaN(p.SD) {
		r := Level(p.Mean, tol, pts...)
		r.Rule += fmt.Sprintf("; the paper's value is a mean over %d, its spread not given (%s): taken as exact", p.N, p.From)
		return r
	}
	t, ours := eachPoint(pts, func(iv Interval, vals []float64) (state, float64, string) {
		d := welchStats(p.Mean, p.SD*p.SD, p.N, iv.Mean, sampleVar(vals), iv.N)
		txt := "; ours − paper " + FormatInterval(d, defaultFormat)
		if d.Lo-tol.Value <= 0 && 0 <= d.Hi+tol.Value {
			return shown, math.NaN(), txt
		}
		return excluded, math.NaN(), txt
	})
	r := Result{Verdict: t.verdict(), Ours: ours,
		Rule: fmt.Sprintf("level, two samples: the paper's mean %s over n = %d (sd %s, %s) against ours, Welch's 95 %% CI of ours − paper meeting ± %s at every point",
			defaultFormat(p.Mean), p.N, defaultFormat(p.SD), p.From, defaultFormat(tol.Value)) + t.note()}
	return capOurs(r, tol, true)
}

// AtLeast judges "ours ≥ x" at each point: the interval's low end is at
// least x; excluded when its high end is below x.
func AtLeast(x float64, t Tol, pts ...Point) Result { return bound(x, true, t, pts) }

// AtMost judges "ours ≤ x", as AtLeast the other way.
func AtMost(x float64, t Tol, pts ...Point) Result { return bound(x, false, t, pts) }

func bound(x float64, atLeast bool, t Tol, pts []Point) Result {
	tl, ours := eachPoint(pts, func(iv Interval, _ []float64) (state, float64, string) {
		switch {
		case (atLeast && iv.Lo >= x) || (!atLeast && iv.Hi <= x):
			return shown, x, ""
		case (atLeast && iv.Hi < x) || (!atLeast && iv.Lo > x):
			return excluded, x, ""
		}
		return undecided, x, ""
	})
	op := "≥"
	if !atLeast {
		op = "≤"
	}
	r := Result{Verdict: tl.verdict(), Ours: ours,
		Rule: fmt.Sprintf("bound: our 95 %% CI %s %s at every point, more than half of the instances solved; excluded where the CI lies wholly on the other side", op, defaultFormat(x)) + tl.note()}
	return capOurs(r, t, true)
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
// interval of the oriented difference lies above the margin; it is
// excluded when A solved at most half, or the interval lies at or below
// the margin; otherwise (the interval straddles the margin, or one pair
// only) it is undecided.
func Direction(b Better, margin Tol, pts ...Pair) Result {
	var t tally
	var parts []string
	for _, p := range pts {
		ka, na, _ := solvedOf(p.A)
		kb, _, _ := solvedOf(p.B)
		if na == 0 {
			continue
		}
		iv := orient(PairedCI(p.A, p.B), b)
		st := undecided
		switch {
		case tooFew(ka, na):
			st = excluded
		case iv.N < MinValues:
			t.one++
		case iv.Lo > margin.Value:
			st = shown
		case iv.Hi <= margin.Value:
			st = excluded
		default:
			t.needFor(iv, margin.Value)
		}
		t.add(st)
		s := "A − B " + FormatInterval(orient(iv, b), defaultFormat)
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
	return capOurs(Result{Verdict: t.verdict(), Ours: join(parts), Rule: rule + t.note()}, margin, true)
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
// instances at every point); a step whose interval would rest on fewer
// than MinValues values on a side is undecided. Rises (Falls): it holds
// when every step rises (falls) with its interval excluding zero; it
// does not hold when some step goes the other way significantly, or
// some point failed; partly when some step is shown and none against;
// inconclusive when no step is significant either way. tol is not used
// by Rises and Falls and caps nothing there. Flat: every point's
// difference from the first within ±tol, interval included (excluded:
// the interval wholly outside ±tol). FallsLittle: no point's interval
// of its difference from the first reaching below −tol (excluded: the
// whole interval below −tol). (Over unbinned pairs (x, y): Correlated.)
func TrendOf(kind Trend, tol Tol, paired bool, pts ...Point) Result {
	diff := func(a, b Point) Interval {
		if paired {
			return PairedCI(b.Values, a.Values)
		}
		return WelchCI(a.Values, b.Values) // N is the smaller side's count
	}
	var parts []string
	for _, p := range pts {
		_, _, s := solvedOf(p.Values)
		parts = append(parts, label(p.Label, strings.TrimSuffix(FormatInterval(MeanCI(p.Values), defaultFormat)+", "+s, ", ")))
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
	applied := true
	switch kind {
	case Rises, Falls:
		applied = false
		r.Verdict, r.Rule = stepTrend(kind, failed, pts, diff)
	case Flat, FallsLittle:
		r.Verdict, r.Rule = firstTrend(kind, tol, failed, pts, diff)
	}
	if failed {
		r.Rule += "; a point where the method solved at most half of its instances fails the trend"
	}
	return capOurs(r, tol, applied)
}

func stepTrend(kind Trend, failed bool, pts []Point, diff func(a, b Point) Interval) (verdict, rule string) {
	word := "rises"
	if kind == Falls {
		word = "falls"
	}
	var t tally
	with, against := 0, 0
	for i := 1; i < len(pts); i++ {
		d := diff(pts[i-1], pts[i])
		if d.N == 0 {
			continue // a failed point: the failures rule decides
		}
		if d.N < MinValues {
			t.one++
			continue
		}
		up, down := d.Lo > 0, d.Hi < 0
		if kind == Falls {
			up, down = down, up
		}
		switch {
		case up:
			with++
		case down:
			against++
		default:
			t.undecided++
			t.needFor(d, 0)
		}
	}
	t.undecided += t.one
	steps := len(pts) - 1
	switch {
	case failed || against > 0:
		verdict = DoesNotHold
	case with == steps:
		verdict = Holds
	case with > 0:
		verdict = Partly
	default:
		verdict = Inconclusive
	}
	return verdict, fmt.Sprintf("trend: %s at every step, each step's 95 %% CI excluding zero (%d of %d steps; %d significantly the other way)", word, with, steps, against) + t.note()
}

// firstTrend judges Flat and FallsLittle, every point against the first
// (TrendOf).
func firstTrend(kind Trend, tol Tol, failed bool, pts []Point, diff func(a, b Point) Interval) (verdict, rule string) {
	var t tally
	for i := 1; i < len(pts); i++ {
		d := diff(pts[0], pts[i])
		switch {
		case d.N == 0:
			t.add(excluded) // a failed point
		case d.N < MinValues:
			t.one++
			t.add(undecided)
		default:
			t.add(fromFirst(kind, tol.Value, d, &t))
		}
	}
	verdict = t.verdict()
	if failed {
		verdict = DoesNotHold
	}
	if kind == Flat {
		rule = fmt.Sprintf("trend: flat, every point's 95 %% CI of its difference from the first within ±%s", defaultFormat(tol.Value))
	} else {
		rule = fmt.Sprintf("trend: falls little, no point's 95 %% CI of its difference from the first below −%s", defaultFormat(tol.Value))
	}
	return verdict, rule + t.note()
}

// fromFirst is one point's state under Flat or FallsLittle from its
// difference d from the first point; an undecided point's n goes to t.
func fromFirst(kind Trend, tol float64, d Interval, t *tally) state {
	if kind == Flat {
		switch {
		case d.Lo >= -tol && d.Hi <= tol:
			return shown
		case d.Hi < -tol || d.Lo > tol:
			return excluded
		}
		b := tol
		if d.Mean < 0 {
			b = -tol
		}
		if math.Abs(d.Mean) < tol {
			t.needFor(d, b)
		}
		return undecided
	}
	switch {
	case d.Lo >= -tol:
		return shown
	case d.Hi < -tol:
		return excluded
	}
	if d.Mean > -tol {
		t.needFor(d, -tol)
	}
	return undecided
}

// Correlated judges "y rises (Rises) or falls (Falls) with x" over
// unbinned points: Pearson's r with its 95 % interval (Fisher's z) on the
// claimed side of zero holds; wholly on the other side does not hold;
// an interval across zero is inconclusive. Under four points, or with a
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
		Rule: "correlation: r " + word + " with its 95 % CI (Fisher z) excluding zero; the CI wholly on the other side does not hold, across zero is inconclusive"}
	lo, hi := s*iv.Lo, s*iv.Hi
	switch {
	case min(lo, hi) > 0:
		r.Verdict = Holds
	case max(lo, hi) < 0:
		r.Verdict = DoesNotHold
	default:
		r.Verdict = Inconclusive
	}
	return r
}

// Crossing judges "A ahead at the low points, B ahead at the high ones"
// over every point in order: every point is significant one way or the
// other, except at most one point at the crossing, and the signs change
// once, from A to B: holds; some significant point each way, every A
// point before every B point: partly; no point significant either way:
// inconclusive; otherwise (a significant point in the wrong order, or
// one side only) does not hold. A point whose paired interval rests on
// one value is undecided. Never judged on the two end points alone.
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
		case iv.N >= MinValues && iv.Lo > 0:
			s = 1
		case iv.N >= MinValues && iv.Hi < 0:
			s = -1
		}
		signs = append(signs, s)
		parts = append(parts, label(p.Label, "A − B "+FormatInterval(orient(iv, b), defaultFormat)))
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
	lastPlus, firstMinus := -1, slices.Index(signs, -1) // -1: none
	for x, s := range signs {
		if s == 1 {
			lastPlus = x
		}
	}
	switch {
	case i > 0 && k > j && k == len(signs):
		r.Verdict = Holds
	case lastPlus >= 0 && firstMinus >= 0 && lastPlus < firstMinus:
		r.Verdict = Partly
	case lastPlus < 0 && firstMinus < 0:
		r.Verdict = Inconclusive
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
// holds only if all hold, does not hold if every part does not hold or is
// inconclusive with at least one not holding, inconclusive if every part
// is, not measured if none was measured, partly otherwise; unverifiable
// parts are left out of the join. Ours lists the parts.
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
	case counts[Inconclusive] == m:
		out.Verdict = Inconclusive
	case counts[DoesNotHold] > 0 && counts[DoesNotHold]+counts[Inconclusive] == m:
		out.Verdict = DoesNotHold
	default:
		out.Verdict = Partly
	}
	return out
}

// Check is a deterministic claim checked on one hand-made case (a
// paper's own example): no interval and no sample, the check holds or
// it does not.
func Check(ok bool, ours, what string) Result {
	r := Result{Ours: ours, Rule: "check: a deterministic case, " + what + "; no sample, no interval", Verdict: DoesNotHold}
	if ok {
		r.Verdict = Holds
	}
	return r
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

// Table is the report.Table titled Claims.
func (t *Table) Table() report.Table {
	return report.Table{Title: Title, Columns: append([]string(nil), Columns...), Rows: t.rows}
}

// InScope judges a claim about a scope (large graphs, many nodes) only at
// the points inside the scope the sentence names: r is the rule applied
// to those points, n how many there were. Without any it is not
// measured: a claim about large graphs is never judged from small ones.
func InScope(scope string, n int, r Result) Result {
	if n == 0 {
		return Missing("no point at the sentence's own scope (" + scope + "); judged there or not at all")
	}
	r.Rule = "at the sentence's scope (" + scope + ") only: " + r.Rule
	return r
}
