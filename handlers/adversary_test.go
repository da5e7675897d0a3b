package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"schedlab/adversaries"
	"schedlab/bundle"
	"schedlab/solvers/registry"
)

// searchApp is the application with a search driver that looks at the
// store often (the test runner tells it of no ends).
func searchApp(t *testing.T) *app {
	t.Helper()
	a := newApp(t, "", 0)
	a.server.searches = adversaries.New(a.store, a.runner, registry.Lookup, adversaries.Options{Poll: 5 * time.Millisecond})
	t.Cleanup(func() { a.server.searches.Shutdown(context.Background()) })
	return a
}

const smallSearch = `{"strategy":"critical","a":"list","b":"heft","metric":"makespan","preset":"random",
	"preset_params":{"tasks":"6","layers":"3"},"budget":12,"restarts":3,"seed":2}`

// TestAdversaryAPIRefusesBadInputNamingTheField: every refused search is
// a 400 naming its field, and stores nothing.
func TestAdversaryAPIRefusesBadInputNamingTheField(t *testing.T) {
	a := searchApp(t)
	with := func(k, v string) string {
		var m map[string]any
		json.Unmarshal([]byte(smallSearch), &m)
		if v == "" {
			delete(m, k)
		} else {
			var val any
			json.Unmarshal([]byte(v), &val)
			m[k] = val
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, c := range []struct{ body, field string }{
		{with("metric", `"nope"`), "metric"},
		{with("metric", `"processor_load_mean"`), ""}, // a ranked metric: accepted below, not here
		{with("budget", `"ten"`), "budget"},
		{with("budget", `0`), "budget"},
		{with("b", ""), "b"},
		{with("a", `"nope"`), "a"},
		{with("preset", `"nope"`), "preset"},
		{with("preset_params", `{"tasks":"0"}`), "preset_params"},
		{with("strategy", `"nope"`), "strategy"},
		{with("method", `"walk"`), "method"},
		{with("seconds", `-1`), "seconds"},
		{with("bogus", `1`), "bogus"},
		{`{"strategy":`, "body"},
	} {
		if c.field == "" {
			continue
		}
		code, body := a.postJSON(t, "/api/adversary", c.body)
		var e apiError
		json.Unmarshal(body, &e)
		if code != http.StatusBadRequest && !(c.field == "strategy" && code == http.StatusNotFound) || e.Field != c.field {
			t.Errorf("%s: %d %s, want 400 naming %s", c.body, code, body, c.field)
		}
	}
	if n, err := a.store.ListAdversarySearches(context.Background(), ""); err != nil || len(n) != 0 {
		t.Errorf("refused searches stored: %d, %v", len(n), err)
	}
	code, body := a.do(t, http.MethodPost, "/adversary", "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"strategy": {"critical"}, "a": {"list"}, "b": {"heft"}, "metric": {"makespan"},
			"preset": {"random"}, "budget": {"many"}}.Encode()))
	if code != http.StatusBadRequest || !strings.Contains(string(body), `data-testid="error-budget"`) || !strings.Contains(string(body), `value="many"`) {
		t.Errorf("the form with a bad budget: %d, want the form again with the problem beside budget and the value kept", code)
	}
}

// TestAdversarySearchThroughTheAPIAndItsPage: a small search started by
// the API ends with its best, saved as a workload; its page shows the
// best and A's and B's schedules of it aligned.
func TestAdversarySearchThroughTheAPIAndItsPage(t *testing.T) {
	a := searchApp(t)
	code, body := a.postJSON(t, "/api/adversary", smallSearch)
	if code != http.StatusCreated {
		t.Fatalf("%d %s", code, body)
	}
	var started struct{ ID, Status string }
	json.Unmarshal(body, &started)
	if err := a.server.searches.Wait(context.Background(), started.ID); err != nil {
		t.Fatal(err)
	}
	code, body = a.do(t, http.MethodGet, "/api/adversary/"+started.ID, "", nil)
	var got struct {
		Status         string `json:"status"`
		Count          int    `json:"evaluations_count"`
		BestWorkloadID string `json:"best_workload_id"`
		Best           struct {
			Score string `json:"score"`
			Key   string `json:"key"`
		} `json:"best"`
		Spec struct {
			Better string `json:"better"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(body, &got); err != nil || code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	if got.Status != "done" || got.Count == 0 || got.Count > 12 || got.Best.Key == "" || got.BestWorkloadID == "" || got.Spec.Better != "lower" {
		t.Fatalf("the search's state: %s", body)
	}
	w, err := a.store.GetWorkloadInfo(context.Background(), got.BestWorkloadID)
	if err != nil || w.SHA256 != got.Best.Key || !strings.Contains(w.Summary, started.ID) {
		t.Errorf("the best instance's workload %+v, %v", w, err)
	}
	// Its provenance: the search, its seed, its commit.
	code, body = a.do(t, http.MethodGet, "/api/workloads/"+got.BestWorkloadID, "", nil)
	var wl struct {
		FoundBy struct {
			Search string `json:"search"`
			Seed   int64  `json:"seed"`
		} `json:"found_by"`
	}
	if json.Unmarshal(body, &wl); code != http.StatusOK || wl.FoundBy.Search != started.ID || wl.FoundBy.Seed != 2 {
		t.Errorf("the best's API provenance: %d %s", code, body)
	}
	if code, wpage := a.do(t, http.MethodGet, "/workloads/"+got.BestWorkloadID, "", nil); code != http.StatusOK ||
		!strings.Contains(string(wpage), `data-testid="found-by"`) || !strings.Contains(string(wpage), "seed 2") {
		t.Errorf("the best's page (%d) does not say which search found it", code)
	}
	code, page := a.do(t, http.MethodGet, "/adversary/"+started.ID, "", nil)
	for _, want := range []string{`data-testid="search-best"`, `data-testid="gantt-panels"`, `data-status="done"`, "A: list", "B: heft", "Best score against candidates"} {
		if code != http.StatusOK || !strings.Contains(string(page), want) {
			t.Errorf("the search's page (%d) lacks %s", code, want)
		}
	}
	// The ended search travels as a bundle that reads back.
	code, bun := a.do(t, http.MethodGet, "/api/adversary/"+started.ID+"/bundle", "", nil)
	if b, err := bundle.ReadSearch(bytes.NewReader(bun), 0); code != http.StatusOK || err != nil || b.Search.ID != started.ID ||
		b.Workload == nil || b.Workload.ID != got.BestWorkloadID || len(b.Runs) != 2 || len(b.Evaluations) != got.Count {
		t.Errorf("the search's bundle: %d, %v", code, err)
	}
	if code, _ := a.do(t, http.MethodGet, "/adversary/new", "", nil); code != http.StatusOK {
		t.Errorf("the form: %d", code)
	}
	if code, _ := a.do(t, http.MethodGet, "/api/adversary/nope", "", nil); code != http.StatusNotFound {
		t.Errorf("an unknown search: %d", code)
	}
}
