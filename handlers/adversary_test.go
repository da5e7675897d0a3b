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
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
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
	// The list of searches: the page links it with its best score (4
	// digits), the API gives the same summary.
	code, body = a.do(t, http.MethodGet, "/api/adversary", "", nil)
	var list []struct {
		ID, Status, A, B, Metric string
		Evaluations              int    `json:"evaluations_count"`
		Best                     string `json:"best_score"`
	}
	if err := json.Unmarshal(body, &list); err != nil || code != http.StatusOK || len(list) != 1 || list[0].ID != started.ID ||
		list[0].Status != "done" || list[0].A != "list" || list[0].B != "heft" || list[0].Evaluations != got.Count || list[0].Best != got.Best.Score {
		t.Errorf("the list of searches: %d %s", code, body)
	}
	code, listPage := a.do(t, http.MethodGet, "/adversary", "", nil)
	if code != http.StatusOK || !strings.Contains(string(listPage), `href="/adversary/`+started.ID+`"`) || !strings.Contains(string(listPage), shortScore(got.Best.Score)) ||
		!strings.Contains(string(listPage), "list vs heft") {
		t.Errorf("the list page (%d) does not show the search", code)
	}
	if code, _ := a.do(t, http.MethodGet, "/api/adversary/nope", "", nil); code != http.StatusNotFound {
		t.Errorf("an unknown search: %d", code)
	}
}

// TestAdversaryUnderAuthAsExperiments: under --auth a search is started
// by a logged-in user only and canceled by its owner only; its state
// stays readable by its link.
func TestAdversaryUnderAuthAsExperiments(t *testing.T) {
	aa := newAuthApp(t)
	aa.server.searches = adversaries.New(aa.store, aa.runner, func(name string) (*solvers.Strategy, bool) {
		st, err := aa.server.lookup(name)
		return st, err == nil
	}, adversaries.Options{Poll: 5 * time.Millisecond})
	t.Cleanup(func() { aa.server.searches.Shutdown(context.Background()) })
	spec := `{"strategy":"eapm","a":"online","b":"greedy-max-objective","metric":"objective","preset":"zhang2022-case1",
		"budget":100000,"restarts":2,"seed":1}`
	if code, body := aa.as(t, "", http.MethodPost, "/api/adversary", spec); code != http.StatusUnauthorized {
		t.Fatalf("an anonymous search: %d %s", code, body)
	}
	if n, _ := aa.store.ListAdversarySearches(context.Background(), ""); len(n) != 0 {
		t.Fatalf("an anonymous search was stored")
	}
	code, body := aa.as(t, "alice", http.MethodPost, "/api/adversary", spec)
	var started struct{ ID string }
	if json.Unmarshal(body, &started); code != http.StatusCreated {
		t.Fatalf("alice's search: %d %s", code, body)
	}
	if a, _ := aa.store.GetAdversarySearch(context.Background(), started.ID); a == nil || a.Owner == "" {
		t.Errorf("the search records no owner")
	}
	if code, _ := aa.as(t, "bob", http.MethodPost, "/api/adversary/"+started.ID+"/cancel", ""); code != http.StatusForbidden {
		t.Errorf("bob cancels alice's search: %d, want 403", code)
	}
	if code, body := aa.as(t, "alice", http.MethodPost, "/api/adversary/"+started.ID+"/cancel", ""); code != http.StatusOK ||
		!strings.Contains(string(body), `"status":"canceled"`) {
		t.Errorf("alice cancels her search: %d %s", code, body)
	}
	// Its batch in flight is canceled, not left to run.
	runs, err := aa.store.ListRuns(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Status == runtypes.StatusQueued {
			t.Errorf("run %s of the canceled search is still queued", r.ID)
		}
	}
	if code, _ := aa.as(t, "", http.MethodGet, "/api/adversary/"+started.ID, ""); code != http.StatusOK {
		t.Errorf("the search's state by its link: %d", code)
	}
}
