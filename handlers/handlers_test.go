package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/eapm"
	"schedlab/solvers/registry"
	"schedlab/store"
)

type app struct {
	*httptest.Server
	store  *store.Store
	runner *runner.Runner
	server *Server
	fake   *fakeStore // the store of newFakeApp (store and runner nil)
}

// newApp serves the whole application over a fresh database; dbPath may be
// given to reopen an existing one.
func newApp(t testing.TB, dbPath string, maxUpload int64) *app {
	t.Helper()
	return newAppWith(t, dbPath, maxUpload, registry.All())
}

// newAppWith serves the application with only the given strategies built,
// so that tests of unbuilt families do not depend on what is built today.
func newAppWith(t testing.TB, dbPath string, maxUpload int64, strategies []*solvers.Strategy) *app {
	t.Helper()
	return newAppOpt(t, dbPath, Options{MaxUpload: maxUpload}, strategies)
}

// emptyDB is the file of a database store.Open has just created (its
// migrations are SQL only: no secret, no row), made once for the package:
// a test's fresh database is a copy of it, which saves running every
// migration for each of the package's hundred-odd servers.
var emptyDB = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "handlers-empty-db")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "empty.db")
	st, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

// newAppOpt serves the application with the given Options.
func newAppOpt(t testing.TB, dbPath string, opt Options, strategies []*solvers.Strategy) *app {
	t.Helper()
	if dbPath == "" {
		dbPath = filepath.Join(t.TempDir(), "test.db")
		b, err := emptyDB()
		if err == nil {
			err = os.WriteFile(dbPath, b, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lookup := func(name string) (*solvers.Strategy, bool) {
		for _, s := range strategies {
			if s.Info.Name == name {
				return s, true
			}
		}
		return nil, false
	}
	if _, err := st.SetMetricNeeds(ctx, runner.MetricNeeds(strategies)); err != nil {
		t.Fatal(err)
	}
	rn := runner.New(st, lookup, runner.Options{Workers: 2})
	if err := rn.Start(ctx); err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	server := New(st, rn, strategies, opt)
	server.Routes(e)
	srv := httptest.NewServer(e)
	t.Cleanup(func() {
		srv.Close()
		sctx, c := context.WithTimeout(context.Background(), 5*time.Second)
		defer c()
		rn.Shutdown(sctx)
		cancel()
		st.Close()
	})
	return &app{Server: srv, store: st, runner: rn, server: server}
}

// multipartBody builds an upload of fields and files (field → content).
func multipartBody(t testing.TB, fields map[string]string, files map[string]string) (io.Reader, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	for field, content := range files {
		name := field + ".csv"
		if field == "file" {
			name = "workload.json"
		}
		fw, err := mw.CreateFormFile(field, name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(content))
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func (a *app) do(t testing.TB, method, path, ctype string, body io.Reader) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, a.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	asPage(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// testCSRF is the CSRF token the tests' page requests carry, as a browser
// does after its first page: the same value in the cookie and the form.
const testCSRF = "test-csrf-token-0123456789abcdefghijklmnop"

// asPage makes req look like a form post from one of schedlab's pages: it
// carries the CSRF cookie and the same token (as the header a script
// would send; forms send it as the _csrf field).
func asPage(req *http.Request) {
	req.AddCookie(&http.Cookie{Name: "schedlab_csrf", Value: testCSRF})
	req.Header.Set("X-CSRF-Token", testCSRF)
}

// noRedirect posts from a page without following the redirect.
func noRedirect(t testing.TB, method, url, ctype string, body io.Reader) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	asPage(req)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func (a *app) postJSON(t testing.TB, path, body string) (int, []byte) {
	return a.do(t, http.MethodPost, path, "application/json", strings.NewReader(body))
}

func (a *app) countWorkloads(t testing.TB) int {
	if a.fake != nil {
		a.fake.mu.Lock()
		defer a.fake.mu.Unlock()
		return len(a.fake.workloads)
	}
	ws, err := a.store.ListWorkloads(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(ws)
}

func (a *app) countRuns(t testing.TB) int {
	if a.fake != nil {
		a.fake.mu.Lock()
		defer a.fake.mu.Unlock()
		return len(a.fake.runs)
	}
	rs, err := a.store.ListRuns(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(rs)
}

const (
	goodETC   = "10,20\n30,15\n"
	goodAPC   = "100,60\n80,90\n"
	goodUsers = "type,tasks\n0,50\n1,80\n"
)

func TestUploadRejectsBadInputAndStoresNothing(t *testing.T) {
	a := newFakeApp(t, 4<<10)
	big := strings.Repeat("10,20\n", 2000)
	cases := []struct {
		name       string
		strategy   string
		files      map[string]string
		status     int
		fieldHas   string // the error's field must contain this
		messageHas string // and its message this
	}{
		{"malformed csv", "eapm", map[string]string{"etc": "10,\"20\n30,15\n", "apc": goodAPC, "users": goodUsers}, 400, "etc", ""},
		{"mismatched shapes", "eapm", map[string]string{"etc": goodETC, "apc": "100,60,5\n80,90,5\n", "users": goodUsers}, 400, "apc", ""},
		{"zero time", "eapm", map[string]string{"etc": "10,0\n30,15\n", "apc": goodAPC, "users": goodUsers}, 400, "etc", ""},
		{"negative time", "eapm", map[string]string{"etc": "10,-5\n30,15\n", "apc": goodAPC, "users": goodUsers}, 400, "etc", ""},
		{"negative tasks", "eapm", map[string]string{"etc": goodETC, "apc": goodAPC, "users": "type,tasks\n0,-3\n"}, 400, "users", ""},
		{"unknown task type", "eapm", map[string]string{"etc": goodETC, "apc": goodAPC, "users": "type,tasks\n7,10\n"}, 400, "users", ""},
		{"missing users file", "eapm", map[string]string{"etc": goodETC, "apc": goodAPC}, 400, "users", ""},
		{"no file at all", "eapm", map[string]string{}, 400, "file", "no file"},
		{"malformed json", "eapm", map[string]string{"file": `{"etc": [[1,2]`}, 400, "workload.json", ""},
		{"json with a wrong field", "eapm", map[string]string{"file": `{"etcs": [[1]]}`}, 400, "workload.json", ""},
		{"unknown strategy", "nosuch", map[string]string{"etc": goodETC, "apc": goodAPC, "users": goodUsers}, 404, "strategy", "unknown strategy"},
		{"missing strategy", "", map[string]string{"file": "{}"}, 400, "strategy", "missing"},
		{"upload over the size limit", "eapm", map[string]string{"etc": big, "apc": goodAPC, "users": goodUsers}, 413, "file", "limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, ctype := multipartBody(t, map[string]string{"strategy": tc.strategy}, tc.files)
			status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, b)
			}
			var e apiError
			if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
				t.Fatalf("error body %s is not {error, field}", b)
			}
			if !strings.Contains(e.Field, tc.fieldHas) {
				t.Errorf("field %q does not name %q (error %q)", e.Field, tc.fieldHas, e.Error)
			}
			if !strings.Contains(e.Error, tc.messageHas) {
				t.Errorf("error %q does not say %q", e.Error, tc.messageHas)
			}
			if n := a.countWorkloads(t); n != 0 {
				t.Errorf("%d workloads stored after a rejected upload", n)
			}
		})
	}
}

func TestUploadPageShowsTheErrorAboveTheForm(t *testing.T) {
	a := newFakeApp(t, 0)
	body, ctype := multipartBody(t, map[string]string{"strategy": "eapm"},
		map[string]string{"etc": goodETC, "apc": goodAPC, "users": "type,tasks\n0,-3\n"})
	status, b := a.do(t, http.MethodPost, "/workloads", ctype, body)
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", status)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	msg := doc.Find("[data-testid=form-error]").Text()
	if !strings.Contains(msg, "users") || !strings.Contains(msg, "line 2") {
		t.Errorf("form error %q does not name the file and line", msg)
	}
	if doc.Find("[data-testid=upload-form]").Length() != 1 {
		t.Error("the upload form is not shown again")
	}
}

// upload stores the good three-file workload and returns its id.
// upload stores a new tiny EAPM workload (a copy each call: copy=1) and
// returns its id.
func (a *app) upload(t testing.TB) string {
	t.Helper()
	return a.uploadNamed(t, "tiny")
}

// uploadNamed uploads the tiny EAPM workload under name and returns its ID.
func (a *app) uploadNamed(t testing.TB, name string) string {
	t.Helper()
	body, ctype := multipartBody(t, map[string]string{"strategy": "eapm", "name": name, "copy": "1"},
		map[string]string{"etc": goodETC, "apc": goodAPC, "users": goodUsers})
	status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	return w.ID
}

// waitRun polls the API until the run leaves queued/running.
func (a *app) waitRun(t testing.TB, id string) apiRun {
	t.Helper()
	var r apiRun
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, b := a.do(t, http.MethodGet, "/api/runs/"+id, "", nil)
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("GET /api/runs/%s: %s", id, b)
		}
		if r.Status != runtypes.StatusQueued && r.Status != runtypes.StatusRunning {
			return r
		}
	}
	t.Fatalf("run %s still %s", id, r.Status)
	return r
}

func (a *app) startRun(t testing.TB, body string) apiRun {
	t.Helper()
	status, b := a.postJSON(t, "/api/runs", body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/runs %s: %d %s", body, status, b)
	}
	var r apiRun
	json.Unmarshal(b, &r)
	return a.waitRun(t, r.ID)
}

func TestGenerateRunAndFetchReport(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/workloads/generate",
		`{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":3},"seed":1}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	run := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"eapm","variant":"online","params":{"gamma":1.2}}`)
	if run.Status != runtypes.StatusDone {
		t.Fatalf("run ended %s: %s", run.Status, run.Error)
	}
	if run.Params["gamma"] != "1.2" || run.Params["c"] == "" {
		t.Errorf("stored params %v: want gamma=1.2 and defaults filled", run.Params)
	}
	status, b = a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/report", "", nil)
	if status != http.StatusOK {
		t.Fatalf("report: %d %s", status, b)
	}
	var rep struct {
		Metrics []struct {
			Name   string  `json:"name"`
			Value  float64 `json:"value"`
			Better string  `json:"better"`
		} `json:"metrics"`
		Tables []json.RawMessage `json:"tables"`
		Series []json.RawMessage `json:"series"`
		Gantts []json.RawMessage `json:"gantts"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range rep.Metrics {
		got[m.Name] = true
	}
	for _, name := range []string{"objective", "makespan", "energy", "revenue", "upper_bound", "bound_ratio", "wall_ms"} {
		if !got[name] {
			t.Errorf("report lacks metric %s", name)
		}
	}
	if len(rep.Gantts) == 0 || len(rep.Series) == 0 {
		t.Errorf("report has %d gantts and %d plots", len(rep.Gantts), len(rep.Series))
	}
}

func TestStartRunRejectsBadInputAndStoresNothing(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	cases := []struct {
		name, body string
		status     int
		field      string
	}{
		{"unknown variant", `{"workload_id":"` + id + `","variant":"magic"}`, 400, "variant"},
		{"bad number", `{"workload_id":"` + id + `","params":{"gamma":"abc"}}`, 400, "gamma"},
		{"unknown parameter", `{"workload_id":"` + id + `","params":{"gama":1.2}}`, 400, "gama"},
		{"missing workload", `{"strategy":"eapm"}`, 400, "workload_id"},
		{"no such workload", `{"workload_id":"zzzzzzzzzz","strategy":"eapm"}`, 404, "workload"},
		{"no such workload, no strategy", `{"workload_id":"zzzzzzzzzz"}`, 404, "workload_id"},
		{"unknown strategy", `{"workload_id":"` + id + `","strategy":"nosuch"}`, 404, "strategy"},
		{"unknown field", `{"workload_id":"` + id + `","colour":"red"}`, 400, "colour"},
		{"malformed json", `{"workload_id":`, 400, "body"},
		{"wrong type", `{"workload_id":"` + id + `","seed":"abc"}`, 400, "seed"},
		{"params not an object", `{"workload_id":"` + id + `","params":[1]}`, 400, "params"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, b := a.postJSON(t, "/api/runs", tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, b)
			}
			var e apiError
			json.Unmarshal(b, &e)
			if !strings.Contains(e.Field, tc.field) {
				t.Errorf("field %q, want it to name %q (error %q)", e.Field, tc.field, e.Error)
			}
			if strings.Contains(e.Error, "Go ") || strings.Contains(e.Error, "int64") || strings.Contains(e.Error, "handlers.") {
				t.Errorf("error shows Go's names to the user: %q", e.Error)
			}
			if n := a.countRuns(t); n != 0 {
				t.Errorf("%d runs stored after a rejected start", n)
			}
		})
	}
}

func TestUnknownRunIs404JSON(t *testing.T) {
	a := newFakeApp(t, 0)
	status, b := a.do(t, http.MethodGet, "/api/runs/nosuchrun", "", nil)
	var e apiError
	if status != http.StatusNotFound || json.Unmarshal(b, &e) != nil || e.Error == "" {
		t.Fatalf("GET unknown run: %d %s, want 404 with {error}", status, b)
	}
	status, b = a.do(t, http.MethodGet, "/runs/nosuchrun", "", nil)
	if status != http.StatusNotFound || !bytes.Contains(b, []byte(`data-testid="error"`)) {
		t.Fatalf("page for unknown run: %d, want the 404 page", status)
	}
}

func TestRunPageRendersTheReportAndCSV(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	run := a.startRun(t, `{"workload_id":"`+id+`"}`)
	status, b := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	if status != http.StatusOK {
		t.Fatalf("run page: %d", status)
	}
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(b))
	if doc.Find("[data-testid=run-status]").Text() != "done" {
		t.Errorf("status badge %q", doc.Find("[data-testid=run-status]").Text())
	}
	if n := doc.Find("[data-testid=metric]").Length(); n < 7 {
		t.Errorf("%d metric cards, want ≥ 7", n)
	}
	if doc.Find(`[data-testid=chart][data-kind=gantt]`).Length() == 0 {
		t.Error("no Gantt chart on the run page")
	}
	if doc.Find(`[data-testid=chart][data-kind=plot]`).Length() == 0 {
		t.Error("no plot on the run page")
	}
	if doc.Find("[data-testid=progress]").Length() != 0 {
		t.Error("a finished run still shows a progress bar")
	}
	href, ok := doc.Find("[data-testid=table-csv]").First().Attr("href")
	if !ok {
		t.Fatal("no CSV download link")
	}
	status, csvBody := a.do(t, http.MethodGet, href, "", nil)
	title := doc.Find("[data-testid=report-table]").First().AttrOr("data-title", "")
	firstHeader := doc.Find("[data-testid=report-table]").First().Find("th").First().Text()
	if status != http.StatusOK || !strings.HasPrefix(string(csvBody), firstHeader) {
		t.Errorf("CSV of table %q: %d, starts %q, want the header %q", title, status, csvBody[:min(len(csvBody), 40)], firstHeader)
	}
}

func TestRunSurvivesRestartAndInterruptedRunCanBeRerun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "restart.db")
	a := newApp(t, db, 0)
	id := a.upload(t)
	done := a.startRun(t, `{"workload_id":"`+id+`"}`)
	// A run that was running when the process died: queued after the
	// workers stopped, then claimed and never finished.
	ctx := context.Background()
	a.runner.Shutdown(ctx)
	a.Close()
	if _, err := a.store.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: id, Strategy: "eapm", Variant: "online",
		Params: done.Params}); err != nil {
		t.Fatal(err)
	}
	a.store.Close()

	// Simulate the crash: mark the run running directly, then start again.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := st.ClaimNext(ctx)
	if err != nil || claimed == nil {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	if err := st.SetProgress(ctx, claimed.ID, 12, 30, "user 12 of 30"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	b := newApp(t, db, 0)
	if r := b.waitRun(t, done.ID); r.Status != runtypes.StatusDone {
		t.Errorf("finished run is %s after a restart", r.Status)
	}
	_, rep := b.do(t, http.MethodGet, "/api/runs/"+done.ID+"/report", "", nil)
	if !bytes.Contains(rep, []byte(`"objective"`)) {
		t.Error("report lost across the restart")
	}
	r := b.waitRun(t, claimed.ID)
	if r.Status != runtypes.StatusInterrupted {
		t.Fatalf("run cut off by the crash is %s, want interrupted", r.Status)
	}
	_, page := b.do(t, http.MethodGet, "/runs/"+claimed.ID, "", nil)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if doc.Find("[data-testid=interrupted]").Length() != 1 || doc.Find("[data-testid=rerun]").Length() != 1 {
		t.Fatal("interrupted run page lacks the notice or the re-run button")
	}
	// It did not finish: the page says where it got to, not a finish time.
	if got := doc.Find("[data-testid=interrupted-progress]").Text(); !strings.Contains(got, "12 of 30 (40 %)") || !strings.Contains(got, "user 12 of 30") {
		t.Errorf("the progress the run reached reads %q", got)
	}
	if !strings.Contains(doc.Find("[data-testid=interrupted-when]").Text(), "noticed at its restart") {
		t.Error("the interrupted run's end is shown as a finish time")
	}
	resp := noRedirect(t, http.MethodPost, b.URL+"/runs/"+claimed.ID+"/rerun", "application/x-www-form-urlencoded", nil)
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/runs/") {
		t.Fatalf("re-run: %d to %q", resp.StatusCode, loc)
	}
	again := b.waitRun(t, strings.TrimPrefix(loc, "/runs/"))
	if again.Status != runtypes.StatusDone || again.RerunOf != claimed.ID {
		t.Errorf("re-run ended %s, rerun_of %q", again.Status, again.RerunOf)
	}
}

func TestCompareRejectsUnknownRuns(t *testing.T) {
	a := newFakeApp(t, 0)
	status, _ := a.do(t, http.MethodGet, "/compare?runs=nope1,nope2", "", nil)
	if status != http.StatusNotFound {
		t.Errorf("compare of unknown runs: %d, want 404", status)
	}
	status, _ = a.do(t, http.MethodGet, "/compare", "", nil)
	if status != http.StatusBadRequest {
		t.Errorf("compare of nothing: %d, want 400", status)
	}
}

func TestComparePageMarksBestAndOverlaysPlots(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	r1 := a.startRun(t, `{"workload_id":"`+id+`","variant":"online"}`)
	r2 := a.startRun(t, `{"workload_id":"`+id+`","variant":"average"}`)
	status, b := a.do(t, http.MethodGet, "/compare?runs="+r1.ID+"&runs="+r2.ID, "", nil)
	if status != http.StatusOK {
		t.Fatalf("compare: %d", status)
	}
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(b))
	row := doc.Find(`[data-metric=objective]`)
	if row.Find("td").Length() != 3 {
		t.Fatalf("objective row has %d cells, want name + 2 runs", row.Find("td").Length())
	}
	if row.Find("[data-testid=best]").Length() != 1 {
		t.Error("objective row does not mark exactly one best run")
	}
	panels := doc.Find(`[data-testid=gantt-panels]`)
	if panels.Length() != 1 || panels.Find(`[data-kind=gantt]`).Length() != 2 ||
		panels.Find(`[data-testid=gantt-panel-run]`).Length() != 2 {
		t.Errorf("%d Gantt groups with %d panels, want one group with a panel per run", panels.Length(), panels.Find(`[data-kind=gantt]`).Length())
	}
	if panels.Find(`[data-testid=highlight-moved]`).Length() != 1 || panels.Find(`[data-testid=moved-count]`).Length() != 1 {
		t.Error("the Gantt panels lack the moved-bars toggle or the second panel's count of moved bars")
	}
	// One bar chart per result, ranked where it has a direction; costs
	// apart, never ranked.
	ranked, results := 0, 0
	doc.Find(`[data-testid=compare-metrics] tbody tr[data-metric]`).Each(func(_ int, tr *goquery.Selection) {
		first := tr.Find("td").First().Text()
		if tr.Find(`[data-testid=metric-kind], [data-testid=metric-bound]`).Length() == 0 {
			results++
			if strings.ContainsAny(first, "↑↓") {
				ranked++
			}
		}
	})
	if bars := doc.Find(`[data-testid=metric-bars] [data-testid=metric-bar] [data-kind=bars]`).Length(); ranked == 0 || bars != results {
		t.Errorf("%d result bar charts, want one per result (%d)", bars, results)
	}
	if n := doc.Find(`[data-testid=metric-bars] [data-testid=metric-bar][data-ranked]`).Length(); n != ranked {
		t.Errorf("%d ranked bar charts, want %d", n, ranked)
	}
	if doc.Find(`[data-testid=cost-bars] [data-testid=metric-bar][data-ranked]`).Length() != 0 {
		t.Error("a cost chart is ranked")
	}
	if doc.Find(`[data-testid=metric-bar][data-metric=objective]`).Length() != 1 {
		t.Error("no bar chart for the objective")
	}
}

func TestReproduceRunsTheSeedExperimentAndShowsItOnItsCard(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/reproduce/eapm", `{"params":{"instances":2,"max_n":100,"bounds":"no"}}`)
	if status != http.StatusCreated {
		t.Fatalf("reproduce: %d %s", status, b)
	}
	var r apiRun
	json.Unmarshal(b, &r)
	if r = a.waitRun(t, r.ID); r.Status != runtypes.StatusDone {
		t.Fatalf("reproduce ended %s: %s", r.Status, r.Error)
	}
	_, rep := a.do(t, http.MethodGet, "/api/runs/"+r.ID+"/report", "", nil)
	var report struct {
		Tables []struct {
			Title   string   `json:"title"`
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		} `json:"tables"`
	}
	json.Unmarshal(rep, &report)
	want := "gamma,online,greedy_min_energy,greedy_max_objective,average,upper_bound,raw_online,raw_greedy,paper_online,paper_greedy"
	found := false
	for _, tb := range report.Tables {
		if tb.Title == "Table 1" {
			found = true
			if strings.Join(tb.Columns, ",") != want || len(tb.Rows) != 10 {
				t.Errorf("Table 1 columns %v with %d rows, want %s with 10 rows", tb.Columns, len(tb.Rows), want)
			}
		}
	}
	if !found {
		t.Fatal("no Table 1 in the reproduce report")
	}
	_, page := a.do(t, http.MethodGet, "/reproduce", "", nil)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	card := doc.Find("[data-testid=repro-eapm]")
	if href, _ := card.Find(`[data-testid=repro-open]`).Attr("href"); href != "/runs/"+r.ID {
		t.Errorf("the EAPM card opens %q, want the latest run /runs/%s", href, r.ID)
	}
	if card.Find(`[data-testid=report]`).Length() != 0 {
		t.Error("the EAPM card inlines its whole report: /reproduce should stay a page of cards")
	}
}

// TestAFamilyTheServerLacksIsUnknown serves only EAPM: another family
// is unknown to it (404 naming the known ones), with no card and no
// experiment.
func TestAFamilyTheServerLacksIsUnknown(t *testing.T) {
	a := newAppWith(t, "", 0, []*solvers.Strategy{eapm.New()})
	body, ctype := multipartBody(t, map[string]string{"strategy": "dcop"}, map[string]string{"file": "{}"})
	status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	if status != http.StatusNotFound || !strings.Contains(string(b), `unknown strategy \"dcop\" (known: eapm)`) {
		t.Errorf("upload to a family the server lacks: %d %s, want 404 naming the known ones", status, b)
	}
	if n := a.countWorkloads(t); n != 0 {
		t.Errorf("%d workloads stored", n)
	}
	_, page := a.do(t, http.MethodGet, "/reproduce", "", nil)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if doc.Find("[data-testid=repro-dcop]").Length() != 0 || doc.Find("[data-testid=repro-eapm]").Length() != 1 {
		t.Error("/reproduce shows a card for a family the server lacks, or none for EAPM")
	}
	if status, _ := a.postJSON(t, "/api/reproduce/dcop", `{}`); status != http.StatusNotFound {
		t.Errorf("reproduce of a family the server lacks: %d, want 404", status)
	}
}

func TestCancelStopsARunningExperiment(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/reproduce/eapm", `{}`)
	if status != http.StatusCreated {
		t.Fatalf("reproduce: %d %s", status, b)
	}
	var r apiRun
	json.Unmarshal(b, &r)
	for deadline := time.Now().Add(10 * time.Second); r.Status != runtypes.StatusRunning && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		_, b = a.do(t, http.MethodGet, "/api/runs/"+r.ID, "", nil)
		json.Unmarshal(b, &r)
	}
	status, b = a.postJSON(t, "/api/runs/"+r.ID+"/cancel", "")
	if status != http.StatusOK {
		t.Fatalf("cancel: %d %s", status, b)
	}
	if r = a.waitRun(t, r.ID); r.Status != runtypes.StatusCanceled {
		t.Fatalf("canceled run ended %s", r.Status)
	}
	status, _ = a.postJSON(t, "/api/runs/"+r.ID+"/cancel", "")
	if status != http.StatusConflict {
		t.Errorf("cancel of a finished run: %d, want 409", status)
	}
	status, _ = a.do(t, http.MethodDelete, "/api/runs/"+r.ID, "", nil)
	if status != http.StatusNoContent {
		t.Errorf("delete: %d, want 204", status)
	}
	if status, _ = a.do(t, http.MethodGet, "/api/runs/"+r.ID, "", nil); status != http.StatusNotFound {
		t.Errorf("deleted run still served: %d", status)
	}
}

func TestDownloadedWorkloadUploadsBackUnchanged(t *testing.T) {
	a := newFakeApp(t, 0)
	id := a.upload(t)
	status, data := a.do(t, http.MethodGet, "/api/workloads/"+id+"/data", "", nil)
	if status != http.StatusOK {
		t.Fatalf("download: %d", status)
	}
	body, ctype := multipartBody(t, map[string]string{"strategy": "eapm"}, map[string]string{"file": string(data)})
	status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	// Unchanged, the download is the stored workload again: found, not
	// stored a second time.
	if status != http.StatusOK || !strings.Contains(string(b), `"existing":true`) || !strings.Contains(string(b), id) {
		t.Fatalf("re-upload: %d %s", status, b)
	}
	var first, second apiWorkload
	_, fb := a.do(t, http.MethodGet, "/api/workloads/"+id, "", nil)
	json.Unmarshal(fb, &first)
	json.Unmarshal(b, &second)
	if first.SHA256 != second.SHA256 || first.Summary != second.Summary {
		t.Errorf("round trip changed the workload: %s %q → %s %q", first.SHA256, first.Summary, second.SHA256, second.Summary)
	}
}

func TestDCOPUploadRejectsBadInputAndStoresNothing(t *testing.T) {
	a := newFakeApp(t, 0)
	cases := []struct {
		name, body, field string
	}{
		{"unknown resource", `{"horizon":10,"resources":["A"],"jobs":[{"id":"j1","resources":["B"],"duration":2,"value":1}]}`, "resources"},
		{"duration over the horizon", `{"horizon":3,"resources":["A"],"jobs":[{"id":"j1","resources":["A"],"duration":5,"value":1}]}`, "duration"},
		{"no jobs", `{"horizon":10,"resources":["A"],"jobs":[]}`, "jobs"},
		{"duplicate ids", `{"horizon":10,"resources":["A"],"jobs":[{"id":"j1","resources":["A"],"duration":1,"value":1},{"id":"j1","resources":["A"],"duration":1,"value":1}]}`, "id"},
		{"not JSON", `horizon: 10`, "workload.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, ctype := multipartBody(t, map[string]string{"strategy": "dcop"}, map[string]string{"file": tc.body})
			status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
			var e apiError
			json.Unmarshal(b, &e)
			if status != http.StatusBadRequest || !strings.Contains(e.Field, tc.field) {
				t.Errorf("status %d field %q (error %q), want 400 naming %q", status, e.Field, e.Error, tc.field)
			}
			if n := a.countWorkloads(t); n != 0 {
				t.Errorf("%d workloads stored after a rejected upload", n)
			}
		})
	}
}

