package views

import (
	"slices"
	"testing"

	"schedlab/report"
)

// The reproduce card counts every verdict of the shared rule set, in the
// order strongest first, inconclusive before does not hold (it refutes
// nothing), unverifiable before not measured.
func TestClaimCountsOrderEveryVerdict(t *testing.T) {
	rows := [][]any{}
	for _, v := range []string{report.NotMeasured, report.Unverifiable, report.Holds, report.DoesNotHold, report.Partly, report.Holds, report.Inconclusive, "odd"} {
		rows = append(rows, []any{"c", "p", "o", v, "e"})
	}
	r := &report.Report{Tables: []report.Table{{Title: "Claims", Columns: []string{"claim", "paper", "ours", "verdict", "evidence"}, Rows: rows}}}
	got := claimCounts(r)
	want := []VerdictCount{{report.Holds, 2}, {report.Partly, 1}, {report.Inconclusive, 1}, {report.DoesNotHold, 1}, {report.Unverifiable, 1}, {report.NotMeasured, 1}, {"odd", 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("claimCounts = %v, want %v", got, want)
	}
	if verdictClass(report.Unverifiable) != "other" || verdictClass(report.DoesNotHold) != "fails" || verdictClass(report.Inconclusive) != "inconclusive" {
		t.Fatal("verdict classes")
	}
}
