package gossip

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"

	"schedlab/errs"
	"schedlab/solvers"
)

// SimConfig is a simulation's protocol: every knob with its unit (Config's
// simConfig makes it from the run parameters).
type SimConfig struct {
	Variant     string  // VariantGossip or VariantCentral
	PeriodS     float64 // gossip period and central collection period, s
	Fanout      int     // exchanges a node opens per period
	TTLS        float64 // record time-to-live, s
	Schedulers  int     // gossip scheduling nodes (central: one manager)
	RecordCostS float64 // central: processing per collected record, s
	MatchCostS  float64 // both: per record scanned by one match, s (a match scans n records)
	Exact       bool    // central: oracle information instead of periodic snapshots
	ChurnPerH   float64 // leaves per node per hour (Poisson); 0 = none
	DowntimeS   float64 // how long a leaving node stays away, s
	WarmupS     float64 // utilization is averaged after this, s
	RecordBytes int     // bytes of one resource record in an exchange
	GanttNodes  int     // lanes of the Gantt: nodes 0..GanttNodes-1 (when GanttLanes is nil)
	GanttLanes  []int   // lanes of the Gantt: these node ids, in this order (nil: GanttNodes)
	MemoryBytes int64   // budget for the tables
	Seed        int64

	log       bool   // keep the event log (tests)
	sizeField string // the parameter that set the node count, for the budget's error ("" = nodes)
}

// Record states.
const (
	stFree uint8 = iota
	stBusy
	stLeft
)

// header bytes of every message.
const headerBytes = 64

// Event kinds.
const (
	kArrive = iota
	kTick
	kExch
	kReq
	kHand
	kAccept
	kReject
	kStart
	kFinish
	kWake
	kCycle
	kReady
	kClock
	kLeave
	kJoin
	kPoll
)

type event struct {
	t          float64
	seq        uint64
	kind       int8
	a, b, c, d int32
}

// eventHeap is a binary min-heap on (t, seq): ties in time keep the order
// the events were scheduled in.
type eventHeap []event

func (h eventHeap) less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s.less(r, l) {
			m = r
		}
		if !s.less(m, i) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// LogEntry is one line of the event log kept for tests.
type LogEntry struct {
	T    float64
	Kind string // "contact" (opened connection), "match", "start", "finish", "abort", "leave", "join", "leave-known"
	From int    // initiator (scheduler's node for matches; -1 = central manager)
	To   int
	Job  int
	Ver  uint32  // matches: version of the record used
	RecT float64 // matches: creation time of the record used
}

// Result is what a simulation measured.
type Result struct {
	Utilization    float64
	WaitMean       float64
	WaitP95        float64
	RejectsPerJob  float64
	MsgsPerNode    float64 // per period
	BytesPerNode   float64 // per period
	Rounds         float64 // gossip: periods to 99 % coverage (-1: never)
	FinalInformed  float64
	StalenessMean  float64
	Started, Jobs  int
	Rejects        int
	Matches        int
	BinW           float64
	UtilSeries     [][2]float64 // (h, utilization)
	MsgSeries      [][2]float64 // (h, messages per node per period)
	ByteSeries     [][2]float64
	StaleSeries    [][2]float64 // (h, mean age of scheduler 0's records, s)
	CoverageSeries [][2]float64
	Bars           []solvers.Bar
	Lanes          []string
	Log            []LogEntry
	Nodes          int
	Schedulers     []int
	WarmupS        float64
	DurationS      float64
}

type sim struct {
	cfg SimConfig
	in  *Instance
	nt  *net
	n   int
	rng *rand.Rand
	now float64
	h   eventHeap
	seq uint64
	dur float64
	gsp bool // gossip (tables) or central
	S   int  // schedulers

	up, busy, pend []bool
	epoch          []int32
	cur            []uint32    // own current version
	vt             [][]float64 // per origin: creation time by version (index 0 unused)
	vs             [][]uint8   // per origin: state by version
	tab            []uint32    // n×n version vectors
	minLive        []uint32
	held           []int32
	leaveVer       []uint32 // latest left version per origin (0: none)

	schedNode []int32
	queue     [][]int32 // FIFO with head index qh
	qh        []int
	claimed   [][]float64 // per scheduler: time before which a node's records are known stale
	busyUntil []float64
	wake      []bool

	// central
	mlat       []float64
	maxMlat    float64
	snapFree   []bool
	snapNext   []bool
	snapT      float64
	lastMatch  []float64
	collecting bool

	// jobs
	jnode   []int32
	jres    []float64
	jstart  []float64
	jend    []float64
	nextJob int
	running int

	// accounting
	lastT                  float64
	binW                   float64
	area                   []float64
	msgBin                 []float64
	byteBin                []float64
	msgs                   float64
	bytes                  float64
	rejects                int
	matches                int
	staleSum               float64
	staleSeries, covSeries [][2]float64
	rounds                 float64
	leaves                 int
	log                    []LogEntry
}

