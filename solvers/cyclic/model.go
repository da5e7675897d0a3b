package cyclic

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

// User criteria (a job's own criterion, used by AEP in the fair variant).
const (
	CritStart   = "start"
	CritRuntime = "runtime"
	CritFinish  = "finish"
	CritCost    = "cost"
)

// criteria are the user criteria in the seed's Table 1 order.
var criteria = [...]string{CritStart, CritRuntime, CritFinish, CritCost}

// Limits on a native instance, checked before anything of that size exists.
const (
	MaxInterval  = 100_000
	MaxNodes     = 1_000
	MaxJobs      = 1_000
	MaxBusy      = 10_000 // busy intervals per node
	maxPerfPrice = 1e6
)

// Node is a resource: performance p (work units per time unit), price per
// time unit, and the owner's local jobs of the first cycle as busy intervals.
type Node struct {
	ID    string
	Perf  float64
	Price float64
	Busy  []Interval
}

// Job is one resource request: Nodes distinct nodes at once, Volume units of
// work (⌈Volume/p⌉ time units on a node of performance p), nodes of
// performance ≥ MinPerf only, at most MaxPrice for the whole window
// (Σ price × time), and the user's own criterion.
type Job struct {
	ID        string
	Nodes     int
	Volume    float64
	MinPerf   float64
	MaxPrice  float64
	Criterion string
}

// Instance is a workload: the planning interval T, the nodes (with the
// first cycle's local jobs), the first cycle's job batch and, optionally,
// the generator that draws later cycles' local load and new jobs.
type Instance struct {
	Interval  int
	Nodes     []Node
	Jobs      []Job
	Generator *GenConfig
	// Later, when set, are the new jobs of cycles 2, 3, … (a trace cut
	// into cycles); cycles past them get none. Not part of the JSON.
	Later [][]Job
}

type nodeJSON struct {
	ID          string  `json:"id"`
	Performance float64 `json:"performance"`
	Price       float64 `json:"price"`
	Busy        [][]int `json:"busy"`
}

type jobJSON struct {
	ID             string  `json:"id"`
	Nodes          int     `json:"nodes"`
	Volume         float64 `json:"volume"`
	MinPerformance float64 `json:"min_performance"`
	MaxPrice       float64 `json:"max_price"`
	Criterion      string  `json:"criterion,omitempty"`
}

type instanceJSON struct {
	Interval  int        `json:"interval"`
	Nodes     []nodeJSON `json:"nodes"`
	Jobs      []jobJSON  `json:"jobs"`
	Generator *GenConfig `json:"generator,omitempty"`
}

