package cyclic

import (
	"cmp"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"

	"schedlab/errs"
)

// GenConfig draws a resource domain and, per cycle, the owners' local load
// and a batch of new jobs. It is stored in the workload's JSON
// ("generator"), so a run draws cycles 2, 3, … from the same law and seed.
// Every field is a documented knob; Toporkov2014 gives the preset's values.
type GenConfig struct {
	Seed      int64   `json:"seed"`
	Nodes     int     `json:"nodes"`      // nodes in the domain (generation only)
	PerfMin   float64 `json:"perf_min"`   // performance ~ U[perf_min, perf_max]
	PerfMax   float64 `json:"perf_max"`   //
	Interval  int     `json:"interval"`   // T, time units
	Jobs      int     `json:"jobs"`       // new jobs per cycle
	LocalLoad float64 `json:"local_load"` // expected share of each node's interval taken by local jobs, [0, 0.95]
	LocalMin  int     `json:"local_min"`  // local job length ~ U{local_min..local_max} time units
	LocalMax  int     `json:"local_max"`  //
	// UnitPrice is the market price of one unit of performance per time
	// unit: a node of performance p costs UnitPrice·p·(1+ε) per time unit,
	// ε ~ N(0, PriceSigma) clipped to ±PriceClip (the owner's discount/markup).
	UnitPrice  float64 `json:"unit_price"`
	PriceSigma float64 `json:"price_sigma"`
	PriceClip  float64 `json:"price_clip"`
	NodesMin   int     `json:"nodes_min"`  // a job's nodes ~ U{nodes_min..nodes_max}
	NodesMax   int     `json:"nodes_max"`  //
	VolumeMin  float64 `json:"volume_min"` // a job's volume ~ U[volume_min, volume_max] work units
	VolumeMax  float64 `json:"volume_max"` //
	// A job's minimum performance ~ U[min_perf_min, min_perf_max].
	MinPerfMin float64 `json:"min_perf_min"`
	MinPerfMax float64 `json:"min_perf_max"`
	// A job's max_price = f·nodes·volume·UnitPrice, f ~ U[budget_min,
	// budget_max]: the market cost of its work times f (f = 1.6: market
	// + 60 %, the seed's richest users; f < 1: the poorest need discounts).
	BudgetMin float64 `json:"budget_min"`
	BudgetMax float64 `json:"budget_max"`
	// JobLaw is how a job's width and volume are drawn (JobLaws): kth, a
	// record of the KTH SP2 log at most nodes_max wide; uniform, nodes ~
	// U{nodes_min..nodes_max} and volume ~ U[volume_min, volume_max].
	// Empty (a workload stored before the field): uniform.
	JobLaw string `json:"job_law,omitempty"`
	// VolumeScale multiplies every drawn volume (0: 1).
	VolumeScale float64 `json:"volume_scale,omitempty"`
	// PriceLaw is a node's price from its performance (PriceLaws; empty:
	// linear).
	PriceLaw string `json:"price_law,omitempty"`
}