func (s *sim) at(t float64, kind int8, a, b, c, d int32) {
	s.seq++
	s.h.push(event{t: t, seq: s.seq, kind: kind, a: a, b: b, c: c, d: d})
}

func (s *sim) logf(e LogEntry) {
	if s.cfg.log {
		e.T = s.now
		s.log = append(s.log, e)
	}
}

// estimateBytes is the memory a run needs, roughly (saturating: a huge
// input never wraps into a small estimate).
func estimateBytes(n, sched int, durS, periodS float64, jobs int, gossip bool) int64 {
	N := int64(n)
	b := solvers.SatAdd(solvers.SatMul(N, 64), solvers.SatMul(int64(jobs), 40))
	if gossip {
		hist := int64(min(float64(n)*(durS/periodS+2), math.MaxInt64/64))
		b = solvers.SatAdd(b, solvers.SatMul(N, N, 4), solvers.SatMul(int64(sched), N, 8),
			solvers.SatMul(hist, 9, 2)) // history, ×2 for slice growth
	}
	return b
}

// Simulate runs the gossip or central variant on in.
func Simulate(ctx context.Context, in *Instance, cfg SimConfig, progress solvers.Progress) (*Result, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	n := in.Grid.Nodes
	gsp := cfg.Variant == VariantGossip
	S := 1
	if gsp {
		S = cfg.Schedulers
	}
	nt := in.Grid.Build()
	if S > len(nt.reach) {
		return nil, errs.Invalidf("schedulers", "only %d nodes accept connections, cannot place %d scheduling nodes", len(nt.reach), S)
	}
	// The budget is the lower of memory_mb and the server's: a user can
	// lower it, never raise it.
	est := estimateBytes(n, S, in.DurationS, cfg.PeriodS, len(in.Jobs), gsp)
	field := cfg.sizeField
	if field == "" {
		field = "nodes"
	}
	if err := solvers.ReserveWithin(ctx, field, est, fmt.Sprintf("%d nodes over %.0f s (tables and records)", n, in.DurationS), cfg.MemoryBytes); err != nil {
		return nil, err
	}
	s := &sim{cfg: cfg, in: in, nt: nt, n: n, rng: rand.New(rand.NewSource(cfg.Seed)), dur: in.DurationS, gsp: gsp, S: S}
	s.init()
	if err := s.loop(ctx, progress); err != nil {
		return nil, err
	}
	return s.result(), nil
}

// newSim builds a simulator without running it (tests inspect its tables).
func newSim(in *Instance, cfg SimConfig) *sim {
	S := 1
	if cfg.Variant == VariantGossip {
		S = cfg.Schedulers
	}
	s := &sim{cfg: cfg, in: in, nt: in.Grid.Build(), n: in.Grid.Nodes, rng: rand.New(rand.NewSource(cfg.Seed)), dur: in.DurationS, gsp: cfg.Variant == VariantGossip, S: S}
	s.init()
	return s
}

