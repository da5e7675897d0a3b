package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/runtypes"
	"schedlab/solvers/registry"
	"schedlab/store"
)

func (a *app) page(t *testing.T, path string) *goquery.Document {
	t.Helper()
	status, b := a.do(t, http.MethodGet, path, "", nil)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %.300s", path, status, b)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func (a *app) patch(t *testing.T, path, body string) (int, []byte) {
	return a.do(t, http.MethodPatch, path, "application/json", strings.NewReader(body))
}

// hostileNotes is markdown with raw HTML and script links, which must not
// reach the page as markup.
const hostileNotes = "# Result\n\nγ = 1.3 is *better*.\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n" +
	"[click](javascript:alert(3)) [again](JaVaScRiPt:alert(4)) [enc](&#106;avascript:alert(5)) <javascript:alert(6)>\n\n" +
	"[paper](https://example.org/paper)"

// checkNotes asserts the rendered notes in sel are the markdown's safe
// rendering: a heading and emphasis, no script or img element, no
// javascript: link, and the https link kept.
func checkNotes(t *testing.T, sel *goquery.Selection) {
	t.Helper()
	if sel.Length() != 1 {
		t.Fatalf("%d notes panels", sel.Length())
	}
	if sel.Find("h1").Text() != "Result" || sel.Find("em").Text() != "better" {
		t.Errorf("notes not rendered as markdown: %s", must(sel.Html()))
	}
	if n := sel.Find("script, img, [onerror]").Length(); n != 0 {
		t.Errorf("raw HTML reached the page: %s", must(sel.Html()))
	}
	sel.Find("a").Each(func(_ int, a *goquery.Selection) {
		href := strings.ToLower(strings.TrimSpace(a.AttrOr("href", "")))
		if strings.Contains(href, "javascript") {
			t.Errorf("link %q survived", href)
		}
	})
	if sel.Find(`a[href="https://example.org/paper"]`).Length() != 1 {
		t.Errorf("the https link is lost: %s", must(sel.Html()))
	}
}

func must(s string, _ error) string { return s }

