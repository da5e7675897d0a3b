package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/solvers"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func userVersion(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func addWorkload(t *testing.T, s *Store, strategy string) *runtypes.Workload {
	t.Helper()
	w := &runtypes.Workload{Strategy: strategy, Name: "tiny", Format: "json", Summary: "2 users",
		Data: []byte(`{"etc":[[1,2]]}`), Preview: json.RawMessage(`{"metrics":[]}`)}
	if err := s.CreateWorkload(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	return w
}

func addRun(t *testing.T, s *Store, w *runtypes.Workload) *runtypes.Run {
	t.Helper()
	r, err := s.CreateRun(context.Background(), &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: w.Strategy,
		Variant: "online", Params: solvers.Params{"gamma": "1.2"}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMigrationsApplyToEmptyFileAndAreIdempotentOnReopen(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("no embedded migrations")
	}
	s, path := openTemp(t)
	if v := userVersion(t, s); v != len(ms) {
		t.Fatalf("user_version %d after Open of an empty file, want %d", v, len(ms))
	}
	var tables []string
	rows, err := s.db.Query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	for _, want := range []string{"experiment_runs", "experiments", "runs", "workloads"} {
		if !contains(tables, want) {
			t.Errorf("table %s missing (have %v)", want, tables)
		}
	}
	w := addWorkload(t, s, "eapm")
	s.Close()

	for i := 0; i < 2; i++ { // reopening applies nothing and loses nothing
		s2, err := Open(path)
		if err != nil {
			t.Fatalf("reopen %d: %v", i, err)
		}
		if v := userVersion(t, s2); v != len(ms) {
			t.Errorf("user_version %d after reopen, want %d", v, len(ms))
		}
		if _, err := s2.GetWorkload(context.Background(), w.ID); err != nil {
			t.Errorf("reopen %d: %v", i, err)
		}
		s2.Close()
	}
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.db.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open of a schema from the future: %v, want a 'newer' error", err)
	}
}