func (s *sim) init() {
	n, cfg := s.n, s.cfg
	s.up, s.busy, s.pend = make([]bool, n), make([]bool, n), make([]bool, n)
	for i := range s.up {
		s.up[i] = true
	}
	s.epoch = make([]int32, n)
	nb := int(math.Ceil(s.dur / cfg.PeriodS))
	nb = max(1, min(nb, 2000))
	s.binW = s.dur / float64(nb)
	s.area, s.msgBin, s.byteBin = make([]float64, nb), make([]float64, nb), make([]float64, nb)
	s.rounds = -1
	jobs := len(s.in.Jobs)
	s.jnode, s.jres, s.jstart, s.jend = make([]int32, jobs), make([]float64, jobs), make([]float64, jobs), make([]float64, jobs)
	for j := range s.jnode {
		s.jnode[j], s.jstart[j], s.jres[j] = -1, -1, -1
	}
	s.queue, s.qh = make([][]int32, s.S), make([]int, s.S)
	s.busyUntil, s.wake = make([]float64, s.S), make([]bool, s.S)
	// scheduling nodes: a seeded sample of reachable nodes
	perm := s.rng.Perm(len(s.nt.reach))
	s.schedNode = make([]int32, s.S)
	if s.gsp {
		for k := range s.schedNode {
			s.schedNode[k] = s.nt.reach[perm[k]]
		}
		sort.Slice(s.schedNode, func(a, b int) bool { return s.schedNode[a] < s.schedNode[b] })
		s.claimed = make([][]float64, s.S)
		for k := range s.claimed {
			s.claimed[k] = make([]float64, n)
			for o := range s.claimed[k] {
				s.claimed[k][o] = -1
			}
		}
		s.tab = make([]uint32, n*n)
		s.minLive = make([]uint32, n)
		s.held = make([]int32, n)
		s.cur = make([]uint32, n)
		s.leaveVer = make([]uint32, n)
		s.vt, s.vs = make([][]float64, n), make([][]uint8, n)
		per := int(s.dur/cfg.PeriodS) + 4
		for o := 0; o < n; o++ {
			s.vt[o] = make([]float64, 1, min(per, 1<<12))
			s.vt[o][0] = math.Inf(-1)
			s.vs[o] = make([]uint8, 1, min(per, 1<<12))
			s.minLive[o] = 1
			s.newVersion(o, stFree)
			s.held[o] = 1
		}
	} else {
		s.schedNode[0] = -1
		// the manager: a machine at a random site, 1 ms access
		ms := s.rng.Intn(len(s.nt.sx))
		s.mlat = make([]float64, n)
		for j := 0; j < n; j++ {
			l := s.nt.access[j] + 0.001
			if a := s.nt.site[j]; int(a) == ms {
				l += s.nt.intra
			} else {
				dx, dy := s.nt.sx[a]-s.nt.sx[ms], s.nt.sy[a]-s.nt.sy[ms]
				l += s.nt.interLo + s.nt.interSpan*math.Sqrt(dx*dx+dy*dy)/math.Sqrt2
			}
			s.mlat[j] = l
			s.maxMlat = max(s.maxMlat, l)
		}
		s.snapFree, s.snapNext = make([]bool, n), make([]bool, n)
		s.lastMatch = make([]float64, n)
		for j := range s.lastMatch {
			s.lastMatch[j] = math.Inf(-1)
		}
		if !cfg.Exact {
			s.at(0, kCycle, 0, 0, 0, 0)
		}
	}
	// node ticks at random phases (central: only NAT nodes poll)
	for i := 0; i < n; i++ {
		ph := s.rng.Float64() * cfg.PeriodS
		if s.gsp || s.nt.nat[i] {
			s.at(ph, kTick, int32(i), 0, 0, 0)
		}
	}
	s.at(cfg.PeriodS, kClock, 1, 0, 0, 0)
	if len(s.in.Jobs) > 0 {
		s.at(s.in.Jobs[0].Submit, kArrive, 0, 0, 0, 0)
		s.nextJob = 1
	}
	if cfg.ChurnPerH > 0 {
		s.at(s.rng.ExpFloat64()/(cfg.ChurnPerH*float64(n)/3600), kLeave, 0, 0, 0, 0)
	}
}

func (s *sim) newVersion(o int, st uint8) {
	s.vt[o] = append(s.vt[o], s.now)
	s.vs[o] = append(s.vs[o], st)
	v := uint32(len(s.vt[o]) - 1)
	s.cur[o] = v
	s.tab[o*s.n+o] = v
	if st == stLeft {
		s.leaveVer[o] = v
	}
}

// slat is the one-way latency between scheduler k and node j.
func (s *sim) slat(k, j int) float64 {
	if !s.gsp {
		return s.mlat[j]
	}
	return s.nt.lat(int(s.schedNode[k]), j)
}

func (s *sim) bin() int {
	b := int(s.now / s.binW)
	return min(max(b, 0), len(s.area)-1)
}

