package dcop

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

// EntryBytes is the size of one UTIL hypercube entry (float32): the seed's
// MB figures fit 4-byte entries (20^5 × 4 B = 12.8 MB ≈ its 1.2e1 MB). Its
// "MB" is MiB (PaperMB; its "1.2MB" is a typo) and its tables count d = 20
// for every node, which the reproduce shows beside our actual-domain sizes
// (*_actual); published sizes become widths (ImpliedWidth), compared as
// geometric means.
const EntryBytes = 4

// Limits on a native instance, checked before anything of that size exists.
const (
	MaxHorizon   = 100_000
	MaxJobs      = 10_000
	MaxResources = 10_000
)

// Job is one co-allocation request: it holds every resource of Resources
// (indices into Instance.Resources) at once for Duration slots.
type Job struct {
	ID        string
	Resources []int   // distinct indices into Instance.Resources, ascending
	Duration  int     // slots, 1..Horizon
	Value     float64 // worth when scheduled (value objective), ≥ 0
}

// Instance is a co-allocation workload: slots 1..Horizon, named resources
// and jobs. Build one with ParseJSON or Generate, or check a literal with
// Validate.
type Instance struct {
	Horizon   int
	Resources []string
	Jobs      []Job
}

type jobJSON struct {
	ID        string   `json:"id"`
	Resources []string `json:"resources"`
	Duration  int      `json:"duration"`
	Value     *float64 `json:"value,omitempty"`
}

type instanceJSON struct {
	Horizon   int       `json:"horizon"`
	Resources []string  `json:"resources"`
	Jobs      []jobJSON `json:"jobs"`
}

// ParseJSON reads the native JSON: {"horizon", "resources", "jobs":
// [{"id", "resources", "duration", "value" (default 1)}]}. Unknown fields
// and trailing data are errors; every error is errs.Invalid naming the
// field.
func ParseJSON(data []byte) (*Instance, error) {
	var raw instanceJSON
	if err := formats.DecodeStrict(data, &raw, "a co-allocation workload JSON"); err != nil {
		return nil, err
	}
	if len(raw.Resources) > MaxResources {
		return nil, errs.New(errs.TooLarge, "resources", "%d resources, at most %d", len(raw.Resources), MaxResources)
	}
	if len(raw.Jobs) > MaxJobs {
		return nil, errs.New(errs.TooLarge, "jobs", "%d jobs, at most %d", len(raw.Jobs), MaxJobs)
	}
	index := make(map[string]int, len(raw.Resources))
	for i, r := range raw.Resources {
		if r == "" {
			return nil, errs.Invalidf(fmt.Sprintf("resources[%d]", i), "empty resource name")
		}
		if j, dup := index[r]; dup {
			return nil, errs.Invalidf(fmt.Sprintf("resources[%d]", i), "duplicate resource %q (also resources[%d])", r, j)
		}
		index[r] = i
	}
	inst := &Instance{Horizon: raw.Horizon, Resources: raw.Resources, Jobs: make([]Job, len(raw.Jobs))}
	for k, j := range raw.Jobs {
		job := Job{ID: j.ID, Duration: j.Duration, Value: 1}
		if j.Value != nil {
			job.Value = *j.Value
		}
		for _, r := range j.Resources {
			i, ok := index[r]
			if !ok {
				return nil, errs.Invalidf(fmt.Sprintf("jobs[%d].resources", k), "unknown resource %q (not in resources)", r)
			}
			job.Resources = append(job.Resources, i)
		}
		inst.Jobs[k] = job
	}
	if err := inst.Validate(); err != nil {
		return nil, err
	}
	for k := range inst.Jobs {
		slices.Sort(inst.Jobs[k].Resources)
	}
	return inst, nil
}

