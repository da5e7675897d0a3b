package critical

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

// GenConfig is the random layered DAG generator (preset "random").
type GenConfig struct {
	Tasks       int     // tasks in all
	Layers      int     // layers (1..Tasks); every layer gets ≥ 1 task
	Density     float64 // probability of each edge between consecutive layers
	VolMin      float64 // task volume, uniform in [VolMin, VolMax], work units
	VolMax      float64
	TransferMin float64 // edge transfer time, uniform in [TransferMin, TransferMax], time units
	TransferMax float64
	Processors  int
	PerfMin     float64 // performance, uniform in [PerfMin, PerfMax], work units per time unit
	PerfMax     float64
}

// DefaultGenConfig is the preset's default, each value with its reason.
func DefaultGenConfig() GenConfig {
	return GenConfig{
		Tasks:       30,  // tasks: 6 layers of width 5, the size of the seed's Fig. 2-like examples
		Layers:      6,   // layers
		Density:     0.3, // edge probability between consecutive layers
		VolMin:      10,  // work units
		VolMax:      100, // work units
		TransferMin: 5,   // time units
		TransferMax: 50,  // time units: communication-to-computation ratio near 0.5 at mean performance 2.5
		Processors:  4,   // processors
		PerfMin:     1,   // work units per time unit
		PerfMax:     4,   // work units per time unit
	}
}

// Generate builds a random layered DAG: tasks split into layers (each ≥ 1
// task, the rest uniformly at random), an edge between each pair of tasks in
// consecutive layers with probability Density, and every task below the
// first layer given at least one parent in the layer above (so layer = depth).
func Generate(c GenConfig, rng *rand.Rand) (*Graph, error) {
	switch {
	case c.Tasks < 1:
		return nil, errs.Invalidf("tasks", "must be at least 1, got %d", c.Tasks)
	case c.Layers < 1 || c.Layers > c.Tasks:
		return nil, errs.Invalidf("layers", "must be 1..tasks (%d), got %d", c.Tasks, c.Layers)
	case c.Density < 0 || c.Density > 1:
		return nil, errs.Invalidf("density", "must be in [0, 1], got %v", c.Density)
	case c.VolMin < 0 || c.VolMax < c.VolMin:
		return nil, errs.Invalidf("vol_max", "need 0 ≤ vol_min ≤ vol_max, got %v..%v", c.VolMin, c.VolMax)
	case c.TransferMin < 0 || c.TransferMax < c.TransferMin:
		return nil, errs.Invalidf("transfer_max", "need 0 ≤ transfer_min ≤ transfer_max, got %v..%v", c.TransferMin, c.TransferMax)
	case c.Processors < 1 || c.Processors > MaxProcessors:
		return nil, errs.Invalidf("processors", "must be 1..%d, got %d", MaxProcessors, c.Processors)
	case c.PerfMin <= 0 || c.PerfMax < c.PerfMin:
		return nil, errs.Invalidf("perf_max", "need 0 < perf_min ≤ perf_max, got %v..%v", c.PerfMin, c.PerfMax)
	case c.Tasks > MaxTasks:
		return nil, errs.New(errs.TooLarge, "tasks", "%d tasks, at most %d", c.Tasks, MaxTasks)
	}
	size := make([]int, c.Layers)
	for i := range size {
		size[i] = 1
	}
	for range c.Tasks - c.Layers {
		size[rng.Intn(c.Layers)]++
	}
	// Expected edges: density × Σ size_k·size_{k+1} (+ the forced parents).
	pairs := 0.0
	for k := 0; k+1 < c.Layers; k++ {
		pairs += float64(size[k]) * float64(size[k+1])
	}
	if c.Density*pairs+float64(c.Tasks) > MaxEdges {
		return nil, errs.New(errs.TooLarge, "density", "about %.0f edges expected (density × %.0f pairs of consecutive-layer tasks), at most %d: lower density or use more layers", c.Density*pairs, pairs, MaxEdges)
	}
	g := &Graph{Source: "preset"}
	first := make([]int, c.Layers+1)
	for k, s := range size {
		first[k+1] = first[k] + s
	}
	uni := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	for k := range c.Layers {
		for j := range size[k] {
			g.Tasks = append(g.Tasks, Task{ID: fmt.Sprintf("t%d_%d", k+1, j+1), Volume: round3(uni(c.VolMin, c.VolMax))})
		}
	}
	for k := 1; k < c.Layers; k++ {
		for v := first[k]; v < first[k+1]; v++ {
			has := false
			for u := first[k-1]; u < first[k]; u++ {
				if rng.Float64() < c.Density {
					g.Edges = append(g.Edges, Edge{From: u, To: v, Transfer: round3(uni(c.TransferMin, c.TransferMax))})
					has = true
				}
			}
			if !has {
				u := first[k-1] + rng.Intn(size[k-1])
				g.Edges = append(g.Edges, Edge{From: u, To: v, Transfer: round3(uni(c.TransferMin, c.TransferMax))})
			}
		}
	}
	for p := range c.Processors {
		g.Processors = append(g.Processors, Processor{ID: fmt.Sprintf("P%d", p+1), Performance: round3(uni(c.PerfMin, c.PerfMax)), Price: 1})
	}
	for i := range g.Processors {
		if g.Processors[i].Performance <= 0 {
			g.Processors[i].Performance = c.PerfMin
		}
	}
	return g, g.Validate()
}

