package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers/registry"
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
	if err := a.store.FinishBy(ctx, run.ID, "node7:4242", runtypes.StatusFailed, nil, "worker died: test", ""); err != nil {
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

// fakeBackend is a runner.Backend whose only worker executes the runs
// it is given.
type fakeBackend struct {
	running []string
	list    []runtypes.WorkerStatus // when set, the workers it lists
}

func (f *fakeBackend) Start(context.Context) error          { return nil }
func (f *fakeBackend) Wake()                                {}
func (f *fakeBackend) Cancel(context.Context, string) error { return nil }
func (f *fakeBackend) Progress(string) (done, total int, note string, ok bool) {
	return 0, 0, "", false
}
func (f *fakeBackend) Shutdown(context.Context) error { return nil }
func (f *fakeBackend) Workers() []runtypes.WorkerStatus {
	if f.list != nil {
		return f.list
	}
	return []runtypes.WorkerStatus{{Name: "node7:4242", Host: "node7", PID: 4242, Concurrency: 4, Running: f.running,
		Started: time.Now(), LastSeen: time.Now()}}
}

// TestWorkersNeedALoginAndShowOthersRunsOnlyToAdmins: on a server with
// accounts, /workers and /api/workers are 401 to an anonymous visitor; a
// user sees the IDs of his own running runs and a count of the others', an
// admin every ID.
func TestWorkersNeedALoginAndShowOthersRunsOnlyToAdmins(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	tokens, ids := map[string]string{}, map[string]string{}
	for _, u := range []struct {
		name  string
		admin bool
	}{{"alice", false}, {"bob", false}, {"root", true}} {
		user, err := st.CreateUser(ctx, u.name, "password-of-"+u.name, u.admin)
		if err != nil {
			t.Fatal(err)
		}
		if tokens[u.name], err = st.CreateToken(ctx, u.name, "test"); err != nil {
			t.Fatal(err)
		}
		run, err := st.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: "eapm", Owner: user.ID})
		if err != nil {
			t.Fatal(err)
		}
		ids[u.name] = run.ID
	}
	fb := &fakeBackend{running: []string{ids["alice"], ids["bob"], ids["root"]}}
	rn := runner.New(st, registry.Lookup, runner.Options{Backend: fb})
	e := echo.New()
	New(st, rn, registry.All(), Options{Auth: true}).Routes(e)
	get := func(user, path string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if user != "" {
			req.Header.Set("Authorization", "Bearer "+tokens[user])
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for _, path := range []string{"/workers", "/api/workers"} {
		if code, body := get("", path); code != http.StatusUnauthorized {
			t.Errorf("anonymous %s: %d, want 401\n%s", path, code, body)
		}
		code, body := get("alice", path)
		if code != http.StatusOK || !strings.Contains(body, ids["alice"]) {
			t.Errorf("alice's %s: %d, her own run %s not shown\n%s", path, code, ids["alice"], body)
		}
		for _, other := range []string{"bob", "root"} {
			if strings.Contains(body, ids[other]) {
				t.Errorf("alice's %s shows %s's run %s", path, other, ids[other])
			}
		}
		code, body = get("root", path)
		for _, u := range []string{"alice", "bob", "root"} {
			if code != http.StatusOK || !strings.Contains(body, ids[u]) {
				t.Errorf("the admin's %s: %d, %s's run %s not shown", path, code, u, ids[u])
			}
		}
	}
	_, page := get("alice", "/workers")
	if !strings.Contains(page, "3 / 4") || !strings.Contains(page, `data-testid="others-running">2 of other users`) {
		t.Errorf("alice's /workers does not count the others' runs in the load and beside her own:\n%s", page)
	}
	_, body := get("bob", "/api/workers")
	var got struct {
		Workers []struct {
			Running []string `json:"running"`
			Others  int      `json:"others_running"`
		} `json:"workers"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil || len(got.Workers) != 1 ||
		len(got.Workers[0].Running) != 1 || got.Workers[0].Running[0] != ids["bob"] || got.Workers[0].Others != 2 {
		t.Errorf("bob's /api/workers: %s", body)
	}
}

// TestLostWorkerShowsWhereItsRunsWent: a lost worker's runs are shown
// with where they went: on another worker, queued again, or ended.
func TestLostWorkerShowsWhereItsRunsWent(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	var ids []string
	for range 3 {
		run, err := st.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: "eapm"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, run.ID)
	}
	moved, requeued, ended := ids[0], ids[1], ids[2]
	if _, err := st.ClaimUpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if err := st.Unclaim(ctx, []string{requeued}); err != nil {
		t.Fatal(err)
	}
	if err := st.Finish(ctx, ended, runtypes.StatusDone, json.RawMessage(`{"metrics":[]}`), "", ""); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	fb := &fakeBackend{list: []runtypes.WorkerStatus{
		{Name: "node8:1", Concurrency: 2, Running: []string{moved}, LastSeen: now},
		{Name: "node7:4242", Concurrency: 4, Running: ids, LastSeen: now.Add(-time.Minute), Lost: true},
	}}
	e := echo.New()
	New(st, runner.New(st, registry.Lookup, runner.Options{Backend: fb}), registry.All(), Options{}).Routes(e)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/workers", nil))
	var got struct {
		Workers []struct {
			Name  string            `json:"name"`
			Moved map[string]string `json:"moved"`
		} `json:"workers"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.Workers) != 2 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	want := map[string]string{moved: "now on node8:1", requeued: "queued again", ended: "done"}
	if m := got.Workers[1].Moved; len(m) != 3 || m[moved] != want[moved] || m[requeued] != want[requeued] || m[ended] != want[ended] || got.Workers[0].Moved != nil {
		t.Errorf("moved %v, want %v on the lost worker only", got.Workers[1].Moved, want)
	}
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/workers", nil))
	if !strings.Contains(rec.Body.String(), `data-testid="run-moved">(→ now on node8:1)`) {
		t.Errorf("/workers does not show where the lost worker's run went:\n%s", rec.Body)
	}
}
