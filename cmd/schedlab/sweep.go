package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"schedlab/cmd/internal/runcmd"
	"schedlab/execute"
	"schedlab/experiments"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/registry"
)

// definitionBytes reads an experiment definition: a file, or a family's
// seed experiment written seed:FAMILY/NAME (the ones /reproduce lists).
func definitionBytes(file string) ([]byte, error) {
	ref, ok := strings.CutPrefix(file, "seed:")
	if !ok {
		return os.ReadFile(file)
	}
	family, name, _ := strings.Cut(ref, "/")
	st, found := registry.Lookup(family)
	if !found {
		return nil, fmt.Errorf("%s: unknown strategy %q (see `schedlab strategies`)", file, family)
	}
	var names []string
	if st.SeedExperiments != nil {
		for _, sw := range st.SeedExperiments() {
			if sw.Name == name {
				return sw.JSON(), nil
			}
			names = append(names, sw.Name)
		}
	}
	return nil, fmt.Errorf("%s: %s has no seed experiment %q (it has: %s)", file, family, name, strings.Join(names, ", "))
}

// sweepCmd runs an experiment definition in this process, with the code
// the server uses (experiments.Plan, AggregateWith; every run
// through execute.Run under the budget), and writes {"rows": [...]}: one
// row per cell, variant and metric, as GET /api/experiments/:id/results.
func sweepCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "usage: schedlab sweep FILE|seed:FAMILY/NAME [--out results.json] [--keep a,b] [--workers N]"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return errors.New(use)
	}
	file, args := args[0], args[1:]
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the results JSON here (default stdout)")
	workers := fs.Int("workers", 2, "runs executed at once")
	keep := fs.String("keep", "", "pool every swept value but these (comma list, e.g. gamma): the rows' samples span the rest")
	var b runcmd.BudgetFlags
	b.Register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	data, err := definitionBytes(file)
	if err != nil {
		return err
	}
	def, err := experiments.Parse(data)
	if err != nil {
		return runcmd.Describe(err)
	}
	st, ok := registry.Lookup(def.Strategy)
	if !ok {
		return fmt.Errorf("strategy: unknown strategy %q (see `schedlab strategies`)", def.Strategy)
	}
	if len(def.Workload.IDs) > 0 {
		return errors.New("workload.ids names stored workloads, which only a server has: use a preset with a grid here, or POST the definition to /api/experiments")
	}
	runs, err := experiments.Plan(def, st)
	if err != nil {
		return runcmd.Describe(err)
	}
	results, decls, err := sweepRuns(ctx, st, runs, *workers, b.Budget(), stderr)
	if err != nil {
		return err
	}
	// As the server aggregates: a metric bounded by its declaration gets
	// the bootstrap interval.
	o := experiments.Options{Bounded: experiments.BoundedSet(experiments.Infos(decls))}
	if *keep != "" {
		o.Keep = strings.Split(*keep, ",")
	}
	rows := experiments.AggregateWith(results, o)
	body, err := json.MarshalIndent(map[string]any{"rows": rows}, "", "  ")
	if err != nil {
		return err
	}
	body = append(body, '\n')
	if *out == "" {
		_, err = stdout.Write(body)
		return err
	}
	return os.WriteFile(*out, body, 0o644)
}

// sweepRuns generates each distinct workload once and executes the runs on
// a pool of workers; a run that fails is a failed result, not an error of
// the sweep (it is counted, never dropped).
func sweepRuns(ctx context.Context, st *solvers.Strategy, runs []experiments.Run, workers int, budget solvers.Budget, stderr io.Writer) ([]experiments.RunResult, []report.Metric, error) {
	workloads := map[string]*solvers.Workload{}
	for _, r := range runs {
		key := r.WorkloadKey()
		if workloads[key] != nil {
			continue
		}
		specs := presetSpecs(st, r.Workload.Preset)
		params, err := solvers.Resolve(specs, r.Workload.Params)
		if err != nil {
			return nil, nil, runcmd.Describe(err)
		}
		w, err := execute.Generate(ctx, st, r.Workload.Preset, params, r.WorkloadSeed, budget)
		if err != nil {
			return nil, nil, fmt.Errorf("workload %s: %w", key, runcmd.Describe(err))
		}
		workloads[key] = w
	}
	results := make([]experiments.RunResult, len(runs))
	var decls []report.Metric // the metrics' declarations, from the first done run's report
	var first sync.Once
	err := solvers.ForEachLimit(ctx, len(runs), workers, func(i int) error {
		r := runs[i]
		res := experiments.RunResult{Params: r.Cell, Variant: r.Variant, Status: runtypes.StatusDone, Metrics: map[string]float64{},
			Replicate: r.Replicate}
		rep, err := execute.Run(ctx, st, workloads[r.WorkloadKey()], r.Variant, r.Params, nil, budget)
		if err != nil {
			res.Status = runtypes.StatusFailed
			fmt.Fprintf(stderr, "run %d (%s %v): %v\n", i, r.Variant, r.Cell, err)
		} else {
			for _, m := range rep.Metrics {
				res.Metrics[m.Name] = m.Value
			}
			first.Do(func() { decls = rep.Metrics })
		}
		results[i] = res
		return nil
	}, func(done int) { fmt.Fprintf(stderr, "\r%d/%d runs\033[K", done, len(runs)) })
	fmt.Fprintln(stderr)
	if err != nil {
		return nil, nil, err
	}
	return results, decls, nil
}

func presetSpecs(st *solvers.Strategy, preset string) []solvers.ParamSpec {
	for _, p := range st.Presets {
		if p.Name == preset {
			return p.Params
		}
	}
	return nil
}
