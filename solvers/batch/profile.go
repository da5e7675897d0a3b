package batch

import (
	"math"
	"slices"
)

// profBlock is the number of breakpoints a block summary covers: scans
// skip a whole block by its minimum and maximum free count.
const profBlock = 32

// profile is the machine's free processors over time as a step function:
// free[i] processors are free on [times[i], times[i+1]), and free[last]
// from times[last] on; the profile starts at times[head] (the entries
// before head are the forgotten past, dropped in bulk now and then). It
// starts fully free; add and remove book and release processors on an
// interval; earliest finds the first start at which a job fits for its
// whole duration.
//
// It is kept merged (no breakpoint repeats the free count before it), so
// an add touches only [start, end): two binary searches, the insertion of
// at most two breakpoints, the free counts inside the interval, and a
// merge check at its two ends. The blocks of profBlock breakpoints carry
// the minimum and maximum free count (lo, hi), brought up to date lazily
// from the first changed index (dirty) before a scan needs them, so that
// earliest skips a block where no job of the size fits, or where all of
// it does, without reading it.
type profile struct {
	times  []float64
	free   []int
	head   int
	lo, hi []int // per full block b (indices b·profBlock …): min and max of free
	dirty  int   // the summaries of blocks from dirty/profBlock on are stale
}

func newProfile(now float64, p int) *profile {
	return &profile{times: []float64{now}, free: []int{p}}
}

// origin is the profile's start, the current time.
func (pr *profile) origin() float64 { return pr.times[pr.head] }

func (pr *profile) touch(i int) {
	if i < pr.dirty {
		pr.dirty = i
	}
}

// search returns the first index i ≥ from with times[i] ≥ t (len(times)
// when there is none).
func (pr *profile) search(from int, t float64) int {
	lo, hi := from, len(pr.times)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pr.times[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// split makes t a breakpoint (t ≥ times[from] ≥ origin) and returns its
// index.
func (pr *profile) split(from int, t float64) int {
	i := pr.search(from, t)
	if i < len(pr.times) && pr.times[i] == t {
		return i
	}
	// t lies inside segment i-1: copy its free count.
	pr.times = slices.Insert(pr.times, i, t)
	pr.free = slices.Insert(pr.free, i, pr.free[i-1])
	pr.touch(i)
	return i
}

// drop deletes breakpoint i (> head), merging its segment into the one
// before.
func (pr *profile) drop(i int) {
	pr.times = slices.Delete(pr.times, i, i+1)
	pr.free = slices.Delete(pr.free, i, i+1)
	pr.touch(i)
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
		pr.free[i] -= size
	}
	pr.touch(a)
	// Only the two ends can now repeat the count before them: inside
	// [start, end) every count moved by the same amount.
	if pr.free[b] == pr.free[b-1] {
		pr.drop(b)
	}
	if a > pr.head && pr.free[a] == pr.free[a-1] {
		pr.drop(a)
	}
}

// advance moves the profile's origin to now, forgetting the past.
func (pr *profile) advance(now float64) {
	if now <= pr.times[pr.head] {
		return
	}
	i := pr.search(pr.head, now)
	if i < len(pr.times) && pr.times[i] == now {
		pr.head = i
	} else {
		// now is inside segment i-1.
		pr.head = i - 1
		pr.times[pr.head] = now
	}
	if pr.head >= 64 && 2*pr.head >= len(pr.times) {
		n := copy(pr.times, pr.times[pr.head:])
		copy(pr.free, pr.free[pr.head:])
		pr.times, pr.free = pr.times[:n], pr.free[:n]
		pr.head = 0
		pr.dirty = 0
	}
}

// freeNow is the number of processors free at the profile's origin.
func (pr *profile) freeNow() int { return pr.free[pr.head] }

// summarize brings the block summaries up to date.
func (pr *profile) summarize() {
	n := len(pr.free)
	if pr.dirty >= n {
		return
	}
	nb := n / profBlock
	if len(pr.lo) < nb {
		// The blocks past the old length are past dirty: an insertion
		// at or before the old end made them.
		pr.lo = append(pr.lo, make([]int, nb-len(pr.lo))...)
		pr.hi = append(pr.hi, make([]int, nb-len(pr.hi))...)
	}
	pr.lo, pr.hi = pr.lo[:nb], pr.hi[:nb]
	for b := pr.dirty / profBlock; b < nb; b++ {
		seg := pr.free[b*profBlock : (b+1)*profBlock]
		lo, hi := seg[0], seg[0]
		for _, f := range seg[1:] {
			lo = min(lo, f)
			hi = max(hi, f)
		}
		pr.lo[b], pr.hi[b] = lo, hi
	}
	pr.dirty = math.MaxInt
}

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
// start+dur (floating-point sum, as before the rewrite), or at or past
// limit, or the run reaches the last segment. A whole block inside a run
// is judged by its last breakpoint's end alone: those conditions grow
// along a run, so the answer is the one a breakpoint-by-breakpoint scan
// gives.
func (pr *profile) earliestBefore(size int, dur, limit float64) float64 {
	times, free := pr.times, pr.free
	n := len(times)
	useBlocks := n-pr.head > 2*profBlock
	if useBlocks {
		pr.summarize()
	}
	active := false
	st := 0.0
	for i := pr.head; i < n; {
		if times[i] >= limit {
			return limit
		}
		if useBlocks && i%profBlock == 0 && i+profBlock <= n {
			b := i / profBlock
			if pr.hi[b] < size { // no room anywhere in the block
				active = false
				i += profBlock
				continue
			}
			if pr.lo[b] >= size { // room all through the block
				if !active {
					active, st = true, times[i]
				}
				i += profBlock
				if i == n || times[i] >= limit || times[i] >= st+dur {
					return st
				}
				continue
			}
		}
		// One breakpoint at a time, to the end of the block.
		stop := n
		if useBlocks {
			stop = min(n, (i/profBlock+1)*profBlock)
		}
		for ; i < stop; i++ {
			if free[i] < size {
				active = false
				continue
			}
			if !active {
				if times[i] >= limit {
					return limit
				}
				active, st = true, times[i]
			}
			if i+1 == n || times[i+1] >= limit || times[i+1] >= st+dur {
				return st
			}
		}
	}
	if math.IsInf(limit, 1) {
		return times[n-1] // unreachable when size ≤ P: the last segment is all free
	}
	return limit
}
