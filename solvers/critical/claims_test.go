package critical

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/solvers/claims"
)

var nan = math.NaN()

// TestTreeRowJudgesCompleteTreesOnly: a cut tree is counted apart, even a
// broken one; one broken complete tree makes the row partly.
func TestTreeRowJudgesCompleteTreesOnly(t *testing.T) {
	ok := treeCount{structure: true}
	if v := treeRow([]treeCount{ok, ok, {cut: true}}).Verdict; v != report.Holds {
		t.Errorf("complete trees all as described: %s", v)
	}
	if v := treeRow([]treeCount{ok, ok, {}}).Verdict; v != report.Partly {
		t.Errorf("one complete tree broken: %s", v)
	}
	r := treeRow([]treeCount{{cut: true, structure: true}})
	if r.Verdict != report.NotMeasured || !strings.Contains(r.Ours, "1 trees cut") {
		t.Errorf("cut trees only: %s, %q", r.Verdict, r.Ours)
	}
}

// TestEnumRowComparesCompleteTreesAndCountsCutApart: pairs are tree
// nodes against DFS paths of the same graphs; a cut tree, however small
// against DFS, is not compared.
func TestEnumRowComparesCompleteTreesAndCountsCutApart(t *testing.T) {
	fewer := enumPoint{label: "random 100", tree: []float64{3, 4, 5}, dfs: []float64{10, 12, 15}}
	more := enumPoint{label: "random 300", tree: []float64{30, 40, 50}, dfs: []float64{10, 12, 15}}
	cut := enumPoint{label: "random 1000", cut: 30, cutFewer: 30, dfsCutMin: 1e9}
	if v := enumRow([]enumPoint{fewer}).Verdict; v != report.Holds {
		t.Errorf("tree fewer on every complete graph: %s", v)
	}
	if v := enumRow([]enumPoint{fewer, more}).Verdict; v != report.Partly {
		t.Errorf("fewer at one group, more at the other: %s", v)
	}
	r := enumRow([]enumPoint{more, cut})
	if r.Verdict != report.DoesNotHold || !strings.Contains(r.Ours, "random 1000: 30 cut") {
		t.Errorf("cut trees must not rescue the claim: %s, %q", r.Verdict, r.Ours)
	}
	// Paired per graph: the same sums with the pairs crossed fail.
	crossed := enumPoint{label: "random 100", tree: []float64{3, 40, 5}, dfs: []float64{10, 12, 15}}
	if v := enumRow([]enumPoint{crossed}).Verdict; v == report.Holds {
		t.Errorf("tree more on one graph of three, CI crossing zero: %s", v)
	}
}

// Issue 40, class 5: "fewer enumerations on graphs of large dimension"
// is judged at that scope only: small graphs where the tree wins do not
// make it hold, and without a complete tree at that scope it is not
// measured; one large group in scope judges it.
func TestEnumRowJudgesOnlyLargeGraphs(t *testing.T) {
	small := enumPoint{label: "random 30", tree: []float64{3, 4, 5}, dfs: []float64{10, 12, 15}}
	wf := enumPoint{label: "workflows", tree: []float64{3, 4, 5}, dfs: []float64{10, 12, 15}}
	cut := enumPoint{label: "random 100", cut: 30, dfsCutMin: 2400}
	r := enumRow([]enumPoint{small, wf, cut})
	if r.Verdict != report.NotMeasured || !strings.Contains(r.Ours, "below the scope") {
		t.Errorf("small graphs only: %s, %q", r.Verdict, r.Ours)
	}
	large := enumPoint{label: "random 100", tree: []float64{3, 4, 5}, dfs: []float64{10, 12, 15}}
	if r := enumRow([]enumPoint{small, large}); r.Verdict != report.Holds || !strings.Contains(r.Rule, "large dimension") {
		t.Errorf("at scope: %s, %q", r.Verdict, r.Rule)
	}
}

