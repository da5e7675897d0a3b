package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// getJSON GETs path from s into v.
func (s *server) getJSON(t testing.TB, path string, v any) {
	t.Helper()
	resp, err := http.Get(s.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, b)
	}
}

func (s *server) postJSON(t testing.TB, path, body string, v any) {
	t.Helper()
	resp, err := http.Post(s.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("POST %s: %v: %s", path, err, b)
	}
}

type apiWorker struct {
	Name string `json:"name"`
	PID  int    `json:"pid"`
}

// workers waits until /api/workers lists n workers and returns them.
func (s *server) workers(t testing.TB, n int, not map[int]bool) []apiWorker {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got struct{ Workers []apiWorker }
		s.getJSON(t, "/api/workers", &got)
		fresh := 0
		for _, w := range got.Workers {
			if !not[w.PID] {
				fresh++
			}
		}
		if len(got.Workers) == n && fresh == n {
			return got.Workers
		}
		if time.Now().After(deadline) {
			t.Fatalf("want %d workers (none of pids %v), have %+v\n%s", n, not, got.Workers, s.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestServeRunsInWorkers: the default serve starts the embedded NATS server
// and 2 worker processes, a run executes in one of them (named on the
// run), and a worker killed with SIGKILL is started again.
func TestServeRunsInWorkers(t *testing.T) {
	bin := buildBinary(t)
	s := startServer(t, bin)
	ws := s.workers(t, 2, nil)
	if _, err := os.Stat(s.db + ".nats/worker.nk"); err != nil {
		t.Fatalf("no credential beside the database: %v", err)
	}
	if fi, err := os.Stat(s.db + ".nats/worker.nk"); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("credential mode %v, want 0600", fi.Mode().Perm())
	}

	var wl struct{ ID string }
	s.postJSON(t, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1"}`, &wl)
	var run struct{ ID, Status, Worker, Error string }
	s.postJSON(t, "/api/runs", fmt.Sprintf(`{"workload_id":%q,"strategy":"eapm","variant":"online"}`, wl.ID), &run)
	for deadline := time.Now().Add(60 * time.Second); run.Status != "done"; time.Sleep(100 * time.Millisecond) {
		s.getJSON(t, "/api/runs/"+run.ID, &run)
		if run.Status == "failed" || time.Now().After(deadline) {
			t.Fatalf("run %+v\n%s", run, s.stderr)
		}
	}
	names := map[string]bool{}
	for _, w := range ws {
		names[w.Name] = true
	}
	if !names[run.Worker] {
		t.Errorf("run done by %q, not one of the workers %v", run.Worker, ws)
	}

	killed := ws[0].PID
	if err := syscall.Kill(killed, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The supervisor starts a new one; the dead one drops off after its
	// heartbeats stop (it is listed lost for a while).
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got struct {
			Workers []struct {
				PID  int  `json:"pid"`
				Lost bool `json:"lost"`
			}
		}
		s.getJSON(t, "/api/workers", &got)
		alive := 0
		for _, w := range got.Workers {
			if !w.Lost && w.PID != killed {
				alive++
			}
		}
		if alive == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed worker was not replaced: %+v", got.Workers)
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.alive(t, "a worker killed")
}
