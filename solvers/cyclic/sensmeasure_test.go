package cyclic

import (
	"context"
	"fmt"
	"math"
	"schedlab/solvers"
	"slices"
	"strconv"
	"strings"
)

// setParam sets one preset parameter of g from its text. job_law takes
// "uniform:<nodes_max>" for the uniform law with at most that many nodes.
func setParam(g *GenConfig, param, value string) error {
	f := func() (float64, error) { return strconv.ParseFloat(value, 64) }
	var err error
	switch param {
	case "job_law":
		law, widest, ok := strings.Cut(value, ":")
		g.JobLaw = law
		if ok {
			g.NodesMax, err = strconv.Atoi(widest)
		}
	case "volume_scale":
		g.VolumeScale, err = f()
	case "nodes_max":
		g.NodesMax, err = strconv.Atoi(value)
	case "price_law":
		g.PriceLaw = value
	case "local_load":
		g.LocalLoad, err = f()
	case "interval":
		g.Interval, err = strconv.Atoi(value)
	default:
		err = fmt.Errorf("unknown parameter %q", param)
	}
	return err
}

// blocks are the means over blocks of sensBlock consecutive cycles of
// per-cycle values (NaN cycles left out; a block of NaN only is NaN).
func blocks(per []float64) Vals {
	var out Vals
	for lo := 0; lo < len(per); lo += sensBlock {
		s, n := 0.0, 0
		for _, x := range per[lo:min(lo+sensBlock, len(per))] {
			if !math.IsNaN(x) {
				s += x
				n++
			}
		}
		out = append(out, div(s, float64(n))+nanIf(n == 0))
	}
	return out
}

// fig3Run is a run of Fig 3 at k on in: fair, proctime, independent cycles
// (the reproduce's and BenchmarkLoadScan's setting).
func fig3Run(k, cycles int) SimConfig {
	return SimConfig{Variant: VariantFair, Strategy: StratProcTime, K: k, Cycles: cycles, GanttCycle: 1, Independent: true}
}

// failureRate is U, the share of cycles where some job got no plan, of
// Fig 3's run at k = 1 on g: how the seed sets its load levels (§2.3) and
// how fig3Loads were found (BenchmarkLoadScan).
func failureRate(ctx context.Context, g GenConfig, cycles int) (float64, error) {
	in, err := Generate(g)
	if err != nil {
		return 0, err
	}
	res, err := RunConfig(ctx, in, fig3Run(1, cycles), nil)
	if err != nil {
		return 0, err
	}
	return float64(res.Failures) / float64(len(res.Cycles)), nil
}

