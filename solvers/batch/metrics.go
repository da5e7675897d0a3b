package batch

import (
	"encoding/csv"
	"io"
	"math"
	"sort"
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
		bsum += math.Max(1, (w+run)/math.Max(run, Tau))
		work += run * float64(j.Size)
		first = math.Min(first, j.Submit)
		last = math.Max(last, pl.End)
	}
	sort.Float64s(waits)
	s := Summary{Jobs: n, WaitMean: wsum / float64(n), BSLDMean: bsum / float64(n), Makespan: last - first}
	s.WaitP95 = waits[int(math.Ceil(0.95*float64(n)))-1]
	if s.Makespan > 0 {
		s.Utilization = work / (float64(r.P) * s.Makespan)
	}
	return s
}

// BatsimColumns are the per-job columns of Batsim's jobs.csv that
// WriteBatsimCSV writes, in order.
func BatsimColumns() []string {
	return []string{"job_id", "submission_time", "requested_number_of_resources", "requested_time",
		"starting_time", "execution_time", "finish_time", "waiting_time", "turnaround_time", "stretch", "allocated_resources"}
}

// WriteBatsimCSV writes one line per job in Batsim's jobs.csv columns.
func WriteBatsimCSV(w io.Writer, jobs []Job, r *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(BatsimColumns()); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for i, j := range jobs {
		pl := r.Placements[i]
		exec := pl.End - pl.Start
		wait := pl.Start - j.Submit
		turn := pl.End - j.Submit
		stretch := 0.0
		if exec > 0 {
			stretch = turn / exec
		}
		rec := []string{strconv.Itoa(j.ID), f(j.Submit), strconv.Itoa(j.Size), f(j.Estimate),
			f(pl.Start), f(exec), f(pl.End), f(wait), f(turn), f(stretch), Intervals(pl.Procs)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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
