package cyclic

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"schedlab/solvers/claims"
)

// The sensitivity study over the unknowns that move Figs 3, 5–8 and
// Table 3 (job law, job volume, job width, price law, local load, cycle
// length). MeasureSensitivity (sensmeasure_test.go) runs it (reduced: fewer cycles than the
// reproduce's seed) and its numbers are stored in data/sensitivity.json
// (regenerate with CYCLIC_SENS=<cycles> go test ./solvers/cyclic -run XXX
// -bench SensitivityData -benchtime 1x); the reproduce's Claims read them,
// so its verdicts come from measured numbers without running the study
// each time. The full sweeps are the seed experiments sensitivity-*.

// sensUnknown is one unknown: a preset parameter and its values.
type sensUnknown struct {
	Param  string
	Values []string
	// what the unknown moves: "study" (Figs 5–8), "table3", "fig3"
	Moves []string
}

// sensDefault is each unknown's value in toporkov2014: the rows of the
// default setting are shown once.
var sensDefault = map[string]string{"job_law": JobLawKTH, "volume_scale": "1", "nodes_max": "24", "price_law": PriceLinear, "local_load": "0.06", "interval": "600"}

var sensUnknowns = []sensUnknown{
	// uniform with small jobs: nodes ~ U{1..2} or U{1..3}, volume ~
	// U[100, 400] (joblaw.go), nearer the seed's Table 1 levels than KTH.
	{"job_law", []string{JobLawKTH, JobLawUniform + ":2", JobLawUniform + ":3"}, []string{"study", "table3", "fig3"}},
	{"volume_scale", []string{"0.333", "1", "3"}, []string{"study", "table3", "fig3"}},
	{"nodes_max", []string{"1", "4", "24"}, []string{"study", "table3", "fig3"}},
	{"price_law", []string{PriceLinear, PriceSqrt, PriceSquare}, []string{"study", "table3"}},
	{"local_load", []string{"0", "0.06", "0.15", "0.3"}, []string{"study", "table3"}},
	{"interval", []string{"300", "600", "1200"}, []string{"study", "table3"}},
}

// sensNodes are the node counts of the study: every node count of Figs
// 5–8, so the crossing is judged at every point.
var sensNodes = studyNodes

// sensBlock is how many consecutive cycles make one stored value: the
// study stores the means of blocks of independent cycles (the rules'
// instances), not every cycle, to keep the file small; independent cycles
// make the block means independent too.
const sensBlock = 10

// Vals are per-block values; NaN (a block where nothing was planned) is
// stored as null.
type Vals []float64

