package gossip

import (
	"fmt"
	"math"
	"strings"

	"schedlab/report"
	"schedlab/solvers/claims"
)

// Thresholds of ours that the Claims rows name (the seed's words fix no
// number for them); every verdict comes from solvers/claims.
const (
	// aheadMargin reads «大きく性能が劣っている» ("far inferior") as
	// central − gossip utilization > 0.03 (3 points of utilization, the
	// former 0.97 ratio at utilization ≈ 1).
	aheadMargin = 0.03
	// parityLo reads «ほぼ同程度» ("about equal") as gossip/central ≥ 0.99;
	// the upper end 1.10 is the seed's «最大 10%程度».
	parityLo = 0.99
	parityHi = 1.10
	// smallDrop reads «その低下は比較的小さく» ("the drop is relatively
	// small") as a final informed fraction at most 0.20 below NAT 0's.
	smallDrop = 0.20
)

// RumorResidue is the fraction a push rumor with feedback leaves
// uninformed when a sender stops at its k-th "known" answer, by the
// mean-field model of Demers et al. 1987 (§1.4, "Epidemic algorithms for
// replicated database maintenance", PODC '87): s = e^{−(k+1)(1−s)}, the
// root below 1 (solved by fixed-point iteration from 0). For k = 1 the
// counter and the coin with probability 1/k are the same rule (a sender
// stops at its first "known" answer): s ≈ 0.2032, informed ≈ 0.797.
func RumorResidue(k int) float64 {
	s := 0.0
	for range 200 {
		s = math.Exp(-float64(k+1) * (1 - s))
	}
	return s
}

// repsOf is one value per seed (index rep), NaN where no run gave one.
func repsOf(n int, fill func(set func(rep int, v float64))) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	fill(func(rep int, v float64) {
		if rep >= 0 && rep < n {
			out[rep] = v
		}
	})
	return out
}

// simSeeds is one value of a scheduling setting per seed (index rep: the
// same workload and grid for gossip and central), NaN where missing.
func simSeeds(sts []*simTask, reps int, v string, n int, load float64, sch int, get func(*simTask) float64) []float64 {
	return repsOf(reps, func(set func(int, float64)) {
		for _, t := range sts {
			if t.variant == v && t.nodes == n && t.load == load && t.schedulers == sch {
				set(t.rep, get(t))
			}
		}
	})
}

func utilOf(t *simTask) float64 { return t.util }

// ratioSeeds is gossip/central utilization per seed (NaN where central is
// 0 or a run is missing).
func ratioSeeds(sts []*simTask, reps, n int, load float64) []float64 {
	g := simSeeds(sts, reps, VariantGossip, n, load, 1, utilOf)
	c := simSeeds(sts, reps, VariantCentral, n, load, 1, utilOf)
	out := make([]float64, reps)
	for i := range out {
		out[i] = g[i] / c[i]
		if c[i] == 0 {
			out[i] = math.NaN()
		}
	}
	return out
}

// rumorSeeds is one rumor quantity per seed of a setting.
func rumorSeeds(rts []*rumorTask, reps int, fig7 bool, mode string, n int, nat float64, get func(*RumorResult) float64) []float64 {
	return repsOf(reps, func(set func(int, float64)) {
		for _, t := range rts {
			if t.fig7 == fig7 && t.mode == mode && t.nodes == n && t.nat == nat && t.res != nil {
				set(t.rep, get(t.res))
			}
		}
	})
}

func roundsOf(r *RumorResult) float64 { return float64(r.RoundsToConverge) }
func finalOf(r *RumorResult) float64  { return r.Final }

// ivText writes a mean with its 95 % interval and its n
// (claims.FormatInterval: one value is written as a value).
func ivText(xs []float64, format string) string {
	return claims.FormatInterval(claims.MeanCI(xs), func(x float64) string { return fmt.Sprintf(format, x) })
}

// claimData is what the Claims rows read: the reproduce's runs and how
// many seeds each setting has.
type claimData struct {
	reps, rreps int
	pl          *reproTasks
}

