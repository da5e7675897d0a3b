package cyclic

import (
	"fmt"
	"math"
	"strings"

	"schedlab/report"
	"schedlab/solvers/claims"
)

// The Claims table (../shared/fidelity.md): one row per published number
// and qualitative claim of the seed, each verdict given by a rule of
// solvers/claims on our per-cycle values (every cycle is an independent
// draw: the rules' instances), the rule written beside it. This file
// holds the table and the per-cycle values; claims_parts.go the rows.

// Verdicts.
const (
	Holds        = report.Holds
	Partly       = report.Partly
	DoesNotHold  = report.DoesNotHold
	NotMeasured  = report.NotMeasured
	evTable1     = "Table 1"
	evTable2     = "Table 2, Table 2 (paper)"
	evFig3       = "Fig 3, Fig 3 load levels"
	evFig4       = "Fig 4"
	evTable3     = "Table 3, Table 3 (95 % CI)"
	evNodeStudy  = "Figs 5-8 (table), Fig 5 … Fig 8"
	evSensitivty = "seed experiment sensitivity-*"
)

// Claims collects the rows as the reproduce's parts are built, and the
// results the conclusions combine.
type Claims struct {
	t  claims.Table
	by map[string]claims.Result // key → the row's result, for the conclusions
}

func (c *Claims) add(key, claim, paper string, r claims.Result, evidence string) {
	if c == nil {
		return
	}
	if c.by == nil {
		c.by = map[string]claims.Result{}
	}
	c.by[key] = r
	c.t.Add(claim, paper, r, evidence)
}

// addRows judges rows on d and adds them in order, keyed (claims.Lines).
func addRows[D any](c *Claims, d D, rows []claims.Row[D], vars ...string) {
	for _, l := range claims.Lines(d, rows, vars...) {
		c.add(l.Key, l.Claim, l.Paper, l.Result, l.Evidence)
	}
}

// Table is the Claims table.
func (c *Claims) Table() report.Table { return c.t.Table() }

// parts joins the results of a claim made of several checks with
// claims.Combine, listing each part's numbers and verdict in ours and each
// part's rule in the rule.
func parts(names []string, rs ...claims.Result) claims.Result {
	out := claims.Combine(names, rs...)
	var ours, rules []string
	for i, r := range rs {
		ours = append(ours, fmt.Sprintf("%s: %s (%s)", names[i], r.Ours, r.Verdict))
		rules = append(rules, names[i]+": "+r.Rule)
	}
	out.Ours = strings.Join(ours, " · ")
	out.Rule = out.Rule + " — " + strings.Join(rules, " — ")
	return out
}

// cycles are a run's per-cycle statistics as CritStats.
func cycles(res *Result) []CritStats {
	out := make([]CritStats, len(res.Cycles))
	for i, c := range res.Cycles {
		out[i] = CritStats{Jobs: c.Batch, Planned: c.Planned, Alternatives: c.Alternatives, Start: c.Start, Runtime: c.Runtime, Finish: c.Finish, Cost: c.Cost, ProcTm: c.ProcTime}
	}
	return out
}

// perJob is f per planned job in every cycle (NaN where a cycle planned
// none): the rules' values, one per cycle.
func perJob(cs []CritStats, f func(CritStats) float64) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = math.NaN()
		if c.Planned > 0 {
			out[i] = f(c) / float64(c.Planned)
		}
	}
	return out
}

// failed is 1 for a cycle where some job got no plan, 0 otherwise: its
// mean is the failure rate U.
func failed(res *Result) []float64 {
	out := make([]float64, len(res.Cycles))
	for i, c := range res.Cycles {
		if c.Postponed > 0 {
			out[i] = 1
		}
	}
	return out
}

// zip applies f to a[i], b[i] (NaN where either is NaN).
func zip(a, b []float64, f func(x, y float64) float64) []float64 {
	out := make([]float64, min(len(a), len(b)))
	for i := range out {
		out[i] = f(a[i], b[i])
	}
	return out
}

// scaled is 100 · (x − y) / ref for each pair: a paired gain in % of ref.
func scaled(a, b []float64, ref float64) []float64 {
	return zip(a, b, func(x, y float64) float64 { return 100 * (x - y) / ref })
}

func meanOf(xs []float64) float64 { return claims.MeanCI(xs).Mean }

var (
	getStart   = func(c CritStats) float64 { return c.Start }
	getRuntime = func(c CritStats) float64 { return c.Runtime }
	getFinish  = func(c CritStats) float64 { return c.Finish }
	getCost    = func(c CritStats) float64 { return c.Cost }
	getProc    = func(c CritStats) float64 { return c.ProcTm }
	getF       = func(c CritStats) float64 { return c.Start + c.ProcTm }
)

// cyclesNote says how many cycles a part's runs have, against the seed's.
func cyclesNote(n int) string {
	return fmt.Sprintf("%d independent cycles per run (the seed: 5000)", n)
}
