// Package queuetest provides Strategy, a *solvers.Strategy for tests of the
// queue with real worker processes: it records every execution in a file
// shared by the processes (so a test can count how often each run
// executed), sleeps, waits to be canceled, or kills its own process.
package queuetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// LogEnv names the environment variable holding the file every execution
// appends a line "i pid" to.
const LogEnv = "QUEUETEST_LOG"

// Variants of the strategy.
const (
	VariantOK   = "ok"   // sleeps ms, reporting progress, returns a report
	VariantWait = "wait" // waits until canceled (at most 60 s)
	VariantDie  = "die"  // kills its own process with SIGKILL, as the OOM killer would
	VariantGrow = "grow" // keeps allocating 1 MiB blocks until canceled (at most 4 GiB)
)

// Name is the strategy's name.
const Name = "qtest"

// Strategy is the test strategy.
var Strategy = &solvers.Strategy{
	Info: solvers.Info{Name: Name, Title: "Queue test strategy", Summary: "Records, sleeps, waits or dies."},
	Variants: []solvers.Variant{{Name: VariantOK, Doc: "sleep ms, then a report"},
		{Name: VariantWait, Doc: "wait until canceled"}, {Name: VariantDie, Doc: "SIGKILL its own process"},
		{Name: VariantGrow, Doc: "allocate until stopped"}},
	Params: params,
	Presets: []solvers.Preset{{Name: "tiny", Doc: "a workload of size n",
		Params: []solvers.ParamSpec{solvers.IntSpec("n", "4", "", "size", 1, 100)}}},
	ParseWorkload: func(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
		return nil, errs.Invalidf("file", "no uploads")
	},
	Generate: func(ctx context.Context, preset string, p solvers.Params, seed int64) (*solvers.Workload, error) {
		data, _ := json.Marshal(map[string]int{"n": p.Int("n")})
		return &solvers.Workload{Name: "tiny", Format: "preset", Summary: "tiny", Data: data}, nil
	},
	// A tiny workload is a few bytes (an experiment may generate it:
	// bench/sweep's no-op sweep).
	EstimateGenerate: func(preset string, p solvers.Params) (solvers.Estimate, error) {
		if preset != "tiny" {
			return solvers.Estimate{}, errs.Invalidf("preset", "no preset %q", preset)
		}
		return solvers.Estimate{Bytes: 64, Field: "n"}, nil
	},
	Reproduce: func(ctx context.Context, p solvers.Params, progress solvers.Progress) (*report.Report, error) {
		return okReport(1), nil
	},
	Run: run,
}

var params = []solvers.ParamSpec{
	solvers.IntSpec("i", "0", "", "a tag recorded with each execution", 0, 1<<30),
	solvers.IntSpec("ms", "0", "ms", "sleep of the ok variant", 0, 60000),
	solvers.IntSpec("rows", "0", "", "rows of 1 KiB in a table of the ok variant's report (a large report)", 0, 100000),
}

// Lookup finds Strategy by Name.
func Lookup(name string) (*solvers.Strategy, bool) {
	if name == Name {
		return Strategy, true
	}
	return nil, false
}

func run(ctx context.Context, w *solvers.Workload, variant string, p solvers.Params, progress solvers.Progress) (*report.Report, error) {
	p, err := solvers.Resolve(params, p)
	if err != nil {
		return nil, err
	}
	var wl struct{ N int }
	if err := json.Unmarshal(w.Data, &wl); err != nil || wl.N <= 0 {
		return nil, errs.Invalidf("workload", "not a tiny workload")
	}
	if f := os.Getenv(LogEnv); f != "" {
		fh, err := os.OpenFile(f, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(fh, "%d %d\n", p.Int("i"), os.Getpid())
		fh.Close()
	}
	progress(0, 1, "started")
	switch variant {
	case VariantDie:
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	case VariantGrow:
		var keep [][]byte
		for len(keep) < 4096 {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
			progress(len(keep), 4096, "allocating")
		}
		return nil, fmt.Errorf("allocated %d MiB and was never stopped", len(keep))
	case VariantWait:
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Minute):
		}
	default:
		if ms := p.Int("ms"); ms > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(ms) * time.Millisecond):
			}
		}
	}
	progress(1, 1, "done")
	r := okReport(float64(wl.N + p.Int("i")))
	if n := p.Int("rows"); n > 0 {
		t := report.Table{Title: "padding", Columns: []string{"row", "text"}}
		for i := range n {
			t.Rows = append(t.Rows, []any{i, fmt.Sprintf("%01024d", i)})
		}
		r.Tables = append(r.Tables, t)
	}
	return r, nil
}

func okReport(v float64) *report.Report {
	return &report.Report{Metrics: []report.Metric{{Name: "objective", Value: v, Better: report.Higher}}}
}
