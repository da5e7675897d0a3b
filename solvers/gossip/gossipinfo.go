package gossip

import (
	"math"
	"sort"
)

// gossipInfo is the seed's system: every node keeps a version vector of
// every origin's record (4n² bytes) and exchanges it push-pull with fanout
// reachable nodes each period; schedulers are nodes and match from their
// own table. Each node ticks at a random phase, refreshes its record (the
// seed's §4.5 step 0, §6.2; gossip_refresh=on-change is the older model)
// and exchanges, the newer version winning (Fig. 5 steps 1–3); a record
// older than ttl_s is never used; leave writes a tombstone, join copies a
// site neighbour's table; churn is Poisson. With gossip_k
// (exchangeCounted) a newer version counts as known (ours).
type gossipInfo struct {
	s        *sim
	cur      []uint32    // per origin: its own current version
	vt       [][]float64 // per origin: creation time by version (index 0 unused)
	vs       [][]uint8   // per origin: state by version
	tab      []uint32    // n×n version vectors: node x's table is tab[x·n : (x+1)·n]
	known    []uint8     // gossip_k > 0: n×n "already known" notices each table entry got (§4.5 step 3); nil: no counter
	minLive  []uint32    // per origin: the oldest unexpired version
	held     []int32     // per node: records its table holds
	leaveVer []uint32    // per origin: its latest left version (0: none)
	claimed  [][]float64 // per scheduler: time before which a node's records are known stale
	round    int         // periods sampled
	rounds   float64     // the first period with 99 % coverage (-1: not yet)
	stale    [][2]float64
	cov      [][2]float64
}

var (
	_ view     = (*gossipInfo)(nil)
	_ protocol = (*gossipInfo)(nil)
)

func (g *gossipInfo) start(perm []int) {
	s := g.s
	n := s.n
	g.rounds = -1
	for k := range s.schedNode {
		s.schedNode[k] = s.nt.reach[perm[k]]
	}
	sort.Slice(s.schedNode, func(a, b int) bool { return s.schedNode[a] < s.schedNode[b] })
	g.claimed = make([][]float64, s.S)
	for k := range g.claimed {
		g.claimed[k] = make([]float64, n)
		for o := range g.claimed[k] {
			g.claimed[k][o] = -1
		}
	}
	g.tab = make([]uint32, n*n)
	if s.cfg.GossipK > 0 {
		g.known = make([]uint8, n*n)
	}
	g.minLive = make([]uint32, n)
	g.held = make([]int32, n)
	g.cur = make([]uint32, n)
	g.leaveVer = make([]uint32, n)
	g.vt, g.vs = make([][]float64, n), make([][]uint8, n)
	per := int(s.dur/s.cfg.PeriodS) + 4
	for o := 0; o < n; o++ {
		g.vt[o] = make([]float64, 1, min(per, 1<<12))
		g.vt[o][0] = math.Inf(-1)
		g.vs[o] = make([]uint8, 1, min(per, 1<<12))
		g.minLive[o] = 1
		g.newVersion(o, stFree)
		g.held[o] = 1
	}
}

func (g *gossipInfo) ticksAll() bool { return true }

func (g *gossipInfo) newVersion(o int, st uint8) {
	g.vt[o] = append(g.vt[o], g.s.now())
	g.vs[o] = append(g.vs[o], st)
	v := uint32(len(g.vt[o]) - 1)
	g.cur[o] = v
	g.tab[o*g.s.n+o] = v
	if g.known != nil {
		g.known[o*g.s.n+o] = 0 // a new record: its origin spreads it anew
	}
	if st == stLeft {
		g.leaveVer[o] = v
	}
}

func (g *gossipInfo) latency(k, j int) float64 {
	return g.s.nt.lat(int(g.s.schedNode[k]), j)
}

