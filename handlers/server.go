package handlers

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"schedlab/adversaries"
	"schedlab/cache"
	"schedlab/errs"
	"schedlab/notify"
	"schedlab/report"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/service"
	"schedlab/solvers"
	"schedlab/static"
	"schedlab/store"
	"schedlab/views"
	"schedlab/views/charts"
)

// DefaultMaxUpload is the largest accepted upload body: large enough for the
// full KTH SWF trace uncompressed, small enough that a stray upload cannot
// fill the server's memory.
const DefaultMaxUpload = 64 << 20

// Store is what the handlers need of the store (*store.Store): each page
// declares the methods it calls, beside its handlers, and the experiment
// service its own (service.Store). Tests serve pages over an in-memory fake.
type Store interface {
	runsStore
	runFilesStore
	workloadsStore
	compareStore
	experimentsStore
	bundleStore
	sweepFormStore
	labelsStore
	accountsStore
	adversaryStore
	workersStore
	healthStore
	service.Store
}

// Runner is what the handlers need of the runner (*runner.Runner).
type Runner interface {
	Submit(ctx context.Context, in *runtypes.Run) (*runtypes.Run, error)
	Rerun(ctx context.Context, id, owner string) (*runtypes.Run, error)
	Cancel(ctx context.Context, id string) error
	Progress(id string) (done, total int, note string, ok bool)
	Budget() solvers.Budget
	Wake()
	Workers() []runtypes.WorkerStatus
}

// diskWatch is what the handlers ask of the database's disk (*store.Disk).
type diskWatch interface {
	Status() store.DiskStatus
	Refuse() error
	Full(err error) bool
}

// Server holds what the handlers need. Build it with New.
type Server struct {
	store           Store
	runner          Runner
	disk            diskWatch
	strategies      []*solvers.Strategy
	maxUpload       int64
	auth            bool
	reports         *cache.LRU[string, *report.Report] // decoded reports of done runs (report)
	pages           *cache.LRU[string, *piece]         // what finished results show (pagecache.go)
	oneOff          *cache.LRU[string, *piece]         // the chart data of other pages, by one-off key
	snaps           expSnaps                           // experiments' runs as their pages read them (expsnap.go)
	logins          *loginLimiter
	exps            *service.Service // definition → stored runs
	generateTimeout time.Duration    // bounds a workload generated in a request
	notifyGuard     notify.Guard     // where notify_url may point (--notify-allow)
	searches        *adversaries.Driver
}

// Options configure a Server. Zero fields take the defaults.
type Options struct {
	// MaxUpload is the largest accepted upload body in bytes
	// (DefaultMaxUpload); every other request body is capped at 1 MiB.
	MaxUpload int64
	// Auth makes the server multi-user (schedlab serve --auth): every
	// change needs a logged-in user or an API token, workloads and runs
	// record their owner, only the owner (or an admin) may cancel, re-run
	// or delete a run, and lists show the user's own items. A run's page
	// and report stay readable by anyone with the link. Without Auth the
	// server is single-user and asks for nothing.
	Auth bool
	// Budget bounds experiments' generated workloads (DefaultBudget for
	// zero fields).
	Budget service.Budget
	// GenerateTimeout bounds the time one workload may take to generate
	// inside a request (DefaultGenerateTimeout when zero).
	GenerateTimeout time.Duration
	// NotifyAllow are the internal networks a notify_url may reach
	// (schedlab serve --notify-allow; notify.Guard): the form says so, and
	// a URL naming another internal address literally is refused at once.
	NotifyAllow []netip.Prefix
	// Searches runs the adversarial searches (issue 45); nil: one over the
	// store and the runner, not kicked by the runner (it looks every
	// adversaries.DefaultPoll).
	Searches *adversaries.Driver
}

// New returns a Server over a store and a runner for the given strategies.
func New(st *store.Store, rn *runner.Runner, strategies []*solvers.Strategy, opt Options) *Server {
	s := newServer(st, st.Disk(), rn, strategies, opt)
	if s.searches == nil {
		s.searches = adversaries.New(st, rn, func(name string) (*solvers.Strategy, bool) {
			st, err := s.lookup(name)
			return st, err == nil
		}, adversaries.Options{})
	}
	return s
}

