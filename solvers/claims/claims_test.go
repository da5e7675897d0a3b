package claims

import (
	"math"
	"strings"
	"testing"
)

var nan = math.NaN()

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestMeanCIByHand(t *testing.T) {
	// {1, 2, 3}: mean 2, s = 1, t(0.975, 2) = 4.302653, h = 4.302653/√3.
	iv := MeanCI([]float64{1, 2, 3, nan})
	h := 4.302653 / math.Sqrt(3)
	if iv.N != 3 || !near(iv.Mean, 2, 1e-12) || !near(iv.Lo, 2-h, 1e-5) || !near(iv.Hi, 2+h, 1e-5) {
		t.Fatalf("MeanCI = %+v, want 2 ± %.6f over 3", iv, h)
	}
	if one := MeanCI([]float64{5}); one.N != 1 || FormatInterval(one, defaultFormat) != "5 (1 value: no interval)" {
		t.Fatalf("one value is written as a value, got %+v %q", one, FormatInterval(one, defaultFormat))
	}
	if none := MeanCI([]float64{nan}); none.N != 0 {
		t.Fatalf("no value: N = %d", none.N)
	}
}

func TestPairedCIUsesOnlyBothSolved(t *testing.T) {
	// Differences 1, 2, 3 (the NaN pair is left out).
	iv := PairedCI([]float64{2, 4, 6, nan, 9}, []float64{1, 2, 3, 1, nan})
	if iv.N != 3 || !near(iv.Mean, 2, 1e-12) {
		t.Fatalf("PairedCI = %+v", iv)
	}
}

func TestWelchCIByHand(t *testing.T) {
	// a = {1,2,3} (var 1), b = {4,6,8} (var 4): d = 4, se² = 1/3 + 4/3 = 5/3,
	// df = (5/3)² / ((1/3)²/2 + (4/3)²/2) = 2.7778/0.9444 = 2.9412.
	iv := WelchCI([]float64{1, 2, 3}, []float64{4, 6, 8})
	df := (25.0 / 9) / ((1.0/9)/2 + (16.0/9)/2)
	h := tq(df) * math.Sqrt(5.0/3)
	if !near(iv.Mean, 4, 1e-12) || !near(iv.Hi-iv.Mean, h, 1e-9) {
		t.Fatalf("WelchCI = %+v, want 4 ± %.4f (df %.4f)", iv, h, df)
	}
	// t(0.975, 2.94) lies between t(2) = 4.303 and t(3) = 3.182.
	if q := tq(df); q < 3.182 || q > 4.303 {
		t.Fatalf("t quantile %.4f outside [3.182, 4.303]", q)
	}
}

func TestPearsonFisherByHand(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	ys := []float64{2, 1, 4, 3, 5}
	// r = 0.8; z = atanh 0.8 = 1.0986; h = 1.96/√2 = 1.3859.
	iv, ok := Pearson(xs, ys)
	if !ok || !near(iv.Mean, 0.8, 1e-12) || !near(iv.Lo, math.Tanh(1.0986123-1.3859), 1e-3) || !near(iv.Hi, math.Tanh(1.0986123+1.3859), 1e-3) {
		t.Fatalf("Pearson = %+v", iv)
	}
	if _, ok := Pearson(xs[:3], ys[:3]); ok {
		t.Fatal("three points must not give a correlation")
	}
}

func TestLevelFlipsAtTolerance(t *testing.T) {
	pt := Point{"20 jobs", []float64{1.0, 1.0}}
	if r := Level(1.04, Printed(1), pt); r.Verdict != Holds {
		t.Fatalf("1.0 vs 1.04 at ±0.05: %s", r.Verdict)
	}
	if r := Level(1.06, Printed(1), pt); r.Verdict != DoesNotHold {
		t.Fatalf("1.0 vs 1.06 at ±0.05: %s", r.Verdict)
	}
	// The interval counts: {0.9, 1.1} has a wide interval that meets 1.5.
	wide := Point{"", []float64{0.9, 1.1}}
	if r := Level(1.5, Paper(0, ""), wide); r.Verdict != Holds {
		t.Fatalf("paper inside our CI: %s (%s)", r.Verdict, r.Ours)
	}
	if r := Level(2.5, Paper(0, ""), wide); r.Verdict != DoesNotHold {
		t.Fatalf("paper outside our CI: %s (%s)", r.Verdict, r.Ours)
	}
	// A tolerance of ours caps at partly and says so.
	r := Level(1.04, Ours(0.05, "±5 % of the level"), pt)
	if r.Verdict != Partly || !strings.Contains(r.Rule, "threshold ours (±5 % of the level)") {
		t.Fatalf("ours caps: %+v", r)
	}
	// Some points: partly; one of two.
	r = Level(1.0, Printed(2), Point{"a", []float64{1.0, 1.0}}, Point{"b", []float64{2.0, 2.0}})
	if r.Verdict != Partly {
		t.Fatalf("one of two points: %s", r.Verdict)
	}
}

