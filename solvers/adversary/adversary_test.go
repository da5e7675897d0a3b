package adversary

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// toy is a family whose instance is two numbers (x, y) in [0.1, 1]: A's
// makespan is x, B's is y, so the ratio score is x/y, at most 10.
type toy struct{ X, Y float64 }

func toyWorkload(t toy) *solvers.Workload {
	b, _ := json.Marshal(t)
	return &solvers.Workload{Name: "toy", Format: "json", Data: b}
}

func toyOf(w *solvers.Workload) toy {
	var t toy
	_ = json.Unmarshal(w.Data, &t)
	return t
}

func toyFamily() Family {
	return Family{
		Specs: []solvers.ParamSpec{solvers.FloatSpec("x", "0.5", "", "", 0.1, 1), solvers.FloatSpec("y", "0.5", "", "", 0.1, 1),
			solvers.IntSpec("n", "4", "", "", 1, 100)},
		Generate: func(_ context.Context, p solvers.Params, seed int64) (*solvers.Workload, error) {
			x, y := 0.5, 0.5
			if v, ok := p["x"]; ok {
				x, _ = strconv.ParseFloat(v, 64)
			} else {
				x = 0.1 + 0.9*float64(seed%10)/10
			}
			if v, ok := p["y"]; ok {
				y, _ = strconv.ParseFloat(v, 64)
			}
			return toyWorkload(toy{x, y}), nil
		},
		Mutate: func(_ context.Context, w *solvers.Workload, rng *rand.Rand) (*solvers.Workload, string, error) {
			t := toyOf(w)
			d := (2*rng.Float64() - 1) * 0.1
			if rng.IntN(2) == 0 {
				t.X = min(1, max(0.1, t.X+d))
				return toyWorkload(t), "x", nil
			}
			t.Y = min(1, max(0.1, t.Y+d))
			return toyWorkload(t), "y", nil
		},
	}
}

// toyEval evaluates a batch; it counts the instances it ran and fails A
// where failA says so.
type toyEval struct {
	mu      sync.Mutex
	ran     int
	reverse bool // evaluate the batch back to front, as a parallel pool might
	failA   func(toy) bool
}

func (e *toyEval) eval(_ context.Context, batch []*solvers.Workload) ([]Outcome, error) {
	e.mu.Lock()
	e.ran += len(batch)
	e.mu.Unlock()
	out := make([]Outcome, len(batch))
	idx := make([]int, len(batch))
	for i := range idx {
		idx[i] = i
	}
	if e.reverse {
		slices.Reverse(idx)
	}
	for _, i := range idx {
		t := toyOf(batch[i])
		out[i] = Outcome{A: SideResult{Value: t.X, OK: true}, B: SideResult{Value: t.Y, OK: true}}
		if e.failA != nil && e.failA(t) {
			out[i].A = SideResult{Reason: "stopped"}
		}
	}
	return out, nil
}

func toyConfig() Config {
	return Config{A: Side{Variant: "a"}, B: Side{Variant: "b"}, Metric: "makespan", Better: report.Lower,
		Budget: 300, Seed: 7, Restarts: 3, PresetParams: solvers.Params{"y": "0.5"}}
}

func TestScoreFollowsTheMetricsDirectionAndCountsFailures(t *testing.T) {
	ok := func(v float64) SideResult { return SideResult{Value: v, OK: true} }
	fail := SideResult{Reason: "no schedule"}
	lower := Config{Better: report.Lower}
	higher := Config{Better: report.Higher}
	diff := Config{Better: report.Lower, Score: Difference}
	for _, c := range []struct {
		name string
		cfg  Config
		o    Outcome
		want float64
	}{
		{"lower: A twice B's makespan", lower, Outcome{ok(20), ok(10)}, 2},
		{"higher: A half B's profit", higher, Outcome{ok(5), ok(10)}, 2},
		{"higher: A better", higher, Outcome{ok(10), ok(5)}, 0.5},
		{"A fails, B does not", lower, Outcome{fail, ok(10)}, math.Inf(1)},
		{"B fails, A does not", lower, Outcome{ok(10), fail}, 0},
		{"both fail", lower, Outcome{fail, fail}, 1},
		{"ratio undefined at B = 0", lower, Outcome{ok(3), ok(0)}, 1},
		{"difference", diff, Outcome{ok(3), ok(-2)}, 5},
		{"difference: B fails", diff, Outcome{ok(3), fail}, math.Inf(-1)},
		{"difference: both fail", diff, Outcome{fail, fail}, 0},
	} {
		if got, _ := Score(c.cfg, c.o); got != c.want {
			t.Errorf("%s: score %g, want %g", c.name, got, c.want)
		}
	}
	if _, note := Score(lower, Outcome{ok(3), ok(0)}); note == "" {
		t.Error("an undefined ratio says nothing")
	}
}