// Toporkov2014 is the seed's setting with our choices for what it leaves
// open. Each field's comment quotes the seed (§ and the Russian original,
// then our translation) or names the source of our choice: the price law
// c = p(1 + ε), the kth job law from the KTH SP2 log with a 1080 s unit,
// budgets, minimum performance, and the local load set to meet the seed's
// failure rates. Every cycle draws from its own stream (cycleRNG).
func Toporkov2014() GenConfig {
	return GenConfig{
		Seed: 1,
		// §2.1: «Количество узлов в ресурсном домене равно 24» — "the
		// resource domain has 24 nodes". Figs 5–8 vary it: 6, 10, 20, 30,
		// 50, 75, 100, 150 (the axis of Fig. 6, «Узлы»).
		Nodes: 24,
		// §2.1: «Производительность узлов является случайной равномерно
		// распределенной величиной р е [2, 10]» — "node performance is a
		// random variable uniform on [2, 10]".
		PerfMin: 2,
		PerfMax: 10,
		// §2.1: «Типовой размер цикла планирования принят равным 600
		// единицам времени» — "the typical planning cycle is 600 time
		// units"; §2.4: «на интервале планирования Т = 600».
		Interval: 600,
		// §2.1: «Количество заданий на каждом цикле планирования равно 20»
		// — "each planning cycle has 20 jobs".
		Jobs: 20,
		// Unknown: the seed sets its load levels only by the failure rate
		// U (§2.3: «высоком (У = 0.3), среднем (У = 0.03) и низком уровнях
		// загрузки (У < 0.0002)») and never gives the owners' local load.
		// Ours: an alternating renewal process of local jobs of 20–100
		// time units; its busy share is set by the seed's U: 0.06 gives
		// the seed's medium load (U ≈ 0.03 with fair, k = 1, proctime,
		// independent cycles; BenchmarkLoadScan), the level of Fig. 4 («при
		// среднем уровне загрузки», §3.1) and our default elsewhere.
		LocalLoad: 0.06,
		LocalMin:  20,
		LocalMax:  100,
		// §2.1: «Удельная стоимость ресурса назначается на этапе
		// ценообразования в зависимости от производительности и случайной
		// величины «скидка/наценка», подчиняющейся нормальному
		// распределению» — "the unit price of a resource is set from its
		// performance and a normally distributed discount/markup". The law
		// and its scale are unknown. Ours: price = UnitPrice × p × (1 + ε)
		// (linear: one price per unit of work, so that no node is a
		// bargain on average; price_law sqrt and square are the
		// sensitivity's alternatives), UnitPrice = 1: prices are in the
		// simulator's relative units («в относительных единицах
		// симулятора», §2.1), and 1 cost unit per unit of work is the
		// unit, not a fitted value (Table 2 sweeps a price relative to
		// its node's market price, so it does not depend on it).
		// ε ~ N(0, 0.15) clipped to ±0.5: ours (unknown).
		UnitPrice:  1,
		PriceSigma: 0.15,
		PriceClip:  0.5,
		PriceLaw:   PriceLinear,
		// Job width and volume: unknown in the seed. Ours: the KTH SP2
		// log of the Parallel Workloads Archive (27,992 jobs, 1996–97; a
		// real parallel workload, see data/SOURCES.md), each job a
		// record's requested processors and requested time drawn with the
		// log's frequencies, records wider than the seed's 24-node domain
		// left out (7 % of the log). Time: the log's longest request (60 h)
		// is one interval T on the slowest node (p = 2), so that every job
		// fits an empty interval on any node (the seed's low load has
		// U < 0.0002, §2.3) and a unit is 1080 s, the rule the package
		// uses to cut a trace into cycles; volume = that time × 2. Mean
		// width 4.7 nodes, mean time 12.5 units on the average node p = 6.
		JobLaw:      JobLawKTH,
		NodesMin:    1,   // uniform law only
		NodesMax:    24,  // the widest job: the seed's domain
		VolumeMin:   100, // uniform law only: the package's first choice, U[100, 400]
		VolumeMax:   400,
		VolumeScale: 1,
		// Unknown: a job's minimum performance. Ours: U[2, 6], up to the
		// average node.
		MinPerfMin: 2,
		MinPerfMax: 6,
		// §2.1: «Максимальная стоимость, которую пользователь готов
		// заплатить за выполнение задания, задается таким образом, чтобы
		// «богатейшие» пользователи могли позволить себе использование
		// «дорогих» ресурсов (рыночная стоимость + наценка в 60%), а
		// «беднейшие» были вынуждены рассчитывать на скидки» — "the most a
		// user will pay for a job is set so that the richest can afford
		// dear resources (market cost + 60 %) and the poorest must count
		// on discounts": budget = f × the job's market cost, f up to 1.6.
		// The poorest's f is unknown; ours 0.9.
		BudgetMin: 0.9,
		BudgetMax: 1.6,
	}
}

