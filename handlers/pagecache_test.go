package handlers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/a-h/templ"

	"schedlab/views"
)

// scripted renders a fragment with two scripts carrying the nonce, as the
// chart components do.
func scripted(text string, renders *atomic.Int32) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		renders.Add(1)
		n := templ.GetNonce(ctx)
		_, err := fmt.Fprintf(w, `<p>%s</p><script nonce="%s">a()</script><script nonce="%s">b()</script>`, text, n, n)
		return err
	})
}

func renderString(t *testing.T, ctx context.Context, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPageCacheSubstitutesEachRequestsNonce(t *testing.T) {
	pc := newPageCache(1 << 20)
	var renders atomic.Int32
	ctx := context.Background()
	for _, nonce := range []string{"n0nce-A", `q"<x`, ""} {
		part, err := pc.get(ctx, "run:a", []string{"a"}, scripted("report", &renders))
		if err != nil {
			t.Fatal(err)
		}
		got := renderString(t, templ.WithNonce(ctx, nonce), part)
		want := `<p>report</p><script>a()</script><script>b()</script>`
		if nonce != "" {
			esc := strings.ReplaceAll(strings.ReplaceAll(nonce, `"`, "&#34;"), "<", "&lt;")
			want = `<p>report</p><script nonce="` + esc + `">a()</script><script nonce="` + esc + `">b()</script>`
		}
		if got != want {
			t.Errorf("nonce %q:\n got %s\nwant %s", nonce, got, want)
		}
		if strings.Contains(got, placeholder) {
			t.Errorf("the placeholder leaked: %s", got)
		}
	}
	if renders.Load() != 1 {
		t.Errorf("rendered %d times, want once", renders.Load())
	}
}

func TestPageCacheRendersConcurrentMissesOnce(t *testing.T) {
	pc := newPageCache(1 << 20)
	var renders atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part, err := pc.get(context.Background(), "compare:a,b", []string{"a", "b"}, scripted("x", &renders))
			if err != nil {
				t.Error(err)
				return
			}
			if got := renderString(t, context.Background(), part); !strings.HasPrefix(got, "<p>x</p>") {
				t.Errorf("got %s", got)
			}
		}()
	}
	wg.Wait()
	if renders.Load() != 1 {
		t.Errorf("50 concurrent misses rendered %d times, want once", renders.Load())
	}
}

func TestPageCacheStaysUnderItsBytesAndForgetsDeletedRuns(t *testing.T) {
	const max = 4000
	pc := newPageCache(max)
	var renders atomic.Int32
	ctx := context.Background()
	big := strings.Repeat("x", 700) // under 1000 bytes a fragment, placeholders included
	for i := 0; i < 20; i++ {
		id := fmt.Sprint("r", i)
		if _, err := pc.get(ctx, "run:"+id, []string{id}, scripted(big, &renders)); err != nil {
			t.Fatal(err)
		}
		if pc.bytes > max {
			t.Fatalf("after %d fragments the cache holds %d bytes, more than %d", i+1, pc.bytes, max)
		}
	}
	if _, ok := pc.byKey["run:r19"]; !ok {
		t.Error("the newest fragment was not kept")
	}
	if _, ok := pc.byKey["run:r0"]; ok {
		t.Error("the oldest fragment was kept past the bound")
	}
	// Too large for a quarter of the cache: served, not kept.
	part, err := pc.get(ctx, "run:huge", []string{"huge"}, scripted(strings.Repeat("y", max), &renders))
	if err != nil || !strings.Contains(renderString(t, ctx, part), "yyyy") {
		t.Fatalf("huge fragment: %v", err)
	}
	if _, ok := pc.byKey["run:huge"]; ok {
		t.Error("a fragment over a quarter of the cache was kept")
	}
	pc.get(ctx, "compare:r18,r19", []string{"r18", "r19"}, scripted("c", &renders))
	pc.forget("r19")
	for _, k := range []string{"run:r19", "compare:r18,r19"} {
		if _, ok := pc.byKey[k]; ok {
			t.Errorf("%s kept after forgetting r19", k)
		}
	}
	if _, ok := pc.byKey["run:r18"]; !ok {
		t.Error("forgetting r19 dropped r18")
	}
	n := 0
	for e := pc.lru.Front(); e != nil; e = e.Next() {
		n += e.Value.(*fragment).size
	}
	if n != pc.bytes {
		t.Errorf("bytes %d, fragments add up to %d", pc.bytes, n)
	}
}

