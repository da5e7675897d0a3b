package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkClaimAndFinish1000 is the store's share of a 1,000-run sweep:
// 1,000 queued runs of an experiment, each claimed and finished with a
// real EAPM report (testdata/eapm-report.json: `schedlab run --strategy
// eapm --preset zhang2022-case1 --variant online`, 11 KB compact) and its
// metrics, one at a time as the runner does.
//
//	go test ./store -run XXX -bench ClaimAndFinish1000 -benchtime 3x
func BenchmarkClaimAndFinish1000(b *testing.B) {
	report, err := os.ReadFile(filepath.Join("testdata", "eapm-report.json"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		w := &Workload{Strategy: "eapm", Name: "w", Format: "json", Data: []byte(`{}`)}
		if err := s.CreateWorkload(ctx, w); err != nil {
			b.Fatal(err)
		}
		runs, cells := sweep(w, []string{"online", "greedy-min-energy"}, []string{"1.1", "1.2", "1.3", "1.4", "1.5"}, 100)
		if err := s.CreateExperiment(ctx, &Experiment{Name: "bench", Strategy: "eapm", Definition: json.RawMessage(`{}`)}, runs, cells); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for {
			r, err := s.ClaimNext(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if r == nil {
				break
			}
			if err := s.Finish(ctx, r.ID, StatusDone, report, "", ""); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		if n := count(b, s, "run_metrics"); n == 0 {
			b.Fatal("no metrics stored")
		}
		s.Close()
	}
}
