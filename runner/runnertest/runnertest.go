// Package runnertest provides Fake, a *solvers.Strategy test double for
// the runner and for anything built on it (handlers, the CLI). Its
// behaviour is chosen by the variant, so one registered strategy covers
// success, failure, panic, time-outs, cancellation and memory blow-ups.
//
// It never blocks past its own bound: VariantWait returns when its context
// is done or after the wait_ms parameter, whichever comes first, and
// VariantAlloc stops at alloc_mb.
package runnertest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// Variants of the test strategy.
const (
	VariantOK      = "ok"      // reports progress steps × step_ms, returns a valid report
	VariantFail    = "fail"    // returns errs.Invalid on field FailField
	VariantPanic   = "panic"   // panics with PanicValue
	VariantWait    = "wait"    // waits for ctx (or wait_ms), then returns ctx's error (or a report)
	VariantAlloc   = "alloc"   // allocates and keeps 1 MiB blocks until ctx is done (or alloc_mb)
	VariantInvalid = "invalid" // returns a report with a NaN metric
)

// FailField and PanicValue are what VariantFail and VariantPanic produce.
const (
	FailField  = "steps"
	PanicValue = "runnertest: deliberate panic"
)

// Fake is the test double: Strategy is the strategy a runner or a server
// is given. The zero value is not usable: call New. It counts the runs
// executing at once (MaxRunning) so tests can check a worker
// pool's bound. A test may change Strategy's fields (a Run of its own)
// before it hands it out.
type Fake struct {
	*solvers.Strategy
	running    atomic.Int64
	maxRunning atomic.Int64
	started    atomic.Int64
}

// New returns a test strategy called name.
func New(name string) *Fake {
	s := &Fake{}
	params := []solvers.ParamSpec{
		solvers.IntSpec("steps", "3", "", "progress steps of the ok variant", 0, 1000),
		solvers.IntSpec("step_ms", "0", "ms", "sleep per step of the ok variant", 0, 10000),
		solvers.IntSpec("wait_ms", "10000", "ms", "longest wait of the wait variant", 0, 60000),
		solvers.IntSpec("alloc_mb", "2048", "MiB", "most memory the alloc variant takes", 1, 1<<16),
	}
	repro := append([]solvers.ParamSpec{solvers.ChoiceSpec("mode", VariantOK, "behaviour, as the run variants",
		VariantOK, VariantFail, VariantPanic, VariantWait, VariantAlloc, VariantInvalid)}, params...)
	s.Strategy = &solvers.Strategy{
		Info: solvers.Info{Name: name, Title: "Test strategy " + name, Summary: "A test double whose variant picks its behaviour."},
		Variants: []solvers.Variant{
			{Name: VariantOK, Doc: "report progress, then a valid report"},
			{Name: VariantFail, Doc: "fail with an invalid-input error on field " + FailField},
			{Name: VariantPanic, Doc: "panic"},
			{Name: VariantWait, Doc: "wait for cancellation (at most wait_ms)"},
			{Name: VariantAlloc, Doc: "allocate 1 MiB blocks until canceled (at most alloc_mb)"},
			{Name: VariantInvalid, Doc: "return a report with a NaN metric"},
		},
		Params: params,
		Presets: []solvers.Preset{{Name: "tiny", Doc: "a workload of size n",
			Params: []solvers.ParamSpec{solvers.IntSpec("n", "4", "", "size", 1, 100)}}},
		ReproduceParams: repro,
		ParseWorkload: func(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
			if len(files) != 1 {
				return nil, errs.Invalidf("file", "want one JSON file, got %d", len(files))
			}
			var w workload
			if err := json.Unmarshal(files[0].Data, &w); err != nil || w.N <= 0 {
				return nil, errs.Invalidf(files[0].Name, `want {"n": positive integer}`)
			}
			return newWorkload(files[0].Name, "json", w.N), nil
		},
		Generate: func(ctx context.Context, preset string, p solvers.Params, seed int64) (*solvers.Workload, error) {
			if preset != "tiny" {
				return nil, errs.Invalidf("preset", "unknown preset %q", preset)
			}
			return newWorkload(fmt.Sprintf("tiny seed %d", seed), "preset", p.Int("n")), nil
		},
		Run: func(ctx context.Context, w *solvers.Workload, variant string, p solvers.Params, progress solvers.Progress) (*report.Report, error) {
			defer s.enter()()
			var wl workload
			if err := json.Unmarshal(w.Data, &wl); err != nil {
				return nil, errs.Invalidf("workload", "not a test workload: %v", err)
			}
			// A family resolves its own params (solvers.Def does), as here.
			p, err := solvers.Resolve(params, p)
			if err != nil {
				return nil, err
			}
			variant = cmp.Or(variant, VariantOK)
			if progress == nil {
				progress = solvers.NoProgress
			}
			return behave(ctx, variant, p, progress, float64(wl.N))
		},
		Reproduce: func(ctx context.Context, p solvers.Params, progress solvers.Progress) (*report.Report, error) {
			defer s.enter()()
			p, err := solvers.Resolve(repro, p)
			if err != nil {
				return nil, err
			}
			if progress == nil {
				progress = solvers.NoProgress
			}
			return behave(ctx, p.String("mode"), p, progress, 1)
		},
	}
	return s
}