func (s *sim) count(msgs, bytes float64) {
	s.msgs += msgs
	s.bytes += bytes
	b := s.bin()
	s.msgBin[b] += msgs
	s.byteBin[b] += bytes
}

// account integrates the running count up to now.
func (s *sim) account() {
	t := min(s.now, s.dur)
	if !(s.lastT < t) {
		return
	}
	// Walk the bins by index, not by re-dividing lastT: with a bin width
	// that is not a power of two, (b+1)·binW / binW can round down to b,
	// and a loop that recomputed b from lastT would never advance (the
	// SWF hang). Every iteration moves to the next bin, so this ends.
	last := len(s.area) - 1
	b := min(max(int(s.lastT/s.binW), 0), last)
	for {
		end := t
		if b < last {
			end = min(float64(b+1)*s.binW, t)
		}
		if end > s.lastT {
			s.area[b] += float64(s.running) * (end - s.lastT)
			s.lastT = end
		}
		if s.lastT >= t || b == last {
			break
		}
		b++
	}
	s.lastT = t
}

func (s *sim) loop(ctx context.Context, progress solvers.Progress) error {
	total := int(math.Ceil(s.dur))
	var steps int
	for len(s.h) > 0 {
		e := s.h.pop()
		if e.t >= s.dur {
			break
		}
		s.now = e.t
		steps++
		if steps&0xfff == 0 { // ≤ 4096 events (an exchange is O(n)) between checks
			if err := ctx.Err(); err != nil {
				return err
			}
			progress(int(s.now), total, fmt.Sprintf("%.1f of %.1f simulated hours", s.now/3600, s.dur/3600))
		}
		s.handle(e)
	}
	s.now = s.dur
	s.account()
	return ctx.Err()
}

func (s *sim) handle(e event) {
	switch e.kind {
	case kArrive:
		j := int(e.a)
		k := j % s.S
		s.queue[k] = append(s.queue[k], int32(j))
		if s.nextJob < len(s.in.Jobs) {
			s.at(s.in.Jobs[s.nextJob].Submit, kArrive, int32(s.nextJob), 0, 0, 0)
			s.nextJob++
		}
		s.tryMatch(k)
	case kTick:
		s.tick(int(e.a))
	case kExch:
		s.exchange(int(e.a), int(e.b))
	case kReq, kHand:
		s.request(int(e.a), int(e.b), int(e.c), e.kind == kHand)
	case kAccept:
		// records the node wrote before it reserved itself are stale
		if s.gsp {
			k, i := int(e.a), int(e.b)
			s.claimed[k][i] = max(s.claimed[k][i], s.now-s.slat(k, i))
		}
	case kReject:
		k, j := int(e.a), int(e.c)
		if s.gsp {
			i := int(e.b)
			s.claimed[k][i] = max(s.claimed[k][i], s.now-s.slat(k, i))
		}
		s.rejects++
		s.pushFront(k, j)
		s.tryMatch(k)
	case kStart:
		i, j := int(e.b), int(e.c)
		if e.d != s.epoch[i] {
			return
		}
		s.account()
		s.running++
		s.jstart[j] = s.now
		s.logf(LogEntry{Kind: "start", From: -1, To: i, Job: j})
		s.at(s.now+s.in.Jobs[j].Run, kFinish, 0, int32(i), int32(j), s.epoch[i])
	case kFinish:
		i, j := int(e.b), int(e.c)
		if e.d != s.epoch[i] {
			return
		}
		s.account()
		s.running--
		s.busy[i] = false
		s.jend[j] = s.now
		s.logf(LogEntry{Kind: "finish", From: -1, To: i, Job: j})
		if s.gsp {
			s.newVersion(i, stFree)
		} else if s.cfg.Exact {
			s.tryMatch(0)
		}
	case kWake:
		k := int(e.a)
		s.wake[k] = false
		s.tryMatch(k)
	case kCycle:
		s.cycle()
	case kReady:
		T := float64(math.Float64frombits(uint64(uint32(e.a)) | uint64(uint32(e.b))<<32))
		s.collecting = false
		for j := range s.snapFree {
			s.snapFree[j] = s.snapNext[j] && s.lastMatch[j] < T
		}
		s.snapT = T
		s.tryMatch(0)
	case kClock:
		s.clock(int(e.a))
	case kLeave:
		s.churnLeave()
	case kJoin:
		s.join(int(e.a))
	case kPoll:
		i, k := int(e.a), int(e.b)
		if len(s.queue[k]) > s.qh[k] && s.up[i] && !s.busy[i] {
			j := s.popFront(k)
			s.matches++
			s.lastMatchNode(i)
			s.count(1, headerBytes)
			s.at(s.now+s.slat(k, i), kHand, int32(k), int32(i), int32(j), 0)
		}
	}
}

