package gossip

import (
	"fmt"
	"math"
	"strings"

	"schedlab/solvers"
)

// Verdicts of the Claims table (fidelity.md).
const (
	Holds       = solvers.Holds
	Partly      = solvers.Partly
	DoesNotHold = solvers.DoesNotHold
	NotMeasured = solvers.NotMeasured
)

// Thresholds of the verdict rules (the paper gives words, not numbers;
// these turn its words into rules, fixed before any run).
const (
	clearlyAhead = 0.97 // "central clearly ahead": gossip/central < 0.97
	parityLo     = 0.99 // "about equal or up to 10 % better": 0.99 ≤ ratio ≤ 1.10
	parityHi     = 1.10
	minDrop      = 0.005 // "the final rate drops a little": minDrop ≤ drop ≤ smallDrop
	smallDrop    = 0.20  // (a drop under 0.005 — five nodes in 1000 — is no drop)
	table1Close  = 0.01  // a Table 1 value holds within ±0.01, partly within ±0.03
	table1Near   = 0.03
)

// ratioPoint is one node count's gossip/central ratio.
type ratioPoint struct {
	nodes int
	ratio float64
}

// countVerdict is holds when all of n checks pass, partly when some do,
// does not hold when none do (not measured when there are none).
func countVerdict(pass, n int) string {
	switch {
	case n == 0:
		return NotMeasured
	case pass == n:
		return Holds
	case pass > 0:
		return Partly
	}
	return DoesNotHold
}

// verdictCentralAhead: gossip/central < clearlyAhead at every node count ≤ 100.
func verdictCentralAhead(pts []ratioPoint) (string, string) {
	pass, n := 0, 0
	var ours []string
	for _, p := range pts {
		if p.nodes <= 100 {
			n++
			if p.ratio < clearlyAhead {
				pass++
			}
			ours = append(ours, fmt.Sprintf("%d: %.3f", p.nodes, p.ratio))
		}
	}
	return countVerdict(pass, n), strings.Join(ours, ", ")
}

// verdictGossipParity: parityLo ≤ gossip/central ≤ parityHi at every node count ≥ 1000.
func verdictGossipParity(pts []ratioPoint) (string, string) {
	pass, n := 0, 0
	var ours []string
	for _, p := range pts {
		if p.nodes >= 1000 {
			n++
			if p.ratio >= parityLo && p.ratio <= parityHi {
				pass++
			}
			ours = append(ours, fmt.Sprintf("%d: %.3f", p.nodes, p.ratio))
		}
	}
	return countVerdict(pass, n), strings.Join(ours, ", ")
}

// verdictRatioRises (§7.1 scalability): the ratio at the largest node
// count is at least 0.01 above the ratio at the smallest.
func verdictRatioRises(pts []ratioPoint) (string, string) {
	if len(pts) < 2 {
		return NotMeasured, ""
	}
	a, b := pts[0], pts[len(pts)-1]
	ours := fmt.Sprintf("%d: %.3f → %d: %.3f", a.nodes, a.ratio, b.nodes, b.ratio)
	if b.ratio >= a.ratio+0.01 {
		return Holds, ours
	}
	return DoesNotHold, ours
}

// verdictFallsWithLoad (Fig. 9, few nodes): the ratios by rising load
// never rise by more than 0.005 and the last is below the first.
func verdictFallsWithLoad(ratios []float64) string {
	if len(ratios) < 2 {
		return NotMeasured
	}
	mono := true
	for i := 1; i < len(ratios); i++ {
		mono = mono && ratios[i] <= ratios[i-1]+0.005
	}
	fell := ratios[len(ratios)-1] < ratios[0]
	switch {
	case mono && fell:
		return Holds
	case fell:
		return Partly
	}
	return DoesNotHold
}

// verdictGossipAhead (Fig. 9, many nodes): ratio > 1 at each load ≥ 100 %.
func verdictGossipAhead(ratios []float64) string {
	pass := 0
	for _, r := range ratios {
		if r > 1 {
			pass++
		}
	}
	return countVerdict(pass, len(ratios))
}

// verdictNAT (Fig. 7): rounds rise with the NAT fraction and the final
// fraction drops a little (minDrop ≤ drop ≤ smallDrop): holds when both, partly
// when one.
func verdictNAT(rounds0, roundsMax, final0, finalMax float64) string {
	rise := roundsMax > rounds0
	drop := final0 - finalMax
	little := drop >= minDrop && drop <= smallDrop
	switch {
	case rise && little:
		return Holds
	case rise || little:
		return Partly
	}
	return DoesNotHold
}

// verdictClose: |ours − paper| ≤ table1Close holds, ≤ table1Near partly.
func verdictClose(ours, paper float64) string {
	d := math.Abs(ours - paper)
	switch {
	case d <= table1Close+1e-12:
		return Holds
	case d <= table1Near+1e-12:
		return Partly
	}
	return DoesNotHold
}

// verdictRising: values non-decreasing and the last above the first.
func verdictRising(v []float64) string {
	if len(v) < 2 {
		return NotMeasured
	}
	mono := true
	for i := 1; i < len(v); i++ {
		mono = mono && v[i] >= v[i-1]
	}
	switch {
	case mono && v[len(v)-1] > v[0]:
		return Holds
	case v[len(v)-1] > v[0]:
		return Partly
	}
	return DoesNotHold
}

// claimsTable is the Claims table (fidelity.md): one row per published
// number and per claim, the verdict computed by the rules above.
func claimsTable(rows [][]any) solvers.Table {
	return solvers.Table{Title: "Claims", Columns: []string{"claim", "paper", "ours", "verdict", "evidence"}, Rows: rows}
}
