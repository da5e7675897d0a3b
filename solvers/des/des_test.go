package des

import (
	"errors"
	"math/rand"
	"sort"
	"testing"
)

type ev struct{ id int }

// TestEventsRunInTimeThenSchedulingOrder checks the queue against a stable
// sort of the same events by time (brute force): ties keep the order in
// which they were scheduled.
func TestEventsRunInTimeThenSchedulingOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 50; trial++ {
		var got []int
		k := New(func(e ev) { got = append(got, e.id) })
		type sched struct {
			t  float64
			id int
		}
		var all []sched
		for i := 0; i < 200; i++ {
			tm := float64(rng.Intn(20)) // many ties
			all = append(all, sched{tm, i})
			k.At(tm, ev{i})
		}
		for k.Step() {
		}
		sort.SliceStable(all, func(a, b int) bool { return all[a].t < all[b].t })
		for i, s := range all {
			if got[i] != s.id {
				t.Fatalf("trial %d: event %d is %d, want %d", trial, i, got[i], s.id)
			}
		}
	}
}

func TestRunStopsBeforeUntilAndChecks(t *testing.T) {
	var seen []float64
	var k *Kernel[ev]
	k = New(func(e ev) {
		seen = append(seen, k.Now())
		if e.id < 10 {
			k.At(k.Now()+1, ev{e.id + 1}) // a chain: 0, 1, 2, ...
		}
	})
	k.At(0, ev{0})
	checks := 0
	if err := k.Run(5, 2, func() error { checks++; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 5 || k.Now() != 5 || k.Len() != 1 || checks != 2 {
		t.Fatalf("handled at %v, now %v, %d queued, %d checks", seen, k.Now(), k.Len(), checks)
	}
	if next, ok := k.Next(); !ok || next != 5 {
		t.Fatalf("next %v %v, want the event at 5 left queued", next, ok)
	}
	stop := errors.New("stop")
	if err := k.Run(100, 1, func() error { return stop }); err != stop {
		t.Fatalf("check's error: %v", err)
	}
	if len(seen) != 5 {
		t.Fatalf("an event ran after the check stopped the run")
	}
}
