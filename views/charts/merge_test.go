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

func TestAlignGanttsSharesLanesSpanAndColours(t *testing.T) {
	a := solvers.Gantt{Title: "Schedule", TimeUnit: "s", Lanes: []string{"p0", "p1"}, Bars: []solvers.Bar{
		{Lane: 1, Start: 0, End: 2, Label: "t1", Group: "job1"},
		{Lane: 0, Start: 1, End: 2, Kind: "local"},
		{Lane: 5, Start: 0, End: 9, Label: "on no lane"},
	}}
	b := solvers.Gantt{Title: "Schedule", TimeUnit: "s", Lanes: []string{"p2", "p1"}, Bars: []solvers.Bar{
		{Lane: 1, Start: 3, End: 4, Label: "t1", Group: "job1", Kind: "alt"},
		{Lane: 0, Start: 2, End: 7, Label: "t2", Group: "job2"},
	}}
	got := AlignGantts([]string{"A", ""}, []solvers.Gantt{a, b})
	lanes := []string{"p0", "p1", "p2"}
	want := Aligned{Title: "Schedule", Labels: []string{"A", "run 2"}, From: 0, To: 7,
		Panels: []solvers.Gantt{
			{Title: "Schedule", TimeUnit: "s", Lanes: lanes, Bars: []solvers.Bar{
				{Lane: 1, Start: 0, End: 2, Label: "t1", Group: "job1"},
				{Lane: 0, Start: 1, End: 2, Kind: "local"},
			}},
			{Title: "Schedule", TimeUnit: "s", Lanes: lanes, Bars: []solvers.Bar{
				{Lane: 1, Start: 3, End: 4, Label: "t1", Group: "job1", Kind: "alt"},
				{Lane: 2, Start: 2, End: 7, Label: "t2", Group: "job2"},
			}},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AlignGantts =\n%+v\nwant\n%+v", got, want)
	}
	// Job 1 has one colour in both panels: its group is unchanged.
	if GroupColour(got.Panels[0].Bars[0].Group) != GroupColour(got.Panels[1].Bars[0].Group) {
		t.Error("job1 is coloured differently in the two panels")
	}
	for _, p := range got.Panels {
		if err := (&solvers.Report{Gantts: []solvers.Gantt{p}}).Validate(); err != nil {
			t.Errorf("aligned panel is invalid: %v", err)
		}
	}
	// The panel's time axis is the shared span, not its own bars'.
	o := option(t)(ganttOption(got.Panels[0], &[2]float64{got.From, got.To}))
	if get(t, o, "xAxis", 0, "max") != 7.0 || get(t, o, "xAxis", 0, "min") != 0.0 {
		t.Errorf("panel A's time axis %v … %v, want the shared 0 … 7", get(t, o, "xAxis", 0, "min"), get(t, o, "xAxis", 0, "max"))
	}
}
