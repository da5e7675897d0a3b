package dcop

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
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

// Stats counts a run's messages in synchronous cycles (the seed's
// footnote 2): height cycles for UTIL and again for VALUE, one UTIL and one
// VALUE message per tree edge. JoinOps counts separator assignments ×
// |D_x|, forbidden values included.
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

// Solve runs DPOP (UTIL then VALUE phase) on in. A UTIL message over
// Sep(x) is the only allocation (the join is never built), its size
// predicted in log space before anything is allocated; over the memory
// budget the run is errs.TooLarge naming the node. Ties go to the lowest
// domain value (the earliest start, the seed's "packed as early as
// possible"; a job worth 0 stays unscheduled). Results are deterministic:
// a fixed post-order, no goroutines or maps on the result path.
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
			return nil, errs.Wrap(errs.Invalid, err)
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
	plans := make([]*plan, n)
	for i := len(t.Order) - 1; i >= 0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x := t.Order[i]
		p, err := s.newPlan(x)
		if err != nil {
			return nil, err
		}
		plans[x] = p
		if err := s.util(ctx, x, p); err != nil {
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
		p := plans[x]
		_, choice[x] = p.best(s.msg, s.value, idx, p.bases(idx))
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
		in.Jobs[x].ID, strings.Join(names, ", "), len(names), e, FormatMB(e*EntryBytes), FormatMB(total), FormatMB(float64(budget)))
}

