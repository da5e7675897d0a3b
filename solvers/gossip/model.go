package gossip

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"sort"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

// Limits of a workload (a public contract of the native JSON).
const (
	MaxNodes = 100000
	MaxJobs  = 2000000
)

// Grid is the generator of the network: its JSON is the workload's grid.
type Grid struct {
	Nodes       int        `json:"nodes"`
	Sites       int        `json:"sites"`
	NATFraction float64    `json:"nat_fraction"`
	Seed        int64      `json:"seed"`
	IntraMS     float64    `json:"intra_ms"`  // LAN hop inside a site, ms
	AccessMS    [2]float64 `json:"access_ms"` // per-node access latency range, ms
	InterMS     [2]float64 `json:"inter_ms"`  // site-to-site latency range, ms
}

// DefaultGrid is umeda2006's network: GridG-like, latencies up to ≈ 200 ms.
func DefaultGrid(nodes, sites int, nat float64, seed int64) Grid {
	return Grid{Nodes: nodes, Sites: sites, NATFraction: nat, Seed: seed,
		IntraMS:  0.5,                // one switched LAN hop
		AccessMS: [2]float64{0.2, 2}, // host to site router
		InterMS:  [2]float64{5, 195}, // WAN: neighbours to opposite corners, max ≈ 200 ms
	}
}

// Job is one single-node job: submit time and run time, s.
type Job struct {
	Submit float64 `json:"submit"`
	Run    float64 `json:"run"`
}

// Trace describes where an SWF-driven job stream came from.
type Trace struct {
	Name     string  `json:"name"`
	Computer string  `json:"computer,omitempty"`
	Procs    int     `json:"procs"`
	Jobs     int     `json:"jobs"`
	Skipped  int     `json:"skipped"`
	Load     float64 `json:"load"`  // the trace's offered load on its own machine
	Scale    float64 `json:"scale"` // the factor applied to submit times
}

// Instance is a workload: grid, job stream and horizon.
type Instance struct {
	Grid      Grid    `json:"grid"`
	DurationS float64 `json:"duration_s"`
	Load      float64 `json:"load,omitempty"`
	Jobs      []Job   `json:"jobs"`
	Trace     *Trace  `json:"trace,omitempty"`
}

// Validate checks an instance; fields are named as in the JSON.
func (in *Instance) Validate() error {
	g := in.Grid
	switch {
	case g.Nodes < 1:
		return errs.Invalidf("grid.nodes", "must be at least 1, got %d", g.Nodes)
	case g.Nodes > MaxNodes:
		return errs.New(errs.TooLarge, "grid.nodes", "at most %d nodes, got %d", MaxNodes, g.Nodes)
	case g.Sites < 1 || g.Sites > g.Nodes:
		return errs.Invalidf("grid.sites", "must be 1..nodes (%d), got %d", g.Nodes, g.Sites)
	case !(g.NATFraction >= 0 && g.NATFraction < 1):
		return errs.Invalidf("grid.nat_fraction", "must be in [0, 1), got %v", g.NATFraction)
	case !(g.IntraMS >= 0 && g.IntraMS <= 10000):
		return errs.Invalidf("grid.intra_ms", "must be in [0, 10000], got %v", g.IntraMS)
	case !(g.AccessMS[0] >= 0 && g.AccessMS[1] >= g.AccessMS[0] && g.AccessMS[1] <= 10000):
		return errs.Invalidf("grid.access_ms", "must be [lo, hi] with 0 ≤ lo ≤ hi ≤ 10000, got %v", g.AccessMS)
	case !(g.InterMS[0] >= 0 && g.InterMS[1] >= g.InterMS[0] && g.InterMS[1] <= 10000):
		return errs.Invalidf("grid.inter_ms", "must be [lo, hi] with 0 ≤ lo ≤ hi ≤ 10000, got %v", g.InterMS)
	case !(in.DurationS > 0 && in.DurationS <= 1e9):
		return errs.Invalidf("duration_s", "must be in (0, 1e9], got %v", in.DurationS)
	case !(in.Load >= 0 && in.Load <= 1e6):
		return errs.Invalidf("load", "must be a non-negative number, got %v", in.Load)
	case len(in.Jobs) > MaxJobs:
		return errs.New(errs.TooLarge, "jobs", "at most %d jobs, got %d", MaxJobs, len(in.Jobs))
	}
	if int(math.Round(g.NATFraction*float64(g.Nodes))) >= g.Nodes {
		return errs.Invalidf("grid.nat_fraction", "leaves no node that accepts connections (%v of %d nodes)", g.NATFraction, g.Nodes)
	}
	for i, j := range in.Jobs {
		if !(j.Submit >= 0 && j.Submit <= 1e12) {
			return errs.Invalidf(fmt.Sprintf("jobs[%d].submit", i), "must be a time ≥ 0 s, got %v", j.Submit)
		}
		if !(j.Run > 0 && j.Run <= 1e9) {
			return errs.Invalidf(fmt.Sprintf("jobs[%d].run", i), "must be a run time > 0 s, got %v", j.Run)
		}
	}
	return nil
}

