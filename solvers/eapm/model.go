package eapm

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"schedlab/errs"
)

// Size guards. Instances beyond them are errs.TooLarge before anything of
// their size is allocated.
const (
	MaxUsers        = 1_000_000
	MaxTaskTypes    = 1_000
	MaxMachineTypes = 1_000
	// MaxCells bounds n·m, the cells of the allocation X (int32 each, so
	// 40 MB at the limit): one million users on ten machine types.
	MaxCells = 10_000_000
	// MaxTasks bounds one user's bag (it must fit X's int32 cells).
	MaxTasks = 1_000_000_000
	// MaxMachinesPerType bounds M_j.
	MaxMachinesPerType = 1_000_000
	// MinValue and MaxValue bound every ETC (s) and APC (W) entry, so that
	// e = ETC·APC, 1/(ETC/M) and every sum of them stay finite.
	MinValue = 1e-6
	MaxValue = 1e9
)

// Instance is one EAPM problem: machine types j (with M_j machines each),
// task types t with their ETC and APC rows, users arriving in order, and the
// economics (price markup γ and energy cost c).
type Instance struct {
	MachineNames []string    // m names (may be nil: "M0", "M1", ...)
	TaskNames    []string    // T names (may be nil: "T0", "T1", ...)
	ETC          [][]float64 // ETC[t][j]: seconds for one task of type t on one machine of type j
	APC          [][]float64 // APC[t][j]: watts drawn while it runs
	Machines     []int       // M_j ≥ 1 machines of type j (nil: 1 each)
	Users        []User      // the arrival stream
	Gamma        float64     // price markup γ > 0: p_t = γ·c·min_j ETC[t][j]·APC[t][j]
	C            float64     // energy cost c > 0 per joule
}

// User is one arrival: a bag of Tasks tasks of task type Type (0-based).
type User struct {
	Type  int `json:"type"`
	Tasks int `json:"tasks"`
}

// M and T report the numbers of machine and task types.
func (in *Instance) M() int {
	if len(in.ETC) == 0 {
		return 0
	}
	return len(in.ETC[0])
}

// T reports the number of task types.
func (in *Instance) T() int { return len(in.ETC) }

// MachineName and TaskName return display names (defaults for missing ones).
func (in *Instance) MachineName(j int) string {
	if j < len(in.MachineNames) && in.MachineNames[j] != "" {
		return in.MachineNames[j]
	}
	return fmt.Sprintf("M%d", j)
}

// TaskName returns the display name of task type t.
func (in *Instance) TaskName(t int) string {
	if t < len(in.TaskNames) && in.TaskNames[t] != "" {
		return in.TaskNames[t]
	}
	return fmt.Sprintf("T%d", t)
}

// MachineCount is M_j, the machines of type j (1 when Machines is nil).
func (in *Instance) MachineCount(j int) int {
	if in.Machines == nil {
		return 1
	}
	return in.Machines[j]
}

// TotalTasks is Σ_i a_i.
func (in *Instance) TotalTasks() int {
	s := 0
	for _, u := range in.Users {
		s += u.Tasks
	}
	return s
}

