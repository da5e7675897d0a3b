package dcop

import (
	"fmt"
	"slices"

	"schedlab/errs"
)

// WD domain rules (the run parameter wd_rule).
const (
	// RuleSeed is the seed's Section 3.1 rule: the ancestor x_i keeps only
	// the window of its earliest start ({1..L_i} when unrestricted: it runs
	// first) and the descendant x_j starts after it.
	RuleSeed = "seed"
	// RuleBalanced splits the time line at the slot that maximizes the
	// smaller of the two remaining domains (ties: the earlier slot). Given a
	// reference schedule (WidthDelete's ref, e.g. the greedy list schedule)
	// the pair keeps its order in ref and the split lies between the two
	// jobs there, so ref stays feasible: the relaxed problem always has a
	// solution and DPOP's answer is never worse than ref.
	RuleBalanced = "balanced"
)

// WDResult is a pseudo-tree after back-edge deletion.
type WDResult struct {
	Tree        *PseudoTree // same DFS tree, deleted back edges gone from Adj
	Domains     [][]int     // restricted domains
	Deleted     [][2]int    // (ancestor, descendant) pairs, in deletion order
	WidthBefore int
	WidthAfter  int
}

// WidthDelete is the seed's Algorithm 1 (WD): while the width exceeds
// limit, take the node x_n with the largest separator (ties: more UTIL
// entries, then lower job index) and an ancestor x_i ∈ Sep(x_n) other than
// its parent; delete every back edge between x_i and x_n's subtree,
// restricting domains by rule so that each deleted pair can never overlap.
// x_i then leaves Sep(x_n), so the largest separator shrinks by one.
// Among the candidates x_i the one leaving the largest smallest domain among
// the restricted jobs is taken (ties: fewer deleted edges, then the deeper
// x_i; on 10 seed-setting instances of 50 jobs this fails 1 time in 10
// where "fewest edges first" failed 5), skipping any whose restriction would empty a domain; when
// x_n has none, the next node over the limit is tried (largest separator
// first), and only when no node over the limit has one does WD fail
// (errs.Invalid on width_limit). ref (may be nil) guides RuleBalanced; it
// must be feasible and inside dom. t and dom are not modified.
func WidthDelete(in *Instance, t *PseudoTree, dom [][]int, limit int, rule string, ref Schedule) (*WDResult, error) {
	if rule != RuleSeed && rule != RuleBalanced {
		return nil, errs.Invalidf("wd_rule", "must be %s or %s, got %q", RuleSeed, RuleBalanced, rule)
	}
	if limit < 1 {
		return nil, errs.Invalidf("width_limit", "must be at least 1, got %d", limit)
	}
	nt := *t
	nt.Adj = make([][]int, len(t.Adj))
	for i, a := range t.Adj {
		nt.Adj[i] = slices.Clone(a)
	}
	nt.Sep = slices.Clone(t.Sep)
	d := make([][]int, len(dom))
	for i := range dom {
		d[i] = slices.Clone(dom[i])
	}
	res := &WDResult{Tree: &nt, Domains: d, WidthBefore: t.Width()}

	inSub := subtreeTest(t)
	for nt.Width() > limit {
		wide := overLimit(&nt, d, limit)
		done := false
		for _, xn := range wide {
			if del, nd := bestDeletion(in, &nt, d, xn, rule, ref, inSub); del != nil {
				d = nd
				for _, e := range del {
					a, y := e[0], e[1]
					nt.Adj[a] = slices.DeleteFunc(nt.Adj[a], func(v int) bool { return v == y })
					nt.Adj[y] = slices.DeleteFunc(nt.Adj[y], func(v int) bool { return v == a })
				}
				res.Deleted = append(res.Deleted, del...)
				done = true
				break
			}
		}
		if !done {
			return nil, errs.Invalidf("width_limit", "cannot reduce the width below %d with rule %s: every remaining back-edge deletion at a node over the limit would leave a job without a start slot (node %s has %d separator variables)",
				nt.Width(), rule, in.Jobs[wide[0]].ID, len(nt.Sep[wide[0]]))
		}
		nt.computeSeparators()
	}
	res.Domains = d
	res.WidthAfter = nt.Width()
	return res, nil
}

// subtreeTest returns whether y is in the subtree of root in t, from the
// preorder positions and subtree sizes.
func subtreeTest(t *PseudoTree) func(y, root int) bool {
	pos := make([]int, len(t.Order))
	for i, x := range t.Order {
		pos[x] = i
	}
	sub := make([]int, len(t.Order))
	for i := len(t.Order) - 1; i >= 0; i-- {
		x := t.Order[i]
		sub[x] = 1
		for _, c := range t.Children[x] {
			sub[x] += sub[c]
		}
	}
	return func(y, root int) bool { return pos[y] >= pos[root] && pos[y] < pos[root]+sub[root] }
}

// overLimit lists the nodes of nt whose separator exceeds limit, largest
// separator first (ties: more UTIL entries over the domains d, then the
// lower job index).
func overLimit(nt *PseudoTree, d [][]int, limit int) []int {
	size := make([]int, len(d))
	for i := range d {
		size[i] = len(d[i])
	}
	var wide []int
	for x := range nt.Sep {
		if len(nt.Sep[x]) > limit {
			wide = append(wide, x)
		}
	}
	slices.SortStableFunc(wide, func(x, y int) int {
		if len(nt.Sep[x]) != len(nt.Sep[y]) {
			return len(nt.Sep[y]) - len(nt.Sep[x])
		}
		ex, ey := nt.Entries(x, size), nt.Entries(y, size)
		switch {
		case ex > ey:
			return -1
		case ex < ey:
			return 1
		}
		return 0
	})
	return wide
}

