package cyclic

import (
	"math/rand"
	"slices"
	"testing"
)

// sameRequest reports whether a and b are the same request: fields and
// the orders a pick sorts.
func sameRequest(a, b *Request) bool {
	a.order()
	b.order()
	return a.M == b.M && a.Budget == b.Budget && slices.Equal(a.Eligible, b.Eligible) && slices.Equal(a.Time, b.Time) &&
		slices.Equal(a.Cost, b.Cost) && slices.Equal(a.byCost, b.byCost) && slices.Equal(a.byTime, b.byTime)
}

// A planner's pool gives a job planned again its request back, and any
// other job a request equal to a fresh one: nothing of the job it was for
// before survives, on the same domain or on another.
func TestRequestPool(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	d := randomDomain(rng, 12, 200)
	jobs := make([]Job, 6)
	for i := range jobs {
		jobs[i] = Job{ID: string(rune('a' + i)), Nodes: 1 + i%3, Volume: float64(5 + 7*i), MinPerf: float64(i % 3), MaxPrice: 1e4}
	}
	var p requestPool
	p.reset()
	first := map[string]*Request{}
	for i := range 4 { // jobs a–d
		first[jobs[i].ID] = p.get(d, &jobs[i])
	}
	p.reset() // b and c again; a and d are not asked for, so their requests go free next
	for _, i := range []int{1, 2, 4} {
		r := p.get(d, &jobs[i])
		if old, ok := first[jobs[i].ID]; ok && r != old {
			t.Errorf("job %s planned again got a new request", jobs[i].ID)
		}
		if !sameRequest(r, NewRequest(d, &jobs[i])) {
			t.Errorf("job %s: pooled request differs from a fresh one", jobs[i].ID)
		}
	}
	p.reset()
	p.reset() // now every request is free: e and f reuse them
	for _, i := range []int{5, 4, 0} {
		if r := p.get(d, &jobs[i]); !sameRequest(r, NewRequest(d, &jobs[i])) {
			t.Errorf("job %s: recycled request differs from a fresh one", jobs[i].ID)
		}
	}
	// Another domain (other performances): nothing is reused as it was.
	d2 := randomDomain(rng, 12, 200)
	p.reset()
	for i := range jobs {
		if r := p.get(d2, &jobs[i]); !sameRequest(r, NewRequest(d2, &jobs[i])) {
			t.Errorf("job %s on another domain: request differs from a fresh one", jobs[i].ID)
		}
	}
}