func TestPISAAcceptanceRule(t *testing.T) {
	s := &searcher{cfg: Config{Score: Ratio}}
	c := &chain{score: 2, temp: 0.5, scale: 1}
	for _, x := range []struct{ next, want float64 }{
		{3, 1},                      // better: always
		{2, math.Exp(-1 / 0.5)},     // r = 1: exp(−1/T)
		{1, math.Exp(-0.5 / 0.5)},   // r = 0.5
		{0.2, math.Exp(-0.1 / 0.5)}, // r = 0.1: a much worse neighbour, as SAGA computes it
		{math.Inf(1), 1},            // A failed: better than anything
	} {
		if got := s.acceptance(c, x.next); math.Abs(got-x.want) > 1e-12 {
			t.Errorf("ratio: next %g: p = %g, want %g", x.next, got, x.want)
		}
	}
	s.cfg.Score = Difference
	c = &chain{score: 2, temp: 0.5, scale: 4}
	if got, want := s.acceptance(c, 1), math.Exp(-1/(0.5*4)); math.Abs(got-want) > 1e-12 {
		t.Errorf("difference: p = %g, want %g", got, want)
	}
	if s.acceptance(c, 2.5) != 1 {
		t.Error("difference: a better neighbour is not always accepted")
	}
}

func TestAnnealFollowsPISAsScheduleAndBudget(t *testing.T) {
	// 10 · 0.99^k > 0.1 for k ≤ 458: 459 moves after each initial
	// instance, 460 candidates a restart.
	cfg := toyConfig()
	cfg.Restarts, cfg.Budget = 2, 100_000
	e := &toyEval{}
	res, err := Search(context.Background(), cfg, toyFamily(), e.eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Evaluations); got != 2*460 {
		t.Fatalf("%d candidates, want 920 (two restarts of 460)", got)
	}
	perRestart := map[int]int{}
	for _, ev := range res.Evaluations {
		perRestart[ev.Restart]++
	}
	if perRestart[0] != 460 || perRestart[1] != 460 {
		t.Errorf("candidates by restart %v, want 460 each", perRestart)
	}
	cfg.Budget = 333
	res, err = Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evaluations) != 333 {
		t.Errorf("budget 333: %d candidates", len(res.Evaluations))
	}
}

func TestAnnealFindsTheSeparatingCorner(t *testing.T) {
	cfg := toyConfig()
	cfg.Budget = 1500
	res, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := res.Evaluations[0].Score
	best := res.Evaluations[res.Best]
	// The maximum is x = 1, y = 0.1 (10); the start is y = 0.5.
	if best.Score < 5 || best.Score <= first {
		t.Errorf("best score %g (first %g): the search did not climb towards 10", best.Score, first)
	}
	if got := toyOf(res.BestWorkload); math.Abs(got.X/got.Y-best.Score) > 1e-12 {
		t.Errorf("best workload %v does not score %g", got, best.Score)
	}
	for i, ev := range res.Evaluations {
		if i > 0 && ev.Best < res.Evaluations[i-1].Best {
			t.Fatalf("candidate %d: best fell from %g to %g", i, res.Evaluations[i-1].Best, ev.Best)
		}
	}
}

func TestSearchIsDeterministicWhateverTheEvaluationOrder(t *testing.T) {
	for _, method := range []string{Anneal, CMAES} {
		cfg := toyConfig()
		cfg.Method = method
		if method == CMAES {
			cfg.PresetParams = nil
		}
		a, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{reverse: true}).eval, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Evaluations) != len(b.Evaluations) || a.Best != b.Best {
			t.Fatalf("%s: %d vs %d candidates, best %d vs %d", method, len(a.Evaluations), len(b.Evaluations), a.Best, b.Best)
		}
		for i := range a.Evaluations {
			if a.Evaluations[i].Key != b.Evaluations[i].Key || a.Evaluations[i].Score != b.Evaluations[i].Score {
				t.Fatalf("%s: candidate %d differs", method, i)
			}
		}
		cfg.Seed++
		c, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Evaluations[1].Key == a.Evaluations[1].Key {
			t.Errorf("%s: another seed draws the same second candidate", method)
		}
	}
}

