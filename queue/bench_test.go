package queue_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"schedlab/queue/queuetest"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/store"
)

// waitExperiment waits until experiment id has no queued or running run.
func waitExperiment(b *testing.B, st *store.Store, id string, within time.Duration) {
	b.Helper()
	deadline := time.Now().Add(within)
	for {
		total, done, failed, active, err := st.ExperimentProgress(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		if active == 0 {
			if done != total {
				b.Fatalf("%d of %d runs done, %d failed", done, total, failed)
			}
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d runs still active after %v", active, within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// BenchmarkTinyRuns measures the time per run of b.N runs that do nothing
// (queuetest ok, 0 ms), from stored queued to stored done: through the
// queue with 2 worker processes, and in the server's own pool of 2
// workers. The difference is the queue's overhead per run. Run it with
// -benchtime=10000x.
func BenchmarkTinyRuns(b *testing.B) {
	b.Run("queue-2-workers", func(b *testing.B) {
		dir := b.TempDir()
		s := startServer(b, dir, "")
		for range 2 {
			startWorker(b, s, filepath.Join(dir, "exec.log"))
		}
		waitWorkers(b, s, 2)
		b.ResetTimer()
		start := time.Now()
		sweep(b, s, b.N, queuetest.VariantOK, nil)
		waitExperiment(b, s.st, s.exp, 10*time.Minute)
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/run")
	})
	b.Run("in-process-2-workers", func(b *testing.B) {
		st, err := store.Open(filepath.Join(b.TempDir(), "test.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		rn := runner.New(st, queuetest.Lookup, runner.Options{Workers: 2, Timeout: time.Minute, MemoryBudget: 1 << 30})
		if err := rn.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		defer rn.Shutdown(context.Background())
		var exp string
		b.ResetTimer()
		start := time.Now()
		sweepOn(b, st, rn, func(id string) { exp = id }, b.N, queuetest.VariantOK, nil)
		waitExperiment(b, st, exp, 10*time.Minute)
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/run")
	})
}

// waitWorkers waits until n workers have sent a heartbeat.
func waitWorkers(b testing.TB, s *server, n int) {
	deadline := time.Now().Add(30 * time.Second)
	for len(s.rn.Workers()) < n {
		if time.Now().After(deadline) {
			b.Fatalf("%d workers of %d joined", len(s.rn.Workers()), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkSingleWriter measures how many runs per second the server, the
// only writer of SQLite, can store: per run the claim (ClaimNext) and the
// end with its report (FinishBy), as the Dispatcher does, one after the
// other; report sizes as a tiny report and as an EAPM zhang2022-case1 run
// (24 KB).
func BenchmarkSingleWriter(b *testing.B) {
	for _, size := range []int{100, 24 << 10} {
		b.Run(fmt.Sprintf("report-%dB", size), func(b *testing.B) {
			st, err := store.Open(filepath.Join(b.TempDir(), "test.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			rn := runner.New(st, queuetest.Lookup, runner.Options{})
			sweepOn(b, st, rn, func(string) {}, b.N, queuetest.VariantOK, nil)
			report := reportOf(size)
			ctx := context.Background()
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				r, err := st.ClaimNext(ctx)
				if err != nil || r == nil {
					b.Fatal(r, err)
				}
				if err := st.FinishBy(ctx, r.ID, "host:1", runtypes.StatusDone, report, "", ""); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "runs/s")
		})
	}
}

// reportOf is a valid report JSON of about size bytes: metrics and a table.
func reportOf(size int) json.RawMessage {
	var rows []string
	for n := 0; n < size-200; n += 40 {
		rows = append(rows, fmt.Sprintf(`[%d, 1234.5678, "machine type %d"]`, n, n%9))
	}
	return json.RawMessage(`{"metrics":[{"name":"objective","value":12.5,"better":"higher"},{"name":"energy","value":3.25}],` +
		`"tables":[{"title":"t","columns":["a","b","c"],"rows":[` + strings.Join(rows, ",") + `]}]}`)
}
