package handlers

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"schedlab/bundle"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/store"
)

// finishedSweep runs a small EAPM sweep (2 instances × 2 variants) to the
// end and returns its experiment.
func finishedSweep(t *testing.T, a *app) apiExperiment {
	t.Helper()
	def := `{"name": "bundle sweep", "strategy": "eapm", "tags": ["shared"], "notes": "to *share*",
	 "workload": {"preset": "zhang2022-case1", "grid": {"instance": [0, 1]}},
	 "variants": ["online", "greedy-min-energy"], "grid": {"gamma": [1.3]}}`
	return finishedExperiment(t, a, def)
}

// finishedExperiment starts the experiment def and returns it once done.
func finishedExperiment(t *testing.T, a *app, def string) apiExperiment {
	t.Helper()
	status, b := a.postJSON(t, "/api/experiments", def)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, b)
	}
	var e apiExperiment
	json.Unmarshal(b, &e)
	for deadline := time.Now().Add(60 * time.Second); e.Status != "done"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("experiment still %s", e.Status)
		}
		_, b = a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
		json.Unmarshal(b, &e)
	}
	return e
}

func get(t *testing.T, a *app, path string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(a.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// reportOf is what a run page shows of its run and report, without
// scripts (whose chart IDs are random) and per-request attributes.
func reportOf(t *testing.T, page []byte) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	doc.Find("script").Remove()
	var out []string
	doc.Find(`[data-testid=run-info], [data-testid=report]`).Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.Join(strings.Fields(s.Text()), " "))
	})
	doc.Find(`[data-testid=report] [data-kind]`).Each(func(_ int, s *goquery.Selection) {
		k, _ := s.Attr("data-kind")
		title, _ := s.Attr("data-title")
		out = append(out, k+":"+title)
	})
	return strings.Join(out, "\n")
}

func TestExperimentBundleShowsTheSamePagesOnAnotherServer(t *testing.T) {
	a := newApp(t, "", 0)
	e := finishedSweep(t, a)

	// The experiment page links its bundle.
	_, page := a.do(t, http.MethodGet, "/experiments/"+e.ID, "", nil)
	if href, _ := parseHTML(t, page).Find(`[data-testid=experiment-bundle]`).Attr("href"); href != "/experiments/"+e.ID+"/bundle" {
		t.Errorf("bundle link %q", href)
	}
	resp, file := get(t, a, "/experiments/"+e.ID+"/bundle")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/gzip" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="`+e.ID+`.schedlab-experiment.json.gz"` ||
		resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("download: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, api := get(t, a, "/api/experiments/"+e.ID+"/bundle"); resp.StatusCode != http.StatusOK || len(api) == 0 {
		t.Errorf("API download: %d, %d bytes", resp.StatusCode, len(api))
	}
	// An unknown experiment is an error, not an attachment.
	if resp, _ := get(t, a, "/api/experiments/nosuchid22/bundle"); resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Disposition") != "" {
		t.Errorf("unknown experiment: %d %v", resp.StatusCode, resp.Header)
	}

	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	t.Logf("bundle of %d runs: %d bytes, %d decompressed", e.RunsTotal, len(file), len(plain))

	b := newApp(t, "", 0)
	status, body := b.do(t, http.MethodPost, "/api/experiments/import", "application/gzip", bytes.NewReader(file))
	if status != http.StatusCreated {
		t.Fatalf("import: %d %s", status, body)
	}
	var got apiImported
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != e.ID || got.URL != "/experiments/"+e.ID || got.RunsTotal != 4 || got.RunsDone != 4 || got.Status != "done" ||
		got.Imported.Runs != 4 || got.Imported.Workloads != 2 || got.Imported.Schedlab != bundle.CurrentBuild() {
		t.Errorf("import answered %s", body)
	}
	for _, path := range []string{"/api/experiments/" + e.ID, "/api/experiments/" + e.ID + "/results",
		"/api/experiments/" + e.ID + "/results?keep=gamma", "/api/experiments/" + e.ID + "/pivot.csv?metric=objective&rows=workload.instance&cols=variant"} {
		_, want := a.do(t, http.MethodGet, path, "", nil)
		_, have := b.do(t, http.MethodGet, path, "", nil)
		if !bytes.Equal(have, want) {
			t.Errorf("%s differs after import:\n%s\nwant\n%s", path, have, want)
		}
	}
	runs, err := a.store.ExperimentRuns(context.Background(), e.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		_, want := a.do(t, http.MethodGet, "/api/runs/"+r.RunID+"/report", "", nil)
		_, have := b.do(t, http.MethodGet, "/api/runs/"+r.RunID+"/report", "", nil)
		if !bytes.Equal(have, want) || len(want) < 100 {
			t.Errorf("run %s: report differs after import", r.RunID)
		}
		_, wantPage := a.do(t, http.MethodGet, "/runs/"+r.RunID, "", nil)
		status, havePage := b.do(t, http.MethodGet, "/runs/"+r.RunID, "", nil)
		if w, h := reportOf(t, wantPage), reportOf(t, havePage); status != http.StatusOK || h != w || !strings.Contains(w, "report") && len(w) < 100 {
			t.Errorf("run %s page differs after import (%d):\n%s\nwant\n%s", r.RunID, status, h, w)
		}
	}
	// The experiment pages match too (the same plot and rows).
	path := "/experiments/" + e.ID + "?metric=objective&x=workload.instance"
	_, wantPage := a.do(t, http.MethodGet, path, "", nil)
	_, havePage := b.do(t, http.MethodGet, path, "", nil)
	text := func(p []byte) string {
		d := parseHTML(t, p)
		d.Find("script").Remove()
		return strings.Join(strings.Fields(d.Find(`[data-testid=experiment-results]`).Text()), " ")
	}
	if text(wantPage) == "" || text(havePage) != text(wantPage) {
		t.Errorf("experiment page differs after import")
	}
}

