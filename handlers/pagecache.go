package handlers

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/static"
	"schedlab/views/charts"
)

// The server's pages cache (s.pages, package cache: least recently used
// out first, bounded by bytes) keeps what finished runs, compares and
// experiments show, which never changes: the report part of a run page
// and the body of a compare page as rendered HTML, the data of their
// charts, and a run's report JSON. A busy lab opens the same large
// results again and again; a hit writes stored bytes instead of decoding
// megabytes of JSON and building charts of tens of thousands of bars.
// Concurrent misses of one key render it once (cache.LRU.Load).
//
// A page holds no chart data: each chart is an element naming where its
// option is (views/charts.Sink) and static/app.js fetches and draws. The
// data of a finished thing's charts comes from its own immutable endpoint
// (/api/runs/:id/charts, /api/compare/charts, /api/experiments/:id/charts),
// compressed once, with an ETag; the charts of anything else (a running
// experiment, the reproduce page, a workload's preview) are kept under a
// one-off key (/api/charts/:key), fetched right after the page.
type piece struct {
	ids  []string // the runs it shows, to forget it when one changes
	html []byte   // rendered HTML; nil for data alone
	data []byte   // gzip of the JSON it serves (its charts' options, a report)
	etag string   // of data
}

func (p *piece) size() int { return len(p.html) + len(p.data) }

// defaultPageCacheBytes bounds the pieces kept: the largest run page of
// the KTH fixture (the gossip run, 6 MB) fits several times; a piece over
// a quarter of it is served but not kept.
const defaultPageCacheBytes = 64 << 20

// oneOffBytes bounds the chart data of pages kept under one-off keys
// (fetched right after their page), apart from the pieces of finished
// results, which they must not push out.
const oneOffBytes = 16 << 20

// gzipped is a piece of data compressed once (at the default level: it is
// sent many times), with its ETag.
func gzipped(ids []string, data []byte) *piece {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(data)
	w.Close()
	sum := sha256.Sum256(data)
	return &piece{ids: ids, data: z.Bytes(), etag: `W/"` + hex.EncodeToString(sum[:12]) + `"`}
}

// compressors are gzip writers (the fastest level) kept across requests
// for the pages, compressed at each request.
// One costs about 1 MiB to allocate; a sync.Pool, as echo's gzip
// middleware keeps them in, is emptied by every collection, which under
// load comes many times a second, so each request allocated one again
// (p99 of "/" at 100 clients 139 ms, against 98 ms with this list).
var compressors = make(chan *gzip.Writer, 8)

// compress returns data gzip-compressed at the fastest level.
func compress(data []byte) []byte {
	var z bytes.Buffer
	var w *gzip.Writer
	select {
	case w = <-compressors:
		w.Reset(&z)
	default:
		w, _ = gzip.NewWriterLevel(&z, gzip.BestSpeed)
	}
	w.Write(data)
	w.Close()
	select {
	case compressors <- w:
	default:
	}
	return z.Bytes()
}

// renderPiece renders comp, its charts served at url. It outlives the
// request: rendered under a context of its own, so that one client going
// away does not fail the others waiting for it.
func renderPiece(ids []string, url string, comp templ.Component) (*piece, error) {
	ctx, sink := charts.WithSink(context.Background(), url)
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return nil, err
	}
	p := &piece{ids: ids}
	if sink.Len() > 0 {
		p = gzipped(ids, sink.JSON())
	}
	p.html = bytes.Clone(buf.Bytes())
	return p, nil
}

// piece returns the piece under key, made by make on a miss, once however
// many ask at once.
func (s *Server) piece(key string, make func() (*piece, error)) (*piece, error) {
	return s.pages.Load(key, func() (*piece, int, error) {
		p, err := make()
		if err != nil {
			return nil, 0, err
		}
		return p, p.size(), nil
	}, func(n int) bool { return n <= defaultPageCacheBytes/4 })
}

// forgetRun drops every piece that shows run id (deleted, or relabelled).
func (s *Server) forgetRun(id string) {
	s.pages.RemoveIf(func(_ string, p *piece) bool { return slices.Contains(p.ids, id) })
}

// writeCharts answers a request for p's chart data: 304 when the client
// has it (If-None-Match), immutable when the thing it draws is finished.
// An --auth server's chart data is "private": the browser keeps it, a
// shared cache (a proxy between the lab and its users) must not, as it
// must not keep the page that names it (issue 41).
func (s *Server) writeCharts(c echo.Context, p *piece, immutable bool) error {
	if p.data == nil {
		p = gzipped(nil, []byte("[]"))
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	if immutable {
		scope := "public"
		if s.auth {
			scope = "private"
		}
		h.Set("Cache-Control", scope+", max-age=31536000, immutable")
	}
	h.Set("ETag", p.etag)
	for _, tag := range strings.Split(c.Request().Header.Get("If-None-Match"), ",") {
		if strings.TrimSpace(tag) == p.etag || strings.TrimSpace(tag) == "*" {
			return c.NoContent(http.StatusNotModified)
		}
	}
	return writeGzipped(c, echo.MIMEApplicationJSON, p.data)
}

// writeGzipped sends data compressed once: as it is to a client that takes
// gzip, decompressed for one that does not.
func writeGzipped(c echo.Context, ctype string, gz []byte) error {
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if static.AcceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		c.Response().Header().Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, ctype, gz)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return err
	}
	return c.Stream(http.StatusOK, ctype, r)
}

// apiCharts: GET /api/charts/:key, the chart data of a page that is not a
// finished result's, kept under a one-off key when the page was rendered.
func (s *Server) apiCharts(c echo.Context) error {
	p, ok := s.oneOff.Get(c.Param("key"))
	if !ok {
		return errs.New(errs.NotFound, "key", "these charts are no longer kept: reload the page")
	}
	return s.writeCharts(c, p, false)
}

// chartsScript: GET /charts.js, the functions of the charts' options
// (charts.Script), versioned by its content (charts.ScriptURL).
func chartsScript(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", charts.Script())
}
