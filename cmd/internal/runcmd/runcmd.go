// Package runcmd is the command line's worker and run commands, which
// execute strategies and link no store: schedlab and schedlab-worker (a
// binary without SQLite, for the machines that only execute runs) both
// call it. It holds the flags the other commands share too.
package runcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/queue/worker"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/batsim"
	"schedlab/solvers/registry"
)

// WorkerUsage and RunUsage are the synopses of the worker and run
// commands in the usage text.
const (
	WorkerUsage = `  schedlab worker --nats URL --creds FILE [--concurrency N] [--exit-when-idle D] [--scheduler NAME=COMMAND]...   (joins a server's queue and executes runs)`
	RunUsage    = `  schedlab run --strategy S [--variant V] (--workload FILE ... | --preset P) [--seed N] [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR] [--batsim-out PREFIX]
               [--scheduler NAME=COMMAND]... [--scheduler-endpoint tcp://host:port]   (a decision process speaking Batsim's protocol schedules an SWF trace)`
)

// Worker is the worker command: --scheduler NAME=… registrations, then
// worker.Main's flags; it executes runs of this build's strategies until
// ctx is done.
func Worker(ctx context.Context, args []string, stderr io.Writer) error {
	if err := registry.Check(); err != nil {
		return fmt.Errorf("this build's strategies are inconsistent: %w", err)
	}
	rest, scheds, err := TakeSchedulers(args)
	if err != nil {
		return err
	}
	set, err := registry.WithSchedulers(scheds)
	if err != nil {
		return err
	}
	return worker.Main(ctx, rest, Lookup(set), stderr)
}

// BudgetFlags are the run limits shared by serve, run and reproduce.
type BudgetFlags struct {
	Timeout  time.Duration
	MemoryMB uint64
}

func (b *BudgetFlags) Register(fs *flag.FlagSet) {
	fs.DurationVar(&b.Timeout, "timeout", solvers.DefaultTimeout, "time limit of one run")
	fs.Uint64Var(&b.MemoryMB, "memory-mb", uint64(solvers.DefaultMemory>>20), "Go heap budget of a run, MiB")
}

// Budget is the flags' budget; a --memory-mb past what int64 bytes hold
// is no limit (the most int64 holds).
func (b *BudgetFlags) Budget() solvers.Budget {
	mem := int64(math.MaxInt64)
	if b.MemoryMB <= math.MaxInt64>>20 {
		mem = int64(b.MemoryMB) << 20
	}
	return solvers.Budget{Timeout: b.Timeout, Memory: mem}
}

// Params collects repeated --param k=v.
type Params solvers.Params

func (p Params) String() string { return "" }
func (p Params) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("--param wants name=value, got %q", v)
	}
	p[k] = val
	return nil
}

// Schedulers collects repeated --scheduler NAME=COMMAND|NAME=tcp://…
// (the operator's registrations of decision processes).
type Schedulers []batsim.Scheduler

func (f *Schedulers) String() string { return "" }
func (f *Schedulers) Set(v string) error {
	s, err := batsim.ParseScheduler(v)
	if err != nil {
		return err
	}
	*f = append(*f, s)
	return nil
}

// args are the flags again, for the worker processes serve starts.
func (f Schedulers) Args() []string {
	var out []string
	for _, s := range f {
		out = append(out, "--scheduler", s.String())
	}
	return out
}

// TakeSchedulers removes --scheduler NAME=… (or --scheduler=NAME=…) from
// a worker's arguments and reads them.
func TakeSchedulers(args []string) ([]string, Schedulers, error) {
	var rest []string
	var sf Schedulers
	for i := 0; i < len(args); i++ {
		a := args[i]
		v, ok := strings.CutPrefix(strings.TrimPrefix(a, "-"), "-scheduler=")
		if !ok && (a == "--scheduler" || a == "-scheduler") {
			if i+1 == len(args) {
				return nil, nil, errors.New("--scheduler: missing NAME=COMMAND or NAME=tcp://host:port")
			}
			v, ok = args[i+1], true
			i++
		}
		if !ok {
			rest = append(rest, a)
			continue
		}
		if err := sf.Set(v); err != nil {
			return nil, nil, err
		}
	}
	return rest, sf, nil
}

// List collects a repeated string flag.
type List []string

func (l *List) String() string     { return strings.Join(*l, ",") }
func (l *List) Set(v string) error { *l = append(*l, v); return nil }

