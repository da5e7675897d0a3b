package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// Keys of the cell (Run.Cell, Row.Params) for the workload axis: a preset's
// grid parameter NAME is "workload.NAME" (so it never collides with a run
// parameter of the same name); a stored workload's id is "workload".
const (
	WorkloadKey    = "workload"
	WorkloadPrefix = "workload."
)

// Run is one expanded run of an experiment: an ordinary run of the pool.
type Run struct {
	// Index is the run's position in the expansion (0-based), stable for a
	// definition: the key under which a store records it, so a resumed
	// experiment knows which runs exist.
	Index     int
	Replicate int // r, 0-based
	// Workload is a preset with its parameters (generated with
	// WorkloadSeed) or a stored workload's ID.
	Workload     WorkloadRef
	WorkloadSeed int64 // seed + r; meaningful for a preset
	Variant      string
	Params       solvers.Params // the run grid's values for this run (defaults are the runner's)
	Seed         int64          // seed + r
	// Cell is every swept value of this run: the run grid's names bare,
	// the workload axis under WorkloadKey / WorkloadPrefix+NAME. Every
	// grid name is part of it, one-element lists included. Runs of one
	// cell differ only in variant and replicate.
	Cell solvers.Params
}

// WorkloadRef names the workload of a run: Preset and Params, or ID.
type WorkloadRef struct {
	Preset string         `json:"preset,omitempty"`
	Params solvers.Params `json:"params,omitempty"`
	ID     string         `json:"id,omitempty"`
}

// Count is the number of runs def expands to, computed without expanding
// (saturating at math.MaxInt64). With no variants named, strategy's are
// counted (a nil strategy then counts none).
func Count(def *sweep.Definition, strategy *solvers.Strategy) int64 {
	n := satMul(int64(max(def.Replicates, 0)), int64(len(variantsFor(def, strategy))))
	n = satMul(n, gridCount(def.Grid))
	if def.Workload.Preset != "" {
		return satMul(n, gridCount(def.Workload.Grid))
	}
	return satMul(n, int64(len(def.Workload.IDs)))
}

func variantsFor(def *sweep.Definition, strategy *solvers.Strategy) []string {
	if len(def.Variants) > 0 || strategy == nil {
		return def.Variants
	}
	return variantNames(strategy.Variants)
}

func gridCount(g sweep.Grid) int64 {
	n := int64(1)
	for _, vs := range g {
		n = satMul(n, int64(len(vs)))
	}
	return n
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// Expand lists the runs of a validated def (call Validate first: Expand
// does not check the run count). The order is deterministic: replicate
// outermost (so that every cell has its first result before any has its
// second), then the workload axis (ids in the given order, or the preset
// grid), then the run grid, then the variants innermost (so the runs an
// A-vs-B comparison pairs are adjacent). A grid is walked like an
// odometer over its names in sorted order, the last name fastest, each
// name's values in the order written.
func Expand(def *sweep.Definition, strategy *solvers.Strategy) []Run {
	variants := variantsFor(def, strategy)
	n := Count(def, strategy)
	if n == 0 || n > MaxRuns {
		return nil
	}
	var wls []WorkloadRef
	if def.Workload.Preset != "" {
		for _, p := range product(def.Workload.Grid) {
			wls = append(wls, WorkloadRef{Preset: def.Workload.Preset, Params: p})
		}
	} else {
		for _, id := range def.Workload.IDs {
			wls = append(wls, WorkloadRef{ID: id})
		}
	}
	cells := product(def.Grid)
	out := make([]Run, 0, n)
	for r := range def.Replicates {
		for _, w := range wls {
			for _, c := range cells {
				for _, v := range variants {
					run := Run{
						Index:     len(out),
						Replicate: r,
						Workload:  WorkloadRef{Preset: w.Preset, ID: w.ID, Params: maps.Clone(w.Params)},
						Variant:   v,
						Params:    maps.Clone(c),
						Seed:      def.Seed + int64(r),
						Cell:      make(solvers.Params, len(c)+len(w.Params)+1),
					}
					if w.Preset != "" {
						run.WorkloadSeed = run.Seed
					}
					maps.Copy(run.Cell, c)
					for k, x := range w.Params {
						run.Cell[WorkloadPrefix+k] = x
					}
					if w.ID != "" {
						run.Cell[WorkloadKey] = w.ID
					}
					out = append(out, run)
				}
			}
		}
	}
	return out
}

// product is the cartesian product of g, in odometer order over sorted
// names (last fastest). An empty grid has one empty combination.
func product(g sweep.Grid) []solvers.Params {
	names := slices.Sorted(maps.Keys(g))
	out := []solvers.Params{{}}
	for _, name := range names {
		next := make([]solvers.Params, 0, len(out)*len(g[name]))
		for _, p := range out {
			for _, v := range g[name] {
				q := maps.Clone(p)
				q[name] = v
				next = append(next, q)
			}
		}
		out = next
	}
	return out
}

// cellValues maps each cell key to the values swept under it.
func cellValues(def *sweep.Definition) map[string][]string {
	out := map[string][]string{}
	for k, vs := range def.Grid {
		out[k] = vs
	}
	if def.Workload.Preset != "" {
		for k, vs := range def.Workload.Grid {
			out[WorkloadPrefix+k] = vs
		}
	} else if len(def.Workload.IDs) > 0 {
		out[WorkloadKey] = def.Workload.IDs
	}
	return out
}

// WorkloadKey names the workload a run uses: a stored workload's ID, or
// its preset, parameters (sorted by name) and generation seed. Runs with
// equal keys share one workload, generated once.
func (r Run) WorkloadKey() string {
	if r.Workload.ID != "" {
		return "id=" + r.Workload.ID
	}
	var b strings.Builder
	b.WriteString(r.Workload.Preset)
	for _, k := range slices.Sorted(maps.Keys(r.Workload.Params)) {
		fmt.Fprintf(&b, " %s=%s", k, r.Workload.Params[k])
	}
	fmt.Fprintf(&b, " seed=%d", r.WorkloadSeed)
	return b.String()
}