func (s *sim) lastMatchNode(i int) {
	if !s.gsp {
		s.lastMatch[i] = s.now
	}
}

func (s *sim) pushFront(k, j int) {
	if s.qh[k] > 0 {
		s.qh[k]--
		s.queue[k][s.qh[k]] = int32(j)
		return
	}
	s.queue[k] = append([]int32{int32(j)}, s.queue[k]...)
}

func (s *sim) popFront(k int) int {
	j := s.queue[k][s.qh[k]]
	s.qh[k]++
	if s.qh[k] == len(s.queue[k]) {
		s.queue[k], s.qh[k] = s.queue[k][:0], 0
	} else if s.qh[k] > 1024 && s.qh[k]*2 > len(s.queue[k]) {
		s.queue[k] = append(s.queue[k][:0], s.queue[k][s.qh[k]:]...)
		s.qh[k] = 0
	}
	return int(j)
}

func (s *sim) homeSched(i int) int { return i % s.S }

func (s *sim) tick(i int) {
	s.at(s.now+s.cfg.PeriodS, kTick, int32(i), 0, 0, 0)
	if !s.up[i] {
		return
	}
	if s.nt.nat[i] && !s.busy[i] {
		k := s.homeSched(i)
		s.count(1, headerBytes)
		to := -1
		if s.gsp {
			to = int(s.schedNode[k])
		}
		s.logf(LogEntry{Kind: "contact", From: i, To: to, Job: -1})
		s.at(s.now+s.slat(k, i), kPoll, int32(i), int32(k), 0, 0)
	}
	if !s.gsp {
		return
	}
	s.newVersion(i, stFree+boolState(s.busy[i]))
	for f := 0; f < s.cfg.Fanout; f++ {
		s.open(i)
	}
}

func boolState(b bool) uint8 {
	if b {
		return stBusy
	}
	return stFree
}

// open starts an exchange from i with a uniformly drawn reachable node.
func (s *sim) open(i int) {
	r := s.nt.reach
	if len(r) == 0 || (len(r) == 1 && int(r[0]) == i) {
		return
	}
	j := int(r[s.rng.Intn(len(r))])
	for j == i {
		j = int(r[s.rng.Intn(len(r))])
	}
	s.logf(LogEntry{Kind: "contact", From: i, To: j, Job: -1})
	s.at(s.now+s.nt.lat(i, j), kExch, int32(i), int32(j), 0, 0)
}

func (s *sim) exchange(i, j int) {
	if !s.up[j] || !s.up[i] {
		s.count(1, float64(headerBytes+int(s.held[i])*s.cfg.RecordBytes))
		return
	}
	n := s.n
	A := s.tab[i*n : (i+1)*n]
	B := s.tab[j*n : (j+1)*n]
	B = B[:len(A)]
	ml := s.minLive[:len(A)]
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
	A[i], B[j] = s.cur[i], s.cur[j]
	s.count(2, float64(2*headerBytes+int(s.held[i]+s.held[j])*s.cfg.RecordBytes))
	s.held[i], s.held[j] = cnt, cnt
	if s.cfg.log {
		for _, x := range [2]int{i, j} {
			T := s.tab[x*n : (x+1)*n]
			for o, v := range T {
				if v != 0 && v == s.leaveVer[o] {
					s.logf(LogEntry{Kind: "leave-known", From: x, To: o, Job: -1, Ver: v})
				}
			}
		}
	}
	for k, sn := range s.schedNode {
		if int(sn) == i || int(sn) == j {
			s.tryMatch(k)
		}
	}
}

// usable reports whether scheduler table T's record of o may be matched.
func (s *sim) usable(T []uint32, k, o int) (uint32, bool) {
	v := T[o]
	if v == 0 || v < s.minLive[o] || s.nt.nat[o] {
		return 0, false
	}
	if t := s.vt[o][v]; s.vs[o][v] != stFree || t+s.cfg.TTLS < s.now || t <= s.claimed[k][o] {
		return 0, false
	}
	return v, true
}

