package gossip

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

// Strategy is the gossip family as a solvers.Strategy; it holds no state.
type Strategy struct{}

var (
	_ solvers.Strategy = (*Strategy)(nil)
	_ solvers.Uploader = (*Strategy)(nil)
)

// New returns the gossip strategy.
func New() *Strategy { return &Strategy{} }

// Variant names (a public contract).
const (
	VariantRumor   = "rumor"
	VariantGossip  = "gossip"
	VariantCentral = "central"
)

// PresetUmeda2006 is the seed's generator (a public contract).
const PresetUmeda2006 = "umeda2006"

// Info implements solvers.Strategy with the catalogue's entry.
func (s *Strategy) Info() solvers.Info {
	return solvers.FamilyInfo("gossip")
}

// Variants implements solvers.Strategy; the first is the default.
func (s *Strategy) Variants() []solvers.Variant {
	return []solvers.Variant{
		{Name: VariantGossip, Doc: "The seed's system: nodes exchange resource tables push-pull every period_s with fanout random reachable nodes (per-node version vectors, newer wins, TTL expiry, leave/join records); schedulers match jobs against the records they hold, nodes accept or reject, rejected jobs are re-matched."},
		{Name: VariantCentral, Doc: "Condor-like central manager: collects every node's record directly each period (record_cost_ms per record), matches from that snapshot (match_cost_us per record scanned, a match scans all n). central_info=exact gives it the true state at every instant."},
		{Name: VariantRumor, Doc: "The seed's §2.3.1 / Fig. 6: one message spread in synchronous rounds, mode push (the seed's) or push-pull; a sender stops after k \"already known\" answers. Plots the informed fraction per round beside the epidemic-theory curve."},
	}
}

// Params implements solvers.Strategy.
func (s *Strategy) Params() []solvers.ParamSpec {
	return []solvers.ParamSpec{
		solvers.IntSpec("nodes", "0", "nodes", "Run on this many nodes instead of the workload's: the grid is rebuilt with this count and the submit times are multiplied by workload nodes / nodes, so the offered load stays the same (this is how an SWF trace is replayed on a chosen size). 0 = the workload's.", 0, MaxNodes),
		solvers.FloatSpec("period_s", "60", "s", "Gossip period (each node refreshes its record and opens fanout exchanges) and central collection period. Default 60 s, the seed's (\"1 分に 1 回\").", 0.1, 86400),
		solvers.IntSpec("fanout", "1", "nodes", "Nodes contacted per period (gossip) or per round (rumor). Default 1, the seed's.", 1, 64),
		solvers.IntSpec("k", "1", "answers", "rumor: \"already known\" answers after which a sender stops. Default 1, the seed's Fig. 6. Give a huge k (e.g. 1000000000) for the infinite-k epidemic.", 1, 2000000000),
		solvers.FloatSpec("ttl_s", "1800", "s", "Record time-to-live: a record older than this is dropped and never matched. Default 1800 s (30 periods): about twice the push-pull spreading time at 10,000 nodes, so live records arrive before they expire.", 1, 1e9),
		solvers.IntSpec("schedulers", "1", "nodes", "Gossip scheduling nodes (jobs are dealt round-robin). Default 1, as in the seed's Figs. 8–9; Table 1 uses 1, 2, 4, 8. Central has one manager.", 1, 1024),
		solvers.ChoiceSpec("mode", ModePush, "rumor: push (the seed's: informed nodes send) or push-pull (every node opens exchanges; the rumor crosses either way).", ModePush, ModePushPull),
		solvers.IntSpec("max_rounds", "1000", "rounds", "rumor: stop after this many rounds even if senders are left.", 1, 1000000),
		solvers.FloatSpec("record_cost_ms", "5", "ms", "central: processing of one collected record (a collection costs n × this). Default 5 ms: about 200 ads/s for a collector, an assumption — the seed measured its own Java costs and does not print them.", 0, 10000),
		solvers.FloatSpec("match_cost_us", "50", "µs", "gossip and central: cost per record scanned by one match; a match scans the whole table, so it costs n × this (linear in nodes, the seed's §6.1). Default 50 µs (a ClassAd evaluation), an assumption.", 0, 1e6),
		solvers.ChoiceSpec("central_info", "periodic", "central: periodic (one-hop collection each period) or exact (an oracle that sees every change at once; with zero costs it reaches the ideal utilization).", "periodic", "exact"),
		solvers.FloatSpec("churn_per_h", "0", "1/h", "Leaves per node per hour (Poisson); a leaving node gossips a leave record and rejoins after downtime_s. Default 0 (the seed's runs have no churn).", 0, 100),
		solvers.FloatSpec("downtime_s", "1800", "s", "How long a leaving node stays away before it joins again.", 0, 1e9),
		solvers.FloatSpec("warmup_h", "2", "h", "Utilization is averaged after this (capped at half the duration). Default 2 h: the grid fills in about one job length (≤ 1 h).", 0, 1e6),
		solvers.IntSpec("record_bytes", "256", "B", "Size of one resource record in a message (a small ClassAd).", 1, 1<<20),
		solvers.IntSpec("gantt_nodes", "50", "lanes", "Lanes of the Gantt: nodes 0..gantt_nodes-1 (node ids are in random sites, so this is already a uniform sample of the grid), or the size of the gantt_lanes=random sample. Default 50.", 0, 1000),
		{Name: "gantt_lanes", Kind: solvers.KindString, Default: "", Unit: "nodes", Doc: "The Gantt's lanes for a large grid: a comma list of node ids and ranges (\"0-19,500,9990-9999\"), at most 1000 lanes, shown in that order; \"random\" draws gantt_nodes nodes uniformly (seeded by sim_seed); empty = nodes 0..gantt_nodes-1.",
			Check: checkGanttLanes},
		{Name: "memory_mb", Kind: solvers.KindInt, Default: "2048", Unit: "MiB", Doc: "Budget for the tables (4·n² bytes for gossip) and records; over it the run fails before allocating. At most the server's own --memory-mb, which also caps the default.",
			Min: 1, Max: 1 << 20, HasMin: true, HasMax: true, Limit: solvers.LimitMemoryMiB},
		solvers.IntSpec("sim_seed", "1", "", "Seed of the simulator's own random choices (partners, phases, scan offsets), combined with the grid's seed.", 0, 1<<31-1),
	}
}

