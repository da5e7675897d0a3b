package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// Serving decisions:
//
//   - Only the embedded files themselves are served, by base name: "/static/",
//     any directory and any unknown name are 404, never a listing.
//   - Pages link an asset by URL(name), "/static/NAME?v=HASH" where HASH is
//     the first hashLen hex digits of the file's sha256. A request whose v is
//     the current hash gets Cache-Control "public, max-age=31536000,
//     immutable": the browser never asks again, and a new build changes the
//     hash and so the URL. Without v, or with a stale one, the response says
//     "no-cache" so that the browser revalidates.
//   - Every response carries an ETag (the hash) and answers If-None-Match
//     with 304.
//   - Compressible files (JavaScript, CSS) are gzipped once, on the first
//     request for any asset, and sent with Content-Encoding: gzip to clients
//     that accept it; every response says Vary: Accept-Encoding.

// hashLen is how many hex digits of the sha256 name a version: 48 bits.
const hashLen = 12

// immutable is the Cache-Control of a versioned URL.
const immutable = "public, max-age=31536000, immutable"

// asset is one embedded file, ready to serve.
type asset struct {
	ctype string
	body  []byte
	gz    []byte // gzip of body; nil when not worth it
	hash  string // hashLen hex digits of sha256(body)
}

var (
	loadOnce sync.Once
	assets   map[string]*asset
)

// load reads, hashes and compresses every embedded file once.
func load() map[string]*asset {
	loadOnce.Do(func() {
		assets = map[string]*asset{}
		names, _ := fs.Glob(FS, "*")
		for _, n := range names {
			body, err := FS.ReadFile(n)
			if err != nil {
				continue // a directory
			}
			sum := sha256.Sum256(body)
			a := &asset{ctype: mime.TypeByExtension(path.Ext(n)), body: body, hash: hex.EncodeToString(sum[:])[:hashLen]}
			if a.ctype == "" {
				a.ctype = http.DetectContentType(body)
			}
			if compressible(a.ctype) {
				a.gz = gzipped(body)
			}
			assets[n] = a
		}
	})
	return assets
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") ||
		strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
}

// gzipped compresses b at the best level (it is done once); nil when that
// saves less than a tenth.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	if buf.Len() > len(b)*9/10 {
		return nil
	}
	return buf.Bytes()
}

// URL is the versioned address of the embedded file name, e.g.
// "/static/echarts.min.js?v=bf4a223524e4". An unknown name gets its plain
// address (which answers 404).
func URL(name string) string {
	a, ok := load()[name]
	if !ok {
		return "/static/" + name
	}
	return "/static/" + name + "?v=" + a.hash
}

// Handler serves the embedded files under /static/ (it expects the full
// request path, prefix included).
func Handler() http.Handler {
	return http.HandlerFunc(serve)
}

func serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, "/static/")
	a := load()[name]
	if !ok || a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") == a.hash {
		h.Set("Cache-Control", immutable)
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	body, etag := a.body, `"`+a.hash+`"`
	if a.gz != nil && AcceptsGzip(r.Header.Get("Accept-Encoding")) {
		body, etag = a.gz, `"`+a.hash+`-gz"`
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	if matches(r.Header.Get("If-None-Match"), a.hash) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", a.ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// matches reports whether an If-None-Match header names the asset of this
// hash, in either encoding (weak comparison, as RFC 9110 asks for it).
func matches(inm, hash string) bool {
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == `"`+hash+`"` || t == `"`+hash+`-gz"` {
			return true
		}
	}
	return false
}

// AcceptsGzip says whether an Accept-Encoding header value takes gzip
// (gzip, x-gzip or *, with a q above 0).
func AcceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		return q > 0
	}
	return false
}
