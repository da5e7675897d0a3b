package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/report"
	"schedlab/runner/runnertest"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
)

// gated is the test strategy whose runs wait for the gate to open, then
// return a report of about 60 KiB: more than any slack left in the
// database's pages, so that storing it needs new pages.
type gated struct {
	*solvers.Strategy
	gate    chan struct{}
	started chan string
}

func newGated() *gated {
	g := &gated{Strategy: runnertest.New("gated").Strategy, gate: make(chan struct{}), started: make(chan string, 8)}
	g.Run = g.run
	return g
}

func (g *gated) run(ctx context.Context, w *solvers.Workload, variant string, p solvers.Params, progress solvers.Progress) (*report.Report, error) {
	g.started <- w.Name
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	rep := &report.Report{Metrics: []report.Metric{{Name: "objective", Value: 1, Better: report.Higher}}}
	t := report.Table{Title: "rows", Columns: []string{"i", "text"}}
	for i := range 600 {
		t.Rows = append(t.Rows, []any{i, strings.Repeat("x", 100)})
	}
	rep.Tables = append(rep.Tables, t)
	return rep, nil
}

// health reads /healthz.
func (a *app) health(t *testing.T) (int, health) {
	t.Helper()
	status, b := a.do(t, http.MethodGet, "/healthz", "", nil)
	var h health
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("/healthz: %d %s", status, b)
	}
	return status, h
}

// runStatus is the status of run id in the database (the API shows a run
// claimed but not yet marked started as queued).
func (a *app) runStatus(t *testing.T, id string) string {
	t.Helper()
	r, err := a.store.GetRunInfo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r.Status
}

func TestAFullDiskRefusesNewWorkHoldsFinishedRunsAndHealsByItself(t *testing.T) {
	g := newGated()
	a := newAppWith(t, "", 0, []*solvers.Strategy{g.Strategy})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	disk := a.store.Disk()
	disk.SetMinFree(0) // the machine's free space is not the subject: SQLITE_FULL is
	go disk.Watch(ctx, 20*time.Millisecond)

	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"gated","preset":"tiny","seed":1}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	start := func() (int, []byte) {
		return a.postJSON(t, "/api/runs", fmt.Sprintf(`{"workload_id":%q,"strategy":"gated","variant":"ok"}`, w.ID))
	}
	var ids []string
	for range 3 {
		status, b := start()
		if status != http.StatusCreated {
			t.Fatalf("start a run: %d %s", status, b)
		}
		var r apiRun
		json.Unmarshal(b, &r)
		ids = append(ids, r.ID)
	}
	<-g.started // both workers hold a run; the third waits in the queue
	<-g.started

	// The disk fills while the two runs execute: SQLite itself refuses
	// every new page from here on (SQLITE_FULL).
	if err := a.store.SetMaxPages(ctx, 1); err != nil {
		t.Fatal(err)
	}
	close(g.gate) // the runs finish; their reports do not fit
	for deadline := time.Now().Add(30 * time.Second); disk.Status().State != store.DiskFull; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not notice the full disk: %+v", disk.Status())
		}
	}

	code, h := a.health(t)
	if code != http.StatusServiceUnavailable || h.Status != "full" || h.Disk.State != store.DiskFull ||
		len(h.Problems) == 0 || !strings.Contains(h.Problems[0], "database or disk is full") {
		t.Errorf("/healthz while full: %d %+v", code, h)
	}
	// The two runs ended (and perhaps the third, claimed by a worker freed
	// before the first failed write): none is lost or failed, each held
	// as running until its end can be stored.
	running := 0
	for _, id := range ids {
		switch st := a.runStatus(t, id); st {
		case runtypes.StatusRunning:
			running++
		case runtypes.StatusQueued:
		default:
			t.Errorf("run %s is %s while its end cannot be stored: held runs stay running, the queue waits", id, st)
		}
	}
	if running < 2 {
		t.Errorf("%d runs running while the disk is full, want the 2 held at least", running)
	}
	for _, req := range []struct{ path, body string }{
		{"/api/runs", fmt.Sprintf(`{"workload_id":%q,"strategy":"gated","variant":"ok"}`, w.ID)},
		{"/api/workloads/generate", `{"strategy":"gated","preset":"tiny","seed":2}`},
		{"/api/experiments", `{"name":"x","strategy":"gated","workload":{"preset":"tiny"},"variants":["ok"],"replicates":1,"seed":1}`},
	} {
		status, b := a.postJSON(t, req.path, req.body)
		var e apiError
		json.Unmarshal(b, &e)
		if status != http.StatusInsufficientStorage || !strings.Contains(e.Error, "disk holding the database is full") ||
			!strings.Contains(e.Error, "resumes by itself") {
			t.Errorf("POST %s while the disk is full: %d %s", req.path, status, b)
		}
	}

	// Space returns: nobody restarts anything.
	if err := a.store.SetMaxPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		r := a.waitRun(t, id)
		if r.Status != runtypes.StatusDone {
			t.Errorf("run %s after space returned: %s %s", id, r.Status, r.Error)
		}
		status, b := a.do(t, http.MethodGet, "/api/runs/"+id+"/tables/0?limit=5000", "", nil)
		var tab struct {
			RowCount int `json:"row_count"`
		}
		json.Unmarshal(b, &tab)
		if status != http.StatusOK || tab.RowCount != 600 {
			t.Errorf("run %s's table after space returned: %d, %d rows", id, status, tab.RowCount)
		}
	}
	if code, h := a.health(t); code != http.StatusOK || h.Status != "ok" || h.Disk.State != store.DiskOK {
		t.Errorf("/healthz after space returned: %d %+v", code, h)
	}
	if status, b := start(); status != http.StatusCreated {
		t.Errorf("a new run after space returned: %d %s", status, b)
	}
}

func TestEveryRouteRefusedOnAFullDiskExists(t *testing.T) {
	a := newFakeApp(t, 0)
	e := echo.New()
	a.server.Routes(e)
	have := map[string]bool{}
	for _, r := range e.Routes() {
		have[r.Method+" "+r.Path] = true
	}
	for route := range newWork {
		if !have[route] {
			t.Errorf("%s is refused on a full disk but is no route", route)
		}
	}
	for _, route := range []string{"POST /api/runs", "POST /api/workloads", "POST /api/experiments", "POST /api/experiments/import", "POST /runs", "POST /workloads"} {
		if !newWork[route] {
			t.Errorf("%s stores new work and is not refused on a full disk", route)
		}
	}
}

func TestHealthzSaysWhatWasLostAtStart(t *testing.T) {
	a := newApp(t, "", 0)
	code, h := a.health(t)
	if code != http.StatusOK || h.Status != "ok" || len(h.Problems) != 0 {
		t.Fatalf("/healthz of a fresh database: %d %+v", code, h)
	}
}