// candidate finds a node for scheduler k: (node, version, record time).
func (s *sim) candidate(k int) (int, uint32, float64) {
	n := s.n
	start := s.rng.Intn(n)
	if s.gsp {
		sn := int(s.schedNode[k])
		T := s.tab[sn*n : (sn+1)*n]
		for d := 0; d < n; d++ {
			o := start + d
			if o >= n {
				o -= n
			}
			if v, ok := s.usable(T, k, o); ok {
				return o, v, s.vt[o][v]
			}
		}
		return -1, 0, 0
	}
	for d := 0; d < n; d++ {
		o := start + d
		if o >= n {
			o -= n
		}
		if s.nt.nat[o] {
			continue
		}
		if s.cfg.Exact {
			if s.up[o] && !s.busy[o] && !s.pend[o] {
				return o, 0, s.now
			}
		} else if s.snapFree[o] {
			return o, 0, s.snapT
		}
	}
	return -1, 0, 0
}

func (s *sim) tryMatch(k int) {
	for len(s.queue[k]) > s.qh[k] {
		if s.now < s.busyUntil[k] {
			if !s.wake[k] {
				s.wake[k] = true
				s.at(s.busyUntil[k], kWake, int32(k), 0, 0, 0)
			}
			return
		}
		o, v, recT := s.candidate(k)
		if o < 0 {
			return
		}
		j := s.popFront(k)
		cost := s.cfg.MatchCostS * float64(s.n)
		send := s.now + cost
		s.busyUntil[k] = send
		if s.gsp {
			s.claimed[k][o] = s.now
		} else {
			s.snapFree[o] = false
			s.pend[o] = true
			s.lastMatch[o] = s.now
		}
		s.matches++
		s.staleSum += s.now - recT
		s.logf(LogEntry{Kind: "match", From: int(s.schedNode[k]), To: o, Job: j, Ver: v, RecT: recT})
		s.logf(LogEntry{Kind: "contact", From: int(s.schedNode[k]), To: o, Job: j})
		s.count(1, headerBytes)
		s.at(send+s.slat(k, o), kReq, int32(k), int32(o), int32(j), 0)
	}
}

// request is an allocation request (or a job handed on a poll) at node i.
func (s *sim) request(k, i, j int, hand bool) {
	s.pend[i] = false
	l := s.slat(k, i)
	if !s.up[i] || s.busy[i] {
		s.count(1, headerBytes)
		s.at(s.now+l, kReject, int32(k), int32(i), int32(j), 0)
		return
	}
	s.busy[i] = true
	if s.gsp {
		s.newVersion(i, stBusy)
	}
	s.jnode[j], s.jres[j] = int32(i), s.now
	start := s.now + 2*l // accept back, job sent
	if hand {
		start = s.now
	} else {
		s.count(2, 2*headerBytes)
		s.at(s.now+l, kAccept, int32(k), int32(i), int32(j), 0)
	}
	s.at(start, kStart, 0, int32(i), int32(j), s.epoch[i])
}

// cycle is one central collection: every node's record, one hop.
func (s *sim) cycle() {
	s.at(s.now+s.cfg.PeriodS, kCycle, 0, 0, 0, 0)
	if s.collecting {
		return // the previous collection is still being processed
	}
	up := 0
	for j := range s.snapNext {
		s.snapNext[j] = s.up[j] && !s.busy[j]
		if s.up[j] {
			up++
		}
	}
	s.count(float64(up), float64(up*(headerBytes+s.cfg.RecordBytes)))
	start := max(s.now+s.maxMlat, s.busyUntil[0])
	ready := start + float64(up)*s.cfg.RecordCostS
	s.busyUntil[0] = ready
	s.collecting = true
	bits := math.Float64bits(s.now)
	s.at(ready, kReady, int32(uint32(bits)), int32(uint32(bits>>32)), 0, 0)
}