func TestRunLabelsEditedOnThePageShowAndFilterTheList(t *testing.T) {
	a := newApp(t, "", 0)
	w := fillRuns(t, a, 3)
	runs, _ := a.store.ListRuns(context.Background(), store.RunFilter{WorkloadID: w.ID})
	id := runs[1].ID

	// A fresh run: an empty panel with its edit form.
	doc := a.page(t, "/runs/"+id)
	if doc.Find(`[data-testid=labels] form[action="/runs/`+id+`/labels"]`).Length() != 1 {
		t.Fatal("no labels form on the run page")
	}
	form := url.Values{"name": {"best γ so far"}, "tags": {"paper, fig:1  paper"}, "notes": {hostileNotes}}
	resp := noRedirect(t, http.MethodPost, a.URL+"/runs/"+id+"/labels", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/runs/"+id {
		t.Fatalf("POST labels: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	doc = a.page(t, "/runs/"+id)
	if got := strings.TrimSpace(doc.Find("[data-testid=labels-name]").Text()); got != "best γ so far" {
		t.Errorf("name %q", got)
	}
	var tags []string
	doc.Find("[data-testid=labels-tags] a[data-testid=tag]").Each(func(_ int, s *goquery.Selection) {
		tags = append(tags, s.Text()+"="+s.AttrOr("href", ""))
	})
	if strings.Join(tags, " ") != "fig:1=/runs?tag=fig%3A1 paper=/runs?tag=paper" {
		t.Errorf("tag links %q", tags)
	}
	checkNotes(t, doc.Find("[data-testid=labels-notes]"))
	if v := doc.Find("#lb-notes").Text(); v != hostileNotes {
		t.Errorf("the form does not hold the notes to edit: %q", v)
	}

	// The list: the name and tags beside the run; ?tag= finds it alone.
	doc = a.page(t, "/runs?tag=fig:1")
	rows := doc.Find(`[data-testid="runs-table"] tbody tr`)
	if rows.Length() != 1 || rows.Find("input[name=runs]").AttrOr("value", "") != id ||
		rows.Find("[data-testid=run-name]").Text() != "best γ so far" || rows.Find("a[data-testid=tag]").Length() != 2 {
		t.Errorf("/runs?tag=fig:1: %d rows: %s", rows.Length(), rows.Text())
	}
	if v := doc.Find(`[data-testid=runs-filter] input[name=tag]`).AttrOr("value", ""); v != "fig:1" {
		t.Errorf("the filter form shows tag %q", v)
	}
	if n := a.page(t, "/runs?tag=nope").Find(`[data-testid="runs-table"] tbody tr`).Length(); n != 0 {
		t.Errorf("/runs?tag=nope: %d rows", n)
	}

	// A bad label is a 400 naming the field, and changes nothing.
	form = url.Values{"name": {"x"}, "tags": {"a<b"}, "notes": {""}}
	status, b := a.do(t, http.MethodPost, "/runs/"+id+"/labels", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if status != http.StatusBadRequest || !strings.Contains(string(b), "tags") {
		t.Errorf("bad tag: %d %.300s", status, b)
	}
	if r, _ := a.store.GetRun(context.Background(), id); r.Name != "best γ so far" {
		t.Errorf("a refused edit changed the name to %q", r.Name)
	}
}

func TestRunLabelsPatchThroughTheAPI(t *testing.T) {
	a := newApp(t, "", 0)
	w := fillRuns(t, a, 2)
	runs, _ := a.store.ListRuns(context.Background(), store.RunFilter{WorkloadID: w.ID})
	id := runs[0].ID
	var r apiRun
	status, b := a.patch(t, "/api/runs/"+id, `{"name":"n1","tags":["b","a"],"notes":"*x*"}`)
	if err := json.Unmarshal(b, &r); status != http.StatusOK || err != nil {
		t.Fatalf("PATCH: %d %s", status, b)
	}
	if r.Name != "n1" || strings.Join(r.Tags, ",") != "a,b" || r.Notes == nil || *r.Notes != "*x*" {
		t.Errorf("PATCH answer %+v", r)
	}
	// Absent fields stay; an empty list clears.
	a.patch(t, "/api/runs/"+id, `{"tags":[]}`)
	_, b = a.do(t, http.MethodGet, "/api/runs/"+id, "", nil)
	r = apiRun{}
	json.Unmarshal(b, &r)
	if r.Name != "n1" || len(r.Tags) != 0 || r.Notes == nil || *r.Notes != "*x*" {
		t.Errorf("after PATCH tags only: %s", b)
	}
	// Lists carry name and tags, never notes.
	_, b = a.do(t, http.MethodGet, "/api/runs?limit=1", "", nil)
	if !strings.Contains(string(b), `"name":"n1"`) || strings.Contains(string(b), `"notes"`) {
		t.Errorf("list: %s", b)
	}
	for _, c := range []struct{ body, field string }{
		{`{"name":"` + strings.Repeat("n", store.MaxNameLen+1) + `"}`, "name"},
		{`{"tags":[` + strings.Repeat(`"t",`, 0) + tagList(store.MaxTags+1) + `]}`, "tags"},
		{`{"tags":["` + strings.Repeat("t", store.MaxTagLen+1) + `"]}`, "tags"},
		{`{"tags":["sp ace"]}`, "tags"},
		{`{"notes":"` + strings.Repeat("x", store.MaxNotesLen+1) + `"}`, "notes"},
		{`{"tags":"a"}`, "tags"},
		{`{"owner":"me"}`, "owner"},
	} {
		status, b := a.patch(t, "/api/runs/"+id, c.body)
		var e apiError
		json.Unmarshal(b, &e)
		if status != http.StatusBadRequest || e.Field != c.field {
			t.Errorf("PATCH %.60s: %d %s, want 400 on %s", c.body, status, b, c.field)
		}
	}
	if r, _ := a.store.GetRun(context.Background(), id); r.Name != "n1" || r.Notes != "*x*" {
		t.Errorf("refused PATCHes changed the run: %q %q", r.Name, r.Notes)
	}
	if status, _ := a.patch(t, "/api/runs/nosuchrun0", `{"name":"x"}`); status != http.StatusNotFound {
		t.Errorf("PATCH of an unknown run: %d", status)
	}
}

func tagList(n int) string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(`"t%d"`, i))
	}
	return strings.Join(out, ",")
}

