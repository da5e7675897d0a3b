package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/store"
	"schedlab/views"
	"schedlab/views/charts"
)

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
	runs := make([]store.Run, len(ids))
	allDone := true
	for i, id := range ids {
		r, err := s.store.GetRunInfo(ctx, id)
		if err != nil {
			return err
		}
		runs[i] = *r
		allDone = allDone && r.Status == store.StatusDone
	}
	body := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		p, err := s.joinRuns(ctx, runs)
		if err != nil {
			return err
		}
		return views.CompareBody(p).Render(ctx, w)
	})
	if !allDone {
		// Still filling in: render it afresh each time.
		return render(c, http.StatusOK, views.ComparePage(body))
	}
	part, err := s.pages.get(ctx, "compare:"+strings.Join(ids, ","), ids, body)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ComparePage(part))
}

// joinRuns reads the reports of runs one at a time and joins them. A
// compare page draws metrics, plots and Gantts, so the reports are decoded
// without their tables (most of a large report's decoded size), and not
// through the report cache, which would keep them.
func (s *Server) joinRuns(ctx context.Context, runs []store.Run) (views.CompareProps, error) {
	reports := make([]*solvers.Report, len(runs))
	for i, r := range runs {
		reports[i] = &solvers.Report{}
		if r.Status != store.StatusDone {
			continue
		}
		full, err := s.store.GetRun(ctx, r.ID)
		if err != nil {
			return views.CompareProps{}, err
		}
		if err := decodeWithoutTables(full.Report, reports[i]); err != nil {
			return views.CompareProps{}, err
		}
	}
	return Join(runs, reports), nil
}

// decodeWithoutTables decodes a stored report into r, skipping its tables.
func decodeWithoutTables(raw []byte, r *solvers.Report) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	v := struct {
		*solvers.Report
		Tables skipJSON `json:"tables"` // shadows Report.Tables
	}{Report: r}
	if err := json.Unmarshal(raw, &v); err != nil {
		return errs.Wrap("decode report", errs.Internal, err)
	}
	return nil
}

// skipJSON decodes any JSON value into nothing.
type skipJSON struct{}

func (skipJSON) UnmarshalJSON([]byte) error { return nil }

// label names a run on the compare page: its id and variant, after its
// name if it has one. A cached compare page is forgotten when a run's
// labels change (setRunLabels).
func label(r store.Run) string {
	l := r.ID + " · " + r.Variant
	if r.Kind == store.KindReproduce {
		l = r.ID + " · reproduce"
	}
	if r.Name != "" {
		l = r.Name + " (" + l + ")"
	}
	return l
}

// Join puts reports side by side: a row per metric (in order of first
// appearance) with the best runs marked by the metric's Better (results
// of runs of one family, among the runs whose variant the metric is
// meaningful for: solvers.Metric.Variants; the others show "n/a"), plots with
// the same title overlaid one line per run, Gantts with the same title
// stacked on one time axis.
func Join(runs []store.Run, reports []*solvers.Report) views.CompareProps {
	p := views.CompareProps{Runs: viewRuns(runs)}
	for _, r := range runs {
		p.Labels = append(p.Labels, label(r))
	}
	index := map[string]int{}
	// declared[k][i] is the variants run i's metric k is meaningful for.
	var declared [][][]string
	for i, rep := range reports {
		for _, m := range rep.Metrics {
			k, ok := index[m.Name]
			if !ok {
				k = len(p.Metrics)
				index[m.Name] = k
				n := len(reports)
				p.Metrics = append(p.Metrics, views.MetricRow{Name: m.Name, Unit: m.Unit, Better: m.Better, Kind: m.Kind,
					Values: make([]*float64, n), Best: make([]bool, n), NA: make([]bool, n), Apart: make([]bool, n)})
				declared = append(declared, make([][]string, n))
			}
			v := m.Value
			p.Metrics[k].Values[i] = &v
			p.Metrics[k].NA[i] = !m.MeaningfulFor(runs[i].Variant)
			declared[k][i] = m.Variants
		}
	}
	// Only results of runs of one family are ranked: a makespan in seconds
	// beside one in slots, or a method's cost (time, messages) beside
	// another's, is not better or worse.
	p.Ranked = true
	workloads := map[string]bool{}
	for _, r := range runs {
		p.Ranked = p.Ranked && r.Strategy == runs[0].Strategy
		workloads[r.WorkloadID] = true
	}
	if !p.Ranked {
		p.Notes = append(p.Notes, "These runs are of different families: their metrics are shown side by side, none is ranked (units and definitions differ).")
	} else if len(workloads) > 1 {
		p.Notes = append(p.Notes, "These runs are on different workloads: a better value may come from an easier workload, not a better method.")
	}
	short := shortLabels(runs, p.Labels)
	for k := range p.Metrics {
		m := &p.Metrics[k]
		if !p.Ranked || m.Kind != solvers.KindResult || (m.Better != solvers.Higher && m.Better != solvers.Lower) {
			continue
		}
		if markApart(m, runs, declared[k]) >= 2 {
			m.Ranked = true
			markBest(m)
			omit := make([]bool, len(runs))
			for i := range omit {
				omit[i] = m.NA[i] || m.Apart[i]
			}
			p.Bars = append(p.Bars, charts.MetricBars{Metric: m.Name, Unit: m.Unit, Better: m.Better, Labels: short, Values: m.Values, Best: m.Best, Omit: omit})
		}
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
		var ps []solvers.Plot
		for _, i := range plots[t] {
			labels = append(labels, short[i])
			ps = append(ps, *reports[i].Plot(t))
		}
		p.Plots = append(p.Plots, charts.MergePlots(labels, ps))
	}
	for _, t := range ganttTitles {
		var labels []string
		var gs []solvers.Gantt
		for _, i := range gantts[t] {
			labels = append(labels, short[i])
			for _, g := range reports[i].Gantts {
				if g.Title == t {
					gs = append(gs, g)
					break
				}
			}
		}
		p.Gantts = append(p.Gantts, charts.AlignGantts(labels, gs))
	}
	return p
}