// Validate checks an instance; errors are errs.Invalid naming the field.
func (in *Instance) Validate() error {
	if in.Horizon < 1 {
		return errs.Invalidf("horizon", "must be at least 1 slot, got %d", in.Horizon)
	}
	if in.Horizon > MaxHorizon {
		return errs.New(errs.TooLarge, "horizon", "%d slots, at most %d", in.Horizon, MaxHorizon)
	}
	if len(in.Resources) == 0 {
		return errs.Invalidf("resources", "no resources")
	}
	if len(in.Jobs) == 0 {
		return errs.Invalidf("jobs", "no jobs")
	}
	ids := make(map[string]int, len(in.Jobs))
	for k, j := range in.Jobs {
		f := fmt.Sprintf("jobs[%d]", k)
		if j.ID == "" {
			return errs.Invalidf(f+".id", "empty job id")
		}
		if p, dup := ids[j.ID]; dup {
			return errs.Invalidf(f+".id", "duplicate job id %q (also jobs[%d])", j.ID, p)
		}
		ids[j.ID] = k
		if len(j.Resources) == 0 {
			return errs.Invalidf(f+".resources", "job %s needs no resource", j.ID)
		}
		seen := map[int]bool{}
		for _, r := range j.Resources {
			if r < 0 || r >= len(in.Resources) {
				return errs.Invalidf(f+".resources", "unknown resource index %d", r)
			}
			if seen[r] {
				return errs.Invalidf(f+".resources", "resource %q listed twice", in.Resources[r])
			}
			seen[r] = true
		}
		if j.Duration < 1 || j.Duration > in.Horizon {
			return errs.Invalidf(f+".duration", "must be 1..horizon (%d) slots, got %d", in.Horizon, j.Duration)
		}
		if math.IsNaN(j.Value) || math.IsInf(j.Value, 0) || j.Value < 0 || j.Value > 1e30 {
			return errs.Invalidf(f+".value", "must be a finite number ≥ 0, got %v", j.Value)
		}
	}
	return nil
}

// MarshalJSON writes the canonical native JSON.
func (in *Instance) MarshalJSON() ([]byte, error) {
	raw := instanceJSON{Horizon: in.Horizon, Resources: in.Resources, Jobs: make([]jobJSON, len(in.Jobs))}
	for k, j := range in.Jobs {
		v := j.Value
		jj := jobJSON{ID: j.ID, Duration: j.Duration, Value: &v, Resources: make([]string, len(j.Resources))}
		for i, r := range j.Resources {
			jj.Resources[i] = in.Resources[r]
		}
		raw.Jobs[k] = jj
	}
	return json.Marshal(raw)
}

// Graph is the constraint graph: Adj[k] lists, ascending, the jobs that
// share a resource with job k.
type Graph struct {
	Adj [][]int
}

// ConstraintGraph builds the graph of binary no-overlap constraints.
func (in *Instance) ConstraintGraph() *Graph {
	n := len(in.Jobs)
	users := make([][]int, len(in.Resources))
	for k, j := range in.Jobs {
		for _, r := range j.Resources {
			users[r] = append(users[r], k)
		}
	}
	g := &Graph{Adj: make([][]int, n)}
	for k := range n {
		mark := map[int]bool{}
		for _, r := range in.Jobs[k].Resources {
			for _, o := range users[r] {
				if o != k && !mark[o] {
					mark[o] = true
					g.Adj[k] = append(g.Adj[k], o)
				}
			}
		}
		slices.Sort(g.Adj[k])
	}
	return g
}

// Edges counts the constraint edges.
func (g *Graph) Edges() int {
	s := 0
	for _, a := range g.Adj {
		s += len(a)
	}
	return s / 2
}

