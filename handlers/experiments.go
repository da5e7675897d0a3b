package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/report"
	"schedlab/solvers/sweep"
	"schedlab/store"
	"schedlab/views"
)

// experimentsStore is what the experiments pages (experiments.go, expsnap.go) read and change (*store.Store).
type experimentsStore interface {
	GetExperiment(ctx context.Context, id string) (*store.Experiment, error)
	ListExperimentsPage(ctx context.Context, f store.ExperimentFilter) ([]store.Experiment, store.Cursor, error)
	ExperimentProgress(ctx context.Context, id string) (total, done, failed, active int, err error)
	ExperimentRunList(ctx context.Context, id string, f store.ExperimentRunFilter) ([]store.ExperimentRunItem, int, error)
	ExperimentVersion(ctx context.Context, id string) (store.Counts, int64, error)
	ExperimentChangesSince(ctx context.Context, id string, since int64) (*store.ExperimentChanges, error)
	RunOutcomes(ctx context.Context, ids []string) (map[string]store.RunOutcome, error)
	WorkloadNames(ctx context.Context, ids []string) (map[string]string, error)
	CancelExperiment(ctx context.Context, id string) (running []string, err error)
	ResumeExperiment(ctx context.Context, id string) (int, error)
}

// maxDefinition caps an experiment definition's body: a definition is a
// few KiB; reference values for a paper's figures stay well under this.
const maxDefinition = 1 << 20

// apiExperiment is an experiment as the API shows it.
type apiExperiment struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Strategy   string   `json:"strategy"`
	Tags       []string `json:"tags"`
	Notes      string   `json:"notes"` // markdown
	Status     string   `json:"status"`
	RunsTotal  int      `json:"runs_total"`
	RunsDone   int      `json:"runs_done"`
	RunsFailed int      `json:"runs_failed"`
	CreatedAt  string   `json:"created_at"`
	URL        string   `json:"url"`
	ResultsURL string   `json:"results_url"`
}

// readDefinition reads an experiment definition from a JSON or YAML body.
func readDefinition(c echo.Context) (*sweep.Definition, error) {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxDefinition+1))
	if err != nil {
		return nil, formErr(err)
	}
	if len(body) > maxDefinition {
		return nil, tooLarge("body", maxDefinition)
	}
	if ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType)); ct == echo.MIMEApplicationJSON {
		return experiments.ParseJSON(body)
	}
	return experiments.ParseYAML(body)
}

func (s *Server) toAPIExperiment(ctx context.Context, e *store.Experiment) (apiExperiment, error) {
	total, done, failed, active, err := s.store.ExperimentProgress(ctx, e.ID)
	if err != nil {
		return apiExperiment{}, err
	}
	status := e.Status
	if status == store.ExperimentRunning && active == 0 {
		status = store.ExperimentDone
	}
	tags := e.Tags
	if tags == nil {
		tags = []string{}
	}
	return apiExperiment{ID: e.ID, Name: e.Name, Strategy: e.Strategy, Tags: tags, Notes: e.Notes, Status: status, RunsTotal: total,
		RunsDone: done, RunsFailed: failed, CreatedAt: e.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
		URL: "/experiments/" + e.ID, ResultsURL: "/api/experiments/" + e.ID + "/results"}, nil
}

