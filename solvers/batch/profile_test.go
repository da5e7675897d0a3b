package batch

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// oldProfile is the profile as it was before issue 23, kept as the oracle
// the incremental one is checked against: one sorted slice, a whole-slice
// merge after every add, a scan from the origin for every earliest.
type oldProfile struct {
	times []float64
	free  []int
}

func newOldProfile(now float64, p int) *oldProfile {
	return &oldProfile{times: []float64{now}, free: []int{p}}
}

func (pr *oldProfile) split(t float64) int {
	i := sort.SearchFloat64s(pr.times, t)
	if i < len(pr.times) && pr.times[i] == t {
		return i
	}
	pr.times = append(pr.times, 0)
	pr.free = append(pr.free, 0)
	copy(pr.times[i+1:], pr.times[i:])
	copy(pr.free[i+1:], pr.free[i:])
	pr.times[i] = t
	pr.free[i] = pr.free[i-1]
	return i
}

func (pr *oldProfile) add(start, end float64, size int) {
	if end <= start {
		return
	}
	start = max(start, pr.times[0])
	if end <= start {
		return
	}
	a := pr.split(start)
	b := pr.split(end)
	for i := a; i < b; i++ {
		pr.free[i] -= size
	}
	pr.merge()
}

func (pr *oldProfile) merge() {
	k := 1
	for i := 1; i < len(pr.times); i++ {
		if pr.free[i] == pr.free[k-1] {
			continue
		}
		pr.times[k], pr.free[k] = pr.times[i], pr.free[i]
		k++
	}
	pr.times, pr.free = pr.times[:k], pr.free[:k]
}

func (pr *oldProfile) advance(now float64) {
	if now <= pr.times[0] {
		return
	}
	i := sort.SearchFloat64s(pr.times, now)
	if i < len(pr.times) && pr.times[i] == now {
		pr.times, pr.free = pr.times[i:], pr.free[i:]
		return
	}
	pr.times, pr.free = pr.times[i-1:], pr.free[i-1:]
	pr.times[0] = now
}

func (pr *oldProfile) earliest(size int, dur float64) float64 {
	n := len(pr.times)
	start := -1
	for i := 0; i < n; i++ {
		if pr.free[i] < size {
			start = -1
			continue
		}
		if start < 0 {
			start = i
		}
		if i+1 == n || pr.times[i+1] >= pr.times[start]+dur {
			return pr.times[start]
		}
	}
	return pr.times[n-1]
}

// steps are the profile's breakpoints and counts from its origin on.
func (pr *profile) steps() (times []float64, free []int) {
	for _, x := range pr.seg[pr.head:] {
		times, free = append(times, x.t), append(free, x.free)
	}
	return times, free
}

// sameProfile reports how the new profile differs from the oracle, ""
// when both hold the same breakpoints and counts (both are kept merged,
// so equal step functions are equal slices).
func sameProfile(pr *profile, o *oldProfile) string {
	t, f := pr.steps()
	if !slices.Equal(t, o.times) || !slices.Equal(f, o.free) {
		return fmt.Sprintf("profile\n times %v\n free  %v\noracle\n times %v\n free  %v", t, f, o.times, o.free)
	}
	return ""
}