// presetParams are umeda2006's generator parameters.
func presetParams() []solvers.ParamSpec {
	return []solvers.ParamSpec{
		solvers.IntSpec("nodes", "1000", "nodes", "Compute nodes. Default 1000: the seed's Table 1 and Fig. 7.", 1, MaxNodes),
		solvers.IntSpec("sites", "20", "sites", "Sites of the GridG-like network (nodes are spread over them).", 1, MaxNodes),
		solvers.FloatSpec("nat_fraction", "0", "", "Fraction of nodes behind NAT (no inbound connections). Default 0; the seed's Fig. 7 varies it 0–0.9.", 0, 0.99),
		solvers.FloatSpec("load", "1", "", "Offered load: submitted work per hour / capacity per hour. The seed: 0.1, 0.5, 1, 2.", 0, 100),
		solvers.FloatSpec("job_min_s", "1800", "s", "Shortest job (uniform in job_min_s..job_max_s). Default 30 min, the seed's.", 1, 1e7),
		solvers.FloatSpec("job_max_s", "3600", "s", "Longest job. Default 60 min, the seed's.", 1, 1e7),
		solvers.FloatSpec("duration_h", "24", "h", "Simulated time; jobs arrive throughout.", 0.01, 10000),
	}
}

// Presets implements solvers.Strategy.
func (s *Strategy) Presets() []solvers.Preset {
	return []solvers.Preset{{Name: PresetUmeda2006,
		Doc:    "The seed's setting (§5.2): identical nodes on a GridG-like network (latency up to ≈ 200 ms), a Poisson stream of jobs of 30–60 min whose work per hour is load × capacity. Protocol knobs (period_s, fanout, k, ttl_s, schedulers) are run parameters.",
		Params: presetParams()}}
}

// Uploads implements solvers.Uploader: an SWF trace as the job stream.
func (s *Strategy) Uploads() []solvers.Upload {
	return []solvers.Upload{{Field: "swf", Label: "SWF trace (.swf, .swf.gz)", Accept: ".swf,.gz,.swf.gz",
		Doc: "A Parallel Workloads Archive trace: submit and run times drive the jobs (one single-node job per trace job), on min(MaxProcs, 10,000) nodes with the trace's own offered load; run parameter nodes replays it on another size."}}
}

// Generate implements solvers.Strategy.
func (s *Strategy) Generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	w, err := s.generate(ctx, preset, params, seed)
	return w, errs.Wrap("gossip.Generate", errs.Internal, err)
}

