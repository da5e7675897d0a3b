package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/solvers"
	"schedlab/store"
	"schedlab/views"
)

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
func readDefinition(c echo.Context) (*experiments.Definition, []byte, error) {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxDefinition+1))
	if err != nil {
		return nil, nil, formErr(err)
	}
	if len(body) > maxDefinition {
		return nil, nil, tooLarge("body", maxDefinition)
	}
	ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	var def *experiments.Definition
	if ct == echo.MIMEApplicationJSON {
		def, err = experiments.ParseJSON(body)
	} else {
		def, err = experiments.ParseYAML(body)
	}
	return def, body, err
}

// createExperiment checks a definition, generates the workloads its
// presets name, and stores the experiment with all its runs in one
// transaction. Generated workloads are removed again if the experiment
// cannot be stored, so a refused definition leaves nothing behind.
func (s *Server) createExperiment(ctx context.Context, c echo.Context, def *experiments.Definition) (*store.Experiment, error) {
	st, err := s.lookup(def.Strategy)
	if err != nil {
		return nil, err
	}
	runs, err := experiments.Plan(def, st)
	if err != nil {
		return nil, err
	}
	made := []string{}
	fail := func(err error) (*store.Experiment, error) {
		for _, id := range made {
			_ = s.store.DeleteWorkload(context.WithoutCancel(ctx), id)
		}
		return nil, err
	}
	ids := map[string]string{} // workload key → stored id
	storeRuns := make([]*store.Run, len(runs))
	cells := make([]store.ExperimentCell, len(runs))
	for i, r := range runs {
		wid := r.Workload.ID
		if wid == "" {
			key := r.WorkloadKey()
			if wid = ids[key]; wid == "" {
				w, err := s.generate(c, generateRequest{Strategy: def.Strategy, Preset: r.Workload.Preset, Params: r.Workload.Params, Seed: &r.WorkloadSeed})
				if err != nil {
					return fail(fmt.Errorf("workload %s: %w", key, err))
				}
				wid = w.ID
				ids[key] = wid
				made = append(made, wid)
			}
		}
		storeRuns[i] = &store.Run{Kind: store.KindRun, WorkloadID: wid, Strategy: def.Strategy,
			Variant: r.Variant, Params: r.Params, Seed: r.Seed, Owner: ownerID(c)}
		cell, err := json.Marshal(r.Cell)
		if err != nil {
			return fail(errs.Wrap("experiment", errs.Internal, err))
		}
		cells[i] = store.ExperimentCell{Cell: cell, Replicate: r.Replicate}
	}
	storeRuns, err = s.runner.PrepareAll(ctx, storeRuns)
	if err != nil {
		return fail(err)
	}
	raw, err := json.Marshal(def)
	if err != nil {
		return fail(errs.Wrap("experiment", errs.Internal, err))
	}
	e := &store.Experiment{Name: def.Name, Strategy: def.Strategy, Definition: raw, Tags: def.Tags, Notes: def.Notes, Owner: ownerID(c)}
	if err := s.store.CreateExperiment(ctx, e, storeRuns, cells); err != nil {
		return fail(err)
	}
	s.runner.Wake()
	return e, nil
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
	def, _, err := readDefinition(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	e, err := s.createExperiment(ctx, c, def)
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
func (s *Server) experimentResults(ctx context.Context, id string, keep []string) ([]experiments.Row, error) {
	runs, err := s.store.ExperimentResults(ctx, id)
	if err != nil {
		return nil, err
	}
	results, err := runResults(runs)
	if err != nil {
		return nil, err
	}
	return aggregate(results, keep), nil
}

func aggregate(results []experiments.RunResult, keep []string) []experiments.Row {
	if keep != nil {
		return experiments.AggregateBy(results, keep)
	}
	return experiments.Aggregate(results)
}

// runResults are stored runs as aggregation takes them. Runs with equal
// cells share the cell's string: each distinct cell is decoded once, and
// its map shared (aggregation only reads it).
func runResults(runs []store.ExperimentResult) ([]experiments.RunResult, error) {
	results := make([]experiments.RunResult, len(runs))
	cells := map[string]map[string]string{}
	n := 0
	for _, r := range runs {
		n += len(r.Metrics)
	}
	values := make([]experiments.Metric, 0, n) // every run's metrics, one array
	for i, r := range runs {
		cell, ok := cells[r.Cell]
		if !ok {
			if err := json.Unmarshal([]byte(r.Cell), &cell); err != nil {
				return nil, errs.Wrap("experiment results", errs.Internal, err)
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
		if err := s.runner.Cancel(ctx, id); err != nil && !errs.Is(errs.Conflict, err) {
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

// apiCancelExperiment: POST /api/experiments/:id/cancel.
func (s *Server) apiCancelExperiment(c echo.Context) error {
	if err := s.cancelExperiment(c); err != nil {
		return err
	}
	return s.apiGetExperiment(c)
}

// apiResumeExperiment: POST /api/experiments/:id/resume.
func (s *Server) apiResumeExperiment(c echo.Context) error {
	if err := s.resumeExperiment(c); err != nil {
		return err
	}
	return s.apiGetExperiment(c)
}

func (s *Server) cancelExperimentPage(c echo.Context) error {
	if err := s.cancelExperiment(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/experiments/"+c.Param("id"))
}

func (s *Server) resumeExperimentPage(c echo.Context) error {
	if err := s.resumeExperiment(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/experiments/"+c.Param("id"))
}

// experimentView parses what /experiments/:id asks (metric, x, the
// parameters to pool, the pair A and B, the run list's filter and page),
// reads the experiment's runs and has package experiments build what the
// page shows: the metric against x (a line per variant and unpooled
// value, failures marked), the box plot, the parallel coordinates, the
// pivot, A against B, the pairwise tests and the performance profile; and
// a page of its runs, failed first.
func (s *Server) experimentView(c echo.Context, e *store.Experiment) (views.ExperimentProps, error) {
	ctx := c.Request().Context()
	a, err := s.toAPIExperiment(ctx, e)
	if err != nil {
		return views.ExperimentProps{}, err
	}
	p := views.ExperimentProps{ID: e.ID, Name: e.Name, Strategy: e.Strategy, Status: a.Status, Total: a.RunsTotal,
		Done: a.RunsDone, Failed: a.RunsFailed, Notes: e.Notes, Tags: e.Tags, Labels: experimentLabels(e)}
	if p.Workers, err = s.experimentWorkers(ctx, e.ID); err != nil {
		return p, err
	}
	def, err := experiments.ParseJSON(e.Definition)
	if err != nil {
		return p, errs.Wrap("experiment page", errs.Internal, err)
	}
	var variants []string
	if st, err := s.lookup(e.Strategy); err == nil {
		for _, v := range st.Variants() {
			variants = append(variants, v.Name)
		}
	}
	p.Fields = def.Fields(variants)
	runs, err := s.store.ExperimentResults(ctx, e.ID)
	if err != nil {
		return p, err
	}
	results, err := runResults(runs)
	if err != nil {
		return p, err
	}
	infos, err := s.metricInfos(ctx, e.ID)
	if err != nil {
		return p, err
	}
	q := experiments.Query{X: c.QueryParam("x"), Metric: c.QueryParam("metric"), A: c.QueryParam("a"), B: c.QueryParam("b"),
		Variants: def.Variants}
	if v := c.QueryParam("pool"); v != "" {
		q.Pool = strings.Split(v, ",")
	}
	if len(q.Variants) == 0 {
		if st, err := s.lookup(def.Strategy); err == nil {
			for _, v := range st.Variants() {
				q.Variants = append(q.Variants, v.Name)
			}
		}
	}
	p.Analysis = experiments.Analyze(results, infos, def.References, q)
	if p.RunList, err = s.experimentRunList(c, e.ID, q.Variants); err != nil {
		return p, err
	}
	return p, nil
}

// metricInfos are the declarations of an experiment's metrics (which
// direction is better, bounds), from its first done run's report.
func (s *Server) metricInfos(ctx context.Context, id string) (map[string]experiments.MetricInfo, error) {
	raw, err := s.store.ExperimentMetricDecls(ctx, id)
	if err != nil || raw == nil {
		return map[string]experiments.MetricInfo{}, err
	}
	var ms []solvers.Metric
	if err := json.Unmarshal(raw, &ms); err != nil {
		return nil, errs.Wrap("experiment metrics", errs.Internal, err)
	}
	return experiments.Infos(ms), nil
}

// runListSize is how many runs the experiment page lists at a time.
const runListSize = 50

// experimentRunList is the page of the experiment's runs its page lists:
// filtered by ?status= and ?variant=, from ?runs_from= (an offset),
// failed first.
func (s *Server) experimentRunList(c echo.Context, id string, variants []string) (views.ExperimentRunList, error) {
	l := views.ExperimentRunList{Status: c.QueryParam("status"), Variant: c.QueryParam("variant"), Variants: variants}
	if v := c.QueryParam("runs_from"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return l, errs.Invalidf("runs_from", "must be a whole number from 0, got %q", v)
		}
		l.From = n
	}
	items, total, err := s.store.ExperimentRunList(c.Request().Context(), id, store.ExperimentRunFilter{
		Status: l.Status, Variant: l.Variant, Limit: runListSize, Offset: l.From})
	if err != nil {
		return l, err
	}
	l.Total = total
	for _, it := range items {
		var cell map[string]string
		if err := json.Unmarshal(it.Cell, &cell); err != nil {
			return l, errs.Wrap("experiment runs", errs.Internal, err)
		}
		l.Items = append(l.Items, views.ExperimentRunItem{ID: it.RunID, Status: it.Status, Error: it.Error,
			Variant: it.Variant, Cell: experiments.CellText(cell), Replicate: it.Replicate})
	}
	if next := l.From + len(items); next < total {
		q := c.QueryParams()
		q.Set("runs_from", strconv.Itoa(next))
		l.Next = c.Request().URL.Path + "?" + q.Encode() + "#runs"
	}
	return l, nil
}

func (s *Server) experimentPage(c echo.Context) error {
	e, err := s.store.GetExperiment(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	p, err := s.experimentView(c, e)
	if err != nil {
		return err
	}
	if p.Cite, err = s.experimentCite(c.Request().Context(), c, e.ID); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ExperimentPage(p))
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
	runs, err := s.store.ExperimentResults(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	results, err := runResults(runs)
	if err != nil {
		return err
	}
	infos, err := s.metricInfos(ctx, c.Param("id"))
	if err != nil {
		return err
	}
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

// starterDefinition is the definition the new-experiment form starts from:
// a stored workload (?workload=), a run's inputs with every parameter as a
// one-value grid ready to sweep (?run=), compared runs' inputs with each
// parameter's values across them (?runs=a,b,c, from the compare page), or
// a strategy's first preset.
func (s *Server) starterDefinition(c echo.Context) (string, error) {
	ctx := c.Request().Context()
	def := map[string]any{"name": "", "replicates": 1, "seed": 1}
	switch {
	case c.QueryParam("seed") != "":
		family, name, _ := strings.Cut(c.QueryParam("seed"), "/")
		st, err := s.lookup(family)
		if err != nil {
			return "", err
		}
		if x, ok := st.(solvers.SeedExperimenter); ok {
			for _, sw := range x.SeedExperiments() {
				if sw.Name == name {
					var pretty bytes.Buffer
					if err := json.Indent(&pretty, sw.Definition, "", "  "); err != nil {
						return "", errs.Wrap("seed experiment", errs.Internal, err)
					}
					return pretty.String(), nil
				}
			}
		}
		return "", errs.New(errs.NotFound, "seed", "%s has no seed experiment %q", family, name)
	case c.QueryParam("run") != "" || c.QueryParam("runs") != "":
		ids := strings.Split(c.QueryParam("runs"), ",")
		if c.QueryParam("run") != "" {
			ids = []string{c.QueryParam("run")}
		}
		if len(ids) > maxCompare {
			return "", errs.New(errs.Invalid, "runs", "at most %d runs, got %d", maxCompare, len(ids))
		}
		// The runs' inputs as a grid: every parameter with the values the
		// runs gave it (one value: ready to widen), their workloads and
		// variants, the first run's seed.
		grid := map[string][]string{}
		var workloads, variants []string
		seen := map[string]bool{}
		add := func(list *[]string, key, v string) {
			if !seen[key+"\x00"+v] {
				seen[key+"\x00"+v] = true
				*list = append(*list, v)
			}
		}
		var first *store.Run
		for _, id := range ids {
			r, err := s.store.GetRunInfo(ctx, id)
			if err != nil {
				return "", err
			}
			if first == nil {
				first = r
			}
			if r.Kind != store.KindRun || r.Strategy != first.Strategy {
				return "", errs.New(errs.Invalid, "runs", "run %s is a %s %s run; an experiment sweeps runs of one strategy on stored workloads (%s)", r.ID, r.Strategy, r.Kind, first.Strategy)
			}
			add(&workloads, "workload", r.WorkloadID)
			add(&variants, "variant", r.Variant)
			for k, v := range r.Params {
				values := grid[k]
				add(&values, "p."+k, v)
				grid[k] = values
			}
		}
		def["name"], def["strategy"] = "sweep of run "+strings.Join(ids, ", "), first.Strategy
		def["workload"] = map[string]any{"ids": workloads}
		def["variants"], def["grid"], def["seed"] = variants, grid, first.Seed
	case c.QueryParam("workload") != "":
		w, err := s.store.GetWorkloadInfo(ctx, c.QueryParam("workload"))
		if err != nil {
			return "", err
		}
		def["name"], def["strategy"] = "sweep on "+w.Name, w.Strategy
		def["workload"] = map[string]any{"ids": []string{w.ID}}
	default:
		name := c.QueryParam("strategy")
		if name == "" && len(s.strategies) > 0 {
			name = s.strategies[0].Info().Name
		}
		st, err := s.lookup(name)
		if err != nil {
			return "", err
		}
		def["name"], def["strategy"] = name+" sweep", name
		if ps := st.Presets(); len(ps) > 0 {
			def["workload"] = map[string]any{"preset": ps[0].Name, "grid": map[string][]string{}}
		}
	}
	b, err := json.MarshalIndent(def, "", "  ")
	return string(b), err
}

func (s *Server) newExperimentPage(c echo.Context) error {
	text, err := s.starterDefinition(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.NewExperiment(views.NewExperimentProps{Definition: text}))
}

// startExperimentPage is the form's POST: "count" shows how many runs the
// definition makes, "start" queues them; problems are all listed.
func (s *Server) startExperimentPage(c echo.Context) error {
	head, _, err := formParams(c, "definition", "action")
	if err != nil {
		return err
	}
	p := views.NewExperimentProps{Definition: head["definition"]}
	def, err := experiments.Parse([]byte(head["definition"]))
	if err == nil {
		var st solvers.Strategy
		if st, err = s.lookup(def.Strategy); err == nil {
			if err = experiments.Validate(def, st); err == nil {
				p.Count = experiments.Count(def, st)
				p.Counted = true
			}
		}
	}
	if err == nil && head["action"] == "start" {
		var e *store.Experiment
		if e, err = s.createExperiment(c.Request().Context(), c, def); err == nil {
			return c.Redirect(http.StatusSeeOther, "/experiments/"+e.ID)
		}
	}
	status := http.StatusOK
	if err != nil {
		p.Errs = formErrors(err)
		status = statusOf(err)
	}
	return render(c, status, views.NewExperiment(p))
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
	return render(c, http.StatusOK, views.Experiments(p))
}