// MarshalJSON writes 4 decimals, NaN as null.
func (v Vals) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(x) {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendFloat(b, math.Round(x*1e4)/1e4, 'f', -1, 64)
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads null as NaN.
func (v *Vals) UnmarshalJSON(b []byte) error {
	var xs []*float64
	if err := json.Unmarshal(b, &xs); err != nil {
		return err
	}
	*v = make(Vals, len(xs))
	for i, x := range xs {
		(*v)[i] = math.NaN()
		if x != nil {
			(*v)[i] = *x
		}
	}
	return nil
}

// SensFig3 is one load level of Fig 3 under a value: the local load
// calibrated to the seed's U (calibrateLoad), the U measured at k = 1, and
// per fig3K the processor time per job, per block.
type SensFig3 struct {
	Level string  `json:"level"`
	Load  float64 `json:"local_load"`
	U     float64 `json:"u"`
	Proc  []Vals  `json:"proc"`
}

// SensValue is one value's measurements, per block of sensBlock cycles.
type SensValue struct {
	Value string `json:"value"`
	// F: backfill and css+shift → per sensNodes, F = start + processor
	// time per planned job, per block (the same draws for both methods:
	// paired by block).
	F map[string][]Vals `json:"f,omitempty"`
	// Table3: backfill planned, backfill actual, fair planned, fair actual
	// processor time per planned job under early completion, per block.
	Table3 []Vals `json:"table3,omitempty"`
	// Fig3: the high and the low load level.
	Fig3 []SensFig3 `json:"fig3,omitempty"`
}

// SensData is the stored study.
type SensData struct {
	Cycles   int                    `json:"cycles"`
	Block    int                    `json:"block"`
	Nodes    []int                  `json:"nodes"`
	Unknowns map[string][]SensValue `json:"unknowns"`
}

func nanIf(b bool) float64 {
	if b {
		return math.NaN()
	}
	return 0
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

// sensitivity adds the Claims rows of the stored study: for the default
// setting (toporkov2014) once and for every other value of every unknown,
// the conclusions it moves (sensMoves) judged by the rules of the
// reproduce's own rows, on the study's blocks of cycles.
func (c *Claims) sensitivity(d *SensData) {
	if c == nil {
		return
	}
	if d == nil {
		c.add("sens", "Sensitivity to the unknowns", "", claims.Missing("no stored study"), evSensitivty)
		return
	}
	base := fmt.Sprintf("the stored study (solvers/cyclic/data/sensitivity.json): %d independent cycles per run (the seed: 5000), judged on means of blocks of %d cycles (%d blocks), methods and k paired by block; nodes %v",
		d.Cycles, d.Block, (d.Cycles+d.Block-1)/max(d.Block, 1), d.Nodes)
	defaultDone := map[string]bool{}
	for _, u := range sensUnknowns {
		for _, sv := range d.Unknowns[u.Param] {
			name := u.Param + " = " + sv.Value
			if sv.Value == sensDefault[u.Param] {
				name = "default setting (toporkov2014)"
			}
			for _, m := range u.Moves {
				if sv.Value == sensDefault[u.Param] {
					if defaultDone[m] {
						continue
					}
					defaultDone[m] = true
				}
				if mv, ok := sensMoves[m]; ok {
					if r, ok := mv.judge(d, sv); ok {
						c.add("sens_"+u.Param+"_"+sv.Value+"_"+m, "Sensitivity, "+name+": "+mv.claim, mv.paper, r, base+"; re-run it: "+sensSeedLink(u.Param, m))
					}
				}
			}
		}
	}
}

// sensMoves are the sensitivity rows, one per conclusion an unknown
// moves: its claim, what the paper printed and its judge on one value's
// stored blocks (false where the study holds no data for it).
var sensMoves = map[string]struct {
	claim, paper string
	judge        func(*SensData, SensValue) (claims.Result, bool)
}{
	"study": {"Fig 7's crossing (backfilling (A) ahead of CSS+shift (B) on F with few nodes, CSS+shift with many; every node count)", "cross", func(d *SensData, sv SensValue) (claims.Result, bool) {
		var ps []claims.Pair
		for i, n := range d.Nodes {
			if i < len(sv.F["backfill"]) && i < len(sv.F["css+shift"]) {
				ps = append(ps, pair(fmt.Sprint(n), sv.F["backfill"][i], sv.F["css+shift"][i]))
			}
		}
		return claims.Crossing(claims.LowerBetter, ps...), true
	}},
	"table3": {"Table 3's fair-share T_proc lead over backfilling, kept and growing under early completion", "26.2 % → 27.5 %", func(_ *SensData, sv SensValue) (claims.Result, bool) {
		if len(sv.Table3) != 4 {
			return claims.Result{}, false
		}
		return leadKept(t3Cycles{procPlan: sv.Table3[0], procAct: sv.Table3[1]}, t3Cycles{procPlan: sv.Table3[2], procAct: sv.Table3[3]}, ""), true
	}},
	"fig3": {"Fig 3's best k: the fewest sub-batches at high load, the most at low load (the local load re-calibrated to the seed's U at this value)", "few / many", func(_ *SensData, sv SensValue) (claims.Result, bool) {
		if len(sv.Fig3) != 2 {
			return claims.Result{}, false
		}
		hi, lo := sv.Fig3[0], sv.Fig3[1]
		r := parts([]string{"high load: k = 1 best", "low load: k = 20 best"}, bestK(hi.Proc, 0), bestK(lo.Proc, len(fig3K)-1))
		r.Ours = fmt.Sprintf("high: local load %g (U at k = 1: %.3g; the seed's 0.3), low: local load %g (U %.3g; the seed's < 0.0002) · %s", hi.Load, hi.U, lo.Load, lo.U, r.Ours)
		return r, true
	}},
}

// sensSeedLink is the address of the seed experiment that re-runs a
// sensitivity row (move m of unknown param): the sweep form pre-filled,
// which the page draws as a link.
func sensSeedLink(param, move string) string {
	name := map[string]string{"job_law": "sensitivity-joblaw", "volume_scale": "sensitivity-volume", "nodes_max": "sensitivity-width",
		"price_law": "sensitivity-price", "local_load": "sensitivity-load", "interval": "sensitivity-interval"}[param]
	switch move {
	case "table3":
		name = "sensitivity-table3"
	case "fig3":
		name = "sensitivity-fig3"
	}
	return "/experiments/new?seed=cyclic/" + name
}
