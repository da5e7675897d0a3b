package gossip

import (
	"context"
	"math"
	"slices"
	"testing"

	"schedlab/solvers"
)

// The model decisions of issue 18, one test each: when a node's state
// change reaches the central manager (push on change, periodic push,
// serial sweep), the negotiator's cycles, and the gossip record refresh.

// centralConfig is a central run with the given collection and no costs.
func centralConfig(collect, ads string) SimConfig {
	cfg := defaultConfig(VariantCentral)
	cfg.Collect, cfg.Ads, cfg.UpdateIntervalS, cfg.NegotiatorS = collect, ads, 300, 60
	cfg.RecordCostS, cfg.MatchCostS = 0, 0
	return cfg
}

// lastChange is when node i's state (busy or free) last changed at or
// before t: the latest reservation or end of a job on it (0: never).
func lastChange(s *sim, i int, t float64) float64 {
	var last float64
	for j, nd := range s.jobs.node {
		if int(nd) != i {
			continue
		}
		if r := s.jobs.res[j]; r >= 0 && r <= t {
			last = max(last, r)
		}
		if e := s.jobs.end[j]; e > 0 && e <= t {
			last = max(last, e)
		}
	}
	return last
}

// checkCollector runs s to each of the times and checks that every node
// whose state has not changed for bound(i) seconds has a collector ad
// that says so; it returns how many nodes were checked.
func checkCollector(t *testing.T, s *sim, times []float64, bound func(i int) float64) int {
	t.Helper()
	c := s.info.(*centralInfo)
	checked := 0
	for _, T := range times {
		if err := s.k.Run(T, 0, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.n; i++ {
			if T-lastChange(s, i, T) <= bound(i)+1e-9 {
				continue
			}
			checked++
			if free := !s.busy[i]; c.ad[i] != free {
				t.Fatalf("t=%v node %d: free=%v since %v, collector ad says free=%v (created %v); bound %v s",
					T, i, free, lastChange(s, i, T), c.ad[i], c.adT[i], bound(i))
			}
		}
	}
	return checked
}

func TestCentralPushOnChangeReachesCollectorWithinOneLatency(t *testing.T) {
	in := genInstance(t, 60, 0, 1, 3, 5)
	s := newSim(in, centralConfig(CollectPush, AdsOnChange))
	c := s.info.(*centralInfo)
	// HTCondor's startd sends an ad at every state change: with a free
	// collector the ad is in use one one-way latency later.
	n := checkCollector(t, s, []float64{1800, 3600, 5400, 7200, 9000}, func(i int) float64 { return c.mlat[i] })
	if n < 100 {
		t.Fatalf("only %d node checks: the test checks nothing", n)
	}
}

func TestCentralPeriodicAdsReachCollectorWithinTheUpdateInterval(t *testing.T) {
	in := genInstance(t, 60, 0, 1, 3, 5)
	cfg := centralConfig(CollectPush, AdsPeriodic)
	s := newSim(in, cfg)
	c := s.info.(*centralInfo)
	n := checkCollector(t, s, []float64{1800, 3600, 5400, 7200, 9000}, func(i int) float64 { return cfg.UpdateIntervalS + c.mlat[i] })
	if n < 50 {
		t.Fatalf("only %d node checks", n)
	}
	// and not at once: some node's ad lags its state by more than a latency
	s2 := newSim(in, cfg)
	c2 := s2.info.(*centralInfo)
	lag := 0
	for _, T := range []float64{1800, 3600, 5400, 7200} {
		if err := s2.k.Run(T, 0, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s2.n; i++ {
			if c2.ad[i] == s2.busy[i] && T-lastChange(s2, i, T) > c2.mlat[i] {
				lag++
			}
		}
	}
	if lag == 0 {
		t.Fatal("periodic ads: the collector never lagged a state change")
	}
}

func TestCentralSerialSweepRefreshesEveryNodeOncePerSweep(t *testing.T) {
	in := genInstance(t, 500, 0, 1, 2, 7)
	cfg := centralConfig(CollectSerial, "")
	cfg.RecordCostS = 0.01
	s := newSim(in, cfg)
	c := s.info.(*centralInfo)
	// one sweep: a round trip and the processing per node, one at a time
	var sweep float64
	for i := 0; i < s.n; i++ {
		sweep += 2*c.mlat[i] + cfg.RecordCostS
	}
	if sweep <= cfg.PeriodS {
		t.Fatalf("sweep %v s ≤ period: pick more nodes so the test sees the serialization", sweep)
	}
	T := 3 * sweep
	if err := s.k.Run(T, 0, nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < s.n; i++ {
		// back-to-back sweeps: node i was fetched within the last sweep
		if age := T - c.adT[i]; age > sweep+c.mlat[i]+1e-6 || age < 0 {
			t.Fatalf("node %d: ad %v s old at %v, sweep %v s", i, age, T, sweep)
		}
	}
}

func TestCentralNegotiatorMatchesOnlyInCycles(t *testing.T) {
	in := genInstance(t, 100, 0, 1, 4, 9)
	cfg := centralConfig(CollectPush, AdsOnChange)
	cfg.log = true
	res, err := Simulate(context.Background(), in, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// zero costs: every cycle is instantaneous, so every match is made at
	// a multiple of negotiator_interval_s
	m := 0
	for _, e := range res.Log {
		if e.Kind != "match" {
			continue
		}
		m++
		if k := e.T / cfg.NegotiatorS; math.Abs(k-math.Round(k)) > 1e-9 {
			t.Fatalf("match at %v s, not at a cycle (every %v s)", e.T, cfg.NegotiatorS)
		}
	}
	if m < 100 {
		t.Fatalf("%d matches", m)
	}
	// with a match cost a cycle takes (matches + 1) × n × cost and the
	// next cycle starts when it is over if that is later than the interval
	cfg.MatchCostS = 0.02 // 2 s per match at 100 nodes
	res, err = Simulate(context.Background(), in, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	scan := cfg.MatchCostS * float64(in.Grid.Nodes)
	var prev float64 = -1
	for _, e := range res.Log {
		if e.Kind != "match" {
			continue
		}
		if prev >= 0 && e.T-prev < scan-1e-9 {
			t.Fatalf("matches at %v and %v: closer than one scan (%v s)", prev, e.T, scan)
		}
		prev = e.T
	}
}

func TestGossipPeriodicRefreshWritesRecordsOnlyAtTicks(t *testing.T) {
	in := genInstance(t, 50, 0, 1, 3, 11)
	for _, refresh := range []string{RefreshPeriodic, RefreshOnChange} {
		cfg := defaultConfig(VariantGossip)
		cfg.GossipRefresh = refresh
		s := newSim(in, cfg)
		if err := s.k.Run(in.DurationS, 0, nil); err != nil {
			t.Fatal(err)
		}
		g := s.info.(*gossipInfo)
		between := 0
		for o := range g.vt {
			// versions 1.. are the start record and then the ticks, one
			// period apart; any other is a write between ticks
			for v := 3; v < len(g.vt[o]); v++ {
				if d := g.vt[o][v] - g.vt[o][v-1]; math.Abs(d-cfg.PeriodS) > 1e-6 {
					between++
				}
			}
		}
		if refresh == RefreshPeriodic && between > 0 {
			t.Errorf("periodic refresh: %d records written between ticks", between)
		}
		if refresh == RefreshOnChange && between == 0 {
			t.Errorf("on-change refresh: no record written between ticks")
		}
	}
}

// TestGossipExchangeFeedbackCounterByHand checks the §4.5 step-3 counter
// on a hand-worked exchange between nodes 0 and 1 of a 4-node grid with
// gossip_k = 1 (versions 1–3 of every origin exist).
func TestGossipExchangeFeedbackCounterByHand(t *testing.T) {
	in := genInstance(t, 4, 0, 1, 1, 1)
	cfg := defaultConfig(VariantGossip)
	cfg.GossipK = 1
	s := newSim(in, cfg)
	g := s.info.(*gossipInfo)
	for o := 0; o < 4; o++ {
		g.newVersion(o, stFree)
		g.newVersion(o, stFree) // cur = 3
	}
	set := func(x int, tab []uint32, known []uint8) {
		copy(g.tab[x*4:(x+1)*4], tab)
		copy(g.known[x*4:(x+1)*4], known)
	}
	// node 0: its own v3, origin 1 v2 (spreading), origin 3 v2 retired
	// (1 notice = k); node 1: origin 0 v1, its own v3, origin 2 v2
	// retired, origin 3 v2 spreading.
	set(0, []uint32{3, 2, 0, 2}, []uint8{0, 0, 0, 1})
	set(1, []uint32{1, 3, 2, 2}, []uint8{0, 0, 1, 0})
	type want struct {
		a, b       []uint32
		ca, cb     []uint8
		msgs, byts float64
	}
	steps := []want{
		// origin 0: 1 takes v3 (its counter restarts, 0 learns nothing
		// new: node 1's v1 is known to 0 but 1 replaced it); origin 1:
		// node 1 knew v2 (a notice to 0), then 0 takes v3 and restarts;
		// origin 2: retired at 1, never sent, so 0 stays without it;
		// origin 3: 0 knew 1's v2 (a notice to 1).
		// Messages: 2 tables (2 + 3 records) and 2 notices (2 and 1 ids).
		{[]uint32{3, 3, 0, 2}, []uint32{3, 3, 2, 2}, []uint8{0, 0, 0, 1}, []uint8{0, 0, 1, 1},
			4, 2*headerBytes + 5*256 + headerBytes + 2*4 + headerBytes + 1*4},
		// origins 0 and 1: both sides send v3 and both knew it; 2, 3 retired.
		{[]uint32{3, 3, 0, 2}, []uint32{3, 3, 2, 2}, []uint8{1, 1, 0, 1}, []uint8{1, 1, 1, 1},
			4, 2*headerBytes + 4*256 + 2*(headerBytes+2*4)},
		// every entry retired on both sides: two empty tables, no notice;
		// node 0 never gets origin 2 from node 1 (the residue of k = 1).
		{[]uint32{3, 3, 0, 2}, []uint32{3, 3, 2, 2}, []uint8{1, 1, 0, 1}, []uint8{1, 1, 1, 1},
			2, 2 * headerBytes},
	}
	for i, w := range steps {
		m0, b0 := s.acct.msgs, s.acct.bytes
		g.exchange(0, 1)
		if got := g.tab[0:4]; !slices.Equal(got, w.a) {
			t.Errorf("step %d: table 0 %v, want %v", i, got, w.a)
		}
		if got := g.tab[4:8]; !slices.Equal(got, w.b) {
			t.Errorf("step %d: table 1 %v, want %v", i, got, w.b)
		}
		if got := g.known[0:4]; !slices.Equal(got, w.ca) {
			t.Errorf("step %d: notices of 0 %v, want %v", i, got, w.ca)
		}
		if got := g.known[4:8]; !slices.Equal(got, w.cb) {
			t.Errorf("step %d: notices of 1 %v, want %v", i, got, w.cb)
		}
		if m, b := s.acct.msgs-m0, s.acct.bytes-b0; m != w.msgs || b != w.byts {
			t.Errorf("step %d: %v messages, %v bytes, want %v, %v", i, m, b, w.msgs, w.byts)
		}
	}
	if g.held[0] != 3 || g.held[1] != 4 {
		t.Errorf("held %v, want 3 and 4", g.held[:2])
	}
	// a new version of its own record is spread anew
	g.newVersion(0, stBusy)
	if g.tab[0] != 4 || g.known[0] != 0 {
		t.Errorf("own record after a refresh: version %d, notices %d; want 4, 0", g.tab[0], g.known[0])
	}
}

// TestGossipCounterNeverReachedIsAntiEntropy: with a counter no entry can
// reach in the run, the counted exchange is the full anti-entropy one:
// the same tables and the same schedule (only the notices' bytes differ).
func TestGossipCounterNeverReachedIsAntiEntropy(t *testing.T) {
	in := genInstance(t, 100, 0.2, 1, 3, 5)
	var tabs [2][]uint32
	var res [2]*Result
	for x, k := range []int{0, GossipKMax} {
		cfg := defaultConfig(VariantGossip)
		cfg.GossipK, cfg.GossipRefresh = k, RefreshPeriodic
		s := newSim(in, cfg)
		if err := s.run(context.Background(), solvers.NoProgress); err != nil {
			t.Fatal(err)
		}
		tabs[x], res[x] = s.info.(*gossipInfo).tab, s.result()
		if k > 0 && slices.Max(s.info.(*gossipInfo).known) >= GossipKMax {
			t.Fatalf("a counter reached %d: the test's premise fails", GossipKMax)
		}
	}
	if !slices.Equal(tabs[0], tabs[1]) {
		t.Error("tables differ between full anti-entropy and a never-reached counter")
	}
	if res[0].Utilization != res[1].Utilization || res[0].Started != res[1].Started || res[0].WaitMean != res[1].WaitMean {
		t.Errorf("schedules differ: %+v vs %+v", res[0].Utilization, res[1].Utilization)
	}
	if res[1].MsgsPerNode <= res[0].MsgsPerNode {
		t.Errorf("the counted exchange sends no notices: %v ≤ %v messages", res[1].MsgsPerNode, res[0].MsgsPerNode)
	}
}

// TestGossipPartitionMatchesOnlyTheSchedulersShare: with
// sched_split=partition scheduler k sends jobs only to nodes i with
// i mod schedulers = k, and still runs the stream; shared uses every node.
func TestGossipPartitionMatchesOnlyTheSchedulersShare(t *testing.T) {
	in := genInstance(t, 40, 0, 1, 3, 2)
	for _, split := range []string{SplitShared, SplitPartition} {
		cfg := defaultConfig(VariantGossip)
		cfg.Schedulers, cfg.SchedSplit, cfg.log = 4, split, true
		s := newSim(in, cfg)
		if err := s.run(context.Background(), solvers.NoProgress); err != nil {
			t.Fatal(err)
		}
		of := map[int]int{}
		for k, sn := range s.schedNode {
			of[int(sn)] = k
		}
		matches, outside := 0, 0
		for _, e := range s.log {
			if e.Kind != "match" {
				continue
			}
			matches++
			if e.To%4 != of[e.From] {
				outside++
			}
		}
		res := s.result()
		if matches == 0 || res.Utilization < 0.5 {
			t.Fatalf("%s: %d matches, utilization %v", split, matches, res.Utilization)
		}
		if split == SplitPartition && outside > 0 {
			t.Errorf("partition: %d of %d matches outside the scheduler's share", outside, matches)
		}
		if split == SplitShared && outside == 0 {
			t.Errorf("shared: all %d matches inside i mod 4 = k", matches)
		}
	}
}
