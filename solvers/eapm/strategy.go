package eapm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

// Strategy is the EAPM family as a solvers.Strategy. It holds no state: all
// of a run lives in the call, so one value serves concurrent runs.
type Strategy struct{}

var (
	_ solvers.Strategy = (*Strategy)(nil)
	_ solvers.Uploader = (*Strategy)(nil)
)

// New returns the EAPM strategy.
func New() *Strategy { return &Strategy{} }

// Info implements solvers.Strategy with the catalogue's entry.
func (s *Strategy) Info() solvers.Info {
	return solvers.FamilyInfo("eapm")
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

// Variants implements solvers.Strategy; the first is the default.
func (s *Strategy) Variants() []solvers.Variant {
	return []solvers.Variant{
		{Name: VariantOnline, Doc: "The seed's online algorithm (Lemma 1): for each arriving user, try every τ — the m−τ+1 cheapest machine types raised to one common level — with suffix sums in O(m), drop a τ that needs a negative share (the authors' rule), keep the best objective, round up from the cheapest machine. O(n·m) after an O(T·m log m) sort."},
		{Name: VariantOnlineWaterfill, Doc: "Online, but a τ whose level lies below some machine's load is water-filled (that machine left out, the level recomputed) instead of dropped: every τ is feasible. O(n·m²)."},
		{Name: VariantGreedyMinEnergy, Doc: "The paper's Greedy: each user's whole bag on the machine type with the least energy per task. Its numbers are the authors' raw and printed Greedy column."},
		{Name: VariantGreedyMaxObjective, Doc: "Each user's whole bag on the machine type that maximizes the objective right after placing it (the Greedy_based_method of the authors' final code, not what their results used)."},
		{Name: VariantAverage, Doc: "The paper's Average: ⌈a_i/m⌉ tasks to each machine type in index order, the last ones get the remainder."},
		{Name: VariantOfflineLP, Doc: "Offline reference: the Charnes–Cooper LP bound over the whole stream (gonum simplex), rounded per task type by largest remainder to a feasible schedule."},
	}
}

// Params implements solvers.Strategy.
func (s *Strategy) Params() []solvers.ParamSpec {
	return []solvers.ParamSpec{
		solvers.FloatSpec("gamma", "1.2", "×",
			"Price markup γ: a task of type t sells for p_t = γ·c·min_j ETC_tj·APC_tj, γ times the least energy cost it can have. Must be > 0; with γ ≤ 1 no schedule makes a profit (the run says so). Default 1.2: the one value in every experiment of the paper (Table 1 spans 1.05–1.5; Figs. 1–3 use 1.2, 1.3 and 1.5).",
			0, 100),
		solvers.FloatSpec("c", "1", "$/J",
			"Energy cost c per joule; scales prices and energy cost alike, so the objective is proportional to c. Must be > 0. Default 1, as in the authors' code.",
			0, 1e9),
		{Name: "machines_per_type", Kind: solvers.KindString, Default: "", Unit: "machines",
			Doc:   "Machines M_j of each type (a type's load is ETC/M_j): empty = the workload's own counts; one integer = that many of every type; or a comma list of m positive integers. Default empty: the seed's instances have 1 per type, Tarplee's 40.",
			Check: checkMachinesPerType},
	}
}

// Uploads implements solvers.Uploader: the CSV file set besides the JSON.
func (s *Strategy) Uploads() []solvers.Upload {
	return []solvers.Upload{
		{Field: "etc", Label: "ETC matrix (CSV, s)", Accept: ".csv,text/csv", Doc: "Task types (rows) × machine types (columns): seconds one task takes on one machine. Header and a label column of task type names are optional; CRLF is fine."},
		{Field: "apc", Label: "APC matrix (CSV, W)", Accept: ".csv,text/csv", Doc: "Same shape as ETC: average power drawn while a task runs, watts (Tarplee's EPC.csv)."},
		{Field: "users", Label: "User stream (CSV: type,tasks)", Accept: ".csv,text/csv", Doc: "One user per line in arrival order: task type (0-based index or name) and number of tasks. Header optional."},
	}
}

// Run implements solvers.Strategy.
func (s *Strategy) Run(ctx context.Context, w *solvers.Workload, variant string, params solvers.Params, progress solvers.Progress) (*solvers.Report, error) {
	r, err := s.run(ctx, w, variant, params, progress)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err // the context's own error, as callers expect
	}
	return r, errs.Wrap("eapm.Run", errs.Internal, err)
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
	if err := applyParams(in, p); err != nil {
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
	var sched *Schedule
	var bound *Bound
	switch variant {
	case VariantOnline:
		sched, err = md.online(ctx)
	case VariantOnlineWaterfill:
		sched, err = md.onlineWaterfill(ctx)
	case VariantGreedyMinEnergy:
		sched, err = md.greedyMinEnergy(ctx)
	case VariantGreedyMaxObjective:
		sched, err = md.greedyMaxObjective(ctx)
	case VariantAverage:
		sched, err = md.average(ctx)
	case VariantOfflineLP:
		sched, bound, err = md.offlineLP(ctx)
	}
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
		b, err := md.upperBound()
		switch {
		case errs.Is(errs.TooLarge, err):
			boundNote = "The LP upper bound was skipped: " + err.Error() + "; upper_bound and bound_ratio are 0."
		case err != nil:
			return nil, err
		default:
			bound = b
		}
	}
	progress(n+1, n+1, "done")
	return runReport(in, variant, sched, bound, boundNote, wall), nil
}

// applyParams sets γ, c and machines per type from resolved params.
func applyParams(in *Instance, p solvers.Params) error {
	in.Gamma, in.C = p.Float("gamma"), p.Float("c")
	if !(in.Gamma > 0) {
		return errs.Invalidf("gamma", "must be greater than 0, got %v", in.Gamma)
	}
	if !(in.C > 0) {
		return errs.Invalidf("c", "must be greater than 0, got %v", in.C)
	}
	if v := p.String("machines_per_type"); v != "" {
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
