package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"schedlab/compare"
	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/views"
	"schedlab/views/charts"
)

// compareStore is what the compare page reads (*store.Store).
type compareStore interface {
	GetRun(ctx context.Context, id string) (*runtypes.Run, error)
	GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error)
	GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error)
}

// maxCompare bounds how many runs one compare page joins.
const maxCompare = 12

// compareIDs reads ?runs=a,b,c and repeated ?runs=a&runs=b alike.
func compareIDs(c echo.Context) []string {
	var ids []string
	seen := map[string]bool{}
	for _, v := range c.QueryParams()["runs"] {
		for _, id := range strings.Split(v, ",") {
			id = strings.TrimSpace(id)
			if id != "" && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids
}

func (s *Server) comparePage(c echo.Context) error {
	ids := compareIDs(c)
	if len(ids) == 0 {
		return errs.Invalidf("runs", "name the runs to compare: /compare?runs=ID,ID")
	}
	if len(ids) > maxCompare {
		return errs.Invalidf("runs", "at most %d runs can be compared at once, got %d", maxCompare, len(ids))
	}
	ctx := c.Request().Context()
	runs := make([]runtypes.Run, len(ids))
	allDone := true
	for i, id := range ids {
		r, err := s.store.GetRunInfo(ctx, id)
		if err != nil {
			return err
		}
		runs[i] = *r
		allDone = allDone && r.Status == runtypes.StatusDone
	}
	if !allDone {
		// Still filling in: render it afresh each time.
		return s.render(c, http.StatusOK, views.ComparePage(s.compareBody(runs)))
	}
	part, err := s.comparePart(ctx, runs)
	if err != nil {
		return err
	}
	cited := make([]*runtypes.Run, len(runs))
	for i := range runs {
		cited[i] = &runs[i]
	}
	cite := s.citeOf(ctx, c, "comparison", "/compare?runs="+strings.Join(ids, ","), cited)
	return s.render(c, http.StatusOK, views.ComparePage(templ.Join(templ.Raw(string(part.html)), views.CiteBlock(cite))))
}

// compareBody is the body of the compare page of runs.
func (s *Server) compareBody(runs []runtypes.Run) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		p, err := s.joinRuns(ctx, runs)
		if err != nil {
			return err
		}
		return views.CompareBody(p).Render(ctx, w)
	})
}

// comparePart is the rendered body of the compare page of done runs and
// its charts' data, from the pages cache. The charts are served at
// /api/compare/charts?runs=…&v=…, v naming the runs' labels, which the
// charts show: a run renamed is new data at a new address.
func (s *Server) comparePart(ctx context.Context, runs []runtypes.Run) (*piece, error) {
	ids := runIDs(runs)
	url := compareChartsURL(runs)
	return s.piece("compare:"+url, func() (*piece, error) {
		return renderPiece(ids, url, s.compareBody(runs))
	})
}

// compareChartsURL is where the charts of the compare page of runs are.
func compareChartsURL(runs []runtypes.Run) string {
	ids := runIDs(runs)
	sum := sha256.New()
	for _, r := range runs {
		fmt.Fprintf(sum, "%q %q\n", r.ID, r.Name)
	}
	return "/api/compare/charts?runs=" + strings.Join(ids, ",") + "&v=" + hex.EncodeToString(sum.Sum(nil)[:6])
}

// apiCompareCharts: GET /api/compare/charts?runs=…&v=…, the data of the
// charts of the compare page of done runs (immutable). An old v (a run
// was renamed since) is sent to the current one.
func (s *Server) apiCompareCharts(c echo.Context) error {
	if p, ok := s.pages.Get("compare:" + c.Request().URL.RequestURI()); ok { // kept while its runs are done and unrenamed
		return s.writeCharts(c, p, true)
	}
	ids := compareIDs(c)
	if len(ids) == 0 || len(ids) > maxCompare {
		return errs.Invalidf("runs", "name from 1 to %d runs: ?runs=ID,ID", maxCompare)
	}
	ctx := c.Request().Context()
	runs := make([]runtypes.Run, len(ids))
	for i, id := range ids {
		r, err := s.store.GetRunInfo(ctx, id)
		if err != nil {
			return err
		}
		if r.Status != runtypes.StatusDone {
			return errs.New(errs.Conflict, "runs", "run %s is %s: its compare page's charts are not kept", r.ID, r.Status)
		}
		runs[i] = *r
	}
	if url := compareChartsURL(runs); c.Request().URL.RequestURI() != url {
		return c.Redirect(http.StatusFound, url)
	}
	part, err := s.comparePart(ctx, runs)
	if err != nil {
		return err
	}
	return s.writeCharts(c, part, true)
}