func TestFailuresCount(t *testing.T) {
	// Half failed: the mean of the solved ones is exact, yet it does not hold.
	half := Point{"50 jobs", []float64{0.99, 0.99, nan, nan}}
	r := AtLeast(0.95, Paper(0, ""), half)
	if r.Verdict != DoesNotHold || !strings.Contains(r.Ours, "2 of 4 solved") {
		t.Fatalf("2 of 4 solved: %+v", r)
	}
	more := Point{"50 jobs", []float64{0.99, 0.99, 0.99, nan}}
	if r := AtLeast(0.95, Paper(0, ""), more); r.Verdict != Holds {
		t.Fatalf("3 of 4 solved: %+v", r)
	}
	if r := Level(0.99, Printed(2), half); r.Verdict != DoesNotHold {
		t.Fatalf("level with half failed: %s", r.Verdict)
	}
	// Direction: A failing on more than half fails the point.
	p := Pair{"", []float64{5, nan, nan}, []float64{1, 1, 1}}
	if r := Direction(HigherBetter, Paper(0, ""), p); r.Verdict != DoesNotHold {
		t.Fatalf("direction with A solving 1 of 3: %s", r.Verdict)
	}
}

func TestBoundNeedsTheWholeInterval(t *testing.T) {
	// Mean 0.96 ≥ 0.95 but the interval reaches below: not shown, not
	// excluded either.
	wobbly := Point{"", []float64{0.93, 0.99}}
	if r := AtLeast(0.95, Paper(0, ""), wobbly); r.Verdict != Inconclusive {
		t.Fatalf("interval below the bound: %s (%s)", r.Verdict, r.Ours)
	}
	tight := Point{"", []float64{0.96, 0.961, 0.962}}
	if r := AtLeast(0.95, Paper(0, ""), tight); r.Verdict != Holds {
		t.Fatalf("interval above: %s (%s)", r.Verdict, r.Ours)
	}
	if r := AtMost(0.95, Paper(0, ""), tight); r.Verdict != DoesNotHold {
		t.Fatalf("at most: %s", r.Verdict)
	}
	if r := AtMost(0.97, Paper(0, ""), tight); r.Verdict != Holds {
		t.Fatalf("at most 0.97: %s", r.Verdict)
	}
}

func TestDirectionAtEveryPoint(t *testing.T) {
	ahead := Pair{"10", []float64{3, 4, 5}, []float64{1, 2, 3.1}}    // d = 2, 2, 1.9
	even := Pair{"100", []float64{3, 4, 5}, []float64{2, 5, 4.9}}    // d = 1, −1, 0.1
	behind := Pair{"1000", []float64{1, 2, 3}, []float64{3, 4, 5.1}} // d = −2, −2, −2.1
	if r := Direction(HigherBetter, Paper(0, ""), ahead); r.Verdict != Holds {
		t.Fatalf("ahead: %s", r.Verdict)
	}
	if r := Direction(HigherBetter, Paper(0, ""), ahead, even); r.Verdict != Partly {
		t.Fatalf("ahead, even: %s", r.Verdict)
	}
	if r := Direction(HigherBetter, Paper(0, ""), even, behind); r.Verdict != DoesNotHold {
		t.Fatalf("even, behind: %s", r.Verdict)
	}
	// Lower is better: behind becomes ahead.
	if r := Direction(LowerBetter, Paper(0, ""), behind); r.Verdict != Holds {
		t.Fatalf("lower better: %s", r.Verdict)
	}
	// A margin: d ≈ 2 clears 1.5, not 2.5.
	if r := Direction(HigherBetter, Paper(1.5, "the paper's 1.5"), ahead); r.Verdict != Holds {
		t.Fatalf("margin 1.5: %s", r.Verdict)
	}
	if r := Direction(HigherBetter, Paper(2.5, ""), ahead); r.Verdict != DoesNotHold {
		t.Fatalf("margin 2.5: %s", r.Verdict)
	}
	// One pair is no interval: undecided, whichever way it points.
	if r := Direction(HigherBetter, Paper(0, ""), Pair{"", []float64{1.01}, []float64{1}}); r.Verdict != Inconclusive {
		t.Fatalf("single value ahead: %s", r.Verdict)
	}
	// Ties on every instance: the interval is zero, at the margin: excluded.
	if r := Direction(HigherBetter, Paper(0, ""), Pair{"", []float64{1, 2}, []float64{1, 2}}); r.Verdict != DoesNotHold {
		t.Fatalf("tie: %s", r.Verdict)
	}
}

