package batch

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Tau is the bounded-slowdown threshold, s: runs shorter than this count
// as this long, so tiny jobs do not dominate the mean.
const Tau = 10.0

// Summary is the standard set of batch metrics over all simulated jobs.
type Summary struct {
	Jobs        int
	WaitMean    float64 // s
	WaitP95     float64 // s, nearest rank
	BSLDMean    float64 // bounded slowdown, τ = Tau
	Utilization float64 // Σ run × size / (P × makespan)
	Makespan    float64 // last end − first submit, s
}

// Summarize computes the metrics of a schedule of jobs.
func Summarize(jobs []Job, r *Result) Summary {
	n := len(jobs)
	if n == 0 {
		return Summary{}
	}
	waits := make([]float64, n)
	first, last := math.Inf(1), math.Inf(-1)
	var wsum, bsum, work float64
	for i, j := range jobs {
		pl := r.Placements[i]
		w := pl.Start - j.Submit
		run := pl.End - pl.Start
		waits[i] = w
		wsum += w
		bsum += max(1, (w+run)/max(run, Tau))
		work += run * float64(j.Size)
		first = min(first, j.Submit)
		last = max(last, pl.End)
	}
	s := Summary{Jobs: n, WaitMean: wsum / float64(n), BSLDMean: bsum / float64(n), Makespan: last - first}
	s.WaitP95 = nthSmallest(waits, int(math.Ceil(0.95*float64(n)))-1)
	if s.Makespan > 0 {
		s.Utilization = work / (float64(r.P) * s.Makespan)
	}
	return s
}

// nthSmallest is a[k] as it would be once a is sorted (0-based; a holds no
// NaN), found by selection in O(len(a)) on average: Hoare's quickselect
// (Hoare, "Algorithm 65: Find", CACM 1961) with the median of three as
// pivot. A round that keeps more than three quarters of what is left is
// a bad one; after log2(len(a)) bad rounds what is left is sorted (as
// introselect does, Musser 1997), so no input costs more than a sort. a is
// reordered.
func nthSmallest(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	bad := bits.Len(uint(len(a)))
	for hi-lo > 16 {
		m := lo + (hi-lo)/2
		// Median of three to a[m]: a[lo] ≤ a[m] ≤ a[hi].
		if a[m] < a[lo] {
			a[m], a[lo] = a[lo], a[m]
		}
		if a[hi] < a[m] {
			a[hi], a[m] = a[m], a[hi]
			if a[m] < a[lo] {
				a[m], a[lo] = a[lo], a[m]
			}
		}
		pivot := a[m]
		// Hoare's partition: a[lo..j] ≤ pivot ≤ a[j+1..hi].
		i, j := lo-1, hi+1
		for {
			for i++; a[i] < pivot; i++ {
			}
			for j--; a[j] > pivot; j-- {
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
		}
		nlo, nhi := lo, j
		if k > j {
			nlo, nhi = j+1, hi
		}
		if 4*(nhi-nlo+1) > 3*(hi-lo+1) {
			if bad--; bad == 0 {
				lo, hi = nlo, nhi
				break // too many bad pivots: sort the rest
			}
		}
		lo, hi = nlo, nhi
	}
	slices.Sort(a[lo : hi+1])
	return a[k]
}

// BatsimColumns are the per-job columns of Batsim's jobs.csv that
// WriteBatsimCSV writes, in order.
func BatsimColumns() []string {
	return []string{"job_id", "submission_time", "requested_number_of_resources", "requested_time",
		"starting_time", "execution_time", "finish_time", "waiting_time", "turnaround_time", "stretch", "allocated_resources"}
}

// Intervals writes ascending processor ids as Batsim's interval set:
// "0-3 7 9-10".
func Intervals(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		k := i
		for k+1 < len(ids) && ids[k+1] == ids[k]+1 {
			k++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if k > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(ids[k]))
		}
		i = k + 1
	}
	return b.String()
}