// apiCreateExperiment: POST /api/experiments with a definition (JSON, or
// YAML as application/yaml).
func (s *Server) apiCreateExperiment(c echo.Context) error {
	def, err := readDefinition(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	e, err := s.exps.Start(ctx, def, ownerID(c))
	if err != nil {
		return err
	}
	a, err := s.toAPIExperiment(ctx, e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, a)
}

func (s *Server) apiGetExperiment(c echo.Context) error {
	ctx := c.Request().Context()
	e, err := s.store.GetExperiment(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	a, err := s.toAPIExperiment(ctx, e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

// experimentResults aggregates an experiment's stored runs: one row per
// cell, variant and metric (or pooled over every parameter not in keep).
// A run that ended done without the result a metric needs counts in that
// row's failed and no_result (experiments.Outcome).
func (s *Server) experimentResults(ctx context.Context, id string, keep []string) ([]experiments.Row, error) {
	e, err := s.store.GetExperiment(ctx, id)
	if err != nil {
		return nil, err
	}
	sn, err := s.snapshot(ctx, e)
	if err != nil {
		return nil, err
	}
	return experiments.AggregateWith(sn.results, experiments.Options{Keep: keep, Infos: sn.infos}), nil
}

// runResults are stored runs as aggregation takes them. Runs with equal
// cells share the cell's string: each distinct cell is decoded once (cells
// keeps them by their JSON), and its map shared (aggregation only reads
// it).
func runResults(runs []store.ExperimentState, cells map[string]map[string]string) ([]experiments.RunResult, error) {
	results := make([]experiments.RunResult, len(runs))
	n := 0
	for _, r := range runs {
		n += len(r.Metrics)
	}
	values := make([]experiments.Metric, 0, n) // every run's metrics, one array
	for i, r := range runs {
		cell, ok := cells[r.Cell]
		if !ok {
			if err := json.Unmarshal([]byte(r.Cell), &cell); err != nil {
				return nil, errs.Wrap(errs.Internal, err)
			}
			cells[r.Cell] = cell
		}
		start := len(values)
		for _, m := range r.Metrics {
			values = append(values, experiments.Metric{Name: m.Name, Value: m.Value})
		}
		results[i] = experiments.RunResult{Params: cell, Variant: r.Variant, Status: r.Status,
			Values: values[start:len(values):len(values)], CellKey: r.Cell, Replicate: r.Replicate}
	}
	return results, nil
}

// apiExperimentResults: GET /api/experiments/:id/results[?keep=a,b].
func (s *Server) apiExperimentResults(c echo.Context) error {
	var keep []string
	if k := c.QueryParam("keep"); k != "" {
		keep = strings.Split(k, ",")
	}
	rows, err := s.experimentResults(c.Request().Context(), c.Param("id"), keep)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"rows": rows})
}

// ownExperiment is experiment :id if the request's user may change it.
func (s *Server) ownExperiment(c echo.Context) (*store.Experiment, error) {
	e, err := s.store.GetExperiment(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, err
	}
	if err := s.mayChange(c, e.Owner, "experiment "+e.ID); err != nil {
		return nil, err
	}
	return e, nil
}

// cancelExperiment cancels experiment :id: its queued runs at once, its
// running ones through the runner.
func (s *Server) cancelExperiment(c echo.Context) error {
	ctx := c.Request().Context()
	e, err := s.ownExperiment(c)
	if err != nil {
		return err
	}
	running, err := s.store.CancelExperiment(ctx, e.ID)
	if err != nil {
		return err
	}
	for _, id := range running {
		if err := s.runner.Cancel(ctx, id); err != nil && !errs.Is(err, errs.Conflict) {
			return err
		}
	}
	return nil
}

// resumeExperiment queues the canceled and interrupted runs of canceled
// experiment :id again and wakes the workers.
func (s *Server) resumeExperiment(c echo.Context) error {
	e, err := s.ownExperiment(c)
	if err != nil {
		return err
	}
	if _, err := s.store.ResumeExperiment(c.Request().Context(), e.ID); err != nil {
		return err
	}
	s.runner.Wake()
	return nil
}

// experimentView parses what /experiments/:id asks (experiments.Query and
// the run list's filter and page) and has experiments.Analyze build the
// page from the experiment's snapshot.
func (s *Server) experimentView(c echo.Context, e *store.Experiment) (views.ExperimentProps, error) {
	ctx := c.Request().Context()
	a, err := s.toAPIExperiment(ctx, e)
	if err != nil {
		return views.ExperimentProps{}, err
	}
	p := views.ExperimentProps{ID: e.ID, Name: e.Name, Strategy: e.Strategy, Status: a.Status, Total: a.RunsTotal,
		Done: a.RunsDone, Failed: a.RunsFailed, Notes: e.Notes, Tags: e.Tags, Labels: experimentLabels(e)}
	def, err := experiments.ParseJSON(e.Definition)
	if err != nil {
		return p, errs.Wrap(errs.Internal, err)
	}
	var variants []string
	if st, err := s.lookup(e.Strategy); err == nil {
		for _, v := range st.Variants {
			variants = append(variants, v.Name)
		}
	}
	p.Fields = def.Fields(variants)
	sn, err := s.snapshot(ctx, e)
	if err != nil {
		return p, err
	}
	p.Workers = sn.workers
	q := experiments.Query{X: c.QueryParam("x"), Metric: c.QueryParam("metric"), A: c.QueryParam("a"), B: c.QueryParam("b"),
		Variants: def.Variants}
	if v := c.QueryParam("pool"); v != "" {
		q.Pool = strings.Split(v, ",")
	}
	if len(q.Variants) == 0 {
		q.Variants = variants
	}
	q.Primary = report.Primary(sn.family)
	if q.Names, err = memo(sn, "names", func() (map[string]string, error) { return s.experimentWorkloadNames(ctx, def.Workload.IDs) }); err != nil {
		return p, err
	}
	p.WorkloadNames = q.Names
	p.Analysis, err = memo(sn, "analysis\x00"+fmt.Sprint(q), func() (experiments.Analysis, error) {
		return experiments.Analyze(sn.results, sn.infos, def.References, q), nil
	})
	if err != nil {
		return p, err
	}
	if p.RunList, err = s.experimentRunList(c, e.ID, q.Variants, sn, p.Analysis); err != nil {
		return p, err
	}
	return p, nil
}

// maxNamedWorkloads bounds the stored workloads whose names an
// experiment's page looks up; past it the others read as their IDs.
const maxNamedWorkloads = 200

// experimentWorkloadNames are the names of the stored workloads ids by ID,
// for the page to name them (issue 42 item 6): a name two of them share
// gets the ID after it, "KTH (w3)", so that no two series read alike.
func (s *Server) experimentWorkloadNames(ctx context.Context, ids []string) (map[string]string, error) {
	names, err := s.store.WorkloadNames(ctx, ids[:min(len(ids), maxNamedWorkloads)])
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	for id, n := range names {
		if n == "" {
			delete(names, id)
		} else if count[n] > 1 {
			names[id] = n + " (" + id + ")"
		}
	}
	return names, nil
}

// runListSize is how many runs the experiment page lists at a time.
const runListSize = 50

// experimentRunList is the page of the experiment's runs its page lists:
// filtered by ?status= and ?variant=, from ?runs_from= (an offset),
// failed first.
func (s *Server) experimentRunList(c echo.Context, id string, variants []string, sn *expSnap, an experiments.Analysis) (views.ExperimentRunList, error) {
	l := views.ExperimentRunList{Status: c.QueryParam("status"), Variant: c.QueryParam("variant"), Variants: variants,
		Metric: an.Query.Metric, NoResultCount: an.NoResult}
	if v := c.QueryParam("runs_from"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return l, errs.Invalidf("runs_from", "must be a whole number from 0, got %q", v)
		}
		l.From = n
	}
	ctx := c.Request().Context()
	pg, err := s.experimentRunPage(ctx, id, sn, l)
	if err != nil {
		return l, err
	}
	type shown struct{ items, noResult []views.ExperimentRunItem }
	sh, err := memo(sn, fmt.Sprintf("shown\x00%s\x00%s\x00%d\x00%s", l.Status, l.Variant, l.From, l.Metric), func() (shown, error) {
		out, err := s.runItems(ctx, pg.items, sn, l.Metric)
		if err != nil {
			return shown{}, err
		}
		var nr []views.ExperimentRunItem
		if an.NoResult > 0 {
			if nr, err = s.noResultReasons(ctx, id, sn, l.Metric); err != nil {
				return shown{}, err
			}
		}
		return shown{out, nr}, nil
	})
	if err != nil {
		return l, err
	}
	l.Items, l.Total, l.NoResult = sh.items, pg.total, sh.noResult
	if next := l.From + len(l.Items); next < l.Total {
		q := c.QueryParams()
		q.Set("runs_from", strconv.Itoa(next))
		l.Next = c.Request().URL.Path + "?" + q.Encode() + "#runs"
	}
	return l, nil
}

// runPage, experimentRunPage: a page of the experiment's runs (l's status, variant and
// start), chosen from the snapshot (status, variant, position: the order
// the store's list has, not done first), then read by position: no pass
// over the experiment's runs in the store.
type runPage struct {
	items []store.ExperimentRunItem
	total int
}

func (s *Server) experimentRunPage(ctx context.Context, id string, sn *expSnap, l views.ExperimentRunList) (runPage, error) {
	return memo(sn, fmt.Sprintf("runs\x00%s\x00%s\x00%d", l.Status, l.Variant, l.From), func() (runPage, error) {
		positions, total := sn.runPage(l.Status, l.Variant, l.From, runListSize)
		if len(positions) == 0 {
			return runPage{total: total}, nil
		}
		items, _, err := s.store.ExperimentRunList(ctx, id, store.ExperimentRunFilter{Positions: positions, Limit: len(positions)})
		if err != nil {
			return runPage{}, err
		}
		order := make(map[int]int, len(positions))
		for i, p := range positions {
			order[p] = i
		}
		slices.SortFunc(items, func(a, b store.ExperimentRunItem) int { return order[a.Position] - order[b.Position] })
		return runPage{items, total}, nil
	})
}

// experimentPage: GET /experiments/:id. The charts of a done experiment
// are served at /api/experiments/:id/charts with the page's query
// (immutable); a running one's under a one-off key, as its live parts'.
func (s *Server) experimentPage(c echo.Context) error {
	e, p, err := s.experimentProps(c)
	if err != nil {
		return err
	}
	sn, err := s.snapshot(c.Request().Context(), e)
	if err != nil {
		return err
	}
	p.Cite = s.citeFrom(c.Request().Context(), c, "experiment", "/experiments/"+e.ID, sn.builds, sn.workloads, sn.more)
	if p.Status != store.ExperimentDone {
		return s.render(c, http.StatusOK, views.ExperimentPage(p))
	}
	url := experimentChartsURL(c)
	return s.renderCharts(c, http.StatusOK, views.ExperimentPage(p), url, "experiment:"+url, s.pages)
}

// experimentChartsURL is where the charts of the experiment page asked
// for are.
func experimentChartsURL(c echo.Context) string {
	return "/api/experiments/" + c.Param("id") + "/charts?" + c.QueryString()
}

// experimentProps reads experiment :id and its view.
func (s *Server) experimentProps(c echo.Context) (*store.Experiment, views.ExperimentProps, error) {
	e, err := s.store.GetExperiment(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, views.ExperimentProps{}, err
	}
	p, err := s.experimentView(c, e)
	return e, p, err
}

// experimentLive: GET /experiments/:id/live, with the page's own query:
// the parts of the experiment's page that its runs change (status,
// progress, choices, charts, tables, runs) as an HTML fragment, which the
// page of a running experiment swaps in as runs end (static/app.js).
func (s *Server) experimentLive(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	_, p, err := s.experimentProps(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.ExperimentLive(p))
}

// apiExperimentCharts: GET /api/experiments/:id/charts with the query of
// its page: the data of the charts of a done experiment's page (immutable).
func (s *Server) apiExperimentCharts(c echo.Context) error {
	url := experimentChartsURL(c)
	if _, ok := s.pages.Get("experiment:" + url); !ok {
		// Refused before any work: an experiment not done keeps no charts.
		e, err := s.store.GetExperiment(c.Request().Context(), c.Param("id"))
		if err != nil {
			return err
		}
		a, err := s.toAPIExperiment(c.Request().Context(), e)
		if err != nil {
			return err
		}
		if a.Status != store.ExperimentDone {
			return errs.New(errs.Conflict, "id", "experiment %s is %s: its charts are not kept", e.ID, a.Status)
		}
	}
	p, err := s.piece("experiment:"+url, func() (*piece, error) {
		_, p, err := s.experimentProps(c)
		if err != nil {
			return nil, err
		}
		if p.Status != store.ExperimentDone {
			return nil, errs.New(errs.Conflict, "id", "experiment %s is %s: its charts are not kept", p.ID, p.Status)
		}
		pc, err := renderPiece(nil, url, views.ExperimentPage(p))
		if pc != nil {
			pc.html = nil // the page is rendered per request
		}
		return pc, err
	})
	if err != nil {
		return err
	}
	return s.writeCharts(c, p, true)
}

// apiExperimentPivot: GET /api/experiments/:id/pivot.csv or pivot.tex with
// metric, rows and cols (comma lists of swept names and "variant"): the
// pivot table of mean and 95 % CI, as CSV or LaTeX (booktabs), pooled over
// every swept parameter not placed, which its caption names with the
// interval's method.
func (s *Server) apiExperimentPivot(c echo.Context) error {
	format := c.Param("format")
	if format != "pivot.csv" && format != "pivot.tex" {
		return errs.New(errs.NotFound, "format", "no %q: use pivot.csv or pivot.tex", format)
	}
	split := func(v string) []string {
		if v == "" {
			return nil
		}
		return strings.Split(v, ",")
	}
	ctx := c.Request().Context()
	e, err := s.store.GetExperiment(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	sn, err := s.snapshot(ctx, e)
	if err != nil {
		return err
	}
	results, infos := sn.results, sn.infos
	p, err := experiments.PivotOf(results, infos, c.QueryParam("metric"), split(c.QueryParam("rows")), split(c.QueryParam("cols")))
	if err != nil {
		return err
	}
	body, mime := p.CSV(), "text/csv; charset=utf-8"
	if format == "pivot.tex" {
		body, mime = p.LaTeX(), "application/x-tex; charset=utf-8"
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", c.Param("id")+"-"+format))
	return c.Blob(http.StatusOK, mime, body)
}

// experimentsPage lists experiments, newest first, a page at a time (the
// user's own with --auth).
func (s *Server) experimentsPage(c echo.Context) error {
	ctx := c.Request().Context()
	limit, cursor, err := page(c)
	if err != nil {
		return err
	}
	var p views.ExperimentsProps
	if owner, ok := s.listOwner(c); ok {
		list, next, err := s.store.ListExperimentsPage(ctx, store.ExperimentFilter{Owner: owner, Limit: limit, Cursor: cursor})
		if err != nil {
			return err
		}
		for i := range list {
			a, err := s.toAPIExperiment(ctx, &list[i])
			if err != nil {
				return err
			}
			p.Items = append(p.Items, views.ExperimentItem{ID: a.ID, Name: a.Name, Strategy: a.Strategy, Status: a.Status,
				Total: a.RunsTotal, Done: a.RunsDone, Failed: a.RunsFailed, CreatedAt: list[i].CreatedAt})
		}
		p.Next = nextURL(c, next)
	}
	return s.render(c, http.StatusOK, views.Experiments(p))
}
