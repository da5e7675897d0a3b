package batch

import "sort"

// profile is the machine's free processors over time as a step function:
// free[i] processors are free on [times[i], times[i+1]), and free[last] from
// times[last] on. It starts fully free; add and remove book and release
// processors on an interval; earliest finds the first start at which a job
// fits for its whole duration.
type profile struct {
	times []float64
	free  []int
}

func newProfile(now float64, p int) *profile {
	return &profile{times: []float64{now}, free: []int{p}}
}

// split makes t a breakpoint (t ≥ times[0]) and returns its index.
func (pr *profile) split(t float64) int {
	i := sort.SearchFloat64s(pr.times, t)
	if i < len(pr.times) && pr.times[i] == t {
		return i
	}
	// t lies inside segment i-1: copy its free count.
	pr.times = append(pr.times, 0)
	pr.free = append(pr.free, 0)
	copy(pr.times[i+1:], pr.times[i:])
	copy(pr.free[i+1:], pr.free[i:])
	pr.times[i] = t
	pr.free[i] = pr.free[i-1]
	return i
}

// add books size processors on [start, end); a negative size releases them.
func (pr *profile) add(start, end float64, size int) {
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

// merge drops breakpoints whose segment has the free count of the one
// before, keeping the profile small.
func (pr *profile) merge() {
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

// advance moves the profile's origin to now, forgetting the past.
func (pr *profile) advance(now float64) {
	if now <= pr.times[0] {
		return
	}
	i := sort.SearchFloat64s(pr.times, now)
	if i < len(pr.times) && pr.times[i] == now {
		pr.times, pr.free = pr.times[i:], pr.free[i:]
		return
	}
	// now is inside segment i-1.
	pr.times, pr.free = pr.times[i-1:], pr.free[i-1:]
	pr.times[0] = now
}

// freeNow is the number of processors free at the profile's origin.
func (pr *profile) freeNow() int { return pr.free[0] }

// earliest returns the first time ≥ times[0] from which size processors
// are free for dur seconds. The last segment lasts forever and a job never
// asks for more than the machine, so there always is one.
func (pr *profile) earliest(size int, dur float64) float64 {
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
	return pr.times[n-1] // unreachable when size ≤ P: the last segment is all free
}
