package eapm

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// New returns the EAPM strategy (solvers.Def does the wrapping: variant
// resolution, the typed configs, progress, errors, the CSV uploads). It
// holds no state: all of a run lives in the call, so one value serves
// concurrent runs.
func New() *solvers.Strategy { return family().Strategy() }

func family() *solvers.Def[Config, *Config] {
	return &solvers.Def[Config, *Config]{
		Name:        "eapm",
		Info:        solvers.Info{Title: "EAPM: energy-aware profit maximization", Summary: "Bags of tasks onto heterogeneous machine types, online, for profit per unit time.", Paper: "Zhang, Li, Zhang, online EAPM for bags of tasks (2022); Tarplee et al. (CCGrid 2014)", Seed: "004_55fd890ca32d5ad5.txt"},
		VariantList: solvers.VariantsOf(variants),
		Config:      DefaultConfig,
		Run:         runVariant,
		Parse:       func(_ context.Context, files []solvers.File) (*solvers.Workload, error) { return parseWorkload(files) },
		PresetList:  presets(),
		Repro:       solvers.NewReproduce(DefaultReproConfig, reproduce),
		UploadList:  uploads(),
		Seeds:       seedExperiments,
		Mutate:      mutate,
	}
}

// Variant names (a public contract).
const (
	VariantOnline             = "online"
	VariantOnlineWaterfill    = "online-waterfill"
	VariantGreedyMinEnergy    = "greedy-min-energy"
	VariantGreedyMaxObjective = "greedy-max-objective"
	VariantAverage            = "average"
	VariantOfflineLP          = "offline-lp"
)

// variant is a row of the family's variant table: the public variant and
// its algorithm, which returns the LP bound when it computes it (nil: the
// run computes it for the report).
type variant struct {
	solvers.Variant
	solve func(*model, context.Context) (*Schedule, *Bound, error)
}

// variants is the family's variant table; the first is the default.
var variants = []variant{
	{solvers.Variant{Name: VariantOnline, Doc: "The seed's online algorithm (Lemma 1): for each arriving user, try every τ — the m−τ+1 cheapest machine types raised to one common level — with suffix sums in O(m), drop a τ that needs a negative share (the authors' rule), keep the best objective, round up from the cheapest machine. O(n·m) after an O(T·m log m) sort."}, heuristic((*model).online)},
	{solvers.Variant{Name: VariantOnlineWaterfill, Doc: "Online, but a τ whose level lies below some machine's load is water-filled (that machine left out, the level recomputed) instead of dropped: every τ is feasible. O(n·m²)."}, heuristic((*model).onlineWaterfill)},
	{solvers.Variant{Name: VariantGreedyMinEnergy, Doc: "The paper's Greedy: each user's whole bag on the machine type with the least energy per task. Its numbers are the authors' raw and printed Greedy column."}, heuristic((*model).greedyMinEnergy)},
	{solvers.Variant{Name: VariantGreedyMaxObjective, Doc: "Each user's whole bag on the machine type that maximizes the objective right after placing it (the Greedy_based_method of the authors' final code, not what their results used)."}, heuristic((*model).greedyMaxObjective)},
	{solvers.Variant{Name: VariantAverage, Doc: "The paper's Average: ⌈a_i/m⌉ tasks to each machine type in index order, the last ones get the remainder."}, heuristic((*model).average)},
	{solvers.Variant{Name: VariantOfflineLP, Reference: true, Doc: "Offline reference: the Charnes–Cooper LP bound over the whole stream (a revised simplex, simplex.go), rounded per task type by largest remainder to a feasible schedule."}, (*model).offlineLP},
}

// heuristic is an algorithm that computes no bound, as a table row's solve.
func heuristic(f func(*model, context.Context) (*Schedule, error)) func(*model, context.Context) (*Schedule, *Bound, error) {
	return func(md *model, ctx context.Context) (*Schedule, *Bound, error) {
		s, err := f(md, ctx)
		return s, nil, err
	}
}

// uploads is the CSV file set besides the JSON (Strategy.Uploads).
func uploads() []solvers.Upload {
	return []solvers.Upload{
		{Field: "etc", Label: "ETC matrix (CSV, s)", Accept: ".csv,text/csv", Doc: "Task types (rows) × machine types (columns): seconds one task takes on one machine. Header and a label column of task type names are optional; CRLF is fine."},
		{Field: "apc", Label: "APC matrix (CSV, W)", Accept: ".csv,text/csv", Doc: "Same shape as ETC: average power drawn while a task runs, watts (Tarplee's EPC.csv)."},
		{Field: "users", Label: "User stream (CSV: type,tasks)", Accept: ".csv,text/csv", Doc: "One user per line in arrival order: task type (0-based index or name) and number of tasks. Header optional."},
	}
}