// joinRuns reads the reports of runs one at a time and joins them. A
// compare page draws metrics, plots and Gantts, so the reports are decoded
// without their tables (most of a large report's decoded size), and not
// through the report cache, which would keep them.
func (s *Server) joinRuns(ctx context.Context, runs []runtypes.Run) (views.CompareProps, error) {
	reports := make([]*report.Report, len(runs))
	var damaged []string
	for i, r := range runs {
		reports[i] = &report.Report{}
		if r.Status != runtypes.StatusDone {
			continue
		}
		full, err := s.store.GetRun(ctx, r.ID)
		if err != nil {
			return views.CompareProps{}, err
		}
		reports[i] = decodeForCompare(full.Report)
		if u := reports[i].Unreadable; len(u) > 0 {
			damaged = append(damaged, fmt.Sprintf("Run %s: part of its stored report cannot be drawn (%s).", r.ID, strings.Join(u, "; ")))
		}
	}
	p := joinCompared(runs, s.compared(ctx, runs), reports)
	p.Notes = append(p.Notes, damaged...)
	return p, nil
}

// decodeForCompare decodes a stored report without its tables; a report
// that does not decode, fails its checks or is over the limits of a
// report (one stored before imports were checked) is read part by part,
// the parts that cannot be drawn named in Unreadable, so that the page
// draws the rest in bounded time instead of failing whole.
func decodeForCompare(raw []byte) *report.Report {
	r := &report.Report{}
	if err := decodeWithoutTables(raw, r); err == nil && len(r.Metrics) <= report.MaxMetrics && r.Validate() == nil {
		return r
	}
	r = report.DecodeReportParts(raw)
	r.Tables = nil
	return r
}

// decodeWithoutTables decodes a stored report into r, skipping its tables.
func decodeWithoutTables(raw []byte, r *report.Report) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	v := struct {
		*report.Report
		Tables skipJSON `json:"tables"` // shadows Report.Tables
	}{Report: r}
	if err := json.Unmarshal(raw, &v); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return nil
}

// skipJSON decodes any JSON value into nothing.
type skipJSON struct{}

func (skipJSON) UnmarshalJSON([]byte) error { return nil }

// compareRun is a stored run as package compare sees it; workload names
// the workload (its name; "" unknown) and reference says whether its
// variant is a reference (solvers.Variant.Reference).
func compareRun(r runtypes.Run, workload string, reference bool) compare.Run {
	return compare.Run{ID: r.ID, Name: r.Name, Reproduce: r.Kind == runtypes.KindReproduce, Strategy: r.Strategy,
		WorkloadID: r.WorkloadID, WorkloadName: workload, Variant: r.Variant, Reference: reference, Params: r.Params, Seed: r.Seed}
}

// compared converts runs for package compare, with their workloads' names
// and whether their variants are references.
func (s *Server) compared(ctx context.Context, runs []runtypes.Run) []compare.Run {
	names := s.workloadNames(ctx, runs)
	return mapped(runs, func(r runtypes.Run) compare.Run {
		return compareRun(r, names[r.WorkloadID], s.isReference(r.Strategy, r.Variant))
	})
}

// isReference says whether a variant of a strategy computes a bound or an
// optimum (solvers.Variant.Reference).
func (s *Server) isReference(strategy, variant string) bool {
	st, err := s.lookup(strategy)
	if err != nil {
		return false
	}
	return solvers.LookupVariant(st.Variants, variant).Reference
}

