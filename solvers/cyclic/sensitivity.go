package cyclic

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"schedlab/solvers"
)

// The sensitivity study over the unknowns that move Figs 3, 5–8 and
// Table 3 (job volume, job width, price law, local load, cycle length).
// MeasureSensitivity runs it (reduced: few cycles, two node counts) and
// its numbers are stored in data/sensitivity.json (regenerate with
// CYCLIC_SENS=<cycles> go test -run XXX -bench SensitivityData -benchtime 1x); the reproduce's
// Claims read them, so its verdicts come from measured numbers without
// running the study each time. The full sweeps are the seed experiments
// sensitivity-*.

// sensUnknown is one unknown: a preset parameter and its values.
type sensUnknown struct {
	Param  string
	Values []string
	// what the unknown moves: "study" (Figs 5–8), "table3", "fig3"
	Moves []string
}

var sensUnknowns = []sensUnknown{
	{"volume_scale", []string{"0.333", "1", "3"}, []string{"study", "table3", "fig3"}},
	{"nodes_max", []string{"1", "4", "24"}, []string{"study", "table3", "fig3"}},
	{"price_law", []string{PriceLinear, PriceSqrt, PriceSquare}, []string{"study", "table3"}},
	{"local_load", []string{"0", "0.06", "0.15", "0.3"}, []string{"study", "table3"}},
	{"interval", []string{"300", "600", "1200"}, []string{"study", "table3"}},
}

// sensNodes are the node counts of the reduced study: few, and the most
// of Figs 5–8 (150), where the seed's curves have crossed.
var sensNodes = []int{6, 150}

