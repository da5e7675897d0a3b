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
	"strings"
	"sync"

	"schedlab/cmd/internal/runcmd"
	"schedlab/errs"
	"schedlab/execute"
	"schedlab/experiments"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/service"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/solvers/sweep"
	"schedlab/store"
)

// sweepDefinition reads an experiment definition: a file, or a family's
// seed experiment written seed:FAMILY/NAME (the ones /reproduce lists).
func sweepDefinition(exps *service.Service, file string) (*sweep.Definition, error) {
	if ref, ok := strings.CutPrefix(file, "seed:"); ok {
		def, err := exps.Seed(ref)
		if e := (*errs.Error)(nil); errors.As(err, &e) && e.Err != nil {
			err = e.Err // the file names the field
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return def, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	def, err := experiments.Parse(data)
	return def, runcmd.Describe(err)
}

// sweepLookup finds a family for `schedlab sweep`.
func sweepLookup(name string) (*solvers.Strategy, error) {
	if st, ok := registry.Lookup(name); ok {
		return st, nil
	}
	return nil, errs.New(errs.NotFound, "strategy", "unknown strategy %q (see `schedlab strategies`)", name)
}

// sweepCmd runs an experiment definition in this process, with the code
// the server uses (service.Start, over a store of its own that keeps the
// experiment in memory; AggregateWith; every run through execute.Run
// under the budget), and writes {"rows": [...]}: one
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
	// No budget of generated workloads: they are this process's to hold.
	unbounded := service.Budget{ExperimentBytes: math.MaxInt64, ExperimentWorkloads: math.MaxInt64, UserBytes: math.MaxInt64, UserWorkloads: math.MaxInt64}
	var exp memExperiment
	exps := service.New(&exp, sweepLookup, service.Options{Budget: unbounded, Limits: b.Budget()})
	def, err := sweepDefinition(exps, file)
	if err != nil {
		return err
	}
	st, err := sweepLookup(def.Strategy)
	if err != nil {
		return err
	}
	if len(def.Workload.IDs) > 0 {
		return errors.New("workload.ids names stored workloads, which only a server has: use a preset with a grid here, or POST the definition to /api/experiments")
	}
	if _, err := exps.Start(ctx, def, ""); err != nil {
		return runcmd.Describe(err)
	}
	results, decls, err := exp.run(ctx, st, *workers, b.Budget(), stderr)
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

// memExperiment is the store of `schedlab sweep`: it keeps the one
// experiment service.Start makes, for this process to run.
type memExperiment struct {
	runs    []*runtypes.Run
	cells   []store.ExperimentCell
	recipes []runtypes.Recipe
}

func (m *memExperiment) GetWorkloadInfo(_ context.Context, id string) (*runtypes.Workload, error) {
	return nil, errs.New(errs.NotFound, "workload_id", "no workload %q", id) // refused before: only a server stores workloads
}

func (m *memExperiment) GetRunInfo(_ context.Context, id string) (*runtypes.Run, error) {
	return nil, errs.New(errs.NotFound, "id", "no run %q", id)
}

func (m *memExperiment) WorkloadUsage(context.Context, string) (store.Usage, error) {
	return store.Usage{}, nil
}

func (m *memExperiment) CreateExperiment(_ context.Context, _ *store.Experiment, runs []*runtypes.Run, cells []store.ExperimentCell, recipes ...runtypes.Recipe) error {
	m.runs, m.cells, m.recipes = runs, cells, recipes
	return nil
}

// run generates each recipe's workload once and executes the runs on a
// pool of workers; a run that fails is a failed result, not an error of
// the sweep (it is counted, never dropped).
func (m *memExperiment) run(ctx context.Context, st *solvers.Strategy, workers int, budget solvers.Budget, stderr io.Writer) ([]experiments.RunResult, []report.Metric, error) {
	workloads := map[string]*solvers.Workload{}
	for _, rc := range m.recipes {
		w, err := execute.Generate(ctx, st, rc.Preset, rc.Params, rc.Seed, budget)
		if err != nil {
			return nil, nil, fmt.Errorf("workload %s: %w", rc.Name, runcmd.Describe(err))
		}
		workloads[rc.WorkloadID] = w
	}
	results := make([]experiments.RunResult, len(m.runs))
	var decls []report.Metric // the metrics' declarations, from the first done run's report
	var first sync.Once
	err := solvers.ForEachLimit(ctx, len(m.runs), workers, func(i int) error {
		r := m.runs[i]
		var cell map[string]string
		if err := json.Unmarshal(m.cells[i].Cell, &cell); err != nil {
			return err
		}
		res := experiments.RunResult{Params: cell, Variant: r.Variant, Status: runtypes.StatusDone, Metrics: map[string]float64{},
			Replicate: m.cells[i].Replicate}
		rep, err := execute.Run(ctx, st, workloads[r.WorkloadID], r.Variant, r.Params, nil, budget)
		if err != nil {
			res.Status = runtypes.StatusFailed
			fmt.Fprintf(stderr, "run %d (%s %v): %v\n", i, r.Variant, cell, err)
		} else {
			for _, m := range rep.Metrics {
				res.Metrics[m.Name] = m.Value
			}
			first.Do(func() { decls = rep.Metrics })
		}
		results[i] = res
		return nil
	}, func(done int) { fmt.Fprintf(stderr, "\r%d/%d runs\033[K", done, len(m.runs)) })
	fmt.Fprintln(stderr)
	if err != nil {
		return nil, nil, err
	}
	return results, decls, nil
}