// shortLabels names runs inside merged charts, where space is short (lane
// and legend labels): the variant alone when no two runs share one, else
// the full label.
func shortLabels(runs []store.Run, labels []string) []string {
	seen := map[string]bool{}
	for _, r := range runs {
		if r.Kind != store.KindRun || r.Variant == "" || seen[r.Variant] {
			return labels
		}
		seen[r.Variant] = true
	}
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.Variant
	}
	return out
}

// markApart splits the runs that have a meaningful value of metric m
// (m.NA false) into groups whose metrics are comparable: runs i and j are
// when each one's declared variants (declared[i]; empty: all) hold the
// other's variant, so that both numbers measure one thing. A run joins
// the first group every member of which it is comparable with. The
// largest group (the first of equal ones) is ranked; the runs of the
// others are marked Apart. It returns the size of the ranked group.
func markApart(m *views.MetricRow, runs []store.Run, declared [][]string) int {
	holds := func(vs []string, v string) bool { return len(vs) == 0 || slices.Contains(vs, v) }
	var groups [][]int
	for i, v := range m.Values {
		if v == nil || m.NA[i] {
			continue
		}
		joined := false
		for g := range groups {
			ok := true
			for _, j := range groups[g] {
				ok = ok && holds(declared[i], runs[j].Variant) && holds(declared[j], runs[i].Variant)
			}
			if ok {
				groups[g] = append(groups[g], i)
				joined = true
				break
			}
		}
		if !joined {
			groups = append(groups, []int{i})
		}
	}
	if len(groups) == 0 {
		return 0
	}
	ranked := 0
	for g := range groups {
		if len(groups[g]) > len(groups[ranked]) {
			ranked = g
		}
	}
	for g := range groups {
		if g != ranked {
			for _, i := range groups[g] {
				m.Apart[i] = true
			}
		}
	}
	return len(groups[ranked])
}

// markBest marks the runs holding the best value; nothing is marked when the
// metric has no direction or fewer than two runs have it, or all are equal.
// The runs the metric is not meaningful for (NA) or not comparable with
// the others (Apart) take no part.
func markBest(m *views.MetricRow) {
	if m.Better != solvers.Higher && m.Better != solvers.Lower {
		return
	}
	ranked := func(i int) bool { return m.Values[i] != nil && !m.NA[i] && !m.Apart[i] }
	var best *float64
	n := 0
	for i, v := range m.Values {
		if !ranked(i) {
			continue
		}
		n++
		if best == nil || (m.Better == solvers.Higher && *v > *best) || (m.Better == solvers.Lower && *v < *best) {
			best = v
		}
	}
	if n < 2 {
		return
	}
	all := true
	for i, v := range m.Values {
		if ranked(i) && *v != *best {
			all = false
		}
	}
	if all {
		return
	}
	for i, v := range m.Values {
		m.Best[i] = ranked(i) && *v == *best
	}
}

// allVariants queues one run per variant of the strategy that fits the
// workload (solvers.VariantsFor), with the same parameters and seed, and
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
	variants := solvers.VariantsFor(st, w.Format)
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
	if run.Kind != store.KindRun {
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
