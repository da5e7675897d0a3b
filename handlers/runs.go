package handlers

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
	"schedlab/views"
)

// runsStore is what the runs pages (runs.go, runcols.go, the run lists' workload names) read and change (*store.Store).
type runsStore interface {
	GetRun(ctx context.Context, id string) (*runtypes.Run, error)
	GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error)
	GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error)
	LatestRun(ctx context.Context, strategy, kind string) (*runtypes.Run, error)
	ListRuns(ctx context.Context, f store.RunFilter) ([]runtypes.Run, error)
	ListRunsPage(ctx context.Context, f store.RunFilter) ([]runtypes.Run, store.Cursor, error)
	ListWorkloadsPage(ctx context.Context, strategy, owner string, limit int, cursor store.Cursor) ([]runtypes.Workload, store.Cursor, error)
	DeleteRun(ctx context.Context, id string) error
	MetricValues(ctx context.Context, name string, ids []string) (map[string]float64, error)
	WorkloadNames(ctx context.Context, ids []string) (map[string]string, error)
}

// runRequest is the body of POST /api/runs; the page form sends the same as
// fields (params as the remaining fields).
type runRequest struct {
	WorkloadID string         `json:"workload_id"`
	Strategy   string         `json:"strategy"`
	Variant    string         `json:"variant"`
	Params     solvers.Params `json:"params"`
	Seed       int64          `json:"seed"`
}

// start validates and queues a run. The strategy defaults to the workload's.
func (s *Server) start(c echo.Context, r runRequest) (*runtypes.Run, error) {
	ctx := c.Request().Context()
	if r.WorkloadID == "" {
		return nil, errs.Invalidf("workload_id", "missing: choose a workload")
	}
	if r.Strategy == "" {
		w, err := s.store.GetWorkloadInfo(ctx, r.WorkloadID)
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.NotFound, "workload_id", "no workload %q", r.WorkloadID)
		}
		if err != nil {
			return nil, err
		}
		r.Strategy = w.Strategy
	}
	if _, err := s.lookup(r.Strategy); err != nil {
		return nil, err
	}
	return s.runner.Submit(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: r.WorkloadID, Strategy: r.Strategy,
		Variant: r.Variant, Params: r.Params, Seed: r.Seed, Owner: ownerID(c)})
}

func (s *Server) reproduce(c echo.Context, strategy string, params solvers.Params) (*runtypes.Run, error) {
	if _, err := s.lookup(strategy); err != nil {
		return nil, err
	}
	return s.runner.Submit(c.Request().Context(), &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: strategy, Params: params,
		Owner: ownerID(c)})
}

// formParams reads a form: the named fixed fields, and the parameters,
// which every form sends as p.<name> (views.ParamField) so that they never
// collide with the fixed fields. Other fields (the CSRF token) are not
// parameters.
func formParams(c echo.Context, fixed ...string) (map[string]string, solvers.Params, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, nil, formErr(err)
	}
	head := map[string]string{}
	for _, f := range fixed {
		if vs := form[f]; len(vs) > 0 {
			head[f] = vs[0]
		}
	}
	params := solvers.Params{}
	for k, vs := range form {
		if name, ok := strings.CutPrefix(k, views.ParamPrefix); ok && len(vs) > 0 {
			params[name] = vs[0]
		}
	}
	return head, params, nil
}

// formErrors lists every problem of err for a form.
func formErrors(err error) []views.FormError {
	var out []views.FormError
	for _, e := range errs.All(err) {
		out = append(out, views.FormError{Message: messageOf(e), Field: errs.FieldOf(e)})
	}
	return out
}

// Pages.

func (s *Server) home(c echo.Context) error {
	ctx := c.Request().Context()
	var recent []runtypes.Run
	if owner, ok := s.listOwner(c); ok {
		var err error
		if recent, err = s.store.ListRuns(ctx, store.RunFilter{Owner: owner, Limit: 10}); err != nil {
			return err
		}
	}
	p := views.HomeProps{Recent: s.listRuns(recent), Names: s.workloadNames(ctx, recent)}
	for _, st := range s.strategies {
		p.Families = append(p.Families, st.Info)
	}
	return s.render(c, http.StatusOK, views.Home(p))
}