// Validate checks everything the algorithms rely on. Errors are errs.Invalid
// (errs.TooLarge for the size guards) naming the offending field.
func (in *Instance) Validate() error {
	T, m := in.T(), in.M()
	switch {
	case T == 0:
		return errs.Invalidf("etc", "no task types")
	case m == 0:
		return errs.Invalidf("etc", "no machine types")
	case T > MaxTaskTypes:
		return errs.New(errs.TooLarge, "etc", "%d task types, at most %d", T, MaxTaskTypes)
	case m > MaxMachineTypes:
		return errs.New(errs.TooLarge, "etc", "%d machine types, at most %d", m, MaxMachineTypes)
	case len(in.Users) == 0:
		return errs.Invalidf("users", "the user stream is empty")
	case len(in.Users) > MaxUsers:
		return errs.New(errs.TooLarge, "users", "%d users, at most %d", len(in.Users), MaxUsers)
	case len(in.Users)*m > MaxCells:
		return errs.New(errs.TooLarge, "users", "%d users × %d machine types = %d allocation cells, over the budget of %d", len(in.Users), m, len(in.Users)*m, MaxCells)
	}
	if len(in.APC) != T {
		return errs.Invalidf("apc", "APC has %d rows (task types), ETC has %d", len(in.APC), T)
	}
	for _, mx := range [2]struct {
		name string
		mat  [][]float64
	}{{"etc", in.ETC}, {"apc", in.APC}} {
		name := mx.name
		for t, row := range mx.mat {
			if len(row) != m {
				return errs.Invalidf(fmt.Sprintf("%s row %d", name, t+1), "%d columns (machine types), expected %d", len(row), m)
			}
			for j, v := range row {
				if !(v >= MinValue && v <= MaxValue) { // also catches NaN
					return errs.Invalidf(fmt.Sprintf("%s row %d column %d", name, t+1, j+1), "must be between %g and %g, got %g", MinValue, MaxValue, v)
				}
			}
		}
	}
	if in.MachineNames != nil && len(in.MachineNames) != m {
		return errs.Invalidf("machine_types", "%d names for %d machine types", len(in.MachineNames), m)
	}
	if in.TaskNames != nil && len(in.TaskNames) != T {
		return errs.Invalidf("task_types", "%d names for %d task types", len(in.TaskNames), T)
	}
	if in.Machines != nil {
		if len(in.Machines) != m {
			return errs.Invalidf("machines_per_type", "%d counts for %d machine types", len(in.Machines), m)
		}
		for j, c := range in.Machines {
			if c < 1 || c > MaxMachinesPerType {
				return errs.Invalidf("machines_per_type", "machine type %d: count must be between 1 and %d, got %d", j, MaxMachinesPerType, c)
			}
		}
	}
	for i, u := range in.Users {
		if u.Type < 0 || u.Type >= T {
			return errs.Invalidf(fmt.Sprintf("users[%d].type", i), "task type must be between 0 and %d, got %d", T-1, u.Type)
		}
		if u.Tasks < 1 || u.Tasks > MaxTasks {
			return errs.Invalidf(fmt.Sprintf("users[%d].tasks", i), "tasks must be a positive integer of at most %d, got %d", MaxTasks, u.Tasks)
		}
	}
	if !(in.Gamma > 0) || math.IsInf(in.Gamma, 0) {
		return errs.Invalidf("gamma", "must be a finite number greater than 0, got %v", in.Gamma)
	}
	if !(in.C > 0) || math.IsInf(in.C, 0) {
		return errs.Invalidf("c", "must be a finite number greater than 0, got %v", in.C)
	}
	return nil
}

// model is an Instance prepared for scheduling: per task type the time of
// one task on the type's pool (ETC/M_j), its energy e = ETC·APC, its price,
// and the machine order of Lemma 1.
type model struct {
	in    *Instance
	n, m  int
	tt    [][]float64 // tt[t][j] = ETC[t][j]/M_j: load one task adds to type j (s)
	e     [][]float64 // e[t][j] = ETC[t][j]·APC[t][j]: energy of one task (J)
	price []float64   // p_t = γ·c·min_j e[t][j]
	// fullScan turns off the online variants' early stop (tests compare).
	fullScan bool
	// progress, when set, is told every ctxEvery users how far a run is.
	progress func(done, total int)
	// order[t] lists machine types by e[t][j] descending (most expensive
	// first; on ties the higher index first), so a suffix order[t][k:] is the
	// set S_τ of the m−k cheapest machines and order[t][m−1] is the cheapest.
	order [][]int
	// invO[t][k] = 1/tt[t][order[t][k]] and ceInvO[t][k] = c·e/tt there:
	// the per-position terms of Online's suffix sums, precomputed.
	invO, ceInvO [][]float64
}

