package dcop

import (
	"context"
	"reflect"
	"testing"
)

// The seed's five-job example (Fig. 1: E1..E5 needing AB, AF, BCD, BDF,
// CE) with the durations of ExampleSolve (2, 1, 3, 1, 2) and the seed's
// domain {1..20} for every start, through the seed's Fig. 2 algorithm (WD)
// to width 1. Worked by hand:
//
// Constraint edges (a shared resource): E1–E2 (A), E1–E3 (B), E1–E4 (B),
// E2–E4 (F), E3–E4 (B, D), E3–E5 (C). Degrees 3, 2, 3, 3, 1.
//
// Pseudo-tree (max-degree DFS: root of highest degree, ties to the lower
// index, neighbours most-connected first): root E1; E1's unvisited
// neighbours by degree E3 (3), E4 (3), E2 (2): visit E3; from E3: E4
// (degree 3) before E5 (1); from E4: E2. Back to E3: E5. So
//
//	E1 ─ E3 ─ E4 ─ E2      tree edges E1–E3, E3–E4, E4–E2, E3–E5
//	      └── E5           back edges E1–E4, E1–E2
//
// Separators (ancestors linked to the node or its subtree):
// Sep(E2) = {E1, E4} (its own edges); Sep(E4) = {E1, E3} (own edges E1,
// E3; E2's E1); Sep(E5) = {E3}; Sep(E3) = {E1}; Sep(E1) = {}. Width 2.
//
// Fig. 2, first pass: x_n = a node of the largest UTIL: E2 and E4 both
// have 2 separator variables over domains of 20, so 400 entries; the tie
// goes to the lower index, E2. Line 2 asks x_i ≽ x_n ≽ x_j ∈ PC(x_i): x_i
// = E1 (E2's other separator variable E4 is its parent, a tree edge), x_j
// = E2. Lines 3–4 delete E1–E2. Now Sep(E2) = {E4}, but Sep(E4) is still
// {E1, E3} (the back edge E1–E4): width 2.
// Second pass: x_n = E4, x_i = E1 (E3 is the parent), x_j = E4: delete
// E1–E4. Sep(E2) = {E4}, Sep(E4) = {E3}, Sep(E3) = {E1}, Sep(E5) = {E3}:
// width 1, both back edges gone.
//
// Line 5, seed rule (set-wide: E1 keeps the window of its earliest start,
// slots 1..2, and every descendant it shares a constraint with, PC(E1) =
// {E2, E3, E4}, starts after slot 2): E1 ∈ {1}; E2, E3, E4 ∈ {3..20}; E5
// unrestricted. The second deletion computes the same window and changes
// nothing.
//
// DPOP on the reduced tree: E1 at 1 (slots 1–2); E3 (B, C, D, 3 slots) at
// 3–5; E4 (B, D, F) after E3 on B: 6; E2 (A, F) at 3 (F is free until E4
// at 6); E5 (C, E) at 1–2 before E3 on C. Makespan 6 = resource B's work
// 2 + 3 + 1, the optimum.
func TestSeedExampleThroughFig2(t *testing.T) {
	in := seedExample(2, 1, 3, 1, 2)
	pt, err := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{-1, 3, 0, 2, 2}; !reflect.DeepEqual(pt.Parent, want) {
		t.Fatalf("parents %v, want %v", pt.Parent, want)
	}
	if want := [][2]int{{0, 3}, {0, 1}}; !reflect.DeepEqual(pt.BackEdges(), want) {
		t.Fatalf("back edges %v, want E1–E4, E1–E2 %v", pt.BackEdges(), want)
	}
	if want := [][]int{nil, {0, 3}, {0}, {0, 2}, {2}}; !reflect.DeepEqual(pt.Sep, want) {
		t.Fatalf("separators %v, want %v", pt.Sep, want)
	}
	dom := Domains(in, ObjectiveMakespan, DomainStarts)
	wd, err := WidthDelete(in, pt, dom, 1, RuleSeed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{0, 1}, {0, 3}}; !reflect.DeepEqual(wd.Deleted, want) {
		t.Fatalf("deleted %v, want E1–E2 then E1–E4 %v", wd.Deleted, want)
	}
	if want := [][]int{nil, {3}, {0}, {2}, {2}}; !reflect.DeepEqual(wd.Tree.Sep, want) {
		t.Fatalf("separators after WD %v, want %v", wd.Tree.Sep, want)
	}
	if wd.WidthBefore != 2 || wd.WidthAfter != 1 {
		t.Fatalf("width %d → %d, want 2 → 1", wd.WidthBefore, wd.WidthAfter)
	}
	after := func(lo int) []int {
		var d []int
		for s := lo; s <= 20; s++ {
			d = append(d, s)
		}
		return d
	}
	want := [][]int{{1}, after(3), after(3), after(3), after(1)}
	if !reflect.DeepEqual(wd.Domains, want) {
		t.Fatalf("domains after WD %v, want %v", wd.Domains, want)
	}
	r, err := Solve(context.Background(), in, Options{Tree: wd.Tree, Domains: wd.Domains})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Schedule{1, 3, 3, 6, 1}); !reflect.DeepEqual(r.Schedule, want) || Makespan(in, r.Schedule) != 6 {
		t.Fatalf("schedule %v (makespan %d), want %v (6)", r.Schedule, Makespan(in, r.Schedule), want)
	}
	if _, opt, _ := BruteForce(in, DomainStarts); opt != 6 {
		t.Fatalf("brute force optimum %d, want 6", opt)
	}
}

// TestSeedExampleWDReadings: on the same example, the readings differ
// only in line 5. earliest restricts the deleted pairs alone (E3 keeps
// {1..20} and stays after E1 through the tree edge); fixed gives E1 an
// end by L_1 = 2, the same as earliest here; literal gives E1 the start
// set {1, 2} (so E1 at 2 would still overlap E2 or E4 at 3); half puts
// E1 before slot 10 and E2, E4 after.
func TestSeedExampleWDReadings(t *testing.T) {
	in := seedExample(2, 1, 3, 1, 2)
	pt, _ := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
	dom := Domains(in, ObjectiveMakespan, DomainStarts)
	span := func(lo, hi int) []int {
		var d []int
		for s := lo; s <= hi; s++ {
			d = append(d, s)
		}
		return d
	}
	cases := map[string][][]int{
		RuleEarliest: {{1}, span(3, 20), span(1, 20), span(3, 20), span(1, 20)},
		RuleFixed:    {{1}, span(3, 20), span(1, 20), span(3, 20), span(1, 20)},
		RuleLiteral:  {{1, 2}, span(3, 20), span(1, 20), span(3, 20), span(1, 20)},
		RuleHalf:     {span(1, 9), span(11, 20), span(1, 20), span(11, 20), span(1, 20)},
	}
	for rule, want := range cases {
		wd, err := WidthDelete(in, pt, dom, 1, rule, nil)
		if err != nil {
			t.Fatalf("%s: %v", rule, err)
		}
		if !reflect.DeepEqual(wd.Domains, want) {
			t.Errorf("%s: domains %v, want %v", rule, wd.Domains, want)
		}
	}
}