func (s *Strategy) generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	p, err := solvers.PresetParams(s.Presets(), preset, params)
	if err != nil {
		return nil, err
	}
	if p.Int("sites") > p.Int("nodes") {
		return nil, errs.Invalidf("sites", "must be at most nodes (%d), got %d", p.Int("nodes"), p.Int("sites"))
	}
	cfg := GenConfig{Grid: DefaultGrid(p.Int("nodes"), p.Int("sites"), p.Float("nat_fraction"), seed),
		Load: p.Float("load"), JobMinS: p.Float("job_min_s"), JobMaxS: p.Float("job_max_s"), DurationS: p.Float("duration_h") * 3600}
	if err := solvers.Reserve(ctx, "duration_h", solvers.SatMul(int64(expectedJobs(cfg)), genJobBytes), "the job stream"); err != nil {
		return nil, err
	}
	in, err := Generate(cfg, rand.New(rand.NewSource(seed)))
	if err != nil {
		return nil, err
	}
	return newWorkload(in, fmt.Sprintf("%s %d nodes, load %g (seed %d)", preset, cfg.Grid.Nodes, cfg.Load, seed), "preset")
}

// ParseWorkload implements solvers.Strategy: one native JSON file (field
// "file") or one SWF trace (field "swf", or a .swf/.swf.gz name).
func (s *Strategy) ParseWorkload(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
	w, err := parseWorkload(ctx, files)
	return w, errs.Wrap("gossip.ParseWorkload", errs.Internal, err)
}

func isSWF(f solvers.File) bool {
	n := strings.ToLower(f.Name)
	return f.Field == "swf" || (f.Field == "" && (strings.HasSuffix(n, ".swf") || strings.HasSuffix(n, ".swf.gz")))
}

func parseWorkload(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
	if len(files) != 1 {
		return nil, errs.Invalidf("file", "want one file (native JSON or an SWF trace), got %d", len(files))
	}
	f := files[0]
	name := f.Name
	if isSWF(f) {
		in, err := FromSWF(ctx, f.Name, f.Data, 0)
		if err != nil {
			return nil, err
		}
		for _, suf := range []string{".gz", ".swf"} {
			name = strings.TrimSuffix(name, suf)
		}
		return newWorkload(in, name, "swf")
	}
	if f.Field != "" && f.Field != "file" {
		return nil, errs.Invalidf(f.Field, "unknown upload field (known: file, swf)")
	}
	in, err := ParseJSON(f.Data)
	if err != nil {
		return nil, errs.InFile(err, f.Name)
	}
	name = strings.TrimSuffix(name, ".json")
	if name == "" {
		name = "upload"
	}
	return newWorkload(in, name, "json")
}

func newWorkload(in *Instance, name, format string) (*solvers.Workload, error) {
	data, err := in.encode()
	if err != nil {
		return nil, err
	}
	return &solvers.Workload{Name: name, Format: format, Summary: summary(in), Data: data, Preview: preview(in)}, nil
}

func summary(in *Instance) string {
	nat := int(float64(in.Grid.Nodes)*in.Grid.NATFraction + 0.5)
	return fmt.Sprintf("%d nodes in %d sites (%d behind NAT), %d jobs over %.1f h", in.Grid.Nodes, in.Grid.Sites, nat, len(in.Jobs), in.DurationS/3600)
}

func loadWorkload(w *solvers.Workload) (*Instance, error) {
	if w == nil || len(w.Data) == 0 {
		return nil, errs.Invalidf("workload", "no workload data")
	}
	return ParseJSON(w.Data)
}

// Run implements solvers.Strategy.
func (s *Strategy) Run(ctx context.Context, w *solvers.Workload, variant string, params solvers.Params, progress solvers.Progress) (*solvers.Report, error) {
	r, err := s.run(ctx, w, variant, params, progress)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	return r, errs.Wrap("gossip.Run", errs.Internal, err)
}

// configOf turns resolved run parameters into a Config.
func configOf(variant string, p solvers.Params, gridSeed int64) Config {
	return Config{Variant: variant, PeriodS: p.Float("period_s"), Fanout: p.Int("fanout"), TTLS: p.Float("ttl_s"),
		Schedulers: p.Int("schedulers"), RecordCostS: p.Float("record_cost_ms") / 1000, MatchCostS: p.Float("match_cost_us") / 1e6,
		Exact: p.String("central_info") == "exact", ChurnPerH: p.Float("churn_per_h"), DowntimeS: p.Float("downtime_s"),
		WarmupS: p.Float("warmup_h") * 3600, RecordBytes: p.Int("record_bytes"), GanttNodes: p.Int("gantt_nodes"),
		MemoryBytes: int64(p.Int("memory_mb")) << 20, Seed: gridSeed*1000003 + int64(p.Int("sim_seed"))}
}