func newModel(in *Instance) (*model, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	T, m := in.T(), in.M()
	md := &model{in: in, n: len(in.Users), m: m,
		tt: make([][]float64, T), e: make([][]float64, T), price: make([]float64, T), order: make([][]int, T),
		invO: make([][]float64, T), ceInvO: make([][]float64, T)}
	// One backing array per table: T·m each.
	flat := make([]float64, 4*T*m)
	orders := make([]int, T*m)
	for t := 0; t < T; t++ {
		md.tt[t], md.e[t], md.invO[t], md.ceInvO[t] = flat[:m:m], flat[T*m:T*m+m:T*m+m], flat[2*T*m:2*T*m+m:2*T*m+m], flat[3*T*m:3*T*m+m:3*T*m+m]
		flat = flat[m:]
		emin := math.Inf(1)
		for j := 0; j < m; j++ {
			md.tt[t][j] = in.ETC[t][j] / float64(in.MachineCount(j))
			md.e[t][j] = in.ETC[t][j] * in.APC[t][j]
			emin = math.Min(emin, md.e[t][j])
		}
		md.price[t] = in.Gamma * in.C * emin
		o := orders[t*m : (t+1)*m : (t+1)*m]
		for j := range o {
			o[j] = j
		}
		et := md.e[t]
		slices.SortFunc(o, func(a, b int) int {
			if c := cmp.Compare(et[b], et[a]); c != 0 {
				return c
			}
			return cmp.Compare(b, a) // on ties the lowest index counts as cheapest
		})
		md.order[t] = o
		for k, j := range o {
			md.invO[t][k] = 1 / md.tt[t][j]
			md.ceInvO[t][k] = in.C * md.e[t][j] / md.tt[t][j]
		}
	}
	return md, nil
}

// Schedule is an integral allocation of every user's bag and what it yields.
type Schedule struct {
	M         int       // machine types: the stride of X
	X         []int32   // X[i*M+j]: tasks of user i on machine type j
	Load      []float64 // L_j: seconds of work per machine of type j (Σ_i ETC_ij·x_ij / M_j)
	Energy    float64   // E = Σ e_ij·x_ij (J)
	Revenue   float64   // R = Σ_i a_i·p_i
	Makespan  float64   // MS = max_j L_j (s)
	Objective float64   // (R − c·E)/MS: profit per unit time
	// Trace[i] is the objective of the schedule of users 0..i, right after
	// user i was placed.
	Trace []float64
}

// Tasks returns x_ij.
func (s *Schedule) Tasks(i, j int) int { return int(s.X[i*s.M+j]) }

// state is the running system while users arrive.
type state struct {
	md     *model
	s      *Schedule
	energy float64
	rev    float64
	ms     float64
}

func newState(md *model) *state {
	return &state{md: md, s: &Schedule{M: md.m, X: make([]int32, md.n*md.m),
		Load: make([]float64, md.m), Trace: make([]float64, md.n)}}
}

// alloc is one user's allocation being built: x_j by machine type and the
// machine types with x_j > 0, so placing and clearing cost O(|nz|), not O(m).
type alloc struct {
	x  []int
	nz []int
}

func (a *alloc) add(j, v int) {
	if v <= 0 {
		return
	}
	if a.x[j] == 0 {
		a.nz = append(a.nz, j)
	}
	a.x[j] += v
}

// place records user i's allocation, updates L, E, R, MS and the trace, and
// clears the allocation for the next user.
func (st *state) place(i int, a *alloc) {
	md := st.md
	t := md.in.Users[i].Type
	row := st.s.X[i*md.m : (i+1)*md.m]
	tt, e, load := md.tt[t], md.e[t], st.s.Load
	for _, j := range a.nz {
		v := a.x[j]
		a.x[j] = 0
		row[j] = int32(v)
		load[j] += float64(v) * tt[j]
		st.energy += float64(v) * e[j]
		if load[j] > st.ms {
			st.ms = load[j]
		}
	}
	a.nz = a.nz[:0]
	st.rev += float64(md.in.Users[i].Tasks) * md.price[t]
	st.s.Trace[i] = (st.rev - md.in.C*st.energy) / st.ms
}

func (st *state) finish() *Schedule {
	st.s.Energy, st.s.Revenue, st.s.Makespan = st.energy, st.rev, st.ms
	st.s.Objective = (st.rev - st.md.in.C*st.energy) / st.ms
	return st.s
}

// ctxEvery is how many users an algorithm places between checks of its
// context.
const ctxEvery = 256

// run places users one by one with decide, checking ctx every ctxEvery users.
func run(ctx context.Context, md *model, decide func(st *state, i int, a *alloc)) (*Schedule, error) {
	st := newState(md)
	a := &alloc{x: make([]int, md.m), nz: make([]int, 0, md.m)}
	for i := range md.in.Users {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if md.progress != nil && i > 0 {
				md.progress(i, md.n)
			}
		}
		decide(st, i, a)
		st.place(i, a)
	}
	return st.finish(), nil
}
