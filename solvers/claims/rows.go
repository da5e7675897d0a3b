package claims

import (
	"schedlab/report"
	"strings"
)

// Row is one row of a family's Claims table, written as data like the
// variant tables (issue 44): the claim (the paper's sentence), what the
// paper printed, the judge that gives the verdict and our numbers from
// the data D the reproduce computed (a rule of this package, through
// DirectionOf, LevelOf, TrendOver… or a small func), and the evidence
// (the table, plot or experiment that shows it). Key names the row's
// result for a conclusion that joins it (optional). Expand, set instead
// of Judge, gives rows whose text depends on D (one per size, per γ).
type Row[D any] struct {
	Key, Claim, Paper string
	Judge             func(D) Result
	Evidence          string
	Expand            func(D) []Line
}

// Line is one judged row, before the rule goes into its evidence cell.
type Line struct {
	Key, Claim, Paper string
	Result            Result
	Evidence          string
}

// Lines judges the rows on d in order. vars are pairs (old, new)
// replaced in every line's claim, paper and evidence: the text that
// depends on d ("{n} instances"), so that the rows stay data.
func Lines[D any](d D, rows []Row[D], vars ...string) []Line {
	var out []Line
	for _, r := range rows {
		if r.Expand != nil {
			out = append(out, r.Expand(d)...)
			continue
		}
		out = append(out, Line{Key: r.Key, Claim: r.Claim, Paper: r.Paper, Result: r.Judge(d), Evidence: r.Evidence})
	}
	rp := strings.NewReplacer(vars...)
	for i, l := range out {
		out[i].Claim, out[i].Paper, out[i].Evidence = rp.Replace(l.Claim), rp.Replace(l.Paper), rp.Replace(l.Evidence)
	}
	return out
}

// Build is the Claims table of the rows judged on d (Lines).
func Build[D any](d D, rows []Row[D], vars ...string) report.Table {
	var t Table
	t.AddLines(Lines(d, rows, vars...))
	return t.Table()
}

// AddLines writes judged rows in order.
func (t *Table) AddLines(ls []Line) {
	for _, l := range ls {
		t.Add(l.Claim, l.Paper, l.Result, l.Evidence)
	}
}

// DirectionOf is Direction as a judge: pairs gives the points from D.
func DirectionOf[D any](b Better, margin Tol, pairs func(D) []Pair) func(D) Result {
	return func(d D) Result { return Direction(b, margin, pairs(d)...) }
}

// LevelOf is Level as a judge: pts gives the points from D.
func LevelOf[D any](paper float64, tol Tol, pts func(D) []Point) func(D) Result {
	return func(d D) Result { return Level(paper, tol, pts(d)...) }
}

// TrendOver is TrendOf as a judge: pts gives the points from D.
func TrendOver[D any](kind Trend, tol Tol, paired bool, pts func(D) []Point) func(D) Result {
	return func(d D) Result { return TrendOf(kind, tol, paired, pts(d)...) }
}

// Fixed is a judge whose result does not depend on D (Missing, a
// constant Unmeasurable).
func Fixed[D any](r Result) func(D) Result { return func(D) Result { return r } }

// CombineOf is Combine as a judge: the parts, each a judge on D.
func CombineOf[D any](names []string, parts ...func(D) Result) func(D) Result {
	return func(d D) Result {
		rs := make([]Result, len(parts))
		for i, p := range parts {
			rs[i] = p(d)
		}
		return Combine(names, rs...)
	}
}