// setParam sets one preset parameter of g from its text.
func setParam(g *GenConfig, param, value string) error {
	f := func() (float64, error) { return strconv.ParseFloat(value, 64) }
	var err error
	switch param {
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

// SensValue is one value's measurements.
type SensValue struct {
	Value string `json:"value"`
	// Study: method (css, css+shift, combined, backfill) → per sensNodes
	// [start, processor time, F, finish].
	Study map[string][][4]float64 `json:"study,omitempty"`
	// FGap: per sensNodes, backfilling's F minus CSS+shift's paired by
	// cycle: [mean over cycles of the per-cycle gap, the half-width of its
	// 95 % confidence interval (1.96 standard errors over cycles)]. The
	// verdict reads the pooled means (Study); this says how sure the sign is.
	FGap [][2]float64 `json:"f_gap,omitempty"`
	// Table3: [backfill planned, backfill actual, fair planned, fair
	// actual] processor time.
	Table3 []float64 `json:"table3,omitempty"`
	// Fig3: best k at high and low load, and U at k = 1 at each.
	Fig3 []float64 `json:"fig3,omitempty"`
}

// SensData is the stored study.
type SensData struct {
	Cycles   int                    `json:"cycles"`
	Nodes    []int                  `json:"nodes"`
	Unknowns map[string][]SensValue `json:"unknowns"`
}

// MeasureSensitivity runs the reduced study with cycles per run.
func MeasureSensitivity(ctx context.Context, cycles int) (*SensData, error) {
	out := &SensData{Cycles: cycles, Nodes: sensNodes, Unknowns: map[string][]SensValue{}}
	type job struct {
		run  *ReproRun
		save func(*Result)
	}
	var jobs []job
	for _, u := range sensUnknowns {
		vals := make([]SensValue, len(u.Values))
		out.Unknowns[u.Param] = vals
		for vi, val := range u.Values {
			sv := &vals[vi]
			sv.Value = val
			gen := func(nodes int, load float64) (*Instance, error) {
				g := Toporkov2014()
				g.Nodes = nodes
				if load >= 0 {
					g.LocalLoad = load
				}
				if err := setParam(&g, u.Param, val); err != nil {
					return nil, err
				}
				if u.Param == "local_load" && load >= 0 {
					return nil, nil // Fig 3 sets its own load
				}
				return Generate(g)
			}
			base := SimConfig{Strategy: StratProcTime, K: 1, Cycles: cycles, GanttCycle: 1, Depth: 1, Share: 0.5, Priority: PriorityQueue, Seed: 1, Independent: true}
			for _, m := range u.Moves {
				switch m {
				case "study":
					sv.Study = map[string][][4]float64{}
					sv.FGap = make([][2]float64, len(sensNodes))
					cyc := map[[2]string][]CycleStats{} // (method, node index) → its cycles
					for _, sm := range studyMethods {
						sv.Study[sm.name] = make([][4]float64, len(sensNodes))
					}
					for ni, n := range sensNodes {
						in, err := gen(n, -1)
						if err != nil {
							return nil, err
						}
						for _, sm := range studyMethods {
							if sm.name == "css" {
								continue
							}
							cfg := base
							cfg.Variant, cfg.Shift = sm.variant, sm.shift
							name, ni := sm.name, ni
							jobs = append(jobs, job{&ReproRun{Name: fmt.Sprintf("sens %s=%s %s %d", u.Param, val, name, n), In: in, Cfg: cfg}, func(r *Result) {
								pt := func(a CritStats) [4]float64 {
									return [4]float64{mean(a.Start, a.Planned), mean(a.ProcTm, a.Planned), mean(a.Start+a.ProcTm, a.Planned), mean(a.Finish, a.Planned)}
								}
								sv.Study[name][ni] = pt(r.All)
								if name == "css+shift" {
									sv.Study["css"][ni] = pt(r.Unshifted)
								}
								cyc[[2]string{name, fmt.Sprint(ni)}] = r.Cycles
								if bf, sh := cyc[[2]string{"backfill", fmt.Sprint(ni)}], cyc[[2]string{"css+shift", fmt.Sprint(ni)}]; bf != nil && sh != nil {
									sv.FGap[ni] = pairedGap(bf, sh)
								}
							}})
						}
					}
				case "table3":
					in, err := gen(24, -1)
					if err != nil {
						return nil, err
					}
					sv.Table3 = make([]float64, 4)
					for i, v := range []string{VariantBackfill, VariantFair} {
						cfg := base
						cfg.Variant, cfg.EarlyMin = v, 0.2
						i := i
						jobs = append(jobs, job{&ReproRun{Name: fmt.Sprintf("sens %s=%s table3 %s", u.Param, val, v), In: in, Cfg: cfg}, func(r *Result) {
							sv.Table3[2*i] = mean(r.All.ProcTm, r.All.Planned)
							sv.Table3[2*i+1] = mean(r.Actual.ProcTime, r.All.Planned)
						}})
					}
				case "fig3":
					sv.Fig3 = make([]float64, 4)
					for li, l := range []float64{fig3Loads[0].load, fig3Loads[2].load} {
						in, err := gen(24, l)
						if err != nil {
							return nil, err
						}
						procs := make([]float64, len(fig3K))
						done := 0
						for ki, k := range fig3K {
							cfg := base
							cfg.Variant, cfg.K = VariantFair, k
							li, ki := li, ki
							jobs = append(jobs, job{&ReproRun{Name: fmt.Sprintf("sens %s=%s fig3 %g k=%d", u.Param, val, l, k), In: in, Cfg: cfg}, func(r *Result) {
								procs[ki] = mean(r.All.ProcTm, r.All.Planned)
								if ki == 0 {
									sv.Fig3[2+li] = float64(r.Failures) / float64(len(r.Cycles))
								}
								done++
								if done == len(fig3K) {
									best := 0
									for i := range procs {
										if procs[i] < procs[best] {
											best = i
										}
									}
									sv.Fig3[li] = float64(fig3K[best])
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
	for _, j := range jobs { // in order: the fig3 closures count their k
		j.save(j.run.Res)
	}
	return out, nil
}

// pairedGap is the mean over cycles of a's per-cycle mean F (start +
// processor time per planned job) minus b's, the same cycles (the same
// draws) paired, and the half-width of its 95 % confidence interval;
// cycles where either planned nothing are left out; −1 for the half-width
// with fewer than two cycles.
func pairedGap(a, b []CycleStats) [2]float64 {
	var sum, sq float64
	n := 0
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if x.Planned == 0 || y.Planned == 0 {
			continue
		}
		g := (x.Start+x.ProcTime)/float64(x.Planned) - (y.Start+y.ProcTime)/float64(y.Planned)
		sum += g
		sq += g * g
		n++
	}
	if n < 2 {
		return [2]float64{div(sum, float64(n)), -1} // no interval
	}
	m := sum / float64(n)
	v := max(0, (sq-float64(n)*m*m)/float64(n-1))
	return [2]float64{m, 1.96 * math.Sqrt(v/float64(n))}
}

//go:embed data/sensitivity.json
var sensJSON []byte

// storedSensitivity is the stored study (nil if the file is empty).
func storedSensitivity() *SensData {
	var d SensData
	if len(strings.TrimSpace(string(sensJSON))) == 0 || json.Unmarshal(sensJSON, &d) != nil {
		return nil
	}
	return &d
}

// sensitivity adds one Claims row per unknown and result it moves: does
// any value reproduce the seed's claim? The verdict: holds if some value
// does, does not hold if none does.
func (c *Claims) sensitivity(d *SensData) {
	if c == nil {
		return
	}
	if d == nil {
		c.add("sens", "Sensitivity to the unknowns", "", "no stored study", NotMeasured, evSensitivty)
		return
	}
	ev := fmt.Sprintf("data/sensitivity.json (%d cycles per run, nodes %v); seed experiments sensitivity-*", d.Cycles, d.Nodes)
	any := func(vals []SensValue, ok func(SensValue) (bool, string)) (string, string) {
		var s []string
		hit := false
		for _, v := range vals {
			o, txt := ok(v)
			hit = hit || o
			s = append(s, v.Value+": "+txt)
		}
		if hit {
			return Holds, strings.Join(s, "; ")
		}
		return DoesNotHold, strings.Join(s, "; ")
	}
	for _, u := range sensUnknowns {
		vals := d.Unknowns[u.Param]
		if len(vals) == 0 {
			continue
		}
		for _, m := range u.Moves {
			var v, txt, claim, paper string
			switch m {
			case "study":
				claim = "Sensitivity (" + u.Param + "): does some value make CSS+shift beat backfilling on F with many nodes but not with few (Fig 7's crossing; the lead with many nodes must exceed its 95 % CI)?"
				paper = "crossing"
				v, txt = any(vals, func(sv SensValue) (bool, string) {
					sh, bf := sv.Study["css+shift"], sv.Study["backfill"]
					few, many := bf[0][2]-sh[0][2], bf[len(bf)-1][2]-sh[len(sh)-1][2]
					txt := fmt.Sprintf("%+.0f/%+.0f", few, many)
					sure := true // CSS+shift's lead with many nodes is more than noise
					if len(sv.FGap) == len(bf) {
						g := sv.FGap[len(bf)-1]
						txt += fmt.Sprintf(" (per cycle %+.1f ± %.1f / %+.1f ± %.1f)", sv.FGap[0][0], sv.FGap[0][1], g[0], g[1])
						sure = g[1] >= 0 && g[0]-g[1] > 0
					}
					return verdictCross(few, many) == Holds && sure, txt
				})
				txt = "backfilling − CSS+shift F at " + fmt.Sprint(d.Nodes) + " nodes (pooled; per-cycle mean ± 95 % CI in brackets): " + txt
			case "table3":
				claim = "Sensitivity (" + u.Param + "): does some value give the fair-share lead over backfilling that grows under early completion (Table 3)?"
				paper = "26.2 % → 27.5 %"
				v, txt = any(vals, func(sv SensValue) (bool, string) {
					t := sv.Table3
					lp, la := -pct(t[2], t[0]), -pct(t[3], t[1])
					return verdictLead(lp, la) == Holds, fmt.Sprintf("%.1f → %.1f %%", lp, la)
				})
			case "fig3":
				claim = "Sensitivity (" + u.Param + "): does some value put the best k at few sub-batches under high load and many under low load (Fig 3)?"
				paper = "few / many"
				v, txt = any(vals, func(sv SensValue) (bool, string) {
					f := sv.Fig3
					return verdictBestK(int(f[0]), "few") == Holds && verdictBestK(int(f[1]), "many") == Holds,
						fmt.Sprintf("best k %g / %g (U %.2g / %.2g)", f[0], f[1], f[2], f[3])
				})
			}
			c.add("sens_"+u.Param+"_"+m, claim, paper, txt, v, ev)
		}
	}
}