func TestExperimentLabelsShowOnItsPageAndPatch(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := context.Background()
	w := fillRuns(t, a, 1)
	e := &store.Experiment{Name: "sweep", Strategy: "eapm", Notes: "plain",
		Definition: json.RawMessage(`{"name":"sweep","strategy":"eapm","workload":{"ids":["` + w.ID + `"]},"variants":["online"]}`)}
	if err := a.store.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online"}, 2,
		func(int) store.ExperimentCell { return store.ExperimentCell{} }, func(int) []store.Metric { return nil }); err != nil {
		t.Fatal(err)
	}
	form := url.Values{"name": {"γ sweep"}, "tags": {"zhang2022"}, "notes": {hostileNotes}}
	resp := noRedirect(t, http.MethodPost, a.URL+"/experiments/"+e.ID+"/labels", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST experiment labels: %d", resp.StatusCode)
	}
	doc := a.page(t, "/experiments/"+e.ID)
	if doc.Find(`[data-testid=labels] form[action="/experiments/`+e.ID+`/labels"]`).Length() != 1 {
		t.Error("no labels form on the experiment page")
	}
	if got := strings.TrimSpace(doc.Find("[data-testid=labels-name]").Text()); got != "γ sweep" {
		t.Errorf("name %q", got)
	}
	if doc.Find(`[data-testid=labels-tags] a[href="/runs?tag=zhang2022"]`).Length() != 1 {
		t.Error("no tag link")
	}
	checkNotes(t, doc.Find("[data-testid=labels-notes]"))

	status, b := a.patch(t, "/api/experiments/"+e.ID, `{"notes":"new"}`)
	var x apiExperiment
	if err := json.Unmarshal(b, &x); status != http.StatusOK || err != nil || x.Name != "γ sweep" || x.Notes != "new" ||
		strings.Join(x.Tags, ",") != "zhang2022" {
		t.Errorf("PATCH experiment: %d %s", status, b)
	}
	if status, b := a.patch(t, "/api/experiments/"+e.ID, `{"tags":["a b"]}`); status != http.StatusBadRequest || !strings.Contains(string(b), `"field":"tags"`) {
		t.Errorf("bad experiment tag: %d %s", status, b)
	}
}

// TestRunsPageSortsByAMetricAcrossPagesKeepingTheFilter walks /runs sorted
// by a metric in pages of 7 through the "older" links over 30 runs whose
// values tie in groups: every run once, values never increasing, and each
// link keeps the filter.
func TestRunsPageSortsByAMetricAcrossPagesKeepingTheFilter(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := context.Background()
	w := fillRuns(t, a, 5) // no metrics: filtered out
	e := &store.Experiment{Name: "fx", Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	if err := a.store.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Params: map[string]string{"gamma": "1.3"}}, 30,
		func(int) store.ExperimentCell { return store.ExperimentCell{} },
		func(i int) []store.Metric { return []store.Metric{{Name: "energy", Value: float64(i % 4)}} }); err != nil {
		t.Fatal(err)
	}
	path := "/runs?metric=energy&sort=metric-desc&max=2&param=gamma:1.3&limit=7"
	seen := map[string]bool{}
	last := 1e9
	for pages := 0; path != ""; pages++ {
		if pages > 6 {
			t.Fatal("too many pages")
		}
		doc := a.page(t, path)
		doc.Find(`[data-testid="runs-table"] tbody tr`).Each(func(_ int, r *goquery.Selection) {
			id := r.Find("input[name=runs]").AttrOr("value", "")
			if seen[id] {
				t.Errorf("run %s twice", id)
			}
			seen[id] = true
			v, err := strconv.ParseFloat(strings.TrimSpace(r.Find("[data-testid=metric-value]").Text()), 64)
			if err != nil || v > last || v > 2 {
				t.Errorf("value %v after %v (%v)", v, last, err)
			}
			last = v
		})
		path = doc.Find(`[data-testid="older"]`).AttrOr("href", "")
		if path != "" {
			u, _ := url.Parse(path)
			q := u.Query()
			if q.Get("metric") != "energy" || q.Get("sort") != "metric-desc" || q.Get("max") != "2" || q.Get("param") != "gamma:1.3" {
				t.Errorf("next page %s lost the filter", path)
			}
		}
	}
	// i % 4 ≤ 2 for 23 of 0..29.
	if len(seen) != 23 {
		t.Errorf("%d runs shown, want 23", len(seen))
	}
	// The same filter on the API.
	_, b := a.do(t, http.MethodGet, "/api/runs?metric=energy&sort=metric-asc&min=3&limit=500", "", nil)
	var list []apiRun
	if err := json.Unmarshal(b, &list); err != nil || len(list) != 7 {
		t.Errorf("/api/runs?metric=energy&min=3: %d runs, %v", len(list), err)
	}
	_, b = a.do(t, http.MethodGet, "/api/runs?param=gamma:1.3&limit=500", "", nil)
	json.Unmarshal(b, &list)
	if len(list) != 30 {
		t.Errorf("/api/runs?param=gamma:1.3: %d runs, want 30", len(list))
	}
	_, b = a.do(t, http.MethodGet, "/api/runs?variant=online&workload="+w.ID+"&strategy=eapm&limit=500", "", nil)
	json.Unmarshal(b, &list)
	if len(list) != 35 {
		t.Errorf("variant, workload and strategy: %d runs, want 35", len(list))
	}
}

