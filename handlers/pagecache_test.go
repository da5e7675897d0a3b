package handlers

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// chartRefs are the (data-chart-src, data-chart-index) of a page's charts.
var chartRefs = regexp.MustCompile(`data-chart-src="([^"]*)" data-chart-index="([0-9]+)"`)

// getFull is a GET that returns the response (body read), the client
// sending extra headers (name, value pairs).
func (a *app) getFull(t *testing.T, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// pageCharts checks that a page holds no inline script and that its charts
// all name one endpoint, which answers a JSON array with an option for each;
// it returns the endpoint and its response.
func pageCharts(t *testing.T, a *app, page string) (string, *http.Response) {
	t.Helper()
	_, body := a.do(t, http.MethodGet, page, "", nil)
	if n, m := strings.Count(string(body), "<script"), strings.Count(string(body), "<script src="); n != m {
		t.Errorf("%s: %d scripts, %d of them files: no inline script may remain", page, n, m)
	}
	refs := chartRefs.FindAllStringSubmatch(string(body), -1)
	if len(refs) == 0 {
		t.Fatalf("%s draws no chart", page)
	}
	src := strings.ReplaceAll(refs[0][1], "&amp;", "&")
	for i, r := range refs {
		if strings.ReplaceAll(r[1], "&amp;", "&") != src || r[2] != strconv.Itoa(i) {
			t.Errorf("chart %d names %s #%s, want %s #%d", i, r[1], r[2], src, i)
		}
	}
	resp, data := a.getFull(t, src)
	var options []map[string]any
	if err := json.Unmarshal(data, &options); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d, %v: %.200s", src, resp.StatusCode, err, data)
	}
	if len(options) != len(refs) {
		t.Errorf("%s has %d options for %d charts", src, len(options), len(refs))
	}
	for i, o := range options {
		if o["series"] == nil {
			t.Errorf("option %d has no series: %.200v", i, o)
		}
	}
	return src, resp
}

// chartsOf is the chart data of a page: each distinct data-chart-src's
// answer, joined.
func (a *app) chartsOf(t *testing.T, page []byte) string {
	t.Helper()
	var out strings.Builder
	seen := map[string]bool{}
	for _, r := range chartRefs.FindAllStringSubmatch(string(page), -1) {
		src := strings.ReplaceAll(r[1], "&amp;", "&")
		if !seen[src] {
			seen[src] = true
			_, b := a.getFull(t, src)
			out.Write(b)
		}
	}
	return out.String()
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(rest, to)
	return v
}

// A done run's page is cached with its charts' data; the data comes from
// the run's own endpoint, immutable, with an ETag a revalidation matches
// (304); deleting the run evicts its page and every compare page showing it.
func TestDoneRunChartsAreImmutableAndDeletingEvictsThem(t *testing.T) {
	a := newApp(t, "", 0)
	status, body := a.postJSON(t, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":0}}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, body)
	}
	wid := between(string(body), `"id":"`, `"`)
	r1 := a.startRun(t, `{"workload_id":"`+wid+`","variant":"online"}`)
	r2 := a.startRun(t, `{"workload_id":"`+wid+`","variant":"online","seed":2}`)
	if r1.Status != "done" || r2.Status != "done" {
		t.Fatalf("runs %s %s", r1.Status, r2.Status)
	}
	_, first := a.do(t, http.MethodGet, "/runs/"+r1.ID, "", nil)
	_, second := a.do(t, http.MethodGet, "/runs/"+r1.ID, "", nil)
	if string(first) != string(second) || !strings.Contains(string(first), `data-testid="report"`) {
		t.Errorf("the cached run page differs from the first or lacks the report")
	}
	// A page is compressed for a client that takes gzip, the same HTML.
	if zr, zb := a.getFull(t, "/runs/"+r1.ID, "Accept-Encoding", "gzip"); zr.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("run page not compressed for a gzip client")
	} else if r, err := gzip.NewReader(bytes.NewReader(zb)); err != nil {
		t.Errorf("run page: %v", err)
	} else if html, _ := io.ReadAll(r); !strings.Contains(string(html), `data-testid="report"`) {
		t.Errorf("the gzip run page decodes to %d bytes without the report", len(html))
	}
	src, resp := pageCharts(t, a, "/runs/"+r1.ID)
	if src != "/api/runs/"+r1.ID+"/charts" {
		t.Errorf("charts at %s", src)
	}
	etag := resp.Header.Get("ETag")
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" || etag == "" {
		t.Errorf("Cache-Control %q, ETag %q: a done run's charts are immutable, public without --auth, with an ETag", cc, etag)
	}
	again, b := a.getFull(t, src, "If-None-Match", etag)
	if again.StatusCode != http.StatusNotModified || len(b) != 0 {
		t.Errorf("If-None-Match %s: %d with %d bytes, want 304 and none", etag, again.StatusCode, len(b))
	}
	if other, _ := a.getFull(t, src, "If-None-Match", `W/"other"`); other.StatusCode != http.StatusOK {
		t.Errorf("another ETag: %d, want 200", other.StatusCode)
	}
	// Compressed once: gzip as stored for clients that take it.
	if z, _ := a.getFull(t, src, "Accept-Encoding", "gzip"); z.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("chart data not sent compressed to a gzip client")
	}

	cmp := "/compare?runs=" + r1.ID + "," + r2.ID
	csrc, cresp := pageCharts(t, a, cmp)
	if !strings.HasPrefix(csrc, "/api/compare/charts?runs="+r1.ID+","+r2.ID+"&v=") || !strings.Contains(cresp.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("compare charts at %s, Cache-Control %q", csrc, cresp.Header.Get("Cache-Control"))
	}
	keys := func() map[string]bool {
		out := map[string]bool{}
		a.server.pages.RemoveIf(func(k string, _ *piece) bool { out[k] = true; return false })
		return out
	}
	for _, k := range []string{"run:" + r1.ID, "compare:" + csrc} {
		if !keys()[k] {
			t.Errorf("%s not cached", k)
		}
	}
	if status, body := a.do(t, http.MethodDelete, "/api/runs/"+r1.ID, "", nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", status, body)
	}
	for _, k := range []string{"run:" + r1.ID, "compare:" + csrc} {
		if keys()[k] {
			t.Errorf("%s still cached after the run was deleted", k)
		}
	}
	if status, _ := a.do(t, http.MethodGet, "/runs/"+r1.ID, "", nil); status != http.StatusNotFound {
		t.Errorf("deleted run page: %d", status)
	}
	if status, _ := a.do(t, http.MethodGet, src, "", nil); status != http.StatusNotFound {
		t.Errorf("deleted run's charts: %d", status)
	}
}

