package dcop

import (
	"cmp"
	"slices"

	"schedlab/errs"
)

// WD domain rules (the run parameter wd_rule). The seed (§3.1) writes the
// restriction of a deleted back edge between x_i and its descendants
// PC(x_i) as "ノード xi に τ := {1, ..., Lk}, 子孫ノード集合 PC(xi) に
// τ := {Lk + 1, ..., T}" and says the ancestor's job always comes earlier
// ("親ノードのジョブは子孫ノード集合のジョブよりも早い時間領域に割り当て
// られる"). Which job's L, how repeated deletions compose and whether the
// windows are start sets or occupied slots are not stated; these are the
// readings a careful reader would consider (doc.go has their measurements).
// Every rule but balanced and greedy-guided keeps the ancestor first;
// restrictions always intersect the current domains.
const (
	// RuleLiteral (R1): start sets as written, x_i ∈ {1..L_i}, x_j ∈
	// {L_i+1..T}. Disjoint starts do not prevent overlap when L_i ≥ 2 (x_i
	// at L_i still runs at L_i+1): the deleted pair may collide, which is
	// checked after DPOP and reported as a failure.
	RuleLiteral = "literal"
	// RuleEarliest (R2): x_i keeps the window of its current earliest start
	// lo (it occupies lo..lo+L_i−1, so {1..L_i} when unrestricted) and x_j
	// starts after it. Sound.
	RuleEarliest = "earliest"
	// RuleFixed (R3, W = L_i): x_i ends by L_i (starts at 1), x_j starts
	// after L_i, from the full grid each time, intersected with the
	// current domains. Sound.
	RuleFixed = "fixed"
	// RuleHalf (R3, W = ⌊T/2⌋): x_i ends by the middle of the grid, x_j
	// starts after it. Sound.
	RuleHalf = "half"
	// RuleSetWide (R4): as RuleEarliest, but x_i's window is kept apart from
	// every descendant it shares a constraint with (the whole PC(x_i):
	// "dxi ∩ dPC(xi) = φ"), not only from the deleted pair. Sound.
	RuleSetWide = "set-wide"
	// RuleBalanced (ours) splits the time line at the slot that maximizes
	// the smaller of the two remaining domains, either job first (ties:
	// ancestor first, then the earlier slot).
	RuleBalanced = "balanced"
	// RuleGreedyGuided (ours) is RuleBalanced keeping a reference schedule
	// (WidthDelete's ref, the greedy list schedule) feasible: the pair keeps
	// its order in ref and the split lies between the two jobs there, so
	// the relaxed problem always has a solution and DPOP's answer is never
	// worse than ref.
	RuleGreedyGuided = "greedy-guided"
	// RuleSeed is the reading kept as the seed's rule: RuleSetWide, the
	// text's "dxi ∩ dPC(xi) = φ" over the descendant set, which reaches the
	// limit with a feasible schedule as often as any reading of the text
	// (the measurements in doc.go).
	RuleSeed = "seed"
)

// WDRules lists the wd_rule values: the seed's reading first, then the
// other readings of the seed's text, then ours.
var WDRules = []string{RuleSeed, RuleLiteral, RuleEarliest, RuleFixed, RuleHalf, RuleSetWide, RuleBalanced, RuleGreedyGuided}

// seedReading is the reading RuleSeed stands for.
const seedReading = RuleSetWide

// WDResult is a pseudo-tree after back-edge deletion.
type WDResult struct {
	Tree        *PseudoTree // same DFS tree, deleted back edges gone from Adj
	Domains     [][]int     // restricted domains
	Deleted     [][2]int    // (ancestor, descendant) pairs, in deletion order
	WidthBefore int
	WidthAfter  int // the width reached (over the limit when WD failed)
	Rule        string
}

