package gossip

import (
	"cmp"
	"fmt"
	"math"
	"sort"

	"schedlab/report"
)

func (s *sim) result() *Result {
	a := &s.acct
	r := &Result{Nodes: s.n, DurationS: s.dur, BinW: a.binW, Rejects: a.rejects, Matches: a.matches, Jobs: len(s.in.Jobs)}
	r.WarmupS = min(s.cfg.WarmupS, s.dur/2)
	s.series(r)
	s.waits(r)
	s.throughput(r)
	if len(s.in.Jobs) > 0 {
		r.RejectsPerJob = float64(a.rejects) / float64(len(s.in.Jobs))
	}
	periods := s.dur / s.cfg.PeriodS
	r.MsgsPerNode = a.msgs / float64(s.n) / periods
	r.BytesPerNode = a.bytes / float64(s.n) / periods
	if a.matches > 0 {
		r.StalenessMean = a.staleSum / float64(a.matches)
	}
	s.info.summarize(r)
	for k := range s.schedNode {
		r.Schedulers = append(r.Schedulers, int(s.schedNode[k]))
	}
	s.gantt(r)
	r.Log = s.log
	return r
}

// series fills the per-bin series and the utilization after the warm-up.
func (s *sim) series(r *Result) {
	a := &s.acct
	var area, w float64
	for b, v := range a.area {
		t0 := float64(b) * a.binW
		u := v / (float64(s.n) * a.binW)
		r.UtilSeries = append(r.UtilSeries, [2]float64{(t0 + a.binW/2) / 3600, u})
		per := a.binW / s.cfg.PeriodS
		r.MsgSeries = append(r.MsgSeries, [2]float64{(t0 + a.binW/2) / 3600, a.msgBin[b] / float64(s.n) / per})
		r.ByteSeries = append(r.ByteSeries, [2]float64{(t0 + a.binW/2) / 3600, a.byteBin[b] / float64(s.n) / per})
		if t0 >= r.WarmupS-1e-9 {
			area += v
			w += a.binW
		}
	}
	if w > 0 {
		r.Utilization = area / (float64(s.n) * w)
	}
}

// throughput fills the jobs finished per hour after the warm-up (the
// seed calls Fig. 8's measure スループット, throughput).
func (s *sim) throughput(r *Result) {
	done := 0
	for _, e := range s.jobs.end {
		if e > 0 && e >= r.WarmupS {
			done++
		}
	}
	if w := s.dur - r.WarmupS; w > 0 {
		r.ThroughputPerH = float64(done) / (w / 3600)
	}
}

func (s *sim) waits(r *Result) {
	var waits []float64
	for j, st := range s.jobs.start {
		if st >= 0 {
			waits = append(waits, st-s.in.Jobs[j].Submit)
		}
	}
	r.Started = len(waits)
	if len(waits) > 0 {
		sort.Float64s(waits)
		var sum float64
		for _, x := range waits {
			sum += x
		}
		r.WaitMean = sum / float64(len(waits))
		r.WaitP95 = waits[int(math.Ceil(0.95*float64(len(waits))))-1]
	}
}

// gantt fills the chosen lanes (default the first GanttNodes nodes) and
// their bars.
func (s *sim) gantt(r *Result) {
	lanes := s.cfg.GanttLanes
	if lanes == nil {
		for i := 0; i < min(s.cfg.GanttNodes, s.n); i++ {
			lanes = append(lanes, i)
		}
	}
	laneOf := make(map[int]int, len(lanes))
	for _, i := range lanes {
		if _, dup := laneOf[i]; dup || i < 0 || i >= s.n {
			continue // checked by the caller; never index out of range here
		}
		laneOf[i] = len(r.Lanes)
		name := fmt.Sprintf("node %d", i)
		if s.nt.nat[i] {
			name += " (NAT)"
		}
		if s.isSched(i) { // central's manager is no node
			name += " (scheduler)"
		}
		r.Lanes = append(r.Lanes, name)
	}
	const maxBars = 20000
	jb := &s.jobs
	for j := range jb.node {
		lane, ok := laneOf[int(jb.node[j])]
		if !ok || len(r.Bars) >= maxBars {
			continue
		}
		end := cmp.Or(jb.end[j], s.dur)
		if jb.start[j] > jb.res[j] {
			r.Bars = append(r.Bars, report.Bar{Lane: lane, Start: jb.res[j], End: jb.start[j], Label: fmt.Sprintf("job %d (reserved)", j), Group: fmt.Sprintf("job %d", j), Kind: report.BarReserved})
		}
		if jb.start[j] >= 0 {
			r.Bars = append(r.Bars, report.Bar{Lane: lane, Start: jb.start[j], End: end, Label: fmt.Sprintf("job %d", j), Group: fmt.Sprintf("job %d", j)})
		}
	}
}