// Renaming a run changes its compare page's chart address (the charts
// name the runs); the old address is sent to the new one.
func TestCompareChartsMoveWhenARunIsRenamed(t *testing.T) {
	a := newApp(t, "", 0)
	_, body := a.postJSON(t, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":0}}`)
	wid := between(string(body), `"id":"`, `"`)
	r1 := a.startRun(t, `{"workload_id":"`+wid+`","variant":"online"}`)
	r2 := a.startRun(t, `{"workload_id":"`+wid+`","variant":"online"}`) // nothing differs: the charts name the runs
	cmp := "/compare?runs=" + r1.ID + "," + r2.ID
	before, _ := pageCharts(t, a, cmp)
	if status, b := a.do(t, http.MethodPatch, "/api/runs/"+r1.ID, "application/json", strings.NewReader(`{"name":"renamed"}`)); status != http.StatusOK {
		t.Fatalf("rename: %d %s", status, b)
	}
	after, _ := pageCharts(t, a, cmp)
	if after == before {
		t.Fatalf("charts still at %s after the rename", before)
	}
	old := noRedirect(t, http.MethodGet, a.URL+before, "", nil)
	old.Body.Close()
	if old.StatusCode != http.StatusFound || old.Header.Get("Location") != after {
		t.Errorf("old address: %d to %q, want 302 to %s", old.StatusCode, old.Header.Get("Location"), after)
	}
	resp, data := a.getFull(t, after)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), "renamed") {
		t.Errorf("the new charts (%d) do not name the renamed run", resp.StatusCode)
	}
}

// A page that is not a finished result's keeps its charts under a one-off
// key, not cached by browsers; a key no longer kept is 404.
func TestOtherPagesChartsAreKeptUnderAOneOffKey(t *testing.T) {
	a := newFakeApp(t, 0)
	_, body := a.postJSON(t, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":0}}`)
	wid := between(string(body), `"id":"`, `"`)
	src, resp := pageCharts(t, a, "/workloads/"+wid)
	if !strings.HasPrefix(src, "/api/charts/") || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("charts at %s, Cache-Control %q", src, resp.Header.Get("Cache-Control"))
	}
	if status, _ := a.do(t, http.MethodGet, "/api/charts/unknown", "", nil); status != http.StatusNotFound {
		t.Errorf("an unknown key: %d, want 404", status)
	}
}

// TestAuthServersChartDataIsPrivate: an --auth server's chart data of a
// done run and of a compare page is cached by the browser only
// ("private"), never by a shared cache ("public").
func TestAuthServersChartDataIsPrivate(t *testing.T) {
	aa := newAuthApp(t)
	st, b := aa.as(t, "alice", http.MethodPost, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":0}}`)
	if st != http.StatusCreated {
		t.Fatalf("generate: %d %s", st, b)
	}
	wid := between(string(b), `"id":"`, `"`)
	var ids []string
	for seed := range 2 {
		st, b = aa.as(t, "alice", http.MethodPost, "/api/runs", `{"workload_id":"`+wid+`","variant":"online","seed":`+strconv.Itoa(seed+1)+`}`)
		if st != http.StatusCreated {
			t.Fatalf("run: %d %s", st, b)
		}
		id := between(string(b), `"id":"`, `"`)
		aa.waitRun(t, id)
		ids = append(ids, id)
	}
	for _, page := range []string{"/runs/" + ids[0], "/compare?runs=" + ids[0] + "," + ids[1]} {
		_, resp := pageCharts(t, aa.app, page)
		if cc := resp.Header.Get("Cache-Control"); cc != "private, max-age=31536000, immutable" {
			t.Errorf("%s: chart data sent with Cache-Control %q, want private, max-age=31536000, immutable", page, cc)
		}
	}
}