// Components counts connected components.
func (g *Graph) Components() int {
	seen := make([]bool, len(g.Adj))
	c := 0
	for s := range g.Adj {
		if seen[s] {
			continue
		}
		c++
		stack := []int{s}
		seen[s] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range g.Adj[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
	}
	return c
}

// Schedule is a start slot per job (index as Instance.Jobs); 0 means
// unscheduled (allowed by the value objective only).
type Schedule []int

// overlap reports whether job a starting at sa and job b at sb share a
// slot; an unscheduled job (start 0) overlaps nothing.
func overlap(sa, la, sb, lb int) bool {
	return sa != 0 && sb != 0 && sa < sb+lb && sb < sa+la
}

// Domain readings of the time grid (the run parameter domain).
const (
	// DomainStarts is the seed's τ = {1..T} as the domain of every start
	// (§4.1 "ノードの持つ変数領域は τ := {1, ..., 20} とした"): d = T values for
	// every job, so a job starting late may end after slot T (up to T+L−1).
	DomainStarts = "starts"
	// DomainFit keeps every job inside the grid: starts 1..T−L+1 (§2.2's
	// "時間領域 τ の中でスケジュールされた" read as "ends inside τ" too).
	DomainFit = "fit"
)

// maxStart is job k's last start under the domain reading.
func maxStart(in *Instance, k int, domain string) int {
	if domain == DomainFit {
		return in.Horizon - in.Jobs[k].Duration + 1
	}
	return in.Horizon
}

// checkDomain refuses an unknown domain reading, naming the field.
func checkDomain(domain string) error {
	if domain != DomainStarts && domain != DomainFit {
		return errs.Invalidf("domain", "must be %s or %s, got %q", DomainStarts, DomainFit, domain)
	}
	return nil
}

// Feasible checks sched: one start per job, each inside 1..maxStart (or 0
// when allowUnscheduled), and no two jobs sharing a resource overlap.
func Feasible(in *Instance, sched Schedule, allowUnscheduled bool, domain string) error {
	if len(sched) != len(in.Jobs) {
		return fmt.Errorf("schedule has %d starts for %d jobs", len(sched), len(in.Jobs))
	}
	for k, s := range sched {
		j := in.Jobs[k]
		if s == 0 && allowUnscheduled {
			continue
		}
		if last := maxStart(in, k, domain); s < 1 || s > last {
			return fmt.Errorf("job %s starts at %d: outside its starts 1..%d (domain %s, duration %d)", j.ID, s, last, domain, j.Duration)
		}
	}
	g := in.ConstraintGraph()
	for a, adj := range g.Adj {
		for _, b := range adj {
			if b > a && overlap(sched[a], in.Jobs[a].Duration, sched[b], in.Jobs[b].Duration) {
				return fmt.Errorf("jobs %s (slots %d..%d) and %s (slots %d..%d) overlap on a shared resource",
					in.Jobs[a].ID, sched[a], sched[a]+in.Jobs[a].Duration-1,
					in.Jobs[b].ID, sched[b], sched[b]+in.Jobs[b].Duration-1)
			}
		}
	}
	return nil
}

// Makespan is the last occupied slot (slots from 1; 0 if nothing runs).
func Makespan(in *Instance, sched Schedule) int {
	m := 0
	for k, s := range sched {
		if s != 0 {
			m = max(m, s+in.Jobs[k].Duration-1)
		}
	}
	return m
}

// TotalValue sums the values of the scheduled jobs.
func TotalValue(in *Instance, sched Schedule) float64 {
	v := 0.0
	for k, s := range sched {
		if s != 0 {
			v += in.Jobs[k].Value
		}
	}
	return v
}

// LowerBound is a lower bound on every makespan: the heaviest clique of
// the constraint graph that cliqueBound finds (jobs that pairwise share a
// resource run one after another, so their durations add up), which is at
// least the busiest resource's total work and the longest job.
func LowerBound(in *Instance) int {
	busiest, longest := resourceWork(in)
	return max(busiest, longest, cliqueBound(in, in.ConstraintGraph(), cliqueNodes))
}

// resourceWork is the busiest resource's total work and the longest
// duration.
func resourceWork(in *Instance) (busiest, longest int) {
	work := make([]int, len(in.Resources))
	for _, j := range in.Jobs {
		longest = max(longest, j.Duration)
		for _, r := range j.Resources {
			work[r] += j.Duration
		}
	}
	return slices.Max(work), longest
}

// cliqueNodes bounds the clique search: any clique found is a valid bound.
const cliqueNodes = 200_000

// cliqueBound is the largest total duration of a clique of g found by a
// branch and bound over at most budget search nodes (vertices by
// decreasing duration; a branch is cut when its weight plus all its
// candidates' cannot beat the best).
func cliqueBound(in *Instance, g *Graph, budget int) int {
	n := len(in.Jobs)
	order := rangeFrom(0, n)
	slices.SortStableFunc(order, func(a, b int) int { return in.Jobs[b].Duration - in.Jobs[a].Duration })
	adj := make([]map[int]bool, n)
	for x, nb := range g.Adj {
		adj[x] = make(map[int]bool, len(nb))
		for _, y := range nb {
			adj[x][y] = true
		}
	}
	best, nodes := 0, 0
	var rec func(cand []int, w int)
	rec = func(cand []int, w int) {
		nodes++
		best = max(best, w)
		rest := 0
		for _, c := range cand {
			rest += in.Jobs[c].Duration
		}
		for i, c := range cand {
			if w+rest <= best || nodes > budget {
				return
			}
			var next []int
			for _, y := range cand[i+1:] {
				if adj[c][y] {
					next = append(next, y)
				}
			}
			rec(next, w+in.Jobs[c].Duration)
			rest -= in.Jobs[c].Duration
		}
	}
	rec(order, 0)
	return best
}