// ParseJSON reads the native JSON strictly with formats.DecodeStrict
// (unknown fields and trailing data are errors, messages give the line),
// validates it and sorts the jobs by submit time (stable). Nothing is
// returned on an error.
func ParseJSON(data []byte) (*Instance, error) {
	in := &Instance{Grid: DefaultGrid(0, 1, 0, 1)}
	if err := formats.DecodeStrict(data, in, "a gossip workload JSON"); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	sort.SliceStable(in.Jobs, func(a, b int) bool { return in.Jobs[a].Submit < in.Jobs[b].Submit })
	return in, nil
}

// MarshalJSON-like canonical encoding.
func (in *Instance) encode() ([]byte, error) { return json.Marshal(in) }

// net is a built grid: per-node arrays, O(1) latency.
type net struct {
	n                  int
	site               []int32
	access             []float64 // s
	sx, sy             []float64
	intra              float64 // s
	interLo, interSpan float64
	nat                []bool
	reach              []int32 // nodes accepting inbound connections, ascending
}

// Build materializes the grid deterministically from its seed.
func (g Grid) Build() *net {
	r := rand.New(rand.NewSource(g.Seed))
	nt := &net{n: g.Nodes, site: make([]int32, g.Nodes), access: make([]float64, g.Nodes),
		sx: make([]float64, g.Sites), sy: make([]float64, g.Sites), nat: make([]bool, g.Nodes),
		intra: g.IntraMS / 1000, interLo: g.InterMS[0] / 1000, interSpan: (g.InterMS[1] - g.InterMS[0]) / 1000}
	for s := range nt.sx {
		nt.sx[s], nt.sy[s] = r.Float64(), r.Float64()
	}
	for i := range nt.site {
		if i < g.Sites {
			nt.site[i] = int32(i)
		} else {
			nt.site[i] = int32(r.Intn(g.Sites))
		}
		nt.access[i] = (g.AccessMS[0] + r.Float64()*(g.AccessMS[1]-g.AccessMS[0])) / 1000
	}
	k := int(math.Round(g.NATFraction * float64(g.Nodes)))
	perm := r.Perm(g.Nodes)
	for _, i := range perm[:k] {
		nt.nat[i] = true
	}
	for i := 0; i < g.Nodes; i++ {
		if !nt.nat[i] {
			nt.reach = append(nt.reach, int32(i))
		}
	}
	return nt
}

// lat is the one-way latency between nodes i and j in seconds.
func (nt *net) lat(i, j int) float64 {
	a, b := nt.site[i], nt.site[j]
	l := nt.access[i] + nt.access[j]
	if a == b {
		return l + nt.intra
	}
	dx, dy := nt.sx[a]-nt.sx[b], nt.sy[a]-nt.sy[b]
	return l + nt.interLo + nt.interSpan*math.Sqrt(dx*dx+dy*dy)/math.Sqrt2
}

// GenConfig is the umeda2006 job stream.
type GenConfig struct {
	Grid      Grid
	Load      float64 // offered load, 1 = capacity
	JobMinS   float64
	JobMaxS   float64
	DurationS float64
	Arrivals  string // ArrivalsPoisson ("" too) or ArrivalsRegular
}

// Job arrival processes (the preset's arrivals).
const (
	ArrivalsPoisson = "poisson" // exponential gaps
	ArrivalsRegular = "regular" // equal gaps of 1/rate
)

// Generate draws the job stream of cfg with src: Poisson or regular
// arrivals of rate load·n/mean(job), run times uniform.
func Generate(cfg GenConfig, src *rand.Rand) (*Instance, error) {
	if !(cfg.JobMinS > 0 && cfg.JobMaxS >= cfg.JobMinS) {
		return nil, errs.Invalidf("job_min_s", "need 0 < job_min_s ≤ job_max_s, got %v..%v", cfg.JobMinS, cfg.JobMaxS)
	}
	in := &Instance{Grid: cfg.Grid, DurationS: cfg.DurationS, Load: cfg.Load}
	mean := (cfg.JobMinS + cfg.JobMaxS) / 2
	rate := cfg.Load * float64(cfg.Grid.Nodes) / mean
	if exp := rate * cfg.DurationS; exp > MaxJobs {
		return nil, errs.New(errs.TooLarge, "duration_h", "about %.0f jobs (load·nodes·duration/mean job) exceed the limit of %d", exp, MaxJobs)
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	gap := func() float64 { return src.ExpFloat64() / rate }
	if cfg.Arrivals == ArrivalsRegular {
		gap = func() float64 { return 1 / rate }
	}
	if rate > 0 {
		t := gap()
		for t < cfg.DurationS {
			in.Jobs = append(in.Jobs, Job{Submit: round3(t), Run: round3(cfg.JobMinS + src.Float64()*(cfg.JobMaxS-cfg.JobMinS))})
			t += gap()
		}
	}
	return in, nil
}

// round3 keeps JSON short (ms resolution) and exact across encode/decode.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// rescale returns in with nodes nodes: the grid's node count replaced and
// the submit times multiplied by old/new, keeping the offered load.
func (in *Instance) rescale(nodes int) *Instance {
	if nodes == 0 || nodes == in.Grid.Nodes {
		return in
	}
	c := float64(in.Grid.Nodes) / float64(nodes)
	out := *in
	out.Grid.Nodes = nodes
	if out.Grid.Sites > nodes {
		out.Grid.Sites = nodes
	}
	out.DurationS = in.DurationS * c
	out.Jobs = make([]Job, len(in.Jobs))
	for i, j := range in.Jobs {
		out.Jobs[i] = Job{Submit: j.Submit * c, Run: j.Run}
	}
	return &out
}
