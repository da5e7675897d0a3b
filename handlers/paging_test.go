package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"schedlab/runtypes"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// fillRuns stores n finished runs of one workload, 1 ms apart, and returns
// the workload.
func fillRuns(t testing.TB, a *app, n int) *runtypes.Workload {
	t.Helper()
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "paging fixture", Format: "json", Data: []byte(`{}`)}
	if err := a.store.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := a.store.FillRuns(ctx, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Status: runtypes.StatusFailed}, n, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestAPIListsPageByLinkHeaderKeepingTheArrayBody(t *testing.T) {
	a := newApp(t, "", 0)
	fillRuns(t, a, 120)
	var all []string
	path := "/api/runs?limit=50&status=failed"
	for pages := 0; path != ""; pages++ {
		if pages > 5 {
			t.Fatal("too many pages")
		}
		resp, err := http.Get(a.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var runs []apiRun
		err = json.NewDecoder(resp.Body).Decode(&runs)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("GET %s: %d, %v", path, resp.StatusCode, err)
		}
		if len(runs) > 50 {
			t.Fatalf("GET %s: %d runs, more than the limit", path, len(runs))
		}
		for _, r := range runs {
			all = append(all, r.ID)
		}
		link, cursor := resp.Header.Get("Link"), resp.Header.Get("X-Next-Cursor")
		path = ""
		if link != "" {
			u, rel, ok := strings.Cut(link, ">; ")
			if !ok || rel != `rel="next"` || !strings.HasPrefix(u, "</api/runs?") || !strings.Contains(u, "cursor="+cursor) ||
				!strings.Contains(u, "status=failed") || !strings.Contains(u, "limit=50") {
				t.Fatalf("Link %q with X-Next-Cursor %q", link, cursor)
			}
			path = strings.TrimPrefix(u, "<")
		} else if cursor != "" {
			t.Fatalf("X-Next-Cursor %q without Link", cursor)
		}
	}
	seen := map[string]bool{}
	for _, id := range all {
		seen[id] = true
	}
	if len(all) != 120 || len(seen) != 120 {
		t.Errorf("walked %d runs (%d distinct), want 120", len(all), len(seen))
	}
	// Default and maximum page sizes, and bad input.
	for q, want := range map[string]int{"": pageSize, "?limit=1000": 120} {
		status, body := a.do(t, http.MethodGet, "/api/runs"+q, "", nil)
		var runs []apiRun
		json.Unmarshal(body, &runs)
		if status != http.StatusOK || len(runs) != min(want, maxPageSize) {
			t.Errorf("/api/runs%s: %d, %d runs, want %d", q, status, len(runs), min(want, maxPageSize))
		}
	}
	for _, q := range []string{"?limit=0", "?limit=x", "?cursor=nonsense"} {
		if status, body := a.do(t, http.MethodGet, "/api/runs"+q, "", nil); status != http.StatusBadRequest {
			t.Errorf("/api/runs%s: %d %s, want 400", q, status, body)
		}
	}
	status, body := a.do(t, http.MethodGet, "/api/workloads?limit=1", "", nil)
	var ws []apiWorkload
	if err := json.Unmarshal(body, &ws); status != http.StatusOK || err != nil || len(ws) != 1 {
		t.Errorf("/api/workloads?limit=1: %d %s", status, body)
	}
}

func TestRunsPageShowsAPageAndLinksOlder(t *testing.T) {
	a := newApp(t, "", 0)
	w := fillRuns(t, a, 75)
	seen := map[string]bool{}
	path := "/runs"
	for pages := 0; path != ""; pages++ {
		if pages > 3 {
			t.Fatal("too many pages")
		}
		status, body := a.do(t, http.MethodGet, path, "", nil)
		if status != http.StatusOK {
			t.Fatalf("GET %s: %d", path, status)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
		rows := doc.Find(`[data-testid="runs-table"] tbody tr`)
		if rows.Length() > pageSize {
			t.Fatalf("GET %s: %d rows, more than a page", path, rows.Length())
		}
		rows.Each(func(_ int, r *goquery.Selection) {
			seen[r.Find("input[name=runs]").AttrOr("value", "")] = true
			if !strings.Contains(r.Text(), w.Name) {
				t.Errorf("row %q lacks its workload's name", r.Text())
			}
		})
		path = doc.Find(`[data-testid="older"]`).AttrOr("href", "")
	}
	if len(seen) != 75 {
		t.Errorf("pages showed %d distinct runs, want 75", len(seen))
	}
}

// tenKRuns serves the application over 10,000 stored runs.
func tenKRuns(t testing.TB) *app {
	a := newApp(t, "", 0)
	fillRuns(t, a, 10000)
	return a
}

// TestListPagesOver10kRunsHoldAPage checks what BenchmarkHomeWith10kRuns
// and BenchmarkRunsPageWith10kRuns time: the pages answer with at most a
// page of rows (the query plans are checked in store).
func TestListPagesOver10kRunsHoldAPage(t *testing.T) {
	a := tenKRuns(t)
	for path, want := range map[string]int{"/": 10, "/runs": pageSize, "/runs?limit=500": maxPageSize} {
		rec := httptest.NewRecorder()
		a.Config.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		doc, _ := goquery.NewDocumentFromReader(rec.Body)
		if n := doc.Find(`[data-testid="runs-table"] tbody tr`).Length(); rec.Code != http.StatusOK || n != want {
			t.Errorf("GET %s: %d, %d rows, want %d", path, rec.Code, n, want)
		}
	}
}

func benchPage(b *testing.B, path string) {
	a := tenKRuns(b)
	h := a.Config.Handler
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d", path, rec.Code)
		}
	}
}

// BenchmarkHomeWith10kRuns times GET / over 10,000 stored runs. Target:
// ≤ 50 ms.
func BenchmarkHomeWith10kRuns(b *testing.B) { benchPage(b, "/") }

// BenchmarkRunsPageWith10kRuns times GET /runs (the first page) over
// 10,000 stored runs. Target: ≤ 50 ms.
func BenchmarkRunsPageWith10kRuns(b *testing.B) { benchPage(b, "/runs") }