// calibrateLoad finds the owners' local load at which g's U (failureRate)
// is nearest target, by bisection on [0, 0.9] (U rises with the load);
// it returns the load and its U. This re-does at another setting what
// the scan did for fig3Loads at toporkov2014's.
func calibrateLoad(ctx context.Context, g GenConfig, target float64, cycles int) (load, u float64, err error) {
	lo, hi := 0.0, 0.9
	best, bestU := -1.0, 0.0
	try := func(l float64) (float64, error) {
		g.LocalLoad = l
		u, err := failureRate(ctx, g, cycles)
		if err == nil && (best < 0 || math.Abs(u-target) < math.Abs(bestU-target)) {
			best, bestU = l, u
		}
		return u, err
	}
	if u, err := try(lo); err != nil || u >= target {
		return best, bestU, err
	}
	for range 8 {
		mid := math.Round((lo+hi)/2*1e4) / 1e4
		u, err := try(mid)
		if err != nil {
			return 0, 0, err
		}
		if u < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return best, bestU, nil
}

// MeasureSensitivity runs the study with nCycles cycles per run.
func MeasureSensitivity(ctx context.Context, nCycles int) (*SensData, error) {
	out := &SensData{Cycles: nCycles, Block: sensBlock, Nodes: sensNodes, Unknowns: map[string][]SensValue{}}
	type job struct {
		run  *ReproRun
		save func(*Result)
	}
	var jobs []job
	// Fig 3's levels first: the high level's load calibrated to the
	// seed's U = 0.3 at each value, the low level at no local load (the
	// seed's U < 0.0002 is reached, if at all, there).
	type calib struct {
		g       GenConfig
		load, u float64
	}
	var cals []*calib
	calOf := map[string]*calib{}
	base := func(param, val string, nodes int) (GenConfig, error) {
		g := Toporkov2014()
		g.Nodes = nodes
		return g, setParam(&g, param, val)
	}
	for _, u := range sensUnknowns {
		if !slices.Contains(u.Moves, "fig3") {
			continue
		}
		for _, val := range u.Values {
			g, err := base(u.Param, val, 24)
			if err != nil {
				return nil, err
			}
			c := &calib{g: g}
			cals = append(cals, c)
			calOf[u.Param+"="+val] = c
		}
	}
	err := solvers.ForEach(ctx, len(cals), func(i int) error {
		c := cals[i]
		var err error
		c.load, c.u, err = calibrateLoad(ctx, c.g, fig3Loads[0].u, nCycles)
		return err
	}, func(int) {})
	if err != nil {
		return nil, err
	}
	run := SimConfig{Strategy: StratProcTime, K: 1, Cycles: nCycles, GanttCycle: 1, Depth: 1, Share: 0.5, Priority: PriorityQueue, Seed: 1, Independent: true}
	for _, u := range sensUnknowns {
		vals := make([]SensValue, len(u.Values))
		out.Unknowns[u.Param] = vals
		for vi, val := range u.Values {
			sv := &vals[vi]
			sv.Value = val
			for _, m := range u.Moves {
				switch m {
				case "study":
					sv.F = map[string][]Vals{}
					for _, name := range []string{"backfill", "css+shift"} {
						sv.F[name] = make([]Vals, len(sensNodes))
					}
					for ni, n := range sensNodes {
						g, err := base(u.Param, val, n)
						if err != nil {
							return nil, err
						}
						in, err := Generate(g)
						if err != nil {
							return nil, err
						}
						for _, sm := range studyMethods {
							if sm.name != "backfill" && sm.name != "css+shift" {
								continue
							}
							cfg := run
							cfg.Variant, cfg.Shift = sm.variant, sm.shift
							name, ni := sm.name, ni
							jobs = append(jobs, job{&ReproRun{Name: fmt.Sprintf("sens %s=%s %s %d", u.Param, val, name, n), In: in, Cfg: cfg}, func(r *Result) {
								sv.F[name][ni] = blocks(perJob(cycles(r), getF))
							}})
						}
					}
				case "table3":
					g, err := base(u.Param, val, 24)
					if err != nil {
						return nil, err
					}
					in, err := Generate(g)
					if err != nil {
						return nil, err
					}
					sv.Table3 = make([]Vals, 4)
					for i, v := range []string{VariantBackfill, VariantFair} {
						cfg := run
						cfg.Variant, cfg.EarlyMin = v, 0.2
						i := i
						jobs = append(jobs, job{&ReproRun{Name: fmt.Sprintf("sens %s=%s table3 %s", u.Param, val, v), In: in, Cfg: cfg}, func(r *Result) {
							t := t3Of(r)
							sv.Table3[2*i], sv.Table3[2*i+1] = blocks(t.procPlan), blocks(t.procAct)
						}})
					}
				case "fig3":
					c := calOf[u.Param+"="+val]
					sv.Fig3 = []SensFig3{{Level: "high", Load: c.load}, {Level: "low", Load: fig3Loads[2].load}}
					for li := range sv.Fig3 {
						lv := &sv.Fig3[li]
						g := c.g
						g.LocalLoad = lv.Load
						in, err := Generate(g)
						if err != nil {
							return nil, err
						}
						lv.Proc = make([]Vals, len(fig3K))
						for ki, k := range fig3K {
							ki := ki
							jobs = append(jobs, job{&ReproRun{Name: fmt.Sprintf("sens %s=%s fig3 %s k=%d", u.Param, val, lv.Level, k), In: in, Cfg: fig3Run(k, nCycles)}, func(r *Result) {
								lv.Proc[ki] = blocks(perJob(cycles(r), getProc))
								if ki == 0 {
									lv.U = float64(r.Failures) / float64(len(r.Cycles))
								}
							}})
						}
					}
				}
			}
		}
	}
	parts := &ReproExperiment{}
	for _, j := range jobs {
		parts.Runs = append(parts.Runs, j.run)
	}
	if err := RunRepro(ctx, []*ReproExperiment{parts}, solvers.NoProgress); err != nil {
		return nil, err
	}
	for _, j := range jobs {
		j.save(j.run.Res)
	}
	return out, nil
}