// Run is the run command: one strategy on one workload (files, or a
// preset), its report written as OutputFlags say.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strategy := fs.String("strategy", "", "strategy family (see `schedlab strategies`)")
	variant := fs.String("variant", "", "variant (default: the strategy's first)")
	preset := fs.String("preset", "", "generate the workload from this preset")
	seed := fs.Int64("seed", 1, "seed of the preset generator")
	var o OutputFlags
	o.Register(fs)
	var workloads List
	fs.Var(&workloads, "workload", "workload file; repeat for file sets (e.g. etc.csv, apc.csv, users.csv)")
	params := Params{}
	fs.Var(params, "param", "parameter name=value (preset and run parameters), repeatable")
	var b BudgetFlags
	b.Register(fs)
	var sf Schedulers
	fs.Var(&sf, "scheduler", "register a decision process as variant external:NAME: NAME=COMMAND ({endpoint} in it) or NAME=tcp://host:port; repeatable")
	endpoint := fs.String("scheduler-endpoint", "", "a decision process already listening (tcp://host:port): runs the trace as variant external:cli of cyclic (the default then)")
	batsimOut := fs.String("batsim-out", "", "a batch run: also write Batsim's output files PREFIX_jobs.csv and PREFIX_schedule.csv (all of Batsim 4.2.1's columns)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *endpoint != "" {
		s, err := batsim.EndpointScheduler(*endpoint)
		if err != nil {
			return err
		}
		sf = append(sf, s)
		if *strategy == "" {
			*strategy = "cyclic"
		}
		if *variant == "" {
			*variant = s.Variant()
		}
	}
	set, err := registry.WithSchedulers(sf)
	if err != nil {
		return err
	}
	st, ok := Lookup(set)(*strategy)
	if !ok {
		return fmt.Errorf("--strategy: unknown strategy %q (see `schedlab strategies`)", *strategy)
	}
	if (len(workloads) == 0) == (*preset == "") {
		return errors.New("give either --workload FILE or --preset NAME")
	}
	defer execute.OneShot(b.Budget())() // one run, then exit: collect less (see OneShotGCPercent)
	if len(workloads) == 1 && runsFile(st, workloads[0], *variant) {
		// Straight from the file, read as it streams: no stored workload.
		rep, err := runFromFile(ctx, st, workloads[0], *variant, solvers.Params(params), Progress(stderr), b.Budget())
		if err != nil {
			return err
		}
		return writeRun(rep, &o, *batsimOut, stdout)
	}
	w, runParams, err := LoadWorkload(ctx, st, workloads, *preset, *seed, solvers.Params(params), b.Budget())
	if err != nil {
		return err
	}
	rep, err := execute.Run(ctx, st, w, *variant, runParams, Progress(stderr), b.Budget())
	if err != nil {
		return Describe(err)
	}
	return writeRun(rep, &o, *batsimOut, stdout)
}

// writeRun writes a run's report as o says, then its Batsim files when
// batsimOut is a prefix (the report is written even when they cannot be).
func writeRun(rep *report.Report, o *OutputFlags, batsimOut string, stdout io.Writer) error {
	if err := o.Write(rep, stdout); err != nil {
		return err
	}
	if batsimOut != "" {
		return writeBatsimOut(rep, batsimOut)
	}
	return nil
}

// runsFile says whether st runs variant straight from the file path
// (Strategy.RunFile: cyclic's batch on an SWF trace).
func runsFile(st *solvers.Strategy, path, variant string) bool {
	v, err := st.ResolveVariant(variant)
	return err == nil && st.RunsFileOf(filepath.Base(path), v)
}

// runFromFile runs st straight from the file at path, read as it streams.
func runFromFile(ctx context.Context, st *solvers.Strategy, path, variant string, params solvers.Params, progress solvers.Progress, budget solvers.Budget) (*report.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := execute.File(ctx, st, filepath.Base(path), f, variant, params, progress, budget)
	return rep, Describe(err)
}

// LoadWorkload parses workload files or generates a preset. Parameters named
// by the preset go to the generator; the rest are run parameters.
func LoadWorkload(ctx context.Context, st *solvers.Strategy, files []string, preset string, seed int64, params solvers.Params, budget solvers.Budget) (*solvers.Workload, solvers.Params, error) {
	runParams := solvers.Params{}
	if preset == "" {
		var fs []solvers.File
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			fs = append(fs, solvers.File{Name: filepath.Base(f), Data: data})
		}
		w, err := execute.Parse(ctx, st, fs, budget)
		for k, v := range params {
			runParams[k] = v
		}
		return w, runParams, Describe(err)
	}
	p, err := st.FindPreset(preset, "--preset")
	if err != nil {
		return nil, nil, Describe(err)
	}
	gen := solvers.Params{}
	for k, v := range params {
		if hasSpec(p.Params, k) {
			gen[k] = v
		} else {
			runParams[k] = v
		}
	}
	resolved, err := solvers.Resolve(p.Params, gen)
	if err != nil {
		return nil, nil, Describe(err)
	}
	w, err := execute.Generate(ctx, st, preset, resolved, seed, budget)
	return w, runParams, Describe(err)
}

func hasSpec(specs []solvers.ParamSpec, name string) bool {
	for _, s := range specs {
		if s.Name == name {
			return true
		}
	}
	return false
}

// Describe prefixes an error with the field it names.
func Describe(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", errs.KindOf(err), err)
}

// Progress prints progress to stderr at most a few times a second.
func Progress(w io.Writer) solvers.Progress {
	var last time.Time
	return func(done, total int, note string) {
		if now := time.Now(); now.Sub(last) > 500*time.Millisecond || done == total {
			last = now
			fmt.Fprintf(w, "\r%d/%d %s\033[K", done, total, note)
			if done == total {
				fmt.Fprintln(w)
			}
		}
	}
}
