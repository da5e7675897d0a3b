package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"sort"
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
	if err := experiments.Validate(def, st); err != nil {
		return nil, err
	}
	runs := experiments.Expand(def, st)
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
			Values: values[start:len(values):len(values)], CellKey: r.Cell}
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

// experimentView builds what /experiments/:id shows, as a Report (one
// shape feeds every page): for the chosen metric, the metric against the
// chosen swept parameter, one line per variant with its 95 % confidence
// interval (pooled over every other swept value: instances, replicates),
// the reference values as dashed lines, and the rows as a table.
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
	for k := range def.Grid {
		p.Swept = append(p.Swept, k)
	}
	for k := range def.Workload.Grid {
		p.Swept = append(p.Swept, experiments.WorkloadPrefix+k)
	}
	sort.Strings(p.Swept)
	p.X = c.QueryParam("x")
	if p.X == "" && len(p.Swept) > 0 {
		p.X = p.Swept[0]
	}
	var keep []string
	if p.X != "" {
		keep = []string{p.X}
	}
	runs, err := s.store.ExperimentResults(ctx, e.ID)
	if err != nil {
		return p, err
	}
	results, err := runResults(runs)
	if err != nil {
		return p, err
	}
	rows := aggregate(results, keep)
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Metric] {
			seen[r.Metric] = true
			p.Metrics = append(p.Metrics, r.Metric)
		}
	}
	p.Metric = c.QueryParam("metric")
	if !seen[p.Metric] && len(p.Metrics) > 0 {
		p.Metric = p.Metrics[0]
	}
	p.Report = resultsReport(rows, p.Metric, p.X, def.References)
	if box, ok := boxPlot(results, p.Metric, p.X); ok {
		p.Report.Series = append(p.Report.Series, box)
	}
	if par, ok := parallelCells(aggregate(results, nil), p.Metric, p.Swept); ok {
		p.Report.Parallels = append(p.Report.Parallels, par)
	} else if par.Title != "" {
		p.Report.Notes = append(p.Report.Notes, par.Title)
	}
	// A against B: two variants (the first two by default), run by run.
	variants := def.Variants
	if len(variants) == 0 {
		if st, err := s.lookup(def.Strategy); err == nil {
			for _, v := range st.Variants() {
				variants = append(variants, v.Name)
			}
		}
	}
	p.Variants = variants
	p.A, p.B = c.QueryParam("a"), c.QueryParam("b")
	if p.A == "" && len(variants) > 1 {
		p.A, p.B = variants[0], variants[1]
	}
	if p.A != "" && p.B != "" && p.A != p.B {
		plot, table := abReport(runs, p.Metric, p.A, p.B)
		p.Report.Series = append(p.Report.Series, plot)
		p.Report.Tables = append(p.Report.Tables, table)
	}
	return p, nil
}

// sortByX orders a line's points (and its band with them) by x.
func sortByX(l *solvers.Line) {
	idx := make([]int, len(l.Points))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.Points[idx[a]][0] < l.Points[idx[b]][0] })
	points := make([][2]float64, len(idx))
	var band [][2]float64
	if l.Band != nil {
		band = make([][2]float64, len(idx))
	}
	for i, k := range idx {
		points[i] = l.Points[k]
		if band != nil {
			band[i] = l.Band[k]
		}
	}
	l.Points, l.Band = points, band
}

// spansDecades says whether positive values from lo to hi span more than
// two decades, where a log axis reads better than a linear one.
func spansDecades(lo, hi float64) bool { return lo > 0 && hi/lo > 100 }

