package dcop

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

// GenConfig is the namekata2008 generator's knobs (the preset's params).
type GenConfig struct {
	Jobs      int    // number of jobs (seed: 20, 30, 40, 50)
	Resources int    // number of resources / clusters
	PerJob    int    // distinct resources each job needs
	DurMin    int    // shortest duration, slots
	DurMax    int    // longest duration, slots (uniform in DurMin..DurMax)
	Horizon   int    // slots 1..Horizon, the domain {1..T}
	Filter    string // which connected draws are kept: FilterFeasible, FilterGreedyFit or FilterNone ("")
}

// Generator filters (the preset parameter filter).
const (
	// FilterFeasible keeps draws that have a schedule with every start in
	// {1..T} (DomainStarts), decided exactly (HasSchedule).
	FilterFeasible = "feasible"
	// FilterGreedyFit keeps draws whose greedy list schedule ends inside the
	// horizon (the generator before the seed's setting was adopted).
	FilterGreedyFit = "greedy-fit"
	// FilterNone keeps every connected draw.
	FilterNone = "none"
)

// feasibleCheck bounds the exact feasibility test of one draw; a draw it
// cannot decide is rejected (never seen on namekata2008 draws, which
// decide in about a millisecond).
const feasibleCheck = 200 * time.Millisecond

// GenStats counts the draws of one Generate: all of them, and those
// rejected as disconnected or by the filter.
type GenStats struct {
	Draws, Disconnected, Filtered int
}

// Namekata2008 is the seed's experimental setting (Section 4.1): 15
// resources (clusters), 2 per job, durations 1..3 slots, domain {1..20}.
func Namekata2008(jobs int) GenConfig {
	return GenConfig{
		Jobs:      jobs, // the seed varies 20, 30, 40, 50
		Resources: 15,   // "リソース (クラスタ) の数は 15 個"
		PerJob:    2,    // "必要とするリソースは 2 個"
		DurMin:    1,    // "タイムスロット数は 1∼3"
		DurMax:    3,
		Horizon:   20, // "τ := {1, ..., 20}"
		// The seed states only connectivity, but it reports an accuracy
		// for every size, so its instances had schedules: at 50 jobs most
		// connected draws have none with starts in {1..20}.
		Filter: FilterFeasible,
	}
}

var _ solvers.Checker = GenConfig{}

// Check returns every problem of cfg at once (solvers.Checker: the
// generate form shows them together), each naming its parameter.
func (cfg GenConfig) Check() error {
	var problems []error
	add := func(bad bool, field, format string, args ...any) {
		if bad {
			problems = append(problems, errs.Invalidf(field, format, args...))
		}
	}
	add(cfg.Filter != "" && cfg.Filter != FilterFeasible && cfg.Filter != FilterGreedyFit && cfg.Filter != FilterNone,
		"filter", "must be %s, %s or %s, got %q", FilterFeasible, FilterGreedyFit, FilterNone, cfg.Filter)
	add(cfg.Jobs < 1, "jobs", "must be at least 1, got %d", cfg.Jobs)
	add(cfg.Resources < 1, "resources", "must be at least 1, got %d", cfg.Resources)
	add(cfg.PerJob < 1 || cfg.PerJob > cfg.Resources, "per_job", "must be 1..resources (%d), got %d", cfg.Resources, cfg.PerJob)
	add(cfg.DurMin < 1 || cfg.DurMax < cfg.DurMin, "dur_min", "need 1 ≤ dur_min ≤ dur_max, got %d..%d", cfg.DurMin, cfg.DurMax)
	add(cfg.DurMax > cfg.Horizon, "dur_max", "must be at most horizon (%d), got %d", cfg.Horizon, cfg.DurMax)
	return errs.Join(problems)
}

// genAttempts bounds the rejection sampling in Generate.
const genAttempts = 1000

// GenerateContext draws an instance from cfg with src. Each job draws PerJob
// distinct resources uniformly and a duration uniformly in DurMin..DurMax;
// value 1. The seed generates instances "so that the constraint graph is a
// single connected component" (§4.1 "単一の連結成分からなる制約網が作成
// されるように生成した"): we redraw the whole instance (rejection sampling,
// so kept instances keep their natural distribution) until its constraint
// graph is connected and it passes cfg.Filter, up to 1000 draws. If no draw
// qualifies, a last draw anchors job k>0 on a resource of an earlier job
// (connected by construction), returned if it passes the filter;
// otherwise errs.Invalid names "jobs". Deterministic for a given src state.
// It stops with ctx's error when ctx is done (checked before every draw).
// The greedy-fit test of a draw is fitsHorizon, which never looks past the
// horizon, so a draw whose greedy schedule is far too long costs no more
// memory than one that fits.
func GenerateContext(ctx context.Context, cfg GenConfig, src *rand.Rand) (*Instance, error) {
	in, _, err := generateCounted(ctx, cfg, src)
	return in, err
}