func TestConnectionPragmas(t *testing.T) {
	s, _ := openTemp(t)
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "30000", "synchronous": "1"} {
		var got string
		if err := s.db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestWorkloadAndFinishedRunSurviveReopen(t *testing.T) {
	s, path := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	if w.ID == "" || w.Bytes != len(w.Data) || len(w.SHA256) != 64 || w.CreatedAt.IsZero() {
		t.Fatalf("CreateWorkload did not fill ID/Bytes/SHA256/CreatedAt: %+v", w)
	}
	r := addRun(t, s, w)
	claimed, err := s.ClaimNext(ctx)
	if err != nil || claimed == nil || claimed.ID != r.ID {
		t.Fatalf("ClaimNext = %v, %v; want run %s", claimed, err, r.ID)
	}
	if err := s.MarkStarted(ctx, r.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetProgress(ctx, r.ID, 3, 4, "user 3 of 4"); err != nil {
		t.Fatal(err)
	}
	report := json.RawMessage(`{"metrics":[{"name":"objective","value":42}]}`)
	if err := s.Finish(ctx, r.ID, runtypes.StatusDone, report, "", ""); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	gw, err := s2.GetWorkload(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(gw.Data) != string(w.Data) || string(gw.Preview) != string(w.Preview) || gw.SHA256 != w.SHA256 ||
		gw.Name != w.Name || gw.Summary != w.Summary || !gw.CreatedAt.Equal(w.CreatedAt) {
		t.Errorf("workload after reopen %+v, want %+v", gw, w)
	}
	gr, err := s2.GetRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if gr.Status != runtypes.StatusDone || string(gr.Report) != string(report) || gr.Params["gamma"] != "1.2" ||
		gr.Seed != 7 || gr.Variant != "online" || gr.WorkloadID != w.ID || gr.ProgressDone != 3 ||
		gr.ProgressTotal != 4 || gr.ProgressNote != "user 3 of 4" || gr.StartedAt == nil || gr.FinishedAt == nil ||
		!gr.CreatedAt.Equal(r.CreatedAt) {
		t.Errorf("run after reopen %+v", gr)
	}
	list, err := s2.ListRuns(ctx, RunFilter{})
	if err != nil || len(list) != 1 || list[0].Report != nil {
		t.Errorf("ListRuns = %v, %v: want one run without its report", list, err)
	}
	ws, err := s2.ListWorkloads(ctx, "", 0)
	if err != nil || len(ws) != 1 || ws[0].Data != nil || ws[0].Preview != nil || ws[0].Bytes != w.Bytes {
		t.Errorf("ListWorkloads = %+v, %v: want one workload without data and preview", ws, err)
	}
}

func TestMarkInterruptedAfterACrash(t *testing.T) {
	s, path := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	running := addRun(t, s, w)
	if _, err := s.ClaimNext(ctx); err != nil {
		t.Fatal(err)
	}
	queued := addRun(t, s, w)
	s.Close() // the "crash": no Finish

	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	n, err := s2.MarkInterrupted(ctx)
	if err != nil || n != 1 {
		t.Fatalf("MarkInterrupted = %d, %v; want 1", n, err)
	}
	r, _ := s2.GetRun(ctx, running.ID)
	if r.Status != runtypes.StatusInterrupted || r.Error == "" || r.FinishedAt == nil {
		t.Errorf("crashed run is %s (error %q, finished %v), want interrupted with a message", r.Status, r.Error, r.FinishedAt)
	}
	if q, _ := s2.GetRun(ctx, queued.ID); q.Status != runtypes.StatusQueued {
		t.Errorf("queued run became %s", q.Status)
	}
	if n, _ := s2.MarkInterrupted(ctx); n != 0 {
		t.Errorf("second MarkInterrupted touched %d runs", n)
	}
}

func TestClaimNextUnderConcurrencyClaimsEachRunOnce(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	const runs, claimers = 40, 8
	want := map[string]bool{}
	for i := 0; i < runs; i++ {
		want[addRun(t, s, w).ID] = true
	}
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for i := 0; i < claimers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				r, err := s.ClaimNext(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if r == nil {
					return
				}
				if r.Status != runtypes.StatusRunning || r.StartedAt != nil || r.Shown() != runtypes.StatusQueued {
					t.Errorf("claimed run %s is %s (shown %s), started %v; want running, shown queued, not started", r.ID, r.Status, r.Shown(), r.StartedAt)
				}
				mu.Lock()
				got = append(got, r.ID)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	for _, id := range got {
		seen[id]++
	}
	for id, n := range seen {
		if n != 1 || !want[id] {
			t.Errorf("run %s claimed %d times (known %v)", id, n, want[id])
		}
	}
	if len(seen) != runs {
		t.Errorf("%d distinct runs claimed, want %d", len(seen), runs)
	}
}

func TestClaimNextTakesTheOldestQueuedFirst(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, addRun(t, s, w).ID)
	}
	for i, want := range ids {
		r, err := s.ClaimNext(ctx)
		if err != nil || r == nil || r.ID != want {
			t.Fatalf("claim %d = %v, %v; want %s", i, r, err, want)
		}
	}
	if r, err := s.ClaimNext(ctx); r != nil || err != nil {
		t.Fatalf("ClaimNext of an empty queue = %v, %v; want nil, nil", r, err)
	}
}

func TestUnknownIDsAreNotFound(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	_, err := s.GetWorkload(ctx, "nosuchwork")
	checkKind(t, "GetWorkload", err, errs.NotFound, "nosuchwork")
	_, err = s.GetRun(ctx, "nosuchrunx")
	checkKind(t, "GetRun", err, errs.NotFound, "nosuchrunx")
	checkKind(t, "DeleteRun", s.DeleteRun(ctx, "nosuchrunx"), errs.NotFound, "nosuchrunx")
	checkKind(t, "DeleteWorkload", s.DeleteWorkload(ctx, "nosuchwork"), errs.NotFound, "nosuchwork")
	checkKind(t, "CancelQueued", s.CancelQueued(ctx, "nosuchrunx"), errs.NotFound, "nosuchrunx")
	checkKind(t, "Finish", s.Finish(ctx, "nosuchrunx", runtypes.StatusDone, nil, "", ""), errs.NotFound, "nosuchrunx")
	_, err = s.LatestRun(ctx, "eapm", runtypes.KindReproduce)
	checkKind(t, "LatestRun", err, errs.NotFound, "eapm")
	_, err = s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: "nosuchwork", Strategy: "eapm"})
	checkKind(t, "CreateRun", err, errs.NotFound, "nosuchwork")
	if errs.FieldOf(err) != "workload_id" {
		t.Errorf("CreateRun with a missing workload names field %q, want workload_id", errs.FieldOf(err))
	}
}