// Lookup returns a lookup function over the given strategies, as the runner takes.
func Lookup(ss ...*solvers.Strategy) func(string) (*solvers.Strategy, bool) {
	return func(name string) (*solvers.Strategy, bool) {
		for _, s := range ss {
			if s.Info.Name == name {
				return s, true
			}
		}
		return nil, false
	}
}

// MaxRunning is the most Run and Reproduce calls ever executing at once.
func (s *Fake) MaxRunning() int { return int(s.maxRunning.Load()) }

// Started is the number of Run and Reproduce calls begun so far.
func (s *Fake) Started() int { return int(s.started.Load()) }

// workload is the canonical JSON of a test workload.
type workload struct {
	N int `json:"n"`
}

func newWorkload(name, format string, n int) *solvers.Workload {
	data, _ := json.Marshal(workload{N: n})
	return &solvers.Workload{Name: name, Format: format, Summary: fmt.Sprintf("n = %d", n), Data: data}
}

func (s *Fake) enter() func() {
	s.started.Add(1)
	n := s.running.Add(1)
	for {
		m := s.maxRunning.Load()
		if n <= m || s.maxRunning.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { s.running.Add(-1) }
}

func behave(ctx context.Context, variant string, p solvers.Params, progress solvers.Progress, n float64) (*report.Report, error) {
	switch variant {
	case VariantOK:
		steps, stepMS := p.Int("steps"), p.Int("step_ms")
		for i := 1; i <= steps; i++ {
			if stepMS > 0 {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(time.Duration(stepMS) * time.Millisecond):
				}
			}
			progress(i, steps, fmt.Sprintf("step %d of %d", i, steps))
		}
		return okReport(n), nil
	case VariantFail:
		return nil, errs.Invalidf(FailField, "deliberate failure of the test strategy")
	case VariantPanic:
		panic(PanicValue)
	case VariantWait:
		progress(0, 1, "waiting")
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(p.Int("wait_ms")) * time.Millisecond):
			return okReport(n), nil
		}
	case VariantAlloc:
		var keep [][]byte
		for len(keep) < p.Int("alloc_mb") {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1 // touch every page
			}
			keep = append(keep, b)
			progress(len(keep), p.Int("alloc_mb"), "allocating")
		}
		return nil, fmt.Errorf("allocated %d MiB and was never stopped", len(keep))
	case VariantInvalid:
		r := okReport(n)
		r.Metrics = append(r.Metrics, report.Metric{Name: "broken", Value: math.NaN()})
		return r, nil
	}
	return nil, errs.Invalidf("variant", "unknown variant %q", variant)
}

func okReport(n float64) *report.Report {
	return &report.Report{
		Metrics: []report.Metric{{Name: "objective", Value: n, Better: report.Higher}},
		Tables:  []report.Table{{Title: "t", Columns: []string{"a"}, Rows: [][]any{{n}}}},
	}
}