// WidthDelete is the seed's Algorithm 1 (WD): while the width exceeds
// limit, take the node x_n with the largest separator (ties: more UTIL
// entries, then lower job index) and an ancestor x_i ∈ Sep(x_n) other than
// its parent; delete every back edge between x_i and x_n's subtree,
// restricting domains by rule so that each deleted pair can never overlap.
// x_i then leaves Sep(x_n), so the largest separator shrinks by one.
// Among the candidates x_i the one leaving the largest smallest domain among
// the restricted jobs is taken (ties: fewer deleted edges, then the deeper
// x_i; our choice, the seed does not say), skipping any whose restriction
// would empty a domain; when x_n has none, the next node over the limit is
// tried (largest separator first), and only when no node over the limit
// has one does WD fail
// (errs.Invalid on width_limit), returning with the error the result so
// far (WidthAfter is the width reached). ref guides RuleGreedyGuided (nil
// there is errs.Invalid on wd_rule); it must be feasible and inside dom. t
// and dom are not modified.
func WidthDelete(in *Instance, t *PseudoTree, dom [][]int, limit int, rule string, ref Schedule) (*WDResult, error) {
	if !slices.Contains(WDRules, rule) {
		return nil, errs.Invalidf("wd_rule", "must be one of %v, got %q", WDRules, rule)
	}
	if rule == RuleSeed {
		rule = seedReading
	}
	if rule == RuleGreedyGuided && ref == nil {
		return nil, errs.Invalidf("wd_rule", "%s needs a reference schedule inside the domains: the greedy list schedule starts a job after its last start", RuleGreedyGuided)
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
	res := &WDResult{Tree: &nt, Domains: d, WidthBefore: t.Width(), Rule: rule}

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
			res.Domains, res.WidthAfter = d, nt.Width()
			return res, errs.Invalidf("width_limit", "cannot reduce the width below %d with rule %s: every remaining back-edge deletion at a node over the limit would leave a job without a start slot (node %s has %d separator variables)",
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
		return cmp.Or(len(nt.Sep[y])-len(nt.Sep[x]), cmp.Compare(nt.Entries(y, size), nt.Entries(x, size)))
	})
	return wide
}

// restrict applies rule to the deleted pair (i ancestor, j descendant):
// one job ends by a slot W and the other starts after it (RuleLiteral:
// x_i starts by W), so that the pair never overlaps; a start of 0
// (unscheduled) stays in both. New slices are returned, or nil, nil when
// the rule leaves a job without a start. Domains are ascending, so each
// side is counted with a binary search and only the chosen split is
// materialized (an ancestor's side is a prefix of its domain, shared).
func restrict(in *Instance, di []int, i int, dj []int, j int, rule string, ref Schedule) ([]int, []int) {
	li := in.Jobs[i].Duration
	cut := func(w int, startsOnly bool) ([]int, []int) {
		last := w - li + 1 // x_i ends by w
		if startsOnly {
			last = w
		}
		na := prefix(di, upTo(di, last)) // the starts ≤ last (0 too when 0 ≤ last)
		nb := startsAfter(dj, w)
		if firstStart(na) < 0 || firstStart(nb) < 0 {
			return nil, nil
		}
		return na, nb
	}
	switch rule {
	case RuleLiteral:
		return cut(li, true)
	case RuleEarliest, RuleSetWide:
		lo := firstStart(di)
		if lo < 0 {
			return nil, nil
		}
		return cut(lo+li-1, false)
	case RuleFixed:
		return cut(li, false)
	case RuleHalf:
		return cut(in.Horizon/2, false)
	case RuleGreedyGuided:
		if ref[i] > 0 && ref[j] > 0 {
			return restrictGuided(in, di, i, dj, j, ref)
		}
	}
	return restrictBalanced(in, di, i, dj, j)
}

// upTo counts the values ≤ v of the ascending d.
func upTo(d []int, v int) int {
	return lowerIndex(d, v+1)
}

// startsAfter is d without its starts 1..w (0, unscheduled, stays), for
// w ≥ 0: a new slice.
func startsAfter(d []int, w int) []int {
	k := upTo(d, w)
	out := make([]int, 0, len(d)-k+1)
	if len(d) > 0 && d[0] == 0 {
		out = append(out, 0)
	}
	return append(out, d[k:]...)
}

