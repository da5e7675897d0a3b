package gossip

import (
	"cmp"
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// Variant names (a public contract).
const (
	VariantRumor   = "rumor"
	VariantGossip  = "gossip"
	VariantCentral = "central"
)

// PresetUmeda2006 is the seed's generator (a public contract).
const PresetUmeda2006 = "umeda2006"

// New returns the gossip family as a *solvers.Strategy.
func New() *solvers.Strategy { return family().Strategy() }

// family is the gossip family's parts; the shared adapter (solvers.Def)
// does the rest.
func family() *solvers.Def[Config, *Config] {
	return &solvers.Def[Config, *Config]{
		Name:        "gossip",
		Info:        solvers.Info{Title: "Gossip scheduling vs central matchmaker", Summary: "A stream of jobs onto thousands of nodes: gossip-spread resource tables against a Condor-like manager.", Paper: "Umeda, Nakada, Matsuoka, distributed job scheduling with large-scale information sharing (2006)", Seed: "001_a47f93fcc10dd41f.txt"},
		VariantList: solvers.VariantsOf(variants),
		Config:      DefaultConfig,
		Run:         run,
		Parse:       parseWorkload,
		PresetList: []solvers.PresetDef{solvers.NewPreset(PresetUmeda2006,
			"The seed's setting (§5.2): identical nodes on a GridG-like network (latency up to ≈ 200 ms), a Poisson stream of jobs of 30–60 min whose work per hour is load × capacity. Protocol knobs (period_s, fanout, k, ttl_s, schedulers) are run parameters.",
			DefaultUmeda2006Config, generate, generateSize)},
		Repro: solvers.NewReproduce(DefaultReproConfig, reproduce),
		Seeds: seedExperiments,
		UploadList: []solvers.Upload{{Field: "swf", Label: "SWF trace (.swf, .swf.gz)", Accept: ".swf,.gz,.swf.gz",
			Doc: "A Parallel Workloads Archive trace: submit and run times drive the jobs (one single-node job per trace job), on min(MaxProcs, 10,000) nodes with the trace's own offered load; run parameter rescale_nodes replays it on another size."}},
	}
}

// variant is a row of the family's variant table: the public variant and
// what it runs, which says what its metrics mean. simulates: the job
// stream is simulated (else the rumor spreads one message in rounds);
// gossips: the nodes spread their records by gossip, with several
// scheduling nodes (else a central manager collects them).
type variant struct {
	solvers.Variant
	simulates, gossips bool
}

// variants is the family's variant table; the first is the default.
var variants = []variant{
	{Variant: solvers.Variant{Name: VariantGossip, Doc: "The seed's system: nodes exchange resource tables push-pull every period_s with fanout random reachable nodes (per-node version vectors, newer wins, TTL expiry, leave/join records); schedulers match jobs against the records they hold, nodes accept or reject, rejected jobs are re-matched."}, simulates: true, gossips: true},
	{Variant: solvers.Variant{Name: VariantCentral, Doc: "Condor-like central manager: collects every node's record directly each period (record_cost_ms per record), matches from that snapshot (match_cost_us per record scanned, a match scans all n). central_info=exact gives it the true state at every instant."}, simulates: true},
	{Variant: solvers.Variant{Name: VariantRumor, Doc: "The seed's §2.3.1 / Fig. 6: one message spread in synchronous rounds, mode push (the seed's) or push-pull; a sender stops after k \"already known\" answers. Plots the informed fraction per round beside the epidemic-theory curve."}},
}

func generate(ctx context.Context, p Umeda2006Config, seed int64) (*solvers.Workload, error) {
	// More sites than nodes would leave sites empty: the grid has
	// min(sites, nodes) sites, as the reproduce's (so an experiment can
	// sweep nodes from 10 with the default 20 sites).
	cfg := GenConfig{Grid: DefaultGrid(p.Nodes, min(p.Sites, p.Nodes), p.NATFraction, seed),
		Load: p.Load, JobMinS: p.JobMinS, JobMaxS: p.JobMaxS, DurationS: p.DurationH * 3600, Arrivals: p.Arrivals}
	if err := solvers.Reserve(ctx, "duration_h", solvers.SatMul(int64(expectedJobs(cfg)), genJobBytes), "the job stream"); err != nil {
		return nil, err
	}
	in, err := Generate(cfg, rand.New(rand.NewSource(seed)))
	if err != nil {
		return nil, err
	}
	return newWorkload(in, fmt.Sprintf("%s %d nodes, load %g (seed %d)", PresetUmeda2006, cfg.Grid.Nodes, cfg.Load, seed), "preset")
}

// parseWorkload reads one native JSON file (field "file") or one SWF
// trace (field "swf", or a .swf/.swf.gz name).
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
	return newWorkload(in, cmp.Or(strings.TrimSuffix(name, ".json"), "upload"), "json")
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

// run schedules w with one variant: the rumor, or a simulation of the
// gossip or central system.
func run(ctx context.Context, w *solvers.Workload, variant string, c Config, progress solvers.Progress) (*report.Report, error) {
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	rescaled := false
	if nn := c.RescaleNodes; nn > 0 && nn != in.Grid.Nodes {
		if err := solvers.Reserve(ctx, "rescale_nodes", solvers.SatMul(int64(len(in.Jobs)), 16), "the rescaled job list"); err != nil {
			return nil, err
		}
		in, rescaled = in.rescale(nn), true
		if err := in.Validate(); err != nil {
			return nil, errs.Invalidf("rescale_nodes", "rescaled workload: %v", err)
		}
	}
	start := time.Now()
	if !solvers.LookupVariant(variants, variant).simulates {
		rc := c.rumorConfig(in.Grid.Seed)
		res, err := Rumor(ctx, in.Grid.Build(), rc, progress)
		if err != nil {
			return nil, err
		}
		return rumorReport(in, rc, res, time.Since(start)), nil
	}
	cfg := c.simConfig(variant, in.Grid.Seed)
	if rescaled {
		cfg.sizeField = "rescale_nodes"
	}
	if cfg.GanttLanes, err = ganttLanes(c.GanttLanes, in.Grid.Nodes, c.GanttNodes, cfg.Seed); err != nil {
		return nil, err
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