// Issue 40, class 6: the criterion sentence compares nothing: its row is
// unverifiable whether critical-works beats HEFT or not, and the success
// rate is a row of its own; Fig. 2 is a deterministic check.
func TestCriterionRowIsADescription(t *testing.T) {
	heft := []float64{0.3, 0.4, 0.5, 0.35}
	for _, a := range [][]float64{{0.5, 0.6, 0.7, 0.55}, {0.1, 0.1, nan, nan}} {
		tb := ClaimsTable(ClaimInputs{Load: []claims.Pair{{Label: "×2", A: a, B: heft}}})
		var crit, rate []any
		for _, row := range tb.Rows {
			if strings.HasPrefix(row[0].(string), "Criterion: the planner") {
				crit = row
			}
			if strings.Contains(row[0].(string), "success rate") {
				rate = row
			}
		}
		if crit == nil || crit[3] != report.Unverifiable || !strings.Contains(crit[2].(string), "HEFT") {
			t.Errorf("criterion row: %v", crit)
		}
		k := 4
		if math.IsNaN(a[2]) {
			k = 2
		}
		if rate == nil || !strings.Contains(rate[2].(string), fmt.Sprintf("×2: %d of 4 solved", k)) {
			t.Errorf("success rate row: %v", rate)
		}
	}
	fig2 := func(h, n int) any {
		tb := ClaimsTable(ClaimInputs{Reps: RepsResult{Fig2Heuristic: h, Fig2Naive: n}})
		for _, row := range tb.Rows {
			if strings.HasPrefix(row[0].(string), "Fig. 2") {
				return row[3]
			}
		}
		return nil
	}
	if v := fig2(0, 1); v != report.Holds {
		t.Errorf("Fig. 2 heuristic 0, naive 1: %v", v)
	}
	if v := fig2(1, 1); v != report.DoesNotHold {
		t.Errorf("Fig. 2 heuristic 1, naive 1: %v", v)
	}
}

// TestOccursRowSplitsAtTheCriticalWorkLength: stops at deadlines below
// the critical-work length are counted apart and do not make the row hold.
func TestOccursRowSplitsAtTheCriticalWorkLength(t *testing.T) {
	stop := func(c reproCell) bool { return c.stopped }
	below := []reproCell{{stopped: true, belowCW: true}, {stopped: true, belowCW: true}, {}}
	r := occursRow(below, "stopped", stop)
	if r.Verdict != report.DoesNotHold || !strings.Contains(r.Ours, "2 of 2") || !strings.Contains(r.Ours, "0 of 1") {
		t.Errorf("stops only below the critical-work length: %s, %q", r.Verdict, r.Ours)
	}
	if v := occursRow(append(below, reproCell{stopped: true}), "stopped", stop).Verdict; v != report.Holds {
		t.Errorf("one stop at a feasible deadline: %s", v)
	}
}

// TestLoadRowCountsFailures: critical-works' higher load on the graphs it
// solved does not hold at a factor where it solved at most half.
func TestLoadRowCountsFailures(t *testing.T) {
	heft := []float64{0.3, 0.4, 0.5, 0.35}
	solved := claims.Pair{Label: "×2", A: []float64{0.5, 0.6, 0.7, 0.55}, B: heft}
	half := claims.Pair{Label: "×1", A: []float64{0.5, 0.6, nan, nan}, B: heft}
	if v := loadRow([]claims.Pair{solved}).Verdict; v != report.Holds {
		t.Errorf("higher on every graph: %s", v)
	}
	r := loadRow([]claims.Pair{half, solved})
	if r.Verdict != report.Partly || !strings.Contains(r.Ours, "A 2 of 4 solved") {
		t.Errorf("2 of 4 solved at ×1: %s, %q", r.Verdict, r.Ours)
	}
}

// TestRepsRowPairsPerGraph: the heuristic's and the naive choice's
// counts are compared graph by graph.
func TestRepsRowPairsPerGraph(t *testing.T) {
	r := RepresentativesExperiment(40, 1)
	if len(r.HeuristicPer) != 40 || len(r.NaivePer) != 40 {
		t.Fatalf("per-graph counts: %d, %d", len(r.HeuristicPer), len(r.NaivePer))
	}
	worse := RepsResult{Graphs: 3, HeuristicPer: []float64{2, 2, 2}, NaivePer: []float64{1, 1, 1}}
	if v := repsRow(worse).Verdict; v != report.DoesNotHold {
		t.Errorf("heuristic worse on every graph: %s", v)
	}
	better := RepsResult{Graphs: 3, HeuristicPer: []float64{0, 0, 1}, NaivePer: []float64{1, 1, 2}}
	if v := repsRow(better).Verdict; v != report.Holds {
		t.Errorf("heuristic better on every graph: %s", v)
	}
}