func (s *Server) runsPage(c echo.Context) error {
	ctx := c.Request().Context()
	p := views.RunsProps{Selected: c.QueryParam("select")}
	for _, st := range s.strategies {
		p.Strategies = append(p.Strategies, st.Info.Name)
	}
	limit, cursor, err := page(c)
	if err != nil {
		return err
	}
	f, asked, err := runFilter(c)
	var colsErr error
	asked.Cols, p.Cols, colsErr = runColumns(c.QueryParams()["cols"])
	p.Filter = asked
	if colsErr != nil {
		err = errs.Join(append(errs.All(err), colsErr))
	}
	if err != nil {
		// The form again, filled in as asked, with every problem above it.
		p.Errs = formErrors(err)
		return s.render(c, statusOf(err), views.Runs(p))
	}
	var runs []runtypes.Run
	var next store.Cursor
	if owner, ok := s.listOwner(c); ok {
		f.Owner, f.Limit, f.Cursor = owner, limit, cursor
		if runs, next, err = s.store.ListRunsPage(ctx, f); err != nil {
			return err
		}
	}
	if f.Metric != "" && len(runs) > 0 {
		if p.Values, err = s.store.MetricValues(ctx, f.Metric, runIDs(runs)); err != nil {
			return err
		}
	}
	if err := s.fillColumns(ctx, p.Cols, runs); err != nil {
		return err
	}
	p.Runs, p.Names, p.Next = s.listRuns(runs), s.workloadNames(ctx, runs), nextURL(c, next)
	if p.NoResult, err = s.runsNoResult(ctx, runs); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Runs(p))
}

func (s *Server) newRunProps(c echo.Context, strategy, workload, variant string, values map[string]string) (views.NewRunProps, error) {
	ctx := c.Request().Context()
	if strategy == "" && workload != "" {
		if w, err := s.store.GetWorkloadInfo(ctx, workload); err == nil {
			strategy = w.Strategy
		}
	}
	if strategy == "" && len(s.strategies) > 0 {
		strategy = s.strategies[0].Info.Name
	}
	st, err := s.lookup(strategy)
	if err != nil {
		return views.NewRunProps{}, err
	}
	var ws []runtypes.Workload
	if owner, ok := s.listOwner(c); ok {
		if ws, _, err = s.store.ListWorkloadsPage(ctx, strategy, owner, 200, ""); err != nil {
			return views.NewRunProps{}, err
		}
	}
	format := ""
	for i, w := range ws {
		if w.ID == workload || (i == 0 && workload == "") {
			format = w.Format
		}
	}
	if variant == "" {
		variant = st.DefaultVariant(format)
	}
	return views.NewRunProps{Strategies: s.views(), Strategy: viewOf(st), Workloads: viewWorkloads(ws), WorkloadID: workload,
		Format: format, Variant: variant, Values: values}, nil
}

func (s *Server) newRunPage(c echo.Context) error {
	p, err := s.newRunProps(c, c.QueryParam("strategy"), c.QueryParam("workload"), c.QueryParam("variant"), nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.NewRun(p))
}

func (s *Server) startRunPage(c echo.Context) error {
	head, params, err := formParams(c, "strategy", "workload_id", "variant", "seed")
	if err != nil {
		return err
	}
	req := runRequest{Strategy: head["strategy"], WorkloadID: head["workload_id"], Variant: head["variant"], Params: params}
	if v := head["seed"]; v != "" {
		if req.Seed, err = strconv.ParseInt(v, 10, 64); err != nil {
			err = errs.Invalidf("seed", "must be a whole number, got %q", v)
		}
	}
	var run *runtypes.Run
	if err == nil {
		run, err = s.start(c, req)
	}
	if err != nil {
		p, perr := s.newRunProps(c, req.Strategy, req.WorkloadID, req.Variant, params)
		if perr != nil {
			return err
		}
		p.Errs = formErrors(err)
		return s.render(c, statusOf(err), views.NewRun(p))
	}
	return c.Redirect(http.StatusSeeOther, "/runs/"+run.ID)
}

