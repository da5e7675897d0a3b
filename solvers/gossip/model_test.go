package gossip

import (
	"context"
	"math"
	"testing"
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
