package gossip

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/des"
)

// SimConfig is a simulation's protocol: every knob with its unit (Config's
// simConfig makes it from the run parameters).
type SimConfig struct {
	Variant         string  // VariantGossip or VariantCentral
	PeriodS         float64 // gossip period and central collection period, s
	Fanout          int     // exchanges a node opens per period
	TTLS            float64 // record time-to-live, s
	Schedulers      int     // gossip scheduling nodes (central: one manager)
	RecordCostS     float64 // central: processing per collected record, s
	MatchCostS      float64 // both: per record scanned by one match, s (a match scans n records)
	Exact           bool    // central: oracle information instead of periodic snapshots
	Collect         string  // central: CollectPush, CollectSerial or CollectSnapshot ("" = snapshot)
	Ads             string  // central push: AdsOnChange ("" too) or AdsPeriodic
	UpdateIntervalS float64 // central push: a node's periodic ad, s
	NegotiatorS     float64 // central: negotiation cycle interval, s (0: match whenever the ads or the queue change)
	GossipRefresh   string  // gossip: RefreshPeriodic or RefreshOnChange ("" too): when a state change enters a node's own record
	SchedSplit      string  // gossip: SplitShared ("" too) or SplitPartition: which nodes a scheduler matches
	GossipK         int     // gossip: "already known" notices after which a node stops sending an entry (§4.5 step 3); 0 = never stops (full anti-entropy)
	ChurnPerH       float64 // leaves per node per hour (Poisson); 0 = none
	DowntimeS       float64 // how long a leaving node stays away, s
	WarmupS         float64 // utilization is averaged after this, s
	RecordBytes     int     // bytes of one resource record in an exchange
	GanttNodes      int     // lanes of the Gantt: nodes 0..GanttNodes-1 (when GanttLanes is nil)
	GanttLanes      []int   // lanes of the Gantt: these node ids, in this order (nil: GanttNodes)
	MemoryBytes     int64   // budget for the tables
	Seed            int64

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
	ThroughputPerH float64 // jobs finished per hour after the warm-up
	Started, Jobs  int
	Rejects        int
	Matches        int
	BinW           float64
	UtilSeries     [][2]float64 // (h, utilization)
	MsgSeries      [][2]float64 // (h, messages per node per period)
	ByteSeries     [][2]float64
	StaleSeries    [][2]float64 // (h, mean age of scheduler 0's records, s)
	CoverageSeries [][2]float64
	Bars           []report.Bar
	Lanes          []string
	Log            []LogEntry
	Nodes          int
	Schedulers     []int
	WarmupS        float64
	DurationS      float64
}

// sim is the model both systems share: the nodes (up, busy, epochs), the
// jobs, the schedulers' queues and the accounting, on a des kernel. How
// the schedulers learn which nodes are free — the gossip tables or the
// central manager — is its info (a protocol and a view, see view.go).
type sim struct {
	cfg  SimConfig
	in   *Instance
	nt   *net
	n    int
	rng  *rand.Rand // the one source of the simulator's random choices, in event order
	k    *des.Kernel[event]
	dur  float64
	S    int // schedulers
	info protocol
	view view

	up, busy []bool
	pend     []bool  // a request is on its way to the node
	epoch    []int32 // a node's lives: a start or finish of an earlier life is void

	schedNode []int32   // node of each scheduler (central: -1, the manager)
	queue     [][]int32 // per scheduler: FIFO of jobs with head index qh
	qh        []int
	busyUntil []float64 // per scheduler: the end of its current match (or collection)
	wake      []bool    // per scheduler: a wake event is pending

	jobs jobState
	acct accounting
	log  []LogEntry
}

// jobState is every job's node and times (-1: none yet).
type jobState struct {
	node  []int32
	res   []float64 // reserved (the request accepted)
	start []float64
	end   []float64
	next  int // next job to arrive
}

// accounting integrates the running jobs and counts the messages.
type accounting struct {
	running  int
	lastT    float64
	binW     float64
	area     []float64 // node·s of running jobs per bin
	msgBin   []float64
	byteBin  []float64
	msgs     float64
	bytes    float64
	rejects  int
	matches  int
	staleSum float64 // sum of the ages of the records matched
	leaves   int
}

func (s *sim) now() float64 { return s.k.Now() }

func (s *sim) at(t float64, e event) { s.k.At(t, e) }

func (s *sim) logf(e LogEntry) {
	if s.cfg.log {
		e.T = s.now()
		s.log = append(s.log, e)
	}
}

// estimateBytes is the memory a run needs, roughly (saturating: a huge
// input never wraps into a small estimate).
func estimateBytes(n, sched int, durS, periodS float64, jobs int, gossip, counters bool) int64 {
	N := int64(n)
	b := solvers.SatAdd(solvers.SatMul(N, 64), solvers.SatMul(int64(jobs), 40))
	if gossip {
		hist := int64(min(float64(n)*(durS/periodS+2), math.MaxInt64/64))
		b = solvers.SatAdd(b, solvers.SatMul(N, N, 4), solvers.SatMul(int64(sched), N, 8),
			solvers.SatMul(hist, 9, 2)) // history, ×2 for slice growth
		if counters {
			b = solvers.SatAdd(b, solvers.SatMul(N, N)) // one uint8 "known" counter per table entry
		}
	}
	return b
}

// gossips says whether c's variant spreads the records by gossip (its
// table row), else a central manager collects them.
func (c SimConfig) gossips() bool { return solvers.LookupVariant(variants, c.Variant).gossips }