func (s *Strategy) run(ctx context.Context, w *solvers.Workload, variant string, params solvers.Params, progress solvers.Progress) (*solvers.Report, error) {
	variant, err := solvers.ResolveVariant(s, variant)
	if err != nil {
		return nil, err
	}
	if progress == nil {
		progress = solvers.NoProgress
	}
	p, err := solvers.Resolve(s.Params(), params)
	if err != nil {
		return nil, err
	}
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	if nn := p.Int("nodes"); nn > 0 && nn != in.Grid.Nodes {
		if err := solvers.Reserve(ctx, "nodes", solvers.SatMul(int64(len(in.Jobs)), 16), "the rescaled job list"); err != nil {
			return nil, err
		}
		in = in.rescale(nn)
		if err := in.Validate(); err != nil {
			return nil, errs.Invalidf("nodes", "rescaled workload: %v", err)
		}
	}
	cfg := configOf(variant, p, in.Grid.Seed)
	if cfg.GanttLanes, err = ganttLanes(p.String("gantt_lanes"), in.Grid.Nodes, p.Int("gantt_nodes"), cfg.Seed); err != nil {
		return nil, err
	}
	start := time.Now()
	if variant == VariantRumor {
		rc := RumorConfig{Mode: p.String("mode"), Fanout: cfg.Fanout, K: p.Int("k"), MaxRounds: p.Int("max_rounds"), RecordBytes: cfg.RecordBytes, Seed: cfg.Seed}
		res, err := Rumor(ctx, in.Grid.Build(), rc, progress)
		if err != nil {
			return nil, err
		}
		return rumorReport(in, rc, res, time.Since(start)), nil
	}
	res, err := Simulate(ctx, in, cfg, progress)
	if err != nil {
		return nil, err
	}
	return simReport(in, cfg, res, time.Since(start)), nil
}

// checkGanttLanes checks the syntax of gantt_lanes at submit (Resolve);
// whether the nodes exist is known only with the workload, at the run.
func checkGanttLanes(v string) error {
	if strings.TrimSpace(v) == "random" {
		return nil
	}
	_, err := ganttLanes(v, MaxNodes, maxLanes, 0)
	return err
}

// genJobBytes is the memory one generated job takes: its Job in a slice
// that may double, and its line of the canonical JSON.
const genJobBytes = 2*16 + 48

// expectedJobs is the mean size of cfg's Poisson job stream.
func expectedJobs(cfg GenConfig) float64 {
	mean := (cfg.JobMinS + cfg.JobMaxS) / 2
	if !(mean > 0) {
		return 0
	}
	return min(cfg.Load*float64(cfg.Grid.Nodes)/mean*cfg.DurationS, 1e15)
}

// maxLanes caps the Gantt's lanes.
const maxLanes = 1000

// ganttLanes parses the gantt_lanes parameter for a grid of n nodes: nil
// (the first gantt_nodes nodes), a seeded random sample of size nodes, or
// a list of ids and inclusive ranges, deduplicated, in the given order.
func ganttLanes(v string, n, size int, seed int64) ([]int, error) {
	v = strings.TrimSpace(v)
	switch v {
	case "":
		return nil, nil
	case "random":
		rng := rand.New(rand.NewSource(seed ^ 0x6a09e667))
		k := min(size, n)
		out := rng.Perm(n)[:k]
		sort.Ints(out)
		return out, nil
	}
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(f, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, errs.Invalidf("gantt_lanes", "want node ids and ranges like \"0-19,500\" or \"random\", got %q", f)
		}
		if b >= n {
			return nil, errs.Invalidf("gantt_lanes", "node %d does not exist: the grid has nodes 0..%d", b, n-1)
		}
		if b-a+1 > maxLanes {
			return nil, errs.Invalidf("gantt_lanes", "at most %d lanes, %q has %d", maxLanes, f, b-a+1)
		}
		for i := a; i <= b; i++ {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
		if len(out) > maxLanes {
			return nil, errs.Invalidf("gantt_lanes", "at most %d lanes", maxLanes)
		}
	}
	if len(out) == 0 {
		return nil, errs.Invalidf("gantt_lanes", "no node id in %q", v)
	}
	return out, nil
}
