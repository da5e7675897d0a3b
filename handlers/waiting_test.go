package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"schedlab/runtypes"
	"strings"
	"testing"
	"time"
)

// A run claimed for a worker that has not started it is queued to anyone
// who looks: the API and the page say queued and give no start; once the
// worker starts it, it is running from then (issue 30).
func TestAClaimedRunIsQueuedUntilAWorkerStartsIt(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := context.Background()
	run := a.claimedRun(t)
	var got struct {
		Status    string     `json:"status"`
		StartedAt *time.Time `json:"started_at"`
	}
	_, body := a.do(t, http.MethodGet, "/api/runs/"+run.ID, "", nil)
	if err := json.Unmarshal(body, &got); err != nil || got.Status != runtypes.StatusQueued || got.StartedAt != nil {
		t.Fatalf("waiting run in the API: %s", body)
	}
	_, page := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	if !strings.Contains(string(page), `data-testid="run-status">queued</span>`) {
		t.Errorf("waiting run page does not say queued")
	}
	at := time.Now().Add(-time.Second).UTC()
	if err := a.store.MarkStarted(ctx, run.ID, at); err != nil {
		t.Fatal(err)
	}
	_, body = a.do(t, http.MethodGet, "/api/runs/"+run.ID, "", nil)
	if err := json.Unmarshal(body, &got); err != nil || got.Status != runtypes.StatusRunning || got.StartedAt == nil || got.StartedAt.Sub(at).Abs() > time.Millisecond {
		t.Fatalf("started run in the API: %s", body)
	}
}

// claimedRun stops the app's runner and makes one EAPM run claimed as a
// worker would claim it, for tests that play the worker.
func (a *app) claimedRun(t *testing.T) *runtypes.Run {
	t.Helper()
	wid := a.upload(t)
	ctx := context.Background()
	a.runner.Shutdown(ctx) // nothing claims the run but this test
	run, err := a.store.CreateRun(ctx, &runtypes.Run{WorkloadID: wid, Strategy: "eapm", Variant: "online"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := a.store.ClaimNext(ctx); err != nil || r.ID != run.ID {
		t.Fatal(r, err)
	}
	return run
}