// Validate checks the generator's knobs.
func (g *GenConfig) Validate() error {
	type check struct {
		ok    bool
		field string
		msg   string
	}
	for _, c := range []check{
		{g.Jobs >= 0 && g.Jobs <= MaxJobs, "generator.jobs", fmt.Sprintf("must be 0..%d", MaxJobs)},
		{g.Interval >= 1 && g.Interval <= MaxInterval, "generator.interval", fmt.Sprintf("must be 1..%d", MaxInterval)},
		{finite(g.LocalLoad) && g.LocalLoad >= 0 && g.LocalLoad <= 0.95, "generator.local_load", "must be in [0, 0.95]"},
		{g.LocalMin >= 1 && g.LocalMax >= g.LocalMin, "generator.local_min", "must be ≥ 1 and ≤ local_max"},
		{finite(g.UnitPrice) && g.UnitPrice >= 0 && g.UnitPrice <= maxPerfPrice, "generator.unit_price", "must be ≥ 0"},
		{finite(g.PriceSigma) && g.PriceSigma >= 0 && g.PriceSigma <= 10, "generator.price_sigma", "must be in [0, 10]"},
		{finite(g.PriceClip) && g.PriceClip >= 0 && g.PriceClip < 1, "generator.price_clip", "must be in [0, 1)"},
		{g.NodesMin >= 1 && g.NodesMax >= g.NodesMin && g.NodesMax <= MaxNodes, "generator.nodes_min", "must be ≥ 1 and ≤ nodes_max"},
		{finite(g.VolumeMin) && finite(g.VolumeMax) && g.VolumeMin > 0 && g.VolumeMax >= g.VolumeMin && g.VolumeMax <= 1e9, "generator.volume_min", "must be > 0 and ≤ volume_max"},
		{finite(g.MinPerfMin) && finite(g.MinPerfMax) && g.MinPerfMin >= 0 && g.MinPerfMax >= g.MinPerfMin && g.MinPerfMax <= maxPerfPrice, "generator.min_perf_min", "must be ≥ 0 and ≤ min_perf_max"},
		{finite(g.BudgetMin) && finite(g.BudgetMax) && g.BudgetMin >= 0 && g.BudgetMax >= g.BudgetMin && g.BudgetMax <= 1000, "generator.budget_min", "must be ≥ 0 and ≤ budget_max"},
		{g.JobLaw == "" || slices.Contains(JobLaws(), g.JobLaw), "generator.job_law", "must be one of " + strings.Join(JobLaws(), ", ")},
		{finite(g.VolumeScale) && g.VolumeScale >= 0 && g.VolumeScale <= 1000, "generator.volume_scale", "must be in [0, 1000] (0: 1)"},
		{g.PriceLaw == "" || slices.Contains(PriceLaws(), g.PriceLaw), "generator.price_law", "must be one of " + strings.Join(PriceLaws(), ", ")},
	} {
		if !c.ok {
			return errs.Invalidf(c.field, "%s", c.msg)
		}
	}
	return nil
}

// cycleRNG is the random source of cycle c (1-based): independent streams
// per cycle, so cycle c's draw never depends on how many were drawn before.
func cycleRNG(seed int64, c int) *rand.Rand {
	return rand.New(rand.NewSource(cycleSeed(seed, c)))
}