// TestDoneRunPageIsCachedAndDeletingEvictsIt opens a finished run's page
// twice (the second from the cache, the same page), compares it with the
// other variants' runs, then deletes it: its page and every compare page
// showing it leave the cache.
func TestDoneRunPageIsCachedAndDeletingEvictsIt(t *testing.T) {
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
	// Each response has its own CSP nonce; the rest must be the same.
	nonces := regexp.MustCompile(`nonce="[^"]*"`)
	get := func(path string) []byte {
		_, b := a.do(t, http.MethodGet, path, "", nil)
		return nonces.ReplaceAll(b, []byte(`nonce="N"`))
	}
	first, second := get("/runs/"+r1.ID), get("/runs/"+r1.ID)
	if string(first) != string(second) || !strings.Contains(string(first), `data-testid="report"`) {
		t.Errorf("the cached run page differs from the first or lacks the report")
	}
	if strings.Contains(string(first), placeholder) {
		t.Error("the nonce placeholder reached a page")
	}
	cmp1, cmp2 := get("/compare?runs="+r1.ID+","+r2.ID), get("/compare?runs="+r1.ID+","+r2.ID)
	if string(cmp1) != string(cmp2) || !strings.Contains(string(cmp1), `data-testid="compare-metrics"`) {
		t.Errorf("the cached compare page differs from the first or lacks the metrics")
	}
	pc := a.server.pages
	for _, k := range []string{"run:" + r1.ID, "compare:" + r1.ID + "," + r2.ID} {
		if _, ok := pc.byKey[k]; !ok {
			t.Errorf("%s not cached", k)
		}
	}
	if status, body := a.do(t, http.MethodDelete, "/api/runs/"+r1.ID, "", nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", status, body)
	}
	for _, k := range []string{"run:" + r1.ID, "compare:" + r1.ID + "," + r2.ID} {
		if _, ok := pc.byKey[k]; ok {
			t.Errorf("%s still cached after the run was deleted", k)
		}
	}
	if status, _ := a.do(t, http.MethodGet, "/runs/"+r1.ID, "", nil); status != http.StatusNotFound {
		t.Errorf("deleted run page: %d", status)
	}
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(rest, to)
	return v
}

// TestPageBufHoldsFragmentsByReferenceInOrder renders a page with a cached
// fragment inside templ's own buffering: the page is the same as rendered
// plainly, and the fragment's text is shared, not copied.
func TestPageBufHoldsFragmentsByReferenceInOrder(t *testing.T) {
	pc := newPageCache(1 << 20)
	var renders atomic.Int32
	ctx := templ.WithNonce(context.Background(), "N")
	part, err := pc.get(ctx, "run:a", []string{"a"}, scripted(strings.Repeat("r", 100), &renders))
	if err != nil {
		t.Fatal(err)
	}
	page := views.ComparePage(part) // the layout around a fragment
	want := renderString(t, ctx, page)
	var pb pageBuf
	if err := page.Render(ctx, &pb); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	pb.WriteTo(&got)
	if got.String() != want || pb.Len() != len(want) {
		t.Fatalf("pageBuf page differs (len %d, want %d)", pb.Len(), len(want))
	}
	frag := part.(*fragment)
	shared := false
	for _, s := range pb.segs {
		if s.sh == frag.parts[0] {
			shared = true
		}
	}
	if !shared {
		t.Error("the fragment was copied into the page buffer, not shared")
	}
}