func TestTrendNeverOnEndPointsAlone(t *testing.T) {
	p := func(l string, v ...float64) Point { return Point{l, v} }
	rising := []Point{p("1", 1, 1.1, 0.9), p("2", 2, 2.1, 1.9), p("3", 3, 3.1, 2.9)}
	if r := TrendOf(Rises, Tol{}, false, rising...); r.Verdict != Holds {
		t.Fatalf("rising: %s (%s)", r.Verdict, r.Rule)
	}
	if r := TrendOf(Falls, Tol{}, false, rising...); r.Verdict != DoesNotHold {
		t.Fatalf("rising judged as falls: %s", r.Verdict)
	}
	// Up, down, up: the end points rise, the trend does not.
	zig := []Point{p("1", 1, 1.1, 0.9), p("2", 3, 3.1, 2.9), p("3", 2, 2.1, 1.9), p("4", 4, 4.1, 3.9)}
	if r := TrendOf(Rises, Tol{}, false, zig...); r.Verdict != DoesNotHold {
		t.Fatalf("zigzag: %s", r.Verdict)
	}
	// A step not shown (overlapping noise), none against: partly.
	noisy := []Point{p("1", 1, 1.1, 0.9), p("2", 2, 2.1, 1.9), p("3", 2.1, 3, 1.3)}
	if r := TrendOf(Rises, Tol{}, false, noisy...); r.Verdict != Partly {
		t.Fatalf("one step unclear: %s (%s)", r.Verdict, r.Rule)
	}
	// Paired steps: the same instances rise by 0.1 each time.
	paired := []Point{p("1", 1, 5, 9), p("2", 1.1, 5.1, 9.1), p("3", 1.2, 5.2, 9.2)}
	if r := TrendOf(Rises, Tol{}, true, paired...); r.Verdict != Holds {
		t.Fatalf("paired rise: %s", r.Verdict)
	}
	if r := TrendOf(Rises, Tol{}, false, paired...); r.Verdict == Holds {
		t.Fatalf("unpaired, the spread hides the rise: %s", r.Verdict)
	}
	// A failing point fails the trend.
	failing := []Point{p("1", 1, 1.1, 0.9), p("2", 2, nan, nan)}
	if r := TrendOf(Rises, Tol{}, false, failing...); r.Verdict != DoesNotHold {
		t.Fatalf("failing point: %s", r.Verdict)
	}
}

func TestFlatAndFallsLittle(t *testing.T) {
	p := func(l string, v ...float64) Point { return Point{l, v} }
	pts := []Point{p("20", 0.99, 0.99), p("30", 0.98, 0.98), p("50", 0.96, 0.96)}
	if r := TrendOf(FallsLittle, Ours(0.05, "a drop of 0.05"), false, pts...); r.Verdict != Partly {
		t.Fatalf("drop 0.03 ≤ 0.05, ours caps: %s", r.Verdict)
	}
	if r := TrendOf(FallsLittle, Paper(0.02, ""), false, pts...); r.Verdict != Partly {
		t.Fatalf("30 holds, 50 drops 0.03 > 0.02: %s", r.Verdict)
	}
	if r := TrendOf(FallsLittle, Paper(0.005, ""), false, pts...); r.Verdict != DoesNotHold {
		t.Fatalf("both drop more than 0.005: %s", r.Verdict)
	}
	up := []Point{p("20", 0.9, 0.9), p("50", 0.99, 0.99)}
	if r := TrendOf(FallsLittle, Paper(0.01, ""), false, up...); r.Verdict != Holds {
		t.Fatalf("a rise is no fall: %s", r.Verdict)
	}
	if r := TrendOf(Flat, Paper(0.01, ""), false, up...); r.Verdict != DoesNotHold {
		t.Fatalf("a rise of 0.09 is not flat at ±0.01: %s", r.Verdict)
	}
}