func cycleSeed(seed int64, c int) int64 { return seed*1_000_003 + int64(c)*7_919 + 17 }

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Generate draws an instance: nodes from the seed, then cycle 1's local
// load and jobs from cycleRNG(seed, 1). The config is kept as the instance's
// generator.
func Generate(g GenConfig) (*Instance, error) {
	if g.Nodes < 1 || g.Nodes > MaxNodes {
		return nil, errs.Invalidf("nodes", "must be 1..%d, got %d", MaxNodes, g.Nodes)
	}
	if !(g.PerfMin > 0 && g.PerfMax >= g.PerfMin) {
		return nil, errs.Invalidf("perf_min", "must be > 0 and ≤ perf_max, got %v and %v", g.PerfMin, g.PerfMax)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(g.Seed))
	in := &Instance{Interval: g.Interval}
	for i := range g.Nodes {
		p := round2(g.PerfMin + rng.Float64()*(g.PerfMax-g.PerfMin))
		eps := max(-g.PriceClip, min(g.PriceClip, rng.NormFloat64()*g.PriceSigma))
		in.Nodes = append(in.Nodes, Node{ID: fmt.Sprintf("n%d", i+1), Perf: max(p, 0.01), Price: round2(g.basePrice(p) * (1 + eps))})
	}
	cr := cycleRNG(g.Seed, 1)
	for i := range in.Nodes {
		in.Nodes[i].Busy = g.LocalJobs(cr)
	}
	in.Jobs = g.NewJobs(cr, 1, in.Nodes)
	gc := g
	in.Generator = &gc
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// LocalJobs draws one node's local jobs on [0, Interval): alternating idle
// gaps ~ Exp(mean L̄(1−ρ)/ρ) and jobs of length ~ U{LocalMin..LocalMax}
// (mean L̄), so the expected busy share is ρ = LocalLoad (less the part cut
// at T).
func (g *GenConfig) LocalJobs(rng *rand.Rand) []Interval { return g.appendLocalJobs(nil, rng) }

func (g *GenConfig) appendLocalJobs(out []Interval, rng *rand.Rand) []Interval {
	if g.LocalLoad <= 0 {
		return out
	}
	mean := float64(g.LocalMin+g.LocalMax) / 2
	gap := mean * (1 - g.LocalLoad) / g.LocalLoad
	// Start in a random phase of the renewal process: busy at 0 with
	// probability ρ.
	t := 0
	if rng.Float64() >= g.LocalLoad {
		t = int(math.Round(rng.ExpFloat64() * gap))
	}
	for t < g.Interval {
		l := g.LocalMin + rng.Intn(g.LocalMax-g.LocalMin+1)
		end := min(t+l, g.Interval)
		out = append(out, Interval{t, end})
		t = end + max(1, int(math.Round(rng.ExpFloat64()*gap)))
	}
	return out
}

// NewJobs draws cycle c's new jobs (IDs "j1".. in cycle 1, "c<c>-j<i>"
// later). A job's max price is at least the cost of its m cheapest eligible
// nodes (rounded up to a cent), so every job fits the empty domain and
// failures measure the load, as the seed's U does.
func (g *GenConfig) NewJobs(rng *rand.Rand, c int, nodes []Node) []Job {
	out := make([]Job, 0, g.Jobs)
	var costs []float64 // cheapestM's scratch
	scale := cmp.Or(g.VolumeScale, 1)
	for i := range g.Jobs {
		var m int
		var v float64
		if g.JobLaw == JobLawKTH {
			m, v = kthJob(rng, g.NodesMax, g.Interval, g.PerfMin)
		} else {
			m = g.NodesMin + rng.Intn(g.NodesMax-g.NodesMin+1)
			v = g.VolumeMin + rng.Float64()*(g.VolumeMax-g.VolumeMin)
		}
		m = min(m, len(nodes))
		v = round2(v * scale)
		mp := round2(g.MinPerfMin + rng.Float64()*(g.MinPerfMax-g.MinPerfMin))
		f := g.BudgetMin + rng.Float64()*(g.BudgetMax-g.BudgetMin)
		crit := criteria[rng.Intn(len(criteria))]
		id := fmt.Sprintf("j%d", i+1)
		if c > 1 {
			id = fmt.Sprintf("c%d-j%d", c, i+1)
		}
		v = max(v, 0.01)
		budget := round2(f * float64(m) * v * g.UnitPrice)
		if floor, ok := cheapestM(nodes, m, v, mp, &costs); ok {
			budget = max(budget, math.Ceil(floor*100)/100)
		} else {
			mp = 0 // too few nodes this fast: relax the minimum
			if floor, ok := cheapestM(nodes, m, v, mp, &costs); ok {
				budget = max(budget, math.Ceil(floor*100)/100)
			}
		}
		out = append(out, Job{ID: id, Nodes: m, Volume: v, MinPerf: mp, MaxPrice: budget, Criterion: crit})
	}
	return out
}

// cheapestM is the cost of the m cheapest nodes of performance ≥ minPerf
// for a job of the given volume, false if fewer than m qualify; buf is
// scratch space.
func cheapestM(nodes []Node, m int, volume, minPerf float64, buf *[]float64) (float64, bool) {
	if m <= 0 {
		return 0, true
	}
	low := (*buf)[:0] // the m lowest costs so far, ascending
	n := 0
	for _, nd := range nodes {
		if nd.Perf < minPerf {
			continue
		}
		n++
		c := nd.Price * float64(NodeTime(volume, nd.Perf))
		if len(low) == m {
			if c >= low[m-1] {
				continue
			}
			low = low[:m-1]
		}
		i := len(low)
		for i > 0 && low[i-1] > c {
			i--
		}
		low = slices.Insert(low, i, c)
	}
	*buf = low
	if n < m {
		return 0, false
	}
	s := 0.0
	for _, c := range low {
		s += c
	}
	return s, true
}
