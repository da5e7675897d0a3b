package adversary

import (
	"context"
	"math"
	"math/rand/v2"
)

// chain is one restart of the annealing.
type chain struct {
	rng   *rand.Rand
	cur   candidate
	score float64
	scale float64 // the difference score's unit: |initial score|, or 1
	temp  float64
	step  int
}

func (c *chain) active(cfg Config) bool { return c.step < cfg.MaxSteps && c.temp > cfg.MinTemp }

// anneal is PISA's simulated annealing, its restarts in lockstep: every
// step's candidates (one a restart) are one batch.
func (s *searcher) anneal(ctx context.Context) error {
	cfg := s.cfg
	chains := make([]*chain, 0, cfg.Restarts)
	var batch []candidate
	for r := 0; r < cfg.Restarts && r < cfg.Budget; r++ {
		w := cfg.Start
		if w == nil {
			var err error
			if w, err = s.fam.Generate(ctx, cfg.PresetParams, cfg.Seed+int64(r)); err != nil {
				return err
			}
		}
		chains = append(chains, &chain{rng: rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(r))), temp: cfg.MaxTemp, step: 1})
		batch = append(batch, candidate{w: w, restart: r})
	}
	from := len(s.res.Evaluations)
	scores, err := s.evaluate(ctx, batch)
	if err != nil {
		return err
	}
	for i, c := range chains {
		c.cur, c.score = batch[i], scores[i]
		c.scale = math.Abs(scores[i])
		if c.scale == 0 || math.IsInf(c.scale, 0) || math.IsNaN(c.scale) {
			c.scale = 1
		}
		s.res.Evaluations[from+i].Accept = true
	}
	s.emit(from)
	for !s.found() && s.left() > 0 {
		var moving []*chain
		batch = batch[:0]
		for _, c := range chains {
			if !c.active(cfg) || len(batch) == s.left() {
				continue
			}
			w, change, err := s.fam.Mutate(ctx, c.cur.w, c.rng)
			if err != nil {
				return err
			}
			moving = append(moving, c)
			batch = append(batch, candidate{w: w, restart: c.cur.restart, step: c.step, change: change})
		}
		if len(batch) == 0 {
			break
		}
		from := len(s.res.Evaluations)
		scores, err := s.evaluate(ctx, batch)
		if err != nil {
			return err
		}
		for i, c := range moving {
			if c.rng.Float64() < s.acceptance(c, scores[i]) {
				c.cur, c.score = batch[i], scores[i]
				s.res.Evaluations[from+i].Accept = true
			}
			c.temp *= cfg.Cooling
			c.step++
		}
		s.emit(from)
	}
	return nil
}

// acceptance is the probability of moving from c's instance to a
// neighbour of score next: PISA's rule for the ratio score (the energy
// ratio r = next/current; 1 when r > 1, else exp(−r/T), as SAGA's
// simulated_annealing.py computes it), Metropolis for the difference.
func (s *searcher) acceptance(c *chain, next float64) float64 {
	if s.cfg.Score == Difference {
		d := next - c.score
		if d >= 0 || math.IsNaN(d) {
			return 1
		}
		return math.Exp(d / (c.temp * c.scale))
	}
	r := next / c.score
	if math.IsNaN(r) || r > 1 {
		return 1
	}
	return math.Exp(-r / c.temp)
}