func TestCorrelated(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	down := []float64{8, 7.5, 6, 5.2, 4, 3.1, 2, 1}
	if r := Correlated(Falls, xs, down); r.Verdict != Holds {
		t.Fatalf("strong fall: %+v", r)
	}
	if r := Correlated(Rises, xs, down); r.Verdict != DoesNotHold {
		t.Fatalf("fall judged as rise: %+v", r)
	}
	weak := []float64{5, 4, 6, 3, 5, 4, 5, 3.5}
	if r := Correlated(Falls, xs, weak); r.Verdict != Inconclusive {
		t.Fatalf("weak negative r: %+v", r)
	}
	if r := Correlated(Falls, xs[:3], down[:3]); r.Verdict != NotMeasured {
		t.Fatalf("three points: %+v", r)
	}
}

func TestCrossingOverEveryPoint(t *testing.T) {
	a := func(d float64) Pair { return Pair{"", []float64{1 + d, 2 + d, 3 + d}, []float64{1, 2, 3.01}} }
	// A ahead, ahead, undecided, B ahead: holds.
	if r := Crossing(HigherBetter, a(1), a(1), Pair{"", []float64{1, 2, 3}, []float64{1.1, 1.9, 3}}, a(-1)); r.Verdict != Holds {
		t.Fatalf("clean crossing: %s", r.Verdict)
	}
	// B ahead everywhere but at the last point: the end points cross, the curves do not.
	if r := Crossing(HigherBetter, a(-1), a(-1), a(-1), a(1)); r.Verdict != DoesNotHold {
		t.Fatalf("B then A: %s", r.Verdict)
	}
	// A, two undecided, B: partly.
	u := Pair{"", []float64{1, 2, 3}, []float64{1.1, 1.9, 3}}
	if r := Crossing(HigherBetter, a(1), u, u, a(-1)); r.Verdict != Partly {
		t.Fatalf("two undecided: %s", r.Verdict)
	}
	// No B point: does not hold.
	if r := Crossing(HigherBetter, a(1), a(1)); r.Verdict != DoesNotHold {
		t.Fatalf("no crossing: %s", r.Verdict)
	}
}

func TestShare(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want string
	}{{10, 10, Holds}, {9, 10, Partly}, {6, 10, Partly}, {5, 10, DoesNotHold}, {0, 10, DoesNotHold}, {0, 0, NotMeasured}} {
		if got := Share(c.k, c.n).Verdict; got != c.want {
			t.Errorf("Share(%d, %d) = %s, want %s", c.k, c.n, got, c.want)
		}
	}
}

func TestCombine(t *testing.T) {
	h, p, d, m, u := Result{Verdict: Holds}, Result{Verdict: Partly}, Result{Verdict: DoesNotHold}, Result{Verdict: NotMeasured}, Result{Verdict: Unverifiable}
	for _, c := range []struct {
		rs   []Result
		want string
	}{
		{[]Result{h, h}, Holds}, {[]Result{h, p}, Partly}, {[]Result{h, d}, Partly}, {[]Result{d, d}, DoesNotHold},
		{[]Result{m, m}, NotMeasured}, {[]Result{h, u}, Holds}, {[]Result{u, u}, Unverifiable}, {[]Result{d, m}, Partly},
	} {
		if got := Combine(nil, c.rs...).Verdict; got != c.want {
			t.Errorf("Combine(%v) = %s, want %s", c.rs, got, c.want)
		}
	}
}

func TestTableWritesTheRuleIntoEvidence(t *testing.T) {
	var tb Table
	tb.Add("Fig. 3: accuracy ≥ 0.95", "≥ 0.95", AtLeast(0.95, Paper(0, ""), Point{"20", []float64{1, 1}}), "Accuracy vs jobs")
	tb.Add("Fig. 6", "no value", Unmeasurable("0.8", "the figure prints no value"), "")
	got := tb.Table()
	if got.Title != "Claims" || len(got.Rows) != 2 || len(got.Columns) != 5 {
		t.Fatalf("table: %+v", got)
	}
	if ev := got.Rows[0][4].(string); !strings.HasPrefix(ev, "Accuracy vs jobs · rule: bound") {
		t.Fatalf("evidence %q", ev)
	}
	if got.Rows[1][3] != Unverifiable {
		t.Fatalf("verdict %v", got.Rows[1][3])
	}
}