func checkKind(t *testing.T, what string, err error, kind errs.Kind, mentions string) {
	t.Helper()
	if errs.KindOf(err) != kind {
		t.Errorf("%s: error %v is %v, want %v", what, err, errs.KindOf(err), kind)
		return
	}
	if !strings.Contains(err.Error(), mentions) {
		t.Errorf("%s: error %q does not name %q", what, err, mentions)
	}
}

func TestStateChangesOutOfTurnAreConflicts(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	r := addRun(t, s, w)
	checkKind(t, "Finish a queued run", s.Finish(ctx, r.ID, runtypes.StatusDone, nil, "", ""), errs.Conflict, "queued")
	checkKind(t, "DeleteRun a queued run", s.DeleteRun(ctx, r.ID), errs.Conflict, "queued")
	checkKind(t, "DeleteWorkload in use", s.DeleteWorkload(ctx, w.ID), errs.Conflict, "1 run")
	if err := s.CancelQueued(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetRun(ctx, r.ID)
	if got.Status != runtypes.StatusCanceled || got.FinishedAt == nil {
		t.Errorf("canceled queued run is %s", got.Status)
	}
	checkKind(t, "CancelQueued twice", s.CancelQueued(ctx, r.ID), errs.Conflict, "canceled")
	if r, _ := s.ClaimNext(ctx); r != nil {
		t.Errorf("claimed canceled run %s", r.ID)
	}
	if err := s.DeleteRun(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteWorkload(ctx, w.ID); err != nil {
		t.Fatalf("delete of an unused workload: %v", err)
	}
	if _, err := s.GetWorkload(ctx, w.ID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("deleted workload still there: %v", err)
	}
}

func TestDeletingTheOriginalKeepsItsRerun(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	orig := addRun(t, s, w)
	s.ClaimNext(ctx)
	if err := s.Finish(ctx, orig.ID, runtypes.StatusFailed, nil, "boom", "gamma"); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetRun(ctx, orig.ID)
	if got.Error != "boom" || got.ErrorField != "gamma" || got.Status != runtypes.StatusFailed {
		t.Errorf("failed run keeps %q/%q/%s", got.Error, got.ErrorField, got.Status)
	}
	again, err := s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "eapm", RerunOf: orig.ID})
	if err != nil {
		t.Fatal(err)
	}
	if again.RerunOf != orig.ID || again.Status != runtypes.StatusQueued {
		t.Fatalf("re-run %+v", again)
	}
	if err := s.DeleteRun(ctx, orig.ID); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetRun(ctx, again.ID)
	if err != nil || got.RerunOf != "" {
		t.Errorf("re-run after deleting the original: %+v, %v", got, err)
	}
}

func TestCreateRunRejectsWhatTheSchemaCannotHold(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	cases := []struct {
		name  string
		run   runtypes.Run
		field string
	}{
		{"bad kind", runtypes.Run{Kind: "sweep", WorkloadID: w.ID, Strategy: "eapm"}, "kind"},
		{"no strategy", runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID}, "strategy"},
		{"run without workload", runtypes.Run{Kind: runtypes.KindRun, Strategy: "eapm"}, "workload_id"},
		{"reproduce with workload", runtypes.Run{Kind: runtypes.KindReproduce, WorkloadID: w.ID, Strategy: "eapm"}, "workload_id"},
		{"unknown original", runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "eapm", RerunOf: "nosuchrunx"}, "rerun_of"},
	}
	for _, tc := range cases {
		if _, err := s.CreateRun(ctx, &tc.run); err == nil || errs.FieldOf(err) != tc.field {
			t.Errorf("%s: error %v names %q, want %q", tc.name, err, errs.FieldOf(err), tc.field)
		}
	}
	if rs, _ := s.ListRuns(ctx, RunFilter{}); len(rs) != 0 {
		t.Errorf("%d runs stored after rejected creates", len(rs))
	}
	if err := s.CreateWorkload(ctx, &runtypes.Workload{Strategy: "eapm", Name: "x", Data: []byte("not json")}); errs.FieldOf(err) != "data" {
		t.Errorf("non-JSON workload data: %v", err)
	}
	if ws, _ := s.ListWorkloads(ctx, "", 0); len(ws) != 1 {
		t.Errorf("%d workloads after a rejected create, want 1", len(ws))
	}
}

