package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// eapmSweep is 1,000 EAPM runs: 50 instances of zhang2022-case2 with N
// users × 2 variants × 10 values of gamma.
const eapmSweep = `{"name": "bench", "strategy": "eapm",
 "workload": {"preset": "zhang2022-case2", "grid": {"n": [N], "instance": {"from": 0, "to": 49}}},
 "variants": ["online", "greedy-min-energy"],
 "grid": {"gamma": [1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0]},
 "replicates": 1, "seed": 1}`

// BenchmarkEAPMSweep runs eapmSweep on the real binary, from the POST to
// the experiment done: in the server's own pool of 2 workers
// (--in-process), and through the queue with 1, 2 and 4 local worker
// processes; with 30 users a run takes milliseconds, with 100 tens of
// milliseconds. Run it with -benchtime=1x.
func BenchmarkEAPMSweep(b *testing.B) {
	bin := buildBinary(b)
	for _, users := range []int{30, 100} {
		b.Run(fmt.Sprintf("users-%d", users), func(b *testing.B) { benchSweep(b, bin, strings.Replace(eapmSweep, "N", strconv.Itoa(users), 1)) })
	}
}

func benchSweep(b *testing.B, bin, def string) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"in-process-2", []string{"--in-process", "--workers", "2"}},
		{"queue-1-worker", []string{"--workers", "1"}},
		{"queue-2-workers", []string{"--workers", "2"}},
		{"queue-4-workers", []string{"--workers", "4"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := startServer(b, bin, c.args...)
			time.Sleep(time.Second) // the workers connect
			b.ResetTimer()
			start := time.Now()
			var total int
			for range b.N {
				total += s.sweep(b, def)
			}
			el := time.Since(start)
			b.ReportMetric(el.Seconds()/float64(b.N), "s/sweep")
			b.ReportMetric(float64(total)/el.Seconds(), "runs/s")
		})
	}
}

// sweep posts eapmSweep and waits until it is done; it returns its runs.
func (s *server) sweep(b *testing.B, def string) int {
	resp, err := http.Post(s.base+"/api/experiments", "application/json", strings.NewReader(def))
	if err != nil {
		b.Fatal(err)
	}
	var e struct {
		ID    string `json:"id"`
		Total int    `json:"runs_total"`
	}
	body := new(bytes.Buffer)
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if err := json.Unmarshal(body.Bytes(), &e); err != nil || resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		b.Fatalf("POST /api/experiments: %d %s", resp.StatusCode, body)
	}
	for deadline := time.Now().Add(30 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		resp, err := http.Get(s.base + "/api/experiments/" + e.ID)
		if err != nil {
			b.Fatal(err)
		}
		var st struct {
			Status       string `json:"status"`
			Done, Failed int
		}
		var raw map[string]any
		json.NewDecoder(resp.Body).Decode(&raw)
		resp.Body.Close()
		st.Status, _ = raw["status"].(string)
		done, _ := raw["runs_done"].(float64)
		failed, _ := raw["runs_failed"].(float64)
		if st.Status == "done" {
			if failed > 0 {
				b.Fatalf("%v runs failed", failed)
			}
			return int(done)
		}
		if time.Now().After(deadline) {
			b.Fatal(fmt.Sprintf("sweep not done: %v", raw))
		}
	}
}