// usable reports whether scheduler table T's record of o may be matched.
func (g *gossipInfo) usable(T []uint32, k, o int) (uint32, bool) {
	v := T[o]
	if v == 0 || v < g.minLive[o] || g.s.nt.nat[o] {
		return 0, false
	}
	if t := g.vt[o][v]; g.vs[o][v] != stFree || t+g.s.cfg.TTLS < g.s.now() || t <= g.claimed[k][o] {
		return 0, false
	}
	return v, true
}

func (g *gossipInfo) candidate(k, start int) candidate {
	n := g.s.n
	sn := int(g.s.schedNode[k])
	T := g.tab[sn*n : (sn+1)*n]
	if g.s.cfg.SchedSplit == SplitPartition {
		// scheduler k's share: nodes k, k+S, k+2S, … (S schedulers), scanned
		// from the (start mod m)-th of its m nodes
		S := g.s.S
		m := (n - k + S - 1) / S
		for d := 0; d < m; d++ {
			o := k + (start+d)%m*S
			if v, ok := g.usable(T, k, o); ok {
				return candidate{node: o, ver: v, recT: g.vt[o][v]}
			}
		}
		return candidate{node: -1}
	}
	for d := 0; d < n; d++ {
		o := start + d
		if o >= n {
			o -= n
		}
		if v, ok := g.usable(T, k, o); ok {
			return candidate{node: o, ver: v, recT: g.vt[o][v]}
		}
	}
	return candidate{node: -1}
}

func (g *gossipInfo) sent(k, o int) { g.claimed[k][o] = g.s.now() }

// answered: the records node i wrote before it answered are stale.
func (g *gossipInfo) answered(k, i int) {
	g.claimed[k][i] = max(g.claimed[k][i], g.s.now()-g.latency(k, i))
}

// tick refreshes node i's record and opens its exchanges.
func (g *gossipInfo) tick(i int) {
	g.newVersion(i, stFree+boolState(g.s.busy[i]))
	for f := 0; f < g.s.cfg.Fanout; f++ {
		g.open(i)
	}
}

// changed: with gossip_refresh on-change a node writes a new version of
// its record at once; with periodic (the seed's §4.5, «定期的に自らの状態
// を収集し、資源情報を更新する») the change waits for its next tick.
func (g *gossipInfo) changed(i int, st uint8) {
	if g.s.cfg.GossipRefresh != RefreshPeriodic {
		g.newVersion(i, st)
	}
}

// open starts an exchange from i with a uniformly drawn reachable node.
func (g *gossipInfo) open(i int) {
	s := g.s
	r := s.nt.reach
	if len(r) == 0 || (len(r) == 1 && int(r[0]) == i) {
		return
	}
	j := int(r[s.rng.Intn(len(r))])
	for j == i {
		j = int(r[s.rng.Intn(len(r))])
	}
	s.logf(LogEntry{Kind: "contact", From: i, To: j, Job: -1})
	s.at(s.now()+s.nt.lat(i, j), event{kind: evExchange, node: int32(i), peer: int32(j)})
}

func (g *gossipInfo) handle(e event) {
	if e.kind == evExchange {
		g.exchange(int(e.node), int(e.peer))
	}
}

// exchange is i's push-pull with j: for every origin the newer unexpired
// version wins on both sides.
func (g *gossipInfo) exchange(i, j int) {
	s := g.s
	if !s.up[j] || !s.up[i] {
		s.count(1, float64(headerBytes+int(g.held[i])*s.cfg.RecordBytes))
		return
	}
	if g.known != nil {
		g.exchangeCounted(i, j)
	} else {
		g.exchangeAll(i, j)
	}
	if s.cfg.log {
		g.logLeavesKnown(i, j)
	}
	for k, sn := range s.schedNode {
		if int(sn) == i || int(sn) == j {
			s.tryMatch(k)
		}
	}
}