// joinCompared is Join of runs converted (cr[i] is runs[i]).
func joinCompared(runs []runtypes.Run, cr []compare.Run, reports []*report.Report) views.CompareProps {
	res := compare.Join(cr, reports)
	p := views.CompareProps{Runs: mapped(runs, viewRun), Labels: res.Labels, Fields: res.Fields, Reference: res.Reference,
		Metrics: res.Metrics, Ranked: res.Ranked, Notes: res.Notes}
	for _, b := range res.Bars {
		p.Bars = append(p.Bars, metricBars(b))
	}
	for _, b := range res.Costs {
		p.Costs = append(p.Costs, metricBars(b))
	}
	// One time frame for every chart when the runs share one.
	var differ bool
	reports, p.Time, differ = charts.JoinFrames(reports)
	if differ {
		p.Notes = append(p.Notes, "These runs' times are in different frames (units or origins): their charts show the raw numbers of each run.")
	}
	var plotTitles, ganttTitles []string
	plots := map[string][]int{}
	gantts := map[string][]int{}
	for i, rep := range reports {
		for _, pl := range rep.Series {
			if _, ok := plots[pl.Title]; !ok {
				plotTitles = append(plotTitles, pl.Title)
			}
			plots[pl.Title] = append(plots[pl.Title], i)
		}
		for _, g := range rep.Gantts {
			if _, ok := gantts[g.Title]; !ok {
				ganttTitles = append(ganttTitles, g.Title)
			}
			gantts[g.Title] = append(gantts[g.Title], i)
		}
	}
	for _, t := range plotTitles {
		var labels []string
		var ps []report.Plot
		for _, i := range plots[t] {
			labels = append(labels, res.Labels[i])
			ps = append(ps, *reports[i].Plot(t))
		}
		p.Plots = append(p.Plots, charts.MergePlots(labels, ps))
	}
	for _, t := range ganttTitles {
		var labels []string
		var gs []report.Gantt
		for _, i := range gantts[t] {
			labels = append(labels, res.Labels[i])
			k := slices.IndexFunc(reports[i].Gantts, func(g report.Gantt) bool { return g.Title == t })
			gs = append(gs, reports[i].Gantts[k]) // k ≥ 0: gantts[t] lists the reports with one
		}
		p.Gantts = append(p.Gantts, charts.AlignGantts(labels, gs))
	}
	return p
}

// metricBars is a compared metric's bar chart as the charts draw it.
func metricBars(b compare.Bars) charts.MetricBars {
	return charts.MetricBars{Metric: b.Metric, Unit: b.Unit, Better: b.Better, Labels: b.Labels, Values: b.Values,
		Best: b.Best, Omit: b.Omit, Reference: b.Reference, Ranked: b.Ranked}
}

// allVariants queues one run per variant of the strategy that fits the
// workload (Strategy.VariantsFor), with the same parameters and seed, and
// returns the ids in variant order with keep (a run that already exists,
// or "") first. Parameters are one
// set per strategy, so a set the first queued run accepts suits them all:
// bad parameters fail before anything is queued.
func (s *Server) allVariants(c echo.Context, strategy, workloadID, keep, keepVariant string, params solvers.Params, seed int64) ([]string, error) {
	st, err := s.lookup(strategy)
	if err != nil {
		return nil, err
	}
	w, err := s.store.GetWorkloadInfo(c.Request().Context(), workloadID)
	if err != nil {
		return nil, err
	}
	variants := st.VariantsFor(w.Format)
	if len(variants) > maxCompare {
		return nil, errs.Invalidf("variant", "%s has %d variants, more than the %d a compare page shows", strategy, len(variants), maxCompare)
	}
	var ids []string
	if keep != "" {
		ids = append(ids, keep)
	}
	for _, v := range variants {
		if keep != "" && v.Name == keepVariant {
			continue
		}
		run, err := s.start(c, runRequest{Strategy: strategy, WorkloadID: workloadID, Variant: v.Name, Params: params, Seed: seed})
		if err != nil {
			return nil, err
		}
		ids = append(ids, run.ID)
	}
	return ids, nil
}

// compareRunVariants runs every other variant on a run's workload with its
// parameters and shows them all side by side: POST /runs/:id/all-variants.
func (s *Server) compareRunVariants(c echo.Context) error {
	run, err := s.store.GetRun(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if run.Kind != runtypes.KindRun {
		return errs.Invalidf("id", "run %s is a reproduction: it has no workload to run the other variants on", run.ID)
	}
	ids, err := s.allVariants(c, run.Strategy, run.WorkloadID, run.ID, run.Variant, run.Params, run.Seed)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/compare?runs="+strings.Join(ids, ","))
}

// compareWorkloadVariants runs every variant on a workload with the
// default parameters: POST /workloads/:id/all-variants.
func (s *Server) compareWorkloadVariants(c echo.Context) error {
	w, err := s.store.GetWorkloadInfo(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	ids, err := s.allVariants(c, w.Strategy, w.ID, "", "", nil, 0)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/compare?runs="+strings.Join(ids, ","))
}