func TestBadRunFiltersAre400NamingTheParameter(t *testing.T) {
	a := newApp(t, "", 0)
	fillRuns(t, a, 2)
	for q, field := range map[string]string{
		"sort=oldest":               "sort",
		"sort=metric-asc":           "metric",
		"metric=energy&min=abc":     "min",
		"metric=energy&max=NaN":     "max",
		"metric=energy&min=2&max=1": "min",
		"min=1":                     "metric",
		"param=gamma":               "param",
		"param=:1":                  "param",
		"param=a:1&param=a:2":       "param",
		"metric=energy&sort=metric-desc&cursor=" + "bm9wZQ": "cursor",
	} {
		status, b := a.do(t, http.MethodGet, "/api/runs?"+q, "", nil)
		var e apiError
		json.Unmarshal(b, &e)
		if status != http.StatusBadRequest || e.Field != field {
			t.Errorf("/api/runs?%s: %d %s, want 400 on %s", q, status, b, field)
		}
		status, b = a.do(t, http.MethodGet, "/runs?"+q, "", nil)
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
		if status != http.StatusBadRequest || !strings.Contains(doc.Find("[data-testid=form-error], [data-testid=error]").Text(), field) {
			t.Errorf("/runs?%s: %d, the page does not name %s", q, status, field)
		}
	}
	// The page shows the form again as asked.
	_, b := a.do(t, http.MethodGet, "/runs?sort=oldest&tag=keep", "", nil)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
	if doc.Find(`[data-testid=runs-filter] input[name=tag]`).AttrOr("value", "") != "keep" {
		t.Error("the filter form lost the asked tag")
	}
}

func TestOwnersAloneChangeLabels(t *testing.T) {
	aa := newAuthApp(t)
	ctx := context.Background()
	alice, _ := aa.store.GetUserByName(ctx, "alice")
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Format: "json", Data: []byte(`{}`), Owner: alice.ID}
	if err := aa.store.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	run, err := aa.store.CreateRun(ctx, &runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online", Owner: alice.ID})
	if err != nil {
		t.Fatal(err)
	}
	e := &store.Experiment{Name: "x", Strategy: "eapm", Definition: json.RawMessage(`{}`), Owner: alice.ID}
	if err := aa.store.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Status: runtypes.StatusDone}, 1,
		func(int) store.ExperimentCell { return store.ExperimentCell{} }, func(int) []store.Metric { return nil }); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/runs/" + run.ID, "/api/experiments/" + e.ID} {
		// In this order: root's change is the last that is made.
		for _, c := range []struct {
			user string
			want int
		}{{"", http.StatusUnauthorized}, {"bob", http.StatusForbidden}, {"alice", http.StatusOK}, {"root", http.StatusOK}} {
			if st, b := aa.as(t, c.user, http.MethodPatch, path, `{"name":"by `+c.user+`"}`); st != c.want {
				t.Errorf("%q PATCH %s: %d %s, want %d", c.user, path, st, b, c.want)
			}
		}
	}
	if r, _ := aa.store.GetRun(ctx, run.ID); r.Name != "by root" {
		t.Errorf("run name %q", r.Name)
	}
	// Only those who may change it see the form.
	for user, want := range map[string]int{"": 0, "bob": 0, "alice": 1, "root": 1} {
		_, page := aa.as(t, user, http.MethodGet, "/runs/"+run.ID, "")
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(string(page)))
		if n := doc.Find("[data-testid=labels-form]").Length(); n != want || doc.Find("[data-testid=labels]").Length() != 1 {
			t.Errorf("%q sees %d labels forms on alice's run, want %d", user, n, want)
		}
	}
}

