package cyclic

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"schedlab/solvers"
)

// The Claims table (../shared/fidelity.md): one row per published number
// and qualitative claim of the seed, with a verdict computed from our
// numbers by the rule written beside it. The rules are small pure
// functions (verdict*) with tests of their own.

// Verdicts.
const (
	Holds        = solvers.Holds
	Partly       = solvers.Partly
	DoesNotHold  = solvers.DoesNotHold
	NotMeasured  = solvers.NotMeasured
	claimsTitle  = "Claims"
	evTable1     = "Table 1"
	evTable2     = "Table 2, Table 2 (paper)"
	evFig3       = "Fig 3, Fig 3 load levels"
	evFig4       = "Fig 4"
	evTable3     = "Table 3"
	evNodeStudy  = "Figs 5-8 (table), Fig 5 … Fig 8"
	evSensitivty = "seed experiment sensitivity-*"
)

// Claim is one row of the Claims table.
type Claim struct{ Claim, Paper, Ours, Verdict, Evidence string }

// Claims collects the rows as the reproduce's parts are built, and the
// verdicts the conclusions combine.
type Claims struct {
	Rows []Claim
	by   map[string]string // key → verdict, for the conclusions
}

func (c *Claims) add(key, claim, paper, ours, verdict, evidence string) {
	if c == nil {
		return
	}
	if c.by == nil {
		c.by = map[string]string{}
	}
	c.by[key] = verdict
	c.Rows = append(c.Rows, Claim{claim, paper, ours, verdict, evidence})
}

// Table is the Claims table.
func (c *Claims) Table() solvers.Table {
	t := solvers.Table{Title: claimsTitle, Columns: []string{"claim", "paper", "ours", "verdict", "evidence"}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, []any{r.Claim, r.Paper, r.Ours, r.Verdict, r.Evidence})
	}
	return t
}

// --- verdict rules --------------------------------------------------------

// verdictAll: holds if every check holds, partly if some do.
func verdictAll(ok ...bool) string {
	n := 0
	for _, o := range ok {
		if o {
			n++
		}
	}
	switch {
	case n == len(ok) && n > 0:
		return Holds
	case n > 0:
		return Partly
	}
	return DoesNotHold
}

// verdictLevel compares a level with the paper's: holds if ours/paper is
// within [1/tight, tight], partly within [1/loose, loose].
func verdictLevel(ours, paper, tight, loose float64) string {
	if paper == 0 || math.IsNaN(ours) {
		return NotMeasured
	}
	r := ours / paper
	switch {
	case r >= 1/tight && r <= tight:
		return Holds
	case r >= 1/loose && r <= loose:
		return Partly
	}
	return DoesNotHold
}

// worst is the weakest of verdicts (holds > partly > does not hold).
func worst(vs ...string) string {
	rank := map[string]int{Holds: 3, Partly: 2, DoesNotHold: 1, NotMeasured: 0}
	w := Holds
	for _, v := range vs {
		if rank[v] < rank[w] {
			w = v
		}
	}
	return w
}

// verdictGains: the gains (%) of a method over a baseline, ours against the
// paper's: holds if every gain has the paper's sign and is within tol
// points of it, partly if every gain has the paper's sign.
func verdictGains(ours, paper []float64, tol float64) string {
	signs, close := true, true
	for i := range ours {
		if math.Signbit(ours[i]) != math.Signbit(paper[i]) || ours[i] == 0 {
			signs = false
		}
		if math.Abs(ours[i]-paper[i]) > tol {
			close = false
		}
	}
	switch {
	case signs && close:
		return Holds
	case signs:
		return Partly
	}
	return DoesNotHold
}

// verdictBestK: where the least processor time lies on Fig 3's k axis.
// want "few": holds at k ≤ 2, partly at k ≤ 5; "many": holds at k ≥ 10,
// partly at k ≥ 5.
func verdictBestK(best int, want string) string {
	if want == "few" {
		switch {
		case best <= 2:
			return Holds
		case best <= 5:
			return Partly
		}
		return DoesNotHold
	}
	switch {
	case best >= 10:
		return Holds
	case best >= 5:
		return Partly
	}
	return DoesNotHold
}

// verdictPeak: the profit peak's price as a multiple of the market price:
// holds within [0.75, 1.25], partly within [0.5, 1.5].
func verdictPeak(ratio float64) string {
	switch {
	case ratio >= 0.75 && ratio <= 1.25:
		return Holds
	case ratio >= 0.5 && ratio <= 1.5:
		return Partly
	}
	return DoesNotHold
}

// verdictFalls: a series falls with its axis: holds if it never rises by
// more than tol × its largest value, partly if it ends below its start.
func verdictFalls(ys []float64, tol float64) string {
	if len(ys) < 2 {
		return NotMeasured
	}
	top := slices.Max(ys)
	mono := true
	for i := 1; i < len(ys); i++ {
		if ys[i] > ys[i-1]+tol*top {
			mono = false
		}
	}
	switch {
	case mono && ys[len(ys)-1] < ys[0]:
		return Holds
	case ys[len(ys)-1] < ys[0]:
		return Partly
	}
	return DoesNotHold
}

// verdictLead: the fair-share model's lead (%) over backfilling, planned
// and actual: holds if it is kept and grows (actual ≥ planned > 0),
// partly if kept (both > 0).
func verdictLead(planned, actual float64) string {
	switch {
	case planned > 0 && actual >= planned:
		return Holds
	case planned > 0 && actual > 0:
		return Partly
	}
	return DoesNotHold
}

// verdictCloser: q = (a − near) / (far − near), how far a lies from near
// towards far: holds at q ≤ 0.25, partly at q ≤ 0.5.
func verdictCloser(a, near, far float64) string {
	if far == near {
		return NotMeasured
	}
	q := (a - near) / (far - near)
	switch {
	case q <= 0.25:
		return Holds
	case q <= 0.5:
		return Partly
	}
	return DoesNotHold
}

// verdictShare: holds if every one of n comparisons came out the paper's
// way, partly if at least half.
func verdictShare(won, n int) string {
	switch {
	case n > 0 && won == n:
		return Holds
	case n > 0 && 2*won >= n:
		return Partly
	}
	return DoesNotHold
}

// verdictCross: the method's lead over the baseline (baseline − method)
// at few and at many nodes: the seed has the baseline ahead or level at
// few nodes and the method ahead at many. holds if both, partly if only
// the method leads at many nodes; else it does not hold (a reversal).
func verdictCross(leadFew, leadMany float64) string {
	switch {
	case leadMany > 0 && leadFew <= 0:
		return Holds
	case leadMany > 0:
		return Partly
	}
	return DoesNotHold
}

func pct(a, b float64) float64 { return 100 * (a/b - 1) }

func fmtList(vs []float64, f string) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprintf(f, v)
	}
	return strings.Join(s, " / ")
}