// boxPlot is the box plot of metric over the replicates and instances of
// each value of the swept parameter x, one box per variant: the spread the
// confidence interval summarises. Only done runs count; x must be numeric.
func boxPlot(results []experiments.RunResult, metric, x string) (solvers.Plot, bool) {
	plot := solvers.Plot{Title: metric + " by " + x + " (box plot)", Kind: "box", XLabel: x, YLabel: metric}
	lines := map[string]int{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range results {
		if r.Status != store.StatusDone {
			continue
		}
		xv, err := strconv.ParseFloat(r.Params[x], 64)
		if err != nil {
			return plot, false
		}
		for _, m := range r.Values {
			if m.Name != metric {
				continue
			}
			i, ok := lines[r.Variant]
			if !ok {
				i = len(plot.Lines)
				lines[r.Variant] = i
				plot.Lines = append(plot.Lines, solvers.Line{Name: r.Variant})
			}
			plot.Lines[i].Points = append(plot.Lines[i].Points, [2]float64{xv, m.Value})
			lo, hi = math.Min(lo, m.Value), math.Max(hi, m.Value)
		}
	}
	plot.YLog = spansDecades(lo, hi)
	sort.Slice(plot.Lines, func(a, b int) bool { return plot.Lines[a].Name < plot.Lines[b].Name })
	return plot, len(plot.Lines) > 0
}

// maxParallelCells is how many cells a parallel-coordinates chart draws;
// past it the page says so and the pivot table is the way in.
const maxParallelCells = 5000

// parallelCells is the parallel-coordinates chart of an experiment's cells
// for metric: an axis per swept parameter that takes more than one value
// (numeric, or its values as categories), one for the variant and one for
// the metric's mean over the cell's replicates; a line per cell, coloured
// by variant. It is drawn when at least two parameters vary; with too many
// cells, the returned Parallel's Title says why it is not drawn (ok false).
func parallelCells(rows []experiments.Row, metric string, swept []string) (solvers.Parallel, bool) {
	par := solvers.Parallel{Title: metric + " across the swept parameters (cell means)"}
	var cellRows []experiments.Row
	values := map[string]map[string]bool{}
	for _, r := range rows {
		if r.Metric != metric || r.Mean == nil {
			continue
		}
		cellRows = append(cellRows, r)
		for _, k := range swept {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][r.Params[k]] = true
		}
	}
	var varying []string
	for _, k := range swept {
		if len(values[k]) > 1 {
			varying = append(varying, k)
		}
	}
	if len(varying) < 2 {
		return solvers.Parallel{}, false
	}
	if len(cellRows) > maxParallelCells {
		return solvers.Parallel{Title: fmt.Sprintf("Parallel coordinates are not drawn: %d cells are more than %d; use the pivot table.", len(cellRows), maxParallelCells)}, false
	}
	// Each varying parameter is a numeric axis if every value parses, else
	// a category axis of its values in order.
	index := make([]map[string]float64, len(varying))
	for j, k := range varying {
		var names []string
		numeric := true
		for v := range values[k] {
			names = append(names, v)
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric = false
			}
		}
		axis := solvers.ParallelAxis{Name: k}
		index[j] = map[string]float64{}
		if numeric {
			for _, v := range names {
				index[j][v], _ = strconv.ParseFloat(v, 64)
			}
		} else {
			sort.Strings(names)
			axis.Categories = names
			for i, v := range names {
				index[j][v] = float64(i)
			}
		}
		par.Axes = append(par.Axes, axis)
	}
	groups := map[string]int{}
	var variants []string
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range cellRows {
		if _, ok := groups[r.Variant]; !ok {
			groups[r.Variant] = len(variants)
			variants = append(variants, r.Variant)
			par.Groups = append(par.Groups, solvers.ParallelGroup{Name: r.Variant})
		}
		lo, hi = math.Min(lo, *r.Mean), math.Max(hi, *r.Mean)
	}
	par.Axes = append(par.Axes, solvers.ParallelAxis{Name: "variant", Categories: variants},
		solvers.ParallelAxis{Name: metric, Log: spansDecades(lo, hi)})
	for _, r := range cellRows {
		g := groups[r.Variant]
		row := make([]float64, 0, len(par.Axes))
		for j, k := range varying {
			row = append(row, index[j][r.Params[k]])
		}
		row = append(row, float64(g), *r.Mean)
		par.Groups[g].Rows = append(par.Groups[g].Rows, row)
	}
	return par, true
}

// resultsReport is the Report of one metric of an experiment's rows: the
// metric against x, a line per variant (the mean) with its 95 % CI as a
// shaded band, references dashed, log axes where the values span more than two decades; and the
// rows as a table.
func resultsReport(rows []experiments.Row, metric, x string, refs []experiments.Reference) *solvers.Report {
	plot := solvers.Plot{Title: metric + " vs " + x, XLabel: x, YLabel: metric}
	table := solvers.Table{Title: "Results: " + metric,
		Columns: []string{x, "variant", "n", "mean", "ci95_low", "ci95_high", "std", "median", "min", "max", "failed"}}
	lines := map[string]int{}
	numeric := true
	for _, r := range rows {
		if r.Metric != metric {
			continue
		}
		cell := func(v *float64) any {
			if v == nil {
				return nil
			}
			return *v
		}
		table.Rows = append(table.Rows, []any{r.Params[x], r.Variant, float64(r.N), cell(r.Mean), cell(r.CI95Low),
			cell(r.CI95High), cell(r.Std), cell(r.Median), cell(r.Min), cell(r.Max), float64(r.Failed)})
		xv, err := strconv.ParseFloat(r.Params[x], 64)
		if err != nil {
			numeric = false
			continue
		}
		if r.Mean == nil {
			continue
		}
		i, ok := lines[r.Variant]
		if !ok {
			i = len(plot.Lines)
			lines[r.Variant] = i
			plot.Lines = append(plot.Lines, solvers.Line{Name: r.Variant, Band: [][2]float64{}})
		}
		band := [2]float64{*r.Mean, *r.Mean} // one run: no interval
		if r.CI95Low != nil && r.CI95High != nil {
			band = [2]float64{*r.CI95Low, *r.CI95High}
		}
		plot.Lines[i].Points = append(plot.Lines[i].Points, [2]float64{xv, *r.Mean})
		plot.Lines[i].Band = append(plot.Lines[i].Band, band)
	}
	for _, ref := range refs {
		if ref.Metric != metric {
			continue
		}
		xv, err := strconv.ParseFloat(ref.Params[x], 64)
		if err != nil {
			continue
		}
		name := ref.Name + " (" + ref.Variant + ")"
		i, ok := lines[name]
		if !ok {
			i = len(plot.Lines)
			lines[name] = i
			plot.Lines = append(plot.Lines, solvers.Line{Name: name, Dashed: true})
		}
		plot.Lines[i].Points = append(plot.Lines[i].Points, [2]float64{xv, ref.Value})
	}
	rep := &solvers.Report{Tables: []solvers.Table{table}}
	if numeric && len(plot.Lines) > 0 {
		xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for i := range plot.Lines {
			sortByX(&plot.Lines[i])
			l := plot.Lines[i]
			for k, pt := range l.Points {
				xlo, xhi = math.Min(xlo, pt[0]), math.Max(xhi, pt[0])
				ylo, yhi = math.Min(ylo, pt[1]), math.Max(yhi, pt[1])
				if l.Band != nil {
					ylo, yhi = math.Min(ylo, l.Band[k][0]), math.Max(yhi, l.Band[k][1])
				}
			}
		}
		// Log axes when the values span decades (nodes 10 … 3000, sizes
		// in MB): a linear axis would crush all but the largest.
		plot.XLog, plot.YLog = spansDecades(xlo, xhi), spansDecades(ylo, yhi)
		rep.Series = []solvers.Plot{plot}
	}
	return rep
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
	return render(c, http.StatusOK, views.ExperimentPage(p))
}

