package cyclic

import "testing"

// TestAfterShiftGanttMarksTheJobsThatMoved: in the after-shift Gantt, the
// bars of a job whose window the shift changed are "moved", the others
// (and the owners' local load, and the alternatives) keep their kind.
func TestAfterShiftGanttMarksTheJobsThatMoved(t *testing.T) {
	same := Window{Start: 5, Nodes: []int{0}, Times: []int{10}}
	g := &GanttCycle{
		Local: [][]Interval{nil, nil, nil},
		Plan: &CyclePlan{Jobs: []JobPlan{
			{Job: Job{ID: "j1"}, Alts: []Window{same}, Chosen: 0, Planned: same},
			{Job: Job{ID: "j2"}, Alts: []Window{{Start: 9, Nodes: []int{1}, Times: []int{4}}, {Start: 30, Nodes: []int{2}, Times: []int{4}}}, Chosen: 0,
				Planned: Window{Start: 2, Nodes: []int{1}, Times: []int{4}}},
			{Job: Job{ID: "j3"}, Chosen: -1},
		}},
		Before: []Window{same, {Start: 9, Nodes: []int{1}, Times: []int{4}}, {}},
	}
	gt := cycleGantt("after", []string{"n0", "n1", "n2"}, g, nil)
	markMoved(&gt, g)
	kinds := map[string][]string{}
	for _, b := range gt.Bars {
		kinds[b.Group] = append(kinds[b.Group], string(b.Kind))
	}
	if k := kinds["j1"]; len(k) != 1 || k[0] != "" {
		t.Errorf("j1 did not move: kinds %q", k)
	}
	if k := kinds["j2"]; len(k) != 2 || k[0] != "alt" || k[1] != "moved" {
		t.Errorf("j2 moved from 9 to 2: kinds %q, want its unchosen alternative and its moved window", k)
	}
}