// newServer is New over any Store, disk and Runner (tests give fakes);
// opt.Searches nil leaves the server without adversarial searches.
func newServer(st Store, disk diskWatch, rn Runner, strategies []*solvers.Strategy, opt Options) *Server {
	if opt.MaxUpload <= 0 {
		opt.MaxUpload = DefaultMaxUpload
	}
	if opt.GenerateTimeout <= 0 {
		opt.GenerateTimeout = DefaultGenerateTimeout
	}
	s := &Server{store: st, runner: rn, disk: disk, strategies: strategies, maxUpload: opt.MaxUpload, auth: opt.Auth,
		pages: cache.New[string, *piece](defaultPageCacheBytes), reports: cache.New[string, *report.Report](reportCacheBytes),
		oneOff: cache.New[string, *piece](oneOffBytes), logins: newLoginLimiter(),
		generateTimeout: opt.GenerateTimeout, notifyGuard: notify.Guard{Allow: opt.NotifyAllow}, searches: opt.Searches}
	s.exps = service.New(st, s.lookup, service.Options{Budget: opt.Budget, Limits: rn.Budget(), CheckNotify: s.checkNotifyHost, Stored: rn.Wake})
	return s
}

func (s *Server) lookup(name string) (*solvers.Strategy, error) {
	for _, st := range s.strategies {
		if st.Info.Name == name {
			return st, nil
		}
	}
	if name == "" {
		return nil, errs.Invalidf("strategy", "missing: choose one of %s", strings.Join(s.names(), ", "))
	}
	return nil, errs.New(errs.NotFound, "strategy", "unknown strategy %q (known: %s)", name, strings.Join(s.names(), ", "))
}

func (s *Server) names() []string {
	return mapped(s.strategies, func(st *solvers.Strategy) string { return st.Info.Name })
}

func viewOf(st *solvers.Strategy) views.StrategyView {
	return views.StrategyView{Info: st.Info, Variants: st.Variants, Params: st.Params, Presets: st.Presets,
		Uploads: st.Uploads, Exports: st.Exports}
}

func (s *Server) views() []views.StrategyView { return mapped(s.strategies, viewOf) }

// render writes a page through a buffer: a template error sends no half
// page. The data of the charts it draws is kept under a one-off key for the
// page's script to fetch (/api/charts/:key).
func (s *Server) render(c echo.Context, status int, comp templ.Component) error {
	key := randomToken(12)
	return s.renderCharts(c, status, comp, "/api/charts/"+key, key, s.oneOff)
}

// renderCharts is render with the charts served at url from key of to
// (kept there unless it holds them already).
func (s *Server) renderCharts(c echo.Context, status int, comp templ.Component, url, key string, to *cache.LRU[string, *piece]) error {
	ctx, sink := charts.WithSink(c.Request().Context(), url)
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	if sink.Len() > 0 {
		if _, ok := to.Get(key); !ok {
			p := gzipped(nil, sink.JSON())
			to.Put(key, p, p.size())
		}
	}
	page := buf.Bytes()
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if len(page) < 1<<10 || !static.AcceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		return c.HTMLBlob(status, page)
	}
	c.Response().Header().Set(echo.HeaderContentEncoding, "gzip")
	return c.Blob(status, echo.MIMETextHTMLCharsetUTF8, compress(page))
}

// statusOf maps an error kind to an HTTP status.
func statusOf(err error) int {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he.Code
	}
	switch errs.KindOf(err) {
	case errs.Invalid:
		return http.StatusBadRequest
	case errs.NotFound:
		return http.StatusNotFound
	case errs.Conflict, errs.Canceled:
		return http.StatusConflict
	case errs.TooLarge:
		return http.StatusRequestEntityTooLarge
	case errs.Unauthenticated:
		return http.StatusUnauthorized
	case errs.Forbidden:
		return http.StatusForbidden
	case errs.NoSpace:
		return http.StatusInsufficientStorage
	}
	return http.StatusInternalServerError
}

// apiError is the JSON body of every API error: the first problem, and
// all of them when a request has several (every bad parameter at once).
type apiError struct {
	Error    string       `json:"error"`
	Field    string       `json:"field,omitempty"`
	Problems []apiProblem `json:"problems,omitempty"`
}

type apiProblem struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

func messageOf(err error) string {
	if l, ok := err.(errs.List); ok && len(l) > 0 {
		return messageOf(l[0])
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return fmt.Sprint(he.Message)
	}
	// Stored JSON of the wrong shape (an older build wrote it): the field
	// and what it must be, never Go's names of types. Errors of a user's
	// input say so in their own words already.
	var typ *json.UnmarshalTypeError
	if statusOf(err) == http.StatusInternalServerError && errors.As(err, &typ) {
		return fmt.Sprintf("stored data does not read: %s must be %s, got JSON %s", cmp.Or(typ.Field, "the value"), errs.JSONType(typ.Type), typ.Value)
	}
	if statusOf(err) == http.StatusInternalServerError && errs.KindOf(err) == errs.Other {
		return "internal error: " + err.Error()
	}
	var e *errs.Error
	if errors.As(err, &e) && e.Err != nil {
		return e.Err.Error()
	}
	return err.Error()
}

