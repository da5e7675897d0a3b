package critical

import (
	"fmt"
	"math"
	"testing"
)

// topcuoglu2002 is the example graph of Topcuoglu, Hariri and Wu (IEEE
// TPDS 13(3), 2002, Fig. 2): 10 tasks, 3 processors, the time matrix and
// the communication costs (0 on one processor).
func topcuoglu2002() *Graph {
	times := [][]float64{
		{14, 16, 9}, {13, 19, 18}, {11, 13, 19}, {13, 8, 17}, {12, 13, 10},
		{13, 16, 9}, {7, 15, 11}, {5, 11, 14}, {18, 12, 20}, {21, 7, 16},
	}
	g := &Graph{Name: "topcuoglu2002", Times: times, Source: "json"}
	for i := range times {
		g.Tasks = append(g.Tasks, Task{ID: fmt.Sprintf("t%d", i+1)})
	}
	for p := range 3 {
		g.Processors = append(g.Processors, Processor{ID: fmt.Sprintf("P%d", p+1), Performance: 1, Price: 1})
	}
	for _, e := range [][3]int{{1, 2, 18}, {1, 3, 12}, {1, 4, 9}, {1, 5, 11}, {1, 6, 14}, {2, 8, 19}, {2, 9, 16}, {3, 7, 23},
		{4, 8, 27}, {4, 9, 23}, {5, 9, 13}, {6, 8, 15}, {7, 10, 17}, {8, 10, 11}, {9, 10, 13}} {
		g.Edges = append(g.Edges, Edge{From: e[0] - 1, To: e[1] - 1, Transfer: float64(e[2])})
	}
	return g
}

func TestHEFTTopcuoglu2002Makespan80(t *testing.T) {
	g := topcuoglu2002()
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	d := Prepare(g, 10)
	// Published upward ranks (Table in Topcuoglu et al. 2002).
	want := []float64{108, 77, 80, 80, 69, 63.333, 42.667, 35.667, 44.333, 14.667}
	r := UpwardRank(d)
	for i, w := range want {
		if math.Abs(r[i]-w) > 0.001 {
			t.Errorf("rank_u(t%d) = %.3f, want %.3f", i+1, r[i], w)
		}
	}
	s := HEFT(d)
	if err := CheckSchedule(d, s); err != nil {
		t.Fatal(err)
	}
	if ms := s.Makespan(); math.Abs(ms-80) > 1e-9 {
		t.Errorf("HEFT makespan %v, want 80 (published)", ms)
	}
	// The published schedule's order: t1 t3 t4 t2 t5 t6 t9 t7 t8 t10.
	o := rankOrder(d, r)
	order := []int{0, 2, 3, 1, 4, 5, 8, 6, 7, 9}
	for i := range order {
		if o[i] != order[i] {
			t.Fatalf("rank order %v, want %v", o, order)
		}
	}
	if s.Proc[9] != 1 || s.Finish[9] != 80 {
		t.Errorf("t10 on P%d finishing %v, want P2 at 80", s.Proc[9]+1, s.Finish[9])
	}
}

func TestListIsValidOnTopcuoglu(t *testing.T) {
	d := Prepare(topcuoglu2002(), 10)
	s := List(d)
	if err := CheckSchedule(d, s); err != nil {
		t.Fatal(err)
	}
	if s.Makespan() < d.ComputeBounds().Lower {
		t.Fatal("list below the lower bound")
	}
}
