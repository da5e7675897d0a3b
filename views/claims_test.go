package views

import (
	"slices"
	"testing"

	"schedlab/solvers"
)

// The reproduce card counts every verdict of the shared rule set, in the
// order strongest first, inconclusive before does not hold (it refutes
// nothing), unverifiable before not measured.
func TestClaimCountsOrderEveryVerdict(t *testing.T) {
	rows := [][]any{}
	for _, v := range []string{solvers.NotMeasured, solvers.Unverifiable, solvers.Holds, solvers.DoesNotHold, solvers.Partly, solvers.Holds, solvers.Inconclusive, "odd"} {
		rows = append(rows, []any{"c", "p", "o", v, "e"})
	}
	r := &solvers.Report{Tables: []solvers.Table{{Title: "Claims", Columns: []string{"claim", "paper", "ours", "verdict", "evidence"}, Rows: rows}}}
	got := claimCounts(r)
	want := []VerdictCount{{solvers.Holds, 2}, {solvers.Partly, 1}, {solvers.Inconclusive, 1}, {solvers.DoesNotHold, 1}, {solvers.Unverifiable, 1}, {solvers.NotMeasured, 1}, {"odd", 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("claimCounts = %v, want %v", got, want)
	}
	if verdictClass(solvers.Unverifiable) != "other" || verdictClass(solvers.DoesNotHold) != "fails" || verdictClass(solvers.Inconclusive) != "inconclusive" {
		t.Fatal("verdict classes")
	}
}
