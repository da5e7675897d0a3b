package dcop

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"

	"schedlab/errs"
)

// Objectives (the run parameter objective).
const (
	ObjectiveMakespan = "makespan" // minimize the last occupied slot; every job scheduled
	ObjectiveValue    = "value"    // maximize the total value of scheduled jobs
)

// DefaultMemoryBytes is the default budget for all UTIL hypercubes of a run
// (1 GiB; the run parameter memory_mb = 1024).
const DefaultMemoryBytes = 1 << 30

var inf = float32(math.Inf(1))

// Domains returns each job's full domain of start slots, ascending: 1..T
// (DomainStarts) or 1..T−L+1 (DomainFit), preceded by 0 (unscheduled) for
// the value objective.
func Domains(in *Instance, objective, domain string) [][]int {
	d := make([][]int, len(in.Jobs))
	for k := range in.Jobs {
		if objective == ObjectiveValue {
			d[k] = append(d[k], 0)
		}
		for s := 1; s <= maxStart(in, k, domain); s++ {
			d[k] = append(d[k], s)
		}
	}
	return d
}

// Options configure one DPOP run. The zero value runs the makespan
// objective over the domain {1..T} on the max-degree pseudo-tree with a
// 1 GiB budget.
type Options struct {
	Objective   string      // ObjectiveMakespan (default) or ObjectiveValue
	Domain      string      // DomainStarts (default) or DomainFit, when Domains is nil
	Heuristic   string      // pseudo-tree heuristic when Tree is nil
	Rand        *rand.Rand  // for HeuristicRandom
	MemoryBytes int64       // budget for all hypercubes; 0 = DefaultMemoryBytes
	Domains     [][]int     // restricted domains (ascending); nil = Domains(in, Objective)
	Tree        *PseudoTree // a prebuilt (e.g. WD-reduced) pseudo-tree; nil = build one
}

// Stats counts a run's messages in synchronous cycles (see doc.go).
type Stats struct {
	MessageCycles   int
	Messages        int
	TotalBytes      float64
	MaxMessageBytes float64
	JoinOps         float64 // separator assignments × own values evaluated
}

// Result is a DPOP run's answer.
type Result struct {
	Schedule  Schedule // nil when Feasible is false
	Feasible  bool     // false: no assignment satisfies every hard constraint
	Cost      float64  // makespan, or −(total value) for the value objective
	Tree      *PseudoTree
	Domains   [][]int
	Predicted []float64 // UTIL entries per node from the pseudo-tree
	Allocated []int     // UTIL entries per node actually allocated
	Stats     Stats
}

// Solve runs DPOP (UTIL then VALUE phase) on in.
func Solve(ctx context.Context, in *Instance, opt Options) (*Result, error) {
	obj := opt.Objective
	if obj == "" {
		obj = ObjectiveMakespan
	}
	if obj != ObjectiveMakespan && obj != ObjectiveValue {
		return nil, errs.Invalidf("objective", "must be %s or %s, got %q", ObjectiveMakespan, ObjectiveValue, obj)
	}
	domain := opt.Domain
	if domain == "" {
		domain = DomainStarts
	}
	if err := checkDomain(domain); err != nil {
		return nil, err
	}
	dom := opt.Domains
	if dom == nil {
		dom = Domains(in, obj, domain)
	}
	t := opt.Tree
	if t == nil {
		var err error
		if t, err = BuildPseudoTree(in.ConstraintGraph(), opt.Heuristic, opt.Rand); err != nil {
			return nil, errs.Wrap("dcop.Solve", errs.Invalid, err)
		}
	}
	n := len(in.Jobs)
	size := make([]int, n)
	for k := range dom {
		size[k] = len(dom[k])
	}
	res := &Result{Tree: t, Domains: dom, Predicted: make([]float64, n), Allocated: make([]int, n)}
	if err := guard(in, t, size, opt.MemoryBytes, res.Predicted); err != nil {
		return nil, err
	}
	s := &solver{in: in, t: t, dom: dom, size: size, value: obj == ObjectiveValue, msg: make([][]float32, n)}

	// UTIL phase: leaves to root (reverse preorder).
	for i := len(t.Order) - 1; i >= 0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x := t.Order[i]
		if err := s.util(ctx, x); err != nil {
			return nil, err
		}
		res.Allocated[x] = len(s.msg[x])
		res.Stats.JoinOps += float64(len(s.msg[x])) * float64(size[x])
		if t.Parent[x] != -1 {
			b := float64(len(s.msg[x])) * EntryBytes
			res.Stats.Messages += 2 // UTIL up, VALUE down
			res.Stats.TotalBytes += b + float64(len(t.Sep[x]))*EntryBytes
			res.Stats.MaxMessageBytes = max(res.Stats.MaxMessageBytes, b)
		}
	}
	res.Stats.MessageCycles = 2 * t.Height()
	for _, r := range t.Roots {
		if math.IsInf(float64(s.msg[r][0]), 1) {
			return res, nil
		}
		if s.value {
			res.Cost += float64(s.msg[r][0])
		} else {
			res.Cost = max(res.Cost, float64(s.msg[r][0]))
		}
	}

	// VALUE phase: root to leaves (preorder).
	choice := make([]int, n) // index into dom
	for _, x := range t.Order {
		sep := t.Sep[x]
		idx := make([]int, len(sep))
		for k, a := range sep {
			idx[k] = choice[a]
		}
		_, choice[x] = s.best(x, idx, s.bases(x, idx))
	}
	res.Schedule = make(Schedule, n)
	for k := range res.Schedule {
		res.Schedule[k] = dom[k][choice[k]]
	}
	res.Feasible = true
	return res, nil
}