// splitSizes is what restrictBalanced and restrictGuided weigh for a split
// slot w ≥ la (first job of duration la ends by w, the other starts after
// it): the two remaining domain sizes and their numbers of starts.
func splitSizes(a, b []int, la, w int) (na, nb, startsA, startsB int) {
	za, zb := 0, 0
	if len(a) > 0 && a[0] == 0 {
		za = 1
	}
	if len(b) > 0 && b[0] == 0 {
		zb = 1
	}
	na = upTo(a, w-la+1)
	startsB = len(b) - upTo(b, w)
	return na, zb + startsB, na - za, startsB
}

// restrictBalanced is RuleBalanced: W where the smaller of the two
// remaining domains is largest, either job first (ties: ancestor first,
// then the earlier W).
func restrictBalanced(in *Instance, di []int, i int, dj []int, j int) ([]int, []int) {
	best, bestOrder, bestW := -1, false, 0
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
		for w := lo + la - 1; w < hi; w++ {
			na, nb, sa, sb := splitSizes(a, b, la, w)
			if sa == 0 || sb == 0 {
				continue
			}
			if m := min(na, nb); m > best {
				best, bestOrder, bestW = m, order, w
			}
		}
	}
	if best < 0 {
		return nil, nil
	}
	if bestOrder {
		nb, na := splitAt(dj, di, in.Jobs[j].Duration, bestW)
		return na, nb
	}
	return splitAt(di, dj, in.Jobs[i].Duration, bestW)
}

// splitAt materializes the split at w: a (duration la) ends by w, b starts
// after it; 0 stays in both.
func splitAt(a, b []int, la, w int) ([]int, []int) {
	return prefix(a, upTo(a, w-la+1)), startsAfter(b, w)
}

// prefix is d[:k] capped at k: restricted domains share the memory of
// the domains they were cut from (no domain is ever changed in place, and
// an append to the prefix would copy it).
func prefix(d []int, k int) []int {
	return d[:k:k]
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
	best, bestW := -1, 0
	for w := ref[first] + la - 1; w < ref[second]; w++ {
		na, nb, _, _ := splitSizes(a, b, la, w)
		if m := min(na, nb); m > best {
			best, bestW = m, w
		}
	}
	if best < 0 {
		return nil, nil
	}
	bestA, bestB := splitAt(a, b, la, bestW)
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

// bestDeletion picks the ancestor x_i ∈ Sep(xn) \ {P(xn)} whose back edges
// into xn's subtree are cheapest to delete and returns those edges and the
// restricted domains, or nil when every candidate would empty a domain.
func bestDeletion(in *Instance, t *PseudoTree, d [][]int, xn int, rule string, ref Schedule, inSub func(y, root int) bool) ([][2]int, [][]int) {
	var bestEdges [][2]int
	var bestDom [][]int
	bestMin := -1
	// trial equals d before each candidate: the jobs a candidate restricts
	// are put back after it (touched), a better one is copied to bestDom.
	trial := slices.Clone(d)
	var touched []int
	for _, a := range t.Sep[xn] {
		if a == t.Parent[xn] {
			continue
		}
		var edges, pairs [][2]int
		for _, y := range t.Adj[a] {
			if inSub(y, xn) {
				edges = append(edges, [2]int{a, y})
			}
		}
		pairs = edges
		if rule == RuleSetWide { // x_i apart from all of PC(x_i)
			pairs = nil
			for _, y := range t.Adj[a] {
				if t.Depth[y] > t.Depth[a] {
					pairs = append(pairs, [2]int{a, y})
				}
			}
		}
		touched = touched[:0]
		ok := true
		least := 1 << 30
		for _, e := range pairs {
			trial[a], trial[e[1]] = restrict(in, trial[a], a, trial[e[1]], e[1], rule, ref)
			touched = append(touched, a, e[1])
			if len(trial[a]) == 0 || len(trial[e[1]]) == 0 {
				ok = false
				break
			}
			least = min(least, len(trial[a]), len(trial[e[1]]))
		}
		if ok {
			better := bestEdges == nil || least > bestMin ||
				(least == bestMin && (len(edges) < len(bestEdges) ||
					(len(edges) == len(bestEdges) && t.Depth[a] > t.Depth[bestEdges[0][0]])))
			if better {
				bestEdges, bestMin = edges, least
				bestDom = slices.Clone(trial)
			}
		}
		for _, k := range touched {
			trial[k] = d[k]
		}
	}
	return bestEdges, bestDom
}
