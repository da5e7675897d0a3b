package claims

import (
	"reflect"
	"testing"
)

// The rows of a table are judged on the data in order, an Expand in its
// place, and "{name}" text is filled in every line (Expand's too); Build
// writes each rule into its row's evidence cell.
func TestRowsAreJudgedInOrderWithTheirText(t *testing.T) {
	type data struct{ a, b []float64 }
	rows := []Row[*data]{
		{Key: "dir", Claim: "A above B, {n} instances", Paper: "{n}", Judge: DirectionOf(HigherBetter, Tol{}, func(d *data) []Pair { return []Pair{{A: d.a, B: d.b}} }), Evidence: "fig {n}"},
		{Expand: func(d *data) []Line {
			return []Line{{Key: "x", Claim: "expanded at {n}", Result: Share(len(d.a), len(d.a))}}
		}},
		{Key: "lvl", Claim: "level", Judge: LevelOf(1, Paper(0.5, "half"), func(d *data) []Point { return []Point{{Values: d.a}} })},
	}
	d := &data{a: []float64{1.1, 1.2, 1.0, 1.3}, b: []float64{0.1, 0.3, 0.2, 0.1}}
	ls := Lines(d, rows, "{n}", "4")
	var keys, claims, verdicts []string
	for _, l := range ls {
		keys, claims, verdicts = append(keys, l.Key), append(claims, l.Claim), append(verdicts, l.Result.Verdict)
	}
	if want := []string{"dir", "x", "lvl"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	if want := []string{"A above B, 4 instances", "expanded at 4", "level"}; !reflect.DeepEqual(claims, want) {
		t.Errorf("claims %v, want %v", claims, want)
	}
	if want := []string{Holds, Holds, Holds}; !reflect.DeepEqual(verdicts, want) {
		t.Errorf("verdicts %v, want %v", verdicts, want)
	}
	if ls[0].Paper != "4" || ls[0].Evidence != "fig 4" {
		t.Errorf("paper %q, evidence %q: the text is not filled", ls[0].Paper, ls[0].Evidence)
	}
	// The judge reads the data: B above A turns the first row.
	d.a, d.b = d.b, d.a
	if v := Lines(d, rows, "{n}", "4")[0].Result.Verdict; v != DoesNotHold {
		t.Errorf("B above A: %s, want %s", v, DoesNotHold)
	}
	tb := Build(d, rows, "{n}", "4")
	if tb.Title != Title || len(tb.Rows) != 3 {
		t.Fatalf("table %q with %d rows", tb.Title, len(tb.Rows))
	}
	if ev := tb.Rows[0][4].(string); ev != "fig 4 · rule: "+ls[0].Result.Rule {
		t.Errorf("evidence %q: want the row's evidence then its rule", ev)
	}
}

// A conclusion made of other rows' judges gives their joined verdict.
func TestCombineOfJoinsTheJudges(t *testing.T) {
	hold := func(int) Result { return Result{Verdict: Holds} }
	fail := func(int) Result { return Result{Verdict: DoesNotHold} }
	if v := CombineOf([]string{"a", "b"}, hold, hold)(0).Verdict; v != Holds {
		t.Errorf("both hold: %s", v)
	}
	if v := CombineOf([]string{"a", "b"}, hold, fail)(0).Verdict; v != Partly {
		t.Errorf("one fails: %s, want %s", v, Partly)
	}
}
