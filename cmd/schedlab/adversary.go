package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"schedlab/adversaries"
	"schedlab/cmd/internal/runcmd"
	"schedlab/execute"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/adversary"
	"schedlab/solvers/registry"
)

const adversaryUse = `usage: schedlab adversary --strategy S --a VARIANT --b VARIANT --metric M (--preset P | --workload FILE)
           [--a-param k=v]... [--b-param k=v]... [--preset-param k=v]... [--method anneal|cmaes] [--score ratio|difference]
           [--budget N] [--seed N] [--stop-at SCORE] [--restarts N] [--vary name=lo..hi]... [--workers N] [--out best.json] [--report search.json] [--log evaluations.jsonl]`

// adversaryCmd searches for the instance where A does worst against B
// (solvers/adversary), every candidate run through execute.Run under the
// budget, and writes the best instance as a workload file.
func adversaryCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("adversary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strategy := fs.String("strategy", "", "the family")
	var cfg adversary.Config
	fs.StringVar(&cfg.A.Variant, "a", "", "variant A (the one searched for its losses)")
	fs.StringVar(&cfg.B.Variant, "b", "", "variant B (the one A is compared with)")
	aParams, bParams, presetParams := runcmd.Params{}, runcmd.Params{}, runcmd.Params{}
	fs.Var(aParams, "a-param", "a run parameter of A, name=value (repeatable)")
	fs.Var(bParams, "b-param", "a run parameter of B, name=value (repeatable)")
	fs.Var(presetParams, "preset-param", "a parameter of the preset, name=value (repeatable)")
	fs.StringVar(&cfg.Metric, "metric", "", "the result metric compared")
	fs.StringVar(&cfg.Score, "score", adversary.Ratio, "ratio or difference")
	fs.StringVar(&cfg.Method, "method", adversary.Anneal, "anneal (mutations of the instance) or cmaes (the preset's parameters)")
	fs.StringVar(&cfg.Preset, "preset", "", "the preset the instances come from")
	startFile := fs.String("workload", "", "anneal: start every restart from this workload file (an SWF trace, a graph) instead of a preset's instance")
	fs.IntVar(&cfg.Budget, "budget", 1000, "candidate instances at most (each runs A and B)")
	fs.Int64Var(&cfg.Seed, "seed", 1, "the search's seed")
	fs.Float64Var(&cfg.Target, "stop-at", 0, "end the search once the score reaches this (0: use the whole budget)")
	fs.IntVar(&cfg.Restarts, "restarts", adversary.DefaultRestarts, "anneal: independent restarts")
	var vary runcmd.List
	fs.Var(&vary, "vary", "cmaes: a preset parameter and its range, name=lo..hi (repeatable; default: every numeric one within [default/4, 4·default])")
	workers := fs.Int("workers", 2, "runs executed at once")
	out := fs.String("out", "", "write the best instance here (the family's workload JSON)")
	logFile := fs.String("log", "", "write every evaluation here, one JSON line each")
	reportFile := fs.String("report", "", "write the search's report here (the Report JSON: the best score against candidates, the path to the best, both schedules)")
	var b runcmd.BudgetFlags
	b.Register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *strategy == "" || cfg.A.Variant == "" || cfg.B.Variant == "" || cfg.Metric == "" || (cfg.Preset == "") == (*startFile == "") {
		return errors.New(adversaryUse + "\n(name one of --preset and --workload)")
	}
	st, ok := registry.Lookup(*strategy)
	if !ok {
		return fmt.Errorf("strategy: unknown strategy %q (see `schedlab strategies`)", *strategy)
	}
	for _, r := range vary {
		rg, err := parseRange(r)
		if err != nil {
			return err
		}
		cfg.Vary = append(cfg.Vary, rg)
	}
	budget := b.Budget()
	var start *solvers.Workload
	if *startFile != "" {
		data, err := os.ReadFile(*startFile)
		if err != nil {
			return err
		}
		field := "file"
		if strings.HasSuffix(*startFile, ".swf") || strings.HasSuffix(*startFile, ".swf.gz") {
			field = "swf"
		}
		if start, err = execute.Parse(ctx, st, []solvers.File{{Field: field, Name: filepath.Base(*startFile), Data: data}}, budget); err != nil {
			return runcmd.Describe(err)
		}
	}
	// The search as the server builds it (adversaries.Build): the same
	// candidates for a seed, the metric's direction from the family's
	// declared metrics.
	search, err := adversaries.Build(ctx, st, adversaries.Spec{Strategy: *strategy, A: cfg.A.Variant, B: cfg.B.Variant,
		AParams: aParams, BParams: bParams, Metric: cfg.Metric, Score: cfg.Score, Method: cfg.Method, Preset: cfg.Preset,
		PresetParams: presetParams, Budget: cfg.Budget, Seed: cfg.Seed, StopAt: cfg.Target, Restarts: cfg.Restarts, Vary: cfg.Vary},
		start, budget, func(ctx context.Context, w *solvers.Workload, s adversary.Side) (*report.Report, error) {
			return execute.Run(ctx, st, w, s.Variant, s.Params, nil, budget)
		})
	if err != nil {
		return runcmd.Describe(err)
	}
	cfg, fam := search.Config, search.Family
	eval := inProcessEvaluator(st, cfg, *workers, budget)
	var log *json.Encoder
	if *logFile != "" {
		f, err := os.Create(*logFile)
		if err != nil {
			return err
		}
		defer f.Close()
		log = json.NewEncoder(f)
	}
	shown := math.NaN()
	res, err := adversary.Search(ctx, cfg, fam, eval, nil, func(e adversary.Evaluation) {
		if log != nil {
			_ = log.Encode(jsonSafe(e))
		}
		if e.Best != shown || (e.Index+1)%100 == 0 {
			shown = e.Best
			fmt.Fprintf(stderr, "\r%d/%d candidates, best %s\033[K", e.Index+1, cfg.Budget, formatScore(e.Best))
		}
	})
	fmt.Fprintln(stderr)
	if err != nil {
		return runcmd.Describe(err)
	}
	best := res.Evaluations[res.Best]
	fmt.Fprintf(stdout, "best %s score %s at candidate %d of %d (%d run): %s %s %s, %s %s %s\n", cfg.Score, formatScore(best.Score),
		best.Index+1, len(res.Evaluations), res.Ran, cfg.A.Variant, cfg.Metric, adversary.SideText(best.Outcome.A),
		cfg.B.Variant, cfg.Metric, adversary.SideText(best.Outcome.B))
	if *reportFile != "" {
		if err := writeReport(*reportFile, adversary.Report(cfg, res)); err != nil {
			return err
		}
	}
	if *out != "" {
		if err := os.WriteFile(*out, res.BestWorkload.Data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "best instance written to %s (sha256 %s)\n", *out, best.Key)
	}
	return nil
}

