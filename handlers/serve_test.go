package handlers

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"schedlab/static"
	"schedlab/views/charts"
)

// TestPagesLinkVersionedAssetsServedImmutable follows the asset links of a
// page: each is versioned, answers with the immutable Cache-Control, and
// the static directory itself lists nothing.
func TestPagesLinkVersionedAssetsServedImmutable(t *testing.T) {
	a := newFakeApp(t, 0)
	status, body := a.do(t, http.MethodGet, "/", "", nil)
	if status != http.StatusOK {
		t.Fatalf("GET /: %d", status)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	doc.Find(`head script[src], head link[rel="stylesheet"]`).Each(func(_ int, s *goquery.Selection) {
		links = append(links, s.AttrOr("src", s.AttrOr("href", "")))
	})
	want := []string{static.URL("app.css"), static.URL("echarts.min.js"), charts.ScriptURL(), static.URL("app.js")}
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("page assets %v, want %v", links, want)
	}
	for _, u := range want {
		if !strings.Contains(u, "?v=") {
			t.Errorf("asset %s is not versioned", u)
		}
		resp, err := http.Get(a.URL + u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: %d, Cache-Control %q", u, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
	}
	for _, p := range []string{"/static/", "/static", "/static/nothing.js"} {
		if status, body := a.do(t, http.MethodGet, p, "", nil); status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404; %.100s", p, status, body)
		}
	}
}

// TestFaviconIsServed: pages link the icon, and /favicon.ico, which
// browsers ask for anyway, leads to it instead of a 404.
func TestFaviconIsServed(t *testing.T) {
	a := newFakeApp(t, 0)
	_, page := a.do(t, http.MethodGet, "/", "", nil)
	href, ok := parseHTML(t, page).Find(`link[rel=icon]`).Attr("href")
	if !ok || !strings.HasPrefix(href, "/static/favicon.svg?v=") {
		t.Fatalf("icon link %q", href)
	}
	resp, err := http.Get(a.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(body), "<svg") {
		t.Errorf("/favicon.ico: %d %s %.40q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// TestDeletedRunLinkExplainsItself: a deleted run's shared link says what
// may have happened and where to look, and the delete button asks first.
func TestDeletedRunLinkExplainsItself(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	run := a.startRun(t, `{"workload_id":"`+id+`","variant":"online"}`)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		r, err := a.store.GetRunInfo(t.Context(), run.ID)
		if err == nil && r.Status == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not finish", run.ID)
		}
	}
	_, page := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	if confirm, _ := parseHTML(t, page).Find(`form:has([data-testid=delete])`).Attr("data-confirm"); !strings.Contains(confirm, run.ID) {
		t.Errorf("the delete form does not ask first: data-confirm %q", confirm)
	}
	resp := noRedirect(t, http.MethodPost, a.URL+"/runs/"+run.ID+"/delete", "application/x-www-form-urlencoded", strings.NewReader(""))
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	status, page := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	doc := parseHTML(t, page)
	if status != http.StatusNotFound || !strings.Contains(doc.Find("[data-testid=not-found-help]").Text(), "deleted") ||
		doc.Find(`[data-testid=not-found-help] a[href="/runs"]`).Length() != 1 {
		t.Errorf("a deleted run's link: %d %q", status, doc.Find("main").Text())
	}
}