// round3 keeps three decimals so the stored JSON is short and exact.
func round3(x float64) float64 {
	return float64(int64(x*1000+0.5)) / 1000
}

// WorkflowPlatform is the processors a WfFormat workflow is scheduled on
// (see doc.go): four processors of performance 1, 1, 2, 4 relative to the
// machine that recorded the runtimes, so volume = runtime in seconds and a
// task's time on processor p = runtime / performance(p).
func WorkflowPlatform() []float64 { return []float64{1, 1, 2, 4} }

// ParsePerformances reads the run parameter wf_processors: comma-separated
// positive performances, 1..MaxProcessors of them.
func ParsePerformances(s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) > MaxProcessors {
		return nil, errs.Invalidf("wf_processors", "%d processors, at most %d", len(parts), MaxProcessors)
	}
	out := make([]float64, 0, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > 1e9 {
			return nil, errs.Invalidf("wf_processors", "item %d (%q) must be a performance > 0 and ≤ 1e9, e.g. \"1,1,2,4\"", i+1, strings.TrimSpace(p))
		}
		out = append(out, v)
	}
	return out, nil
}

// withPlatform puts a WfFormat workflow on the processors of the run
// parameter wf_processors (checked for every graph, used for WfFormat
// ones only: native and preset graphs keep their processors).
func withPlatform(g *Graph, cfg RunConfig) (*Graph, error) {
	perfs, err := ParsePerformances(cfg.WfProcessors)
	if err != nil {
		return nil, err
	}
	if g.Source != "wfformat" || g.Times != nil {
		return g, nil
	}
	h := *g
	h.Processors = platform(perfs)
	return &h, nil
}

// platform is processors P1, P2, … of the given performances, price 1.
func platform(perfs []float64) []Processor {
	ps := make([]Processor, len(perfs))
	for p, perf := range perfs {
		ps[p] = Processor{ID: fmt.Sprintf("P%d", p+1), Performance: perf, Price: 1}
	}
	return ps
}

// FromWorkflow turns a WfFormat workflow into a task graph: volume =
// runtimeInSeconds (reference performance 1 = the recording machine's
// core), an edge per parent/child with bytes = the files the parent writes
// and the child reads (converted to time at the run's bandwidth), the
// processors of WorkflowPlatform.
func FromWorkflow(w *formats.Workflow, name string) (*Graph, error) {
	g := &Graph{Name: name, Source: "wfformat"}
	if w.Name != "" {
		g.Name = w.Name
	}
	for _, t := range w.Tasks {
		g.Tasks = append(g.Tasks, Task{ID: t.ID, Volume: t.Runtime})
	}
	for i, t := range w.Tasks {
		for _, c := range t.Children {
			g.Edges = append(g.Edges, Edge{From: i, To: c, Bytes: float64(w.EdgeBytes(i, c))})
		}
	}
	g.Processors = platform(WorkflowPlatform())
	return g, g.Validate()
}