// clock advances expiry and samples the series once per period.
func (s *sim) clock(round int) {
	s.at(s.now+s.cfg.PeriodS, kClock, int32(round+1), 0, 0, 0)
	h := s.now / 3600
	if !s.gsp {
		if s.cfg.Exact {
			s.staleSeries = append(s.staleSeries, [2]float64{h, 0})
		} else {
			s.staleSeries = append(s.staleSeries, [2]float64{h, s.now - s.snapT})
		}
		s.covSeries = append(s.covSeries, [2]float64{h, 1})
		return
	}
	cut := s.now - s.cfg.TTLS
	for o := range s.minLive {
		v := s.minLive[o]
		t := s.vt[o]
		for int(v) < len(t) && t[v] < cut {
			v++
		}
		s.minLive[o] = v
	}
	var sum float64
	for _, c := range s.held {
		sum += float64(c)
	}
	cov := sum / float64(s.n) / float64(s.n)
	s.covSeries = append(s.covSeries, [2]float64{h, cov})
	if s.rounds < 0 && cov >= 0.99 {
		s.rounds = float64(round)
	}
	// staleness of scheduler 0's table
	sn := int(s.schedNode[0])
	T := s.tab[sn*s.n : (sn+1)*s.n]
	var age float64
	cnt := 0
	for o, v := range T {
		if v != 0 && v >= s.minLive[o] {
			age += s.now - s.vt[o][v]
			cnt++
		}
	}
	if cnt > 0 {
		s.staleSeries = append(s.staleSeries, [2]float64{h, age / float64(cnt)})
	}
}

// churnLeave draws a leaving node (never a scheduler) and the next leave.
func (s *sim) churnLeave() {
	s.at(s.now+s.rng.ExpFloat64()/(s.cfg.ChurnPerH*float64(s.n)/3600), kLeave, 0, 0, 0, 0)
	i := s.rng.Intn(s.n)
	if !s.up[i] || s.isSched(i) {
		return
	}
	s.Leave(i)
}

func (s *sim) isSched(i int) bool {
	for _, sn := range s.schedNode {
		if int(sn) == i {
			return true
		}
	}
	return false
}

// Leave takes node i out: a left version, one last exchange, down.
func (s *sim) Leave(i int) {
	s.leaves++
	s.logf(LogEntry{Kind: "leave", From: i, To: i, Job: -1})
	if s.busy[i] {
		// the job goes back to its scheduler
		for j := range s.jnode {
			if int(s.jnode[j]) == i && s.jend[j] == 0 && s.jres[j] >= 0 {
				s.account()
				if s.jstart[j] >= 0 {
					s.running--
				}
				s.logf(LogEntry{Kind: "abort", From: i, To: i, Job: j})
				s.jnode[j], s.jstart[j], s.jres[j] = -1, -1, -1
				s.pushFront(j%s.S, j)
				s.at(s.now, kWake, int32(j%s.S), 0, 0, 0)
				s.wake[j%s.S] = true
			}
		}
		s.busy[i] = false
	}
	s.epoch[i]++
	if s.gsp {
		s.newVersion(i, stLeft)
	}
	s.up[i] = false
	if s.gsp {
		// the leave record's one push, to a random reachable node (applied
		// at once: the node is gone before an answer could come back)
		r := s.nt.reach
		j := int(r[s.rng.Intn(len(r))])
		if j != i && s.up[j] {
			v := s.cur[i]
			if s.tab[j*s.n+i] < v {
				s.tab[j*s.n+i] = v
			}
			s.count(1, float64(headerBytes+s.cfg.RecordBytes))
			s.logf(LogEntry{Kind: "contact", From: i, To: j, Job: -1})
		}
	}
	s.at(s.now+s.cfg.DowntimeS, kJoin, int32(i), 0, 0, 0)
}

func (s *sim) join(i int) {
	s.up[i] = true
	s.logf(LogEntry{Kind: "join", From: i, To: i, Job: -1})
	if !s.gsp {
		if s.cfg.Exact {
			s.tryMatch(0)
		}
		return
	}
	s.newVersion(i, stFree)
	// ask a reachable node of the same site for its table (any if none)
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
	s.count(2, float64(2*headerBytes+int(s.held[j])*s.cfg.RecordBytes))
	n := s.n
	A, B := s.tab[i*n:(i+1)*n], s.tab[j*n:(j+1)*n]
	cnt := int32(0)
	for o := range A {
		m := max(A[o], B[o])
		if m < s.minLive[o] {
			m = 0
		} else {
			cnt++
		}
		A[o] = m
	}
	A[i] = s.cur[i]
	s.held[i] = cnt
}