// restrict splits the time line at a slot W so that one job of the pair
// ends by W and the other starts after W; a start of 0 (unscheduled) stays
// in both. The ancestor i goes first; only when that leaves a job without a
// start does the descendant j go first. RuleSeed puts W at the end of the
// first job's earliest window (lo + L − 1: {1..L_i} when unrestricted);
// RuleBalanced puts it where the smaller of the two remaining domains is
// largest (ties: ancestor first, then the earlier W). New slices are
// returned, or nil, nil when no split keeps a start for both.
func restrict(in *Instance, di []int, i int, dj []int, j int, rule string, ref Schedule) ([]int, []int) {
	if rule == RuleBalanced && ref != nil && ref[i] > 0 && ref[j] > 0 {
		return restrictGuided(in, di, i, dj, j, ref)
	}
	bestA, bestB, best := []int(nil), []int(nil), -1
	for _, order := range [2]bool{false, true} {
		a, b, first := di, dj, i
		if order {
			a, b, first = dj, di, j
		}
		la := in.Jobs[first].Duration
		lo, hi := firstStart(a), lastStart(b)
		if lo < 0 || hi < 0 {
			continue
		}
		ws := []int{lo + la - 1}
		if rule == RuleBalanced {
			ws = ws[:0]
			for w := lo + la - 1; w < hi; w++ {
				ws = append(ws, w)
			}
		}
		for _, w := range ws {
			na := slices.DeleteFunc(slices.Clone(a), func(s int) bool { return s > 0 && s+la-1 > w })
			nb := slices.DeleteFunc(slices.Clone(b), func(s int) bool { return s > 0 && s <= w })
			if !hasStart(na) || !hasStart(nb) {
				continue
			}
			if m := min(len(na), len(nb)); m > best {
				best = m
				if order {
					bestA, bestB = nb, na
				} else {
					bestA, bestB = na, nb
				}
			}
		}
		if rule == RuleSeed && best >= 0 {
			break // ancestor first whenever it fits
		}
	}
	return bestA, bestB
}

// restrictGuided is RuleBalanced with a reference schedule: the pair keeps
// the order it has in ref and W ranges only over the slots between them
// there, so ref stays inside every restricted domain.
func restrictGuided(in *Instance, di []int, i int, dj []int, j int, ref Schedule) ([]int, []int) {
	swap := ref[j] < ref[i]
	a, b, first, second := di, dj, i, j
	if swap {
		a, b, first, second = dj, di, j, i
	}
	la := in.Jobs[first].Duration
	var bestA, bestB []int
	best := -1
	for w := ref[first] + la - 1; w < ref[second]; w++ {
		na := slices.DeleteFunc(slices.Clone(a), func(s int) bool { return s > 0 && s+la-1 > w })
		nb := slices.DeleteFunc(slices.Clone(b), func(s int) bool { return s > 0 && s <= w })
		if m := min(len(na), len(nb)); m > best {
			best, bestA, bestB = m, na, nb
		}
	}
	if swap {
		return bestB, bestA
	}
	return bestA, bestB
}

func firstStart(d []int) int {
	for _, s := range d {
		if s > 0 {
			return s
		}
	}
	return -1
}

func lastStart(d []int) int {
	if len(d) == 0 || d[len(d)-1] <= 0 {
		return -1
	}
	return d[len(d)-1]
}

func hasStart(d []int) bool {
	for _, s := range d {
		if s > 0 {
			return true
		}
	}
	return false
}

func (r *WDResult) String() string {
	return fmt.Sprintf("WD: width %d → %d, %d back edges deleted", r.WidthBefore, r.WidthAfter, len(r.Deleted))
}

// bestDeletion picks the ancestor x_i ∈ Sep(xn) \ {P(xn)} whose back edges
// into xn's subtree are cheapest to delete and returns those edges and the
// restricted domains, or nil when every candidate would empty a domain.
func bestDeletion(in *Instance, t *PseudoTree, d [][]int, xn int, rule string, ref Schedule, inSub func(y, root int) bool) ([][2]int, [][]int) {
	var bestEdges [][2]int
	var bestDom [][]int
	bestMin := -1
	for _, a := range t.Sep[xn] {
		if a == t.Parent[xn] {
			continue
		}
		var edges [][2]int
		for _, y := range t.Adj[a] {
			if inSub(y, xn) {
				edges = append(edges, [2]int{a, y})
			}
		}
		trial := slices.Clone(d)
		ok := true
		least := 1 << 30
		for _, e := range edges {
			trial[a], trial[e[1]] = restrict(in, trial[a], a, trial[e[1]], e[1], rule, ref)
			if len(trial[a]) == 0 || len(trial[e[1]]) == 0 {
				ok = false
				break
			}
			least = min(least, len(trial[a]), len(trial[e[1]]))
		}
		if !ok {
			continue
		}
		better := bestEdges == nil || least > bestMin ||
			(least == bestMin && (len(edges) < len(bestEdges) ||
				(len(edges) == len(bestEdges) && t.Depth[a] > t.Depth[bestEdges[0][0]])))
		if better {
			bestEdges, bestDom, bestMin = edges, trial, least
		}
	}
	return bestEdges, bestDom
}