func runVariant(ctx context.Context, w *solvers.Workload, variant string, cfg Config, progress solvers.Progress) (*report.Report, error) {
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	if err := applyConfig(in, cfg); err != nil {
		return nil, err
	}
	// The model's tables (4 per task type and machine type), the
	// allocation X and the report's rows, per user and machine type.
	est := solvers.SatAdd(solvers.SatMul(int64(in.T()), int64(in.M()), 4*8+16), solvers.SatMul(int64(len(in.Users)), int64(in.M()), 4+8+8))
	if err := solvers.Reserve(ctx, "workload", est, fmt.Sprintf("%d users on %d machine types", len(in.Users), in.M())); err != nil {
		return nil, err
	}
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	n := len(in.Users)
	md.progress = func(done, total int) { progress(done, total+1, fmt.Sprintf("user %d of %d", done, total)) }
	progress(0, n+1, "start")
	start := time.Now()
	v := solvers.LookupVariant(variants, variant) // the adapter resolved it
	sched, bound, err := v.solve(md, ctx)
	if err != nil {
		return nil, err
	}
	wall := float64(time.Since(start).Microseconds()) / 1000
	boundNote := ""
	if bound == nil {
		progress(n, n+1, "LP bound")
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := sharedBound(w, md)
		switch {
		case errs.Is(err, errs.TooLarge):
			boundNote = "The LP upper bound was skipped: " + err.Error() + "; upper_bound and bound_ratio are not reported."
		case err != nil:
			return nil, err
		default:
			bound = b
		}
	}
	progress(n+1, n+1, "done")
	return runReport(in, variant, sched, bound, boundNote, wall), nil
}

// sharedBound is md's LP upper bound, computed once per workload and
// setting (γ, c, machine counts) when w keeps its decoded forms
// (solvers.Workload.Decoded): the bound is the same for every variant,
// and a sweep runs several variants on each workload and γ. The bound is
// read-only to its users (runReport reads it). A bound over its size
// budget, and bound_ratio when the bound is 0, are not reported (a note
// says so): a 0 would be ranked and averaged as if measured.
func sharedBound(w *solvers.Workload, md *model) (*Bound, error) {
	in := md.in
	key := fmt.Sprintf("eapm bound γ=%v c=%v machines=%v", in.Gamma, in.C, in.Machines)
	v, err := w.Decoded.Get(key, func() (any, error) { return md.upperBound() })
	if err != nil {
		return nil, err
	}
	return v.(*Bound), nil
}

// applyConfig sets γ, c and machines per type from a run config.
func applyConfig(in *Instance, cfg Config) error {
	in.Gamma, in.C = cfg.Gamma, cfg.C
	if !(in.Gamma > 0) {
		return errs.Invalidf("gamma", "must be greater than 0, got %v", in.Gamma)
	}
	if !(in.C > 0) {
		return errs.Invalidf("c", "must be greater than 0, got %v", in.C)
	}
	if v := cfg.MachinesPerType; v != "" {
		mpt, err := parseMachinesPerType(v, in.M())
		if err != nil {
			return err
		}
		in.Machines = mpt
	}
	return nil
}

// checkMachinesPerType checks machines_per_type at submit (Resolve): the
// counts' syntax and range; whether their number is the workload's m is
// known only at the run.
func checkMachinesPerType(v string) error {
	_, err := parseMachinesPerType(v, len(strings.Split(strings.TrimSpace(v), ",")))
	return err
}

// parseMachinesPerType reads "" (nil), "40" (all types) or "40,40,…" (m counts).
func parseMachinesPerType(v string, m int) ([]int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) != 1 && len(parts) != m {
		return nil, errs.Invalidf("machines_per_type", "give one count for all types or %d comma-separated counts, got %d", m, len(parts))
	}
	out := make([]int, m)
	for k, s := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > MaxMachinesPerType {
			return nil, errs.Invalidf("machines_per_type", "count %d must be a whole number between 1 and %d, got %q", k+1, MaxMachinesPerType, strings.TrimSpace(s))
		}
		out[k] = n
	}
	if len(parts) == 1 {
		for j := range out {
			out[j] = out[0]
		}
	}
	return out, nil
}

// relErr is |a−b|/|b| (|a−b| when b is 0).
func relErr(a, b float64) float64 {
	if b == 0 {
		return math.Abs(a)
	}
	return math.Abs(a-b) / math.Abs(b)
}
