package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"schedlab/runtypes"
	"testing"
	"time"
)

// BenchmarkCreateAndClaim10000 is the store's share of a 10,000-run sweep
// before any run ends: the experiment and its runs stored in one
// CreateExperiment, then every run claimed by ClaimUpTo(256), as the
// queue's dispatcher claims them. create-ms and claim-ms are the
// process's CPU time (user + system) for each part.
//
//	go test ./store -run XXX -bench CreateAndClaim10000 -benchtime 3x -count 5
func BenchmarkCreateAndClaim10000(b *testing.B) {
	ctx := context.Background()
	var create, claim time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		w := &runtypes.Workload{Strategy: "eapm", Name: "w", Format: "json", Data: []byte(`{}`)}
		if err := s.CreateWorkload(ctx, w); err != nil {
			b.Fatal(err)
		}
		runs, cells := sweep(w, []string{"online", "greedy-min-energy"}, []string{"1.1", "1.2", "1.3", "1.4", "1.5"}, 1000)
		b.StartTimer()
		cpu0 := processCPU(b)
		if err := s.CreateExperiment(ctx, &Experiment{Name: "bench", Strategy: "eapm", Definition: json.RawMessage(`{}`)}, runs, cells); err != nil {
			b.Fatal(err)
		}
		cpu1 := processCPU(b)
		claimed := 0
		for {
			rs, err := s.ClaimUpTo(ctx, 256)
			if err != nil {
				b.Fatal(err)
			}
			if len(rs) == 0 {
				break
			}
			claimed += len(rs)
		}
		cpu2 := processCPU(b)
		b.StopTimer()
		if claimed != len(runs) {
			b.Fatalf("claimed %d of %d runs", claimed, len(runs))
		}
		create += cpu1 - cpu0
		claim += cpu2 - cpu1
		s.Close()
	}
	b.ReportMetric(create.Seconds()*1000/float64(b.N), "create-ms")
	b.ReportMetric(claim.Seconds()*1000/float64(b.N), "claim-ms")
}
