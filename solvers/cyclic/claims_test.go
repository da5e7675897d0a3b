package cyclic

import "testing"

// Each verdict rule flips where its numbers cross its threshold.
func TestVerdictRules(t *testing.T) {
	check := func(name, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	check("all", verdictAll(true, true), Holds)
	check("some", verdictAll(true, false), Partly)
	check("none", verdictAll(false, false), DoesNotHold)

	check("level in", verdictLevel(124, 100, 1.25, 2), Holds)
	check("level loose", verdictLevel(126, 100, 1.25, 2), Partly)
	check("level low loose", verdictLevel(51, 100, 1.25, 2), Partly)
	check("level out", verdictLevel(49, 100, 1.25, 2), DoesNotHold)
	check("level no paper", verdictLevel(1, 0, 1.25, 2), NotMeasured)

	paper := []float64{-23.6, -21.9}
	check("gains close", verdictGains([]float64{-30, -20}, paper, 10), Holds)
	check("gains far", verdictGains([]float64{-34, -20}, paper, 10), Partly)
	check("gains sign", verdictGains([]float64{-30, 1}, paper, 10), DoesNotHold)

	check("k few 2", verdictBestK(2, "few"), Holds)
	check("k few 3", verdictBestK(3, "few"), Partly)
	check("k few 6", verdictBestK(6, "few"), DoesNotHold)
	check("k many 10", verdictBestK(10, "many"), Holds)
	check("k many 5", verdictBestK(5, "many"), Partly)
	check("k many 3", verdictBestK(3, "many"), DoesNotHold)

	check("peak 1.25", verdictPeak(1.25), Holds)
	check("peak 1.5", verdictPeak(1.5), Partly)
	check("peak 0.25", verdictPeak(0.25), DoesNotHold)

	check("falls", verdictFalls([]float64{10, 9, 9.1, 5}, 0.02), Holds)
	check("falls with a bump", verdictFalls([]float64{10, 9, 9.5, 5}, 0.02), Partly)
	check("rises", verdictFalls([]float64{5, 9, 10}, 0.02), DoesNotHold)

	check("lead grows", verdictLead(26.2, 27.5), Holds)
	check("lead shrinks", verdictLead(16.2, 15.5), Partly)
	check("lead lost", verdictLead(16.2, -1), DoesNotHold)

	check("closer .25", verdictCloser(25, 0, 100), Holds)
	check("closer .5", verdictCloser(50, 0, 100), Partly)
	check("closer .6", verdictCloser(60, 0, 100), DoesNotHold)

	check("share all", verdictShare(24, 24), Holds)
	check("share half", verdictShare(12, 24), Partly)
	check("share less", verdictShare(11, 24), DoesNotHold)

	check("cross", verdictCross(-5, 3), Holds)
	check("wins everywhere", verdictCross(2, 3), Partly)
	check("reversal", verdictCross(-5, -1), DoesNotHold)

	check("worst", worst(Holds, Partly, Holds), Partly)
	check("worst none", worst(Holds, DoesNotHold, Partly), DoesNotHold)
}

// The part rules read the right numbers: a Table 3 whose fair-share lead
// shrinks under early completion is partly, one that grows holds.
func TestTable3Claims(t *testing.T) {
	rows := [3]t3Row{{100, 60, 60, 30}, {90, 54, 280, 280}, {80, 48.5, 220, 220}}
	var c Claims
	c.table3(rows)
	if c.by["t3lead"] != Partly { // 20 % planned → 19.2 % actual
		t.Errorf("t3lead %q", c.by["t3lead"])
	}
	if c.by["t3order"] != Holds || c.by["t3start"] != Holds || c.by["t3ratio"] != Holds {
		t.Errorf("order %q start %q ratio %q", c.by["t3order"], c.by["t3start"], c.by["t3ratio"])
	}
	rows[2].procAct = 47
	c = Claims{}
	c.table3(rows)
	if c.by["t3lead"] != Holds {
		t.Errorf("t3lead %q after the lead grew", c.by["t3lead"])
	}
}

// The node study's crossing: backfilling best at few nodes and CSS+shift
// best at many holds; backfilling best everywhere is a reversal.
func TestNodeStudyCrossing(t *testing.T) {
	mk := func(shiftF []float64, bfF []float64) [][]studyPoint {
		pts := make([][]studyPoint, 4)
		for m := range pts {
			for i := range studyNodes {
				f := 300.0
				switch m {
				case 1:
					f = shiftF[i]
				case 3:
					f = bfF[i]
				}
				pts[m] = append(pts[m], studyPoint{start: 100, proc: 150, f: f, finish: f})
			}
		}
		return pts
	}
	n := len(studyNodes)
	down, flat := make([]float64, n), make([]float64, n)
	for i := range n {
		down[i] = 250 - 20*float64(i) // CSS+shift improves with the nodes
		flat[i] = 200
	}
	var c Claims
	c.nodeStudy(mk(down, flat), 600)
	if c.by["f7many"] != Holds || c.by["f7few"] != Holds {
		t.Errorf("crossing: many %q few %q", c.by["f7many"], c.by["f7few"])
	}
	c = Claims{}
	up := make([]float64, n)
	for i := range up {
		up[i] = 250
	}
	c.nodeStudy(mk(up, flat), 600)
	if c.by["f7many"] != DoesNotHold {
		t.Errorf("reversal read as %q", c.by["f7many"])
	}
}