// exchangeAll is full anti-entropy (gossip_k off): each side sends its
// whole table and both end with the newer unexpired version of every
// origin.
func (g *gossipInfo) exchangeAll(i, j int) {
	s := g.s
	n := s.n
	A := g.tab[i*n : (i+1)*n]
	B := g.tab[j*n : (j+1)*n]
	B = B[:len(A)]
	ml := g.minLive[:len(A)]
	cnt := int32(0)
	for o := range A {
		m := max(A[o], B[o])
		if m < ml[o] {
			m = 0
		} else {
			cnt++
		}
		A[o], B[o] = m, m
	}
	A[i], B[j] = g.cur[i], g.cur[j]
	s.count(2, float64(2*headerBytes+int(g.held[i]+g.held[j])*s.cfg.RecordBytes))
	g.held[i], g.held[j] = cnt, cnt
}

// exchangeCounted is the seed's §4.5 exchange with the feedback counter of
// §2.3.1: each side sends the entries of its table that are still being
// spread (fewer than gossip_k "already known" notices); the receiver keeps
// the newer version (step 2) and tells the sender which entries it already
// knew, that version or a newer one (step 3); an entry that got gossip_k
// notices is no longer sent (it is still held and matched), and an entry
// replaced by a newer version starts again at 0. Both messages are built
// from the tables before the exchange.
func (g *gossipInfo) exchangeCounted(i, j int) {
	s := g.s
	n := s.n
	A := g.tab[i*n : (i+1)*n]
	B := g.tab[j*n : (j+1)*n][:len(A)]
	CA := g.known[i*n : (i+1)*n][:len(A)]
	CB := g.known[j*n : (j+1)*n][:len(A)]
	ml := g.minLive[:len(A)]
	k := uint8(s.cfg.GossipK)
	// Branch-free in 64-bit arithmetic (the outcomes are data-dependent,
	// so branches would mispredict, and byte flags chain through partial
	// registers): a flag is 0 or 1, x < y is the sign bit of x − y.
	K := uint64(k)
	var sentA, sentB, knewA, knewB, heldA, heldB uint64
	for o := range A {
		a, b, m := uint64(A[o]), uint64(B[o]), uint64(ml[o])
		a *= 1 - (a-m)>>63 // expired: dropped
		b *= 1 - (b-m)>>63
		ca, cb := uint64(CA[o]), uint64(CB[o])
		sa := (-a) >> 63 & ((ca - K) >> 63) // i sends its entry (held and fewer than k notices)
		sb := (-b) >> 63 & ((cb - K) >> 63) // j sends its entry
		upB := sa & ((b - a) >> 63)         // j takes i's newer version
		upA := sb & ((a - b) >> 63)
		knA := sa ^ upB // j knew i's entry (that version or newer): a notice to i
		knB := sb ^ upA
		na := a + upA*(b-a)
		nb := b + upB*(a-b)
		A[o], B[o] = uint32(na), uint32(nb)
		CA[o] = uint8((ca + knA) * (1 - upA)) // a replaced entry starts again at 0
		CB[o] = uint8((cb + knB) * (1 - upB))
		sentA += sa
		sentB += sb
		knewB += knA
		knewA += knB
		heldA += (-na) >> 63
		heldB += (-nb) >> 63
	}
	A[i], B[j] = g.cur[i], g.cur[j]
	// two tables of the hot entries, and the notices (4 bytes per entry
	// known) of the sides that knew some
	msgs, bytes := 2, 2*headerBytes+int(sentA+sentB)*s.cfg.RecordBytes
	for _, kn := range [2]uint64{knewA, knewB} {
		if kn > 0 {
			msgs++
			bytes += headerBytes + 4*int(kn)
		}
	}
	s.count(float64(msgs), float64(bytes))
	g.held[i], g.held[j] = int32(heldA), int32(heldB)
}

// logLeavesKnown logs the leave records tables i and j hold (tests).
func (g *gossipInfo) logLeavesKnown(i, j int) {
	n := g.s.n
	for _, x := range [2]int{i, j} {
		T := g.tab[x*n : (x+1)*n]
		for o, v := range T {
			if v != 0 && v == g.leaveVer[o] {
				g.s.logf(LogEntry{Kind: "leave-known", From: x, To: o, Job: -1, Ver: v})
			}
		}
	}
}

