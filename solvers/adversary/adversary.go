package adversary

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// Methods.
const (
	Anneal = "anneal" // simulated annealing over instances (PISA)
	CMAES  = "cmaes"  // CMA-ES over generator parameters
)

// Scores.
const (
	Ratio      = "ratio"
	Difference = "difference"
)

// Side is one of the two strategies compared: a variant and its params.
type Side struct {
	Variant string         `json:"variant"`
	Params  solvers.Params `json:"params,omitempty"`
}

// Range is the interval a CMA-ES search varies one preset parameter in.
type Range struct {
	Name string  `json:"name"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Config is one search.
type Config struct {
	A, B   Side
	Metric string // the metric compared (a result metric of the family)
	// Better is the metric's declared direction (report.Higher or
	// report.Lower), from the family's metric declaration.
	Better report.Direction
	Score  string // Ratio (default) or Difference
	Method string // Anneal (default) or CMAES
	Budget int    // candidates at most (evaluations of A and B on one instance)
	Seed   int64
	// Target, when not 0, ends the search once a score reaches it ("an
	// instance where A is 4× worse than B").
	Target float64
	// Until, when not zero, is a budget in time: no batch of candidates
	// begins after it. A search it ends depends on the machine's speed,
	// not on its seed alone.
	Until time.Time

	// The preset the initial instances (Anneal) or every instance (CMAES)
	// come from, with its parameters.
	Preset       string
	PresetParams solvers.Params
	// Start, when set, is the instance every restart of Anneal starts
	// from (an uploaded trace or graph) instead of the preset's.
	Start *solvers.Workload

	// Anneal's schedule (PISA's names; zero: PISA's experiment values).
	Restarts int
	MaxTemp  float64
	MinTemp  float64
	Cooling  float64
	MaxSteps int

	// Vary lists the preset parameters CMA-ES varies (empty: the default
	// neighbourhood, see the package doc).
	Vary []Range
}

// PISA's experiment values (scripts/experiments/pisa/run.py).
const (
	DefaultRestarts = 10
	DefaultMaxTemp  = 10.0
	DefaultMinTemp  = 0.1
	DefaultCooling  = 0.99
	DefaultMaxSteps = 1000
)

func (c Config) withDefaults() Config {
	c.Score = cmp.Or(c.Score, Ratio)
	c.Method = cmp.Or(c.Method, Anneal)
	c.Restarts = cmp.Or(c.Restarts, DefaultRestarts)
	c.MaxTemp = cmp.Or(c.MaxTemp, DefaultMaxTemp)
	c.MinTemp = cmp.Or(c.MinTemp, DefaultMinTemp)
	c.Cooling = cmp.Or(c.Cooling, DefaultCooling)
	c.MaxSteps = cmp.Or(c.MaxSteps, DefaultMaxSteps)
	return c
}

// MaxBudget bounds a search's candidates.
const MaxBudget = 1_000_000

func (c Config) check() error {
	bad := func(field, format string, a ...any) error {
		return &errs.Error{Kind: errs.Invalid, Field: field, Err: fmt.Errorf(format, a...)}
	}
	switch {
	case c.Metric == "":
		return bad("metric", "name the metric to compare")
	case c.Better != report.Higher && c.Better != report.Lower:
		return bad("metric", "metric %s is not ranked (no better direction): a search needs one", c.Metric)
	case c.Score != Ratio && c.Score != Difference:
		return bad("score", "score must be %s or %s, got %q", Ratio, Difference, c.Score)
	case c.Method != Anneal && c.Method != CMAES:
		return bad("method", "method must be %s or %s, got %q", Anneal, CMAES, c.Method)
	case c.Budget < 1 || c.Budget > MaxBudget:
		return bad("budget", "budget must be 1 to %d evaluations, got %d", MaxBudget, c.Budget)
	case c.A.Variant == c.B.Variant && fmt.Sprint(c.A.Params) == fmt.Sprint(c.B.Params):
		return bad("b", "A and B are the same strategy (%s): nothing can separate them", c.A.Variant)
	case c.Restarts < 1 || c.Restarts > 1000:
		return bad("restarts", "restarts must be 1 to 1000, got %d", c.Restarts)
	case !(c.MaxTemp > c.MinTemp) || !(c.MinTemp > 0):
		return bad("max_temp", "temperatures must satisfy max_temp > min_temp > 0, got %g and %g", c.MaxTemp, c.MinTemp)
	case !(c.Cooling > 0 && c.Cooling < 1):
		return bad("cooling", "cooling must lie in (0, 1), got %g", c.Cooling)
	case c.MaxSteps < 1:
		return bad("max_steps", "max_steps must be at least 1, got %d", c.MaxSteps)
	}
	return nil
}

// SideResult is one side's run on one instance.
type SideResult struct {
	Value float64 `json:"value"`
	OK    bool    `json:"ok"`
	// Reason says why a run gave no value (its error, or the metric it
	// lacks).
	Reason string `json:"reason,omitempty"`
	// Report is the run's report; the search keeps only the best's.
	Report *report.Report `json:"-"`
}

// Outcome is A and B on one instance.
type Outcome struct {
	A SideResult `json:"a"`
	B SideResult `json:"b"`
}

// Evaluator runs A and B on each workload of a batch and returns their
// outcomes, in order. A run that fails is an Outcome with OK false, not
// an error; an error stops the search (a cancel, a lost store).
type Evaluator func(ctx context.Context, batch []*solvers.Workload) ([]Outcome, error)

// Mutate returns a neighbour of w, by one of the family's mutations,
// and names the change made ("edge t3→t7 added").
type Mutate func(ctx context.Context, w *solvers.Workload, rng *rand.Rand) (*solvers.Workload, string, error)

// Generate builds the instance of a preset with params and seed.
type Generate func(ctx context.Context, params solvers.Params, seed int64) (*solvers.Workload, error)

// Family is what a search needs of the family: its preset's generator
// and parameters, and (for Anneal) its mutations.
type Family struct {
	Generate Generate
	Specs    []solvers.ParamSpec // the preset's parameters
	Mutate   Mutate              // nil: the family has none, Anneal is refused
}

// Evaluation is one candidate of a search, in order.
type Evaluation struct {
	Index   int     `json:"index"`              // 0, 1, ... in the search's order
	Restart int     `json:"restart"`            // Anneal's restart; CMA-ES: 0
	Step    int     `json:"step"`               // its step within the restart (0: initial)
	Key     string  `json:"key"`                // sha256 of the instance's data
	Change  string  `json:"change,omitempty"`   // the mutation that made it
	Score   float64 `json:"score"`              // s(A, B); ±Inf as in the package doc
	Outcome Outcome `json:"outcome"`            // A's and B's values
	Replay  bool    `json:"replay,omitempty"`   // served from Known or an earlier candidate
	Note    string  `json:"note,omitempty"`     // why a score is undefined
	Best    float64 `json:"best"`               // the best score so far, this one included
	Params  []Range `json:"params,omitempty"`   // CMA-ES: the parameters (Lo = Hi = value)
	Accept  bool    `json:"accepted,omitempty"` // Anneal: the move was accepted
}

// Result is a search's end.
type Result struct {
	Evaluations []Evaluation
	// Best is the index of the best evaluation (the earliest of equal
	// scores); BestWorkload its instance, BestOutcome its runs (with the
	// reports, unless both were replayed from Known).
	Best         int
	BestWorkload *solvers.Workload
	BestOutcome  Outcome
	Ran          int // candidates actually run (not replayed)
}

// Key is the evaluation key of an instance: the sha256 of its data.
func Key(w *solvers.Workload) string {
	h := sha256.Sum256(w.Data)
	return hex.EncodeToString(h[:])
}

// Score is s(A, B) of an outcome under cfg's score and direction, with a
// note when the ratio is undefined.
func Score(cfg Config, o Outcome) (float64, string) {
	cfg = cfg.withDefaults()
	ratio := cfg.Score == Ratio
	switch {
	case !o.A.OK && !o.B.OK:
		return neutral(ratio), "both failed"
	case !o.A.OK:
		return math.Inf(1), "A failed: " + o.A.Reason
	case !o.B.OK:
		if ratio {
			return 0, "B failed: " + o.B.Reason
		}
		return math.Inf(-1), "B failed: " + o.B.Reason
	}
	worse, better := o.A.Value, o.B.Value // lower is better: A/B
	if cfg.Better == report.Higher {
		worse, better = o.B.Value, o.A.Value
	}
	if !ratio {
		return worse - better, ""
	}
	if !(better > 0) || worse < 0 {
		return 1, fmt.Sprintf("ratio undefined (%g over %g): use the difference score", worse, better)
	}
	return worse / better, ""
}

func neutral(ratio bool) float64 {
	if ratio {
		return 1
	}
	return 0
}

// Search runs one search. Known maps evaluation keys to the outcomes a
// stored search already has (nil: none); observe, when not nil, is told
// each evaluation as it is made, in order.
func Search(ctx context.Context, cfg Config, fam Family, eval Evaluator, known map[string]Outcome, observe func(Evaluation)) (*Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if fam.Generate == nil && (cfg.Method == CMAES || cfg.Start == nil) {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "preset", Err: errors.New("name a preset (or, to anneal, a workload to start from)")}
	}
	s := &searcher{cfg: cfg, fam: fam, eval: eval, known: map[string]Outcome{}, observe: observe,
		res: &Result{Best: -1}}
	maps.Copy(s.known, known)
	var err error
	switch cfg.Method {
	case Anneal:
		if fam.Mutate == nil {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "method", Err: errors.New("this family has no instance mutations: use method cmaes")}
		}
		err = s.anneal(ctx)
	case CMAES:
		err = s.cmaes(ctx)
	}
	if err != nil {
		return nil, err
	}
	if s.res.Best < 0 {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "budget", Err: errors.New("the search evaluated nothing")}
	}
	return s.res, nil
}

// searcher is one search's state.
type searcher struct {
	cfg     Config
	fam     Family
	eval    Evaluator
	known   map[string]Outcome
	observe func(Evaluation)
	res     *Result
}

// candidate is one instance to evaluate, with where it comes from.
type candidate struct {
	w       *solvers.Workload
	restart int
	step    int
	change  string
	params  []Range
	refused error // the preset refused these parameters: no instance
}

func (s *searcher) left() int { return s.cfg.Budget - len(s.res.Evaluations) }

// evaluate scores a batch (at most left() candidates), running only the
// instances not known yet, and records each evaluation in order.
func (s *searcher) evaluate(ctx context.Context, batch []candidate) ([]float64, error) {
	var run []*solvers.Workload
	var runKeys []string
	keys := make([]string, len(batch))
	pending := map[string]bool{}
	for i, c := range batch {
		if c.refused != nil {
			continue
		}
		keys[i] = Key(c.w)
		if _, ok := s.known[keys[i]]; ok || pending[keys[i]] {
			continue
		}
		pending[keys[i]] = true
		run = append(run, c.w)
		runKeys = append(runKeys, keys[i])
	}
	fresh := map[string]Outcome{}
	if len(run) > 0 {
		outs, err := s.eval(ctx, run)
		if err != nil {
			return nil, err
		}
		if len(outs) != len(run) {
			return nil, fmt.Errorf("adversary: the evaluator returned %d outcomes for %d instances", len(outs), len(run))
		}
		for i, o := range outs {
			fresh[runKeys[i]] = o
		}
		s.res.Ran += len(run)
	}
	scores := make([]float64, len(batch))
	for i, c := range batch {
		if c.refused != nil {
			// Not an instance: scored NaN, which never wins.
			scores[i] = math.NaN()
			s.res.Evaluations = append(s.res.Evaluations, Evaluation{Index: len(s.res.Evaluations), Score: math.NaN(),
				Note: "the preset refused these parameters: " + c.refused.Error(), Params: c.params,
				Best: s.bestScore()})
			continue
		}
		o, replay := s.known[keys[i]]
		if !replay {
			o = fresh[keys[i]]
			delete(fresh, keys[i]) // a key twice in one batch: the second is a replay
			s.known[keys[i]] = stripReports(o)
		}
		sc, note := Score(s.cfg, o)
		scores[i] = sc
		s.res.Evaluations = append(s.res.Evaluations, Evaluation{Index: len(s.res.Evaluations), Restart: c.restart,
			Step: c.step, Key: keys[i], Change: c.change, Score: sc, Outcome: stripReports(o), Replay: replay,
			Note: note, Params: c.params})
		e := &s.res.Evaluations[len(s.res.Evaluations)-1]
		if s.res.Best < 0 || better(sc, s.res.Evaluations[s.res.Best].Score) {
			s.res.Best = e.Index
			s.res.BestWorkload = c.w
			s.res.BestOutcome = o
		}
		e.Best = s.res.Evaluations[s.res.Best].Score
	}
	return scores, nil
}

// bestScore is the best score so far (NaN before any).
func (s *searcher) bestScore() float64 {
	if s.res.Best < 0 {
		return math.NaN()
	}
	return s.res.Evaluations[s.res.Best].Score
}

func (s *searcher) emit(from int) {
	if s.observe == nil {
		return
	}
	for _, e := range s.res.Evaluations[from:] {
		s.observe(e)
	}
}

// found reports whether the search is over: the best score can no
// longer be beaten (A failed where B did not) or reached the target, or
// the time budget is spent.
func (s *searcher) found() bool {
	if s.res.Best < 0 {
		return false
	}
	b := s.res.Evaluations[s.res.Best].Score
	return math.IsInf(b, 1) || (s.cfg.Target != 0 && b >= s.cfg.Target) || (!s.cfg.Until.IsZero() && time.Now().After(s.cfg.Until))
}

// better orders scores: a larger one separates more; NaN never wins.
func better(a, b float64) bool { return a > b || (math.IsNaN(b) && !math.IsNaN(a)) }

func stripReports(o Outcome) Outcome {
	o.A.Report, o.B.Report = nil, nil
	return o
}

// Check checks cfg as Search would (its zero fields taking the
// defaults), before any instance is made: an error names the field.
func Check(cfg Config) error { return cfg.withDefaults().check() }

// SideOf is one side's result from its run: rep's value of metric, or
// why there is none (err, the run's failure; a report without the
// metric, or with a NaN, is no result). The CLI's runs and the server's
// are read alike.
func SideOf(rep *report.Report, err error, metric string) SideResult {
	if err != nil {
		return SideResult{Reason: err.Error()}
	}
	m, ok := rep.Metric(metric)
	if !ok || math.IsNaN(m.Value) {
		return SideResult{Reason: "no " + metric + " in the report", Report: rep}
	}
	return SideResult{Value: m.Value, OK: true, Report: rep}
}