// reproClaims is the Claims table of the reproduce: Figs. 6–9, Table 1
// and the conclusions of §7.1, each row judged by a rule of solvers/claims
// on the per-seed values of the runs.
func reproClaims(c ReproConfig, pl *reproTasks) report.Table {
	d := &claimData{reps: max(1, c.Reps), rreps: max(1, c.RumorReps), pl: pl}
	seeds := fmt.Sprintf("%d seeds per point", d.reps)
	if d.reps < claims.MinValues {
		seeds = "1 seed per point (reps 1): no interval rests on one value, so a verdict that needs one is inconclusive (the default reps 5 gives intervals)"
	} else if d.reps < claims.MinSeeds {
		seeds += fmt.Sprintf(" (fewer than the %d a random claim is judged on by default)", claims.MinSeeds)
	}
	return claims.Build(d, claimRows, "{seeds}", seeds, "{small}", fmt.Sprint(pl.f9[0]))
}

const (
	ev8    = "Fig 8 table and ratio plot; {seeds}; gossip and central paired by seed (the same workload and grid)"
	ev9    = "Fig 9 table; {seeds}; gossip and central paired by seed (the same workload and grid)"
	ahead  = "A = central, B = gossip utilization; " + ev8
	noSign = "curve only (no values printed)"
)

var noTol = claims.Tol{}

// The Fig 8 judges that §7.1's conclusions join.
var (
	vAhead = claims.DirectionOf(claims.HigherBetter, claims.Ours(aheadMargin, fmt.Sprintf("«大きく» read as central − gossip > %.2f of utilization", aheadMargin)), f8Ahead)
	vRises = claims.TrendOver(claims.Rises, noTol, false, f8Ratios(0))
	// parity is "lo ≤ ours ≤ hi at every point", judged as a claims.Level
	// on the band's middle with half its width as the tolerance, ours: a
	// point holds when our 95 % interval meets [lo, hi].
	vParity = claims.LevelOf((parityLo+parityHi)/2, claims.Ours((parityHi-parityLo)/2,
		fmt.Sprintf("the band %.2f–%.2f: «ほぼ同程度» read as gossip/central ≥ %.2f, ours; «最大 10%%程度» the seed's %.2f", parityLo, parityHi, parityLo, parityHi)), f8Ratios(1000))
)

// claimRows are the seed's claims in the table's order.
var claimRows = []claims.Row[*claimData]{
	// Fig. 6: no values printed, the words fix no threshold: ours beside the theory.
	{Claim: "Fig 6: push rumor (fanout 1, k 1) informs most nodes and its rounds grow slowly with n (§5.1.1, §6.2)", Paper: noSign, Judge: fig6Claim, Evidence: "Fig 6 table and plot"},
	// Fig. 7 on both exchange readings: every NAT fraction, 5 seeds each.
	{Expand: fig7Rows},
	// Fig. 8: per-seed utilizations of gossip and central, 100 % load.
	{Claim: "Fig 8: central ahead at 10–100 nodes (§5.2.1)", Paper: "central better (no values printed)", Judge: claims.DirectionOf(claims.HigherBetter, noTol, f8Ahead), Evidence: ahead},
	{Claim: "Fig 8: central far ahead at 10–100 nodes (§5.2.1)", Paper: "“far inferior in performance” (「大きく性能が劣っている」; no values printed)", Judge: vAhead, Evidence: ahead},
	{Claim: "Fig 8: the gossip/central ratio rises with the nodes (§5.2.1, §6.1)", Paper: "«ノード数が増えるにつれ…オーバーヘッドが無視できなくなり» (no values printed)", Judge: vRises, Evidence: "Fig 8 ratio, per seed; steps by Welch's interval (the workload changes with the nodes); " + ev8},
	{Claim: "Fig 8: gossip about equal or up to 10 % better at ≥ 1000 nodes (§5.2.1)", Paper: "ratio ≈ 1.0–1.1", Judge: vParity, Evidence: "Fig 8 ratio, per seed; " + ev8},
	// Fig. 9: the ratio by load at the fewest and the most nodes.
	{Claim: "Fig 9: few nodes ({small}): the ratio falls as the load rises (§5.2.2)", Paper: noSign, Judge: claims.TrendOver(claims.Falls, noTol, false, f9Small), Evidence: "gossip/central per seed, loads 10/50/100/200 %, steps by Welch's interval (the workload changes with the load); " + ev9},
	{Expand: fig9Many},
	// Table 1: one row per printed number, and the rise.
	{Expand: table1Rows},
	{Claim: "§7.1: more scheduling nodes raise the utilization", Paper: "0.939 → 0.970", Judge: claims.TrendOver(claims.Rises, noTol, true, t1Points), Evidence: "Table 1; steps paired by seed (the same workload at every count); {seeds}. The rise needs schedulers that each match over the whole grid from their own table: with sched_split=partition it is flat (0.914 / 0.914 / 0.914 / 0.915 at 1, 2, 4, 8; sens-table1, 3 seeds)"},
	// §7.1's conclusions, made of the Fig 8 rows.
	{Claim: "§7.1: scalability: gossip loses at small and medium sizes, matches or beats central at large ones", Paper: "ratio rises with the nodes to ≥ 1", Judge: claims.CombineOf([]string{"central far ahead at 10–100 nodes:", "ratio rises with the nodes:", "about equal or up to 10 % better at ≥ 1000 nodes:"}, vAhead, vRises, vParity), Evidence: "the Fig 8 rows above"},
	{Claim: "§7.1: at large sizes gossip's utilization is equal or slightly higher", Paper: "≈ 1.0–1.1", Judge: vParity, Evidence: "Fig 8 ratio; rule as Fig 8 (≥ 1000 nodes)"},
}