func TestListRunsFiltersAndLatestRun(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	w2 := addWorkload(t, s, "dcop")
	a := addRun(t, s, w)
	b := addRun(t, s, w2)
	rep1, err := s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: "eapm"})
	if err != nil {
		t.Fatal(err)
	}
	rep2, _ := s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: "eapm"})
	all, _ := s.ListRuns(ctx, RunFilter{})
	if ids(all) != strings.Join([]string{rep2.ID, rep1.ID, b.ID, a.ID}, ",") {
		t.Errorf("ListRuns order %s, want newest first", ids(all))
	}
	for _, tc := range []struct {
		f    RunFilter
		want []string
	}{
		{RunFilter{Strategy: "dcop"}, []string{b.ID}},
		{RunFilter{Kind: runtypes.KindReproduce}, []string{rep2.ID, rep1.ID}},
		{RunFilter{WorkloadID: w.ID}, []string{a.ID}},
		{RunFilter{Strategy: "eapm", Limit: 2}, []string{rep2.ID, rep1.ID}},
		{RunFilter{Status: runtypes.StatusDone}, nil},
	} {
		got, err := s.ListRuns(ctx, tc.f)
		if err != nil || ids(got) != strings.Join(tc.want, ",") {
			t.Errorf("ListRuns(%+v) = %s, %v; want %v", tc.f, ids(got), err, tc.want)
		}
	}
	latest, err := s.LatestRun(ctx, "eapm", runtypes.KindReproduce)
	if err != nil || latest.ID != rep2.ID {
		t.Errorf("LatestRun = %v, %v; want %s", latest, err, rep2.ID)
	}
	ws, _ := s.ListWorkloads(ctx, "dcop", 0)
	if len(ws) != 1 || ws[0].ID != w2.ID {
		t.Errorf("ListWorkloads(dcop) = %+v", ws)
	}
}

func ids(rs []runtypes.Run) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, ",")
}

func TestIDsAreUniqueShortURLSafeAndNotSequential(t *testing.T) {
	const n = 20000
	seen := make(map[string]bool, n)
	var list []string
	for i := 0; i < n; i++ {
		id := NewID()
		if len(id) != IDLen {
			t.Fatalf("ID %q has length %d", id, len(id))
		}
		for _, c := range id {
			if !strings.ContainsRune(idAlphabet, c) {
				t.Fatalf("ID %q has %q outside lowercase base32", id, c)
			}
		}
		if seen[id] {
			t.Fatalf("ID %q drawn twice in %d", id, i)
		}
		seen[id] = true
		list = append(list, id)
	}
	// Consecutive IDs are not ordered: about half rise, half fall.
	rises := 0
	for i := 1; i < len(list); i++ {
		if list[i] > list[i-1] {
			rises++
		}
	}
	if rises < n*4/10 || rises > n*6/10 {
		t.Errorf("%d of %d consecutive IDs rise: looks sequential", rises, n)
	}
	// Each position uses the whole alphabet.
	for pos := 0; pos < IDLen; pos++ {
		chars := map[byte]bool{}
		for _, id := range list[:2000] {
			chars[id[pos]] = true
		}
		if len(chars) != len(idAlphabet) {
			t.Errorf("position %d uses %d of %d characters", pos, len(chars), len(idAlphabet))
		}
	}

	s, _ := openTemp(t)
	w := addWorkload(t, s, "eapm")
	r1, r2 := addRun(t, s, w), addRun(t, s, w)
	got := []string{w.ID, r1.ID, r2.ID}
	sort.Strings(got)
	if got[0] == got[1] || got[1] == got[2] || len(r1.ID) != IDLen {
		t.Errorf("stored IDs %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestOpenInMemoryKeepsOneDatabase(t *testing.T) {
	s, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := addWorkload(t, s, "eapm")
	if _, err := s.GetWorkload(context.Background(), w.ID); err != nil {
		t.Fatalf("in-memory store lost its workload: %v", err)
	}
	if _, err := Open("bad?name.db"); errs.FieldOf(err) != "db" {
		t.Errorf("Open of a name with '?': %v, want an error on field db", err)
	}
}