// TestProfileMatchesTheOldOneOnRandomOperations drives the incremental
// profile and the old one through the same random bookings, releases,
// moves of the origin and queries, as the simulator does (jobs booked at
// their earliest start, released early, compressed), on times chosen to
// collide and to round (tenths: 0.1 + 0.2 ≠ 0.3). Every answer and every
// profile after every step must be the same.
func TestProfileMatchesTheOldOneOnRandomOperations(t *testing.T) {
	type booking struct {
		start, end float64
		size       int
	}
	for seed := int64(0); seed < 150; seed++ {
		rng := rand.New(rand.NewSource(seed))
		p := 1 + rng.Intn(24)
		grid := []float64{1, 0.1, 0.5}[rng.Intn(3)] // collisions on a coarse grid, rounding on tenths
		dur := func() float64 { return grid * float64(1+rng.Intn(40)) }
		now := grid * float64(rng.Intn(5))
		pr, o := newProfile(now, p), newOldProfile(now, p)
		var books []booking
		steps := 400 + rng.Intn(800)
		for step := 0; step < steps; step++ {
			where := fmt.Sprintf("seed %d step %d", seed, step)
			switch op := rng.Intn(10); {
			case op < 4: // book a job at its earliest start
				size, d := 1+rng.Intn(p), dur()
				a, b := pr.earliest(size, d), o.earliest(size, d)
				if a != b {
					t.Fatalf("%s: earliest(%d, %v) = %v, oracle %v", where, size, d, a, b)
				}
				pr.add(a, a+d, size)
				o.add(b, b+d, size)
				books = append(books, booking{a, a + d, size})
			case op < 6 && len(books) > 0: // compress one booking, as passConservative does
				k := rng.Intn(len(books))
				bk := books[k]
				if bk.start < pr.origin() {
					continue
				}
				d := bk.end - bk.start
				// the oracle gives the booking up and takes the earliest
				o.add(bk.start, bk.end, -bk.size)
				want := o.earliest(bk.size, d)
				got := pr.earliestBefore(bk.size, d, bk.start)
				if got != want {
					t.Fatalf("%s: earliestBefore(%d, %v, %v) = %v, oracle after giving up %v", where, bk.size, d, bk.start, got, want)
				}
				if got > bk.start {
					t.Fatalf("%s: compression moved a booking later, %v → %v", where, bk.start, got)
				}
				// the oracle books where it found room; a booking keeps its
				// end as start+estimate, which a moved one recomputes
				end := bk.end
				if want != bk.start {
					end = want + d
					pr.add(bk.start, bk.end, -bk.size)
					pr.add(want, end, bk.size)
				}
				o.add(want, end, bk.size)
				books[k] = booking{want, end, bk.size}
			case op < 8 && len(books) > 0: // a job ends early: release the rest of its booking
				k := rng.Intn(len(books))
				bk := books[k]
				from := max(pr.origin(), bk.start+grid*float64(rng.Intn(5)))
				pr.add(from, bk.end, -bk.size)
				o.add(from, bk.end, -bk.size)
				books = slices.Delete(books, k, k+1)
			case op < 9: // time passes
				now += grid * float64(rng.Intn(6))
				pr.advance(now)
				o.advance(now)
				kept := books[:0]
				for _, bk := range books {
					if bk.end > now {
						kept = append(kept, bk)
					}
				}
				books = kept
			default: // a query that changes nothing
				size, d := 1+rng.Intn(p), dur()
				if a, b := pr.earliest(size, d), o.earliest(size, d); a != b {
					t.Fatalf("%s: earliest(%d, %v) = %v, oracle %v", where, size, d, a, b)
				}
				if pr.freeNow() != o.free[0] || pr.origin() != o.times[0] {
					t.Fatalf("%s: free now %d at %v, oracle %d at %v", where, pr.freeNow(), pr.origin(), o.free[0], o.times[0])
				}
			}
			if d := sameProfile(pr, o); d != "" {
				t.Fatalf("%s: %s", where, d)
			}
		}
	}
}

// TestProfileAddMergesOnlyAtTheEnds checks the merge by hand: booking and
// releasing the same interval leaves the single all-free segment, and a
// booking that meets another of the same height joins it.
func TestProfileAddMergesOnlyAtTheEnds(t *testing.T) {
	pr := newProfile(0, 10)
	pr.add(5, 10, 3)
	pr.add(10, 20, 3) // meets [5, 10) at the same count: one segment 5–20
	if times, free := pr.steps(); !slices.Equal(times, []float64{0, 5, 20}) || !slices.Equal(free, []int{10, 7, 10}) {
		t.Fatalf("times %v free %v, want [0 5 20] / [10 7 10]", times, free)
	}
	pr.add(5, 20, -3)
	if times, free := pr.steps(); len(times) != 1 || pr.freeNow() != 10 {
		t.Fatalf("released: times %v free %v, want one free segment", times, free)
	}
	if got := pr.earliest(10, math.MaxFloat64); got != 0 {
		t.Errorf("earliest on an empty machine %v, want 0", got)
	}
}

// TestProfileEarliestOverTheMachineAnswersAsTheOldOne: a size no segment
// has room for (the simulator never asks: sizes are 1..P) gets the old
// answer, the last breakpoint, or the limit.
func TestProfileEarliestOverTheMachineAnswersAsTheOldOne(t *testing.T) {
	pr, o := newProfile(0, 4), newOldProfile(0, 4)
	pr.add(0, 10, 2)
	o.add(0, 10, 2)
	pr.add(3, 20, 1)
	o.add(3, 20, 1)
	if got, want := pr.earliest(5, 1), o.earliest(5, 1); got != want || got != 20 {
		t.Errorf("earliest(5, 1) = %v, oracle %v, want 20", got, want)
	}
	if got := pr.earliestBefore(5, 1, 7); got != 7 {
		t.Errorf("earliestBefore(5, 1, 7) = %v, want the limit 7", got)
	}
}
