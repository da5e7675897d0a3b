package batch

import (
	"math"
	"slices"
)

// profile is the machine's free processors over time as a step function:
// seg[i].free processors are free on [seg[i].t, seg[i+1].t), and the last
// count from its time on; the profile starts at seg[head].t (the entries
// before head are the forgotten past, dropped in bulk now and then). It
// starts fully free; add and remove book and release processors on an
// interval; earliest finds the first start at which a job fits for its
// whole duration.
//
// It is kept merged (no breakpoint repeats the free count before it), so
// an add touches only [start, end): two binary searches, the insertion of
// at most two breakpoints (a memmove of the breakpoints after them), the
// free counts inside the interval, and a merge check at its two ends.
type profile struct {
	seg  []step
	head int
}

// step is one breakpoint: free processors from t to the next one.
type step struct {
	t    float64
	free int
}

func newProfile(now float64, p int) *profile {
	return &profile{seg: []step{{now, p}}}
}

// origin is the profile's start, the current time.
func (pr *profile) origin() float64 { return pr.seg[pr.head].t }

// search returns the first index i ≥ from with seg[i].t ≥ t (len(seg)
// when there is none).
func (pr *profile) search(from int, t float64) int {
	lo, hi := from, len(pr.seg)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pr.seg[m].t < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// split makes t a breakpoint (t ≥ seg[from].t ≥ origin) and returns its
// index.
func (pr *profile) split(from int, t float64) int {
	i := pr.search(from, t)
	if i < len(pr.seg) && pr.seg[i].t == t {
		return i
	}
	// t lies inside segment i-1: copy its free count.
	pr.seg = slices.Insert(pr.seg, i, step{t, pr.seg[i-1].free})
	return i
}

// add books size processors on [start, end); a negative size releases them.
func (pr *profile) add(start, end float64, size int) {
	if end <= start {
		return
	}
	start = max(start, pr.origin())
	if end <= start {
		return
	}
	a := pr.split(pr.head, start)
	b := pr.split(a, end) // > a: inserting it leaves a in place
	for i := a; i < b; i++ {
		pr.seg[i].free -= size
	}
	// Only the two ends can now repeat the count before them: inside
	// [start, end) every count moved by the same amount. Merge them.
	if pr.seg[b].free == pr.seg[b-1].free {
		pr.seg = slices.Delete(pr.seg, b, b+1)
	}
	if a > pr.head && pr.seg[a].free == pr.seg[a-1].free {
		pr.seg = slices.Delete(pr.seg, a, a+1)
	}
}

// advance moves the profile's origin to now, forgetting the past.
func (pr *profile) advance(now float64) {
	if now <= pr.seg[pr.head].t {
		return
	}
	i := pr.search(pr.head, now)
	if i < len(pr.seg) && pr.seg[i].t == now {
		pr.head = i
	} else {
		// now is inside segment i-1.
		pr.head = i - 1
		pr.seg[pr.head].t = now
	}
	if pr.head >= 64 && 2*pr.head >= len(pr.seg) {
		pr.seg = pr.seg[:copy(pr.seg, pr.seg[pr.head:])]
		pr.head = 0
	}
}

// freeNow is the number of processors free at the profile's origin.
func (pr *profile) freeNow() int { return pr.seg[pr.head].free }

// earliest returns the first time ≥ origin from which size processors are
// free for dur seconds. The last segment lasts forever and a job never
// asks for more than the machine, so there always is one.
func (pr *profile) earliest(size int, dur float64) float64 {
	return pr.earliestBefore(size, dur, math.Inf(1))
}

// earliestBefore is earliest with a limit: it returns the first start
// before limit from which size processors are free for dur seconds, where
// a run of segments with room that reaches limit counts as long enough,
// and limit when there is none.
//
// Compressing conservative reservations asks it, with limit the job's
// current reservation t, for the start the job would get if it gave up
// its booking [t, t+dur) first, without giving it up: before t the
// profile is the same either way; from t on the released profile has at
// least size free for dur seconds (the job's own processors, since free
// counts never go below 0), so a run of room before t that reaches t
// continues to t+dur ≥ s+dur for any start s < t; and with no start
// before t, the answer is t itself. The job's booking is then touched
// only when it moves.
//
// A start is a breakpoint where a run of segments with size free begins;
// it is accepted as soon as a breakpoint in its run lies at or past
// start+dur (the floating-point sum) or at or past
// limit (the two tests are one against their minimum), or the run reaches
// the last segment.
func (pr *profile) earliestBefore(size int, dur, limit float64) float64 {
	seg := pr.seg
	n := len(seg)
	if seg[n-1].free < size {
		// Never with size ≤ P: the last segment is all free, and no
		// segment has more free than it.
		goto none
	}
	for i := pr.head; ; {
		for seg[i].free < size { // no room: no run starts here; the last segment stops it
			i++
		}
		st := seg[i].t
		if st >= limit {
			return limit
		}
		bound := min(limit, st+dur)
		for {
			if i++; i == n || seg[i].t >= bound {
				return st
			}
			if seg[i].free < size {
				break
			}
		}
	}
none:
	if math.IsInf(limit, 1) {
		return seg[n-1].t // unreachable when size ≤ P: the last segment is all free
	}
	return limit
}