func TestDCOPWorkloadExportsForOtherTools(t *testing.T) {
	a := newFakeApp(t, 0)
	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"dcop","preset":"namekata2008","params":{"jobs":8},"seed":2}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	for format, marker := range map[string]string{"pydcop": "variables:", "frodo": "<instance"} {
		status, out := a.do(t, http.MethodGet, "/api/workloads/"+w.ID+"/export/"+format, "", nil)
		if status != http.StatusOK || !strings.Contains(string(out), marker) {
			t.Errorf("export %s: %d, %.80q", format, status, out)
		}
	}
	if status, _ := a.do(t, http.MethodGet, "/api/workloads/"+w.ID+"/export/csv", "", nil); status != http.StatusBadRequest {
		t.Errorf("unknown export format: %d, want 400", status)
	}
	_, page := a.do(t, http.MethodGet, "/workloads/"+w.ID, "", nil)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if doc.Find("[data-testid=export-pydcop]").Length() != 1 || doc.Find("[data-testid=export-frodo]").Length() != 1 {
		t.Error("the workload page lacks the export buttons")
	}
	eapm := a.upload(t)
	if status, _ := a.do(t, http.MethodGet, "/api/workloads/"+eapm+"/export/pydcop", "", nil); status != http.StatusNotFound {
		t.Errorf("export of a strategy without exports: %d, want 404", status)
	}
}
