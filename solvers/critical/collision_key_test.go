package critical

import (
	"testing"

	"schedlab/report"
)

// TestMarkCollisionsMarksOverlappingBarsOnALane: bars that overlap on one
// processor are all marked; touching or on another processor, not.
func TestMarkCollisionsMarksOverlappingBarsOnALane(t *testing.T) {
	g := markCollisions(report.Gantt{Bars: []report.Bar{
		{Lane: 0, Start: 0, End: 10, Label: "a"},
		{Lane: 0, Start: 10, End: 12, Label: "touching"},
		{Lane: 0, Start: 2, End: 4, Label: "inside a"},
		{Lane: 1, Start: 0, End: 10, Label: "other processor"},
		{Lane: 0, Start: 20, End: 30, Label: "x"},
		{Lane: 0, Start: 25, End: 26, Label: "inside x"},
	}})
	want := map[string]report.BarKind{"a": "collision", "touching": "", "inside a": "collision", "other processor": "", "x": "collision", "inside x": "collision"}
	for _, b := range g.Bars {
		if b.Kind != want[b.Label] {
			t.Errorf("%s: kind %q, want %q", b.Label, b.Kind, want[b.Label])
		}
	}
}