// inProcessEvaluator runs A and B on each instance of a batch with
// execute.Run (the time limit, the heap watchdog), workers at once.
func inProcessEvaluator(st *solvers.Strategy, cfg adversary.Config, workers int, budget solvers.Budget) adversary.Evaluator {
	return func(ctx context.Context, batch []*solvers.Workload) ([]adversary.Outcome, error) {
		outs := make([]adversary.Outcome, len(batch))
		err := solvers.ForEachLimit(ctx, 2*len(batch), workers, func(i int) error {
			side, o := cfg.A, &outs[i/2].A
			if i%2 == 1 {
				side, o = cfg.B, &outs[i/2].B
			}
			rep, err := execute.Run(ctx, st, batch[i/2], side.Variant, side.Params, nil, budget)
			*o = adversary.SideOf(rep, err, cfg.Metric)
			return ctx.Err()
		}, nil)
		return outs, err
	}
}

// parseRange reads name=lo..hi.
func parseRange(s string) (adversary.Range, error) {
	name, r, ok := strings.Cut(s, "=")
	lo, hi, ok2 := strings.Cut(r, "..")
	if !ok || !ok2 || name == "" {
		return adversary.Range{}, fmt.Errorf("--vary wants name=lo..hi, got %q", s)
	}
	l, err1 := strconv.ParseFloat(lo, 64)
	h, err2 := strconv.ParseFloat(hi, 64)
	if err1 != nil || err2 != nil {
		return adversary.Range{}, fmt.Errorf("--vary %s: lo and hi must be numbers, got %q", name, r)
	}
	return adversary.Range{Name: name, Lo: l, Hi: h}, nil
}

func formatScore(s float64) string {
	switch {
	case math.IsInf(s, 1):
		return "+Inf (A failed, B did not)"
	case math.IsInf(s, -1):
		return "-Inf (B failed, A did not)"
	}
	return strconv.FormatFloat(s, 'f', 4, 64)
}

// jsonSafe writes ±Inf scores as strings (JSON has no infinities).
func jsonSafe(e adversary.Evaluation) any {
	type alias adversary.Evaluation
	out := struct {
		alias
		Score any `json:"score"`
		Best  any `json:"best"`
	}{alias: alias(e), Score: e.Score, Best: e.Best}
	if math.IsInf(e.Score, 0) {
		out.Score = formatScore(e.Score)
	}
	if math.IsInf(e.Best, 0) {
		out.Best = formatScore(e.Best)
	}
	return out
}

func writeReport(path string, r *report.Report) error {
	if err := r.Validate(); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.WriteJSON(f, true); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
