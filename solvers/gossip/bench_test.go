package gossip

import (
	"context"
	"math/rand"
	"runtime"
	"testing"
)

// benchSim runs one gossip simulation per iteration on nodes nodes for
// hours simulated hours (umeda2006, 100 % load, period 60 s) and reports
// simulated events per second and the peak heap reserved (HeapSys, MB).
func benchSim(b *testing.B, nodes int, hours float64) { benchSimK(b, nodes, hours, 0) }

// benchSimK is benchSim with the exchange's feedback counter gossip_k.
func benchSimK(b *testing.B, nodes int, hours float64, k int) {
	in, err := Generate(GenConfig{Grid: DefaultGrid(nodes, 20, 0, 1), Load: 1, JobMinS: 1800, JobMaxS: 3600, DurationS: hours * 3600}, rand.New(rand.NewSource(1)))
	if err != nil {
		b.Fatal(err)
	}
	dc := DefaultConfig()
	dc.GanttNodes = 0
	dc.GossipK = k
	cfg := dc.simConfig(VariantGossip, 1) // the public defaults (gossip_refresh periodic)
	cfg.MemoryBytes = 2 << 30
	b.ReportAllocs()
	b.ResetTimer()
	var util float64
	for i := 0; i < b.N; i++ {
		res, err := Simulate(context.Background(), in, cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		util = res.Utilization
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapsys_MB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys_MB")
	b.ReportMetric(util, "utilization")
	b.ReportMetric(float64(nodes)*hours*60/(b.Elapsed().Seconds()/float64(b.N)), "node-periods/s")
}

// BenchmarkGossip1000Nodes24h: target ≤ 4 s per run.
func BenchmarkGossip1000Nodes24h(b *testing.B) { benchSim(b, 1000, 24) }

// BenchmarkGossip10000Nodes1h: target ≤ 15 s and ≤ 2 GB per run.
func BenchmarkGossip10000Nodes1h(b *testing.B) { benchSim(b, 10000, 1) }

// BenchmarkGossipCounted1000Nodes24h: as BenchmarkGossip1000Nodes24h with
// gossip_k = 1 (the §4.5 step-3 counter; no target, it is not the default).
func BenchmarkGossipCounted1000Nodes24h(b *testing.B) { benchSimK(b, 1000, 24, 1) }

// BenchmarkRumor10000: the seed's push rumor (fanout 1, k 1) and the
// push-pull one on 10,000 nodes; target ≤ 1 s.
func BenchmarkRumor10000(b *testing.B) {
	nt := DefaultGrid(10000, 20, 0, 1).Build()
	for _, mode := range []string{ModePush, ModePushPull} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Rumor(context.Background(), nt, RumorConfig{Mode: mode, Fanout: 1, K: 1, MaxRounds: 1000, Seed: int64(i)}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
