package charts

import (
	"reflect"
	"testing"

	"schedlab/report"
)

func TestMergePlotsNamesLinesByRun(t *testing.T) {
	a := report.Plot{Title: "cost", XLabel: "w", YLabel: "c", YLog: true, Lines: []report.Line{
		{Name: "dpop", Points: [][2]float64{{1, 2}}},
		{Name: "bound", Points: [][2]float64{{1, 1}}, Dashed: true},
	}}
	b := report.Plot{Title: "cost", Lines: []report.Line{{Name: "dpop", Points: [][2]float64{{1, 3}, {2, 4}}}}}
	got := MergePlots([]string{"A", "B"}, []report.Plot{a, b})
	want := report.Plot{Title: "cost", XLabel: "w", YLabel: "c", YLog: true, Lines: []report.Line{
		{Name: "A · dpop", Points: [][2]float64{{1, 2}}, Colour: RunColour(0)},
		{Name: "A · bound", Points: [][2]float64{{1, 1}}, Dashed: true, Colour: lighter(RunColour(0), 1)}, // only A draws it
		{Name: "B", Points: [][2]float64{{1, 3}, {2, 4}}, Colour: RunColour(1)},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MergePlots =\n%+v\nwant\n%+v", got, want)
	}
}

func TestMergePlotsFillsMissingLabels(t *testing.T) {
	p := report.Plot{Title: "x", Lines: []report.Line{{Name: "l"}}}
	got := MergePlots([]string{"A"}, []report.Plot{p, p})
	if len(got.Lines) != 2 || got.Lines[0].Name != "A" || got.Lines[1].Name != "run 2" {
		t.Errorf("lines %+v", got.Lines)
	}
	if empty := MergePlots(nil, nil); empty.Title != "" || len(empty.Lines) != 0 {
		t.Errorf("merge of nothing = %+v", empty)
	}
}

func TestAlignGanttsSharesLanesSpanAndColours(t *testing.T) {
	a := report.Gantt{Title: "Schedule", TimeUnit: "s", Lanes: []string{"p0", "p1"}, Bars: []report.Bar{
		{Lane: 1, Start: 0, End: 2, Label: "t1", Group: "job1"},
		{Lane: 0, Start: 1, End: 2, Kind: "local"},
		{Lane: 5, Start: 0, End: 9, Label: "on no lane"},
	}}
	b := report.Gantt{Title: "Schedule", TimeUnit: "s", Lanes: []string{"p2", "p1"}, Bars: []report.Bar{
		{Lane: 1, Start: 3, End: 4, Label: "t1", Group: "job1", Kind: "alt"},
		{Lane: 0, Start: 2, End: 7, Label: "t2", Group: "job2"},
	}}
	got := AlignGantts([]string{"A", ""}, []report.Gantt{a, b})
	lanes := []string{"p0", "p1", "p2"}
	want := Aligned{Title: "Schedule", Labels: []string{"A", "run 2"}, From: 0, To: 7,
		Panels: []report.Gantt{
			{Title: "Schedule", TimeUnit: "s", Lanes: lanes, Bars: []report.Bar{
				{Lane: 1, Start: 0, End: 2, Label: "t1", Group: "job1"},
				{Lane: 0, Start: 1, End: 2, Kind: "local"},
			}},
			{Title: "Schedule", TimeUnit: "s", Lanes: lanes, Bars: []report.Bar{
				{Lane: 1, Start: 3, End: 4, Label: "t1", Group: "job1", Kind: "alt"},
				{Lane: 2, Start: 2, End: 7, Label: "t2", Group: "job2"},
			}},
		},
		Moved: [][]bool{nil, {true, true}}, MovedCount: []int{0, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AlignGantts =\n%+v\nwant\n%+v", got, want)
	}
	// Job 1 has one colour in both panels: its group is unchanged.
	if GroupColour(got.Panels[0].Bars[0].Group) != GroupColour(got.Panels[1].Bars[0].Group) {
		t.Error("job1 is coloured differently in the two panels")
	}
	for _, p := range got.Panels {
		if err := (&report.Report{Gantts: []report.Gantt{p}}).Validate(); err != nil {
			t.Errorf("aligned panel is invalid: %v", err)
		}
	}
	// The panel's time axis is the shared span, not its own bars'.
	o := option(t)(ganttOption(got.Panels[0], &[2]float64{got.From, got.To}, nil))
	if get(t, o, "xAxis", 0, "max") != 7.0 || get(t, o, "xAxis", 0, "min") != 0.0 {
		t.Errorf("panel A's time axis %v … %v, want the shared 0 … 7", get(t, o, "xAxis", 0, "min"), get(t, o, "xAxis", 0, "max"))
	}
}

func TestMovedBarsAreThoseNotAtTheFirstPanelsPlace(t *testing.T) {
	ref := report.Gantt{Lanes: []string{"p0", "p1"}, Bars: []report.Bar{
		{Lane: 0, Start: 0, End: 2, Label: "t1", Group: "w1"},
		{Lane: 1, Start: 0, End: 2, Label: "J", Group: "J"}, // a co-allocated job:
		{Lane: 0, Start: 2, End: 4, Label: "J", Group: "J"}, // two bars
		{Lane: 1, Start: 2, End: 3, Group: "g"},
	}}
	other := report.Gantt{Lanes: []string{"p0", "p1"}, Bars: []report.Bar{
		{Lane: 0, Start: 0, End: 2, Label: "t1", Group: "w9"}, // same place, other group: the label decides
		{Lane: 1, Start: 0, End: 2, Label: "J", Group: "J"},   // unchanged
		{Lane: 1, Start: 0, End: 2, Label: "J", Group: "J"},   // a second bar there: matched once only
		{Lane: 1, Start: 2, End: 3.5, Group: "g"},             // longer
		{Lane: 0, Start: 0, End: 2, Label: "t2", Group: "w1"}, // another job at t1's place
	}}
	same := report.Gantt{Lanes: ref.Lanes, Bars: ref.Bars}
	got := AlignGantts([]string{"a", "b", "c"}, []report.Gantt{ref, other, same})
	want := [][]bool{nil, {false, false, true, true, true}, {false, false, false, false}}
	if !reflect.DeepEqual(got.Moved, want) || !reflect.DeepEqual(got.MovedCount, []int{0, 3, 0}) {
		t.Errorf("moved = %v (counts %v), want %v (counts [0 3 0])", got.Moved, got.MovedCount, want)
	}
	// A lane of another name is another place, even at the same index.
	renamed := report.Gantt{Lanes: []string{"q0", "p1"}, Bars: []report.Bar{{Lane: 0, Start: 0, End: 2, Label: "t1"}}}
	if got := AlignGantts(nil, []report.Gantt{ref, renamed}); !got.Moved[1][0] {
		t.Errorf("t1 on lane q0 instead of p0 not marked moved")
	}
}