// left writes node i's left version and pushes it once to a random
// reachable node (applied at once: the node is gone before an answer
// could come back).
func (g *gossipInfo) left(i int) {
	s := g.s
	g.newVersion(i, stLeft)
	r := s.nt.reach
	j := int(r[s.rng.Intn(len(r))])
	if j != i && s.up[j] {
		v := g.cur[i]
		if g.tab[j*s.n+i] < v {
			g.tab[j*s.n+i] = v
			if g.known != nil {
				g.known[j*s.n+i] = 0
			}
		}
		s.count(1, float64(headerBytes+s.cfg.RecordBytes))
		s.logf(LogEntry{Kind: "contact", From: i, To: j, Job: -1})
	}
}

// joined writes a fresh free version of node i and copies the table of a
// reachable node of its own site (any reachable node if none).
func (g *gossipInfo) joined(i int) {
	s := g.s
	g.newVersion(i, stFree)
	var cands []int
	for _, r := range s.nt.reach {
		if int(r) != i && s.up[r] && s.nt.site[r] == s.nt.site[i] {
			cands = append(cands, int(r))
		}
	}
	if len(cands) == 0 {
		for _, r := range s.nt.reach {
			if int(r) != i && s.up[r] {
				cands = append(cands, int(r))
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	j := cands[s.rng.Intn(len(cands))]
	s.logf(LogEntry{Kind: "contact", From: i, To: j, Job: -1})
	s.count(2, float64(2*headerBytes+int(g.held[j])*s.cfg.RecordBytes))
	n := s.n
	A, B := g.tab[i*n:(i+1)*n], g.tab[j*n:(j+1)*n]
	cnt := int32(0)
	for o := range A {
		m := max(A[o], B[o])
		if m < g.minLive[o] {
			m = 0
		} else {
			cnt++
		}
		A[o] = m
	}
	if g.known != nil {
		clear(g.known[i*n : (i+1)*n]) // every copied entry is new to i
	}
	A[i] = g.cur[i]
	g.held[i] = cnt
}

// sample advances expiry and records coverage and staleness.
func (g *gossipInfo) sample() {
	s := g.s
	g.round++
	now := s.now()
	h := now / 3600
	cut := now - s.cfg.TTLS
	for o := range g.minLive {
		v := g.minLive[o]
		t := g.vt[o]
		for int(v) < len(t) && t[v] < cut {
			v++
		}
		g.minLive[o] = v
	}
	var sum float64
	for _, c := range g.held {
		sum += float64(c)
	}
	cov := sum / float64(s.n) / float64(s.n)
	g.cov = append(g.cov, [2]float64{h, cov})
	if g.rounds < 0 && cov >= 0.99 {
		g.rounds = float64(g.round)
	}
	// staleness of scheduler 0's table
	sn := int(s.schedNode[0])
	T := g.tab[sn*s.n : (sn+1)*s.n]
	var age float64
	cnt := 0
	for o, v := range T {
		if v != 0 && v >= g.minLive[o] {
			age += now - g.vt[o][v]
			cnt++
		}
	}
	if cnt > 0 {
		g.stale = append(g.stale, [2]float64{h, age / float64(cnt)})
	}
}

func (g *gossipInfo) summarize(r *Result) {
	r.Rounds = g.rounds
	if len(g.cov) > 0 {
		r.FinalInformed = g.cov[len(g.cov)-1][1]
	} else {
		r.FinalInformed = float64(g.held[0]) / float64(g.s.n)
	}
	r.StaleSeries, r.CoverageSeries = g.stale, g.cov
}

// Gossip record refresh (gossip_refresh).
const (
	RefreshPeriodic = "periodic"  // the seed's §4.5: a node refreshes its record at its period tick
	RefreshOnChange = "on-change" // a node's record changes at once with its state (the earlier model)
)

// How the gossip schedulers share the grid (sched_split).
const (
	SplitShared    = "shared"    // every scheduler matches over every node (the default)
	SplitPartition = "partition" // scheduler k matches only the nodes i with i mod schedulers = k
)
