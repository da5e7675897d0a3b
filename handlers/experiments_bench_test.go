package handlers

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkEAPMSweep1000 runs the 1,000-run sweep (2 variants × 5
// γ × 100 instances of case 1) through the API on two workers and reports,
// per sweep: the time to accept it (generating the 100 workloads and
// storing the 1,000 runs), the time until every run is done, and the time
// to render its page (aggregates, plot, rows, the A-against-B pairs), and
// the CPU time the process spent from the POST to the rendered page
// (cpu-ms: user + system, getrusage; the server's work whatever else the
// machine runs, with the benchmark's own polling every 100 ms in it).
//
//	go test ./handlers -run XXX -bench EAPMSweep1000 -benchtime 1x
func BenchmarkEAPMSweep1000(b *testing.B) {
	def := `{"name": "bench", "strategy": "eapm",
 "workload": {"preset": "zhang2022-case1", "grid": {"instance": {"from": 0, "to": 99}}},
 "variants": ["online", "greedy-min-energy"],
 "grid": {"gamma": [1.1, 1.2, 1.3, 1.4, 1.5]}}`
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a := newApp(b, "", 0)
		b.StartTimer()
		cpu0 := processCPU(b)
		start := time.Now()
		status, body := a.postJSON(b, "/api/experiments", def)
		if status != http.StatusCreated {
			b.Fatalf("create: %d %s", status, body)
		}
		accepted := time.Since(start)
		var e apiExperiment
		json.Unmarshal(body, &e)
		for {
			_, body = a.do(b, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
			json.Unmarshal(body, &e)
			if e.Status != "running" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		done := time.Since(start)
		if e.RunsDone != 1000 {
			b.Fatalf("%d runs done", e.RunsDone)
		}
		t0 := time.Now()
		status, page := a.do(b, http.MethodGet, "/experiments/"+e.ID+"?metric=objective&x=gamma", "", nil)
		render := time.Since(t0)
		cpu := processCPU(b) - cpu0
		if status != http.StatusOK || !strings.Contains(string(page), "objective vs gamma") {
			b.Fatalf("page: %d", status)
		}
		// The page again, warm, as a reader comes back to it: split by
		// instance (the default grouping), then pooled over the instances.
		best := func(path string) time.Duration {
			m := time.Duration(math.MaxInt64)
			for range 3 {
				t0 := time.Now()
				if status, _ := a.do(b, http.MethodGet, path, "", nil); status != http.StatusOK {
					b.Fatalf("%s: %d", path, status)
				}
				m = min(m, time.Since(t0))
			}
			return m
		}
		b.ReportMetric(best("/experiments/"+e.ID+"?metric=objective&x=gamma").Seconds()*1000, "page-warm-ms")
		b.ReportMetric(best("/experiments/"+e.ID+"?metric=objective&x=gamma&pool=workload.instance").Seconds()*1000, "page-pooled-ms")
		b.ReportMetric(accepted.Seconds()*1000, "accept-ms")
		b.ReportMetric(done.Seconds()*1000, "done-ms")
		b.ReportMetric(render.Seconds()*1000, "page-ms")
		b.ReportMetric(cpu.Seconds()*1000, "cpu-ms")
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
