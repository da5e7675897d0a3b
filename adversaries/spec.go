package adversaries

import (
	"cmp"
	"context"
	"math/rand/v2"
	"time"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/adversary"
)

// Spec is a search as a user asks for it: the form's and the API's
// fields (the CLI's flags, by the same names), stored as the search's
// configuration.
type Spec struct {
	Strategy     string            `json:"strategy"`
	A            string            `json:"a"`
	B            string            `json:"b"`
	AParams      map[string]string `json:"a_params,omitempty"`
	BParams      map[string]string `json:"b_params,omitempty"`
	Metric       string            `json:"metric"`
	Score        string            `json:"score,omitempty"`  // ratio (default) or difference
	Method       string            `json:"method,omitempty"` // anneal (default) or cmaes
	Preset       string            `json:"preset,omitempty"`
	PresetParams map[string]string `json:"preset_params,omitempty"`
	// Workload, with Method anneal, is a stored workload every restart
	// starts from instead of a preset's instance.
	Workload string `json:"workload,omitempty"`
	// Budget is the candidates at most (each runs A and B); Seconds, when
	// not 0, a budget in time besides.
	Budget   int               `json:"budget"`
	Seconds  int               `json:"seconds,omitempty"`
	Seed     int64             `json:"seed"`
	StopAt   float64           `json:"stop_at,omitempty"`
	Restarts int               `json:"restarts,omitempty"`
	Vary     []adversary.Range `json:"vary,omitempty"`
	// Better is the metric's direction, set by the server when it stores
	// the search (from the family's declaration); ignored on input.
	Better report.Direction `json:"better,omitempty"`
}

// MaxSeconds bounds a search's time budget: a week.
const MaxSeconds = 7 * 24 * 3600

// Search is what Build makes of a Spec: the search's configuration and
// its family's generator and mutations.
type Search struct {
	Strategy *solvers.Strategy
	Config   adversary.Config // Better empty: not known yet (see Build)
	Family   adversary.Family
	First    *solvers.Workload // the first instance (the direction's probe runs on it)
}

// Build checks spec against its strategy and builds the search: st is
// the strategy, start the stored workload spec.Workload names (nil when
// none), run one run of a side (for the metric's direction of a family
// that declares none: see adversary.Direction). An error is errs.Invalid
// naming the field at fault. With run nil, a family that declares no
// metrics gets no direction (Config.Better empty): the caller finds it
// with adversary.Direction from a run on First. The generator and the
// mutations run here,
// under budget: the CLI and the server build a search the same way, so
// a seed gives the same candidates on both.
func Build(ctx context.Context, st *solvers.Strategy, spec Spec, start *solvers.Workload, budget solvers.Budget,
	run func(ctx context.Context, w *solvers.Workload, s adversary.Side) (*report.Report, error)) (*Search, error) {
	bad := func(field, format string, a ...any) error {
		return errs.New(errs.Invalid, field, format, a...)
	}
	name := st.Info.Name
	cfg := adversary.Config{Metric: spec.Metric, Score: spec.Score, Method: spec.Method, Budget: spec.Budget,
		Seed: spec.Seed, Target: spec.StopAt, Preset: spec.Preset, Restarts: spec.Restarts, Vary: spec.Vary}
	cfg.Method = cmp.Or(cfg.Method, adversary.Anneal)
	if spec.Seconds < 0 || spec.Seconds > MaxSeconds {
		return nil, bad("seconds", "the time budget must be 0 (none) to %d seconds, got %d", MaxSeconds, spec.Seconds)
	}
	for _, side := range []struct {
		field, variant string
		params         map[string]string
		to             *adversary.Side
	}{{"a", spec.A, spec.AParams, &cfg.A}, {"b", spec.B, spec.BParams, &cfg.B}} {
		if side.variant == "" {
			return nil, bad(side.field, "missing: choose a variant of %s", name)
		}
		v, err := st.ResolveVariant(side.variant)
		if err != nil {
			return nil, bad(side.field, "%v", err)
		}
		p, err := solvers.Resolve(st.Params, solvers.Params(side.params))
		if err != nil {
			return nil, bad(side.field+"_params", "%v", err)
		}
		*side.to = adversary.Side{Variant: v, Params: p}
	}
	var fam adversary.Family
	switch {
	case spec.Preset != "" && start != nil:
		return nil, bad("workload", "name a preset or a workload to start from, not both")
	case spec.Preset != "":
		p, err := st.FindPreset(spec.Preset, "preset")
		if err != nil {
			return nil, err
		}
		specs := p.Params
		if _, err := solvers.Resolve(specs, solvers.Params(spec.PresetParams)); err != nil {
			return nil, bad("preset_params", "%v", err)
		}
		cfg.PresetParams = solvers.Params(spec.PresetParams)
		preset := spec.Preset
		fam = adversary.Family{Specs: specs,
			Generate: func(ctx context.Context, params solvers.Params, seed int64) (*solvers.Workload, error) {
				full, err := solvers.Resolve(specs, params)
				if err != nil {
					return nil, err
				}
				return execute.Generate(ctx, st, preset, full, seed, budget)
			}}
	case start != nil:
		cfg.Start = start
	default:
		return nil, bad("preset", "name a preset (or, to anneal, a workload to start from)")
	}
	if st.Mutate != nil {
		fam.Mutate = func(ctx context.Context, w *solvers.Workload, rng *rand.Rand) (*solvers.Workload, string, error) {
			return st.Mutate(ctx, w, cfg.Preset, cfg.PresetParams, rng)
		}
	}
	if cfg.Method == adversary.Anneal && fam.Mutate == nil {
		return nil, bad("method", "%s workloads have no instance mutations: use method cmaes", name)
	}
	if cfg.Method == adversary.CMAES && spec.Preset == "" {
		return nil, bad("preset", "method cmaes varies a preset's parameters: name a preset")
	}
	first := cfg.Start
	if first == nil {
		var err error
		if first, err = fam.Generate(ctx, cfg.PresetParams, cfg.Seed); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
	}
	if cfg.Method == adversary.Anneal {
		// A family may mutate some of its instances only (cyclic: traces):
		// say so before any run.
		if _, _, err := fam.Mutate(ctx, first, rand.New(rand.NewPCG(0, 0))); err != nil {
			return nil, bad("method", "%v", err)
		}
	}
	if run == nil && st.Metrics == nil {
		// The direction is read from a run, which the caller makes later
		// (the server: through the queue, in the search's goroutine).
		probe := cfg
		probe.Better = report.Lower
		if err := adversary.Check(probe); err != nil {
			return nil, err
		}
		return &Search{Strategy: st, Config: cfg, Family: fam, First: first}, nil
	}
	var err error
	if cfg.Better, err = adversary.Direction(ctx, st, cfg.Metric, adversary.Probe(cfg, first, run)); err != nil {
		return nil, err
	}
	if err := adversary.Check(cfg); err != nil {
		return nil, err
	}
	return &Search{Strategy: st, Config: cfg, Family: fam, First: first}, nil
}

// Until is the end of spec's time budget for a search created at created
// (zero: none).
func Until(spec Spec, created time.Time) time.Time {
	if spec.Seconds == 0 {
		return time.Time{}
	}
	return created.Add(time.Duration(spec.Seconds) * time.Second)
}