func (s *Server) runPage(c echo.Context) error {
	ctx := c.Request().Context()
	// Without the report: a done run's report part comes from the page cache.
	run, err := s.store.GetRunInfo(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	p := views.RunProps{Run: viewRun(*run)}
	if st, err := s.lookup(run.Strategy); err == nil {
		p.Strategy = viewOf(st)
		if run.Kind == runtypes.KindReproduce {
			p.Strategy.Params = st.ReproduceParams
		}
	} else {
		p.Strategy.Info.Title = run.Strategy
	}
	if run.WorkloadID != "" {
		if w, err := s.store.GetWorkloadInfo(ctx, run.WorkloadID); err == nil {
			p.Workload = viewRunWorkload(w)
		}
	}
	if done, total, note, ok := s.runner.Progress(run.ID); ok {
		p.Run.ProgressDone, p.Run.ProgressTotal, p.Run.ProgressNote = done, total, note
	}
	p.Progress = views.Pct(p.Run.ProgressDone, p.Run.ProgressTotal)
	if run.Status == runtypes.StatusDone {
		part, err := s.reportPart(ctx, run.ID)
		if err != nil {
			return err
		}
		p.ReportPart = templ.Raw(string(part.html))
		p.Cite = s.citeOf(ctx, c, "run", "/runs/"+run.ID, []*runtypes.Run{run})
	}
	return s.render(c, http.StatusOK, views.RunPage(p))
}

// ownRun returns run :id if the request's user may change it.
func (s *Server) ownRun(c echo.Context) (*runtypes.Run, error) {
	run, err := s.store.GetRunInfo(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, err
	}
	if err := s.mayChange(c, run.Owner, "run "+run.ID); err != nil {
		return nil, err
	}
	return run, nil
}

// cancel stops run :id if the request's user may.
func (s *Server) cancel(c echo.Context) error {
	run, err := s.ownRun(c)
	if err != nil {
		return err
	}
	return s.runner.Cancel(c.Request().Context(), run.ID)
}

// reportPart is the rendered report of done run id and its charts' data
// (served at /api/runs/:id/charts), from the pages cache; a miss reads and
// decodes the report once, however many ask at once.
func (s *Server) reportPart(ctx context.Context, id string) (*piece, error) {
	ctx = context.WithoutCancel(ctx)
	return s.piece("run:"+id, func() (*piece, error) {
		run, err := s.store.GetRun(ctx, id)
		if err != nil {
			return nil, err
		}
		rep := decodeReport(run.Report)
		if rep == nil {
			return &piece{ids: []string{id}}, nil
		}
		if err := s.fillPagedTables(ctx, id, rep); err != nil {
			return nil, err
		}
		return renderPiece([]string{id}, "/api/runs/"+id+"/charts", views.RunReportView(rep, id, run.Variant))
	})
}

// apiRunCharts: GET /api/runs/:id/charts, the data of a done run's charts
// (immutable).
func (s *Server) apiRunCharts(c echo.Context) error {
	if p, ok := s.pages.Get("run:" + c.Param("id")); ok { // kept for a done run only, dropped with it
		return s.writeCharts(c, p, true)
	}
	run, err := s.store.GetRunInfo(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if run.Status != runtypes.StatusDone {
		return errs.New(errs.Conflict, "id", "run %s is %s: it has no report", run.ID, run.Status)
	}
	p, err := s.reportPart(c.Request().Context(), run.ID)
	if err != nil {
		return err
	}
	return s.writeCharts(c, p, true)
}

func (s *Server) rerunPage(c echo.Context) error {
	old, err := s.ownRun(c)
	if err != nil {
		return err
	}
	run, err := s.runner.Rerun(c.Request().Context(), old.ID, ownerID(c))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/runs/"+run.ID)
}

func (s *Server) deleteRun(c echo.Context) error {
	ctx := c.Request().Context()
	run, err := s.ownRun(c)
	if err != nil {
		return err
	}
	if views.Active(run.Status) {
		return errs.New(errs.Conflict, "id", "run %s is %s: cancel it before deleting it", run.ID, run.Status)
	}
	if err := s.store.DeleteRun(ctx, run.ID); err != nil {
		return err
	}
	s.reports.RemoveIf(func(id string, _ *report.Report) bool { return id == run.ID })
	s.forgetRun(run.ID)
	return nil
}

func (s *Server) reproducePage(c echo.Context) error {
	ctx := c.Request().Context()
	var p views.ReproduceProps
	for _, st := range s.strategies {
		f := st.Info
		card := views.ReproCard{Family: f, Params: st.ReproduceParams}
		if st.SeedExperiments != nil {
			card.Sweeps = st.SeedExperiments()
		}
		latest, err := s.store.LatestRun(ctx, f.Name, runtypes.KindReproduce)
		if err != nil && !errs.Is(err, errs.NotFound) {
			return err
		}
		if latest != nil {
			card.Latest = viewRunPtr(latest)
			shown := latest
			if latest.Status != runtypes.StatusDone {
				// Still running or failed: show the last finished results meanwhile.
				done, err := s.store.ListRuns(ctx, store.RunFilter{Strategy: f.Name, Kind: runtypes.KindReproduce,
					Status: runtypes.StatusDone, Limit: 1})
				if err != nil {
					return err
				}
				shown = nil
				if len(done) > 0 {
					if shown, err = s.store.GetRun(ctx, done[0].ID); err != nil {
						return err
					}
				}
			}
			if shown != nil {
				card.Shown = viewRunPtr(shown)
				if card.Report, err = s.report(shown); err != nil {
					return err
				}
			}
		}
		p.Cards = append(p.Cards, card)
	}
	return s.render(c, http.StatusOK, views.Reproduce(p))
}

func (s *Server) startReproducePage(c echo.Context) error {
	head, params, err := formParams(c, "strategy")
	if err != nil {
		return err
	}
	run, err := s.reproduce(c, head["strategy"], params)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/runs/"+run.ID)
}

// API.

// runBuild is the build that executed run (runtypes.Run.Build); a run that
// ended before builds were recorded (or not yet) is Unknown throughout.
func runBuild(r *runtypes.Run) buildinfo.Build {
	if b := buildinfo.Build(r.Build); !b.Zero() {
		return b
	}
	return buildinfo.Build{Version: buildinfo.Unknown, Commit: buildinfo.Unknown, Modified: buildinfo.Unknown}
}

// citedReport is a stored report with the build that executed it as its
// first member (buildinfo.ReportKey), as the CLI writes one.
func citedReport(b buildinfo.Build, report []byte) []byte {
	report = bytes.TrimLeft(report, " \t\r\n")
	if len(report) < 2 || report[0] != '{' {
		return report
	}
	rest := bytes.TrimLeft(report[1:], " \t\r\n")
	head := b.ReportHead(false)
	if len(rest) > 0 && rest[0] == '}' {
		head = head[:len(head)-1] // no member follows: no comma
	}
	return append(head, rest...)
}

// apiRun is a run as the API shows it.
type apiRun struct {
	ID            string         `json:"id"`
	Kind          string         `json:"kind"`
	WorkloadID    string         `json:"workload_id,omitempty"`
	Strategy      string         `json:"strategy"`
	Variant       string         `json:"variant"`
	Params        solvers.Params `json:"params"`
	Seed          int64          `json:"seed"`
	Status        string         `json:"status"`
	Progress      float64        `json:"progress"`
	ProgressDone  int            `json:"progress_done"`
	ProgressTotal int            `json:"progress_total"`
	ProgressNote  string         `json:"progress_note,omitempty"`
	Error         string         `json:"error,omitempty"`
	Field         string         `json:"field,omitempty"`
	RerunOf       string         `json:"rerun_of,omitempty"`
	Name          string         `json:"name"`
	Tags          []string       `json:"tags"`
	// Notes (markdown) are in a single run's JSON, not in lists, which
	// leave them out as they leave out reports.
	Notes  *string `json:"notes,omitempty"`
	Worker string  `json:"worker,omitempty"`
	// Schedlab is the build of the process that executed the run (Unknown
	// fields until it ends, and for runs stored before builds were).
	Schedlab   buildinfo.Build `json:"schedlab"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at,omitempty"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	URL        string          `json:"url"`
	ReportURL  string          `json:"report_url,omitempty"`
}

func (s *Server) toAPIRun(r *runtypes.Run) apiRun {
	a := apiRun{ID: r.ID, Kind: r.Kind, WorkloadID: r.WorkloadID, Strategy: r.Strategy, Variant: r.Variant, Params: r.Params,
		Seed: r.Seed, Status: r.Shown(), Worker: r.Worker, ProgressDone: r.ProgressDone, ProgressTotal: r.ProgressTotal, ProgressNote: r.ProgressNote,
		Error: r.Error, Field: r.ErrorField, RerunOf: r.RerunOf, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt,
		FinishedAt: r.FinishedAt, URL: "/runs/" + r.ID, Name: r.Name, Tags: r.Tags, Schedlab: runBuild(r)}
	if a.Tags == nil {
		a.Tags = []string{}
	}
	if done, total, note, ok := s.runner.Progress(r.ID); ok && r.Status == runtypes.StatusRunning {
		a.ProgressDone, a.ProgressTotal, a.ProgressNote = done, total, note
	}
	if a.ProgressTotal > 0 {
		a.Progress = float64(a.ProgressDone) / float64(a.ProgressTotal)
	}
	if r.Status == runtypes.StatusDone {
		a.Progress = 1
		a.ReportURL = "/api/runs/" + r.ID + "/report"
	}
	return a
}

func (s *Server) apiListRuns(c echo.Context) error {
	owner, limit, cursor, err := s.apiPage(c, "runs")
	if err != nil {
		return err
	}
	f, _, err := runFilter(c)
	if err != nil {
		return err
	}
	f.Status, f.Owner, f.Limit, f.Cursor = c.QueryParam("status"), owner, limit, cursor
	runs, next, err := s.store.ListRunsPage(c.Request().Context(), f)
	if err != nil {
		return err
	}
	setNext(c, next)
	return c.JSON(http.StatusOK, mapped(runs, func(r runtypes.Run) apiRun { return s.toAPIRun(&r) }))
}

func (s *Server) apiStartRun(c echo.Context) error {
	var r runRequest
	if err := decodeJSON(c, 1<<20, &r); err != nil {
		return err
	}
	run, err := s.start(c, r)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, s.toAPIRun(run))
}

func (s *Server) apiGetRun(c echo.Context) error {
	run, err := s.store.GetRunInfo(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	a := s.toAPIRun(run)
	a.Notes = &run.Notes
	return c.JSON(http.StatusOK, a)
}

func (s *Server) apiReport(c echo.Context) error {
	ctx := c.Request().Context()
	run, err := s.store.GetRunInfo(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if run.Status != runtypes.StatusDone {
		return errs.New(errs.Conflict, "id", "run %s is %s: it has no report", run.ID, run.Status)
	}
	// A done run's report never changes: kept in the pages cache, compressed.
	ctx = context.WithoutCancel(ctx)
	report, err := s.piece("report:"+run.ID, func() (*piece, error) {
		full, err := s.store.GetRun(ctx, run.ID)
		if err != nil {
			return nil, err
		}
		if len(full.Report) == 0 {
			return nil, errs.New(errs.Conflict, "id", "run %s is %s: it has no report", run.ID, run.Status)
		}
		return gzipped([]string{run.ID}, citedReport(runBuild(full), full.Report)), nil
	})
	if err != nil {
		return err
	}
	b := runBuild(run)
	h := c.Response().Header()
	h.Set("X-Schedlab-Version", b.Version)
	h.Set("X-Schedlab-Commit", b.Commit)
	h.Set("Link", "</runs/"+run.ID+`>; rel="canonical"`)
	return writeGzipped(c, echo.MIMEApplicationJSON, report.data)
}

func (s *Server) apiReproduce(c echo.Context) error {
	var body struct {
		Params solvers.Params `json:"params"`
	}
	if c.Request().ContentLength != 0 {
		if err := decodeJSON(c, 1<<20, &body); err != nil {
			return err
		}
	}
	run, err := s.reproduce(c, c.Param("strategy"), body.Params)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, s.toAPIRun(run))
}

func (s *Server) apiStrategies(c echo.Context) error {
	return c.JSON(http.StatusOK, solvers.Describe(s.strategies))
}