func schedulers(cfg SimConfig) int {
	if cfg.gossips() {
		return cfg.Schedulers
	}
	return 1
}

// Simulate runs the gossip or central variant on in.
func Simulate(ctx context.Context, in *Instance, cfg SimConfig, progress solvers.Progress) (*Result, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	n, S := in.Grid.Nodes, schedulers(cfg)
	nt := in.Grid.Build()
	if S > len(nt.reach) {
		return nil, errs.Invalidf("schedulers", "only %d nodes accept connections, cannot place %d scheduling nodes", len(nt.reach), S)
	}
	// The budget is the lower of memory_mb and the server's: a user can
	// lower it, never raise it.
	est := estimateBytes(n, S, in.DurationS, cfg.PeriodS, len(in.Jobs), cfg.gossips(), cfg.GossipK > 0)
	field := cmp.Or(cfg.sizeField, "nodes")
	if err := solvers.ReserveWithin(ctx, field, est, fmt.Sprintf("%d nodes over %.0f s (tables and records)", n, in.DurationS), cfg.MemoryBytes); err != nil {
		return nil, err
	}
	s := build(in, nt, cfg)
	if err := s.run(ctx, progress); err != nil {
		return nil, err
	}
	return s.result(), nil
}

// build makes the simulator of cfg's variant on the built grid nt and
// schedules its first events.
func build(in *Instance, nt *net, cfg SimConfig) *sim {
	s := &sim{cfg: cfg, in: in, nt: nt, n: in.Grid.Nodes, rng: rand.New(rand.NewSource(cfg.Seed)), dur: in.DurationS, S: schedulers(cfg)}
	s.k = des.New(s.handle)
	if cfg.gossips() {
		g := &gossipInfo{s: s}
		s.info, s.view = g, g
	} else {
		c := &centralInfo{s: s}
		s.info, s.view = c, c
	}
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
	s.acct.binW = s.dur / float64(nb)
	s.acct.area, s.acct.msgBin, s.acct.byteBin = make([]float64, nb), make([]float64, nb), make([]float64, nb)
	jobs := len(s.in.Jobs)
	j := &s.jobs
	j.node, j.res, j.start, j.end = make([]int32, jobs), make([]float64, jobs), make([]float64, jobs), make([]float64, jobs)
	for x := range j.node {
		j.node[x], j.start[x], j.res[x] = -1, -1, -1
	}
	s.queue, s.qh = make([][]int32, s.S), make([]int, s.S)
	s.busyUntil, s.wake = make([]float64, s.S), make([]bool, s.S)
	s.schedNode = make([]int32, s.S)
	// scheduling nodes: a seeded sample of reachable nodes
	s.info.start(s.rng.Perm(len(s.nt.reach)))
	// node ticks at random phases (central: only NAT nodes, which poll)
	for i := 0; i < n; i++ {
		ph := s.rng.Float64() * cfg.PeriodS
		if s.info.ticksAll() || s.nt.nat[i] {
			s.at(ph, event{kind: evTick, node: int32(i)})
		}
	}
	s.at(cfg.PeriodS, event{kind: evClock})
	if len(s.in.Jobs) > 0 {
		s.at(s.in.Jobs[0].Submit, event{kind: evArrive, job: 0})
		j.next = 1
	}
	if cfg.ChurnPerH > 0 {
		s.at(s.rng.ExpFloat64()/(cfg.ChurnPerH*float64(n)/3600), event{kind: evLeave})
	}
}

func (s *sim) bin() int {
	b := int(s.now() / s.acct.binW)
	return min(max(b, 0), len(s.acct.area)-1)
}

func (s *sim) count(msgs, bytes float64) {
	a := &s.acct
	a.msgs += msgs
	a.bytes += bytes
	b := s.bin()
	a.msgBin[b] += msgs
	a.byteBin[b] += bytes
}

// account integrates the running count up to now.
func (s *sim) account() { s.accountTo(s.now()) }

// accountTo integrates the running count up to time t.
func (s *sim) accountTo(t float64) {
	a := &s.acct
	t = min(t, s.dur)
	if !(a.lastT < t) {
		return
	}
	// Walk the bins by index, not by re-dividing lastT: with a bin width
	// that is not a power of two, (b+1)·binW / binW can round down to b,
	// and a loop that recomputed b from lastT would never advance (the
	// SWF hang). Every iteration moves to the next bin, so this ends.
	last := len(a.area) - 1
	b := min(max(int(a.lastT/a.binW), 0), last)
	for {
		end := t
		if b < last {
			end = min(float64(b+1)*a.binW, t)
		}
		if end > a.lastT {
			a.area[b] += float64(a.running) * (end - a.lastT)
			a.lastT = end
		}
		if a.lastT >= t || b == last {
			break
		}
		b++
	}
	a.lastT = t
}

// run handles the events before the horizon, checking ctx and reporting
// progress every 4096 events (an exchange is O(n)).
func (s *sim) run(ctx context.Context, progress solvers.Progress) error {
	total := int(math.Ceil(s.dur))
	err := s.k.Run(s.dur, 4096, func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		progress(int(s.now()), total, fmt.Sprintf("%.1f of %.1f simulated hours", s.now()/3600, s.dur/3600))
		return nil
	})
	if err != nil {
		return err
	}
	s.account()
	return ctx.Err()
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

func (s *sim) isSched(i int) bool {
	for _, sn := range s.schedNode {
		if int(sn) == i {
			return true
		}
	}
	return false
}

func boolState(b bool) uint8 {
	if b {
		return stBusy
	}
	return stFree
}
