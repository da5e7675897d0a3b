package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t *testing.T, target string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, req)
	return rec
}

func TestNoDirectoryListingOrUnknownFile(t *testing.T) {
	for _, p := range []string{"/static/", "/static/.", "/static/..", "/static/x/", "/static/nope.js", "/static/README.md", "/static/static.go", "/static//app.js", "/static/./app.js"} {
		if rec := get(t, p, nil); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404; body %.80q", p, rec.Code, rec.Body.String())
		}
	}
}

func TestGzipBodyDecodesToTheFile(t *testing.T) {
	for _, name := range []string{"echarts.min.js", "app.js", "app.css"} {
		want, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		rec := get(t, URL(name), map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d, Content-Encoding %q, want 200 gzip", name, rec.Code, rec.Header().Get("Content-Encoding"))
		}
		if rec.Body.Len() >= len(want) {
			t.Errorf("%s: gzip body %d bytes, not smaller than the file's %d", name, rec.Body.Len(), len(want))
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: gunzipped body differs from the file (err %v)", name, err)
		}
		if v := rec.Header().Get("Vary"); v != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", name, v)
		}
		// Without gzip (or with q=0), the plain file.
		for _, ae := range []string{"", "gzip;q=0", "identity"} {
			plain := get(t, URL(name), map[string]string{"Accept-Encoding": ae})
			if plain.Header().Get("Content-Encoding") != "" || !bytes.Equal(plain.Body.Bytes(), want) {
				t.Errorf("%s with Accept-Encoding %q: encoding %q, %d bytes, want the plain file", name, ae,
					plain.Header().Get("Content-Encoding"), plain.Body.Len())
			}
		}
	}
}

func TestVersionedURLIsImmutableAndPlainOneRevalidates(t *testing.T) {
	u := URL("echarts.min.js")
	if !strings.HasPrefix(u, "/static/echarts.min.js?v=") || len(u) != len("/static/echarts.min.js?v=")+hashLen {
		t.Fatalf("URL = %q", u)
	}
	// The README's sha256 of the file starts with the version.
	if !strings.HasSuffix(u, "bf4a223524e4") {
		t.Errorf("URL %q does not carry the file's sha256 prefix bf4a223524e4", u)
	}
	if cc := get(t, u, nil).Header().Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("versioned: Cache-Control %q", cc)
	}
	for _, p := range []string{"/static/echarts.min.js", "/static/echarts.min.js?v=000000000000"} {
		if cc := get(t, p, nil).Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", p, cc)
		}
	}
}

func TestETagAnswers304(t *testing.T) {
	u := URL("app.css")
	for _, ae := range []string{"", "gzip"} {
		first := get(t, u, map[string]string{"Accept-Encoding": ae})
		etag := first.Header().Get("ETag")
		if etag == "" {
			t.Fatalf("no ETag")
		}
		rec := get(t, u, map[string]string{"If-None-Match": etag, "Accept-Encoding": ae})
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("If-None-Match %s: %d with %d bytes, want 304 and no body", etag, rec.Code, rec.Body.Len())
		}
		if rec.Header().Get("ETag") != etag {
			t.Errorf("304 ETag %q, want %q", rec.Header().Get("ETag"), etag)
		}
	}
	if rec := get(t, u, map[string]string{"If-None-Match": `"0123456789ab"`}); rec.Code != http.StatusOK {
		t.Errorf("another ETag: %d, want 200", rec.Code)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for ae, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "deflate, gzip": true, "gzip;q=0": false, "gzip; q=0.5": true,
		"br": false, "*": true, "*;q=0": false, "x-gzip": true, "identity": false,
	} {
		if got := AcceptsGzip(ae); got != want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", ae, got, want)
		}
	}
}
