package adversary

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/optimize"

	"schedlab/errs"
	"schedlab/solvers"
)

// box is the space CMA-ES searches: one coordinate in [0, 1] a varied
// preset parameter.
type box struct {
	ranges []Range
	ints   []bool
	logs   []bool
}

// space builds the box of cfg.Vary, or the default neighbourhood of the
// preset's defaults (see the package doc), checked against the specs.
func space(cfg Config, specs []solvers.ParamSpec) (box, error) {
	bad := func(format string, a ...any) error {
		return &errs.Error{Kind: errs.Invalid, Field: "vary", Err: fmt.Errorf(format, a...)}
	}
	byName := map[string]solvers.ParamSpec{}
	for _, sp := range specs {
		byName[sp.Name] = sp
	}
	var b box
	add := func(r Range, sp solvers.ParamSpec) error {
		if sp.HasMin && r.Lo < sp.Min || sp.HasMax && r.Hi > sp.Max {
			return bad("%s: the range %g..%g leaves the parameter's limits %g..%g", r.Name, r.Lo, r.Hi, sp.Min, sp.Max)
		}
		if !(r.Lo < r.Hi) {
			return bad("%s: the range %g..%g is empty", r.Name, r.Lo, r.Hi)
		}
		b.ranges = append(b.ranges, r)
		b.ints = append(b.ints, sp.Kind == solvers.ParamInt)
		b.logs = append(b.logs, r.Lo > 0 && r.Hi/r.Lo >= 100)
		return nil
	}
	if len(cfg.Vary) > 0 {
		for _, r := range cfg.Vary {
			sp, ok := byName[r.Name]
			if !ok {
				return box{}, bad("%s is not a parameter of preset %s", r.Name, cfg.Preset)
			}
			if sp.Kind != solvers.ParamInt && sp.Kind != solvers.ParamFloat {
				return box{}, bad("%s is not numeric: CMA-ES varies numbers only", r.Name)
			}
			if _, fixed := cfg.PresetParams[r.Name]; fixed {
				return box{}, bad("%s is both fixed (preset param) and varied", r.Name)
			}
			if err := add(r, sp); err != nil {
				return box{}, err
			}
		}
		return b, nil
	}
	for _, sp := range specs {
		if sp.Kind != solvers.ParamInt && sp.Kind != solvers.ParamFloat {
			continue
		}
		if _, fixed := cfg.PresetParams[sp.Name]; fixed {
			continue
		}
		def, err := strconv.ParseFloat(sp.Default, 64)
		if err != nil || !(def > 0) {
			continue
		}
		lo, hi := def/4, def*4
		if sp.HasMin {
			lo = max(lo, sp.Min)
		}
		if sp.HasMax {
			hi = min(hi, sp.Max)
		}
		if sp.Kind == solvers.ParamInt {
			lo, hi = math.Ceil(lo), math.Floor(hi)
		}
		if lo < hi {
			if err := add(Range{Name: sp.Name, Lo: lo, Hi: hi}, sp); err != nil {
				return box{}, err
			}
		}
	}
	if len(b.ranges) == 0 {
		return box{}, bad("preset %s has no numeric parameter with a positive default to vary: name ranges with vary", cfg.Preset)
	}
	return b, nil
}

// value is coordinate u (clipped to [0, 1]) of parameter i.
func (b box) value(i int, u float64) float64 {
	u = min(1, max(0, u))
	r := b.ranges[i]
	var v float64
	if b.logs[i] {
		v = r.Lo * math.Pow(r.Hi/r.Lo, u)
	} else {
		v = r.Lo + u*(r.Hi-r.Lo)
	}
	if b.ints[i] {
		v = math.Round(v)
	}
	return min(r.Hi, max(r.Lo, v))
}

func (b box) coord(i int, v float64) float64 {
	r := b.ranges[i]
	if b.logs[i] {
		return math.Log(v/r.Lo) / math.Log(r.Hi/r.Lo)
	}
	return (v - r.Lo) / (r.Hi - r.Lo)
}

// params is the preset's params at point x, and the values as ranges.
func (b box) params(base solvers.Params, x []float64) (solvers.Params, []Range) {
	p := solvers.Params{}
	for k, v := range base {
		p[k] = v
	}
	vals := make([]Range, len(b.ranges))
	for i, r := range b.ranges {
		v := b.value(i, x[i])
		p[r.Name] = strconv.FormatFloat(v, 'f', -1, 64)
		vals[i] = Range{Name: r.Name, Lo: v, Hi: v}
	}
	return p, vals
}

// finite maps a score to the value CMA-ES minimises: −s, with the
// infinities of failures as large finite values.
func finite(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return math.Inf(1)
	case s > 1e15:
		return -1e15
	case s < -1e15:
		return 1e15
	}
	return -s
}

// cmaes drives gonum's CmaEsChol one generation at a time: a
// generation's samples are one batch.
func (s *searcher) cmaes(ctx context.Context) error {
	b, err := space(s.cfg, s.fam.Specs)
	if err != nil {
		return err
	}
	dim := len(b.ranges)
	x0 := make([]float64, dim)
	for i, r := range b.ranges {
		def := (r.Lo + r.Hi) / 2
		for _, sp := range s.fam.Specs {
			if sp.Name == r.Name {
				if v, err := strconv.ParseFloat(sp.Default, 64); err == nil && v >= r.Lo && v <= r.Hi {
					def = v
				}
			}
		}
		x0[i] = b.coord(i, def)
	}
	cma := &optimize.CmaEsChol{InitStepSize: 0.25, Src: rand.NewPCG(uint64(s.cfg.Seed), 0xc3a)}
	pop := cma.Init(dim, math.MaxInt32)
	tasks := make([]optimize.Task, pop)
	for i := range tasks {
		tasks[i] = optimize.Task{Location: &optimize.Location{X: make([]float64, dim)}}
	}
	copy(tasks[0].X, x0)
	ops, results := make(chan optimize.Task), make(chan optimize.Task)
	go cma.Run(ops, results, tasks)
	stop := func() {
		results <- optimize.Task{Op: optimize.PostIteration}
		close(results)
		for range ops {
		}
	}
	for {
		gen := make([]optimize.Task, 0, pop)
		for len(gen) < pop {
			t := <-ops
			if t.Op != optimize.FuncEvaluation {
				stop()
				return fmt.Errorf("adversary: CMA-ES sent %v while sampling", t.Op)
			}
			t.Location = &optimize.Location{X: slices.Clone(t.X)}
			gen = append(gen, t)
		}
		n := min(pop, s.left())
		batch := make([]candidate, n)
		for i := range batch {
			p, vals := b.params(s.cfg.PresetParams, gen[i].X)
			w, err := s.fam.Generate(ctx, p, s.cfg.Seed)
			if errs.Is(err, errs.Invalid) {
				// A point the preset refuses (job_min_s over job_max_s):
				// no instance, the worst score.
				batch[i] = candidate{params: vals, refused: err}
				continue
			}
			if err != nil {
				stop()
				return err
			}
			batch[i] = candidate{w: w, params: vals}
		}
		from := len(s.res.Evaluations)
		scores, err := s.evaluate(ctx, batch)
		if err != nil {
			stop()
			return err
		}
		s.emit(from)
		if n < pop || s.found() || s.left() == 0 {
			stop()
			return nil
		}
		for i := range gen {
			gen[i].F = finite(scores[i])
			results <- gen[i]
		}
		t := <-ops
		if t.Op != optimize.MajorIteration {
			// MethodDone: the distribution collapsed.
			stop()
			return nil
		}
		results <- t
	}
}