func (s *sim) result() *Result {
	r := &Result{Nodes: s.n, DurationS: s.dur, BinW: s.binW, Rejects: s.rejects, Matches: s.matches, Jobs: len(s.in.Jobs)}
	r.WarmupS = min(s.cfg.WarmupS, s.dur/2)
	var a, w float64
	for b, v := range s.area {
		t0 := float64(b) * s.binW
		u := v / (float64(s.n) * s.binW)
		r.UtilSeries = append(r.UtilSeries, [2]float64{(t0 + s.binW/2) / 3600, u})
		per := s.binW / s.cfg.PeriodS
		r.MsgSeries = append(r.MsgSeries, [2]float64{(t0 + s.binW/2) / 3600, s.msgBin[b] / float64(s.n) / per})
		r.ByteSeries = append(r.ByteSeries, [2]float64{(t0 + s.binW/2) / 3600, s.byteBin[b] / float64(s.n) / per})
		if t0 >= r.WarmupS-1e-9 {
			a += v
			w += s.binW
		}
	}
	if w > 0 {
		r.Utilization = a / (float64(s.n) * w)
	}
	var waits []float64
	for j := range s.jstart {
		if s.jstart[j] >= 0 {
			waits = append(waits, s.jstart[j]-s.in.Jobs[j].Submit)
		}
	}
	r.Started = len(waits)
	if len(waits) > 0 {
		sort.Float64s(waits)
		var sum float64
		for _, x := range waits {
			sum += x
		}
		r.WaitMean = sum / float64(len(waits))
		r.WaitP95 = waits[int(math.Ceil(0.95*float64(len(waits))))-1]
	}
	if len(s.in.Jobs) > 0 {
		r.RejectsPerJob = float64(s.rejects) / float64(len(s.in.Jobs))
	}
	periods := s.dur / s.cfg.PeriodS
	r.MsgsPerNode = s.msgs / float64(s.n) / periods
	r.BytesPerNode = s.bytes / float64(s.n) / periods
	if s.matches > 0 {
		r.StalenessMean = s.staleSum / float64(s.matches)
	}
	if s.gsp {
		r.Rounds = s.rounds
		if len(s.covSeries) > 0 {
			r.FinalInformed = s.covSeries[len(s.covSeries)-1][1]
		} else {
			r.FinalInformed = float64(s.held[0]) / float64(s.n)
		}
	} else {
		r.Rounds, r.FinalInformed = 1, 1
	}
	r.StaleSeries, r.CoverageSeries = s.staleSeries, s.covSeries
	for k := range s.schedNode {
		r.Schedulers = append(r.Schedulers, int(s.schedNode[k]))
	}
	// Gantt: the chosen lanes (default the first GanttNodes nodes)
	lanes := s.cfg.GanttLanes
	if lanes == nil {
		for i := 0; i < min(s.cfg.GanttNodes, s.n); i++ {
			lanes = append(lanes, i)
		}
	}
	laneOf := make(map[int]int, len(lanes))
	for _, i := range lanes {
		if _, dup := laneOf[i]; dup || i < 0 || i >= s.n {
			continue // checked by the caller; never index out of range here
		}
		laneOf[i] = len(r.Lanes)
		name := fmt.Sprintf("node %d", i)
		if s.nt.nat[i] {
			name += " (NAT)"
		}
		if s.gsp && s.isSched(i) {
			name += " (scheduler)"
		}
		r.Lanes = append(r.Lanes, name)
	}
	const maxBars = 20000
	for j := range s.jnode {
		lane, ok := laneOf[int(s.jnode[j])]
		if !ok || len(r.Bars) >= maxBars {
			continue
		}
		i := lane
		end := s.jend[j]
		if end == 0 {
			end = s.dur
		}
		if s.jstart[j] > s.jres[j] {
			r.Bars = append(r.Bars, solvers.Bar{Lane: i, Start: s.jres[j], End: s.jstart[j], Label: fmt.Sprintf("job %d (reserved)", j), Group: fmt.Sprintf("job %d", j), Kind: "reserved"})
		}
		if s.jstart[j] >= 0 {
			r.Bars = append(r.Bars, solvers.Bar{Lane: i, Start: s.jstart[j], End: end, Label: fmt.Sprintf("job %d", j), Group: fmt.Sprintf("job %d", j)})
		}
	}
	r.Log = s.log
	return r
}