// fig6Claim shows ours beside the theory: the seed prints no value.
func fig6Claim(d *claimData) claims.Result {
	var f6 []string
	res := RumorResidue(1)
	for _, n := range fig6Nodes {
		f6 = append(f6, fmt.Sprintf("%d: final %s, rounds %s (k = ∞ theory log₂n + ln n: %.1f)", n,
			ivText(rumorSeeds(d.pl.rumor, d.rreps, false, ModePush, n, 0, finalOf), "%.3f"),
			ivText(rumorSeeds(d.pl.rumor, d.rreps, false, ModePush, n, 0, roundsOf), "%.1f"), PushRounds(n)))
	}
	return claims.Unmeasurable(fmt.Sprintf("%s (%d seeds each); theory for k = 1: final %.3f", strings.Join(f6, "; "), d.rreps, 1-res),
		fmt.Sprintf("the seed prints no value and «高い結果» fixes no threshold; theory: a push rumor whose sender stops at its first \"known\" answer leaves a residue s = e^{−2(1−s)} = %.3f uninformed (Demers et al. 1987, §1.4, mean-field model of feedback rumor mongering), i.e. about %.1f informed at any n", res, 1-res))
}

// fig7Rows are Fig 7's rows on both exchange readings.
func fig7Rows(d *claimData) []claims.Line {
	var ls []claims.Line
	for _, m := range []struct{ mode, name string }{{ModePush, "push (as Fig 6)"}, {ModePushPull, "push-pull (as the resource-record exchange, §4.5)"}} {
		var rounds, final []claims.Point
		for _, f := range fig7NAT {
			l := fmt.Sprintf("NAT %g", f)
			rounds = append(rounds, claims.Point{Label: l, Values: rumorSeeds(d.pl.rumor, d.rreps, true, m.mode, 1000, f, roundsOf)})
			final = append(final, claims.Point{Label: l, Values: rumorSeeds(d.pl.rumor, d.rreps, true, m.mode, 1000, f, finalOf)})
		}
		ev := fmt.Sprintf("Fig 7 table; %d seeds per NAT fraction, steps by Welch's interval (the grid changes with the fraction)", d.rreps)
		ls = append(ls, claims.Line{Claim: "Fig 7, " + m.name + ": rounds to converge rise with the NAT fraction (§5.1.2)", Paper: noSign,
			Result: claims.TrendOf(claims.Rises, noTol, false, rounds...), Evidence: ev},
			claims.Line{Claim: "Fig 7, " + m.name + ": the final informed fraction drops with the NAT fraction (§5.1.2)", Paper: noSign,
				Result: claims.TrendOf(claims.Falls, noTol, false, final...), Evidence: ev},
			claims.Line{Claim: "Fig 7, " + m.name + ": that drop is relatively small even at high NAT fractions (§5.1.2)", Paper: "«その低下は比較的小さく» (no values printed)",
				Result: claims.TrendOf(claims.FallsLittle, claims.Ours(smallDrop, fmt.Sprintf("«比較的小さく» read as at most %.2f below NAT 0", smallDrop)), false, final...), Evidence: ev})
	}
	return ls
}

