package adversary

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedlab/report"
	"schedlab/solvers"
)

// Report is a search's result in the one Report shape every page draws:
// the best score and its two values as metrics, the best score against
// candidates (and each candidate's score) as a plot, the path of changes
// that led to the best instance and the ten best candidates as tables,
// and A's and B's Gantts on the best instance (from its runs' reports,
// when they were run in this search; a resumed search's replayed best
// has none and says so).
func Report(cfg Config, res *Result) *report.Report {
	cfg = cfg.withDefaults()
	best := res.Evaluations[res.Best]
	name := "best_" + cfg.Score
	unit := "× (A/B)"
	if cfg.Better == report.Higher {
		unit = "× (B/A)"
	}
	if cfg.Score == Difference {
		unit = "A − B"
		if cfg.Better == report.Higher {
			unit = "B − A"
		}
	}
	r := &report.Report{Metrics: []report.Metric{
		{Name: name, Value: finiteForJSON(best.Score), Unit: unit, Kind: report.KindInfo},
		{Name: "a_" + cfg.Metric, Value: valueOr(best.Outcome.A), Kind: report.KindInfo},
		{Name: "b_" + cfg.Metric, Value: valueOr(best.Outcome.B), Kind: report.KindInfo},
		{Name: "candidates", Value: float64(len(res.Evaluations)), Kind: report.KindCost},
		{Name: "instances_run", Value: float64(res.Ran), Kind: report.KindCost},
		{Name: "best_at_candidate", Value: float64(best.Index + 1), Kind: report.KindInfo},
	}}
	aDiff, bDiff := paramDiff(cfg.A.Params, cfg.B.Params)
	r.Notes = append(r.Notes, fmt.Sprintf("A is %s%s, B is %s%s; the search maximised %s of %s (%s is better) by %s, seed %d, budget %d.",
		cfg.A.Variant, aDiff, cfg.B.Variant, bDiff, unit, cfg.Metric, cfg.Better, cfg.Method, cfg.Seed, cfg.Budget))
	if math.IsInf(best.Score, 1) {
		r.Notes = append(r.Notes, "A gives no "+cfg.Metric+" on the best instance while B does: "+best.Outcome.A.Reason)
	}
	if best.Note != "" {
		r.Notes = append(r.Notes, "The best candidate: "+best.Note)
	}
	bestLine := report.Line{Name: "best so far"}
	each := report.Line{Name: "candidate"}
	for _, e := range res.Evaluations {
		if !math.IsNaN(e.Best) {
			bestLine.Points = append(bestLine.Points, [2]float64{float64(e.Index + 1), finiteForJSON(e.Best)})
		}
		if !math.IsInf(e.Score, 0) && !math.IsNaN(e.Score) {
			each.Points = append(each.Points, [2]float64{float64(e.Index + 1), e.Score})
		}
	}
	r.Series = append(r.Series, report.Plot{Title: "Best score against candidates", XLabel: "candidate", YLabel: unit,
		Lines: []report.Line{bestLine}},
		report.Plot{Title: "Score of each candidate", XLabel: "candidate", YLabel: unit, Kind: report.PlotScatter, Lines: []report.Line{each}})
	r.Tables = append(r.Tables, pathTable(res), topTable(cfg, res))
	for _, side := range []struct {
		tag string
		s   Side
		o   SideResult
	}{{"A", cfg.A, res.BestOutcome.A}, {"B", cfg.B, res.BestOutcome.B}} {
		if side.o.Report == nil {
			continue
		}
		for _, g := range side.o.Report.Gantts {
			g.Title = fmt.Sprintf("%s (%s): %s", side.tag, side.s.Variant, g.Title)
			r.Gantts = append(r.Gantts, g)
		}
		if r.Time == nil {
			r.Time = side.o.Report.Time
		}
	}
	if res.BestOutcome.A.Report == nil && res.BestOutcome.B.Report == nil {
		r.Notes = append(r.Notes, "The best instance's runs were made before a resume: run it again to see its schedules.")
	}
	return r
}

// pathTable is the chain of accepted changes from the restart's initial
// instance to the best candidate (annealing), or the best's parameters
// (CMA-ES).
func pathTable(res *Result) report.Table {
	best := res.Evaluations[res.Best]
	t := report.Table{Title: "How the best instance was reached", Columns: []string{"candidate", "step", "change", "score"}}
	if len(best.Params) > 0 {
		t.Columns = []string{"parameter", "value"}
		for _, p := range best.Params {
			t.Rows = append(t.Rows, []any{p.Name, p.Lo})
		}
		return t
	}
	var path []Evaluation
	for _, e := range res.Evaluations[:best.Index] {
		if e.Restart == best.Restart && e.Accept {
			path = append(path, e)
		}
	}
	path = append(path, best)
	for _, e := range path {
		t.Rows = append(t.Rows, []any{e.Index + 1, e.Step, cmp.Or(e.Change, "initial instance"), ScoreText(e.Score)})
	}
	return t
}

// topTable is the ten best candidates.
func topTable(cfg Config, res *Result) report.Table {
	t := report.Table{Title: "Best candidates", Columns: []string{"candidate", "restart", "score", "A " + cfg.Metric, "B " + cfg.Metric, "instance sha256"}}
	idx := make([]int, 0, 10)
	for i := range res.Evaluations {
		idx = append(idx, i)
		for k := len(idx) - 1; k > 0 && better(res.Evaluations[idx[k]].Score, res.Evaluations[idx[k-1]].Score); k-- {
			idx[k], idx[k-1] = idx[k-1], idx[k]
		}
		if len(idx) > 10 {
			idx = idx[:10]
		}
	}
	for _, i := range idx {
		e := res.Evaluations[i]
		key := e.Key
		if len(key) > 12 {
			key = key[:12]
		}
		if e.Key == "" {
			key = "none: " + e.Note
		}
		t.Rows = append(t.Rows, []any{e.Index + 1, e.Restart, ScoreText(e.Score), sideCell(e.Outcome.A), sideCell(e.Outcome.B), key})
	}
	return t
}

// SideText is one side's value on an instance, or why it has none.
func SideText(r SideResult) string {
	if !r.OK {
		return "none (" + r.Reason + ")"
	}
	return strconv.FormatFloat(r.Value, 'g', 6, 64)
}

func sideCell(s SideResult) any {
	if !s.OK {
		return "none: " + s.Reason
	}
	return s.Value
}

func valueOr(s SideResult) float64 {
	if !s.OK {
		return math.NaN()
	}
	return s.Value
}

// ScoreText is a score as the report's tables and the pages say it.
func ScoreText(s float64) string {
	switch {
	case math.IsInf(s, 1):
		return "+Inf (A failed)"
	case math.IsInf(s, -1):
		return "−Inf (B failed)"
	}
	return fmt.Sprintf("%.4f", s)
}

// finiteForJSON keeps a metric or a point finite: ±Inf becomes ±MaxFloat64.
func finiteForJSON(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}

// paramDiff names the parameters on which A and B differ, as " (k=v, …)"
// for each side ("" when they share them all).
func paramDiff(a, b solvers.Params) (string, string) {
	var keys []string
	for k, v := range a {
		if b[k] != v {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "", ""
	}
	slices.Sort(keys)
	side := func(p solvers.Params) string {
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			if v, ok := p[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		return " (" + strings.Join(parts, ", ") + ")"
	}
	return side(a), side(b)
}