// FormatMB writes a byte count in MB (10^6 B, as the seed) with 3 digits.
func FormatMB(b float64) string {
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

// plan is what node x's join needs, computed once per node. The kernel
// (deepest separator variable last, per-node masks of forbidden starts,
// fused loops) keeps the order of additions of the first kernel, so
// pin_test.go's recorded optima, schedules and sizes hold.
type plan struct {
	d      int        // |D_x|
	unary  []float32  // per own value index: the end slot, or −V_x (0 unscheduled)
	cons   []int      // positions in Sep(x) of the constrained ancestors
	lo, hi [][]int32  // lo[k][v], hi[k][v]: own indices [lo, hi) overlap ancestor cons[k] at its value index v
	mask   [][]uint64 // when d ≤ 64: mask[k][v] has the bits [lo[k][v], hi[k][v])
	full   uint64     // when d ≤ 64: the bits [0, d)
	ch     []int      // children, in tree order (the order costs are added)
	stride [][]int    // stride[i][k]: stride of Sep(x)[k] in child i's message (0 if absent)
	varies []bool     // child i's message has x as its last (fastest) variable
	// scratch
	view [][]float32 // per child: its d entries for the current separator assignment
	flat [][]float32 // per child not varying with x: d copies of its one entry
	acc  []float32   // running combination over a run of own values
	rlo  []int32     // the current assignment's forbidden ranges, sorted by lo
	rhi  []int32
}

// newPlan builds x's plan.
func (s *solver) newPlan(x int) (*plan, error) {
	in, t := s.in, s.t
	dx := s.dom[x]
	lx := in.Jobs[x].Duration
	p := &plan{d: len(dx), unary: make([]float32, len(dx)), ch: t.Children[x], acc: make([]float32, len(dx))}
	for i, sx := range dx {
		if i > 0 && sx <= dx[i-1] {
			return nil, errs.Invalidf("domains", "job %s: domain not strictly ascending (%d after %d)", in.Jobs[x].ID, sx, dx[i-1])
		}
		if s.value {
			if sx != 0 {
				p.unary[i] = -float32(in.Jobs[x].Value)
			}
		} else {
			p.unary[i] = float32(sx + lx - 1)
		}
	}
	for k, a := range t.Sep[x] {
		if !slices.Contains(t.Adj[x], a) {
			continue
		}
		p.cons = append(p.cons, k)
		la := in.Jobs[a].Duration
		lo, hi := make([]int32, len(s.dom[a])), make([]int32, len(s.dom[a]))
		for v, sa := range s.dom[a] {
			if sa == 0 { // an unscheduled ancestor overlaps nothing
				continue
			}
			// x at sx ≠ 0 overlaps a at sa iff sa−lx+1 ≤ sx ≤ sa+la−1
			lo[v] = int32(lowerIndex(dx, max(1, sa-lx+1)))
			hi[v] = int32(lowerIndex(dx, sa+la))
		}
		p.lo, p.hi = append(p.lo, lo), append(p.hi, hi)
		if p.d <= maskBits {
			m := make([]uint64, len(lo))
			for v := range m {
				m[v] = bitRange(int(lo[v]), int(hi[v]))
			}
			p.mask = append(p.mask, m)
		}
	}
	if p.d <= maskBits {
		p.full = bitRange(0, p.d)
	}
	p.rlo, p.rhi = make([]int32, len(p.cons)), make([]int32, len(p.cons))
	for _, c := range p.ch {
		st, own := s.childStrides(x, c)
		p.stride = append(p.stride, st)
		switch own {
		case 1:
			p.varies = append(p.varies, true)
			p.flat = append(p.flat, nil)
		case 0:
			p.varies = append(p.varies, false)
			p.flat = append(p.flat, make([]float32, p.d))
		default: // never: x, the parent, is the deepest variable of Sep(c)
			return nil, errs.New(errs.Internal, "dcop.Solve", "node %s: own stride %d in child %s's message", in.Jobs[x].ID, own, in.Jobs[c].ID)
		}
	}
	p.view = make([][]float32, len(p.ch))
	return p, nil
}

// maskBits is the largest domain whose allowed own values are a uint64
// bit mask; larger domains use the sorted forbidden ranges. A variable so
// that a test can force the ranges.
var maskBits = 64

// bitRange has the bits [lo, hi) set (none when lo ≥ hi), 0 ≤ lo, hi ≤ 64.
func bitRange(lo, hi int) uint64 {
	if lo >= hi {
		return 0
	}
	return (^uint64(0) >> (64 - (hi - lo))) << lo
}

// lowerIndex is the first index of the ascending d whose value is ≥ v.
func lowerIndex(d []int, v int) int {
	i, _ := slices.BinarySearch(d, v)
	return i
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

// best evaluates x's own values for the separator digits idx, the child
// message offsets being base: the least cost and the lowest own index
// attaining it (inf, 0 when every value is forbidden or infinite). The
// allowed own values are decided once: each constrained ancestor forbids
// one range of indices, and the runs between the ranges are scanned in
// ascending order, each child's d entries read as one contiguous slice.
func (p *plan) best(msg [][]float32, value bool, idx, base []int) (float32, int) {
	p.views(msg, base)
	if p.mask != nil || (len(p.cons) == 0 && p.d <= maskBits) {
		allowed := p.full
		for k, pos := range p.cons {
			allowed &^= p.mask[k][idx[pos]]
		}
		return p.scanMask(value, allowed)
	}
	return p.scanRanges(value, idx)
}

// views points each child's view at its d entries for the child offsets
// base (a child whose message does not vary with x: d copies of its entry).
func (p *plan) views(msg [][]float32, base []int) {
	d := p.d
	for i, c := range p.ch {
		m := msg[c]
		if p.varies[i] {
			p.view[i] = m[base[i] : base[i]+d]
			continue
		}
		f, e := p.flat[i], m[base[i]]
		for j := range f {
			f[j] = e
		}
		p.view[i] = f
	}
}

// scanMask evaluates the own indices whose bits are set in allowed: every
// own value is combined in one straight loop and the forbidden ones are
// only skipped when they would be the best so far (cheaper than cutting
// the loop into runs), the lowest index of the least cost winning.
func (p *plan) scanMask(value bool, allowed uint64) (float32, int) {
	best, arg := inf, 0
	u := p.unary[:p.d]
	if value {
		switch len(p.view) {
		case 0:
			for i, c := range u {
				if c < best && allowed>>uint(i)&1 != 0 {
					best, arg = c, i
				}
			}
		case 1:
			v0 := p.view[0][:len(u)]
			for i, c := range u {
				c += v0[i]
				if c < best && allowed>>uint(i)&1 != 0 {
					best, arg = c, i
				}
			}
		case 2:
			v0, v1 := p.view[0][:len(u)], p.view[1][:len(u)]
			for i, c := range u {
				c += v0[i]
				c += v1[i]
				if c < best && allowed>>uint(i)&1 != 0 {
					best, arg = c, i
				}
			}
		case 3:
			v0, v1, v2 := p.view[0][:len(u)], p.view[1][:len(u)], p.view[2][:len(u)]
			for i, c := range u {
				c += v0[i]
				c += v1[i]
				c += v2[i]
				if c < best && allowed>>uint(i)&1 != 0 {
					best, arg = c, i
				}
			}
		default:
			acc := p.acc[:len(u)]
			copy(acc, u)
			for _, v := range p.view {
				v = v[:len(acc)]
				for i := range acc {
					acc[i] += v[i]
				}
			}
			for i, c := range acc {
				if c < best && allowed>>uint(i)&1 != 0 {
					best, arg = c, i
				}
			}
		}
		return best, arg
	}
	// makespan: the end slots ascend, so once one alone reaches the best
	// no later value can do better
	switch len(p.view) {
	case 0:
		for i, c := range u {
			if c >= best {
				break
			}
			if allowed>>uint(i)&1 != 0 {
				best, arg = c, i
			}
		}
	case 1:
		v0 := p.view[0][:len(u)]
		for i, c := range u {
			if c >= best {
				break
			}
			c = max(c, v0[i])
			if c < best && allowed>>uint(i)&1 != 0 {
				best, arg = c, i
			}
		}
	default:
		for i, c := range u {
			if c >= best {
				break
			}
			for _, v := range p.view {
				c = max(c, v[i])
			}
			if c < best && allowed>>uint(i)&1 != 0 {
				best, arg = c, i
			}
		}
	}
	return best, arg
}

// scanRanges evaluates the own indices outside the constrained ancestors'
// forbidden ranges for the separator digits idx, run by run in ascending
// order.
func (p *plan) scanRanges(value bool, idx []int) (float32, int) {
	// the forbidden ranges, sorted by lo (insertion sort: a handful)
	n := 0
	for k, pos := range p.cons {
		v := idx[pos]
		l, h := p.lo[k][v], p.hi[k][v]
		if l >= h {
			continue
		}
		j := n
		for j > 0 && p.rlo[j-1] > l {
			p.rlo[j], p.rhi[j] = p.rlo[j-1], p.rhi[j-1]
			j--
		}
		p.rlo[j], p.rhi[j] = l, h
		n++
	}
	d := p.d
	best, arg := inf, 0
	pos := 0
	for r := 0; r <= n; r++ {
		end := d
		if r < n {
			end = int(p.rlo[r])
		}
		if end > pos {
			var b float32
			var a int
			if value {
				b, a = p.runSum(pos, end, best)
			} else {
				var stop bool
				b, a, stop = p.runMax(pos, end, best)
				if stop {
					if b < best {
						best, arg = b, a
					}
					break
				}
			}
			if b < best {
				best, arg = b, a
			}
		}
		if r < n {
			pos = max(pos, int(p.rhi[r]))
		}
	}
	return best, arg
}

// runSum is the value objective over own indices [from, to): the first
// index of the least unary + Σ children (added in child order, as float32)
// below best, or best, −1.
func (p *plan) runSum(from, to int, best float32) (float32, int) {
	arg := -1
	u := p.unary[from:to]
	switch len(p.view) {
	case 0:
		for i, c := range u {
			if c < best {
				best, arg = c, from+i
			}
		}
	case 1:
		m0 := p.view[0][from:to]
		m0 = m0[:len(u)]
		for i, c := range u {
			c += m0[i]
			if c < best {
				best, arg = c, from+i
			}
		}
	case 2:
		m0, m1 := p.view[0][from:to], p.view[1][from:to]
		m0, m1 = m0[:len(u)], m1[:len(u)]
		for i, c := range u {
			c += m0[i]
			c += m1[i]
			if c < best {
				best, arg = c, from+i
			}
		}
	case 3:
		m0, m1, m2 := p.view[0][from:to], p.view[1][from:to], p.view[2][from:to]
		m0, m1, m2 = m0[:len(u)], m1[:len(u)], m2[:len(u)]
		for i, c := range u {
			c += m0[i]
			c += m1[i]
			c += m2[i]
			if c < best {
				best, arg = c, from+i
			}
		}
	default:
		acc := p.acc[from:to]
		copy(acc, u)
		for _, v := range p.view {
			v = v[from:to]
			v = v[:len(acc)]
			for i := range acc {
				acc[i] += v[i]
			}
		}
		for i, c := range acc {
			if c < best {
				best, arg = c, from+i
			}
		}
	}
	return best, arg
}

// runMax is the makespan objective over own indices [from, to): the first
// index of the least max(unary, children) below best, or best, −1; stop
// when an own value's end slot alone reaches best (the unary costs
// ascend with the starts, so no later value can do better).
func (p *plan) runMax(from, to int, best float32) (float32, int, bool) {
	arg := -1
	u := p.unary[from:to]
	switch len(p.view) {
	case 0:
		for i, c := range u {
			if c >= best {
				return best, arg, true
			}
			best, arg = c, from+i
		}
	case 1:
		m0 := p.view[0][from:to]
		m0 = m0[:len(u)]
		for i, c := range u {
			if c >= best {
				return best, arg, true
			}
			c = max(c, m0[i])
			if c < best {
				best, arg = c, from+i
			}
		}
	case 2:
		m0, m1 := p.view[0][from:to], p.view[1][from:to]
		m0, m1 = m0[:len(u)], m1[:len(u)]
		for i, c := range u {
			if c >= best {
				return best, arg, true
			}
			c = max(c, m0[i], m1[i])
			if c < best {
				best, arg = c, from+i
			}
		}
	default:
		for i, c := range u {
			if c >= best {
				return best, arg, true
			}
			for _, v := range p.view {
				c = max(c, v[from+i])
			}
			if c < best {
				best, arg = c, from+i
			}
		}
	}
	return best, arg, false
}

// fused reports whether innerSum and innerMax apply: one or two
// children, each varying with x.
func (p *plan) fused() bool {
	switch len(p.ch) {
	case 1:
		return p.varies[0]
	case 2:
		return p.varies[0] && p.varies[1]
	}
	return false
}

// innerSum is the value objective's inner loop over the last separator
// variable's values (fused: one or two children varying with x): out[v] is
// the least unary + children (added in child order) over the own indices
// allowed by om and lastMask[v] (lastMask nil: the last variable is not
// constrained with x), base the child offsets at v = 0 (left unchanged).
func (p *plan) innerSum(out []float32, om uint64, lastMask []uint64, msg [][]float32, base []int, last int) {
	d := p.d
	u := p.unary[:d]
	m0 := msg[p.ch[0]]
	b0, s0 := base[0], p.stride[0][last]
	if len(p.ch) == 1 {
		for v := range out {
			allowed := om
			if lastMask != nil {
				allowed &^= lastMask[v]
			}
			c0 := m0[b0 : b0+d]
			c0 = c0[:len(u)]
			best := inf
			for i, c := range u {
				c += c0[i]
				if c < best && allowed>>uint(i)&1 != 0 {
					best = c
				}
			}
			out[v] = best
			b0 += s0
		}
		return
	}
	m1 := msg[p.ch[1]]
	b1, s1 := base[1], p.stride[1][last]
	for v := range out {
		allowed := om
		if lastMask != nil {
			allowed &^= lastMask[v]
		}
		c0, c1 := m0[b0:b0+d], m1[b1:b1+d]
		c0, c1 = c0[:len(u)], c1[:len(u)]
		best := inf
		for i, c := range u {
			c += c0[i]
			c += c1[i]
			if c < best && allowed>>uint(i)&1 != 0 {
				best = c
			}
		}
		out[v] = best
		b0 += s0
		b1 += s1
	}
}

// innerMax is innerSum for the makespan objective: out[v] is the least
// max(end slot, children) over the allowed own indices, the scan stopping
// once an end slot alone reaches the best (they ascend).
func (p *plan) innerMax(out []float32, om uint64, lastMask []uint64, msg [][]float32, base []int, last int) {
	d := p.d
	u := p.unary[:d]
	m0 := msg[p.ch[0]]
	b0, s0 := base[0], p.stride[0][last]
	if len(p.ch) == 1 {
		for v := range out {
			allowed := om
			if lastMask != nil {
				allowed &^= lastMask[v]
			}
			c0 := m0[b0 : b0+d]
			c0 = c0[:len(u)]
			best := inf
			for i, c := range u {
				if c >= best {
					break
				}
				c = max(c, c0[i])
				if c < best && allowed>>uint(i)&1 != 0 {
					best = c
				}
			}
			out[v] = best
			b0 += s0
		}
		return
	}
	m1 := msg[p.ch[1]]
	b1, s1 := base[1], p.stride[1][last]
	for v := range out {
		allowed := om
		if lastMask != nil {
			allowed &^= lastMask[v]
		}
		c0, c1 := m0[b0:b0+d], m1[b1:b1+d]
		c0, c1 = c0[:len(u)], c1[:len(u)]
		best := inf
		for i, c := range u {
			if c >= best {
				break
			}
			c = max(c, c0[i], c1[i])
			if c < best && allowed>>uint(i)&1 != 0 {
				best = c
			}
		}
		out[v] = best
		b0 += s0
		b1 += s1
	}
}

// bases computes each child's message offset for the separator digits idx.
func (p *plan) bases(idx []int) []int {
	b := make([]int, len(p.ch))
	for i := range p.ch {
		for k := range idx {
			b[i] += p.stride[i][k] * idx[k]
		}
	}
	return b
}

// util computes and stores x's UTIL message over Sep(x), last separator
// variable fastest.
func (s *solver) util(ctx context.Context, x int, p *plan) error {
	t := s.t
	sep := t.Sep[x]
	total := 1
	for _, a := range sep {
		total *= s.size[a]
	}
	out := make([]float32, total)
	s.msg[x] = out
	idx := make([]int, len(sep))
	base := make([]int, len(p.ch))
	if len(sep) == 0 {
		out[0], _ = p.best(s.msg, s.value, idx, base)
		return nil
	}
	// The last separator variable varies fastest: its m values form one
	// inner loop, for which the other constrained ancestors' forbidden
	// own values are decided once.
	last := len(sep) - 1
	m := s.size[sep[last]]
	var lastMask []uint64
	var outer []int // indices into p.cons of the other constrained ancestors
	for k, pos := range p.cons {
		if pos == last {
			if p.mask != nil {
				lastMask = p.mask[k]
			}
		} else {
			outer = append(outer, k)
		}
	}
	masks := p.d <= maskBits
	// ctx is checked every ~2^16 own values evaluated
	every := max(1, (1<<16)/max(1, p.d*m))
	for o, n := 0, 0; o < total; o, n = o+m, n+1 {
		if n%every == every-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		om := p.full
		if masks {
			for _, k := range outer {
				om &^= p.mask[k][idx[p.cons[k]]]
			}
		}
		switch {
		case masks && p.fused() && s.value:
			p.innerSum(out[o:o+m], om, lastMask, s.msg, base, last)
		case masks && p.fused():
			p.innerMax(out[o:o+m], om, lastMask, s.msg, base, last)
		default:
			for v := range m {
				p.views(s.msg, base)
				if masks {
					allowed := om
					if lastMask != nil {
						allowed &^= lastMask[v]
					}
					out[o+v], _ = p.scanMask(s.value, allowed)
				} else {
					idx[last] = v
					out[o+v], _ = p.scanRanges(s.value, idx)
				}
				for i := range base {
					base[i] += p.stride[i][last]
				}
			}
			idx[last] = 0
			for i := range base {
				base[i] -= p.stride[i][last] * m
			}
		}
		// odometer over the other digits, child bases follow
		for k := last - 1; k >= 0; k-- {
			idx[k]++
			for i := range base {
				base[i] += p.stride[i][k]
			}
			if idx[k] < s.size[sep[k]] {
				break
			}
			for i := range base {
				base[i] -= p.stride[i][k] * idx[k]
			}
			idx[k] = 0
		}
	}
	return nil
}
