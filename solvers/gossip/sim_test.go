package gossip

import (
	"context"
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"
)

func genInstance(t testing.TB, nodes int, nat, load, hours float64, seed int64) *Instance {
	t.Helper()
	in, err := Generate(GenConfig{Grid: DefaultGrid(nodes, min(20, nodes), nat, seed), Load: load, JobMinS: 1800, JobMaxS: 3600, DurationS: hours * 3600}, rand.New(rand.NewSource(seed)))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func defaultConfig(variant string) SimConfig {
	return SimConfig{Variant: variant, PeriodS: 60, Fanout: 1, TTLS: 1800, Schedulers: 1, RecordCostS: 0.005, MatchCostS: 50e-6,
		DowntimeS: 1800, WarmupS: 2 * 3600, RecordBytes: 256, GanttNodes: 50, Seed: 1}
}

func TestSmokeGossipCentral(t *testing.T) {
	in := genInstance(t, 200, 0, 1, 6, 3)
	for _, v := range []string{VariantGossip, VariantCentral} {
		res, err := Simulate(context.Background(), in, defaultConfig(v), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s util %.3f wait %.0f p95 %.0f rejects %.3f msgs %.2f bytes %.0f rounds %v final %.3f stale %.1f started %d/%d",
			v, res.Utilization, res.WaitMean, res.WaitP95, res.RejectsPerJob, res.MsgsPerNode, res.BytesPerNode, res.Rounds, res.FinalInformed, res.StalenessMean, res.Started, res.Jobs)
		if res.Utilization < 0.5 || res.Utilization > 1 {
			t.Errorf("%s utilization %v", v, res.Utilization)
		}
	}
}

// checkNoOverlap fails if two jobs ever run (or are reserved) on one node at once.
func checkNoOverlap(t *testing.T, log []LogEntry) int {
	t.Helper()
	type iv struct {
		s, e float64
		job  int
	}
	open := map[int]iv{}
	per := map[int][]iv{}
	starts := 0
	for _, e := range log {
		switch e.Kind {
		case "start":
			if o, ok := open[e.To]; ok {
				t.Fatalf("node %d starts job %d at %v while job %d runs since %v", e.To, e.Job, e.T, o.job, o.s)
			}
			open[e.To] = iv{e.T, 0, e.Job}
			starts++
		case "finish", "abort":
			o, ok := open[e.To]
			if e.Kind == "abort" && !ok {
				continue
			}
			if !ok || o.job != e.Job {
				t.Fatalf("node %d finishes job %d at %v but runs %+v", e.To, e.Job, e.T, o)
			}
			o.e = e.T
			per[e.To] = append(per[e.To], o)
			delete(open, e.To)
		}
	}
	for node, ivs := range per {
		sort.Slice(ivs, func(a, b int) bool { return ivs[a].s < ivs[b].s })
		for i := 1; i < len(ivs); i++ {
			if ivs[i].s < ivs[i-1].e {
				t.Fatalf("node %d: jobs %d and %d overlap", node, ivs[i-1].job, ivs[i].job)
			}
		}
	}
	return starts
}

func TestGossipNeverAssignsTwoJobsToOneNode(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		in := genInstance(t, 60, 0.2, 2, 4, seed)
		cfg := defaultConfig(VariantGossip)
		cfg.Schedulers, cfg.Seed, cfg.log = 4, seed, true
		cfg.ChurnPerH = 0.2
		res, err := Simulate(context.Background(), in, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		starts := checkNoOverlap(t, res.Log)
		if starts == 0 || res.Rejects == 0 {
			t.Errorf("seed %d: %d starts, %d rejects: the check saw no contention", seed, starts, res.Rejects)
		}
		// every job started at most once except after an abort
		started := map[int]int{}
		for _, e := range res.Log {
			switch e.Kind {
			case "start":
				started[e.Job]++
			case "abort":
				started[e.Job]--
			}
		}
		for j, c := range started {
			if c > 1 {
				t.Errorf("job %d started %d times", j, c)
			}
		}
	}
}

func TestNATNodeNeverContactedFirst(t *testing.T) {
	in := genInstance(t, 80, 0.5, 1, 3, 5)
	nt := in.Grid.Build()
	check := func(name string, log []LogEntry) {
		contacts := 0
		for _, e := range log {
			if e.Kind != "contact" || e.To < 0 {
				continue
			}
			contacts++
			if nt.nat[e.To] {
				t.Fatalf("%s: node %d (NAT) contacted first by %d at %v", name, e.To, e.From, e.T)
			}
		}
		if contacts == 0 {
			t.Fatalf("%s: no contacts logged", name)
		}
	}
	for _, v := range []string{VariantGossip, VariantCentral} {
		cfg := defaultConfig(v)
		cfg.log, cfg.Schedulers, cfg.ChurnPerH = true, 2, 0.3
		res, err := Simulate(context.Background(), in, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		check(v, res.Log)
		natJobs := 0
		for _, e := range res.Log {
			if e.Kind == "start" && nt.nat[e.To] {
				natJobs++
			}
		}
		if natJobs == 0 {
			t.Errorf("%s: NAT nodes never ran a job (they should get jobs by polling)", v)
		}
	}
	for _, m := range []string{ModePush, ModePushPull} {
		res, err := Rumor(context.Background(), nt, RumorConfig{Mode: m, Fanout: 2, K: 3, MaxRounds: 100, Seed: 9, log: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		check("rumor "+m, res.Log)
		if res.Failed == 0 {
			t.Errorf("rumor %s: no refused attempt to a NAT node (senders should not know who is behind NAT)", m)
		}
		natShare := float64(len(nt.nat)-len(nt.reach)) / float64(nt.n)
		if m == ModePush && res.Final > 1-natShare+1/float64(nt.n)+1e-9 {
			t.Errorf("push informed %v with %v of the nodes behind NAT", res.Final, natShare)
		}
		if m == ModePushPull && res.Final <= 1-natShare+1/float64(nt.n) {
			t.Errorf("push-pull informed %v: NAT nodes were never informed over connections they opened", res.Final)
		}
	}
}

func TestLeaveRecordRemovesNodeFromEveryTableItReaches(t *testing.T) {
	in := genInstance(t, 100, 0, 0.5, 3, 7)
	cfg := defaultConfig(VariantGossip)
	cfg.log = true
	cfg.DowntimeS = 1e9 // left nodes stay away
	s := newSim(in, cfg)
	g := s.info.(*gossipInfo)
	// three nodes leave at 1 h
	s.at(3600, event{kind: evWake, sched: 0})
	left := []int{}
	for _, i := range []int{5, 17, 42} {
		if !s.isSched(i) {
			left = append(left, i)
		}
	}
	// run to 1 h, make them leave, run on
	if err := s.k.Run(3600, 0, nil); err != nil {
		t.Fatal(err)
	}
	for _, i := range left {
		s.Leave(i)
	}
	if err := s.k.Run(3600+900, 0, nil); err != nil {
		t.Fatal(err)
	}
	n := s.n
	for _, o := range left {
		reached := 0
		for x := 0; x < n; x++ {
			if !s.up[x] {
				continue
			}
			T := g.tab[x*n : (x+1)*n]
			if T[o] >= g.leaveVer[o] {
				reached++
				for k := range s.schedNode {
					if _, ok := g.usable(T, k, o); ok {
						t.Errorf("table %d still offers node %d after its leave record", x, o)
					}
				}
			}
		}
		if reached < (n-len(left))*9/10 {
			t.Errorf("leave of %d reached only %d of %d tables in 15 min", o, reached, n-len(left))
		}
	}
	for _, e := range s.log {
		if e.Kind == "match" {
			for _, o := range left {
				if e.To == o && e.T >= 3600 {
					if g.vs[o][e.Ver] != stFree || e.Ver >= g.leaveVer[o] {
						t.Errorf("matched left node %d with version %d", o, e.Ver)
					}
				}
			}
		}
	}
}

func TestExpiredRecordsNeverMatched(t *testing.T) {
	in := genInstance(t, 150, 0, 1.5, 3, 11)
	cfg := defaultConfig(VariantGossip)
	cfg.TTLS, cfg.log = 90, true // 1.5 periods: many records expire before they spread
	res, err := Simulate(context.Background(), in, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := 0
	for _, e := range res.Log {
		if e.Kind == "match" {
			m++
			if e.RecT+cfg.TTLS < e.T {
				t.Fatalf("match at %v used a record of %v, expired at %v", e.T, e.RecT, e.RecT+cfg.TTLS)
			}
		}
	}
	if m == 0 || res.FinalInformed > 0.9 {
		t.Errorf("%d matches, coverage %v: TTL did not bite", m, res.FinalInformed)
	}
}

func TestCentralExactZeroCostReachesIdealUtilization(t *testing.T) {
	for _, load := range []float64{0.3, 0.7, 2} {
		in := genInstance(t, 300, 0, load, 12, 21)
		cfg := defaultConfig(VariantCentral)
		cfg.Exact, cfg.RecordCostS, cfg.MatchCostS, cfg.WarmupS = true, 0, 0, 3*3600
		res, err := Simulate(context.Background(), in, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		// the realized offered load over the measured window
		ideal := math.Min(load, 1)
		if math.Abs(res.Utilization-ideal) > 0.04 {
			t.Errorf("load %v: utilization %.4f, ideal %.4f", load, res.Utilization, ideal)
		}
		if load < 1 && res.WaitMean > 2 {
			t.Errorf("load %v: exact zero-cost central makes jobs wait %v s", load, res.WaitMean)
		}
	}
}

func TestRumorPushWithinTheoryRounds(t *testing.T) {
	for _, n := range []int{100, 1000, 10000} {
		nt := DefaultGrid(n, 20, 0, int64(n)).Build()
		// The last few nodes of a push epidemic are a maximum of
		// geometric waits (a Gumbel tail: +7 rounds about once in 200
		// runs at n = 100), so single runs get 8 rounds of slack and the
		// mean over many seeds 2.5.
		var push, pp float64
		seeds := int64(40)
		if n == 10000 {
			seeds = 10
		}
		for sd := int64(0); sd < seeds; sd++ {
			a, err := Rumor(context.Background(), nt, RumorConfig{Mode: ModePush, Fanout: 1, K: 1 << 30, MaxRounds: 1000, Seed: sd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Final != 1 {
				t.Fatalf("n=%d push: final %v", n, a.Final)
			}
			if d := float64(a.RoundsToConverge) - PushRounds(n); math.Abs(d) > 8 {
				t.Errorf("n=%d seed %d: push took %d rounds, log2 n + ln n = %.1f", n, sd, a.RoundsToConverge, PushRounds(n))
			}
			b, err := Rumor(context.Background(), nt, RumorConfig{Mode: ModePushPull, Fanout: 1, K: 1 << 30, MaxRounds: 1000, Seed: sd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if b.Final != 1 {
				t.Fatalf("n=%d push-pull: final %v", n, b.Final)
			}
			if d := float64(b.RoundsToConverge) - PushPullRounds(n); math.Abs(d) > 5 {
				t.Errorf("n=%d seed %d: push-pull took %d rounds, log3 n + ln ln n = %.1f", n, sd, b.RoundsToConverge, PushPullRounds(n))
			}
			push += float64(a.RoundsToConverge)
			pp += float64(b.RoundsToConverge)
		}
		push, pp = push/float64(seeds), pp/float64(seeds)
		t.Logf("n=%d push %.2f (theory %.2f) push-pull %.2f (theory %.2f)", n, push, PushRounds(n), pp, PushPullRounds(n))
		if math.Abs(push-PushRounds(n)) > 2.5 {
			t.Errorf("n=%d: mean push rounds %.2f vs %.2f", n, push, PushRounds(n))
		}
		if pp >= push {
			t.Errorf("n=%d: push-pull (%.2f) not faster than push (%.2f)", n, pp, push)
		}
	}
}

func TestRumorRoundsAndFinalDefinitions(t *testing.T) {
	for sd := int64(0); sd < 30; sd++ {
		nt := DefaultGrid(50+int(sd)*7, 5, float64(sd%4)*0.2, sd).Build()
		for _, m := range []string{ModePush, ModePushPull} {
			r, err := Rumor(context.Background(), nt, RumorConfig{Mode: m, Fanout: 1 + int(sd%2), K: 1 + int(sd%3), MaxRounds: 200, Seed: sd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			last := 0
			for i := 1; i < len(r.Informed); i++ {
				if r.Informed[i] < r.Informed[i-1] {
					t.Fatalf("informed fraction falls at round %d", i)
				}
				if r.Informed[i] > r.Informed[i-1] {
					last = i
				}
			}
			if last != r.RoundsToConverge {
				t.Errorf("seed %d %s: rounds_to_converge %d, last new node in round %d", sd, m, r.RoundsToConverge, last)
			}
			if r.Final != r.Informed[len(r.Informed)-1] {
				t.Errorf("final %v ≠ last fraction %v", r.Final, r.Informed[len(r.Informed)-1])
			}
			if r.Final < 1 && r.Rounds < 200 {
				// stopped early: no sender may be left (brute force)
				if len(r.Informed) != r.Rounds+1 {
					t.Errorf("curve length %d for %d rounds", len(r.Informed), r.Rounds)
				}
			}
		}
	}
}

func TestTheoryCurves(t *testing.T) {
	p := Theory(ModePush, 1000, 1, 100)
	pp := Theory(ModePushPull, 1000, 1, 100)
	if len(pp) >= len(p) {
		t.Errorf("push-pull theory (%d rounds) not faster than push (%d)", len(pp)-1, len(p)-1)
	}
	if d := float64(len(p)-1) - PushRounds(1000); math.Abs(d) > 3 {
		t.Errorf("push mean-field takes %d rounds, log2 n + ln n = %.1f", len(p)-1, PushRounds(1000))
	}
	if p[1] != 2.0/1000-1.0/1000*1.0/1000*0 && math.Abs(p[1]-(1e-3+(1-1e-3)*(1-math.Exp(-1e-3)))) > 1e-15 {
		t.Errorf("first step %v", p[1])
	}
}

// TestAccountAdvancesAcrossRoundedBinEdges is the regression test of the
// TestSWFUpload hang: with duration 3600.371 s (61 bins of 60.006 s),
// 51·binW / binW rounds down to 50, and the old account() recomputed the
// bin from lastT and never advanced. It now walks the bins by index.
func TestAccountAdvancesAcrossRoundedBinEdges(t *testing.T) {
	in := &Instance{Grid: DefaultGrid(4, 1, 0, 1), DurationS: 3600.371}
	s := newSim(in, defaultConfig(VariantCentral))
	a := &s.acct
	if len(a.area) != 61 || int(51*a.binW/a.binW) != 50 {
		// IEEE 754 float64 arithmetic gives the same on every platform.
		t.Fatalf("the set-up does not reach the edge case (bins %d)", len(a.area))
	}
	a.running = 2
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := 1; b <= 61; b++ {
			s.accountTo(float64(b) * a.binW)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("account() does not advance across a rounded bin edge")
	}
	var sum float64
	for _, x := range a.area {
		sum += x
	}
	if want := 2 * in.DurationS; math.Abs(sum-want) > 1e-6*want {
		t.Errorf("integrated %v node·s, want %v", sum, want)
	}
	// and a whole run on that horizon ends
	in = genInstance(t, 20, 0, 1, 1, 3)
	in.DurationS = 3600.371
	for _, v := range []string{VariantGossip, VariantCentral} {
		if _, err := Simulate(context.Background(), in, defaultConfig(v), nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUtilizationMatchesEventLog recomputes the utilization by brute force
// from the event log (the running intervals of every job, clipped to
// [warm-up, end)) and compares it with the simulator's binned integral,
// for both variants, with churn, over many seeds and odd horizons.
func TestUtilizationMatchesEventLog(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		for _, v := range []string{VariantGossip, VariantCentral} {
			in := genInstance(t, 15+int(seed)*3, 0.1, 0.5+0.2*float64(seed), 3, seed)
			in.DurationS += float64(seed) * 17.371 // bins that do not divide evenly
			cfg := defaultConfig(v)
			cfg.Seed, cfg.log, cfg.WarmupS = seed, true, 1800
			if v == VariantGossip {
				cfg.ChurnPerH = 0.3
			}
			res, err := Simulate(context.Background(), in, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			from, to := res.WarmupS, res.DurationS
			clip := func(a, b float64) float64 { return max(0, min(b, to)-max(a, from)) }
			// the simulator averages whole bins from the first bin at or
			// after the warm-up: compare over the same window
			first := math.Ceil(res.WarmupS/res.BinW-1e-9) * res.BinW
			busyBins := 0.0
			for _, p := range res.UtilSeries {
				if t0 := p[0]*3600 - res.BinW/2; t0 >= first-1e-6 {
					busyBins += p[1] * float64(res.Nodes) * res.BinW
				}
			}
			if math.Abs(busyBins-res.Utilization*float64(res.Nodes)*(to-first)) > 1e-6*float64(res.Nodes)*to {
				t.Fatalf("seed %d %s: utilization %v disagrees with its own series", seed, v, res.Utilization)
			}
			from = first
			var busy float64
			startAt := map[int]float64{}
			for _, e := range res.Log {
				switch e.Kind {
				case "start":
					startAt[e.Job] = e.T
				case "finish", "abort":
					if s, ok := startAt[e.Job]; ok {
						busy += clip(s, e.T)
						delete(startAt, e.Job)
					}
				}
			}
			for _, s := range startAt {
				busy += clip(s, to)
			}
			want := busy / (float64(res.Nodes) * (to - from))
			if math.Abs(want-res.Utilization) > 1e-9 {
				t.Errorf("seed %d %s: utilization %v, brute force from the log %v", seed, v, res.Utilization, want)
			}
		}
	}
}
