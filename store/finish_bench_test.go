package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"schedlab/runtypes"
	"syscall"
	"testing"
	"time"
)

// BenchmarkClaimAndFinish1000 is the store's share of a 1,000-run sweep:
// 1,000 queued runs of an experiment, each claimed and finished with a
// real EAPM report (testdata/eapm-report.json: `schedlab run --strategy
// eapm --preset zhang2022-case1 --variant online`, 11 KB compact) and its
// metrics and last progress: one at a time (group-1), or the endings of
// group runs stored by one End, as the runner's group commit does when
// runs end while the last ones are written. cpu-ms is the process's CPU
// time (user + system) per 1,000 runs.
//
//	go test ./store -run XXX -bench ClaimAndFinish1000 -benchtime 3x
func BenchmarkClaimAndFinish1000(b *testing.B) {
	report, err := os.ReadFile(filepath.Join("testdata", "eapm-report.json"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, group := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("group-%d", group), func(b *testing.B) {
			var cpu time.Duration
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
				runs, cells := sweep(w, []string{"online", "greedy-min-energy"}, []string{"1.1", "1.2", "1.3", "1.4", "1.5"}, 100)
				if err := s.CreateExperiment(ctx, &Experiment{Name: "bench", Strategy: "eapm", Definition: json.RawMessage(`{}`)}, runs, cells); err != nil {
					b.Fatal(err)
				}
				cpu0 := processCPU(b)
				b.StartTimer()
				for more := true; more; {
					var ends []Ending
					for len(ends) < group {
						r, err := s.ClaimNext(ctx)
						if err != nil {
							b.Fatal(err)
						}
						if r == nil {
							more = false
							break
						}
						ends = append(ends, Ending{ID: r.ID, Status: runtypes.StatusDone, Report: report, Progress: &Progress{Done: 1, Total: 1}})
					}
					for _, err := range s.End(ctx, ends) {
						if err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				cpu += processCPU(b) - cpu0
				if n := count(b, s, "run_metrics"); n == 0 {
					b.Fatal("no metrics stored")
				}
				s.Close()
			}
			b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms")
		})
	}
}

// processCPU is the CPU time (user + system) this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
