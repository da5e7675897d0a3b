package charts

import (
	"reflect"
	"testing"

	"schedlab/solvers"
)

func TestMergePlotsNamesLinesByRun(t *testing.T) {
	a := solvers.Plot{Title: "cost", XLabel: "w", YLabel: "c", YLog: true, Lines: []solvers.Line{
		{Name: "dpop", Points: [][2]float64{{1, 2}}},
		{Name: "bound", Points: [][2]float64{{1, 1}}, Dashed: true},
	}}
	b := solvers.Plot{Title: "cost", Lines: []solvers.Line{{Name: "dpop", Points: [][2]float64{{1, 3}, {2, 4}}}}}
	got := MergePlots([]string{"A", "B"}, []solvers.Plot{a, b})
	want := solvers.Plot{Title: "cost", XLabel: "w", YLabel: "c", YLog: true, Lines: []solvers.Line{
		{Name: "A · dpop", Points: [][2]float64{{1, 2}}},
		{Name: "A · bound", Points: [][2]float64{{1, 1}}, Dashed: true},
		{Name: "B", Points: [][2]float64{{1, 3}, {2, 4}}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MergePlots =\n%+v\nwant\n%+v", got, want)
	}
}

func TestMergePlotsFillsMissingLabels(t *testing.T) {
	p := solvers.Plot{Title: "x", Lines: []solvers.Line{{Name: "l"}}}
	got := MergePlots([]string{"A"}, []solvers.Plot{p, p})
	if len(got.Lines) != 2 || got.Lines[0].Name != "A" || got.Lines[1].Name != "run 2" {
		t.Errorf("lines %+v", got.Lines)
	}
	if empty := MergePlots(nil, nil); empty.Title != "" || len(empty.Lines) != 0 {
		t.Errorf("merge of nothing = %+v", empty)
	}
}

func TestStackGanttsOffsetsLanesAndPrefixesGroups(t *testing.T) {
	a := solvers.Gantt{Title: "Schedule", TimeUnit: "s", Lanes: []string{"p0", "p1"}, Bars: []solvers.Bar{
		{Lane: 1, Start: 0, End: 2, Label: "t1", Group: "job1"},
		{Lane: 0, Start: 1, End: 2, Kind: "local"},
	}}
	b := solvers.Gantt{Title: "Schedule", TimeUnit: "s", Lanes: []string{"p0"}, Bars: []solvers.Bar{
		{Lane: 0, Start: 3, End: 4, Label: "t1", Group: "job1", Kind: "alt"},
	}}
	got := StackGantts([]string{"A", "B"}, []solvers.Gantt{a, b})
	want := solvers.Gantt{Title: "Schedule", TimeUnit: "s",
		Lanes: []string{"A · p0", "A · p1", "B · p0"},
		Bars: []solvers.Bar{
			{Lane: 1, Start: 0, End: 2, Label: "t1", Group: "A · job1"},
			{Lane: 0, Start: 1, End: 2, Group: "A", Kind: "local"},
			{Lane: 2, Start: 3, End: 4, Label: "t1", Group: "B · job1", Kind: "alt"},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StackGantts =\n%+v\nwant\n%+v", got, want)
	}
	if err := (&solvers.Report{Gantts: []solvers.Gantt{got}}).Validate(); err != nil {
		t.Errorf("stacked Gantt is invalid: %v", err)
	}
}
