package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"schedlab/store"
)

// TestWorkersPage: /workers and /api/workers list the in-process pool as
// one worker with its concurrency; a run's page and the API name the worker
// stored with the run.
func TestWorkersPage(t *testing.T) {
	a := newApp(t, "", 1<<20)
	code, body := a.do(t, http.MethodGet, "/workers", "", nil)
	if code != http.StatusOK || !strings.Contains(string(body), `data-testid="workers-table"`) ||
		!strings.Contains(string(body), "in-process") || !strings.Contains(string(body), "0 / 2") {
		t.Fatalf("GET /workers: %d\n%s", code, body)
	}
	code, body = a.do(t, http.MethodGet, "/api/workers", "", nil)
	var got struct {
		Workers []struct {
			Name        string   `json:"name"`
			Concurrency int      `json:"concurrency"`
			Running     []string `json:"running"`
		} `json:"workers"`
	}
	if code != http.StatusOK || json.Unmarshal(body, &got) != nil || len(got.Workers) != 1 ||
		got.Workers[0].Name != "in-process" || got.Workers[0].Concurrency != 2 {
		t.Fatalf("GET /api/workers: %d %s", code, body)
	}

	// A run ended by a worker process names it on its page and in the API.
	ctx := context.Background()
	run := a.claimedRun(t)
	if err := a.store.FinishBy(ctx, run.ID, "node7:4242", store.StatusFailed, nil, "worker died: test", ""); err != nil {
		t.Fatal(err)
	}
	_, body = a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	if !strings.Contains(string(body), `data-testid="run-worker"><code>node7:4242</code>`) {
		t.Errorf("run page does not name the worker:\n%s", body)
	}
	_, body = a.do(t, http.MethodGet, "/api/runs/"+run.ID, "", nil)
	if !strings.Contains(string(body), `"worker":"node7:4242"`) {
		t.Errorf("API run does not name the worker: %s", body)
	}
}