// counts is what an import could change, as the lists show it.
func counts(t *testing.T, a *app) string {
	t.Helper()
	es, _, err := a.store.ListExperimentsPage(context.Background(), store.ExperimentFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d experiments, %d runs, %d workloads", len(es), a.countRuns(t), a.countWorkloads(t))
}

// editBundle decompresses a bundle, edits line i (0 header, 1 experiment,
// then workloads, then runs) and compresses it again.
func editBundle(t *testing.T, file []byte, edit func(lines []string) []string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	lines := edit(strings.Split(strings.TrimSuffix(string(plain), "\n"), "\n"))
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	return buf.Bytes()
}

func TestBundleImportRefusalsChangeNothing(t *testing.T) {
	a := newApp(t, "", 0)
	e := finishedSweep(t, a)
	_, file := get(t, a, "/api/experiments/"+e.ID+"/bundle")

	b := newApp(t, "", 0)
	b.upload(t) // a workload already there
	if status, body := b.do(t, http.MethodPost, "/api/experiments/import", "application/gzip", bytes.NewReader(file)); status != http.StatusCreated {
		t.Fatalf("import: %d %s", status, body)
	}
	before := counts(t, b)
	replace := func(line int, old, new string) []byte {
		return editBundle(t, file, func(ls []string) []string {
			if !strings.Contains(ls[line], old) {
				t.Fatalf("no %s in line %d", old, line)
			}
			ls[line] = strings.Replace(ls[line], old, new, 1)
			return ls
		})
	}
	// A new experiment ID with the same runs.
	other := func(f []byte) []byte {
		return editBundle(t, f, func(ls []string) []string {
			ls[1] = strings.Replace(ls[1], `"id":"`+e.ID+`"`, `"id":"zzzzzzzzzz"`, 1)
			return ls
		})
	}
	// On the server that has the experiment: IDs already there.
	fresh := newApp(t, "", 0)
	fresh.upload(t)
	freshBefore := counts(t, fresh)
	for _, c := range []struct {
		name   string
		on     *app
		body   []byte
		ctype  string
		status int
		says   string
	}{
		{"the same bundle again", b, file, "application/gzip", http.StatusConflict, "experiment " + e.ID + " is already in this database"},
		{"its runs under another experiment ID", b, other(file), "application/gzip", http.StatusConflict, "is already in this database"},
		// Refused by the reader, most after some rows were inserted.
		{"tampered sha256", fresh, replace(2, `"sha256":"`, `"sha256":"f`), "application/gzip", http.StatusBadRequest, "does not match the data"},
		{"truncated gzip", fresh, file[:len(file)-12], "application/gzip", http.StatusBadRequest, "truncated"},
		{"unknown field", fresh, replace(5, `"seed":`, `"colour":1,"seed":`), "application/gzip", http.StatusBadRequest, `unknown field \"colour\"`},
		{"a position twice", fresh, replace(5, `"position":1`, `"position":0`), "application/gzip", http.StatusBadRequest, "position 0 is given twice"},
		{"a run missing", fresh, editBundle(t, file, func(ls []string) []string { return ls[:len(ls)-1] }), "application/gzip", http.StatusBadRequest, "after 3 runs, runs_total is 4"},
		// Reports are checked as a run's are before anything is stored.
		{"a report whose metrics are a string", fresh, replace(5, `"report":{"metrics":[`, `"report":{"metrics":"x","was":[`), "application/gzip", http.StatusBadRequest,
			`: metrics: must be a list, got JSON string`},
		{"a report of 100,000 metrics", fresh, replace(5, `"report":{"metrics":[`, `"report":{"metrics":[`+strings.Repeat(`{"name":"m","value":1},`, 100_000)), "application/gzip", http.StatusBadRequest,
			" metrics, over the limit of 1000"},
		{"a report with a heat map of more rows than labels", fresh, replace(5, `"report":{"metrics":[`, `"report":{"heatmaps":[{"title":"h","x":["a"],"y":[],"values":[[1]]}],"metrics":[`), "application/gzip", http.StatusBadRequest,
			`has 1 rows for 0 labels`},
		{"not gzip", fresh, []byte(`{"header":{}}`), "application/gzip", http.StatusBadRequest, "not a gzip file"},
		{"as JSON", fresh, file, "application/json", http.StatusUnsupportedMediaType, "application/gzip"},
		{"as text", fresh, file, "text/plain", http.StatusUnsupportedMediaType, "application/gzip"},
	} {
		status, body := c.on.do(t, http.MethodPost, "/api/experiments/import", c.ctype, bytes.NewReader(c.body))
		if status != c.status || !strings.Contains(string(body), c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, status, body, c.status, c.says)
		}
		want := before
		if c.on == fresh {
			want = freshBefore
		}
		if got := counts(t, c.on); got != want {
			t.Errorf("%s changed the database: %s, was %s", c.name, got, want)
		}
	}

	// A gzip bomb: 256 MiB of one report from a 256 KiB body, on a server
	// whose upload limit is 1 MiB; 413 naming the limit.
	small := newApp(t, "", 1<<20)
	var bomb bytes.Buffer
	bomb.Write(editBundle(t, file, func(ls []string) []string { return ls[:4] }))
	zw := gzip.NewWriter(&bomb)
	zw.Write([]byte(`{"run":{"report":{"x":"`))
	zw.Close()
	var mib bytes.Buffer
	zw = gzip.NewWriter(&mib)
	zw.Write(bytes.Repeat([]byte("a"), 1<<20))
	zw.Close()
	for range 256 {
		bomb.Write(mib.Bytes())
	}
	before = counts(t, small)
	status, body := small.do(t, http.MethodPost, "/api/experiments/import", "application/gzip", &bomb)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "limit of 1 MiB") {
		t.Errorf("gzip bomb: %d %s", status, body)
	}
	if got := counts(t, small); got != before {
		t.Errorf("the bomb changed the database: %s, was %s", got, before)
	}
}

