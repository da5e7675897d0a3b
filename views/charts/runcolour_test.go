package charts

import (
	"strings"
	"testing"

	"schedlab/report"
)

// TestMergedPlotsKeepARunsColourAndDrawReferencesOnce: a run has one
// colour in every merged plot whatever the lines of the others; its
// second line is a lighter shade of it; a dashed reference line that two
// runs share is drawn once under its own name, one that differs is kept
// per run.
func TestMergedPlotsKeepARunsColourAndDrawReferencesOnce(t *testing.T) {
	pts := [][2]float64{{0, 1}, {1, 2}}
	machine := report.Line{Name: "machine (100)", Points: [][2]float64{{0, 100}, {5, 100}}, Dashed: true}
	a := MergePlots([]string{"easy", "fcfs"}, []report.Plot{
		{Lines: []report.Line{{Name: "peak", Points: pts}, {Name: "mean", Points: pts}, machine}},
		{Lines: []report.Line{{Name: "peak", Points: pts}, {Name: "mean", Points: pts}, machine}},
	})
	b := MergePlots([]string{"easy", "fcfs"}, []report.Plot{
		{Lines: []report.Line{{Name: "wait", Points: pts}}},
		{Lines: []report.Line{{Name: "wait", Points: pts}}},
	})
	colour := func(p report.Plot, name string) string {
		for _, l := range p.Lines {
			if l.Name == name {
				return l.Colour
			}
		}
		t.Fatalf("no line %q among %v", name, p.Lines)
		return ""
	}
	if c1, c2 := colour(a, "fcfs · peak"), colour(b, "fcfs"); c1 != c2 || c1 != RunColour(1) {
		t.Errorf("fcfs is %s in one plot and %s in the other, want %s in both", c1, c2, RunColour(1))
	}
	if c := colour(a, "easy · mean"); c == RunColour(0) || c == "" || !strings.HasPrefix(c, "#") {
		t.Errorf("easy's second line is %q: want a lighter shade of %s", c, RunColour(0))
	}
	n := 0
	for _, l := range a.Lines {
		if strings.Contains(l.Name, "machine") {
			n++
			if l.Name != "machine (100)" {
				t.Errorf("the shared reference is named %q", l.Name)
			}
		}
	}
	if n != 1 {
		t.Errorf("the shared reference line is drawn %d times, want once", n)
	}
	other := machine
	other.Points = [][2]float64{{0, 50}, {5, 50}}
	c := MergePlots([]string{"x", "y"}, []report.Plot{{Lines: []report.Line{machine}}, {Lines: []report.Line{other}}})
	if len(c.Lines) != 2 {
		t.Errorf("references that differ: %d lines, want one per run", len(c.Lines))
	}
	if got := lighter("#000000", 1); got != "#595959" {
		t.Errorf("lighter(#000000, 1) = %s", got)
	}
}