// apiExperimentPivot: GET /api/experiments/:id/pivot.csv or pivot.tex with
// metric, rows and cols (comma lists of swept names and "variant"): the
// pivot table of mean ± CI half-width, as CSV or LaTeX (booktabs).
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
	rowBy, colBy := split(c.QueryParam("rows")), split(c.QueryParam("cols"))
	keep := append(append([]string{}, rowBy...), colBy...)
	var kept []string
	for _, k := range keep {
		if k != experiments.VariantKey {
			kept = append(kept, k)
		}
	}
	rows, err := s.experimentResults(c.Request().Context(), c.Param("id"), kept)
	if err != nil {
		return err
	}
	var body []byte
	mime := "text/csv; charset=utf-8"
	if format == "pivot.csv" {
		body, err = experiments.PivotCSV(rows, c.QueryParam("metric"), rowBy, colBy)
	} else {
		body, err = experiments.PivotLaTeX(rows, c.QueryParam("metric"), rowBy, colBy)
		mime = "application/x-tex; charset=utf-8"
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", c.Param("id")+"-"+format))
	return c.Blob(http.StatusOK, mime, body)
}

// abReport pairs the runs of variants a and b that share a cell and a
// replicate (the same workload and seeds) and shows metric for each pair
// as a point (a's value, b's value) beside the diagonal, with how often
// each is higher; log axes when the values are positive and span more
// than two decades.
func abReport(runs []store.ExperimentResult, metric, a, b string) (solvers.Plot, solvers.Table) {
	type key struct {
		cell string
		rep  int
	}
	value := func(r store.ExperimentResult) (float64, bool) {
		for _, m := range r.Metrics {
			if m.Name == metric {
				return m.Value, true
			}
		}
		return 0, false
	}
	as := map[key]float64{}
	for _, r := range runs {
		if r.Variant == a && r.Status == store.StatusDone {
			if v, ok := value(r); ok {
				as[key{r.Cell, r.Replicate}] = v
			}
		}
	}
	plot := solvers.Plot{Title: metric + ": " + b + " against " + a, Kind: "scatter", XLabel: a, YLabel: b,
		Lines: []solvers.Line{{Name: "pairs"}}}
	higherA, equal, higherB := 0, 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		if r.Variant != b || r.Status != store.StatusDone {
			continue
		}
		vb, ok := value(r)
		va, paired := as[key{r.Cell, r.Replicate}]
		if !ok || !paired {
			continue
		}
		plot.Lines[0].Points = append(plot.Lines[0].Points, [2]float64{va, vb})
		lo, hi = math.Min(lo, math.Min(va, vb)), math.Max(hi, math.Max(va, vb))
		switch {
		case va > vb:
			higherA++
		case va < vb:
			higherB++
		default:
			equal++
		}
	}
	if len(plot.Lines[0].Points) > 0 {
		plot.Lines = append(plot.Lines, solvers.Line{Name: "equal", Dashed: true, Points: [][2]float64{{lo, lo}, {hi, hi}}})
		if spansDecades(lo, hi) {
			plot.XLog, plot.YLog = true, true
		}
	}
	table := solvers.Table{Title: "Pairs: " + a + " against " + b + " (" + metric + ")",
		Columns: []string{"pairs", a + " higher", "equal", b + " higher"},
		Rows:    [][]any{{float64(higherA + equal + higherB), float64(higherA), float64(equal), float64(higherB)}}}
	return plot, table
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
