package gossip

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"schedlab/solvers/claims"
)

// noise is a small spread by seed, so the intervals are real ones.
var noise = []float64{0.001, -0.001, 0.002, -0.002, 0}

// fakePlan is the reproduce's plan with five seeds per setting, its runs'
// numbers made up: util for every scheduling run, rounds and final for
// every rumor run. The tasks are shuffled, so a row that paired its
// values by position instead of by seed would mix them up.
func fakePlan(t *testing.T, util func(*simTask) float64, rumor func(*rumorTask) (rounds int, final float64)) (ReproConfig, *reproTasks) {
	t.Helper()
	c := DefaultReproConfig()
	c.Reps, c.RumorReps = 5, 5
	pl, err := planRepro(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pl.sim {
		s.util = util(s)
	}
	for _, r := range pl.rumor {
		rounds, final := 10, 0.8
		if rumor != nil {
			rounds, final = rumor(r)
		}
		r.res = &RumorResult{RoundsToConverge: rounds, Final: final}
	}
	rng := rand.New(rand.NewSource(1))
	rng.Shuffle(len(pl.sim), func(i, j int) { pl.sim[i], pl.sim[j] = pl.sim[j], pl.sim[i] })
	return c, pl
}

// row is the Claims row whose claim starts with prefix: its ours and verdict.
func row(t *testing.T, c ReproConfig, pl *reproTasks, prefix string) (ours, verdict string) {
	t.Helper()
	for _, r := range reproClaims(c, pl).Rows {
		if strings.HasPrefix(r[0].(string), prefix) {
			return r[2].(string), r[3].(string)
		}
	}
	t.Fatalf("no Claims row %q", prefix)
	return "", ""
}

// seedBase differs a lot from seed to seed: only a comparison paired by
// seed sees a gap of 0.01 through it.
var seedBase = []float64{0.60, 0.95, 0.75, 0.85, 0.70}

// Fig 8's "central ahead" compares gossip and central on the same seed:
// a gap of 0.01 on every seed holds although the seeds' spread (0.6–0.95)
// would hide it from an unpaired interval; one seed the other way at one
// node count makes it partly.
func TestFig8CentralAheadIsPairedBySeed(t *testing.T) {
	util := func(flip bool) func(*simTask) float64 {
		return func(s *simTask) float64 {
			u := seedBase[s.rep] + noise[s.rep]
			if s.variant == VariantCentral {
				u += 0.01
				if flip && s.nodes == 30 && s.rep == 0 {
					u -= 0.2
				}
			}
			return u
		}
	}
	c, pl := fakePlan(t, util(false), nil)
	if ours, v := row(t, c, pl, "Fig 8: central ahead"); v != claims.Holds || !strings.Contains(ours, "10 nodes: A − B 0.01") {
		t.Errorf("paired gap of 0.01 on every seed: %q, %q", v, ours)
	}
	c, pl = fakePlan(t, util(true), nil)
	if ours, v := row(t, c, pl, "Fig 8: central ahead"); v != claims.Partly {
		t.Errorf("one seed far the other way at 30 nodes: %q, want partly (%s)", v, ours)
	}
}

// "Far ahead" is central − gossip beyond our margin of 0.03: just above it
// on every seed is partly (the margin is ours), just below does not hold.
func TestFig8FarAheadMarginIsOursAndFlips(t *testing.T) {
	for _, c := range []struct {
		gap  float64
		want string
	}{{aheadMargin + 0.005, claims.Partly}, {aheadMargin - 0.005, claims.DoesNotHold}} {
		cfg, pl := fakePlan(t, func(s *simTask) float64 {
			u := seedBase[s.rep]
			if s.variant == VariantCentral {
				u += c.gap + noise[s.rep]/2
			}
			return u
		}, nil)
		if ours, v := row(t, cfg, pl, "Fig 8: central far ahead"); v != c.want {
			t.Errorf("gap %.3f: %q, want %q (%s)", c.gap, v, c.want, ours)
		}
	}
}

// The parity band and the scalability conclusion read the per-seed ratio
// gossip/central at ≥ 1000 nodes; a run whose central did nothing (0)
// gives no ratio and counts as a failure.
func TestFig8ParityBandOnPerSeedRatios(t *testing.T) {
	ratioAt := func(large float64, zeroCentral int) func(*simTask) float64 {
		return func(s *simTask) float64 {
			if s.variant == VariantCentral {
				if s.nodes >= 1000 && s.rep < zeroCentral {
					return 0
				}
				return 0.9
			}
			r := 0.95 + noise[s.rep]
			if s.nodes >= 1000 {
				r = large + noise[s.rep]
			}
			return 0.9 * r
		}
	}
	for _, c := range []struct {
		large float64
		zero  int
		want  string
	}{
		{1.05, 0, claims.Partly},      // inside 0.99–1.10, but the band's low end is ours
		{0.95, 0, claims.DoesNotHold}, // below "about equal"
		{1.12, 0, claims.DoesNotHold}, // above "up to 10 %"
		{1.05, 3, claims.DoesNotHold}, // 2 of 5 seeds give a ratio
	} {
		cfg, pl := fakePlan(t, ratioAt(c.large, c.zero), nil)
		ours, v := row(t, cfg, pl, "Fig 8: gossip about equal")
		if v != c.want {
			t.Errorf("ratio %.2f, %d central runs at 0: %q, want %q (%s)", c.large, c.zero, v, c.want, ours)
		}
		if c.zero > 0 && !strings.Contains(ours, "2 of 5 solved") {
			t.Errorf("failures not counted: %s", ours)
		}
	}
}

// §7.1's scalability joins the Fig 8 rows: none holding gives does not
// hold; some holding (with our margins capping them) gives partly.
func TestScalabilityCombinesTheFig8Rows(t *testing.T) {
	for _, c := range []struct {
		ratio func(n int) float64
		want  string
	}{
		{func(n int) float64 { return map[bool]float64{true: 1, false: 0.9}[n <= 100] }, claims.DoesNotHold},
		{func(n int) float64 {
			return map[int]float64{300: 1, 1000: 1.05, 3000: 1.06}[n] + map[bool]float64{true: 0.95}[n <= 100]
		}, claims.Partly},
	} {
		cfg, pl := fakePlan(t, func(s *simTask) float64 {
			if s.variant == VariantCentral {
				return 0.9
			}
			return 0.9 * (c.ratio(s.nodes) + noise[s.rep])
		}, nil)
		if ours, v := row(t, cfg, pl, "§7.1: scalability"); v != c.want {
			t.Errorf("scalability: %q, want %q (%s)", v, c.want, ours)
		}
	}
}

// Table 1's levels use the paper's printed precision (±0.0005) around our
// interval over the seeds; a missing seed is a failure.
func TestTable1LevelAtPrintedPrecision(t *testing.T) {
	for _, c := range []struct {
		shift float64
		drop  int // seeds without a run
		want  string
	}{{0, 0, claims.Holds}, {0.004, 0, claims.DoesNotHold}, {0, 3, claims.DoesNotHold}} {
		cfg, pl := fakePlan(t, func(s *simTask) float64 {
			if s.variant == VariantGossip && s.nodes == 1000 && s.load == 1 && s.schedulers == 1 {
				return 0.939 + c.shift + noise[s.rep]
			}
			return 0.9
		}, nil)
		if c.drop > 0 {
			var keep []*simTask
			for _, s := range pl.sim {
				if !(s.variant == VariantGossip && s.nodes == 1000 && s.load == 1 && s.schedulers == 1 && s.rep < c.drop) {
					keep = append(keep, s)
				}
			}
			pl.sim = keep
		}
		if ours, v := row(t, cfg, pl, "Table 1: utilization with 1 "); v != c.want {
			t.Errorf("shift %.3f, %d seeds missing: %q, want %q (%s)", c.shift, c.drop, v, c.want, ours)
		}
	}
}

// Fig 9's few-node trend is judged at every load step, and the rise with
// the schedulers at every count: one step the wrong way flips them.
func TestFig9AndTable1TrendsEveryStep(t *testing.T) {
	for _, c := range []struct {
		bump float64 // added to the ratio at 50 % load and to 4 schedulers
		want string
	}{{0, claims.Holds}, {0.05, claims.DoesNotHold}} {
		cfg, pl := fakePlan(t, func(s *simTask) float64 {
			switch {
			case s.variant == VariantCentral:
				return 0.5
			case s.nodes == 10 && s.schedulers == 1:
				r := 1 - 0.02*s.load + noise[s.rep]
				if s.load == 0.5 {
					r += c.bump
				}
				return 0.5 * r
			case s.schedulers > 1 || (s.nodes == 1000 && s.load == 1):
				u := 0.9 + 0.01*float64(s.schedulers) + noise[s.rep]
				if s.schedulers == 4 {
					u -= c.bump
				}
				return u
			}
			return 0.5
		}, nil)
		if ours, v := row(t, cfg, pl, "Fig 9: few nodes"); v != c.want {
			t.Errorf("Fig 9 bump %.2f: %q, want %q (%s)", c.bump, v, c.want, ours)
		}
		if ours, v := row(t, cfg, pl, "§7.1: more scheduling nodes"); v != c.want {
			t.Errorf("Table 1 bump %.2f: %q, want %q (%s)", c.bump, v, c.want, ours)
		}
	}
}

// Fig 7: rounds rising at every NAT step hold; a final fraction that falls
// at every step falls (holds); "a little" is partly while every point
// stays within our 0.20 of NAT 0 and does not hold once every point is
// beyond it. Fig 6 is unverifiable whatever our numbers.
func TestFig7RowsAndFig6Unverifiable(t *testing.T) {
	for _, c := range []struct {
		first, step float64 // the final fraction at NAT > 0: first − step·NAT
		little      string
	}{{0.9, 0.1, claims.Partly}, {0.5, 0.1, claims.DoesNotHold}} {
		cfg, pl := fakePlan(t, func(*simTask) float64 { return 0.9 }, func(r *rumorTask) (int, float64) {
			f := 0.99
			if r.nat > 0 {
				f = c.first - c.step*r.nat
			}
			return 10 + int(r.nat*100) + r.rep%2, f + noise[r.rep]
		})
		for _, row2 := range []struct{ prefix, want string }{
			{"Fig 7, push (as Fig 6): rounds", claims.Holds},
			{"Fig 7, push (as Fig 6): the final", claims.Holds},
			{"Fig 7, push (as Fig 6): that drop", c.little},
			{"Fig 6:", claims.Unverifiable},
		} {
			if ours, v := row(t, cfg, pl, row2.prefix); v != row2.want {
				t.Errorf("final %.2f − %.2f·NAT: %s: %q, want %q (%s)", c.first, c.step, row2.prefix, v, row2.want, ours)
			}
		}
	}
}

// The theory beside Fig 6: Demers et al.'s residue solves s = e^{−(k+1)(1−s)}.
func TestRumorResidue(t *testing.T) {
	for _, c := range []struct {
		k    int
		want float64
	}{{1, 0.2032}, {2, 0.0595}} {
		s := RumorResidue(c.k)
		if math.Abs(s-c.want) > 5e-4 || math.Abs(s-math.Exp(-float64(c.k+1)*(1-s))) > 1e-9 {
			t.Errorf("k %d: residue %v, want %v", c.k, s, c.want)
		}
	}
}

// Issue 40, class 1: one run per point is no interval. The default
// reproduce runs claims.MinSeeds seeds; with one seed, Fig 9's one-run
// rise of 0.0016 at one load step is inconclusive, not "does not hold";
// with five seeds the same rise on every seed is excluded from "falls",
// and under noise of ±0.002 per seed it is not.
func TestFig9OneSeedIsNoInterval(t *testing.T) {
	if DefaultReproConfig().Reps < claims.MinSeeds {
		t.Fatalf("default reps %d < %d", DefaultReproConfig().Reps, claims.MinSeeds)
	}
	util := func(jitter float64) func(*simTask) float64 {
		return func(s *simTask) float64 {
			if s.variant == VariantCentral {
				return 0.9
			}
			// The ratio falls with the load, except a rise of 0.0016 from 50 % to 100 %.
			r := map[float64]float64{0.1: 1.05, 0.5: 1.0, 1: 1.0016, 2: 0.95}[s.load]
			return 0.9 * (r + jitter*noise[s.rep])
		}
	}
	c, pl := fakePlan(t, util(0), nil)
	if ours, v := row(t, c, pl, "Fig 9: few nodes"); v != claims.DoesNotHold {
		t.Errorf("5 seeds, the same rise on each: %q (%s)", v, ours)
	}
	c, pl = fakePlan(t, util(1), nil)
	if ours, v := row(t, c, pl, "Fig 9: few nodes"); v == claims.DoesNotHold || v == claims.Holds {
		t.Errorf("5 seeds, rise under the noise: %q (%s)", v, ours)
	}
	one := DefaultReproConfig()
	one.Reps, one.RumorReps = 1, 1
	pl1, err := planRepro(one)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pl1.sim {
		s.util = util(0)(s)
	}
	for _, r := range pl1.rumor {
		r.res = &RumorResult{RoundsToConverge: 10, Final: 0.8}
	}
	if ours, v := row(t, one, pl1, "Fig 9: few nodes"); v != claims.Inconclusive || !strings.Contains(ours, "1 value: no interval") {
		t.Errorf("one seed: %q (%s)", v, ours)
	}
}
