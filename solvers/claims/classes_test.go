package claims

import (
	"strings"
	"testing"
)

// One test per class of issue 40, each with a case on either side of its
// boundary.

// Class 1: one run is no interval. One value leaves the point undecided
// (never "does not hold", never "holds"); two values give an interval,
// and the row says how many values it rests on.
func TestClass1OneValueIsNoInterval(t *testing.T) {
	one := Point{"load 10 %", []float64{1.0016}}
	r := Level(1, Paper(0, ""), one)
	if r.Verdict != Inconclusive || !strings.Contains(r.Ours, "1 value: no interval") || strings.Contains(r.Ours, "[") {
		t.Fatalf("one value: %+v", r)
	}
	r = TrendOf(Falls, Tol{}, false, Point{"a", []float64{0.99}}, Point{"b", []float64{0.9916}})
	if r.Verdict != Inconclusive {
		t.Fatalf("a one-run step judged: %+v", r)
	}
	two := Point{"load 10 %", []float64{1.0016, 1.0018}}
	r = Level(1, Paper(0, ""), two)
	if r.Verdict != DoesNotHold || !strings.Contains(r.Ours, "(n = 2)") {
		t.Fatalf("two values, interval away from 1: %+v", r)
	}
	r = TrendOf(Falls, Tol{}, false, Point{"a", []float64{0.99, 0.9901}}, Point{"b", []float64{0.9916, 0.9917}})
	if r.Verdict != DoesNotHold {
		t.Fatalf("two seeds each, a significant rise against falls: %+v", r)
	}
}

// Class 2: an interval that straddles the claim is inconclusive; one
// that excludes it does not hold.
func TestClass2InconclusiveIsNotRefuted(t *testing.T) {
	straddle := Pair{"γ 1.2", []float64{1.01, 0.98, 1.03, 0.99}, []float64{1, 1, 1, 1}}
	r := Direction(HigherBetter, Tol{}, straddle)
	if r.Verdict != Inconclusive || !strings.Contains(r.Rule, "would decide") {
		t.Fatalf("straddling: %+v", r)
	}
	against := Pair{"γ 1.2", []float64{0.9, 0.91, 0.89, 0.9}, []float64{1, 1, 1, 1}}
	if r := Direction(HigherBetter, Tol{}, against); r.Verdict != DoesNotHold {
		t.Fatalf("excluded: %+v", r)
	}
	// Flat within ±5 %: noise of ±6 % around the same mean cannot pass
	// nor fail; a shift of 20 % with the same noise fails; a tight one passes.
	p := func(l string, v ...float64) Point { return Point{l, v} }
	base := p("BaS", 1, 1.06, 0.94, 1.05, 0.95)
	if r := TrendOf(Flat, Paper(0.05, ""), false, base, p("Rand", 1.01, 1.07, 0.95, 1.06, 0.96)); r.Verdict != Inconclusive {
		t.Fatalf("noise wider than the band: %+v", r)
	}
	if r := TrendOf(Flat, Paper(0.05, ""), false, base, p("Rand", 1.2, 1.26, 1.14, 1.25, 1.15)); r.Verdict != DoesNotHold {
		t.Fatalf("shifted by 0.2: %+v", r)
	}
	if r := TrendOf(Flat, Paper(0.05, ""), false, p("BaS", 1, 1.001, 0.999), p("Rand", 1.01, 1.011, 1.009)); r.Verdict != Holds {
		t.Fatalf("tight and within: %+v", r)
	}
	// Points: one shown, one undecided is partly; one excluded, one
	// undecided does not hold; both undecided is inconclusive.
	shown := Pair{"", []float64{2, 2.1, 1.9}, []float64{1, 1, 1}}
	if v := Direction(HigherBetter, Tol{}, shown, straddle).Verdict; v != Partly {
		t.Fatalf("shown + undecided: %s", v)
	}
	if v := Direction(HigherBetter, Tol{}, against, straddle).Verdict; v != DoesNotHold {
		t.Fatalf("excluded + undecided: %s", v)
	}
	if v := Direction(HigherBetter, Tol{}, straddle, straddle).Verdict; v != Inconclusive {
		t.Fatalf("undecided twice: %s", v)
	}
}

// Class 3: a published mean over n instances is a sample. Our mean 0.25
// away from it with a spread of 1 on both sides is consistent as two
// samples, though the paper's value taken as exact lies outside our
// interval; 1.5 away it is excluded either way.
func TestClass3PaperMeanIsASample(t *testing.T) {
	ours := make([]float64, 100)
	for i := range ours {
		ours[i] = 10.25 + []float64{-1, 1}[i%2]*1.0
	}
	pt := Point{"γ 1.2", ours}
	if r := Level(10, Printed(2), pt); r.Verdict != DoesNotHold {
		t.Fatalf("taken as exact, 10 lies outside ours: %+v", r)
	}
	paper := PaperMean{Mean: 10, N: 100, SD: 1, From: "the authors' per-instance values"}
	if r := LevelMean(paper, Printed(2), pt); r.Verdict != Holds || !strings.Contains(r.Rule, "n = 100") {
		t.Fatalf("two samples: %+v", r)
	}
	far := PaperMean{Mean: 8.8, N: 100, SD: 1, From: "x"}
	if r := LevelMean(far, Printed(2), pt); r.Verdict != DoesNotHold {
		t.Fatalf("1.5 apart: %+v", r)
	}
	unknown := PaperMean{Mean: 10, N: 100, SD: nan, From: "not printed"}
	if r := LevelMean(unknown, Printed(2), pt); r.Verdict != DoesNotHold || !strings.Contains(r.Rule, "taken as exact") {
		t.Fatalf("spread unknown: %+v", r)
	}
}