func TestBundleImportForm(t *testing.T) {
	a := newApp(t, "", 0)
	e := finishedSweep(t, a)
	_, file := get(t, a, "/api/experiments/"+e.ID+"/bundle")

	b := newApp(t, "", 0)
	_, page := b.do(t, http.MethodGet, "/experiments", "", nil)
	form := parseHTML(t, page).Find(`form[data-testid=import-bundle-form]`)
	if action, _ := form.Attr("action"); action != "/experiments/import" || form.Find(`input[type=file][name=bundle]`).Length() != 1 ||
		form.Find(`input[name=_csrf]`).Length() != 1 {
		t.Fatalf("no import form with a file and a CSRF field on /experiments")
	}
	body, ctype := multipartBody(t, nil, map[string]string{"bundle": string(file)})
	resp := noRedirect(t, http.MethodPost, b.URL+"/experiments/import", ctype, body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/experiments/"+e.ID {
		t.Fatalf("form import: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, page = b.do(t, http.MethodGet, "/experiments", "", nil)
	if !strings.Contains(string(page), "bundle sweep") {
		t.Error("the imported experiment is not listed")
	}
	// Without the CSRF token: refused.
	body, ctype = multipartBody(t, nil, map[string]string{"bundle": string(file)})
	req, _ := http.NewRequest(http.MethodPost, b.URL+"/experiments/import", body)
	req.Header.Set("Content-Type", ctype)
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusForbidden {
		t.Errorf("import without CSRF: %d", r2.StatusCode)
	}
}

// TestDamagedStoredReportShowsItsErrorInPlace: a report stored before
// imports were checked (put in the store directly, as an old import did)
// draws its page with an error where the bad part would be, and its other
// parts as usual; its table API answers with the reason, never 500.
func TestDamagedStoredReportShowsItsErrorInPlace(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := context.Background()
	a.runner.Shutdown(ctx) // nothing claims the runs but this test
	stored := func(report string) string {
		t.Helper()
		run, err := a.store.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: "eapm"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.store.ClaimNext(ctx); err != nil {
			t.Fatal(err)
		}
		if err := a.store.Finish(ctx, run.ID, runtypes.StatusDone, json.RawMessage(report), "", ""); err != nil {
			t.Fatal(err)
		}
		return run.ID
	}
	badMetrics := stored(`{"metrics":"x","tables":[{"title":"kept","columns":["a"],"rows":[[1]]}]}`)
	badTables := stored(`{"metrics":[{"name":"makespan","value":3}],"tables":{"title":"t"}}`)
	for _, c := range []struct{ id, says, keeps string }{
		{badMetrics, "metrics: must be a list, got JSON string", "kept"},
		{badTables, "tables: must be a list, got JSON object", "makespan"},
	} {
		status, page := a.do(t, http.MethodGet, "/runs/"+c.id, "", nil)
		doc := parseHTML(t, page)
		if status != http.StatusOK || !strings.Contains(doc.Find("[data-testid=report-part-error]").Text(), c.says) {
			t.Errorf("run page of %s: %d, want 200 with an error part saying %q\n%s", c.id, status, c.says, page)
		}
		if !strings.Contains(doc.Find("[data-testid=report]").Text(), c.keeps) {
			t.Errorf("run page of %s does not show the readable part %q", c.id, c.keeps)
		}
		if strings.Contains(string(page), "solvers.") || strings.Contains(string(page), "Go value") {
			t.Errorf("run page of %s names Go types", c.id)
		}
	}
	if status, body := a.do(t, http.MethodGet, "/api/runs/"+badMetrics+"/tables/0", "", nil); status != http.StatusOK {
		t.Errorf("the readable table of a report with bad metrics: %d %s", status, body)
	}
	status, body := a.do(t, http.MethodGet, "/api/runs/"+badTables+"/tables/0", "", nil)
	if status != http.StatusNotFound || !strings.Contains(string(body), "tables: must be a list, got JSON object") {
		t.Errorf("a table of a report whose tables are damaged: %d %s, want 404 saying why", status, body)
	}
	// The compare page draws the readable runs and says which report is
	// damaged, and a report of many metrics is cut, not drawn whole.
	var many strings.Builder
	many.WriteString(`{"metrics":[`)
	for i := range report.MaxMetrics + 500 {
		if i > 0 {
			many.WriteByte(',')
		}
		fmt.Fprintf(&many, `{"name":"m%d","value":%d}`, i, i)
	}
	many.WriteString(`]}`)
	tooMany := stored(many.String())
	good := stored(`{"metrics":[{"name":"makespan","value":4}]}`)
	status, page := a.do(t, http.MethodGet, "/compare?runs="+badMetrics+","+good+","+tooMany, "", nil)
	doc := parseHTML(t, page)
	notes := doc.Find("body").Text()
	if status != http.StatusOK || !strings.Contains(notes, "Run "+badMetrics+": part of its stored report cannot be drawn (metrics: must be a list, got JSON string)") ||
		!strings.Contains(notes, fmt.Sprintf("Run %s: part of its stored report cannot be drawn (metrics: %d, over the limit", tooMany, report.MaxMetrics+500)) {
		t.Errorf("compare of damaged reports: %d\n%s", status, notes)
	}
	if doc.Find(`[data-metric="m1499"]`).Length() != 0 || !strings.Contains(notes, "makespan") {
		t.Errorf("compare draws the metrics over the limit, or not the readable ones")
	}
}