// BenchmarkRunsPageByMetricWith10kRuns times GET /runs sorted by a metric
// (its first page, and the page after a cursor from the middle) over
// 10,000 runs that report it, with a range filter.
func BenchmarkRunsPageByMetricWith10kRuns(b *testing.B) {
	a := newApp(b, "", 0)
	w := fillRuns(b, a, 1)
	e := &store.Experiment{Name: "fx", Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	if err := a.store.FillExperiment(context.Background(), e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online"}, 10000,
		func(int) store.ExperimentCell { return store.ExperimentCell{} },
		func(i int) []store.Metric { return []store.Metric{{Name: "energy", Value: float64(i % 97)}} }); err != nil {
		b.Fatal(err)
	}
	_, cur, err := a.store.ListRunsPage(context.Background(), store.RunFilter{Metric: "energy", Sort: store.SortMetricDesc, Limit: 5000})
	if err != nil {
		b.Fatal(err)
	}
	h := a.Config.Handler
	for _, path := range []string{"/runs?metric=energy&sort=metric-desc&min=10", "/runs?metric=energy&sort=metric-desc&cursor=" + string(cur)} {
		b.Run(strings.SplitN(path, "&", 3)[2], func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("GET %s: %d", path, rec.Code)
				}
			}
		})
	}
}

// TestCompareWithTicksTheRunAndOffersItsWorkloadsRuns follows a run's
// "Compare with…": the list holds the runs on its workload, itself ticked
// and marked, with a way to every run of its family; a refilter keeps it.
func TestCompareWithTicksTheRunAndOffersItsWorkloadsRuns(t *testing.T) {
	a := newApp(t, "", 0)
	w1, w2 := a.upload(t), a.upload(t)
	r1 := a.startRun(t, `{"workload_id":"`+w1+`","variant":"online"}`)
	r2 := a.startRun(t, `{"workload_id":"`+w1+`","variant":"average"}`)
	other := a.startRun(t, `{"workload_id":"`+w2+`","variant":"online"}`)
	_, page := a.do(t, http.MethodGet, "/runs/"+r1.ID, "", nil)
	link, _ := parseHTML(t, page).Find("[data-testid=compare-with]").Attr("href")
	status, page := a.do(t, http.MethodGet, link, "", nil)
	doc := parseHTML(t, page)
	if status != http.StatusOK {
		t.Fatalf("%s: %d", link, status)
	}
	rows := doc.Find("[data-testid=runs-table] tbody tr")
	text := rows.Text()
	if rows.Length() != 2 || !strings.Contains(text, r1.ID) || !strings.Contains(text, r2.ID) || strings.Contains(text, other.ID) {
		t.Errorf("compare with %s lists %q: want the two runs on its workload", r1.ID, text)
	}
	if v, _ := doc.Find("input[name=runs]:checked").Attr("value"); v != r1.ID || doc.Find("input[name=runs]:checked").Length() != 1 {
		t.Errorf("ticked: %q, want run %s only", v, r1.ID)
	}
	if !strings.Contains(doc.Find("tr.selected").Text(), r1.ID) || doc.Find("[data-testid=this-run]").Length() != 1 {
		t.Error("the run is not marked as this run")
	}
	if all, _ := doc.Find("[data-testid=compare-with-note] a").Attr("href"); !strings.Contains(all, "select="+r1.ID) || strings.Contains(all, "workload") {
		t.Errorf("the way to every eapm run: %q", all)
	}
	if v, _ := doc.Find("[data-testid=runs-filter] input[name=select]").Attr("value"); v != r1.ID {
		t.Error("the filter form drops the run to compare with")
	}
}