func wantsJSON(c echo.Context) bool {
	r := c.Request()
	return strings.HasPrefix(r.URL.Path, "/api/") ||
		(strings.Contains(r.Header.Get("Accept"), "application/json") && !strings.Contains(r.Header.Get("Accept"), "text/html"))
}

func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status := statusOf(err)
	if status >= 500 && status != http.StatusInsufficientStorage { // a full disk is logged once, by store.Disk
		c.Logger().Error(err)
	}
	body := apiError{Error: messageOf(err), Field: errs.FieldOf(err)}
	if all := errs.All(err); len(all) > 1 {
		for _, e := range all {
			body.Problems = append(body.Problems, apiProblem{Error: messageOf(e), Field: errs.FieldOf(e)})
		}
	}
	if wantsJSON(c) {
		_ = c.JSON(status, body)
		return
	}
	_ = s.render(c, status, views.ErrorPage(status, body.Error, body.Field))
}

// The reports cache keeps the decoded reports of finished runs, which
// never change, for the uses that need the report itself (a table's CSV,
// the reproduce page); pages draw from the pages cache instead. A decoded
// report takes about ten times its JSON (a KTH batch report: 2.5 MB of
// JSON, 26 MB decoded, its tables' cells boxed one by one), so the cache
// counts the JSON bytes of what it holds, at most reportCacheBytes.
const reportCacheBytes = 8 << 20

// report returns run's decoded report, from the cache when it is there.
// Callers must not modify it.
func (s *Server) report(run *runtypes.Run) (*report.Report, error) {
	if run.Status != runtypes.StatusDone {
		return decodeReport(run.Report), nil
	}
	return s.reports.Load(run.ID, func() (*report.Report, int, error) {
		return decodeReport(run.Report), len(run.Report), nil
	}, func(int) bool { return true })
}

// decodeReport decodes a stored report; nil when there is none. A part
// that cannot be read (a report stored before imports were checked) is
// left out and named in the report's Unreadable, which pages show in its
// place: a page never fails whole for one bad part.
func decodeReport(raw json.RawMessage) *report.Report {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return report.DecodeReportParts(raw)
}

// workloadNames maps the workload ids of runs to their names, for run
// lists; it reads those workloads only. A failure shows ids instead.
func (s *Server) workloadNames(ctx context.Context, runs []runtypes.Run) map[string]string {
	m, err := s.store.WorkloadNames(ctx, mapped(runs, func(r runtypes.Run) string { return r.WorkloadID }))
	if err != nil {
		return nil
	}
	return m
}

// Lists (/runs, /workloads, /api/runs, /api/workloads) come in pages,
// newest first: ?limit=N (default pageSize, at most maxPageSize) and
// ?cursor=C, the opaque position a previous page gave. Pages link the next
// with "Older →"; the API keeps its JSON array body and names the next page
// in the headers Link: <URL>; rel="next" and X-Next-Cursor (absent on the
// last page).
const (
	pageSize    = 50
	maxPageSize = 200
)

// page reads ?limit and ?cursor.
func page(c echo.Context) (int, store.Cursor, error) {
	limit := pageSize
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, "", errs.Invalidf("limit", "must be a whole number from 1 to %d, got %q", maxPageSize, v)
		}
		limit = min(n, maxPageSize)
	}
	return limit, store.Cursor(c.QueryParam("cursor")), nil
}

// apiPage reads an API list's page (page) of the user's own items (listOwner).
func (s *Server) apiPage(c echo.Context, what string) (string, int, store.Cursor, error) {
	owner, ok := s.listOwner(c)
	if !ok {
		return "", 0, "", errs.New(errs.Unauthenticated, "authorization", "log in or send an API token to list your %s", what)
	}
	limit, cursor, err := page(c)
	return owner, limit, cursor, err
}

// nextURL is the request's URL with cursor set to next (limit and filters
// kept), or "" when next is empty: there is no next page.
func nextURL(c echo.Context, next store.Cursor) string {
	if next == "" {
		return ""
	}
	q := c.QueryParams()
	q.Set("cursor", string(next))
	return c.Request().URL.Path + "?" + q.Encode()
}

// setNext names the next page of an API list in the response headers.
func setNext(c echo.Context, next store.Cursor) {
	if next == "" {
		return
	}
	h := c.Response().Header()
	h.Set("Link", "<"+nextURL(c, next)+`>; rel="next"`)
	h.Set("X-Next-Cursor", string(next))
}