func TestAResumedSearchRunsNothingTwiceAndEndsAlike(t *testing.T) {
	for _, method := range []string{Anneal, CMAES} {
		cfg := toyConfig()
		cfg.Method = method
		if method == CMAES {
			cfg.PresetParams = nil
		}
		whole, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		// A crash after 120 candidates: what was stored is known.
		cut := cfg
		cut.Budget = 120
		known := map[string]Outcome{}
		if _, err := Search(context.Background(), cut, toyFamily(), (&toyEval{}).eval, nil, func(e Evaluation) {
			known[e.Key] = e.Outcome
		}); err != nil {
			t.Fatal(err)
		}
		e := &toyEval{}
		resumed, err := Search(context.Background(), cfg, toyFamily(), e.eval, known, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e.ran != whole.Ran-len(known) {
			t.Errorf("%s: the resumed search ran %d instances; the whole ran %d of which %d were known", method, e.ran, whole.Ran, len(known))
		}
		if resumed.Best != whole.Best || len(resumed.Evaluations) != len(whole.Evaluations) {
			t.Errorf("%s: resumed best %d of %d, whole %d of %d", method, resumed.Best, len(resumed.Evaluations), whole.Best, len(whole.Evaluations))
		}
		for i := range whole.Evaluations {
			if i < 120 && !resumed.Evaluations[i].Replay && !whole.Evaluations[i].Replay {
				t.Fatalf("%s: candidate %d was run again after the resume", method, i)
			}
		}
	}
}

func TestAFailureOfAIsTheMostSeparatingInstance(t *testing.T) {
	cfg := toyConfig()
	cfg.Budget = 5000
	e := &toyEval{failA: func(t toy) bool { return t.X > 0.9 }}
	res, err := Search(context.Background(), cfg, toyFamily(), e.eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := res.Evaluations[res.Best]
	if !math.IsInf(best.Score, 1) || best.Outcome.A.OK {
		t.Fatalf("best %+v: want A's failure, scored +Inf", best)
	}
	if res.Best != len(res.Evaluations)-1-lastBatchAfter(res, res.Best) {
		t.Errorf("the search went on after A failed (best at %d of %d)", res.Best, len(res.Evaluations))
	}
}

// lastBatchAfter counts the candidates of best's batch evaluated after it.
func lastBatchAfter(res *Result, best int) int {
	n := 0
	for _, e := range res.Evaluations[best+1:] {
		if e.Step != res.Evaluations[best].Step {
			return -1
		}
		n++
	}
	return n
}

func TestCMAESVariesThePresetsParametersWithinTheirRanges(t *testing.T) {
	cfg := toyConfig()
	cfg.Method, cfg.PresetParams = CMAES, nil
	cfg.Vary = []Range{{Name: "x", Lo: 0.2, Hi: 1}, {Name: "y", Lo: 0.1, Hi: 0.9}, {Name: "n", Lo: 1, Hi: 50}}
	res, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Evaluations {
		for _, p := range e.Params {
			r := cfg.Vary[slices.IndexFunc(cfg.Vary, func(r Range) bool { return r.Name == p.Name })]
			if p.Lo < r.Lo || p.Lo > r.Hi {
				t.Fatalf("%s = %g outside %g..%g", p.Name, p.Lo, r.Lo, r.Hi)
			}
			if p.Name == "n" && p.Lo != math.Round(p.Lo) {
				t.Fatalf("integer n = %g", p.Lo)
			}
		}
	}
	if best := res.Evaluations[res.Best].Score; best < 8 {
		t.Errorf("CMA-ES best %g: the corner x = 1, y = 0.1 scores 10", best)
	}
	for _, bad := range [][]Range{{{Name: "nope", Lo: 0, Hi: 1}}, {{Name: "x", Lo: 0, Hi: 1}}, {{Name: "x", Lo: 0.5, Hi: 0.5}}} {
		c := cfg
		c.Vary = bad
		if _, err := Search(context.Background(), c, toyFamily(), (&toyEval{}).eval, nil, nil); err == nil {
			t.Errorf("vary %v accepted", bad)
		}
	}
}

func TestConfigRefusesWhatCannotBeSearched(t *testing.T) {
	for name, mod := range map[string]func(*Config){
		"same sides":   func(c *Config) { c.B = c.A },
		"no direction": func(c *Config) { c.Better = "" },
		"no budget":    func(c *Config) { c.Budget = -1 },
		"bad method":   func(c *Config) { c.Method = "hill" },
		"bad cooling":  func(c *Config) { c.Cooling = 1.5 },
		"temps":        func(c *Config) { c.MinTemp = 20 },
	} {
		cfg := toyConfig()
		mod(&cfg)
		if _, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	fam := toyFamily()
	fam.Mutate = nil
	if _, err := Search(context.Background(), toyConfig(), fam, (&toyEval{}).eval, nil, nil); err == nil {
		t.Error("annealing without mutations accepted")
	}
}

func TestATargetEndsTheSearchOnceReached(t *testing.T) {
	cfg := toyConfig()
	cfg.Budget, cfg.Target = 5000, 1.5
	res, err := Search(context.Background(), cfg, toyFamily(), (&toyEval{}).eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := res.Evaluations[res.Best]
	if best.Score < 1.5 {
		t.Fatalf("best %g under the target", best.Score)
	}
	first := slices.IndexFunc(res.Evaluations, func(e Evaluation) bool { return e.Score >= 1.5 })
	for _, e := range res.Evaluations[first:] {
		if e.Step != res.Evaluations[first].Step {
			t.Fatalf("candidate %d (step %d) evaluated after the target was reached at step %d", e.Index, e.Step, res.Evaluations[first].Step)
		}
	}
}

func TestReportShowsTheSearchAndBothSchedulesOfTheBest(t *testing.T) {
	cfg := toyConfig()
	cfg.Budget = 200
	gantt := func(v float64) *report.Report {
		return &report.Report{Gantts: []report.Gantt{{Title: "Schedule", Lanes: []string{"p0"}, Bars: []report.Bar{{Lane: 0, Start: 0, End: v}}}}}
	}
	eval := func(ctx context.Context, batch []*solvers.Workload) ([]Outcome, error) {
		outs, err := (&toyEval{}).eval(ctx, batch)
		for i := range outs {
			outs[i].A.Report, outs[i].B.Report = gantt(outs[i].A.Value), gantt(outs[i].B.Value)
		}
		return outs, err
	}
	res, err := Search(context.Background(), cfg, toyFamily(), eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := Report(cfg, res)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(r.Gantts) != 2 || r.Gantts[0].Title != "A (a): Schedule" || r.Gantts[1].Bars[0].End != res.BestOutcome.B.Value {
		t.Fatalf("gantts %+v", r.Gantts)
	}
	if m, _ := r.Metric("best_ratio"); m.Value != res.Evaluations[res.Best].Score {
		t.Errorf("best_ratio %g, want %g", m.Value, res.Evaluations[res.Best].Score)
	}
	if pts := r.Series[0].Lines[0].Points; len(pts) != 200 || pts[199][1] != res.Evaluations[res.Best].Score {
		t.Errorf("best-so-far line has %d points ending at %v", len(pts), pts[len(pts)-1])
	}
	path := r.Tables[0]
	if last := path.Rows[len(path.Rows)-1]; last[0] != res.Best+1 {
		t.Errorf("the path ends at candidate %v, the best is %d", last[0], res.Best+1)
	}
	if path.Rows[0][2] != "initial instance" {
		t.Errorf("the path starts at %v", path.Rows[0])
	}
}

func TestCMAESScoresAPointThePresetRefusesAsTheWorstAndGoesOn(t *testing.T) {
	cfg := toyConfig()
	cfg.Method, cfg.PresetParams = CMAES, nil
	cfg.Vary = []Range{{Name: "x", Lo: 0.1, Hi: 1}, {Name: "y", Lo: 0.1, Hi: 1}}
	fam := toyFamily()
	gen := fam.Generate
	fam.Generate = func(ctx context.Context, p solvers.Params, seed int64) (*solvers.Workload, error) {
		if x, _ := strconv.ParseFloat(p["x"], 64); x > 0.8 {
			return nil, errs.Invalidf("x", "over 0.8")
		}
		return gen(ctx, p, seed)
	}
	res, err := Search(context.Background(), cfg, fam, (&toyEval{}).eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, e := range res.Evaluations {
		if !math.IsNaN(e.Score) {
			continue
		}
		refused++
		if e.Note == "" || e.Params[0].Lo <= 0.8 {
			t.Fatalf("refused candidate %+v", e)
		}
	}
	if refused == 0 || len(res.Evaluations) != cfg.Budget {
		t.Fatalf("%d refused of %d candidates (budget %d)", refused, len(res.Evaluations), cfg.Budget)
	}
	if x := toyOf(res.BestWorkload).X; x > 0.8 {
		t.Errorf("the best instance has x = %g, which the preset refuses", x)
	}
	if err := Report(cfg, res).Validate(); err != nil {
		t.Error(err)
	}
	// A short search: refused candidates among the ten best listed.
	cfg.Budget = 12
	res, err = Search(context.Background(), cfg, fam, (&toyEval{}).eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Report(cfg, res).Validate(); err != nil {
		t.Error(err)
	}
}

func TestReportNamesOnlyTheParametersThatTellAAndBApart(t *testing.T) {
	a, b := paramDiff(solvers.Params{"policy": "easy", "procs": "100"}, solvers.Params{"policy": "conservative", "procs": "100"})
	if a != " (policy=easy)" || b != " (policy=conservative)" {
		t.Errorf("got %q and %q", a, b)
	}
	if a, b := paramDiff(solvers.Params{"x": "1"}, solvers.Params{"x": "1"}); a != "" || b != "" {
		t.Errorf("shared parameters named: %q, %q", a, b)
	}
}