// f8Ahead pairs central with gossip at Fig 8's counts up to 100 nodes.
func f8Ahead(d *claimData) []claims.Pair {
	var ahead []claims.Pair
	for _, n := range d.pl.f8 {
		if n <= 100 {
			ahead = append(ahead, claims.Pair{Label: fmt.Sprintf("%d nodes", n),
				A: simSeeds(d.pl.sim, d.reps, VariantCentral, n, 1, 1, utilOf), B: simSeeds(d.pl.sim, d.reps, VariantGossip, n, 1, 1, utilOf)})
		}
	}
	return ahead
}

// f8Ratios is gossip/central per seed at Fig 8's counts from the given nodes up.
func f8Ratios(from int) func(*claimData) []claims.Point {
	return func(d *claimData) []claims.Point {
		var ratios []claims.Point
		for _, n := range d.pl.f8 {
			if n >= from {
				ratios = append(ratios, claims.Point{Label: fmt.Sprintf("%d nodes", n), Values: ratioSeeds(d.pl.sim, d.reps, n, 1)})
			}
		}
		return ratios
	}
}

// f9Small is the ratio by load at Fig 9's fewest nodes.
func f9Small(d *claimData) []claims.Point {
	var byLoad []claims.Point
	for _, ld := range fig9Loads {
		byLoad = append(byLoad, claims.Point{Label: fmt.Sprintf("load %g %%", ld*100), Values: ratioSeeds(d.pl.sim, d.reps, d.pl.f9[0], ld)})
	}
	return byLoad
}

// fig9Many: gossip ahead at Fig 9's most nodes, if they are many.
func fig9Many(d *claimData) []claims.Line {
	big := d.pl.f9[len(d.pl.f9)-1]
	if big < 1000 {
		return []claims.Line{{Claim: "Fig 9: many nodes: gossip ahead (§5.2.2)", Paper: "ratio > 1", Result: claims.Missing("fig9_nodes has no count ≥ 1000"), Evidence: "Fig 9"}}
	}
	var pairs []claims.Pair
	for _, ld := range fig9Loads {
		pairs = append(pairs, claims.Pair{Label: fmt.Sprintf("load %g %%", ld*100),
			A: simSeeds(d.pl.sim, d.reps, VariantGossip, big, ld, 1, utilOf), B: simSeeds(d.pl.sim, d.reps, VariantCentral, big, ld, 1, utilOf)})
	}
	return []claims.Line{{Claim: fmt.Sprintf("Fig 9: many nodes (%d): gossip ahead (§5.2.2)", big), Paper: "ratio > 1 (no values printed)",
		Result: claims.Direction(claims.HigherBetter, noTol, pairs...), Evidence: "A = gossip, B = central utilization at every load of Fig 9; " + ev9}}
}

// t1Points is Table 1's utilization per count of scheduling nodes.
func t1Points(d *claimData) []claims.Point {
	var t1 []claims.Point
	for _, k := range table1Sched {
		t1 = append(t1, claims.Point{Label: fmt.Sprintf("%d scheduler(s)", k), Values: simSeeds(d.pl.sim, d.reps, VariantGossip, 1000, 1, k, utilOf)})
	}
	return t1
}

// table1Rows: one row per printed number of Table 1.
func table1Rows(d *claimData) []claims.Line {
	var ls []claims.Line
	for i, p := range t1Points(d) {
		p.Label = ""
		ls = append(ls, claims.Line{Claim: fmt.Sprintf("Table 1: utilization with %d scheduling node(s), 1000 nodes, 100 %% load (§5.2.3)", table1Sched[i]), Paper: fmt.Sprintf("%.3f", paperTable1[i]),
			Result: claims.Level(paperTable1[i], claims.Printed(3), p), Evidence: "Table 1; {seeds}. " + table1Causes})
	}
	return ls
}