// ParseJSON reads the native JSON (see doc.go). Unknown fields and trailing
// data are errors; every error is errs.Invalid (or TooLarge) naming the field.
func ParseJSON(data []byte) (*Instance, error) {
	var raw instanceJSON
	if err := formats.DecodeStrict(data, &raw, "a cyclic workload JSON"); err != nil {
		return nil, err
	}
	if len(raw.Nodes) > MaxNodes {
		return nil, errs.New(errs.TooLarge, "nodes", "%d nodes, at most %d", len(raw.Nodes), MaxNodes)
	}
	if len(raw.Jobs) > MaxJobs {
		return nil, errs.New(errs.TooLarge, "jobs", "%d jobs, at most %d", len(raw.Jobs), MaxJobs)
	}
	in := &Instance{Interval: raw.Interval, Generator: raw.Generator}
	for i, n := range raw.Nodes {
		if len(n.Busy) > MaxBusy {
			return nil, errs.New(errs.TooLarge, fmt.Sprintf("nodes[%d].busy", i), "%d intervals, at most %d", len(n.Busy), MaxBusy)
		}
		node := Node{ID: n.ID, Perf: n.Performance, Price: n.Price}
		for k, b := range n.Busy {
			if len(b) != 2 {
				return nil, errs.Invalidf(fmt.Sprintf("nodes[%d].busy[%d]", i, k), "must be a pair [start, end], got %d numbers", len(b))
			}
			node.Busy = append(node.Busy, Interval{b[0], b[1]})
		}
		in.Nodes = append(in.Nodes, node)
	}
	for _, j := range raw.Jobs {
		c := j.Criterion
		if c == "" {
			c = CritStart
		}
		in.Jobs = append(in.Jobs, Job{ID: j.ID, Nodes: j.Nodes, Volume: j.Volume, MinPerf: j.MinPerformance, MaxPrice: j.MaxPrice, Criterion: c})
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Validate checks an instance; errors are errs.Invalid naming the field.
func (in *Instance) Validate() error {
	if in.Interval < 1 {
		return errs.Invalidf("interval", "must be at least 1 time unit, got %d", in.Interval)
	}
	if in.Interval > MaxInterval {
		return errs.New(errs.TooLarge, "interval", "%d time units, at most %d", in.Interval, MaxInterval)
	}
	if len(in.Nodes) == 0 {
		return errs.Invalidf("nodes", "no nodes")
	}
	if len(in.Nodes) > MaxNodes {
		return errs.New(errs.TooLarge, "nodes", "%d nodes, at most %d", len(in.Nodes), MaxNodes)
	}
	if len(in.Jobs) == 0 {
		return errs.Invalidf("jobs", "no jobs: the first cycle needs at least one job")
	}
	if len(in.Jobs) > MaxJobs {
		return errs.New(errs.TooLarge, "jobs", "%d jobs, at most %d", len(in.Jobs), MaxJobs)
	}
	ids := map[string]int{}
	for i, n := range in.Nodes {
		f := fmt.Sprintf("nodes[%d]", i)
		if n.ID == "" {
			return errs.Invalidf(f+".id", "empty node id")
		}
		if p, dup := ids[n.ID]; dup {
			return errs.Invalidf(f+".id", "duplicate node id %q (also nodes[%d])", n.ID, p)
		}
		ids[n.ID] = i
		if !finite(n.Perf) || n.Perf <= 0 || n.Perf > maxPerfPrice {
			return errs.Invalidf(f+".performance", "must be a number in (0, %g], got %v", maxPerfPrice, n.Perf)
		}
		if !finite(n.Price) || n.Price < 0 || n.Price > maxPerfPrice {
			return errs.Invalidf(f+".price", "must be a number in [0, %g], got %v", maxPerfPrice, n.Price)
		}
		if len(n.Busy) > MaxBusy {
			return errs.New(errs.TooLarge, f+".busy", "%d intervals, at most %d", len(n.Busy), MaxBusy)
		}
		for k, b := range n.Busy {
			if b.Start < 0 || b.End > in.Interval || b.End <= b.Start {
				return errs.Invalidf(fmt.Sprintf("%s.busy[%d]", f, k), "must be [start, end] with 0 ≤ start < end ≤ interval (%d), got [%d, %d]", in.Interval, b.Start, b.End)
			}
			if k > 0 && b.Start < n.Busy[k-1].End {
				return errs.Invalidf(fmt.Sprintf("%s.busy[%d]", f, k), "must start at or after the previous interval's end (%d) (sorted, not overlapping), got %d", n.Busy[k-1].End, b.Start)
			}
		}
	}
	jids := map[string]int{}
	for i, j := range in.Jobs {
		f := fmt.Sprintf("jobs[%d]", i)
		if j.ID == "" {
			return errs.Invalidf(f+".id", "empty job id")
		}
		if p, dup := jids[j.ID]; dup {
			return errs.Invalidf(f+".id", "duplicate job id %q (also jobs[%d])", j.ID, p)
		}
		jids[j.ID] = i
		if j.Nodes < 1 || j.Nodes > len(in.Nodes) {
			return errs.Invalidf(f+".nodes", "must be 1..%d (the number of nodes), got %d", len(in.Nodes), j.Nodes)
		}
		if !finite(j.Volume) || j.Volume <= 0 || j.Volume > maxPerfPrice*float64(in.Interval) {
			return errs.Invalidf(f+".volume", "must be a positive number, got %v", j.Volume)
		}
		if !finite(j.MinPerf) || j.MinPerf < 0 || j.MinPerf > maxPerfPrice {
			return errs.Invalidf(f+".min_performance", "must be a number ≥ 0, got %v", j.MinPerf)
		}
		if !finite(j.MaxPrice) || j.MaxPrice < 0 || j.MaxPrice > 1e15 {
			return errs.Invalidf(f+".max_price", "must be a number ≥ 0, got %v", j.MaxPrice)
		}
		if !slices.Contains(criteria[:], j.Criterion) {
			return errs.Invalidf(f+".criterion", "must be one of start, runtime, finish, cost, got %q", j.Criterion)
		}
	}
	if in.Generator != nil {
		if err := in.Generator.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// MarshalJSON writes the canonical native JSON.
func (in *Instance) MarshalJSON() ([]byte, error) {
	raw := instanceJSON{Interval: in.Interval, Generator: in.Generator}
	for _, n := range in.Nodes {
		nj := nodeJSON{ID: n.ID, Performance: n.Perf, Price: n.Price, Busy: [][]int{}}
		for _, b := range n.Busy {
			nj.Busy = append(nj.Busy, []int{b.Start, b.End})
		}
		raw.Nodes = append(raw.Nodes, nj)
	}
	raw.Jobs = []jobJSON{}
	for _, j := range in.Jobs {
		raw.Jobs = append(raw.Jobs, jobJSON{ID: j.ID, Nodes: j.Nodes, Volume: j.Volume, MinPerformance: j.MinPerf, MaxPrice: j.MaxPrice, Criterion: j.Criterion})
	}
	return json.Marshal(raw)
}

// Domain returns the first cycle's slot model: the nodes with their local jobs busy.
func (in *Instance) Domain() *Domain {
	perf := make([]float64, len(in.Nodes))
	price := make([]float64, len(in.Nodes))
	for i, n := range in.Nodes {
		perf[i], price[i] = n.Perf, n.Price
	}
	d := NewDomain(in.Interval, perf, price)
	for i, n := range in.Nodes {
		d.setBusy(i, append([]Interval(nil), n.Busy...))
	}
	return d
}