// Class 4: a range in the paper is a level against the range. Both
// means inside 0.93–1 with a low end below 0.925 holds (AtLeast would
// not); an interval wholly below the range does not hold.
func TestClass4RangeIsALevel(t *testing.T) {
	inside := Point{"20 jobs", []float64{1, 0.86, 1, 0.9, 0.98, 0.88, 1, 0.97, 0.9, 0.95}}
	if r := AtLeast(0.925, Printed(2), inside); r.Verdict == Holds {
		t.Fatalf("as a bound the low end fails: %+v", r)
	}
	if r := Range(0.93, 1, Printed(2), inside); r.Verdict != Holds || !strings.Contains(r.Rule, "range") {
		t.Fatalf("as a range: %+v", r)
	}
	below := Point{"50 jobs", []float64{0.85, 0.86, 0.84, 0.85}}
	if r := Range(0.93, 1, Printed(2), below); r.Verdict != DoesNotHold {
		t.Fatalf("below the range: %+v", r)
	}
}

// Class 5: a claim about a scope is judged at that scope or not measured.
func TestClass5Scope(t *testing.T) {
	small := Direction(LowerBetter, Tol{}, Pair{"10 tasks", []float64{1, 2, 3}, []float64{5, 6, 7}})
	if r := InScope("large graphs", 0, small); r.Verdict != NotMeasured {
		t.Fatalf("no large graph: %+v", r)
	}
	if r := InScope("large graphs", 1, small); r.Verdict != Holds || !strings.HasPrefix(r.Rule, "at the sentence's scope") {
		t.Fatalf("at scope: %+v", r)
	}
}

// Class 6: a sentence that names a criterion compares nothing: it is
// unverifiable whatever the comparison with another method says, and a
// claim that compares is judged.
func TestClass6DescriptionIsNoComparison(t *testing.T) {
	cmp := Direction(HigherBetter, Tol{}, Pair{"", []float64{1, 1.1, 0.9}, []float64{2, 2.1, 1.9}})
	if cmp.Verdict != DoesNotHold {
		t.Fatalf("the comparison: %+v", cmp)
	}
	if r := Unmeasurable(cmp.Ours, "the sentence names the criterion, it compares nothing"); r.Verdict != Unverifiable {
		t.Fatalf("description: %+v", r)
	}
	if r := Check(true, "0 vs 1", "Fig. 2"); r.Verdict != Holds {
		t.Fatalf("check: %+v", r)
	}
	if r := Check(false, "1 vs 1", "Fig. 2"); r.Verdict != DoesNotHold {
		t.Fatalf("check: %+v", r)
	}
}

// Class 7: a tolerance of ours caps only in a rule that applies it.
func TestClass7NoCapARuleDoesNotApply(t *testing.T) {
	ours := Ours(0.1, "timing noise")
	rising := []Point{{"1", []float64{1, 1.1, 0.9}}, {"2", []float64{2, 2.1, 1.9}}}
	if r := TrendOf(Rises, ours, false, rising...); r.Verdict != Holds || !strings.Contains(r.Rule, "not used by this rule") {
		t.Fatalf("rises applies no tolerance: %+v", r)
	}
	ahead := Pair{"", []float64{2, 2.1, 1.9}, []float64{1, 1, 1}}
	if r := Direction(HigherBetter, ours, ahead); r.Verdict != Partly || !strings.Contains(r.Rule, "caps the verdict") {
		t.Fatalf("a margin of ours applied caps: %+v", r)
	}
}

func TestSampleSD(t *testing.T) {
	if sd, n := SampleSD([]float64{1, 2, 3, nan}); n != 3 || !near(sd, 1, 1e-12) {
		t.Fatalf("sd %v over %d", sd, n)
	}
	if sd, n := SampleSD([]float64{1}); n != 1 || sd == sd {
		t.Fatalf("one value has no sd: %v", sd)
	}
}

// A point that failed everywhere is not "one value": the failures rule
// decides it, and the note does not call it undecided.
func TestFailedPointIsNotUndecided(t *testing.T) {
	r := TrendOf(FallsLittle, Paper(0.05, ""), false, Point{"20", []float64{1, 1}}, Point{"30", []float64{nan, nan}})
	if r.Verdict != DoesNotHold || strings.Contains(r.Rule, "undecided") {
		t.Fatalf("failed point: %+v", r)
	}
}