// guard predicts every UTIL size and fails before any allocation when their
// sum exceeds the budget.
func guard(in *Instance, t *PseudoTree, size []int, budget int64, pred []float64) error {
	if budget <= 0 {
		budget = DefaultMemoryBytes
	}
	total := 0.0
	for x := range t.Sep {
		pred[x] = t.Entries(x, size)
		total += pred[x] * EntryBytes
	}
	if total <= float64(budget) {
		return nil
	}
	e, x := t.MaxEntries(size)
	names := make([]string, len(t.Sep[x]))
	for k, a := range t.Sep[x] {
		names[k] = in.Jobs[a].ID
	}
	return errs.New(errs.TooLarge, "memory_mb",
		"node %s: UTIL hypercube over separator {%s} (%d variables) has %.3g entries = %s; all hypercubes together need %s, over the memory budget of %s",
		in.Jobs[x].ID, strings.Join(names, ", "), len(names), e, FormatBytes(e*EntryBytes), FormatBytes(total), FormatBytes(float64(budget)))
}

// FormatBytes writes a byte count in MB (10^6 B, as the seed) with 3 digits.
func FormatBytes(b float64) string {
	return fmt.Sprintf("%.3g MB", b/1e6)
}

type solver struct {
	in    *Instance
	t     *PseudoTree
	dom   [][]int
	size  []int
	value bool
	msg   [][]float32
}

// childStrides returns, for child c of x, the stride in c's message of
// every variable of Sep(x) (0 if absent) and of x itself.
func (s *solver) childStrides(x, c int) (sepStride []int, own int) {
	cs := s.t.Sep[c]
	st := make([]int, len(cs))
	m := 1
	for k := len(cs) - 1; k >= 0; k-- {
		st[k] = m
		m *= s.size[cs[k]]
	}
	sepStride = make([]int, len(s.t.Sep[x]))
	for k, a := range s.t.Sep[x] {
		for j, b := range cs {
			if a == b {
				sepStride[k] = st[j]
			}
		}
	}
	for j, b := range cs {
		if b == x {
			own = st[j]
		}
	}
	return sepStride, own
}

// bases computes each child's message offset for the separator digits idx.
func (s *solver) bases(x int, idx []int) []int {
	ch := s.t.Children[x]
	b := make([]int, len(ch))
	for i, c := range ch {
		st, _ := s.childStrides(x, c)
		for k := range idx {
			b[i] += st[k] * idx[k]
		}
	}
	return b
}

// best evaluates x's own values given separator digits idx and child bases:
// the least cost and the lowest domain index attaining it.
func (s *solver) best(x int, idx, base []int) (float32, int) {
	in, t := s.in, s.t
	lx := in.Jobs[x].Duration
	ch := t.Children[x]
	own := make([]int, len(ch))
	for i, c := range ch {
		_, own[i] = s.childStrides(x, c)
	}
	return s.bestFast(x, lx, s.constrained(x), idx, ch, own, base)
}

// constrained lists the positions in Sep(x) of x's parent and pseudo-parents
// (the ancestors x shares a constraint with).
func (s *solver) constrained(x int) []int {
	var pos []int
	for k, a := range s.t.Sep[x] {
		if contains(s.t.Adj[x], a) {
			pos = append(pos, k)
		}
	}
	return pos
}

func (s *solver) bestFast(x, lx int, cons, idx, ch, own, base []int) (float32, int) {
	best, arg := inf, 0
	sep := s.t.Sep[x]
	for di, sx := range s.dom[x] {
		var c float32
		if s.value {
			if sx != 0 {
				c = -float32(s.in.Jobs[x].Value)
			}
		} else {
			c = float32(sx + lx - 1)
			if c >= best {
				break // ascending starts: later ones end later still
			}
		}
		ok := true
		for _, k := range cons {
			a := sep[k]
			if overlap(sx, lx, s.dom[a][idx[k]], s.in.Jobs[a].Duration) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for i, c2 := range ch {
			v := s.msg[c2][base[i]+di*own[i]]
			if s.value {
				c += v
			} else {
				c = max(c, v)
			}
		}
		if c < best {
			best, arg = c, di
		}
	}
	return best, arg
}

func contains(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// util computes and stores x's UTIL message over Sep(x), last separator
// variable fastest.
func (s *solver) util(ctx context.Context, x int) error {
	t := s.t
	sep := t.Sep[x]
	total := 1
	for _, a := range sep {
		total *= s.size[a]
	}
	out := make([]float32, total)
	ch := t.Children[x]
	strides := make([][]int, len(ch))
	own := make([]int, len(ch))
	for i, c := range ch {
		strides[i], own[i] = s.childStrides(x, c)
	}
	idx := make([]int, len(sep))
	base := make([]int, len(ch))
	lx := s.in.Jobs[x].Duration
	cons := s.constrained(x)
	for o := range out {
		if o&0xffff == 0xffff {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		out[o], _ = s.bestFast(x, lx, cons, idx, ch, own, base)
		// odometer: last digit fastest, child bases follow
		for k := len(sep) - 1; k >= 0; k-- {
			idx[k]++
			for i := range ch {
				base[i] += strides[i][k]
			}
			if idx[k] < s.size[sep[k]] {
				break
			}
			for i := range ch {
				base[i] -= strides[i][k] * idx[k]
			}
			idx[k] = 0
		}
	}
	s.msg[x] = out
	return nil
}
