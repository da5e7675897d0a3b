package dcop_test

import (
	"context"
	"fmt"

	"schedlab/solvers/dcop"
)

// The seed's Fig. 1: five jobs needing AB, AF, BCD, BDF, CE. Resource B
// carries 2+3+1 = 6 slots of work, so 6 is optimal; ties go to the earliest
// start, top of the pseudo-tree first (E3 before E4).
func ExampleSolve() {
	in, err := dcop.ParseJSON([]byte(`{"horizon": 20, "resources": ["A","B","C","D","E","F"], "jobs": [
	  {"id": "E1", "resources": ["A","B"], "duration": 2},
	  {"id": "E2", "resources": ["A","F"], "duration": 1},
	  {"id": "E3", "resources": ["B","C","D"], "duration": 3},
	  {"id": "E4", "resources": ["B","D","F"], "duration": 1},
	  {"id": "E5", "resources": ["C","E"], "duration": 2}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := dcop.Solve(context.Background(), in, dcop.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("starts:", r.Schedule, "makespan:", dcop.Makespan(in, r.Schedule), "width:", r.Tree.Width())
	e := dcop.Exact(context.Background(), in, dcop.DomainStarts, 0)
	fmt.Println("exact:", e.Makespan, "proven:", e.Proven)
	// Output:
	// starts: [1 3 3 6 1] makespan: 6 width: 2
	// exact: 6 proven: true
}