// TestStoredWorkloadsFollowTheChosenFamily: /workloads?strategy=eapm
// lists EAPM's workloads only, /workloads every family's.
func TestStoredWorkloadsFollowTheChosenFamily(t *testing.T) {
	a := newFakeApp(t, 0)
	a.upload(t) // an EAPM workload
	if status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"dcop","preset":"namekata2008","params":{"jobs":5},"seed":1}`); status != http.StatusCreated {
		t.Fatalf("generate dcop: %d %s", status, b)
	}
	strategies := func(path string) string {
		_, page := a.do(t, http.MethodGet, path, "", nil)
		var out []string
		parseHTML(t, page).Find("[data-testid=workloads-table] tbody tr td:nth-child(2)").Each(func(_ int, s *goquery.Selection) {
			out = append(out, s.Text())
		})
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got := strategies("/workloads?strategy=eapm"); got != "eapm" {
		t.Errorf("EAPM's stored workloads: %q", got)
	}
	if got := strategies("/workloads"); got != "dcop,eapm" {
		t.Errorf("every stored workload: %q", got)
	}
}

// TestIdenticalUploadOffersTheStoredWorkload: the same files uploaded again
// are not stored twice; the API answers 200 with the stored workload and
// "existing", the page leads to it with a note; copy=1 stores a copy.
func TestIdenticalUploadOffersTheStoredWorkload(t *testing.T) {
	a := newFakeApp(t, 0)
	up := func(extra map[string]string) (int, apiWorkload) {
		fields := map[string]string{"strategy": "eapm", "name": "again"}
		for k, v := range extra {
			fields[k] = v
		}
		body, ctype := multipartBody(t, fields, map[string]string{"etc": goodETC, "apc": goodAPC, "users": goodUsers})
		status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
		var w apiWorkload
		json.Unmarshal(b, &w)
		return status, w
	}
	status, first := up(nil)
	if status != http.StatusCreated || first.Existing {
		t.Fatalf("first upload: %d %+v", status, first)
	}
	status, again := up(nil)
	if status != http.StatusOK || !again.Existing || again.ID != first.ID || a.countWorkloads(t) != 1 {
		t.Errorf("the same upload again: %d %+v, %d workloads stored; want 200, existing, %s, 1", status, again, a.countWorkloads(t), first.ID)
	}
	body, ctype := multipartBody(t, map[string]string{"strategy": "eapm"}, map[string]string{"etc": goodETC, "apc": goodAPC, "users": goodUsers})
	resp := noRedirect(t, http.MethodPost, a.URL+"/workloads", ctype, body)
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/workloads/"+first.ID+"?existing=1" {
		t.Fatalf("the upload form: %d to %q", resp.StatusCode, loc)
	}
	_, page := a.do(t, http.MethodGet, "/workloads/"+first.ID+"?existing=1", "", nil)
	if !strings.Contains(parseHTML(t, page).Find("[data-testid=existing-workload]").Text(), "not stored a second time") {
		t.Error("the workload page does not say the upload was already stored")
	}
	status, copied := up(map[string]string{"copy": "1"})
	if status != http.StatusCreated || copied.ID == first.ID || a.countWorkloads(t) != 2 {
		t.Errorf("copy=1: %d %+v", status, copied)
	}
}

// TestRunListsShowChangedParameters: two runs of one variant and workload
// differ in the list by the parameters they changed from the defaults,
// shown for both, at the default too (issue 42: the default run read
// plain "online" beside "online gamma=1.4").
func TestRunListsShowChangedParameters(t *testing.T) {
	a := newApp(t, "", 0)
	w := a.upload(t)
	r1 := a.startRun(t, `{"workload_id":"`+w+`","variant":"online","params":{"gamma":1.4}}`)
	r2 := a.startRun(t, `{"workload_id":"`+w+`","variant":"online"}`)
	for _, path := range []string{"/runs", "/workloads/" + w, "/"} {
		_, page := a.do(t, http.MethodGet, path, "", nil)
		doc := parseHTML(t, page)
		row := func(id string) string {
			return doc.Find(`[data-testid=runs-table] tbody tr:has(a[href="/runs/` + id + `"]) [data-testid=run-params]`).Text()
		}
		if got := row(r1.ID); got != "gamma=1.4" {
			t.Errorf("%s: run with γ 1.4 shows %q", path, got)
		}
		if got := row(r2.ID); got != "gamma=1.2" {
			t.Errorf("%s: run with the defaults shows %q, want its gamma, 1.2", path, got)
		}
	}
}

// TestEveryStrategyOffersAnExampleNativeFileThatUploads: the upload form
// links an example of each family's native JSON, and that example uploads
// back as a workload of the family (it is the format, not a description).
func TestEveryStrategyOffersAnExampleNativeFileThatUploads(t *testing.T) {
	a := newFakeApp(t, 0)
	for _, st := range registry.All() {
		name := st.Info.Name
		_, page := a.do(t, http.MethodGet, "/workloads?strategy="+name, "", nil)
		href, ok := parseHTML(t, page).Find("[data-testid=example-json]").Attr("href")
		if !ok {
			t.Errorf("%s: the upload form links no example", name)
			continue
		}
		status, example := a.do(t, http.MethodGet, href, "", nil)
		if status != http.StatusOK || !json.Valid(example) {
			t.Errorf("%s: example %d %.80s", name, status, example)
			continue
		}
		body, ctype := multipartBody(t, map[string]string{"strategy": name}, map[string]string{"file": string(example)})
		if status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body); status != http.StatusCreated {
			t.Errorf("%s: the example does not upload: %d %.200s", name, status, b)
		}
	}
	if status, _ := a.do(t, http.MethodGet, "/api/strategies/nosuch/example.json", "", nil); status != http.StatusNotFound {
		t.Errorf("an unknown strategy's example: %d", status)
	}
}