// generateCounted is GenerateContext counting the draws.
func generateCounted(ctx context.Context, cfg GenConfig, src *rand.Rand) (*Instance, GenStats, error) {
	var st GenStats
	if err := cfg.Check(); err != nil {
		return nil, st, err
	}
	for range genAttempts {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		in := draw(cfg, src, false)
		st.Draws++
		// The cheap bounded pretest first: a draw it rejects never builds
		// its constraint graph (jobs² at worst).
		if !prefilter(in, cfg.Filter) {
			st.Filtered++
			continue
		}
		if in.ConstraintGraph().Components() != 1 {
			st.Disconnected++
			continue
		}
		if passes(ctx, in, cfg.Filter) {
			return in, st, nil
		}
		st.Filtered++
	}
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	in := draw(cfg, src, true)
	st.Draws++
	if prefilter(in, cfg.Filter) && passes(ctx, in, cfg.Filter) {
		return in, st, nil
	}
	return nil, st, errs.Invalidf("jobs", "no connected instance passing filter %s in %d draws: too many jobs for %d resources and horizon %d", cfg.Filter, genAttempts+1, cfg.Resources, cfg.Horizon)
}

// prefilter is the filter's necessary condition in time linear in the
// draw: greedy-fit's horizon-bounded test, or for feasible that no
// resource carries more work than the grid holds (every job ends by
// T + L − 1, so by T + the longest duration − 1).
func prefilter(in *Instance, filter string) bool {
	switch filter {
	case FilterGreedyFit:
		return fitsHorizon(in)
	case FilterFeasible:
		busiest, longest := resourceWork(in)
		return busiest <= in.Horizon+longest-1
	}
	return true
}

// passes applies a generator filter to a connected draw that passed
// prefilter.
func passes(ctx context.Context, in *Instance, filter string) bool {
	switch filter {
	case FilterFeasible:
		ok, decided := HasSchedule(ctx, in, DomainStarts, feasibleCheck)
		return ok && decided
	}
	return true
}

func draw(cfg GenConfig, src *rand.Rand, anchored bool) *Instance {
	in := &Instance{Horizon: cfg.Horizon, Resources: make([]string, cfg.Resources), Jobs: make([]Job, cfg.Jobs)}
	for r := range in.Resources {
		in.Resources[r] = fmt.Sprintf("R%d", r+1)
	}
	var used []int
	usedSet := make([]bool, cfg.Resources)
	for k := range in.Jobs {
		pick := make([]bool, cfg.Resources)
		var res []int
		if anchored && k > 0 {
			r := used[src.Intn(len(used))]
			pick[r] = true
			res = append(res, r)
		}
		for len(res) < cfg.PerJob {
			r := src.Intn(cfg.Resources)
			if !pick[r] {
				pick[r] = true
				res = append(res, r)
			}
		}
		// ascending, as ParseJSON leaves them
		res = res[:0]
		for r, p := range pick {
			if p {
				res = append(res, r)
				if !usedSet[r] {
					usedSet[r] = true
					used = append(used, r)
				}
			}
		}
		in.Jobs[k] = Job{
			ID:        fmt.Sprintf("E%d", k+1),
			Resources: res,
			Duration:  cfg.DurMin + src.Intn(cfg.DurMax-cfg.DurMin+1),
			Value:     1,
		}
	}
	return in
}

// generateBytes estimates the memory of one Generate: the jobs' resource
// lists (with the draw's pick table), the constraint graph (at worst
// complete: jobs² neighbours, with the resources' user lists), the
// horizon-bounded greedy test (resources × horizon) and the workload's
// preview table and JSON (resources × jobs cells).
func generateBytes(cfg GenConfig) int64 {
	J, R, K, H := int64(cfg.Jobs), int64(cfg.Resources), int64(cfg.PerJob), int64(cfg.Horizon)
	return solvers.SatAdd(
		solvers.SatMul(J, K, 16), solvers.SatMul(J, R),
		solvers.SatMul(J, J, 16), solvers.SatMul(J, K, 16),
		solvers.SatMul(R, H),
		solvers.SatMul(R, J, 48))
}

// fitsHorizon reports whether Makespan(in, Greedy(in)) ≤ in.Horizon,
// stopping at the first job the list schedule would end past the horizon:
// its tables never grow past resources × horizon.
func fitsHorizon(in *Instance) bool {
	_, ok := greedy(in, in.Horizon)
	return ok
}

// Greedy is the list schedule that starts each job, in index order, at the
// earliest slot where all its resources are free. Its makespan may exceed
// the horizon; it is an upper bound for the exact solver.
func Greedy(in *Instance) Schedule {
	s, _ := greedy(in, math.MaxInt)
	return s
}

// greedy is Greedy, false as soon as a job would end after slot limit.
func greedy(in *Instance, limit int) (Schedule, bool) {
	busy := make([][]bool, len(in.Resources)) // busy[r][t-1]
	sched := make(Schedule, len(in.Jobs))
	free := func(r, t int) bool { return t-1 >= len(busy[r]) || !busy[r][t-1] }
	for k, j := range in.Jobs {
		s := 1
	search:
		for {
			if s+j.Duration-1 > limit {
				return nil, false
			}
			for t := s; t < s+j.Duration; t++ {
				for _, r := range j.Resources {
					if !free(r, t) {
						s = t + 1
						continue search
					}
				}
			}
			break
		}
		sched[k] = s
		for _, r := range j.Resources {
			for len(busy[r]) < s+j.Duration-1 {
				busy[r] = append(busy[r], false)
			}
			for t := s; t < s+j.Duration; t++ {
				busy[r][t-1] = true
			}
		}
	}
	return sched, true
}
